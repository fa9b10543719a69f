//! The tilegym_chunk_gated_delta_rule_intra port and its C ABI: `wb_tilegym_chunk_gated_delta_rule_intra` launches, `wb_tilegym_chunk_gated_delta_rule_intra_emit` compiles Tile IR.
//! Drafted by workbench/port/rules: the launcher checks ranks and dtypes only.

mod kernel;

#[allow(unused_imports)]
use cutile::half::{bf16, f16};
use cutile::prelude::*;
#[allow(unused_imports)]
use wb_ffi::{Call, DTYPE_BF16, DTYPE_F16, DTYPE_F32, Error, set_error};

pub use kernel::tilegym_chunk_gated_delta_rule_intra_port;

wb_ffi::port! {
    /// _intra_chunk_prepare_kernel(Q, K, V, Beta, G, Q_out, K_out, V_corr, K_cumdecay, G_cum_out, seq_len, K_dim, V_dim, scale, NUM_HEADS, USE_QK_L2NORM, CHUNK_SIZE, BLOCK_K, SOLVE_STEPS, INTER_BF16): tensors [Q, K, V, Beta, G, Q_out, K_out, V_corr, K_cumdecay, G_cum_out], scalars [seq_len, K_dim, V_dim, scale], constants [NUM_HEADS, USE_QK_L2NORM, CHUNK_SIZE, BLOCK_K, SOLVE_STEPS, INTER_BF16], then the launch (grid x, y, z, occupancy, num_ctas, num_worker_warps).
    wb_tilegym_chunk_gated_delta_rule_intra, wb_tilegym_chunk_gated_delta_rule_intra_emit, wb_tilegym_chunk_gated_delta_rule_intra_build_id, tilegym_chunk_gated_delta_rule_intra_port;
    op "tilegym.chunk_gated_delta_rule.intra", tensors 10, scalars 4, consts 12;
    |call| {
        call.rank(0, 4)?;
        call.rank(1, 4)?;
        call.rank(2, 4)?;
        call.rank(3, 3)?;
        call.rank(4, 3)?;
        call.rank(5, 5)?;
        call.rank(6, 5)?;
        call.rank(7, 5)?;
        call.rank(8, 5)?;
        call.rank(9, 4)?;
        let (num_heads, use_qk_l2norm, chunk_size, block_k, solve_steps, inter_bf16) = (call.consts[0] as usize, call.consts[1] as usize, call.consts[2] as usize, call.consts[3] as usize, call.consts[4] as usize, call.consts[5] as usize);
        call.same_dtype(1, 0)?;
        call.same_dtype(2, 0)?;
        call.same_dtype(3, 0)?;
        call.same_dtype(6, 5)?;
        call.same_dtype(7, 5)?;
        call.same_dtype(8, 5)?;
        call.require_dtype(4, wb_ffi::DTYPE_F32)?;
        call.require_dtype(9, wb_ffi::DTYPE_F32)?;
        launch(&call, num_heads, use_qk_l2norm, chunk_size, block_k, solve_steps, inter_bf16)
    }
}

/// One entry per specialization of the kernel's constant branches (port.toml [entries]).
fn launch(call: &Call, num_heads: usize, use_qk_l2norm: usize, chunk_size: usize, block_k: usize, solve_steps: usize, inter_bf16: usize) -> Result<(), Error> {
    match (call.dtype_of(0), call.dtype_of(5), call.consts[0], call.consts[1], call.consts[5],) {
        (wb_ffi::DTYPE_BF16, wb_ffi::DTYPE_BF16, 8, 0, 1,) => launch__intra_chunk_prepare_kernel_bf16_bf16_num_heads_8_use_qk_l2norm_false_inter_bf16_true(call, num_heads, use_qk_l2norm, chunk_size, block_k, solve_steps, inter_bf16),
        (wb_ffi::DTYPE_F32, wb_ffi::DTYPE_F32, 4, 1, 0,) => launch__intra_chunk_prepare_kernel_f32_f32_num_heads_4_use_qk_l2norm_true_inter_bf16_false(call, num_heads, use_qk_l2norm, chunk_size, block_k, solve_steps, inter_bf16),
        (wb_ffi::DTYPE_F16, wb_ffi::DTYPE_BF16, 4, 1, 1,) => launch__intra_chunk_prepare_kernel_f16_bf16_num_heads_4_use_qk_l2norm_true_inter_bf16_true(call, num_heads, use_qk_l2norm, chunk_size, block_k, solve_steps, inter_bf16),
        (wb_ffi::DTYPE_BF16, wb_ffi::DTYPE_BF16, 16, 1, 1,) => launch__intra_chunk_prepare_kernel_bf16_bf16_num_heads_16_use_qk_l2norm_true_inter_bf16_true(call, num_heads, use_qk_l2norm, chunk_size, block_k, solve_steps, inter_bf16),
        _ => Err(set_error(Error::BadArgument, format!("tilegym_chunk_gated_delta_rule_intra: dtype(Q)={}, dtype(Q_out)={}, NUM_HEADS={}, USE_QK_L2NORM={}, INTER_BF16={} has no entry in the port", call.dtype_of(0), call.dtype_of(5), call.consts[0], call.consts[1], call.consts[5]))),
    }
}

