//! The port of tilegym.ops.cutile.attention_sink:_attention_sink_kernel and its C ABI:
//! `wb_tilegym_attention_sink_forward` launches, `..._emit` compiles Tile IR, `..._build_id`
//! names the build.

mod kernel;

use cutile::half::{bf16, f16};
use cutile::prelude::*;
use cutile::tile_kernel::TileKernel;
use wb_ffi::{Call, Error, Launch, DTYPE_BF16, DTYPE_F16};

pub use kernel::attention_sink_port;

wb_ffi::port! {
    /// _attention_sink_kernel(Q, K, V, Sinks, Out, Start_q, qk_scale, TILE_D, H, N_KV_CTX,
    /// TILE_M, TILE_N, QUERY_GROUP_SIZE, BANDWIDTH): tensors [Q, K, V, Sinks, Out, Start_q],
    /// scalars [qk_scale], constants [TILE_D .. BANDWIDTH], then the launch (grid, hints).
    wb_tilegym_attention_sink_forward, wb_tilegym_attention_sink_forward_emit,
    wb_tilegym_attention_sink_forward_build_id, attention_sink_port;
    op "tilegym.attention_sink.forward", tensors 6, scalars 1, consts 13;
    |call| {
        for t in [0, 1, 2, 4] {
            call.rank(t, 4)?;
            call.unit_stride(t, 3)?;
        }
        call.rank(3, 1)?;
        call.rank(5, 1)?;
        let (batch, heads, seq, dim) = (call.dim(0, 0), call.dim(0, 1), call.dim(0, 2), call.dim(0, 3));
        call.shape_is(4, &[batch, heads, seq, dim])?;
        let (kv_heads, kv_seq) = (call.dim(1, 1), call.dim(1, 2));
        call.shape_is(1, &[batch, kv_heads, kv_seq, dim])?;
        call.shape_is(2, &[batch, kv_heads, kv_seq, dim])?;
        call.shape_is(3, &[heads])?;
        call.require(call.consts[0] == dim, || "TILE_D must be the head dim (one tile per row)".into())?;
        call.require(call.consts[1] == heads, || "H must be the number of query heads".into())?;
        call.require(call.consts[2] == kv_seq, || "N_KV_CTX must be the key count".into())?;
        call.pow2(3, 256)?;
        call.pow2(4, 256)?;
        call.require(kv_heads > 0 && call.consts[5] == heads / kv_heads && heads % kv_heads == 0,
                     || "QUERY_GROUP_SIZE must be heads / kv_heads".into())?;
        call.require(call.dtype_of(5) == wb_ffi::DTYPE_I32, || "Start_q must be i32".into())?;
        let launch = call.launch_at(7)?;
        match call.dtype_of(0) {
            DTYPE_BF16 => run::<bf16>(&call, launch),
            DTYPE_F16 => run::<f16>(&call, launch),
            other => call.bad_dtype(other),
        }
    }
}

fn run<T: DType>(call: &Call, launch: Launch) -> Result<(), Error> {
    let (q, k, v) = (call.input::<T>(0)?, call.input::<T>(1)?, call.input::<T>(2)?);
    let (sinks, out, start_q) = (call.input::<T>(3)?, call.input::<T>(4)?, call.input::<i32>(5)?);
    let mut generics = vec![T::DTYPE.as_str().to_string()];
    generics.extend(call.consts[..7].iter().map(|c| c.to_string()));
    unsafe {
        attention_sink_port::attention_sink(q, k, v, sinks, out, start_q, call.scalars[0] as f32)
            .generics(generics)
            .grid(launch.grid)
            .compile_options(launch.options)
            .async_on(&call.stream)
    }
    .map(|_| ())
    .map_err(|e| call.launch_error(e))
}
