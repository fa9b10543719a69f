//! The _gemma_fmha_kernel port and its C ABI: `wb__gemma_fmha_kernel` launches, `wb__gemma_fmha_kernel_emit` compiles Tile IR.
//! Drafted by workbench/port/rules: the launcher checks ranks and dtypes only.

mod kernel;

#[allow(unused_imports)]
use cutile::half::{bf16, f16};
use cutile::prelude::*;
#[allow(unused_imports)]
use wb_ffi::{Call, DTYPE_BF16, DTYPE_F16, DTYPE_F32, Error, set_error};

pub use kernel::_gemma_fmha_kernel_port;

wb_ffi::port! {
    /// _gemma_fmha_kernel(Q, K, V, Out, sm_scale, B, H, S_QO, S_KV, BLOCK_D, BLOCK_M, BLOCK_N, QUERY_GROUP_SIZE, STAGE, WINDOW_SIZE, SOFT_CAP, HAS_SOFT_CAP, EVEN_K): tensors [Q, K, V, Out], scalars [sm_scale], constants [B, H, S_QO, S_KV, BLOCK_D, BLOCK_M, BLOCK_N, QUERY_GROUP_SIZE, STAGE, WINDOW_SIZE, SOFT_CAP, HAS_SOFT_CAP, EVEN_K].
    wb__gemma_fmha_kernel, wb__gemma_fmha_kernel_emit, wb__gemma_fmha_kernel_build_id, _gemma_fmha_kernel_port;
    op "_gemma_fmha_kernel", tensors 4, scalars 1, consts 13;
    |call| {
        call.rank(0, 4)?;
        call.rank(1, 4)?;
        call.rank(2, 4)?;
        call.rank(3, 4)?;
        let (b, h, s_qo, s_kv, block_d, block_m, block_n, query_group_size, stage, window_size, soft_cap, has_soft_cap, even_k) = (call.consts[0] as usize, call.consts[1] as usize, call.consts[2] as usize, call.consts[3] as usize, call.consts[4] as usize, call.consts[5] as usize, call.consts[6] as usize, call.consts[7] as usize, call.consts[8] as usize, call.consts[9] as usize, call.consts[10] as usize, call.consts[11] as usize, call.consts[12] as usize);
        match call.dtype()? {
            DTYPE_F16 => launch::<f16>(&call, b, h, s_qo, s_kv, block_d, block_m, block_n, query_group_size, stage, window_size, soft_cap, has_soft_cap, even_k),
            DTYPE_BF16 => launch::<bf16>(&call, b, h, s_qo, s_kv, block_d, block_m, block_n, query_group_size, stage, window_size, soft_cap, has_soft_cap, even_k),
            other => call.bad_dtype(other),
        }
    }
}

/// One entry per specialization of the kernel's constant branches (port.toml [entries]).
fn launch<E: DType>(call: &Call, b: usize, h: usize, s_qo: usize, s_kv: usize, block_d: usize, block_m: usize, block_n: usize, query_group_size: usize, stage: usize, window_size: usize, soft_cap: usize, has_soft_cap: usize, even_k: usize) -> Result<(), Error> {
    match (call.consts[1], call.consts[6], call.consts[7], call.consts[8], call.consts[9], call.consts[10], call.consts[11], call.consts[12],) {

        _ => Err(set_error(Error::BadArgument, format!("_gemma_fmha_kernel: H={}, BLOCK_N={}, QUERY_GROUP_SIZE={}, STAGE={}, WINDOW_SIZE={}, SOFT_CAP={}, HAS_SOFT_CAP={}, EVEN_K={} has no entry in the port", call.consts[1], call.consts[6], call.consts[7], call.consts[8], call.consts[9], call.consts[10], call.consts[11], call.consts[12]))),
    }
}

