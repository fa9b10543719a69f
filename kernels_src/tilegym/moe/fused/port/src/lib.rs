//! The port of tilegym.ops.cutile.moe:_fused_moe_kernel and its C ABI:
//! `wb_tilegym_moe_fused` launches, `..._emit` compiles Tile IR, `..._build_id` names the build.
//!
//! What the C ABI cannot check is the index data on the device; the kernel stays in bounds
//! whatever it holds: its gathers and the scatter check every index against the extents,
//! and an expert id past B's reads zeros through the TMA view.

mod kernel;

use std::sync::Arc;

use cutile::half::{bf16, f16};
use cutile::prelude::*;
use cutile::tile_kernel::TileKernel;
use wb_ffi::{Call, Error, Launch, DTYPE_BF16, DTYPE_F16, DTYPE_I32};

pub use kernel::moe_fused_port;

const A: usize = 0;
const B: usize = 1;
const C: usize = 2;
const SCALES: [usize; 2] = [3, 4];
const WEIGHTS: usize = 5;
const SORTED: usize = 6;
const EXPERTS: usize = 7;
const POST_PADDED: usize = 8;

wb_ffi::port! {
    /// _fused_moe_kernel(a_ptr, b_ptr, c_ptr, a_scale_ptr, b_scale_ptr, topk_weights_ptr,
    /// sorted_token_ids_ptr, expert_ids_ptr, num_tokens_post_padded_ptr, N, K, EM,
    /// num_valid_tokens, GROUP_N, GROUP_K, TILE_SIZE_M, TILE_SIZE_N, TILE_SIZE_K, GROUP_SIZE_M,
    /// MUL_ROUTED_WEIGHT, TOP_K, USE_FP8_W8A8, USE_INT8_W8A16, EVEN_KS, A_STRIDE_1): the nine
    /// tensors, scalars [EM, num_valid_tokens], constants [the fourteen], then the launch.
    wb_tilegym_moe_fused, wb_tilegym_moe_fused_emit, wb_tilegym_moe_fused_build_id, moe_fused_port;
    op "tilegym.moe.fused", tensors 9, scalars 2, consts 20;
    |call| {
        let k = &call.consts;
        let (n, kdim) = (k[0], k[1]);
        let (tm, tn) = (call.pow2(4, 256)?, call.pow2(5, 256)?);
        let tk = call.pow2(6, 256)?;
        for (t, rank) in [(A, 1), (B, 3), (C, 2), (WEIGHTS, 1), (SORTED, 1), (EXPERTS, 1), (POST_PADDED, 1)] {
            call.rank(t, rank)?;
            call.unit_stride(t, rank as usize - 1)?;
        }
        for t in SCALES {
            call.rank(t, 1)?;
            call.require(call.dim(t, 0) == 0, || format!("tensor {t}: the port has no fp8/int8 path, the scales must be empty"))?;
        }
        call.require(call.dim(B, 1) == n && call.dim(B, 2) == kdim, || format!("N, K = {n}, {kdim} must be B's [E, N, K] dims 1 and 2"))?;
        call.require(k[13] == kdim && call.dim(A, 0) % kdim.max(1) == 0, || "A_STRIDE_1 must be K, and A whole rows of K".into())?;
        call.require(call.dim(C, 1) == n, || "C must be [pairs, N]".into())?;
        call.require(k[2] == 0 && k[3] == 0 && k[10] == 0 && k[11] == 0,
                     || "GROUP_N, GROUP_K, USE_FP8_W8A8 and USE_INT8_W8A16 must be 0 (no quantized path)".into())?;
        call.require(k[12] == (kdim % tk == 0) as i64, || "EVEN_KS must say whether TILE_SIZE_K divides K".into())?;
        call.require(k[7] >= 1 && k[9] >= 1 && (k[8] == 0 || k[8] == 1),
                     || "GROUP_SIZE_M and TOP_K must be at least 1, MUL_ROUTED_WEIGHT 0 or 1".into())?;
        let em = call.dim(SORTED, 0);
        call.require(call.scalars[0] == em as f64, || format!("EM must be the sorted ids' count {em}"))?;
        call.require(call.scalars[1].fract() == 0.0 && call.scalars[1] >= 0.0 && call.scalars[1] <= i32::MAX as f64,
                     || "num_valid_tokens must be a non-negative i32".into())?;
        let blocks_m = (em + tm - 1) / tm;
        call.require(call.dim(EXPERTS, 0) >= blocks_m, || format!("expert_ids needs an id for each of the {blocks_m} blocks"))?;
        call.require(call.dim(POST_PADDED, 0) >= 1, || "num_tokens_post_padded holds one count".into())?;
        for t in [SORTED, EXPERTS, POST_PADDED] {
            call.require(call.dtype_of(t) == DTYPE_I32, || format!("tensor {t} must be int32"))?;
        }
        let launch = call.launch_at(14)?;
        let want = (blocks_m * ((n + tn - 1) / tn)) as u32;
        call.require(launch.grid == (want, 1, 1), || format!("grid {:?}: the kernel needs ({want}, 1, 1)", launch.grid))?;
        match call.dtype_of(A) {
            DTYPE_BF16 => run::<bf16>(&call, launch),
            DTYPE_F16 => run::<f16>(&call, launch),
            other => call.bad_dtype(other),
        }
    }
}

fn run<T: DType>(call: &Call, launch: Launch) -> Result<(), Error> {
    for t in [B, C, WEIGHTS, SCALES[0], SCALES[1]] {
        call.expect_dtype::<T>(t)?;
    }
    let (a, b, c, w) = (call.input::<T>(A)?, call.input::<T>(B)?, call.input::<T>(C)?, call.input::<T>(WEIGHTS)?);
    let (a_scale, b_scale) = (empty::<T>(call, SCALES[0])?, empty::<T>(call, SCALES[1])?);
    let (sorted, experts, post) = (call.input::<i32>(SORTED)?, call.input::<i32>(EXPERTS)?, call.input::<i32>(POST_PADDED)?);
    let mut generics = vec![T::DTYPE.as_str().to_string()];
    generics.extend(call.consts[..14].iter().map(|v| v.to_string()));
    let (em, valid) = (call.scalars[0] as i32, call.scalars[1] as i32);
    unsafe {
        moe_fused_port::moe_fused(a, b, c, a_scale, b_scale, w, sorted, experts, post, em, valid)
            .generics(generics)
            .grid(launch.grid)
            .compile_options(launch.options)
            .async_on(&call.stream)
    }
    .map(|_| ())
    .map_err(|e| call.launch_error(e))
}

/// An empty scale tensor (its pointer may be null): borrowed at A's base, never read.
fn empty<T: DType>(call: &Call, index: usize) -> Result<Arc<Tensor<T>>, Error> {
    let mut desc = call.tensors[index];
    if desc.ptr == 0 {
        desc.ptr = call.tensors[A].ptr;
    }
    Ok(Arc::new(unsafe { wb_ffi::borrow::<T>(&desc, call.op)? }))
}
