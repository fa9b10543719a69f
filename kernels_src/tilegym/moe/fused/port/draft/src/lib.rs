//! The _fused_moe_kernel port and its C ABI: `wb__fused_moe_kernel` launches, `wb__fused_moe_kernel_emit` compiles Tile IR.
//! Drafted by workbench/port/rules: the launcher checks ranks and dtypes only.

mod kernel;

#[allow(unused_imports)]
use cutile::half::{bf16, f16};
use cutile::prelude::*;
#[allow(unused_imports)]
use wb_ffi::{Call, DTYPE_BF16, DTYPE_F16, DTYPE_F32, Error, set_error};

pub use kernel::_fused_moe_kernel_port;

wb_ffi::port! {
    /// _fused_moe_kernel(a_ptr, b_ptr, c_ptr, a_scale_ptr, b_scale_ptr, topk_weights_ptr, sorted_token_ids_ptr, expert_ids_ptr, num_tokens_post_padded_ptr, N, K, EM, num_valid_tokens, GROUP_N, GROUP_K, TILE_SIZE_M, TILE_SIZE_N, TILE_SIZE_K, GROUP_SIZE_M, MUL_ROUTED_WEIGHT, TOP_K, USE_FP8_W8A8, USE_INT8_W8A16, EVEN_KS, A_STRIDE_1): tensors [a_ptr, b_ptr, c_ptr, a_scale_ptr, b_scale_ptr, topk_weights_ptr, sorted_token_ids_ptr, expert_ids_ptr, num_tokens_post_padded_ptr], scalars [EM, num_valid_tokens], constants [N, K, GROUP_N, GROUP_K, TILE_SIZE_M, TILE_SIZE_N, TILE_SIZE_K, GROUP_SIZE_M, MUL_ROUTED_WEIGHT, TOP_K, USE_FP8_W8A8, USE_INT8_W8A16, EVEN_KS, A_STRIDE_1].
    wb__fused_moe_kernel, wb__fused_moe_kernel_emit, wb__fused_moe_kernel_build_id, _fused_moe_kernel_port;
    op "_fused_moe_kernel", tensors 9, scalars 2, consts 14;
    |call| {
        call.rank(0, 1)?;
        call.rank(1, 3)?;
        call.rank(2, 2)?;
        call.rank(3, 1)?;
        call.rank(4, 1)?;
        call.rank(5, 1)?;
        call.rank(6, 1)?;
        call.rank(7, 1)?;
        call.rank(8, 1)?;
        let (n, k, group_n, group_k, tile_size_m, tile_size_n, tile_size_k, group_size_m, mul_routed_weight, top_k, use_fp8_w8a8, use_int8_w8a16, even_ks, a_stride_1) = (call.consts[0] as usize, call.consts[1] as usize, call.consts[2] as usize, call.consts[3] as usize, call.consts[4] as usize, call.consts[5] as usize, call.consts[6] as usize, call.consts[7] as usize, call.consts[8] as usize, call.consts[9] as usize, call.consts[10] as usize, call.consts[11] as usize, call.consts[12] as usize, call.consts[13] as usize);
        call.require_dtype(0, wb_ffi::DTYPE_BF16)?;
        call.require_dtype(1, wb_ffi::DTYPE_BF16)?;
        call.require_dtype(2, wb_ffi::DTYPE_BF16)?;
        call.require_dtype(3, wb_ffi::DTYPE_BF16)?;
        call.require_dtype(4, wb_ffi::DTYPE_BF16)?;
        call.require_dtype(5, wb_ffi::DTYPE_BF16)?;
        call.require_dtype(6, wb_ffi::DTYPE_I32)?;
        call.require_dtype(7, wb_ffi::DTYPE_I32)?;
        call.require_dtype(8, wb_ffi::DTYPE_I32)?;
        launch(&call, n, k, group_n, group_k, tile_size_m, tile_size_n, tile_size_k, group_size_m, mul_routed_weight, top_k, use_fp8_w8a8, use_int8_w8a16, even_ks, a_stride_1)
    }
}

