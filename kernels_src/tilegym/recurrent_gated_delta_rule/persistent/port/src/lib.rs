//! The port of tilegym.ops.cutile.recurrent_gated_delta_rule:_recurrent_gated_delta_rule_fwd_kernel_persistent
//! and its C ABI: `wb_tilegym_recurrent_gated_delta_rule_persistent` launches, `..._emit`
//! compiles Tile IR, `..._build_id` names the build.

mod kernel;

use cutile::half::{bf16, f16};
use cutile::prelude::*;
use cutile::tile_kernel::TileKernel;
use wb_ffi::{Call, Error, Launch, DTYPE_BF16, DTYPE_F16, DTYPE_F32};

pub use kernel::gdr_persistent_port;

wb_ffi::port! {
    /// _recurrent_gated_delta_rule_fwd_kernel_persistent(Query, Key, Value, Gate, Beta, Output, StateIn,
    /// StateOut, scale, HAS_INITIAL_STATE, OUTPUT_FINAL_STATE, USE_QK_L2NORM, BLOCK_K, BLOCK_V,
    /// SMALL_TILE_USE_TMA, LARGE_TILE_USE_TMA, T): tensors [Query .. StateOut], scalars
    /// [scale], constants [HAS_INITIAL_STATE .. T], then the launch (grid, hints).
    wb_tilegym_recurrent_gated_delta_rule_persistent, wb_tilegym_recurrent_gated_delta_rule_persistent_emit,
    wb_tilegym_recurrent_gated_delta_rule_persistent_build_id, gdr_persistent_port;
    op "tilegym.recurrent_gated_delta_rule.persistent", tensors 8, scalars 1, consts 14;
    |call| {
        check(&call)?;
        let launch = call.launch_at(8)?;
        match call.dtype_of(0) {
            DTYPE_BF16 => run::<bf16>(&call, launch),
            DTYPE_F16 => run::<f16>(&call, launch),
            other => call.bad_dtype(other),
        }
    }
}

/// The shapes the kernel reads through: q/k [B, T, H, K], v/out [B, T, HV, V], g/beta
/// [B, T, HV], the states [B, HV, K, V] f32 (or 1-element dummies when the flags are off).
fn check(call: &Call) -> Result<(), Error> {
    for t in [0, 1, 2, 5, 6, 7] {
        call.rank(t, 4)?;
        call.unit_stride(t, 3)?;
    }
    call.rank(3, 3)?;
    call.rank(4, 3)?;
    let (b, t, h, k) = (call.dim(0, 0), call.dim(0, 1), call.dim(0, 2), call.dim(0, 3));
    let (hv, v) = (call.dim(2, 2), call.dim(2, 3));
    call.shape_is(1, &[b, t, h, k])?;
    call.shape_is(3, &[b, t, hv])?;
    call.shape_is(4, &[b, t, hv])?;
    call.shape_is(5, &[b, t, hv, v])?;
    call.require(h > 0 && hv % h == 0, || "the value heads must be a multiple of the key heads".into())?;
    call.require(call.dtype_of(3) == DTYPE_F32 && call.dtype_of(6) == DTYPE_F32 && call.dtype_of(7) == DTYPE_F32,
                 || "Gate and the states must be f32".into())?;
    let c = call.consts;
    if c[0] != 0 {
        call.shape_is(6, &[b, hv, k, v])?;
    }
    if c[1] != 0 {
        call.shape_is(7, &[b, hv, k, v])?;
    }
    let block_k = call.pow2(3, 1024)?;
    call.require(block_k >= k, || "BLOCK_K must cover the key dim".into())?;
    call.pow2(4, 1024)?;
    call.require(c[7] == t, || "T must be the token count".into())
}

fn run<T: DType>(call: &Call, launch: Launch) -> Result<(), Error> {
    let (q, k, v) = (call.input::<T>(0)?, call.input::<T>(1)?, call.input::<T>(2)?);
    let (g, g0, g1, g2, gs0, gs1, gs2) = call.raw3::<f32>(3)?;
    let (be, b0, b1, b2, bs0, bs1, bs2) = call.raw3::<T>(4)?;
    let (out, s_in, s_out) = (call.input::<T>(5)?, call.input::<f32>(6)?, call.input::<f32>(7)?);
    let mut generics = vec![T::DTYPE.as_str().to_string()];
    generics.extend(call.consts[..8].iter().map(|c| c.to_string()));
    unsafe {
        gdr_persistent_port::gated_delta_rule_persistent(
            q, k, v, g, g0, g1, g2, gs0, gs1, gs2, be, b0, b1, b2, bs0, bs1, bs2, out, s_in, s_out,
            call.scalars[0] as f32)
            .generics(generics)
            .grid(launch.grid)
            .compile_options(launch.options)
            .async_on(&call.stream)
    }
    .map(|_| ())
    .map_err(|e| call.launch_error(e))
}