fn launch__intra_chunk_prepare_kernel_bf16_bf16_num_heads_8_use_qk_l2norm_false_inter_bf16_true(call: &Call, num_heads: usize, use_qk_l2norm: usize, chunk_size: usize, block_k: usize, solve_steps: usize, inter_bf16: usize) -> Result<(), Error> {
    let Q = call.input::<bf16>(0)?;
    let K = call.input::<bf16>(1)?;
    let V = call.input::<bf16>(2)?;
    let Beta = call.input::<bf16>(3)?;
    let G = call.input::<f32>(4)?;
    let Q_out = call.input::<bf16>(5)?;
    let K_out = call.input::<bf16>(6)?;
    let V_corr = call.input::<bf16>(7)?;
    let K_cumdecay = call.input::<bf16>(8)?;
    let G_cum_out = call.input::<f32>(9)?;
    let seq_len = call.scalars[0] as i32;
    let K_dim = call.scalars[1] as i32;
    let V_dim = call.scalars[2] as i32;
    let scale = call.scalars[3] as f32;
    let generics = vec![num_heads.to_string(), chunk_size.to_string(), block_k.to_string(), solve_steps.to_string()];
    // the caller's grid and hints (port.toml launch = true): cutile checks them against every partitioned output
    let caller = call.launch_at(6)?;
    unsafe {
        tilegym_chunk_gated_delta_rule_intra_port::_intra_chunk_prepare_kernel_bf16_bf16_num_heads_8_use_qk_l2norm_false_inter_bf16_true(Q, K, V, Beta, G, Q_out, K_out, V_corr, K_cumdecay, G_cum_out, seq_len, K_dim, V_dim, scale)
            .generics(generics)
            .grid(caller.grid)
            .compile_options(caller.options)
            .async_on(&call.stream)
    }
    .map(|_| ())
    .map_err(|e| call.launch_error(e))
}

fn launch__intra_chunk_prepare_kernel_f32_f32_num_heads_4_use_qk_l2norm_true_inter_bf16_false(call: &Call, num_heads: usize, use_qk_l2norm: usize, chunk_size: usize, block_k: usize, solve_steps: usize, inter_bf16: usize) -> Result<(), Error> {
    let Q = call.input::<f32>(0)?;
    let K = call.input::<f32>(1)?;
    let V = call.input::<f32>(2)?;
    let Beta = call.input::<f32>(3)?;
    let G = call.input::<f32>(4)?;
    let Q_out = call.input::<f32>(5)?;
    let K_out = call.input::<f32>(6)?;
    let V_corr = call.input::<f32>(7)?;
    let K_cumdecay = call.input::<f32>(8)?;
    let G_cum_out = call.input::<f32>(9)?;
    let seq_len = call.scalars[0] as i32;
    let K_dim = call.scalars[1] as i32;
    let V_dim = call.scalars[2] as i32;
    let scale = call.scalars[3] as f32;
    let generics = vec![num_heads.to_string(), chunk_size.to_string(), block_k.to_string(), solve_steps.to_string()];
    // the caller's grid and hints (port.toml launch = true): cutile checks them against every partitioned output
    let caller = call.launch_at(6)?;
    unsafe {
        tilegym_chunk_gated_delta_rule_intra_port::_intra_chunk_prepare_kernel_f32_f32_num_heads_4_use_qk_l2norm_true_inter_bf16_false(Q, K, V, Beta, G, Q_out, K_out, V_corr, K_cumdecay, G_cum_out, seq_len, K_dim, V_dim, scale)
            .generics(generics)
            .grid(caller.grid)
            .compile_options(caller.options)
            .async_on(&call.stream)
    }
    .map(|_| ())
    .map_err(|e| call.launch_error(e))
}

