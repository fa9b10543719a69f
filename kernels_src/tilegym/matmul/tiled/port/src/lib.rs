//! The port of tilegym.ops.cutile.matmul:_matmul_kernel and its C ABI:
//! `wb_tilegym_matmul_tiled` launches, `..._emit` compiles Tile IR, `..._build_id` names the build.

mod kernel;

use cutile::half::{bf16, f16};
use cutile::prelude::*;
use cutile::tile_kernel::TileKernel;
use wb_ffi::{DTYPE_BF16, DTYPE_F16, DTYPE_F32};

pub use kernel::matmul_tiled_port;

wb_ffi::port! {
    /// _matmul_kernel(A, B, C, TILE_SIZE_M, TILE_SIZE_N, TILE_SIZE_K): tensors [A, B, C]
    /// (M x K, K x N, M x N), constants [TILE_SIZE_M, TILE_SIZE_N, TILE_SIZE_K], then the launch.
    wb_tilegym_matmul_tiled, wb_tilegym_matmul_tiled_emit, wb_tilegym_matmul_tiled_build_id,
    matmul_tiled_port;
    op "tilegym.matmul.tiled", tensors 3, scalars 0, consts 9;
    |call| {
        for t in 0..3 {
            call.rank(t, 2)?;
            call.unit_stride(t, 1)?;
        }
        let (m, k, n) = (call.dim(0, 0), call.dim(0, 1), call.dim(1, 1));
        call.shape_is(1, &[k, n])?;
        call.shape_is(2, &[m, n])?;
        let (tm, tn) = (call.pow2(0, 512)?, call.pow2(1, 512)?);
        call.pow2(2, 512)?;
        let launch = call.launch_at(3)?;
        // the swizzle maps each block of a 1-D grid to one output tile: exactly one block per tile
        let tiles = ((m + tm - 1) / tm) * ((n + tn - 1) / tn);
        call.require(launch.grid == (tiles as u32, 1, 1), || {
            format!("grid {:?}: the kernel needs ({tiles}, 1, 1), one block per output tile", launch.grid)
        })?;
        match call.dtype()? {
            DTYPE_F16 => launch!(call, launch, f16, matmul_tiled_f16),
            DTYPE_BF16 => launch!(call, launch, bf16, matmul_tiled_bf16),
            DTYPE_F32 => launch!(call, launch, f32, matmul_tiled_f32),
            other => call.bad_dtype(other),
        }
    }
}

/// Launch the entry for one dtype with the call's tiles, grid and compile options.
macro_rules! launch {
    ($call:ident, $launch:ident, $t:ty, $entry:ident) => {{
        let (a, b, c) = ($call.input::<$t>(0)?, $call.input::<$t>(1)?, $call.input::<$t>(2)?);
        let mut generics = vec![<$t as DType>::DTYPE.as_str().to_string()];
        generics.extend($call.consts[..3].iter().map(|v| v.to_string()));
        unsafe { matmul_tiled_port::$entry(a, b, c) }
            .generics(generics)
            .grid($launch.grid)
            .compile_options($launch.options)
            .async_on(&$call.stream)
            .map(|_| ())
            .map_err(|e| $call.launch_error(e))
    }};
}
use launch;
