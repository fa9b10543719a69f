//! The port of tilegym.ops.cutile.softmax:_softmax_kernel and its C ABI:
//! `wb_tilegym_softmax_gather` launches, `..._emit` compiles Tile IR, `..._build_id` names the build.

mod kernel;

use cutile::half::{bf16, f16};
use cutile::prelude::*;
use cutile::tile_kernel::TileKernel;
use wb_ffi::{DTYPE_BF16, DTYPE_F16, DTYPE_F32};

pub use kernel::softmax_gather_port;

wb_ffi::port! {
    /// _softmax_kernel(output, input, N_ROWS, TILE_SIZE, DIM_COLS): tensors [output, input],
    /// constants [N_ROWS, TILE_SIZE, DIM_COLS], then the launch (grid, hints).
    wb_tilegym_softmax_gather, wb_tilegym_softmax_gather_emit, wb_tilegym_softmax_gather_build_id,
    softmax_gather_port;
    op "tilegym.softmax.gather", tensors 2, scalars 0, consts 9;
    |call| {
        let (rows, cols) = (call.dim(1, 0), call.dim(1, 1));
        call.shape_is(0, &[rows, cols])?;
        call.unit_stride(0, 1)?;
        call.unit_stride(1, 1)?;
        let tile = call.pow2(1, 1 << 16)?;
        // the kernel reads one tile per row: a narrower tile would leave columns unwritten
        call.require(tile >= cols, || format!("TILE_SIZE {tile} < {cols} columns"))?;
        call.require(call.consts[0] == rows, || "N_ROWS must be the row count".into())?;
        call.require(call.consts[2] == cols, || "DIM_COLS must be the column count".into())?;
        let launch = call.launch_at(3)?;
        match call.dtype()? {
            DTYPE_F32 => launch!(call, launch, f32, softmax_gather_f32),
            DTYPE_F16 => launch!(call, launch, f16, softmax_gather_f16),
            DTYPE_BF16 => launch!(call, launch, bf16, softmax_gather_bf16),
            other => call.bad_dtype(other),
        }
    }
}

/// Launch the entry for one dtype on the call's raw arrays, grid and compile options.
macro_rules! launch {
    ($call:ident, $launch:ident, $t:ty, $entry:ident) => {{
        let (o, o0, o1, os0, os1) = $call.raw2::<$t>(0)?;
        let (x, x0, x1, xs0, xs1) = $call.raw2::<$t>(1)?;
        let generics: Vec<String> = $call.consts[..3].iter().map(|c| c.to_string()).collect();
        unsafe { softmax_gather_port::$entry(o, o0, o1, os0, os1, x, x0, x1, xs0, xs1) }
            .generics(generics)
            .grid($launch.grid)
            .compile_options($launch.options)
            .async_on(&$call.stream)
            .map(|_| ())
            .map_err(|e| $call.launch_error(e))
    }};
}
use launch;
