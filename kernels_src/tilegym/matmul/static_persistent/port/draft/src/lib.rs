//! The _static_persistent_matmul_kernel port and its C ABI: `wb__static_persistent_matmul_kernel` launches, `wb__static_persistent_matmul_kernel_emit` compiles Tile IR.
//! Drafted by workbench/port/rules: the launcher checks ranks and dtypes only.

mod kernel;

#[allow(unused_imports)]
use cutile::half::{bf16, f16};
use cutile::prelude::*;
#[allow(unused_imports)]
use wb_ffi::{Call, DTYPE_BF16, DTYPE_F16, DTYPE_F32, Error, set_error};

pub use kernel::_static_persistent_matmul_kernel_port;

wb_ffi::port! {
    /// _static_persistent_matmul_kernel(A, B, C, M, N, K, TILE_SIZE_M, TILE_SIZE_N, TILE_SIZE_K, TRANSPOSE_A, TRANSPOSE_B, GROUP_SIZE_M, LOAD_LATENCY): tensors [A, B, C], scalars [M, N, K], constants [TILE_SIZE_M, TILE_SIZE_N, TILE_SIZE_K, TRANSPOSE_A, TRANSPOSE_B, GROUP_SIZE_M, LOAD_LATENCY].
    wb__static_persistent_matmul_kernel, wb__static_persistent_matmul_kernel_emit, wb__static_persistent_matmul_kernel_build_id, _static_persistent_matmul_kernel_port;
    op "_static_persistent_matmul_kernel", tensors 3, scalars 3, consts 7;
    |call| {
        call.rank(0, 2)?;
        call.rank(1, 2)?;
        call.rank(2, 2)?;
        let (tile_size_m, tile_size_n, tile_size_k, transpose_a, transpose_b, group_size_m, load_latency) = (call.consts[0] as usize, call.consts[1] as usize, call.consts[2] as usize, call.consts[3] as usize, call.consts[4] as usize, call.consts[5] as usize, call.consts[6] as usize);
        call.require_dtype(0, wb_ffi::DTYPE_F16)?;
        call.require_dtype(1, wb_ffi::DTYPE_F16)?;
        call.require_dtype(2, wb_ffi::DTYPE_F16)?;
        launch(&call, tile_size_m, tile_size_n, tile_size_k, transpose_a, transpose_b, group_size_m, load_latency)
    }
}

/// One entry per specialization of the kernel's constant branches (port.toml [entries]).
fn launch(call: &Call, tile_size_m: usize, tile_size_n: usize, tile_size_k: usize, transpose_a: usize, transpose_b: usize, group_size_m: usize, load_latency: usize) -> Result<(), Error> {
    match (call.consts[3], call.consts[4], call.consts[5], call.consts[6],) {
        (0, 0, 8, -1,) => launch__static_persistent_matmul_kernel_transpose_a_false_transpose_b_false_group_size_m_8_load_latency_m1(call, tile_size_m, tile_size_n, tile_size_k, transpose_a, transpose_b, group_size_m, load_latency),
        (1, 1, 8, -1,) => launch__static_persistent_matmul_kernel_transpose_a_true_transpose_b_true_group_size_m_8_load_latency_m1(call, tile_size_m, tile_size_n, tile_size_k, transpose_a, transpose_b, group_size_m, load_latency),
        _ => Err(set_error(Error::BadArgument, format!("_static_persistent_matmul_kernel: TRANSPOSE_A={}, TRANSPOSE_B={}, GROUP_SIZE_M={}, LOAD_LATENCY={} has no entry in the port", call.consts[3], call.consts[4], call.consts[5], call.consts[6]))),
    }
}

fn launch__static_persistent_matmul_kernel_transpose_a_false_transpose_b_false_group_size_m_8_load_latency_m1(call: &Call, tile_size_m: usize, tile_size_n: usize, tile_size_k: usize, transpose_a: usize, transpose_b: usize, group_size_m: usize, load_latency: usize) -> Result<(), Error> {
    let A = call.input::<f16>(0)?;
    let B = call.input::<f16>(1)?;
    let C = call.output::<f16>(2)?;
    let M = call.scalars[0] as i32;
    let N = call.scalars[1] as i32;
    let K = call.scalars[2] as i32;
    let generics = vec![tile_size_m.to_string(), tile_size_n.to_string(), tile_size_k.to_string(), group_size_m.to_string(), load_latency.to_string()];
    // C partitioned by its stored tile: the grid is its tile count (check it against kernel.py's grid())
    unsafe {
        _static_persistent_matmul_kernel_port::_static_persistent_matmul_kernel_transpose_a_false_transpose_b_false_group_size_m_8_load_latency_m1(A, B, C.partition([tile_size_m, tile_size_n]), M, N, K)
            .generics(generics)
            .async_on(&call.stream)
    }
    .map(|_| ())
    .map_err(|e| call.launch_error(e))
}

fn launch__static_persistent_matmul_kernel_transpose_a_true_transpose_b_true_group_size_m_8_load_latency_m1(call: &Call, tile_size_m: usize, tile_size_n: usize, tile_size_k: usize, transpose_a: usize, transpose_b: usize, group_size_m: usize, load_latency: usize) -> Result<(), Error> {
    let A = call.input::<f16>(0)?;
    let B = call.input::<f16>(1)?;
    let C = call.output::<f16>(2)?;
    let M = call.scalars[0] as i32;
    let N = call.scalars[1] as i32;
    let K = call.scalars[2] as i32;
    let generics = vec![tile_size_m.to_string(), tile_size_n.to_string(), tile_size_k.to_string(), group_size_m.to_string(), load_latency.to_string()];
    // C partitioned by its stored tile: the grid is its tile count (check it against kernel.py's grid())
    unsafe {
        _static_persistent_matmul_kernel_port::_static_persistent_matmul_kernel_transpose_a_true_transpose_b_true_group_size_m_8_load_latency_m1(A, B, C.partition([tile_size_m, tile_size_n]), M, N, K)
            .generics(generics)
            .async_on(&call.stream)
    }
    .map(|_| ())
    .map_err(|e| call.launch_error(e))
}
