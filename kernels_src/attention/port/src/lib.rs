//! The attention port and its C ABI: `wb_attention` launches, `wb_attention_emit` compiles Tile IR.

mod kernel;

use cutile::half::{bf16, f16};
use cutile::prelude::*;
use wb_ffi::{Call, DTYPE_BF16, DTYPE_F16, DTYPE_F32, Error};

pub use kernel::attention_port;

wb_ffi::port! {
    /// attention(q, k, v, out, scale, TILE_Q, TILE_KV, HEAD_DIM): tensors [q, k, v, out], scalars [scale], constants [TILE_Q, TILE_KV, HEAD_DIM].
    wb_attention, wb_attention_emit, wb_attention_build_id, attention_port;
    op "attention", tensors 4, scalars 1, consts 3;
    |call| {
        for i in 0..4 {
            call.rank(i, 3)?;
        }
        let (tile_q, tile_kv, head_dim) = (call.tile(0)?, call.tile(1)?, call.tile(2)?);
        // The kernel's loads are unchecked: every tile index it forms is in range only when
        // q, k, v and out share one shape and HEAD_DIM is the head dimension.
        call.require((1..4).all(|i| (0..3).all(|d| call.extent(i, d) == call.extent(0, d))),
                     || "q, k, v and out must have one shape".into())?;
        call.require(call.extent(0, 2) == head_dim as i64, || "HEAD_DIM must equal the head dimension".into())?;
        call.require(call.dtype()? != DTYPE_F32, || "f32 attention is not ported (f16, bf16)".into())?;
        match call.dtype()? {
            DTYPE_F16 => dispatch::<f16>(&call, tile_q, tile_kv, head_dim),
            DTYPE_BF16 => dispatch::<bf16>(&call, tile_q, tile_kv, head_dim),
            other => call.bad_dtype(other),
        }
    }
}

fn launch<T: DType>(call: &Call, tile_q: usize, tile_kv: usize, head_dim: usize) -> Result<(), Error> {
    let (q, k, v) = (call.input::<T>(0)?, call.input::<T>(1)?, call.input::<T>(2)?);
    let out = call.output::<T>(3)?;
    let scale = call.scalars[0] as f32;
    let generics = vec![T::DTYPE.as_str().to_string(), tile_q.to_string(), tile_kv.to_string(),
                        head_dim.to_string()];
    // out partitioned [1, TILE_Q, HEAD_DIM]: the grid (heads, cdiv(seq, TILE_Q)) of kernel.py
    unsafe {
        attention_port::attention(q, k, v, out.partition([1, tile_q, head_dim]), scale)
            .generics(generics)
            .compile_options(call.options())
            .async_on(&call.stream)
    }
    .map(|_| ())
    .map_err(|e| call.launch_error(e))
}

/// Program 0 is `launch` (kernel.py's tile program), 1 the base-2 softmax (port.toml
/// `programs`).
fn dispatch<T: DType>(call: &Call, tile_q: usize, tile_kv: usize, head_dim: usize) -> Result<(), Error> {
    match call.program()? {
        0 => launch::<T>(call, tile_q, tile_kv, head_dim),
        _ => launch_exp2::<T>(call, tile_q, tile_kv, head_dim),
    }
}

fn launch_exp2<T: DType>(call: &Call, tile_q: usize, tile_kv: usize, head_dim: usize) -> Result<(), Error> {
    let (q, k, v) = (call.input::<T>(0)?, call.input::<T>(1)?, call.input::<T>(2)?);
    let out = call.output::<T>(3)?;
    // exp(s * scale) = exp2(s * scale * log2(e)): the kernel's one multiply does both; it
    // takes the row max before scaling, the same max only for a positive scale
    call.require(call.scalars[0] > 0.0, || "attention_exp2 needs a positive scale (program 0 takes any)".into())?;
    let scale_log2 = (call.scalars[0] * std::f64::consts::LOG2_E) as f32;
    let generics = vec![T::DTYPE.as_str().to_string(), tile_q.to_string(), tile_kv.to_string(),
                        head_dim.to_string()];
    unsafe {
        attention_port::attention_exp2(q, k, v, out.partition([1, tile_q, head_dim]), scale_log2)
            .generics(generics)
            .compile_options(call.options())
            .async_on(&call.stream)
    }
    .map(|_| ())
    .map_err(|e| call.launch_error(e))
}
