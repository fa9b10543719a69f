//! The port of tilegym.ops.cutile.rms_norm:_rms_norm_kernel_static_persistent and its C ABI:
//! `wb_tilegym_rms_norm_static_persistent` launches, `..._emit` compiles Tile IR.

mod kernel;

use cutile::half::{bf16, f16};
use cutile::prelude::*;
use cutile::tile_kernel::TileKernel;
use wb_ffi::{Call, Error, Launch, DTYPE_BF16, DTYPE_F16, DTYPE_F32};

pub use kernel::rms_norm_persistent_port;

wb_ffi::port! {
    /// _rms_norm_kernel_static_persistent(X, Y, W, Rstd, TILE_SIZE_M, TILE_SIZE_N, EPS, OFFSET):
    /// tensors [X (rows, n), Y (rows, n), W (n), Rstd (rows) f32], constants [TILE_SIZE_M,
    /// TILE_SIZE_N, EPS, OFFSET] (floats as f64 bits), then the launch (grid, hints).
    wb_tilegym_rms_norm_static_persistent, wb_tilegym_rms_norm_static_persistent_emit,
    wb_tilegym_rms_norm_static_persistent_build_id, rms_norm_persistent_port;
    op "tilegym.rms_norm.static_persistent", tensors 4, scalars 0, consts 10;
    |call| {
        call.rank(0, 2)?;
        let (rows, n) = (call.dim(0, 0), call.dim(0, 1));
        call.shape_is(1, &[rows, n])?;
        call.shape_is(2, &[n])?;
        call.shape_is(3, &[rows])?;
        call.unit_stride(0, 1)?;
        call.unit_stride(1, 1)?;
        call.unit_stride(2, 0)?;
        call.unit_stride(3, 0)?;
        call.pow2(0, 1 << 10)?;
        let tile_n = call.pow2(1, 1 << 16)?;
        // one tile spans the row: the kernel loads columns [0, TILE_SIZE_N) only
        call.require(tile_n >= n, || format!("TILE_SIZE_N {tile_n} < row width {n}"))?;
        // the kernel's EPS and OFFSET are constants of the IR: this port has Llama's
        call.require((call.const_f64(2) as f32) == 1e-5f32, || "this port is built for EPS = 1e-5".into())?;
        call.require(call.const_f64(3) == 0.0, || "this port is built for OFFSET = 0.0".into())?;
        let launch = call.launch_at(4)?;
        match call.dtype_of(0) {
            DTYPE_F32 => run::<f32>(&call, launch),
            DTYPE_F16 => run::<f16>(&call, launch),
            DTYPE_BF16 => run::<bf16>(&call, launch),
            other => call.bad_dtype(other),
        }
    }
}

fn run<T: DType>(call: &Call, launch: Launch) -> Result<(), Error> {
    call.expect_dtype::<T>(1)?;
    call.expect_dtype::<T>(2)?;
    call.expect_dtype::<f32>(3)?;
    let (x, y, w, rstd) = (call.input::<T>(0)?, call.input::<T>(1)?, call.input::<T>(2)?, call.input::<f32>(3)?);
    let generics = vec![T::DTYPE.as_str().to_string(), call.consts[0].to_string(), call.consts[1].to_string()];
    unsafe {
        rms_norm_persistent_port::rms_norm_persistent(x, y, w, rstd)
            .generics(generics)
            .grid(launch.grid)
            .compile_options(launch.options)
            .async_on(&call.stream)
    }
    .map(|_| ())
    .map_err(|e| call.launch_error(e))
}