/// One entry per specialization of the kernel's constant branches (port.toml [entries]).
fn launch(call: &Call, n: usize, k: usize, group_n: usize, group_k: usize, tile_size_m: usize, tile_size_n: usize, tile_size_k: usize, group_size_m: usize, mul_routed_weight: usize, top_k: usize, use_fp8_w8a8: usize, use_int8_w8a16: usize, even_ks: usize, a_stride_1: usize) -> Result<(), Error> {
    match (call.consts[0], call.consts[4], call.consts[5], call.consts[7], call.consts[8], call.consts[9], call.consts[13],) {
        (1024, 128, 128, 32, 0, 4, 1024,) => launch__fused_moe_kernel_n_1024_tile_size_m_128_tile_size_n_128_group_size_m_32_mul_routed_weight_0_top_k_4_a_stride_1_1024(call, n, k, group_n, group_k, tile_size_m, tile_size_n, tile_size_k, group_size_m, mul_routed_weight, top_k, use_fp8_w8a8, use_int8_w8a16, even_ks, a_stride_1),
        _ => Err(set_error(Error::BadArgument, format!("_fused_moe_kernel: N={}, TILE_SIZE_M={}, TILE_SIZE_N={}, GROUP_SIZE_M={}, MUL_ROUTED_WEIGHT={}, TOP_K={}, A_STRIDE_1={} has no entry in the port", call.consts[0], call.consts[4], call.consts[5], call.consts[7], call.consts[8], call.consts[9], call.consts[13]))),
    }
}

fn launch__fused_moe_kernel_n_1024_tile_size_m_128_tile_size_n_128_group_size_m_32_mul_routed_weight_0_top_k_4_a_stride_1_1024(call: &Call, n: usize, k: usize, group_n: usize, group_k: usize, tile_size_m: usize, tile_size_n: usize, tile_size_k: usize, group_size_m: usize, mul_routed_weight: usize, top_k: usize, use_fp8_w8a8: usize, use_int8_w8a16: usize, even_ks: usize, a_stride_1: usize) -> Result<(), Error> {
    let a_ptr = call.input::<bf16>(0)?;
    let b_ptr = call.input::<bf16>(1)?;
    let c_ptr = call.input::<bf16>(2)?;
    let a_scale_ptr = call.input::<bf16>(3)?;
    let b_scale_ptr = call.input::<bf16>(4)?;
    let topk_weights_ptr = call.input::<bf16>(5)?;
    let sorted_token_ids_ptr = call.input::<i32>(6)?;
    let expert_ids_ptr = call.input::<i32>(7)?;
    let num_tokens_post_padded_ptr = call.input::<i32>(8)?;
    let EM = call.scalars[0] as i32;
    let num_valid_tokens = call.scalars[1] as i32;
    let generics = vec![n.to_string(), k.to_string(), group_n.to_string(), group_k.to_string(), tile_size_m.to_string(), tile_size_n.to_string(), tile_size_k.to_string(), group_size_m.to_string(), mul_routed_weight.to_string(), top_k.to_string(), use_fp8_w8a8.to_string(), use_int8_w8a16.to_string(), even_ks.to_string(), a_stride_1.to_string()];
    // no output partition: cutile's launch takes its grid from one; set it by hand
    unsafe {
        _fused_moe_kernel_port::_fused_moe_kernel_n_1024_tile_size_m_128_tile_size_n_128_group_size_m_32_mul_routed_weight_0_top_k_4_a_stride_1_1024(a_ptr, b_ptr, c_ptr, a_scale_ptr, b_scale_ptr, topk_weights_ptr, sorted_token_ids_ptr, expert_ids_ptr, num_tokens_post_padded_ptr, EM, num_valid_tokens)
            .generics(generics)
            .async_on(&call.stream)
    }
    .map(|_| ())
    .map_err(|e| call.launch_error(e))
}
