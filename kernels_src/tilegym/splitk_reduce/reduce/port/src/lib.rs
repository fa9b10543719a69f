//! The port of tilegym.ops.cutile.splitk_reduce:_splitk_reduce_kernel and its C ABI:
//! `wb_tilegym_splitk_reduce_reduce` launches, `..._emit` compiles Tile IR.

mod kernel;

use cutile::half::{bf16, f16};
use cutile::prelude::*;
use cutile::tile_kernel::TileKernel;
use wb_ffi::{Call, Error, Launch, DTYPE_BF16, DTYPE_F16, DTYPE_F32};

pub use kernel::splitk_reduce_port;

wb_ffi::port! {
    /// _splitk_reduce_kernel(attn_splitk_out, lse_splitk_out, attn_out, B, S_KV, NUM_HEADS,
    /// HEAD_DIM, NUM_KV_SPLITS, NUM_KV_SPLITS_POW2, TILE_D, USE_DOT): tensors
    /// [attn_splitk_out (B, H, S, D), lse_splitk_out (B, H, S) f32, attn_out (B, H, D)],
    /// constants [B, S_KV, NUM_HEADS, HEAD_DIM, NUM_KV_SPLITS, NUM_KV_SPLITS_POW2, TILE_D,
    /// USE_DOT], then the launch (grid, hints).
    wb_tilegym_splitk_reduce_reduce, wb_tilegym_splitk_reduce_reduce_emit,
    wb_tilegym_splitk_reduce_reduce_build_id, splitk_reduce_port;
    op "tilegym.splitk_reduce.reduce", tensors 3, scalars 0, consts 14;
    |call| {
        call.rank(0, 4)?;
        let (b, h, s, d) = (call.dim(0, 0), call.dim(0, 1), call.dim(0, 2), call.dim(0, 3));
        call.shape_is(1, &[b, h, s])?;
        call.shape_is(2, &[b, h, d])?;
        call.unit_stride(0, 3)?;
        call.unit_stride(1, 2)?;
        call.unit_stride(2, 2)?;
        let c = call.consts;
        call.require(c[0] == b && c[2] == h && c[3] == d && c[4] == s,
                     || "B, NUM_HEADS, HEAD_DIM and NUM_KV_SPLITS must be the arrays' extents".into())?;
        let splits_pow2 = call.pow2(5, 1 << 12)?;
        // one tile holds every split: padded splits read lse -inf and weigh nothing
        call.require(splits_pow2 >= s, || format!("NUM_KV_SPLITS_POW2 {splits_pow2} < {s} splits"))?;
        call.pow2(6, 1 << 12)?;
        call.require(c[7] == 0 || c[7] == 1, || "USE_DOT is a bool".into())?;
        let launch = call.launch_at(8)?;
        match call.dtype_of(0) {
            DTYPE_F32 => run::<f32>(&call, launch),
            DTYPE_F16 => run::<f16>(&call, launch),
            DTYPE_BF16 => run::<bf16>(&call, launch),
            other => call.bad_dtype(other),
        }
    }
}

fn run<T: DType>(call: &Call, launch: Launch) -> Result<(), Error> {
    call.expect_dtype::<T>(2)?;
    let attn = call.input::<T>(0)?;
    let (lse, l0, l1, l2, ls0, ls1, ls2) = call.raw3::<f32>(1)?;
    let out = call.input::<T>(2)?;
    let generics = vec![T::DTYPE.as_str().to_string(), call.consts[5].to_string(),
                        call.consts[6].to_string(), (call.consts[7] != 0).to_string()];
    unsafe {
        splitk_reduce_port::splitk_reduce(attn, lse, l0, l1, l2, ls0, ls1, ls2, out)
            .generics(generics)
            .grid(launch.grid)
            .compile_options(launch.options)
            .async_on(&call.stream)
    }
    .map(|_| ())
    .map_err(|e| call.launch_error(e))
}
