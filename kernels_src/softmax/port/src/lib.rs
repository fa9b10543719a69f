//! The softmax port and its C ABI: `wb_softmax` launches, `wb_softmax_emit` compiles Tile IR.

mod kernel;

use cutile::half::{bf16, f16};
use cutile::prelude::*;
use wb_ffi::{Call, DTYPE_BF16, DTYPE_F16, DTYPE_F32, Error};

pub use kernel::softmax_port;

wb_ffi::port! {
    /// softmax(x, out, TILE_COLS): tensors [x, out], no scalars, constants [TILE_COLS].
    wb_softmax, wb_softmax_emit, wb_softmax_build_id, softmax_port;
    op "softmax", tensors 2, scalars 0, consts 1;
    |call| {
        call.rank(0, 2)?;
        call.rank(1, 2)?;
        let tile_cols = call.tile(0)?;
        call.require(call.extent(0, 1) <= tile_cols as i64, || "a row must fit one tile".into())?;
        match call.dtype()? {
            DTYPE_F32 => dispatch::<f32>(&call, tile_cols),
            DTYPE_F16 => dispatch::<f16>(&call, tile_cols),
            DTYPE_BF16 => dispatch::<bf16>(&call, tile_cols),
            other => call.bad_dtype(other),
        }
    }
}

fn launch<T: DType>(call: &Call, tile_cols: usize) -> Result<(), Error> {
    let (x, out) = (call.input::<T>(0)?, call.output::<T>(1)?);
    let generics = vec![T::DTYPE.as_str().to_string(), tile_cols.to_string()];
    // out partitioned [1, TILE_COLS]: one block per row, the grid of kernel.py's grid()
    unsafe {
        softmax_port::softmax(x, out.partition([1, tile_cols]))
            .generics(generics)
            .compile_options(call.options())
            .async_on(&call.stream)
    }
    .map(|_| ())
    .map_err(|e| call.launch_error(e))
}

/// Program 0 is `launch` (kernel.py's tile program), 1 the row gather (port.toml `programs`).
fn dispatch<T: DType>(call: &Call, tile_cols: usize) -> Result<(), Error> {
    match call.program()? {
        0 => launch::<T>(call, tile_cols),
        _ => launch_row_gather::<T>(call, tile_cols),
    }
}

fn launch_row_gather<T: DType>(call: &Call, tile_cols: usize) -> Result<(), Error> {
    // it scatters through out's pointer, one block per row as `launch`'s partition makes it
    let (x, out) = (call.input::<T>(0)?, call.input::<T>(1)?);
    let generics = vec![T::DTYPE.as_str().to_string(), tile_cols.to_string()];
    unsafe {
        softmax_port::softmax_row_gather(x, out)
            .generics(generics)
            .grid((call.extent(1, 0) as u32, 1, 1))
            .compile_options(call.options())
            .async_on(&call.stream)
    }
    .map(|_| ())
    .map_err(|e| call.launch_error(e))
}
