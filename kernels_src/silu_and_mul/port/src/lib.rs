//! The silu_and_mul port and its C ABI: `wb_silu_and_mul` launches, `wb_silu_and_mul_emit` compiles Tile IR.

mod kernel;

use cutile::half::{bf16, f16};
use cutile::prelude::*;
use wb_ffi::{Call, DTYPE_BF16, DTYPE_F16, DTYPE_F32, Error};

pub use kernel::silu_and_mul_port;

wb_ffi::port! {
    /// silu_and_mul(gate, up, out, TILE_ROWS, TILE_COLS): tensors [gate, up, out], scalars [], constants [TILE_ROWS, TILE_COLS].
    wb_silu_and_mul, wb_silu_and_mul_emit, wb_silu_and_mul_build_id, silu_and_mul_port;
    op "silu_and_mul", tensors 3, scalars 0, consts 2;
    |call| {
        for i in 0..3 {
            call.rank(i, 2)?;
        }
        let (tile_rows, tile_cols) = (call.tile(0)?, call.tile(1)?);
        call.require((0..2).all(|d| call.extent(0, d) == call.extent(2, d) && call.extent(1, d) == call.extent(2, d)),
                     || "gate, up and out must have one shape".into())?;
        match call.dtype()? {
            DTYPE_F32 => launch::<f32>(&call, tile_rows, tile_cols),
            DTYPE_F16 => launch::<f16>(&call, tile_rows, tile_cols),
            DTYPE_BF16 => launch::<bf16>(&call, tile_rows, tile_cols),
            other => call.bad_dtype(other),
        }
    }
}

fn launch<T: DType>(call: &Call, tile_rows: usize, tile_cols: usize) -> Result<(), Error> {
    let (gate, up, out) = (call.input::<T>(0)?, call.input::<T>(1)?, call.output::<T>(2)?);
    let generics = vec![T::DTYPE.as_str().to_string(), tile_rows.to_string(), tile_cols.to_string()];
    // out partitioned [TILE_ROWS, TILE_COLS]: the grid of kernel.py's grid()
    unsafe {
        silu_and_mul_port::silu_and_mul(gate, up, out.partition([tile_rows, tile_cols]))
            .generics(generics)
            .compile_options(call.options())
            .async_on(&call.stream)
    }
    .map(|_| ())
    .map_err(|e| call.launch_error(e))
}
