//! The tilegym_chunk_gated_delta_rule_inter port and its C ABI: `wb_tilegym_chunk_gated_delta_rule_inter` launches, `wb_tilegym_chunk_gated_delta_rule_inter_emit` compiles Tile IR.
//! Drafted by workbench/port/rules: the launcher checks ranks and dtypes only.

mod kernel;

#[allow(unused_imports)]
use cutile::half::{bf16, f16};
use cutile::prelude::*;
#[allow(unused_imports)]
use wb_ffi::{Call, DTYPE_BF16, DTYPE_F16, DTYPE_F32, Error, set_error};

pub use kernel::tilegym_chunk_gated_delta_rule_inter_port;

wb_ffi::port! {
    /// _chunk_inter_recurrence_kernel(Q_ch, K_ch, V_corr, K_cumdecay, G_cum_in, Output, InitState, FinalState, num_chunks, K_dim, V_dim, NUM_HEADS, HAS_INITIAL_STATE, OUTPUT_FINAL_STATE, CHUNK_SIZE, BLOCK_K, BLOCK_V): tensors [Q_ch, K_ch, V_corr, K_cumdecay, G_cum_in, Output, InitState, FinalState], scalars [num_chunks, K_dim, V_dim], constants [NUM_HEADS, HAS_INITIAL_STATE, OUTPUT_FINAL_STATE, CHUNK_SIZE, BLOCK_K, BLOCK_V], then the launch (grid x, y, z, occupancy, num_ctas, num_worker_warps).
    wb_tilegym_chunk_gated_delta_rule_inter, wb_tilegym_chunk_gated_delta_rule_inter_emit, wb_tilegym_chunk_gated_delta_rule_inter_build_id, tilegym_chunk_gated_delta_rule_inter_port;
    op "tilegym.chunk_gated_delta_rule.inter", tensors 8, scalars 3, consts 12;
    |call| {
        call.rank(0, 5)?;
        call.rank(1, 5)?;
        call.rank(2, 5)?;
        call.rank(3, 5)?;
        call.rank(4, 4)?;
        call.rank(5, 5)?;
        call.rank(6, 4)?;
        call.rank(7, 4)?;
        let (num_heads, has_initial_state, output_final_state, chunk_size, block_k, block_v) = (call.consts[0] as usize, call.consts[1] as usize, call.consts[2] as usize, call.consts[3] as usize, call.consts[4] as usize, call.consts[5] as usize);
        call.same_dtype(1, 0)?;
        call.same_dtype(2, 0)?;
        call.same_dtype(3, 0)?;
        call.require_dtype(4, wb_ffi::DTYPE_F32)?;
        call.require_dtype(5, wb_ffi::DTYPE_F32)?;
        call.require_dtype(6, wb_ffi::DTYPE_F32)?;
        call.require_dtype(7, wb_ffi::DTYPE_F32)?;
        match (call.dtype_of(0),) {
            (wb_ffi::DTYPE_BF16,) => launch::<bf16>(&call, num_heads, has_initial_state, output_final_state, chunk_size, block_k, block_v),
            (wb_ffi::DTYPE_F32,) => launch::<f32>(&call, num_heads, has_initial_state, output_final_state, chunk_size, block_k, block_v),
            other => call.bad_dtypes(&[other.0]),
        }
    }
}

