//! The port of tilegym.ops.cutile.bmm:_static_persistent_bmm_kernel and its C ABI:
//! `wb_tilegym_bmm_static_persistent` launches, `..._emit` compiles Tile IR, `..._build_id`
//! names the build.

mod kernel;

use cutile::half::{bf16, f16};
use cutile::prelude::*;
use cutile::tile_kernel::TileKernel;
use wb_ffi::{Call, Error, Launch, DTYPE_BF16, DTYPE_F16, DTYPE_F32};

pub use kernel::bmm_static_persistent_port;

wb_ffi::port! {
    /// _static_persistent_bmm_kernel(A, B, C, Batch, M, N, K, TILE_M, TILE_N, TILE_K,
    /// GROUP_SIZE_M, LATENCY, TRANSPOSE_A, TRANSPOSE_B): tensors [A, B, C] (A Q x M x K or,
    /// transposed, Q x K x M; B Q x K x N or Q x N x K; C Q x M x N), scalars [Batch],
    /// constants [the ten], then the launch.
    wb_tilegym_bmm_static_persistent, wb_tilegym_bmm_static_persistent_emit,
    wb_tilegym_bmm_static_persistent_build_id, bmm_static_persistent_port;
    op "tilegym.bmm.static_persistent", tensors 3, scalars 1, consts 16;
    |call| {
        for t in 0..3 {
            call.rank(t, 3)?;
            call.unit_stride(t, 2)?;
        }
        let (trans_a, trans_b) = (flag(&call, 8)?, flag(&call, 9)?);
        let (m, n, k) = (call.consts[0], call.consts[1], call.consts[2]);
        let q = call.dim(2, 0);
        call.shape_is(0, &if trans_a { [q, k, m] } else { [q, m, k] })?;
        call.shape_is(1, &if trans_b { [q, n, k] } else { [q, k, n] })?;
        call.shape_is(2, &[q, m, n])?;
        let batch = call.scalars[0];
        call.require(batch == q as f64, || format!("Batch = {batch} must be the batch size {q}"))?;
        for tile in 3..6 {
            call.pow2(tile, 512)?;
        }
        call.require(call.consts[6] >= 1, || "GROUP_SIZE_M must be at least 1".into())?;
        call.require((1..=10).contains(&call.consts[7]), || "LATENCY must be in 1..10".into())?;
        let launch = call.launch_at(10)?;
        // the persistent loop strides over blocks of grid x; any count covers every tile once
        call.require(launch.grid.1 == 1 && launch.grid.2 == 1, || format!("grid {:?} must be 1-D", launch.grid))?;
        match call.dtype()? {
            DTYPE_F16 => run::<f16>(&call, launch, q as i32),
            DTYPE_BF16 => run::<bf16>(&call, launch, q as i32),
            DTYPE_F32 => run::<f32>(&call, launch, q as i32),
            other => call.bad_dtype(other),
        }
    }
}

/// A boolean constant (TRANSPOSE_A / TRANSPOSE_B): 0 or 1.
fn flag(call: &Call, index: usize) -> Result<bool, Error> {
    let v = call.consts[index];
    call.require(v == 0 || v == 1, || format!("constant {index} = {v} must be a boolean"))?;
    Ok(v == 1)
}

fn run<T: DType>(call: &Call, launch: Launch, batch: i32) -> Result<(), Error> {
    let (a, b, c) = (call.input::<T>(0)?, call.input::<T>(1)?, call.input::<T>(2)?);
    let mut generics = vec![T::DTYPE.as_str().to_string()];
    generics.extend(call.consts[..8].iter().map(|v| v.to_string()));
    generics.extend(call.consts[8..10].iter().map(|&v| (v == 1).to_string()));
    unsafe {
        bmm_static_persistent_port::bmm_static_persistent(a, b, c, batch)
            .generics(generics)
            .grid(launch.grid)
            .compile_options(launch.options)
            .async_on(&call.stream)
    }
    .map(|_| ())
    .map_err(|e| call.launch_error(e))
}
