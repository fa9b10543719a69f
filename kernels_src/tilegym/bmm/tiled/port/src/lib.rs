//! The port of tilegym.ops.cutile.bmm:_bmm_kernel and its C ABI:
//! `wb_tilegym_bmm_tiled` launches, `..._emit` compiles Tile IR, `..._build_id` names the build.

mod kernel;

use cutile::half::{bf16, f16};
use cutile::prelude::*;
use cutile::tile_kernel::TileKernel;
use wb_ffi::{Call, Error, Launch, DTYPE_BF16, DTYPE_F16, DTYPE_F32};

pub use kernel::bmm_tiled_port;

wb_ffi::port! {
    /// _bmm_kernel(A, B, C, TM, TN, TK): tensors [A, B, C] (Q x M x K, Q x K x N, Q x M x N),
    /// constants [TM, TN, TK], then the launch.
    wb_tilegym_bmm_tiled, wb_tilegym_bmm_tiled_emit, wb_tilegym_bmm_tiled_build_id, bmm_tiled_port;
    op "tilegym.bmm.tiled", tensors 3, scalars 0, consts 9;
    |call| {
        for t in 0..3 {
            call.rank(t, 3)?;
            call.unit_stride(t, 2)?;
        }
        let (q, m, k, n) = (call.dim(0, 0), call.dim(0, 1), call.dim(0, 2), call.dim(1, 2));
        call.shape_is(1, &[q, k, n])?;
        call.shape_is(2, &[q, m, n])?;
        let (tm, tn) = (call.pow2(0, 512)?, call.pow2(1, 512)?);
        call.pow2(2, 512)?;
        let launch = call.launch_at(3)?;
        // one block per output tile and batch: the grid is exactly their count
        let want = (((m + tm - 1) / tm) as u32, ((n + tn - 1) / tn) as u32, q as u32);
        call.require(launch.grid == want, || format!("grid {:?}: the kernel needs {want:?}", launch.grid))?;
        match call.dtype()? {
            DTYPE_F16 => run::<f16>(&call, launch),
            DTYPE_BF16 => run::<bf16>(&call, launch),
            DTYPE_F32 => run::<f32>(&call, launch),
            other => call.bad_dtype(other),
        }
    }
}

fn run<T: DType>(call: &Call, launch: Launch) -> Result<(), Error> {
    let (a, b, c) = (call.input::<T>(0)?, call.input::<T>(1)?, call.input::<T>(2)?);
    let mut generics = vec![T::DTYPE.as_str().to_string()];
    generics.extend(call.consts[..3].iter().map(|v| v.to_string()));
    unsafe {
        bmm_tiled_port::bmm_tiled(a, b, c)
            .generics(generics)
            .grid(launch.grid)
            .compile_options(launch.options)
            .async_on(&call.stream)
    }
    .map(|_| ())
    .map_err(|e| call.launch_error(e))
}
