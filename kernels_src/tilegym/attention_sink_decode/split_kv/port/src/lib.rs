//! The port of tilegym.ops.cutile.attention_sink_decode:_attention_sink_decode_kernel and its C
//! ABI: `wb_tilegym_attention_sink_decode_split_kv` launches, `..._emit` compiles Tile IR,
//! `..._build_id` names the build.

mod kernel;

use cutile::cuda_async::device_buffer::DevicePointer;
use cutile::half::bf16;
use cutile::prelude::*;
use cutile::tile_kernel::TileKernel;
use wb_ffi::{Call, Error, Launch, DTYPE_BF16, DTYPE_F32};

pub use kernel::sink_decode_port;

wb_ffi::port! {
    /// _attention_sink_decode_kernel(Q, K, V, Sinks, Att_Out, LSE_Out, Start_q, softmax_scale,
    /// five mid strides, B, H_qo, H_kv, S_kv, KV_LEN_PER_SPLIT, HEAD_DIM, BLOCK_N,
    /// NUM_Q_HEAD_PER_KV, QUERY_GROUP_BLOCK_SIZE, NUM_KV_SPLITS, BANDWIDTH, HAS_SINKS): tensors
    /// [Q, K, V, Sinks, Att_Out, LSE_Out, Start_q], scalars [softmax_scale, the strides and
    /// sizes], constants [KV_LEN_PER_SPLIT .. HAS_SINKS], then the launch.
    wb_tilegym_attention_sink_decode_split_kv, wb_tilegym_attention_sink_decode_split_kv_emit,
    wb_tilegym_attention_sink_decode_split_kv_build_id, sink_decode_port;
    op "tilegym.attention_sink_decode.split_kv", tensors 7, scalars 10, consts 14;
    |call| {
        for t in 0..3 {
            call.rank(t, 4)?;
            call.unit_stride(t, 3)?;
        }
        call.rank(3, 1)?;
        call.rank(4, 5)?;
        call.rank(5, 4)?;
        call.rank(6, 1)?;
        call.unit_stride(4, 4)?;
        call.unit_stride(5, 3)?;
        let (batch, kv_heads, group, dim) = (call.dim(0, 0), call.dim(0, 1), call.dim(0, 2), call.dim(0, 3));
        let seq = call.dim(1, 2);
        call.shape_is(1, &[batch, kv_heads, seq, dim])?;
        call.shape_is(2, &[batch, kv_heads, seq, dim])?;
        let c = call.consts;
        let splits = c[5];
        call.shape_is(4, &[batch, kv_heads, group, splits, dim])?;
        call.shape_is(5, &[batch, kv_heads, group, splits])?;
        call.require(call.dtype_of(5) == DTYPE_F32, || "LSE_Out must be f32".into())?;
        call.require(call.dtype_of(6) == wb_ffi::DTYPE_I32, || "Start_q must be i32".into())?;
        call.require(call.scalars[9] as i64 == seq, || "S_kv must be the key count".into())?;
        call.pow2(0, 1 << 20)?;
        call.require(c[1] == dim, || "HEAD_DIM must be the head dim (a power of two)".into())?;
        call.pow2(2, 256)?;
        call.require(c[3] == group && c[4] >= group && c[4] >= 8, || "the group sizes must match Q".into())?;
        call.require(splits * c[0] >= seq, || "the splits must cover the keys".into())?;
        let launch = call.launch_at(8)?;
        match call.dtype_of(0) {
            DTYPE_BF16 => run(&call, launch),
            other => call.bad_dtype(other),
        }
    }
}

/// A rank-`N` array as its entry parameters: pointer, extents, strides.
fn raw<T: DType, const N: usize>(call: &Call, i: usize) -> Result<(DevicePointer<T>, [i32; N], [i32; N]), Error> {
    let mut shape = [0i32; N];
    let mut strides = [0i32; N];
    for d in 0..N {
        shape[d] = call.shape_i32(i, d)?;
        strides[d] = call.stride_i32(i, d)?;
    }
    Ok((call.pointer::<T>(i)?, shape, strides))
}

fn run(call: &Call, launch: Launch) -> Result<(), Error> {
    let (q, k, v) = (call.input::<bf16>(0)?, call.input::<bf16>(1)?, call.input::<bf16>(2)?);
    let (sk, sn, sst) = raw::<bf16, 1>(call, 3)?;
    let (ao, an, ast) = raw::<bf16, 5>(call, 4)?;
    let (lo, ln, lst) = raw::<f32, 4>(call, 5)?;
    let start_q = call.input::<i32>(6)?;
    let s = call.scalars;
    let ints: Vec<i32> = s[1..10].iter().map(|&x| x as i32).collect();
    let generics: Vec<String> = call.consts[..8].iter().map(|c| c.to_string()).collect();
    unsafe {
        sink_decode_port::attention_sink_decode_bf16(
            q, k, v, sk, sn[0], sst[0], ao, an[0], an[1], an[2], an[3], an[4], ast[0], ast[1], ast[2], ast[3], ast[4],
            lo, ln[0], ln[1], ln[2], ln[3], lst[0], lst[1], lst[2], lst[3], start_q, s[0] as f32,
            ints[0], ints[1], ints[2], ints[3], ints[4], ints[5], ints[6], ints[7], ints[8])
            .generics(generics)
            .grid(launch.grid)
            .compile_options(launch.options)
            .async_on(&call.stream)
    }
    .map(|_| ())
    .map_err(|e| call.launch_error(e))
}