fn launch__intra_chunk_prepare_kernel_f16_bf16_num_heads_4_use_qk_l2norm_true_inter_bf16_true(call: &Call, num_heads: usize, use_qk_l2norm: usize, chunk_size: usize, block_k: usize, solve_steps: usize, inter_bf16: usize) -> Result<(), Error> {
    let Q = call.input::<f16>(0)?;
    let K = call.input::<f16>(1)?;
    let V = call.input::<f16>(2)?;
    let Beta = call.input::<f16>(3)?;
    let G = call.input::<f32>(4)?;
    let Q_out = call.input::<bf16>(5)?;
    let K_out = call.input::<bf16>(6)?;
    let V_corr = call.input::<bf16>(7)?;
    let K_cumdecay = call.input::<bf16>(8)?;
    let G_cum_out = call.input::<f32>(9)?;
    let seq_len = call.scalars[0] as i32;
    let K_dim = call.scalars[1] as i32;
    let V_dim = call.scalars[2] as i32;
    let scale = call.scalars[3] as f32;
    let generics = vec![num_heads.to_string(), chunk_size.to_string(), block_k.to_string(), solve_steps.to_string()];
    // the caller's grid and hints (port.toml launch = true): cutile checks them against every partitioned output
    let caller = call.launch_at(6)?;
    unsafe {
        tilegym_chunk_gated_delta_rule_intra_port::_intra_chunk_prepare_kernel_f16_bf16_num_heads_4_use_qk_l2norm_true_inter_bf16_true(Q, K, V, Beta, G, Q_out, K_out, V_corr, K_cumdecay, G_cum_out, seq_len, K_dim, V_dim, scale)
            .generics(generics)
            .grid(caller.grid)
            .compile_options(caller.options)
            .async_on(&call.stream)
    }
    .map(|_| ())
    .map_err(|e| call.launch_error(e))
}

fn launch__intra_chunk_prepare_kernel_bf16_bf16_num_heads_16_use_qk_l2norm_true_inter_bf16_true(call: &Call, num_heads: usize, use_qk_l2norm: usize, chunk_size: usize, block_k: usize, solve_steps: usize, inter_bf16: usize) -> Result<(), Error> {
    let Q = call.input::<bf16>(0)?;
    let K = call.input::<bf16>(1)?;
    let V = call.input::<bf16>(2)?;
    let Beta = call.input::<bf16>(3)?;
    let G = call.input::<f32>(4)?;
    let Q_out = call.input::<bf16>(5)?;
    let K_out = call.input::<bf16>(6)?;
    let V_corr = call.input::<bf16>(7)?;
    let K_cumdecay = call.input::<bf16>(8)?;
    let G_cum_out = call.input::<f32>(9)?;
    let seq_len = call.scalars[0] as i32;
    let K_dim = call.scalars[1] as i32;
    let V_dim = call.scalars[2] as i32;
    let scale = call.scalars[3] as f32;
    let generics = vec![num_heads.to_string(), chunk_size.to_string(), block_k.to_string(), solve_steps.to_string()];
    // the caller's grid and hints (port.toml launch = true): cutile checks them against every partitioned output
    let caller = call.launch_at(6)?;
    unsafe {
        tilegym_chunk_gated_delta_rule_intra_port::_intra_chunk_prepare_kernel_bf16_bf16_num_heads_16_use_qk_l2norm_true_inter_bf16_true(Q, K, V, Beta, G, Q_out, K_out, V_corr, K_cumdecay, G_cum_out, seq_len, K_dim, V_dim, scale)
            .generics(generics)
            .grid(caller.grid)
            .compile_options(caller.options)
            .async_on(&call.stream)
    }
    .map(|_| ())
    .map_err(|e| call.launch_error(e))
}
