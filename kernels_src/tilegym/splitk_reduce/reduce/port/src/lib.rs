//! The port of tilegym.ops.cutile.splitk_reduce:_splitk_reduce_kernel and its C ABI:
//! `wb_tilegym_splitk_reduce_reduce` launches, `..._emit` compiles Tile IR, `..._build_id`
//! names the build.

mod kernel;

use cutile::half::{bf16, f16};
use cutile::prelude::*;
use cutile::tile_kernel::TileKernel;
use wb_ffi::{Call, Error, Launch, DTYPE_BF16, DTYPE_F16, DTYPE_F32};

pub use kernel::splitk_reduce_port;

wb_ffi::port! {
    /// _splitk_reduce_kernel(attn_splitk_out, lse_splitk_out, attn_out, B, S_KV, NUM_HEADS,
    /// HEAD_DIM, NUM_KV_SPLITS, NUM_KV_SPLITS_POW2, TILE_D, USE_DOT): tensors [mid, lse, out],
    /// constants [B .. USE_DOT], then the launch (grid, hints).
    wb_tilegym_splitk_reduce_reduce, wb_tilegym_splitk_reduce_reduce_emit,
    wb_tilegym_splitk_reduce_reduce_build_id, splitk_reduce_port;
    op "tilegym.splitk_reduce.reduce", tensors 3, scalars 0, consts 14;
    |call| {
        call.rank(0, 4)?;
        call.unit_stride(0, 3)?;
        call.unit_stride(2, 2)?;
        let (batch, heads, splits, dim) = (call.dim(0, 0), call.dim(0, 1), call.dim(0, 2), call.dim(0, 3));
        call.shape_is(1, &[batch, heads, splits])?;
        call.shape_is(2, &[batch, heads, dim])?;
        call.require(call.dtype_of(1) == DTYPE_F32, || "lse_splitk_out must be f32".into())?;
        let c = call.consts;
        call.require(c[0] == batch && c[2] == heads && c[3] == dim && c[4] == splits,
                     || "B, NUM_HEADS, HEAD_DIM, NUM_KV_SPLITS must be the tensors' extents".into())?;
        let pow2 = call.pow2(5, 1 << 12)?;
        call.require(pow2 >= splits, || "NUM_KV_SPLITS_POW2 must cover the splits".into())?;
        call.pow2(6, 1024)?;
        let launch = call.launch_at(8)?;
        match call.dtype_of(0) {
            DTYPE_F16 => run::<f16>(&call, launch),
            DTYPE_BF16 => run::<bf16>(&call, launch),
            other => call.bad_dtype(other),
        }
    }
}

fn run<T: DType>(call: &Call, launch: Launch) -> Result<(), Error> {
    let mid = call.input::<T>(0)?;
    let (lse, l0, l1, l2, s0, s1, s2) = call.raw3::<f32>(1)?;
    let out = call.input::<T>(2)?;
    call.expect_dtype::<T>(2)?;
    let mut generics = vec![T::DTYPE.as_str().to_string()];
    generics.extend(call.consts[..8].iter().map(|c| c.to_string()));
    unsafe {
        splitk_reduce_port::splitk_reduce(mid, lse, l0, l1, l2, s0, s1, s2, out)
            .generics(generics)
            .grid(launch.grid)
            .compile_options(launch.options)
            .async_on(&call.stream)
    }
    .map(|_| ())
    .map_err(|e| call.launch_error(e))
}