fn launch__gemma_fmha_kernel_h_8_block_n_128_query_group_size_1_stage_3_window_size_64_soft_cap_10_0_has_soft_cap_true_even_k_true<E: DType>(call: &Call, b: usize, h: usize, s_qo: usize, s_kv: usize, block_d: usize, block_m: usize, block_n: usize, query_group_size: usize, stage: usize, window_size: usize, soft_cap: usize, has_soft_cap: usize, even_k: usize) -> Result<(), Error> {
    let Q = call.input::<E>(0)?;
    let K = call.input::<E>(1)?;
    let V = call.input::<E>(2)?;
    let Out = call.input::<E>(3)?;
    let sm_scale = call.scalars[0] as f32;
    let generics = vec![E::DTYPE.as_str().to_string(), b.to_string(), h.to_string(), s_qo.to_string(), s_kv.to_string(), block_d.to_string(), block_m.to_string(), block_n.to_string(), query_group_size.to_string(), stage.to_string(), window_size.to_string()];
    // no output partition: cutile's launch takes its grid from one; set it by hand
    unsafe {
        _gemma_fmha_kernel_port::_gemma_fmha_kernel_h_8_block_n_128_query_group_size_1_stage_3_window_size_64_soft_cap_10_0_has_soft_cap_true_even_k_true(Q, K, V, Out, sm_scale)
            .generics(generics)
            .async_on(&call.stream)
    }
    .map(|_| ())
    .map_err(|e| call.launch_error(e))
}

fn launch__gemma_fmha_kernel_h_12_block_n_128_query_group_size_3_stage_3_window_size_256_soft_cap_30_0_has_soft_cap_true_even_k_true<E: DType>(call: &Call, b: usize, h: usize, s_qo: usize, s_kv: usize, block_d: usize, block_m: usize, block_n: usize, query_group_size: usize, stage: usize, window_size: usize, soft_cap: usize, has_soft_cap: usize, even_k: usize) -> Result<(), Error> {
    let Q = call.input::<E>(0)?;
    let K = call.input::<E>(1)?;
    let V = call.input::<E>(2)?;
    let Out = call.input::<E>(3)?;
    let sm_scale = call.scalars[0] as f32;
    let generics = vec![E::DTYPE.as_str().to_string(), b.to_string(), h.to_string(), s_qo.to_string(), s_kv.to_string(), block_d.to_string(), block_m.to_string(), block_n.to_string(), query_group_size.to_string(), stage.to_string(), window_size.to_string()];
    // no output partition: cutile's launch takes its grid from one; set it by hand
    unsafe {
        _gemma_fmha_kernel_port::_gemma_fmha_kernel_h_12_block_n_128_query_group_size_3_stage_3_window_size_256_soft_cap_30_0_has_soft_cap_true_even_k_true(Q, K, V, Out, sm_scale)
            .generics(generics)
            .async_on(&call.stream)
    }
    .map(|_| ())
    .map_err(|e| call.launch_error(e))
}

fn launch__gemma_fmha_kernel_h_8_block_n_128_query_group_size_1_stage_1_window_size_0_soft_cap_0_0_has_soft_cap_false_even_k_false<E: DType>(call: &Call, b: usize, h: usize, s_qo: usize, s_kv: usize, block_d: usize, block_m: usize, block_n: usize, query_group_size: usize, stage: usize, window_size: usize, soft_cap: usize, has_soft_cap: usize, even_k: usize) -> Result<(), Error> {
    let Q = call.input::<E>(0)?;
    let K = call.input::<E>(1)?;
    let V = call.input::<E>(2)?;
    let Out = call.input::<E>(3)?;
    let sm_scale = call.scalars[0] as f32;
    let generics = vec![E::DTYPE.as_str().to_string(), b.to_string(), h.to_string(), s_qo.to_string(), s_kv.to_string(), block_d.to_string(), block_m.to_string(), block_n.to_string(), query_group_size.to_string(), stage.to_string(), window_size.to_string()];
    // no output partition: cutile's launch takes its grid from one; set it by hand
    unsafe {
        _gemma_fmha_kernel_port::_gemma_fmha_kernel_h_8_block_n_128_query_group_size_1_stage_1_window_size_0_soft_cap_0_0_has_soft_cap_false_even_k_false(Q, K, V, Out, sm_scale)
            .generics(generics)
            .async_on(&call.stream)
    }
    .map(|_| ())
    .map_err(|e| call.launch_error(e))
}
