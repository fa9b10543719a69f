//! The matmul port and its C ABI: `wb_matmul` launches, `wb_matmul_emit` compiles Tile IR.

mod kernel;

use cutile::half::{bf16, f16};
use cutile::prelude::*;
use wb_ffi::{Call, DTYPE_BF16, DTYPE_F16, DTYPE_F32, Error};

pub use kernel::matmul_port;

wb_ffi::port! {
    /// matmul(a, b, c, TILE_M, TILE_N, TILE_K): tensors [a, b, c], scalars [], constants [TILE_M, TILE_N, TILE_K].
    wb_matmul, wb_matmul_emit, wb_matmul_build_id, matmul_port;
    op "matmul", tensors 3, scalars 0, consts 3;
    |call| {
        for i in 0..3 {
            call.rank(i, 2)?;
        }
        let (tile_m, tile_n, tile_k) = (call.tile(0)?, call.tile(1)?, call.tile(2)?);
        call.require(call.extent(0, 1) == call.extent(1, 0), || "a's columns must equal b's rows".into())?;
        call.require(call.extent(2, 0) == call.extent(0, 0) && call.extent(2, 1) == call.extent(1, 1),
                     || "c must be [rows of a, columns of b]".into())?;
        match call.dtype()? {
            DTYPE_F32 => dispatch::<f32>(&call, tile_m, tile_n, tile_k),
            DTYPE_F16 => dispatch::<f16>(&call, tile_m, tile_n, tile_k),
            DTYPE_BF16 => dispatch::<bf16>(&call, tile_m, tile_n, tile_k),
            other => call.bad_dtype(other),
        }
    }
}

fn launch<T: DType>(call: &Call, tile_m: usize, tile_n: usize, tile_k: usize) -> Result<(), Error> {
    let (a, b, c) = (call.input::<T>(0)?, call.input::<T>(1)?, call.output::<T>(2)?);
    let generics = vec![T::DTYPE.as_str().to_string(), tile_m.to_string(), tile_n.to_string(),
                        tile_k.to_string()];
    // c partitioned [TILE_M, TILE_N]: one output tile per block, the grid of kernel.py's grid()
    unsafe {
        matmul_port::matmul(a, b, c.partition([tile_m, tile_n]))
            .generics(generics)
            .compile_options(call.options())
            .async_on(&call.stream)
    }
    .map(|_| ())
    .map_err(|e| call.launch_error(e))
}

/// Program 0 is `launch` (kernel.py's tile program), 1 the persistent one (port.toml
/// `programs`).
fn dispatch<T: DType>(call: &Call, tile_m: usize, tile_n: usize, tile_k: usize) -> Result<(), Error> {
    match call.program()? {
        0 => launch::<T>(call, tile_m, tile_n, tile_k),
        _ => launch_persistent::<T>(call, tile_m, tile_n, tile_k),
    }
}

fn launch_persistent<T: DType>(call: &Call, tile_m: usize, tile_n: usize, tile_k: usize) -> Result<(), Error> {
    let (a, b, c) = (call.input::<T>(0)?, call.input::<T>(1)?, call.input::<T>(2)?);
    let generics = vec![T::DTYPE.as_str().to_string(), tile_m.to_string(), tile_n.to_string(),
                        tile_k.to_string()];
    // as many blocks as the SMs hold at the occupancy asked for (1 unless a hint says)
    let tiles = (call.extent(2, 0) as usize).div_ceil(tile_m) * (call.extent(2, 1) as usize).div_ceil(tile_n);
    let sms = wb_ffi::device(call.tensors[0].device)?.multiprocessor_count().map_err(|e| call.launch_error(e))?;
    let per_sm = call.hints.first().copied().filter(|&v| v > 0).unwrap_or(1) as usize;
    let grid = tiles.min(sms as usize * per_sm).max(1) as u32;
    unsafe {
        matmul_port::matmul_persistent(a, b, c)
            .generics(generics)
            .grid((grid, 1, 1))
            .compile_options(call.options())
            .async_on(&call.stream)
    }
    .map(|_| ())
    .map_err(|e| call.launch_error(e))
}
