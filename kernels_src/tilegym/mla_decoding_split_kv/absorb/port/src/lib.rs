//! The port of tilegym.ops.cutile.mla_decoding_split_kv:_naive_absorb_mla_transpose_kernel and its C
//! ABI: `wb_tilegym_mla_decoding_split_kv_absorb` launches, `..._emit` compiles Tile IR, `..._build_id`
//! names the build.

mod kernel;

use cutile::half::{bf16, f16};
use cutile::prelude::*;
use cutile::tile_kernel::TileKernel;
use wb_ffi::{Call, Error, Launch, DTYPE_BF16, DTYPE_F16, DTYPE_F32};

pub use kernel::mla_split_kv_port;

wb_ffi::port! {
    /// _naive_absorb_mla_transpose_kernel(Q, QPE, K, V, KPE, Att_Out, LSE_Out, sm_scale, B,
    /// NUM_HEADS, S_kv, NUM_KV_SPLITS, KV_LEN_PER_SPLIT, TILE_D, TILE_H, TILE_N, TILE_KPE,
    /// EVEN_N): tensors [Q, QPE, K, V, KPE, Att_Out, LSE_Out], scalars [sm_scale, B,
    /// NUM_HEADS, S_kv], constants [NUM_KV_SPLITS .. EVEN_N], then the launch (grid, hints).
    wb_tilegym_mla_decoding_split_kv_absorb, wb_tilegym_mla_decoding_split_kv_absorb_emit,
    wb_tilegym_mla_decoding_split_kv_absorb_build_id, mla_split_kv_port;
    op "tilegym.mla_decoding_split_kv.absorb", tensors 7, scalars 4, consts 13;
    |call| {
        for t in 0..5 {
            call.rank(t, 3)?;
            call.unit_stride(t, 2)?;
        }
        call.rank(5, 4)?;
        call.rank(6, 3)?;
        call.unit_stride(5, 3)?;
        let (batch, heads, dim) = (call.dim(0, 0), call.dim(0, 1), call.dim(0, 2));
        let (s_kv, d_pe) = (call.dim(2, 1), call.dim(1, 2));
        call.shape_is(1, &[batch, heads, d_pe])?;
        call.shape_is(2, &[batch, s_kv, dim])?;
        call.shape_is(3, &[batch, s_kv, dim])?;
        call.shape_is(4, &[batch, s_kv, d_pe])?;
        let c = call.consts;
        call.shape_is(5, &[batch, heads, c[0], dim])?;
        call.shape_is(6, &[batch, heads, c[0]])?;
        call.require(call.dtype_of(6) == DTYPE_F32, || "LSE_Out must be f32".into())?;
        call.require(call.scalars[3] as i64 == s_kv, || "S_kv must be the key count".into())?;
        call.pow2(1, 1 << 20)?;
        call.require(c[0] * c[1] >= s_kv, || "the splits must cover the keys".into())?;
        call.require(c[2] == dim && c[5] == d_pe, || "TILE_D and TILE_KPE must be the head dims".into())?;
        call.pow2(3, 256)?;
        call.pow2(4, 512)?;
        call.require(c[6] == 0 || s_kv % c[4] == 0, || "EVEN_N needs whole TILE_N tiles".into())?;
        let launch = call.launch_at(7)?;
        match call.dtype_of(0) {
            DTYPE_F16 => run::<f16>(&call, launch),
            DTYPE_BF16 => run::<bf16>(&call, launch),
            other => call.bad_dtype(other),
        }
    }
}

fn run<T: DType>(call: &Call, launch: Launch) -> Result<(), Error> {
    let (q, qpe, k, v) = (call.input::<T>(0)?, call.input::<T>(1)?, call.input::<T>(2)?, call.input::<T>(3)?);
    let (kpe, out) = (call.input::<T>(4)?, call.input::<T>(5)?);
    let (lse, l0, l1, l2, s0, s1, s2) = call.raw3::<f32>(6)?;
    let s = call.scalars;
    let mut generics = vec![T::DTYPE.as_str().to_string()];
    generics.extend(call.consts[..7].iter().map(|c| c.to_string()));
    unsafe {
        mla_split_kv_port::naive_absorb_mla_transpose(
            q, qpe, k, v, kpe, out, lse, l0, l1, l2, s0, s1, s2, s[0] as f32, s[1] as i32, s[2] as i32, s[3] as i32)
            .generics(generics)
            .grid(launch.grid)
            .compile_options(launch.options)
            .async_on(&call.stream)
    }
    .map(|_| ())
    .map_err(|e| call.launch_error(e))
}
