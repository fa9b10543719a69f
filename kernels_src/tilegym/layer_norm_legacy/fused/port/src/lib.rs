//! The port of tilegym.ops.cutile.layer_norm_legacy:_layer_norm_fwd_kernel and its C ABI:
//! `wb_tilegym_layer_norm_legacy_fused` launches, `..._emit` compiles Tile IR.

mod kernel;

use cutile::half::{bf16, f16};
use cutile::prelude::*;
use cutile::tile_kernel::TileKernel;
use wb_ffi::{Call, Error, Launch, DTYPE_BF16, DTYPE_F16, DTYPE_F32};

pub use kernel::layer_norm_fused_port;

/// The (EPS, WEIGHT_SHIFT) pairs the port has an entry for, in entry order.
const ENTRIES: [(f32, f64); 3] = [(1e-5, 0.0), (1e-5, 1.0), (1e-6, 0.0)];

wb_ffi::port! {
    /// _layer_norm_fwd_kernel(X, Y, W, B, Mean, Rstd, N, EPS, WEIGHT_SHIFT, BLOCK_SIZE):
    /// tensors [X (M, N), Y (M, N), W (N), B (N), Mean (M) f32, Rstd (M) f32], constants
    /// [N, EPS, WEIGHT_SHIFT (f64 bits), BLOCK_SIZE], then the launch (grid, hints).
    wb_tilegym_layer_norm_legacy_fused, wb_tilegym_layer_norm_legacy_fused_emit,
    wb_tilegym_layer_norm_legacy_fused_build_id, layer_norm_fused_port;
    op "tilegym.layer_norm_legacy.fused", tensors 6, scalars 0, consts 10;
    |call| {
        call.rank(0, 2)?;
        let (m, n) = (call.dim(0, 0), call.dim(0, 1));
        call.shape_is(1, &[m, n])?;
        call.shape_is(2, &[n])?;
        call.shape_is(3, &[n])?;
        call.shape_is(4, &[m])?;
        call.shape_is(5, &[m])?;
        for (i, dim) in [(0, 1), (1, 1), (2, 0), (3, 0), (4, 0), (5, 0)] {
            call.unit_stride(i, dim)?;
        }
        call.require(call.consts[0] == n, || "N must be the row width".into())?;
        let key = (call.const_f64(1) as f32, call.const_f64(2));
        let which = ENTRIES.iter().position(|&e| e == key).ok_or_else(|| wb_ffi::set_error(
            wb_ffi::Error::BadArgument,
            format!("{}: this port has entries for (EPS, WEIGHT_SHIFT) in {ENTRIES:?}, not {key:?}", call.op)))?;
        call.pow2(3, 1 << 15)?;
        let launch = call.launch_at(4)?;
        call.require(launch.grid == (m as u32, 1, 1), || "the grid is one block per row".into())?;
        match call.dtype_of(0) {
            DTYPE_F32 => run::<f32>(&call, launch, which),
            DTYPE_F16 => run::<f16>(&call, launch, which),
            DTYPE_BF16 => run::<bf16>(&call, launch, which),
            other => call.bad_dtype(other),
        }
    }
}

fn run<T: DType>(call: &Call, launch: Launch, which: usize) -> Result<(), Error> {
    let (x, x0, x1, xs0, xs1) = call.raw2::<T>(0)?;
    let (y, y0, y1, ys0, ys1) = call.raw2::<T>(1)?;
    let (w, w0, ws0) = call.raw1::<T>(2)?;
    let (b, b0, bs0) = call.raw1::<T>(3)?;
    let (mean, m0, ms0) = call.raw1::<f32>(4)?;
    let (rstd, r0, rs0) = call.raw1::<f32>(5)?;
    let generics = vec![T::DTYPE.as_str().to_string(), call.consts[0].to_string(), call.consts[3].to_string()];
    macro_rules! go {
        ($entry:ident) => {
            unsafe {
                layer_norm_fused_port::$entry(x, x0, x1, xs0, xs1, y, y0, y1, ys0, ys1, w, w0, ws0,
                                              b, b0, bs0, mean, m0, ms0, rstd, r0, rs0)
                    .generics(generics)
                    .grid(launch.grid)
                    .compile_options(launch.options)
                    .async_on(&call.stream)
            }
            .map(|_| ())
            .map_err(|e| call.launch_error(e))
        };
    }
    match which {
        0 => go!(layer_norm_eps1e5_ws0),
        1 => go!(layer_norm_eps1e5_ws1),
        _ => go!(layer_norm_eps1e6_ws0),
    }
}
