//! The port of tilegym.ops.cutile.silu_and_mul:_silu_and_mul_kernel_row_wise and its C ABI:
//! `wb_tilegym_silu_and_mul_row_wise` launches, `..._emit` compiles Tile IR.

mod kernel;

use cutile::half::{bf16, f16};
use cutile::prelude::*;
use cutile::tile_kernel::TileKernel;
use wb_ffi::{DTYPE_BF16, DTYPE_F16, DTYPE_F32};

pub use kernel::silu_and_mul_port;

wb_ffi::port! {
    /// _silu_and_mul_kernel_row_wise(input, output, TILE_SIZE, TOTAL_HIDDEN_SIZE): tensors
    /// [input (rows, 2h), output (rows, h)], constants [TILE_SIZE, TOTAL_HIDDEN_SIZE], the launch.
    wb_tilegym_silu_and_mul_row_wise, wb_tilegym_silu_and_mul_row_wise_emit,
    wb_tilegym_silu_and_mul_row_wise_build_id, silu_and_mul_port;
    op "tilegym.silu_and_mul.row_wise", tensors 2, scalars 0, consts 8;
    |call| {
        call.rank(0, 2)?;
        call.rank(1, 2)?;
        let (rows, hidden) = (call.dim(1, 0), call.dim(1, 1));
        call.shape_is(0, &[rows, 2 * hidden])?;
        call.unit_stride(0, 1)?;
        call.unit_stride(1, 1)?;
        let tile = call.pow2(0, 1 << 16)?;
        call.require(tile >= hidden, || format!("TILE_SIZE {tile} < hidden size {hidden}"))?;
        call.require(call.consts[1] == hidden, || "TOTAL_HIDDEN_SIZE must be the output width".into())?;
        let launch = call.launch_at(2)?;
        call.require(launch.grid == (rows as u32, 1, 1), || "the grid is one block per row".into())?;
        match call.dtype()? {
            DTYPE_F32 => launch!(call, launch, f32, silu_and_mul_f32),
            DTYPE_F16 => launch!(call, launch, f16, silu_and_mul_f16),
            DTYPE_BF16 => launch!(call, launch, bf16, silu_and_mul_bf16),
            other => call.bad_dtype(other),
        }
    }
}

/// Launch the entry for one dtype on the call's raw arrays, grid and compile options.
macro_rules! launch {
    ($call:ident, $launch:ident, $t:ty, $entry:ident) => {{
        let (x, x0, x1, xs0, xs1) = $call.raw2::<$t>(0)?;
        let (o, o0, o1, os0, os1) = $call.raw2::<$t>(1)?;
        let generics: Vec<String> = $call.consts[..2].iter().map(|c| c.to_string()).collect();
        unsafe {
            silu_and_mul_port::$entry(x, x0, x1, xs0, xs1, o, o0, o1, os0, os1)
                .generics(generics)
                .grid($launch.grid)
                .compile_options($launch.options)
                .async_on(&$call.stream)
        }
        .map(|_| ())
        .map_err(|e| $call.launch_error(e))
    }};
}
use launch;
