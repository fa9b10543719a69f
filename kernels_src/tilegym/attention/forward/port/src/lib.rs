//! The port of tilegym.ops.cutile.attention:_fmha_kernel and its C ABI:
//! `wb_tilegym_attention_forward` launches, `..._emit` compiles Tile IR, `..._build_id`
//! names the build.

mod kernel;

use cutile::half::{bf16, f16};
use cutile::prelude::*;
use cutile::tile_kernel::TileKernel;
use wb_ffi::{Call, Error, Launch, DTYPE_BF16, DTYPE_F16};

pub use kernel::fmha_port;

wb_ffi::port! {
    /// _fmha_kernel(Q, K, V, Out, qk_scale, input_pos, TILE_D, H, TILE_M, TILE_N,
    /// QUERY_GROUP_SIZE, CAUSAL, EVEN_K): tensors [Q, K, V, Out], scalars [qk_scale,
    /// input_pos], constants [TILE_D .. EVEN_K], then the launch (grid, hints).
    wb_tilegym_attention_forward, wb_tilegym_attention_forward_emit,
    wb_tilegym_attention_forward_build_id, fmha_port;
    op "tilegym.attention.forward", tensors 4, scalars 2, consts 13;
    |call| {
        for t in 0..4 {
            call.rank(t, 4)?;
            call.unit_stride(t, 3)?;
        }
        let (batch, heads, q_len, dim) = (call.dim(0, 0), call.dim(0, 1), call.dim(0, 2), call.dim(0, 3));
        call.shape_is(3, &[batch, heads, q_len, dim])?;
        let (kv_heads, k_len) = (call.dim(1, 1), call.dim(1, 2));
        call.shape_is(2, &[batch, kv_heads, k_len, dim])?;
        call.require(call.consts[0] == dim, || "TILE_D must be the head dim".into())?;
        call.require(call.consts[1] == heads, || "H must be the number of query heads".into())?;
        call.pow2(2, 256)?;
        call.pow2(3, 256)?;
        call.require(kv_heads > 0 && heads % kv_heads == 0 && call.consts[4] == heads / kv_heads,
                     || "QUERY_GROUP_SIZE must be heads / kv_heads".into())?;
        call.require(call.consts[6] == 0 || k_len % call.consts[3] == 0,
                     || "EVEN_K needs the keys to be a multiple of TILE_N".into())?;
        let launch = call.launch_at(7)?;
        match call.dtype()? {
            DTYPE_BF16 => run::<bf16>(&call, launch),
            DTYPE_F16 => run::<f16>(&call, launch),
            other => call.bad_dtype(other),
        }
    }
}

fn run<T: DType>(call: &Call, launch: Launch) -> Result<(), Error> {
    let (q, k, v, out) = (call.input::<T>(0)?, call.input::<T>(1)?, call.input::<T>(2)?, call.input::<T>(3)?);
    let mut generics = vec![T::DTYPE.as_str().to_string()];
    generics.extend(call.consts[..7].iter().map(|c| c.to_string()));
    unsafe {
        fmha_port::fmha(q, k, v, out, call.scalars[0] as f32, call.scalars[1] as i32)
            .generics(generics)
            .grid(launch.grid)
            .compile_options(launch.options)
            .async_on(&call.stream)
    }
    .map(|_| ())
    .map_err(|e| call.launch_error(e))
}
