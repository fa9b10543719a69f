//! The port of tilegym.ops.cutile.softmax:_softmax_kernel_tma and its C ABI:
//! `wb_tilegym_softmax_tma` launches, `..._emit` compiles Tile IR, `..._build_id` names the build.

mod kernel;

use cutile::half::{bf16, f16};
use cutile::prelude::*;
use cutile::tile_kernel::TileKernel;
use wb_ffi::{Call, Error, Launch, DTYPE_BF16, DTYPE_F16, DTYPE_F32};

pub use kernel::softmax_tma_port;

wb_ffi::port! {
    /// _softmax_kernel_tma(output, input, N_ROWS, N_COLS, TILE_SIZE): tensors [output, input],
    /// constants [N_ROWS, N_COLS, TILE_SIZE], then the launch (grid, hints).
    wb_tilegym_softmax_tma, wb_tilegym_softmax_tma_emit, wb_tilegym_softmax_tma_build_id, softmax_tma_port;
    op "tilegym.softmax.tma", tensors 2, scalars 0, consts 9;
    |call| {
        call.rank(0, 2)?;
        call.rank(1, 2)?;
        let (rows, cols) = (call.dim(1, 0), call.dim(1, 1));
        call.shape_is(0, &[rows, cols])?;
        call.unit_stride(0, 1)?;
        call.unit_stride(1, 1)?;
        let tile = call.pow2(2, 1 << 16)?;
        call.require(tile >= cols, || format!("TILE_SIZE {tile} < {cols} columns: a row is one tile"))?;
        call.require(call.consts[0] == rows, || "N_ROWS must be the row count".into())?;
        call.require(call.consts[1] == cols, || "N_COLS must be the column count".into())?;
        let launch = call.launch_at(3)?;
        match call.dtype()? {
            DTYPE_F32 => run::<f32>(&call, launch),
            DTYPE_F16 => run::<f16>(&call, launch),
            DTYPE_BF16 => run::<bf16>(&call, launch),
            other => call.bad_dtype(other),
        }
    }
}

fn run<T: DType>(call: &Call, launch: Launch) -> Result<(), Error> {
    let (output, input) = (call.input::<T>(0)?, call.input::<T>(1)?);
    let mut generics = vec![T::DTYPE.as_str().to_string()];
    generics.extend(call.consts[..3].iter().map(|c| c.to_string()));
    unsafe {
        softmax_tma_port::softmax_tma(output, input)
            .generics(generics)
            .grid(launch.grid)
            .compile_options(launch.options)
            .async_on(&call.stream)
    }
    .map(|_| ())
        .map_err(|e| call.launch_error(e))
}
