//! The port of tilegym.ops.cutile.mla_decoding:_naive_absorb_mla_transpose_kernel and its C
//! ABI: `wb_tilegym_mla_decoding_absorb` launches, `..._emit` compiles Tile IR, `..._build_id`
//! names the build.

mod kernel;

use cutile::half::{bf16, f16};
use cutile::prelude::*;
use cutile::tile_kernel::TileKernel;
use wb_ffi::{Call, Error, Launch, DTYPE_BF16, DTYPE_F16, DTYPE_F32};

pub use kernel::mla_decoding_port;

wb_ffi::port! {
    /// _naive_absorb_mla_transpose_kernel(Q, QPE, K, V, KPE, Out, L, sm_scale, TILE_D, TILE_H,
    /// TILE_N, TILE_KPE, S_KV, EVEN_N): tensors [Q, QPE, K, V, KPE, Out, L], scalars
    /// [sm_scale], constants [TILE_D .. EVEN_N], then the launch (grid, hints).
    wb_tilegym_mla_decoding_absorb, wb_tilegym_mla_decoding_absorb_emit,
    wb_tilegym_mla_decoding_absorb_build_id, mla_decoding_port;
    op "tilegym.mla_decoding.absorb", tensors 7, scalars 1, consts 12;
    |call| {
        for t in 0..6 {
            call.rank(t, 3)?;
            call.unit_stride(t, 2)?;
        }
        call.rank(6, 2)?;
        let (batch, heads, dim) = (call.dim(0, 0), call.dim(0, 1), call.dim(0, 2));
        let (s_kv, d_pe) = (call.dim(2, 1), call.dim(1, 2));
        call.shape_is(1, &[batch, heads, d_pe])?;
        call.shape_is(2, &[batch, s_kv, dim])?;
        call.shape_is(3, &[batch, s_kv, dim])?;
        call.shape_is(4, &[batch, s_kv, d_pe])?;
        call.shape_is(5, &[batch, heads, dim])?;
        call.shape_is(6, &[batch, heads])?;
        call.require(call.dtype_of(6) == DTYPE_F32, || "L must be f32".into())?;
        let c = call.consts;
        call.require(c[0] == dim && c[3] == d_pe, || "TILE_D and TILE_KPE must be the head dims".into())?;
        call.pow2(1, 256)?;
        call.pow2(2, 512)?;
        call.require(c[4] == s_kv, || "S_KV must be the key count".into())?;
        call.require(c[5] == 0 || s_kv % c[2] == 0, || "EVEN_N needs whole TILE_N tiles".into())?;
        let launch = call.launch_at(6)?;
        match call.dtype_of(0) {
            DTYPE_F16 => run::<f16>(&call, launch),
            DTYPE_BF16 => run::<bf16>(&call, launch),
            other => call.bad_dtype(other),
        }
    }
}

fn run<T: DType>(call: &Call, launch: Launch) -> Result<(), Error> {
    let (q, qpe, k, v) = (call.input::<T>(0)?, call.input::<T>(1)?, call.input::<T>(2)?, call.input::<T>(3)?);
    let (kpe, out, l) = (call.input::<T>(4)?, call.input::<T>(5)?, call.input::<f32>(6)?);
    let mut generics = vec![T::DTYPE.as_str().to_string()];
    generics.extend(call.consts[..6].iter().map(|c| c.to_string()));
    unsafe {
        mla_decoding_port::naive_absorb_mla_transpose(q, qpe, k, v, kpe, out, l, call.scalars[0] as f32)
            .generics(generics)
            .grid(launch.grid)
            .compile_options(launch.options)
            .async_on(&call.stream)
    }
    .map(|_| ())
    .map_err(|e| call.launch_error(e))
}