/// One entry per specialization of the kernel's constant branches (port.toml [entries]).
fn launch<E: DType>(call: &Call, num_heads: usize, has_initial_state: usize, output_final_state: usize, chunk_size: usize, block_k: usize, block_v: usize) -> Result<(), Error> {
    match (call.consts[0], call.consts[1], call.consts[2],) {
        (8, 1, 1,) => launch__chunk_inter_recurrence_kernel_num_heads_8_has_initial_state_true_output_final_state_true::<E>(call, num_heads, has_initial_state, output_final_state, chunk_size, block_k, block_v),
        (4, 0, 0,) => launch__chunk_inter_recurrence_kernel_num_heads_4_has_initial_state_false_output_final_state_false::<E>(call, num_heads, has_initial_state, output_final_state, chunk_size, block_k, block_v),
        (4, 1, 1,) => launch__chunk_inter_recurrence_kernel_num_heads_4_has_initial_state_true_output_final_state_true::<E>(call, num_heads, has_initial_state, output_final_state, chunk_size, block_k, block_v),
        (16, 1, 1,) => launch__chunk_inter_recurrence_kernel_num_heads_16_has_initial_state_true_output_final_state_true::<E>(call, num_heads, has_initial_state, output_final_state, chunk_size, block_k, block_v),
        _ => Err(set_error(Error::BadArgument, format!("tilegym_chunk_gated_delta_rule_inter: NUM_HEADS={}, HAS_INITIAL_STATE={}, OUTPUT_FINAL_STATE={} has no entry in the port", call.consts[0], call.consts[1], call.consts[2]))),
    }
}

fn launch__chunk_inter_recurrence_kernel_num_heads_8_has_initial_state_true_output_final_state_true<E: DType>(call: &Call, num_heads: usize, has_initial_state: usize, output_final_state: usize, chunk_size: usize, block_k: usize, block_v: usize) -> Result<(), Error> {
    let Q_ch = call.input::<E>(0)?;
    let K_ch = call.input::<E>(1)?;
    let V_corr = call.input::<E>(2)?;
    let K_cumdecay = call.input::<E>(3)?;
    let G_cum_in = call.input::<f32>(4)?;
    let Output = call.input::<f32>(5)?;
    let InitState = call.input::<f32>(6)?;
    let FinalState = call.input::<f32>(7)?;
    let num_chunks = call.scalars[0] as i32;
    let K_dim = call.scalars[1] as i32;
    let V_dim = call.scalars[2] as i32;
    let generics = vec![E::DTYPE.as_str().to_string(), num_heads.to_string(), chunk_size.to_string(), block_k.to_string(), block_v.to_string()];
    // the caller's grid and hints (port.toml launch = true): cutile checks them against every partitioned output
    let caller = call.launch_at(6)?;
    unsafe {
        tilegym_chunk_gated_delta_rule_inter_port::_chunk_inter_recurrence_kernel_num_heads_8_has_initial_state_true_output_final_state_true(Q_ch, K_ch, V_corr, K_cumdecay, G_cum_in, Output, InitState, FinalState, num_chunks, K_dim, V_dim)
            .generics(generics)
            .grid(caller.grid)
            .compile_options(caller.options)
            .async_on(&call.stream)
    }
    .map(|_| ())
    .map_err(|e| call.launch_error(e))
}

fn launch__chunk_inter_recurrence_kernel_num_heads_4_has_initial_state_false_output_final_state_false<E: DType>(call: &Call, num_heads: usize, has_initial_state: usize, output_final_state: usize, chunk_size: usize, block_k: usize, block_v: usize) -> Result<(), Error> {
    let Q_ch = call.input::<E>(0)?;
    let K_ch = call.input::<E>(1)?;
    let V_corr = call.input::<E>(2)?;
    let K_cumdecay = call.input::<E>(3)?;
    let G_cum_in = call.input::<f32>(4)?;
    let Output = call.input::<f32>(5)?;
    let InitState = call.input::<f32>(6)?;
    let FinalState = call.input::<f32>(7)?;
    let num_chunks = call.scalars[0] as i32;
    let K_dim = call.scalars[1] as i32;
    let V_dim = call.scalars[2] as i32;
    let generics = vec![E::DTYPE.as_str().to_string(), num_heads.to_string(), chunk_size.to_string(), block_k.to_string(), block_v.to_string()];
    // the caller's grid and hints (port.toml launch = true): cutile checks them against every partitioned output
    let caller = call.launch_at(6)?;
    unsafe {
        tilegym_chunk_gated_delta_rule_inter_port::_chunk_inter_recurrence_kernel_num_heads_4_has_initial_state_false_output_final_state_false(Q_ch, K_ch, V_corr, K_cumdecay, G_cum_in, Output, InitState, FinalState, num_chunks, K_dim, V_dim)
            .generics(generics)
            .grid(caller.grid)
            .compile_options(caller.options)
            .async_on(&call.stream)
    }
    .map(|_| ())
    .map_err(|e| call.launch_error(e))
}

