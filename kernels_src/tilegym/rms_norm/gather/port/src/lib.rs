//! The port of tilegym.ops.cutile.rms_norm:_rms_norm_kernel_gather and its C ABI:
//! `wb_tilegym_rms_norm_gather` launches, `..._emit` compiles Tile IR.

mod kernel;

use cutile::half::{bf16, f16};
use cutile::prelude::*;
use cutile::tile_kernel::TileKernel;
use wb_ffi::{DTYPE_BF16, DTYPE_F16, DTYPE_F32};

pub use kernel::rms_norm_gather_port;

wb_ffi::port! {
    /// _rms_norm_kernel_gather(x, w, out, Rstd, N, EPS, OFFSET, TILE_SIZE): tensors
    /// [x (rows, n), w (n), out (rows, n), Rstd (rows) f32], constants [N, EPS, OFFSET,
    /// TILE_SIZE] (floats as f64 bits), then the launch.
    wb_tilegym_rms_norm_gather, wb_tilegym_rms_norm_gather_emit,
    wb_tilegym_rms_norm_gather_build_id, rms_norm_gather_port;
    op "tilegym.rms_norm.gather", tensors 4, scalars 0, consts 10;
    |call| {
        call.rank(0, 2)?;
        let (rows, n) = (call.dim(0, 0), call.dim(0, 1));
        call.shape_is(1, &[n])?;
        call.shape_is(2, &[rows, n])?;
        call.shape_is(3, &[rows])?;
        call.unit_stride(0, 1)?;
        call.unit_stride(1, 0)?;
        call.unit_stride(2, 1)?;
        call.unit_stride(3, 0)?;
        call.require(call.consts[0] == n, || "N must be the row width".into())?;
        // the kernel's eps and offset are constants of the IR: this port has Llama's
        call.require((call.const_f64(1) as f32) == 1e-5f32, || "this port is built for eps = 1e-5".into())?;
        call.require(call.const_f64(2) == 0.0, || "this port is built for offset = 0.0".into())?;
        let tile = call.pow2(3, 1 << 16)?;
        let launch = call.launch_at(4)?;
        call.require(launch.grid == (rows as u32, 1, 1), || "the grid is one block per row".into())?;
        match call.dtype_of(0) {
            DTYPE_F32 => launch!(call, launch, f32, rms_norm_gather_f32),
            DTYPE_F16 => launch!(call, launch, f16, rms_norm_gather_f16),
            DTYPE_BF16 => launch!(call, launch, bf16, rms_norm_gather_bf16),
            other => call.bad_dtype(other),
        }
    }
}

/// Launch the entry for one dtype (x, w, out of it; Rstd f32) with the call's launch.
macro_rules! launch {
    ($call:ident, $launch:ident, $t:ty, $entry:ident) => {{
        let (x, x0, x1, xs0, xs1) = $call.raw2::<$t>(0)?;
        let (w, w0, ws0) = $call.raw1::<$t>(1)?;
        let (o, o0, o1, os0, os1) = $call.raw2::<$t>(2)?;
        let (r, r0, rs0) = $call.raw1::<f32>(3)?;
        let generics: Vec<String> = vec![$call.consts[0].to_string(), $call.consts[3].to_string()];
        unsafe {
            rms_norm_gather_port::$entry(x, x0, x1, xs0, xs1, w, w0, ws0, o, o0, o1, os0, os1, r, r0, rs0)
                .generics(generics)
                .grid($launch.grid)
                .compile_options($launch.options)
                .async_on(&$call.stream)
        }
        .map(|_| ())
        .map_err(|e| $call.launch_error(e))
    }};
}
use launch;
