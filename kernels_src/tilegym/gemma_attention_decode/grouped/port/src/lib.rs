//! The port of tilegym.ops.cutile.gemma_attention_decode:_gemma_attention_decode_kernel_grouped and its C
//! ABI: `wb_tilegym_gemma_attention_decode_grouped` launches, `..._emit` compiles Tile IR,
//! `..._build_id` names the build.

mod kernel;

use cutile::cuda_async::device_buffer::DevicePointer;
use cutile::half::{bf16, f16};
use cutile::prelude::*;
use cutile::tile_kernel::TileKernel;
use wb_ffi::{Call, Error, Launch, DTYPE_BF16, DTYPE_F16, DTYPE_F32};

pub use kernel::gemma_decode_port;

wb_ffi::port! {
    /// _gemma_attention_decode_kernel_grouped(Q, K, V, Att_Out, LSE_Out, softmax_scale, B, H_QO,
    /// H_KV, S_KV, KV_LEN_PER_SPLIT, HEAD_DIM, BLOCK_N, NUM_Q_HEAD_PER_KV, QUERY_GROUP_BLOCK_SIZE,
    /// NUM_KV_SPLITS, WINDOW_SIZE, SOFT_CAP, HAS_SOFT_CAP): tensors [Q, K, V, Att_Out, LSE_Out],
    /// scalars [softmax_scale], constants [B .. HAS_SOFT_CAP], then the launch.
    wb_tilegym_gemma_attention_decode_grouped, wb_tilegym_gemma_attention_decode_grouped_emit,
    wb_tilegym_gemma_attention_decode_grouped_build_id, gemma_decode_port;
    op "tilegym.gemma_attention_decode.grouped", tensors 5, scalars 1, consts 19;
    |call| {
        for t in 0..3 {
            call.rank(t, 4)?;
            call.unit_stride(t, 3)?;
        }
        call.rank(3, 5)?;
        call.rank(4, 4)?;
        call.unit_stride(3, 4)?;
        call.unit_stride(4, 3)?;
        let (batch, kv_heads, group, dim) = (call.dim(0, 0), call.dim(0, 1), call.dim(0, 2), call.dim(0, 3));
        let seq = call.dim(1, 2);
        call.shape_is(1, &[batch, kv_heads, seq, dim])?;
        call.shape_is(2, &[batch, kv_heads, seq, dim])?;
        let c = call.consts;
        let splits = c[9];
        call.shape_is(3, &[batch, kv_heads, group, splits, dim])?;
        call.shape_is(4, &[batch, kv_heads, group, splits])?;
        call.require(call.dtype_of(4) == DTYPE_F32, || "LSE_Out must be f32".into())?;
        call.require(c[0] == batch && c[1] == kv_heads * group && c[2] == kv_heads && c[3] == seq,
                     || "B, H_QO, H_KV, S_KV must be the tensors' extents".into())?;
        call.pow2(4, 1 << 20)?;
        call.require(c[5] == dim, || "HEAD_DIM must be the head dim (a power of two)".into())?;
        call.pow2(6, 256)?;
        call.require(c[7] == group && c[8] >= group && c[8] >= 8, || "the group sizes must match Q".into())?;
        call.require(splits * c[4] >= seq, || "the splits must cover the keys".into())?;
        let cap = call.const_f64(11);
        call.require(cap.fract() == 0.0 && cap.abs() < 1e6, || format!("SOFT_CAP {cap}: the port takes whole soft caps"))?;
        let launch = call.launch_at(13)?;
        match call.dtype_of(0) {
            DTYPE_F16 => run::<f16>(&call, launch),
            DTYPE_BF16 => run::<bf16>(&call, launch),
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

fn run<T: DType>(call: &Call, launch: Launch) -> Result<(), Error> {
    let (q, k, v) = (call.input::<T>(0)?, call.input::<T>(1)?, call.input::<T>(2)?);
    let (ao, an, ast) = raw::<T, 5>(call, 3)?;
    let (lo, ln, lst) = raw::<f32, 4>(call, 4)?;
    let mut generics = vec![T::DTYPE.as_str().to_string()];
    generics.extend(call.consts[..11].iter().map(|c| c.to_string()));
    generics.push((call.const_f64(11) as i64).to_string());
    generics.push(call.consts[12].to_string());
    unsafe {
        gemma_decode_port::gemma_attention_decode_grouped(
            q, k, v, ao, an[0], an[1], an[2], an[3], an[4], ast[0], ast[1], ast[2], ast[3], ast[4],
            lo, ln[0], ln[1], ln[2], ln[3], lst[0], lst[1], lst[2], lst[3], call.scalars[0] as f32)
            .generics(generics)
            .grid(launch.grid)
            .compile_options(launch.options)
            .async_on(&call.stream)
    }
    .map(|_| ())
    .map_err(|e| call.launch_error(e))
}
