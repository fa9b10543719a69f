//! The _static_persistent_bmm_kernel port and its C ABI: `wb__static_persistent_bmm_kernel` launches, `wb__static_persistent_bmm_kernel_emit` compiles Tile IR.
//! Drafted by workbench/port/rules: the launcher checks ranks and dtypes only.

mod kernel;

#[allow(unused_imports)]
use cutile::half::{bf16, f16};
use cutile::prelude::*;
#[allow(unused_imports)]
use wb_ffi::{Call, DTYPE_BF16, DTYPE_F16, DTYPE_F32, Error, set_error};

pub use kernel::_static_persistent_bmm_kernel_port;

wb_ffi::port! {
    /// _static_persistent_bmm_kernel(A, B, C, Batch, M, N, K, TILE_M, TILE_N, TILE_K, GROUP_SIZE_M, LATENCY, TRANSPOSE_A, TRANSPOSE_B): tensors [A, B, C], scalars [Batch], constants [M, N, K, TILE_M, TILE_N, TILE_K, GROUP_SIZE_M, LATENCY, TRANSPOSE_A, TRANSPOSE_B].
    wb__static_persistent_bmm_kernel, wb__static_persistent_bmm_kernel_emit, wb__static_persistent_bmm_kernel_build_id, _static_persistent_bmm_kernel_port;
    op "_static_persistent_bmm_kernel", tensors 3, scalars 1, consts 10;
    |call| {
        call.rank(0, 3)?;
        call.rank(1, 3)?;
        call.rank(2, 3)?;
        let (m, n, k, tile_m, tile_n, tile_k, group_size_m, latency, transpose_a, transpose_b) = (call.consts[0] as usize, call.consts[1] as usize, call.consts[2] as usize, call.consts[3] as usize, call.consts[4] as usize, call.consts[5] as usize, call.consts[6] as usize, call.consts[7] as usize, call.consts[8] as usize, call.consts[9] as usize);
        call.require_dtype(0, wb_ffi::DTYPE_F16)?;
        call.require_dtype(1, wb_ffi::DTYPE_F16)?;
        call.require_dtype(2, wb_ffi::DTYPE_F16)?;
        launch(&call, m, n, k, tile_m, tile_n, tile_k, group_size_m, latency, transpose_a, transpose_b)
    }
}

/// One entry per specialization of the kernel's constant branches (port.toml [entries]).
fn launch(call: &Call, m: usize, n: usize, k: usize, tile_m: usize, tile_n: usize, tile_k: usize, group_size_m: usize, latency: usize, transpose_a: usize, transpose_b: usize) -> Result<(), Error> {
    match (call.consts[0], call.consts[1], call.consts[3], call.consts[4], call.consts[6], call.consts[7], call.consts[8], call.consts[9],) {
        (128, 256, 64, 64, 8, 3, 0, 0,) => launch__static_persistent_bmm_kernel_m_128_n_256_tile_m_64_tile_n_64_group_size_m_8_latency_3_transpose_a_false_transpose_b_false(call, m, n, k, tile_m, tile_n, tile_k, group_size_m, latency, transpose_a, transpose_b),
        (2048, 2048, 64, 64, 8, 3, 1, 1,) => launch__static_persistent_bmm_kernel_m_2048_n_2048_tile_m_64_tile_n_64_group_size_m_8_latency_3_transpose_a_true_transpose_b_true(call, m, n, k, tile_m, tile_n, tile_k, group_size_m, latency, transpose_a, transpose_b),
        _ => Err(set_error(Error::BadArgument, format!("_static_persistent_bmm_kernel: M={}, N={}, TILE_M={}, TILE_N={}, GROUP_SIZE_M={}, LATENCY={}, TRANSPOSE_A={}, TRANSPOSE_B={} has no entry in the port", call.consts[0], call.consts[1], call.consts[3], call.consts[4], call.consts[6], call.consts[7], call.consts[8], call.consts[9]))),
    }
}

fn launch__static_persistent_bmm_kernel_m_128_n_256_tile_m_64_tile_n_64_group_size_m_8_latency_3_transpose_a_false_transpose_b_false(call: &Call, m: usize, n: usize, k: usize, tile_m: usize, tile_n: usize, tile_k: usize, group_size_m: usize, latency: usize, transpose_a: usize, transpose_b: usize) -> Result<(), Error> {
    let A = call.input::<f16>(0)?;
    let B = call.input::<f16>(1)?;
    let C = call.output::<f16>(2)?;
    let Batch = call.scalars[0] as i32;
    let generics = vec![m.to_string(), n.to_string(), k.to_string(), tile_m.to_string(), tile_n.to_string(), tile_k.to_string(), group_size_m.to_string(), latency.to_string()];
    // C partitioned by its stored tile: the grid is its tile count (check it against kernel.py's grid())
    unsafe {
        _static_persistent_bmm_kernel_port::_static_persistent_bmm_kernel_m_128_n_256_tile_m_64_tile_n_64_group_size_m_8_latency_3_transpose_a_false_transpose_b_false(A, B, C.partition([1, 64, 64]), Batch)
            .generics(generics)
            .async_on(&call.stream)
    }
    .map(|_| ())
    .map_err(|e| call.launch_error(e))
}

fn launch__static_persistent_bmm_kernel_m_2048_n_2048_tile_m_64_tile_n_64_group_size_m_8_latency_3_transpose_a_true_transpose_b_true(call: &Call, m: usize, n: usize, k: usize, tile_m: usize, tile_n: usize, tile_k: usize, group_size_m: usize, latency: usize, transpose_a: usize, transpose_b: usize) -> Result<(), Error> {
    let A = call.input::<f16>(0)?;
    let B = call.input::<f16>(1)?;
    let C = call.output::<f16>(2)?;
    let Batch = call.scalars[0] as i32;
    let generics = vec![m.to_string(), n.to_string(), k.to_string(), tile_m.to_string(), tile_n.to_string(), tile_k.to_string(), group_size_m.to_string(), latency.to_string()];
    // C partitioned by its stored tile: the grid is its tile count (check it against kernel.py's grid())
    unsafe {
        _static_persistent_bmm_kernel_port::_static_persistent_bmm_kernel_m_2048_n_2048_tile_m_64_tile_n_64_group_size_m_8_latency_3_transpose_a_true_transpose_b_true(A, B, C.partition([1, 64, 64]), Batch)
            .generics(generics)
            .async_on(&call.stream)
    }
    .map(|_| ())
    .map_err(|e| call.launch_error(e))
}
