//! The port of tilegym.ops.cutile.gemma_attention:_gemma_fmha_kernel and its C ABI:
//! `wb_tilegym_gemma_attention_forward` launches, `..._emit` compiles Tile IR, `..._build_id`
//! names the build.

mod kernel;

use cutile::half::{bf16, f16};
use cutile::prelude::*;
use cutile::tile_kernel::TileKernel;
use wb_ffi::{Call, Error, Launch, DTYPE_BF16, DTYPE_F16, DTYPE_F32};

pub use kernel::gemma_fmha_port;

wb_ffi::port! {
    /// _gemma_fmha_kernel(Q, K, V, Out, sm_scale, B, H, S_QO, S_KV, BLOCK_D, BLOCK_M, BLOCK_N,
    /// QUERY_GROUP_SIZE, STAGE, WINDOW_SIZE, SOFT_CAP, HAS_SOFT_CAP, EVEN_K): tensors
    /// [Q, K, V, Out], scalars [sm_scale], constants [B .. EVEN_K], then the launch.
    wb_tilegym_gemma_attention_forward, wb_tilegym_gemma_attention_forward_emit,
    wb_tilegym_gemma_attention_forward_build_id, gemma_fmha_port;
    op "tilegym.gemma_attention.forward", tensors 4, scalars 1, consts 19;
    |call| {
        for t in 0..4 {
            call.rank(t, 4)?;
            call.unit_stride(t, 3)?;
        }
        let (batch, heads, s_qo, dim) = (call.dim(0, 0), call.dim(0, 1), call.dim(0, 2), call.dim(0, 3));
        call.shape_is(3, &[batch, heads, s_qo, dim])?;
        let (kv_heads, s_kv) = (call.dim(1, 1), call.dim(1, 2));
        call.shape_is(2, &[batch, kv_heads, s_kv, dim])?;
        let c = call.consts;
        call.require(c[0] == batch && c[1] == heads && c[2] == s_qo && c[3] == s_kv,
                     || "B, H, S_QO, S_KV must be the tensors' extents".into())?;
        call.require(c[4] == dim, || "BLOCK_D must be the head dim (a power of two)".into())?;
        call.pow2(5, 256)?;
        call.pow2(6, 256)?;
        call.require(kv_heads > 0 && heads % kv_heads == 0 && c[7] == heads / kv_heads,
                     || "QUERY_GROUP_SIZE must be heads / kv_heads".into())?;
        call.require(c[8] == 1 || c[8] == 3, || "STAGE is 1 or 3".into())?;
        let cap = call.const_f64(10);
        call.require(cap.fract() == 0.0 && cap.abs() < 1e6, || format!("SOFT_CAP {cap}: the port takes whole soft caps"))?;
        call.require(c[12] == 0 || s_kv % c[6] == 0, || "EVEN_K needs whole BLOCK_N tiles".into())?;
        let launch = call.launch_at(13)?;
        match call.dtype()? {
            DTYPE_BF16 => run::<bf16>(&call, launch),
            DTYPE_F16 => run::<f16>(&call, launch),
            DTYPE_F32 => run::<f32>(&call, launch),
            other => call.bad_dtype(other),
        }
    }
}

fn run<T: DType>(call: &Call, launch: Launch) -> Result<(), Error> {
    let (q, k, v, out) = (call.input::<T>(0)?, call.input::<T>(1)?, call.input::<T>(2)?, call.input::<T>(3)?);
    let c = call.consts;
    let mut generics = vec![T::DTYPE.as_str().to_string()];
    generics.extend(c[..10].iter().map(|v| v.to_string()));
    generics.push((call.const_f64(10) as i64).to_string());
    generics.extend(c[11..13].iter().map(|v| v.to_string()));
    unsafe {
        gemma_fmha_port::gemma_fmha(q, k, v, out, call.scalars[0] as f32)
            .generics(generics)
            .grid(launch.grid)
            .compile_options(launch.options)
            .async_on(&call.stream)
    }
    .map(|_| ())
    .map_err(|e| call.launch_error(e))
}
