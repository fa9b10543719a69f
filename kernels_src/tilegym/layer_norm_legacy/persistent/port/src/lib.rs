//! The port of tilegym.ops.cutile.layer_norm_legacy:_persistent_layer_norm_fwd_kernel and its
//! C ABI: `wb_tilegym_layer_norm_legacy_persistent` launches, `..._emit` compiles Tile IR.

mod kernel;

use cutile::half::bf16;
use cutile::prelude::*;
use cutile::tile_kernel::TileKernel;
use wb_ffi::{Call, Error, Launch, DTYPE_BF16};

pub use kernel::layer_norm_persistent_port;

wb_ffi::port! {
    /// _persistent_layer_norm_fwd_kernel(X, Y, W, B, Mean, Rstd, N, D, EPS, STRIDE_X, STRIDE_Y,
    /// IS_SWISH, TRAINING, BLOCK_N, BLOCK_D, COMPUTE_MEAN_AND_RSTD, NUM_SMS): tensors
    /// [X (N, D) bf16, Y (N, D) bf16, W (D), B (D), Mean (N) f32, Rstd (N) f32], those 11
    /// constants (EPS as f64 bits), then the launch (grid, hints).
    wb_tilegym_layer_norm_legacy_persistent, wb_tilegym_layer_norm_legacy_persistent_emit,
    wb_tilegym_layer_norm_legacy_persistent_build_id, layer_norm_persistent_port;
    op "tilegym.layer_norm_legacy.persistent", tensors 6, scalars 0, consts 17;
    |call| {
        call.rank(0, 2)?;
        let (rows, d) = (call.dim(0, 0), call.dim(0, 1));
        call.shape_is(1, &[rows, d])?;
        call.shape_is(2, &[d])?;
        call.shape_is(3, &[d])?;
        call.shape_is(4, &[rows])?;
        call.shape_is(5, &[rows])?;
        for (i, dim) in [(0, 1), (1, 1), (2, 0), (3, 0), (4, 0), (5, 0)] {
            call.unit_stride(i, dim)?;
        }
        call.require(call.consts[0] == rows, || "N must be the number of rows".into())?;
        call.require(call.consts[1] == d, || "D must be the row width".into())?;
        call.require((call.const_f64(2) as f32) == 1e-6f32, || "this port is built for EPS = 1e-6".into())?;
        call.require(call.consts[3] == d && call.consts[4] == d, || "STRIDE_X and STRIDE_Y must be D (contiguous rows)".into())?;
        // the branches this port has: IS_SWISH 0, TRAINING 1, COMPUTE_MEAN_AND_RSTD 1
        call.require(call.consts[5] == 0 && call.consts[6] == 1 && call.consts[9] == 1,
                     || "this port is built for IS_SWISH 0, TRAINING 1, COMPUTE_MEAN_AND_RSTD 1".into())?;
        call.pow2(7, 1 << 10)?;
        let block_d = call.pow2(8, 1 << 16)?;
        // one tile spans the row: the kernel loads columns [0, BLOCK_D) only
        call.require(block_d >= d, || format!("BLOCK_D {block_d} < row width {d}"))?;
        let num_sms = call.consts[10];
        call.require(num_sms >= 1, || "NUM_SMS must be positive".into())?;
        let launch = call.launch_at(11)?;
        // the loop's step is NUM_SMS: a grid of another size would skip or repeat row blocks
        call.require(launch.grid == (num_sms as u32, 1, 1), || "the grid is (NUM_SMS, 1, 1)".into())?;
        match call.dtype_of(0) {
            DTYPE_BF16 => run::<bf16>(&call, launch),
            other => call.bad_dtype(other),
        }
    }
}

fn run<T: DType>(call: &Call, launch: Launch) -> Result<(), Error> {
    for i in 1..4 {
        call.expect_dtype::<T>(i)?;
    }
    call.expect_dtype::<f32>(4)?;
    call.expect_dtype::<f32>(5)?;
    let (x, y, w, b) = (call.input::<T>(0)?, call.input::<T>(1)?, call.input::<T>(2)?, call.input::<T>(3)?);
    let (mean, rstd) = (call.input::<f32>(4)?, call.input::<f32>(5)?);
    let c = call.consts;
    let generics = vec![T::DTYPE.as_str().to_string(), c[0].to_string(), c[1].to_string(),
                        c[7].to_string(), c[8].to_string(), c[10].to_string()];
    unsafe {
        layer_norm_persistent_port::layer_norm_persistent(x, y, w, b, mean, rstd)
            .generics(generics)
            .grid(launch.grid)
            .compile_options(launch.options)
            .async_on(&call.stream)
    }
    .map(|_| ())
    .map_err(|e| call.launch_error(e))
}
