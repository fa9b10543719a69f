//! The layer_norm port and its C ABI: `wb_layer_norm` launches, `wb_layer_norm_emit` compiles Tile IR.

mod kernel;

use cutile::half::{bf16, f16};
use cutile::prelude::*;
use wb_ffi::{Call, DTYPE_BF16, DTYPE_F16, DTYPE_F32, Error};

pub use kernel::layer_norm_port;

wb_ffi::port! {
    /// layer_norm(x, weight, bias, out, eps, TILE_COLS): tensors [x, weight, bias, out], scalars [eps], constants [TILE_COLS].
    wb_layer_norm, wb_layer_norm_emit, wb_layer_norm_build_id, layer_norm_port;
    op "layer_norm", tensors 4, scalars 1, consts 1;
    |call| {
        call.rank(0, 2)?;
        call.rank(1, 1)?;
        call.rank(2, 1)?;
        call.rank(3, 2)?;
        let tile_cols = call.tile(0)?;
        call.require(call.extent(1, 0) == call.extent(0, 1) && call.extent(2, 0) == call.extent(0, 1),
                     || "weight and bias must have one value per column".into())?;
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
    let (x, weight, bias) = (call.input::<T>(0)?, call.input::<T>(1)?, call.input::<T>(2)?);
    let out = call.output::<T>(3)?;
    let eps = call.scalars[0] as f32;
    let generics = vec![T::DTYPE.as_str().to_string(), tile_cols.to_string()];
    // out partitioned [1, TILE_COLS]: one block per row, the grid of kernel.py's grid()
    unsafe {
        layer_norm_port::layer_norm(x, weight, bias, out.partition([1, tile_cols]), eps)
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
    let (x, weight, bias) = (call.input::<T>(0)?, call.input::<T>(1)?, call.input::<T>(2)?);
    let out = call.input::<T>(3)?;
    let eps = call.scalars[0] as f32;
    let generics = vec![T::DTYPE.as_str().to_string(), tile_cols.to_string()];
    unsafe {
        layer_norm_port::layer_norm_row_gather(x, weight, bias, out, eps)
            .generics(generics)
            .grid((call.extent(3, 0) as u32, 1, 1))
            .compile_options(call.options())
            .async_on(&call.stream)
    }
    .map(|_| ())
    .map_err(|e| call.launch_error(e))
}
