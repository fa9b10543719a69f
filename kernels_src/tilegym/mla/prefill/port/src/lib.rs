//! The port of tilegym.ops.cutile.mla:_prefill_mla_kernel and its C ABI:
//! `wb_tilegym_mla_prefill` launches, `..._emit` compiles Tile IR, `..._build_id` names the build.

mod kernel;

use cutile::half::{bf16, f16};
use cutile::prelude::*;
use cutile::tile_kernel::TileKernel;
use wb_ffi::{Call, Error, Launch, DTYPE_BF16, DTYPE_F16};

pub use kernel::mla_prefill_port;

wb_ffi::port! {
    /// _prefill_mla_kernel(Q, QPE, K, KPE, V, Out, qk_scale, TILE_D, TILE_KPE, H, TILE_M,
    /// TILE_N, QUERY_GROUP_SIZE): tensors [Q, QPE, K, KPE, V, Out], scalars [qk_scale, H],
    /// constants [TILE_D, TILE_KPE, TILE_M, TILE_N, QUERY_GROUP_SIZE], then the launch.
    wb_tilegym_mla_prefill, wb_tilegym_mla_prefill_emit, wb_tilegym_mla_prefill_build_id,
    mla_prefill_port;
    op "tilegym.mla.prefill", tensors 6, scalars 2, consts 11;
    |call| {
        for t in 0..6 {
            call.rank(t, 4)?;
            call.unit_stride(t, 3)?;
        }
        let (batch, heads, seq, dim) = (call.dim(0, 0), call.dim(0, 1), call.dim(0, 2), call.dim(0, 3));
        let (kv_heads, d_pe) = (call.dim(2, 1), call.dim(1, 3));
        call.shape_is(1, &[batch, heads, seq, d_pe])?;
        call.shape_is(2, &[batch, kv_heads, seq, dim])?;
        call.shape_is(3, &[batch, 1, seq, d_pe])?;
        call.shape_is(4, &[batch, kv_heads, seq, dim])?;
        call.shape_is(5, &[batch, heads, seq, dim])?;
        let c = call.consts;
        call.require(c[0] == dim && c[1] == d_pe, || "TILE_D and TILE_KPE must be the head dims".into())?;
        call.require(call.scalars[1] as i64 == heads, || "H must be the number of query heads".into())?;
        call.pow2(2, 256)?;
        call.pow2(3, 256)?;
        let group = if heads == kv_heads { 0 } else { heads / kv_heads };
        call.require(kv_heads > 0 && heads % kv_heads == 0 && c[4] == group,
                     || "QUERY_GROUP_SIZE must be 0 (one kv head per head) or heads / kv_heads".into())?;
        let launch = call.launch_at(5)?;
        match call.dtype()? {
            DTYPE_BF16 => run::<bf16>(&call, launch),
            DTYPE_F16 => run::<f16>(&call, launch),
            other => call.bad_dtype(other),
        }
    }
}

fn run<T: DType>(call: &Call, launch: Launch) -> Result<(), Error> {
    let (q, qpe, k) = (call.input::<T>(0)?, call.input::<T>(1)?, call.input::<T>(2)?);
    let (kpe, v, out) = (call.input::<T>(3)?, call.input::<T>(4)?, call.input::<T>(5)?);
    let mut generics = vec![T::DTYPE.as_str().to_string()];
    generics.extend(call.consts[..5].iter().map(|c| c.to_string()));
    unsafe {
        mla_prefill_port::prefill_mla(q, qpe, k, kpe, v, out, call.scalars[0] as f32, call.scalars[1] as i32)
            .generics(generics)
            .grid(launch.grid)
            .compile_options(launch.options)
            .async_on(&call.stream)
    }
    .map(|_| ())
    .map_err(|e| call.launch_error(e))
}