fn launch__chunk_inter_recurrence_kernel_num_heads_4_has_initial_state_true_output_final_state_true<E: DType>(call: &Call, num_heads: usize, has_initial_state: usize, output_final_state: usize, chunk_size: usize, block_k: usize, block_v: usize) -> Result<(), Error> {
    let Q_ch = call.input::<E>(0)?;
    let K_ch = call.input::<E>(1)?;
    let V_corr = call.input::<E>(2)?;
    let K_cumdecay = call.input::<E>(3)?;
    let G_cum_in = call.input::<f32>(4)?;
    let Output = call.input::<f32>(5)?;
    let InitState = call.input::<f32>(6)?;
    let FinalState = call.input::<f32>(7)?;
    let num_chunks = call.scalars[0] as i32;
    let K_dim = call.scalars[1] as i32;
    let V_dim = call.scalars[2] as i32;
    let generics = vec![E::DTYPE.as_str().to_string(), num_heads.to_string(), chunk_size.to_string(), block_k.to_string(), block_v.to_string()];
    // the caller's grid and hints (port.toml launch = true): cutile checks them against every partitioned output
    let caller = call.launch_at(6)?;
    unsafe {
        tilegym_chunk_gated_delta_rule_inter_port::_chunk_inter_recurrence_kernel_num_heads_4_has_initial_state_true_output_final_state_true(Q_ch, K_ch, V_corr, K_cumdecay, G_cum_in, Output, InitState, FinalState, num_chunks, K_dim, V_dim)
            .generics(generics)
            .grid(caller.grid)
            .compile_options(caller.options)
            .async_on(&call.stream)
    }
    .map(|_| ())
    .map_err(|e| call.launch_error(e))
}

fn launch__chunk_inter_recurrence_kernel_num_heads_16_has_initial_state_true_output_final_state_true<E: DType>(call: &Call, num_heads: usize, has_initial_state: usize, output_final_state: usize, chunk_size: usize, block_k: usize, block_v: usize) -> Result<(), Error> {
    let Q_ch = call.input::<E>(0)?;
    let K_ch = call.input::<E>(1)?;
    let V_corr = call.input::<E>(2)?;
    let K_cumdecay = call.input::<E>(3)?;
    let G_cum_in = call.input::<f32>(4)?;
    let Output = call.input::<f32>(5)?;
    let InitState = call.input::<f32>(6)?;
    let FinalState = call.input::<f32>(7)?;
    let num_chunks = call.scalars[0] as i32;
    let K_dim = call.scalars[1] as i32;
    let V_dim = call.scalars[2] as i32;
    let generics = vec![E::DTYPE.as_str().to_string(), num_heads.to_string(), chunk_size.to_string(), block_k.to_string(), block_v.to_string()];
    // the caller's grid and hints (port.toml launch = true): cutile checks them against every partitioned output
    let caller = call.launch_at(6)?;
    unsafe {
        tilegym_chunk_gated_delta_rule_inter_port::_chunk_inter_recurrence_kernel_num_heads_16_has_initial_state_true_output_final_state_true(Q_ch, K_ch, V_corr, K_cumdecay, G_cum_in, Output, InitState, FinalState, num_chunks, K_dim, V_dim)
            .generics(generics)
            .grid(caller.grid)
            .compile_options(caller.options)
            .async_on(&call.stream)
    }
    .map(|_| ())
    .map_err(|e| call.launch_error(e))
}
