//! The _matmul_kernel port and its C ABI: `wb__matmul_kernel` launches, `wb__matmul_kernel_emit` compiles Tile IR.
//! Drafted by workbench/port/rules: the launcher checks ranks and dtypes only.

mod kernel;

#[allow(unused_imports)]
use cutile::half::{bf16, f16};
use cutile::prelude::*;
#[allow(unused_imports)]
use wb_ffi::{Call, DTYPE_BF16, DTYPE_F16, DTYPE_F32, Error, set_error};

pub use kernel::_matmul_kernel_port;

wb_ffi::port! {
    /// _matmul_kernel(A, B, C, TILE_SIZE_M, TILE_SIZE_N, TILE_SIZE_K): tensors [A, B, C], scalars [], constants [TILE_SIZE_M, TILE_SIZE_N, TILE_SIZE_K].
    wb__matmul_kernel, wb__matmul_kernel_emit, wb__matmul_kernel_build_id, _matmul_kernel_port;
    op "_matmul_kernel", tensors 3, scalars 0, consts 3;
    |call| {
        call.rank(0, 2)?;
        call.rank(1, 2)?;
        call.rank(2, 2)?;
        let (tile_size_m, tile_size_n, tile_size_k) = (call.tile(0)?, call.tile(1)?, call.tile(2)?);
        call.same_dtype(1, 0)?;
        call.same_dtype(2, 0)?;
        launch(&call, tile_size_m, tile_size_n, tile_size_k)
    }
}

/// One entry per specialization of the kernel's constant branches (port.toml [entries]).
fn launch(call: &Call, tile_size_m: usize, tile_size_n: usize, tile_size_k: usize) -> Result<(), Error> {
    match (call.dtype_of(0),) {
        (wb_ffi::DTYPE_F16,) => launch__matmul_kernel_f16(call, tile_size_m, tile_size_n, tile_size_k),
        (wb_ffi::DTYPE_F32,) => launch__matmul_kernel_f32(call, tile_size_m, tile_size_n, tile_size_k),
        _ => Err(set_error(Error::BadArgument, format!("_matmul_kernel: dtype(A)={} has no entry in the port", call.dtype_of(0)))),
    }
}

fn launch__matmul_kernel_f16(call: &Call, tile_size_m: usize, tile_size_n: usize, tile_size_k: usize) -> Result<(), Error> {
    let A = call.input::<f16>(0)?;
    let B = call.input::<f16>(1)?;
    let C = call.output::<f16>(2)?;
    let generics = vec![tile_size_m.to_string(), tile_size_n.to_string(), tile_size_k.to_string()];
    // C partitioned by its stored tile: the grid is its tile count (check it against kernel.py's grid())
    unsafe {
        _matmul_kernel_port::_matmul_kernel_f16(A, B, C.partition([tile_size_m, tile_size_n]))
            .generics(generics)
            .async_on(&call.stream)
    }
    .map(|_| ())
    .map_err(|e| call.launch_error(e))
}

fn launch__matmul_kernel_f32(call: &Call, tile_size_m: usize, tile_size_n: usize, tile_size_k: usize) -> Result<(), Error> {
    let A = call.input::<f32>(0)?;
    let B = call.input::<f32>(1)?;
    let C = call.output::<f32>(2)?;
    let generics = vec![tile_size_m.to_string(), tile_size_n.to_string(), tile_size_k.to_string()];
    // C partitioned by its stored tile: the grid is its tile count (check it against kernel.py's grid())
    unsafe {
        _matmul_kernel_port::_matmul_kernel_f32(A, B, C.partition([tile_size_m, tile_size_n]))
            .generics(generics)
            .async_on(&call.stream)
    }
    .map(|_| ())
    .map_err(|e| call.launch_error(e))
}
