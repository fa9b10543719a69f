//! The port of tilegym.ops.cutile.swiglu:_swiglu_forward_kernel and its C ABI:
//! `wb_tilegym_swiglu_forward` launches, `..._emit` compiles Tile IR.

mod kernel;

use cutile::half::{bf16, f16};
use cutile::prelude::*;
use cutile::tile_kernel::TileKernel;
use wb_ffi::{DTYPE_BF16, DTYPE_F16, DTYPE_F32};

pub use kernel::swiglu_port;

wb_ffi::port! {
    /// _swiglu_forward_kernel(a, b, c, TILE_SIZE, check_bounds): tensors [a, b, c] (rows, n),
    /// constants [TILE_SIZE, check_bounds], then the launch.
    wb_tilegym_swiglu_forward, wb_tilegym_swiglu_forward_emit, wb_tilegym_swiglu_forward_build_id,
    swiglu_port;
    op "tilegym.swiglu.forward", tensors 3, scalars 0, consts 8;
    |call| {
        let (rows, n) = (call.dim(0, 0), call.dim(0, 1));
        for i in 0..3 {
            call.rank(i, 2)?;
            call.shape_is(i, &[rows, n])?;
            call.unit_stride(i, 1)?;
        }
        let tile = call.pow2(0, 1 << 16)?;
        call.require(tile >= n, || format!("TILE_SIZE {tile} < {n} columns"))?;
        let check = call.consts[1] != 0;
        // without the bounds check every lane of the tile must be a real column
        call.require(check || tile == n, || "check_bounds=false needs TILE_SIZE == columns".into())?;
        let launch = call.launch_at(2)?;
        call.require(launch.grid == (rows as u32, 1, 1), || "the grid is one block per row".into())?;
        match (call.dtype()?, check) {
            (DTYPE_F32, true) => launch!(call, launch, f32, swiglu_checked_f32),
            (DTYPE_F32, false) => launch!(call, launch, f32, swiglu_unchecked_f32),
            (DTYPE_F16, true) => launch!(call, launch, f16, swiglu_checked_f16),
            (DTYPE_F16, false) => launch!(call, launch, f16, swiglu_unchecked_f16),
            (DTYPE_BF16, true) => launch!(call, launch, bf16, swiglu_checked_bf16),
            (DTYPE_BF16, false) => launch!(call, launch, bf16, swiglu_unchecked_bf16),
            (other, _) => call.bad_dtype(other),
        }
    }
}

/// Launch the entry for one dtype on the call's raw arrays, grid and compile options.
macro_rules! launch {
    ($call:ident, $launch:ident, $t:ty, $entry:ident) => {{
        let (a, a0, a1, as0, as1) = $call.raw2::<$t>(0)?;
        let (b, b0, b1, bs0, bs1) = $call.raw2::<$t>(1)?;
        let (c, c0, c1, cs0, cs1) = $call.raw2::<$t>(2)?;
        let generics: Vec<String> = vec![$call.consts[0].to_string()];
        unsafe {
            swiglu_port::$entry(a, a0, a1, as0, as1, b, b0, b1, bs0, bs1, c, c0, c1, cs0, cs1)
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
