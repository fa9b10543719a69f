//! Drafted by workbench/port/rules from tilegym/ops/cutile/chunk_gated_delta_rule.py (_chunk_inter_recurrence_kernel); review before use.
#![allow(unused_unsafe, unused_variables, unused_mut)]
#[cutile::module]
pub mod tilegym_chunk_gated_delta_rule_inter_port {
    use cutile::core::*;

    // NOTE unchecked_accesses: the store at an explicit index goes through the full output view; the launcher must keep it in range
    // NOTE line 261: loads indexed by `ci` run to a bound cutile cannot relate to the arrays, so the entry is unsafe with unchecked_accesses = true; the launcher must keep every index in range
    // The specialization NUM_HEADS=8,HAS_INITIAL_STATE=True,OUTPUT_FINAL_STATE=True: its constant branches folded away.
    #[cutile::entry(unchecked_accesses = true)]
    pub unsafe fn _chunk_inter_recurrence_kernel_num_heads_8_has_initial_state_true_output_final_state_true<E: ElementType, const NUM_HEADS: i32, const CHUNK_SIZE: i32, const BLOCK_K: i32, const BLOCK_V: i32>(
        Q_ch: &Tensor<E, { [-1, -1, -1, -1, -1] }>,
        K_ch: &Tensor<E, { [-1, -1, -1, -1, -1] }>,
        V_corr: &Tensor<E, { [-1, -1, -1, -1, -1] }>,
        K_cumdecay: &Tensor<E, { [-1, -1, -1, -1, -1] }>,
        G_cum_in: &Tensor<f32, { [-1, -1, -1, -1] }>,
        Output: &Tensor<f32, { [-1, -1, -1, -1, -1] }>,
        InitState: &Tensor<f32, { [-1, -1, -1, -1] }>,
        FinalState: &Tensor<f32, { [-1, -1, -1, -1] }>,
        num_chunks: i32,
        K_dim: i32,
        V_dim: i32,
    ) {
        let pid_bh: i32 = get_tile_block_id().0;
        let pid_v: i32 = get_tile_block_id().1;
        let pid_bh_t: Tile<i32, { [] }> = scalar_to_tile(pid_bh);
        let lit: Tile<i32, { [] }> = constant(8i32, shape![]);
        let b: Tile<i32, { [] }> = divi(pid_bh_t, lit, rounding::NegativeInf);
        let pid_bh_t_2: Tile<i32, { [] }> = scalar_to_tile(pid_bh);
        let lit_2: Tile<i32, { [] }> = constant(8i32, shape![]);
        let h_raw: Tile<i32, { [] }> = remi(pid_bh_t_2, lit_2);
        let zeros: Tile<i32, { [] }> = constant(0i32, shape![]);
        let h_neg: Tile<bool, { [] }> = lt_tile(h_raw, zeros);
        let lit_2_neg: Tile<bool, { [] }> = scalar_to_tile(false);
        let h_signs: Tile<bool, { [] }> = xori(h_neg, lit_2_neg);
        let h_nonzero: Tile<bool, { [] }> = ne_tile(h_raw, zeros);
        let h_fix: Tile<bool, { [] }> = andi(h_signs, h_nonzero);
        let h_shifted: Tile<i32, { [] }> = h_raw + lit_2;
        let h: Tile<i32, { [] }> = select(h_fix, h_shifted, h_raw);
        let idx: i32 = tile_to_scalar(b);
        let idx_2: i32 = tile_to_scalar(h);
        let zero: i32 = 0i32;
        let InitState_part: Partition<f32, { [1, 1, BLOCK_K, BLOCK_V] }> = InitState.partition(shape![1, 1, BLOCK_K, BLOCK_V]);
        let InitState_tile: Tile<f32, { [1, 1, BLOCK_K, BLOCK_V] }> = InitState_part.load([idx, idx_2, zero, pid_v]);
        let state_2: Tile<f32, { [BLOCK_K, BLOCK_V] }> = InitState_tile.reshape(shape![BLOCK_K, BLOCK_V]);
        let mut state_3: Tile<f32, { [BLOCK_K, BLOCK_V] }> = state_2;
        let offs_c: Tile<i32, { [CHUNK_SIZE] }> = iota(shape![CHUNK_SIZE]);
        let offs_c_e: Tile<i32, { [CHUNK_SIZE, 1] }> = offs_c.reshape(shape![CHUNK_SIZE, 1]);
        let offs_c_e_2: Tile<i32, { [1, CHUNK_SIZE] }> = offs_c.reshape(shape![1, CHUNK_SIZE]);
        let offs_c_e_b: Tile<i32, { [CHUNK_SIZE, CHUNK_SIZE] }> = offs_c_e.broadcast(shape![CHUNK_SIZE, CHUNK_SIZE]);
        let offs_c_e_2_b: Tile<i32, { [CHUNK_SIZE, CHUNK_SIZE] }> = offs_c_e_2.broadcast(shape![CHUNK_SIZE, CHUNK_SIZE]);
        let causal: Tile<bool, { [CHUNK_SIZE, CHUNK_SIZE] }> = ge_tile(offs_c_e_b, offs_c_e_2_b);
        let idx_3: i32 = tile_to_scalar(b);
        let idx_4: i32 = tile_to_scalar(h);
        let K_cumdecay_part: Partition<E, { [1, 1, 1, CHUNK_SIZE, BLOCK_K] }> = K_cumdecay.partition(shape![1, 1, 1, CHUNK_SIZE, BLOCK_K]);
        let acc: Tile<f32, { [CHUNK_SIZE, BLOCK_V] }> = constant(0.0f32, shape![CHUNK_SIZE, BLOCK_V]);
        let idx_5: i32 = tile_to_scalar(b);
        let idx_6: i32 = tile_to_scalar(h);
        let V_corr_part: Partition<E, { [1, 1, 1, CHUNK_SIZE, BLOCK_V] }> = V_corr.partition(shape![1, 1, 1, CHUNK_SIZE, BLOCK_V]);
        let idx_7: i32 = tile_to_scalar(b);
        let idx_8: i32 = tile_to_scalar(h);
        let Q_ch_part: Partition<E, { [1, 1, 1, CHUNK_SIZE, BLOCK_K] }> = Q_ch.partition(shape![1, 1, 1, CHUNK_SIZE, BLOCK_K]);
        let idx_9: i32 = tile_to_scalar(b);
        let idx_10: i32 = tile_to_scalar(h);
        let G_cum_in_part: Partition<f32, { [1, 1, 1, CHUNK_SIZE] }> = G_cum_in.partition(shape![1, 1, 1, CHUNK_SIZE]);
        let acc_2: Tile<f32, { [CHUNK_SIZE, BLOCK_V] }> = constant(0.0f32, shape![CHUNK_SIZE, BLOCK_V]);
        let idx_11: i32 = tile_to_scalar(b);
        let idx_12: i32 = tile_to_scalar(h);
        let K_ch_part: Partition<E, { [1, 1, 1, CHUNK_SIZE, BLOCK_K] }> = K_ch.partition(shape![1, 1, 1, CHUNK_SIZE, BLOCK_K]);
        let acc_3: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = constant(0.0f32, shape![CHUNK_SIZE, CHUNK_SIZE]);
        let lit_3: Tile<f32, { [] }> = scalar_to_tile(0.0f32);
        let lit_3_r: Tile<f32, { [1, 1] }> = lit_3.reshape(shape![1, 1]);
        let lit_3_b: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = lit_3_r.broadcast(shape![CHUNK_SIZE, CHUNK_SIZE]);
        let lit_4: Tile<f32, { [] }> = scalar_to_tile(0.0f32);
        let lit_4_r: Tile<f32, { [1, 1] }> = lit_4.reshape(shape![1, 1]);
        let lit_4_b: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = lit_4_r.broadcast(shape![CHUNK_SIZE, CHUNK_SIZE]);
        let acc_4: Tile<f32, { [CHUNK_SIZE, BLOCK_V] }> = constant(0.0f32, shape![CHUNK_SIZE, BLOCK_V]);
        let idx_13: i32 = tile_to_scalar(b);
        let idx_14: i32 = tile_to_scalar(h);
        let mut Output_part: PartitionMut<f32, { [1, 1, 1, CHUNK_SIZE, BLOCK_V] }> =
            unsafe { Output.partition_full_mut(shape![1, 1, 1, CHUNK_SIZE, BLOCK_V]) };
        let idx_15: i32 = tile_to_scalar(b);
        let idx_16: i32 = tile_to_scalar(h);
        let G_cum_in_part_2: Partition<f32, { [1, 1, 1, 1] }> = G_cum_in.partition(shape![1, 1, 1, 1]);
        let acc_5: Tile<f32, { [BLOCK_K, BLOCK_V] }> = constant(0.0f32, shape![BLOCK_K, BLOCK_V]);
        for ci in 0i32..num_chunks {
            let K_cumdecay_tile: Tile<E, { [1, 1, 1, CHUNK_SIZE, BLOCK_K] }> = K_cumdecay_part.load([idx_3, idx_4, ci, zero, zero]);
            let K_cumdecay_tile_r: Tile<E, { [CHUNK_SIZE, BLOCK_K] }> = K_cumdecay_tile.reshape(shape![CHUNK_SIZE, BLOCK_K]);
            let kc_chunk: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = convert_tile(K_cumdecay_tile_r);
            let a: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = kc_chunk;
            let b_2: Tile<f32, { [BLOCK_K, BLOCK_V] }> = state_3;
            let a_2: Tile<tf32, { [CHUNK_SIZE, BLOCK_K] }> = convert_tile(a);
            let b_3: Tile<tf32, { [BLOCK_K, BLOCK_V] }> = convert_tile(b_2);
            let mma_2: Tile<f32, { [CHUNK_SIZE, BLOCK_V] }> = mma(a_2, b_3, acc);
            let mma_2_tf32: Tile<tf32, { [CHUNK_SIZE, BLOCK_V] }> = convert_tile(mma_2);
            let ct_mm: Tile<f32, { [CHUNK_SIZE, BLOCK_V] }> = convert_tile(mma_2_tf32);
            let V_corr_tile: Tile<E, { [1, 1, 1, CHUNK_SIZE, BLOCK_V] }> = V_corr_part.load([idx_5, idx_6, ci, zero, pid_v]);
            let V_corr_tile_r: Tile<E, { [CHUNK_SIZE, BLOCK_V] }> = V_corr_tile.reshape(shape![CHUNK_SIZE, BLOCK_V]);
            let v_corr: Tile<f32, { [CHUNK_SIZE, BLOCK_V] }> = convert_tile(V_corr_tile_r);
            let v_new: Tile<f32, { [CHUNK_SIZE, BLOCK_V] }> = v_corr - ct_mm;
            let Q_ch_tile: Tile<E, { [1, 1, 1, CHUNK_SIZE, BLOCK_K] }> = Q_ch_part.load([idx_7, idx_8, ci, zero, zero]);
            let Q_ch_tile_r: Tile<E, { [CHUNK_SIZE, BLOCK_K] }> = Q_ch_tile.reshape(shape![CHUNK_SIZE, BLOCK_K]);
            let q_chunk: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = convert_tile(Q_ch_tile_r);
            let G_cum_in_tile: Tile<f32, { [1, 1, 1, CHUNK_SIZE] }> = G_cum_in_part.load([idx_9, idx_10, ci, zero]);
            let g_cum: Tile<f32, { [CHUNK_SIZE] }> = G_cum_in_tile.reshape(shape![CHUNK_SIZE]);
            let exp_2: Tile<f32, { [CHUNK_SIZE] }> = exp(g_cum);
            let exp_2_e: Tile<f32, { [CHUNK_SIZE, 1] }> = exp_2.reshape(shape![CHUNK_SIZE, 1]);
            let exp_2_e_b: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = exp_2_e.broadcast(shape![CHUNK_SIZE, BLOCK_K]);
            let q_weighted: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = q_chunk * exp_2_e_b;
            let a_3: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = q_weighted;
            let b_4: Tile<f32, { [BLOCK_K, BLOCK_V] }> = state_3;
            let a_4: Tile<tf32, { [CHUNK_SIZE, BLOCK_K] }> = convert_tile(a_3);
            let b_5: Tile<tf32, { [BLOCK_K, BLOCK_V] }> = convert_tile(b_4);
            let mma_3: Tile<f32, { [CHUNK_SIZE, BLOCK_V] }> = mma(a_4, b_5, acc_2);
            let mma_3_tf32: Tile<tf32, { [CHUNK_SIZE, BLOCK_V] }> = convert_tile(mma_3);
            let ct_mm_2: Tile<f32, { [CHUNK_SIZE, BLOCK_V] }> = convert_tile(mma_3_tf32);
            let K_ch_tile: Tile<E, { [1, 1, 1, CHUNK_SIZE, BLOCK_K] }> = K_ch_part.load([idx_11, idx_12, ci, zero, zero]);
            let K_ch_tile_r: Tile<E, { [CHUNK_SIZE, BLOCK_K] }> = K_ch_tile.reshape(shape![CHUNK_SIZE, BLOCK_K]);
            let k_chunk: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = convert_tile(K_ch_tile_r);
            let k_chunk_p: Tile<f32, { [BLOCK_K, CHUNK_SIZE] }> = permute(k_chunk, const_array![1, 0]);
            let a_5: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = q_chunk;
            let b_6: Tile<f32, { [BLOCK_K, CHUNK_SIZE] }> = k_chunk_p;
            let a_6: Tile<tf32, { [CHUNK_SIZE, BLOCK_K] }> = convert_tile(a_5);
            let b_7: Tile<tf32, { [BLOCK_K, CHUNK_SIZE] }> = convert_tile(b_6);
            let mma_4: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = mma(a_6, b_7, acc_3);
            let mma_4_tf32: Tile<tf32, { [CHUNK_SIZE, CHUNK_SIZE] }> = convert_tile(mma_4);
            let ct_mm_3: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = convert_tile(mma_4_tf32);
            let gc_row: Tile<f32, { [CHUNK_SIZE, 1] }> = g_cum.reshape(shape![CHUNK_SIZE, 1]);
            let gc_col: Tile<f32, { [1, CHUNK_SIZE] }> = g_cum.reshape(shape![1, CHUNK_SIZE]);
            let gc_row_b: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = gc_row.broadcast(shape![CHUNK_SIZE, CHUNK_SIZE]);
            let gc_col_b: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = gc_col.broadcast(shape![CHUNK_SIZE, CHUNK_SIZE]);
            let diff: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = gc_row_b - gc_col_b;
            let exp_3: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = exp(diff);
            let decay: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = select(causal, exp_3, lit_3_b);
            let prod: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = ct_mm_3 * decay;
            let qk_masked: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = select(causal, prod, lit_4_b);
            let a_7: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = qk_masked;
            let b_8: Tile<f32, { [CHUNK_SIZE, BLOCK_V] }> = v_new;
            let a_8: Tile<tf32, { [CHUNK_SIZE, CHUNK_SIZE] }> = convert_tile(a_7);
            let b_9: Tile<tf32, { [CHUNK_SIZE, BLOCK_V] }> = convert_tile(b_8);
            let mma_5: Tile<f32, { [CHUNK_SIZE, BLOCK_V] }> = mma(a_8, b_9, acc_4);
            let mma_5_tf32: Tile<tf32, { [CHUNK_SIZE, BLOCK_V] }> = convert_tile(mma_5);
            let ct_mm_4: Tile<f32, { [CHUNK_SIZE, BLOCK_V] }> = convert_tile(mma_5_tf32);
            let out_chunk: Tile<f32, { [CHUNK_SIZE, BLOCK_V] }> = ct_mm_2 + ct_mm_4;
            let result: Tile<f32, { [1, 1, 1, CHUNK_SIZE, BLOCK_V] }> = out_chunk.reshape(shape![1, 1, 1, CHUNK_SIZE, BLOCK_V]);
            Output_part.store(result, [idx_13, idx_14, ci, zero, pid_v]);
            let G_cum_in_tile_2: Tile<f32, { [1, 1, 1, 1] }> = G_cum_in_part_2.load([idx_15, idx_16, ci, (CHUNK_SIZE - 1i32)]);
            let g_last: Tile<f32, { [] }> = G_cum_in_tile_2.reshape(shape![]);
            let g_last_2: Tile<f32, { [] }> = g_last;
            let g_last_2_r: Tile<f32, { [1] }> = g_last_2.reshape(shape![1]);
            let g_last_2_b: Tile<f32, { [CHUNK_SIZE] }> = g_last_2_r.broadcast(shape![CHUNK_SIZE]);
            let diff_2: Tile<f32, { [CHUNK_SIZE] }> = g_last_2_b - g_cum;
            let exp_4: Tile<f32, { [CHUNK_SIZE] }> = exp(diff_2);
            let exp_4_e: Tile<f32, { [CHUNK_SIZE, 1] }> = exp_4.reshape(shape![CHUNK_SIZE, 1]);
            let exp_4_e_b: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = exp_4_e.broadcast(shape![CHUNK_SIZE, BLOCK_K]);
            let k_weighted: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = k_chunk * exp_4_e_b;
            let exp_5: Tile<f32, { [] }> = exp(g_last_2);
            let exp_5_r: Tile<f32, { [1, 1] }> = exp_5.reshape(shape![1, 1]);
            let exp_5_b: Tile<f32, { [BLOCK_K, BLOCK_V] }> = exp_5_r.broadcast(shape![BLOCK_K, BLOCK_V]);
            let k_weighted_p: Tile<f32, { [BLOCK_K, CHUNK_SIZE] }> = permute(k_weighted, const_array![1, 0]);
            let a_9: Tile<f32, { [BLOCK_K, CHUNK_SIZE] }> = k_weighted_p;
            let b_10: Tile<f32, { [CHUNK_SIZE, BLOCK_V] }> = v_new;
            let a_10: Tile<tf32, { [BLOCK_K, CHUNK_SIZE] }> = convert_tile(a_9);
            let b_11: Tile<tf32, { [CHUNK_SIZE, BLOCK_V] }> = convert_tile(b_10);
            let mma_6: Tile<f32, { [BLOCK_K, BLOCK_V] }> = mma(a_10, b_11, acc_5);
            let mma_6_tf32: Tile<tf32, { [BLOCK_K, BLOCK_V] }> = convert_tile(mma_6);
            let ct_mm_5: Tile<f32, { [BLOCK_K, BLOCK_V] }> = convert_tile(mma_6_tf32);
            let state_next: Tile<f32, { [BLOCK_K, BLOCK_V] }> = fma(state_3, exp_5_b, ct_mm_5, rounding::NearestEven, ftz::Disabled);
            state_3 = state_next;
        }
        let result_2: Tile<f32, { [1, 1, BLOCK_K, BLOCK_V] }> = state_3.reshape(shape![1, 1, BLOCK_K, BLOCK_V]);
        let idx_17: i32 = tile_to_scalar(b);
        let idx_18: i32 = tile_to_scalar(h);
        let mut FinalState_part: PartitionMut<f32, { [1, 1, BLOCK_K, BLOCK_V] }> =
            unsafe { FinalState.partition_full_mut(shape![1, 1, BLOCK_K, BLOCK_V]) };
        FinalState_part.store(result_2, [idx_17, idx_18, zero, pid_v]);
    }

    // NOTE unchecked_accesses: the store at an explicit index goes through the full output view; the launcher must keep it in range
    // NOTE line 261: loads indexed by `ci` run to a bound cutile cannot relate to the arrays, so the entry is unsafe with unchecked_accesses = true; the launcher must keep every index in range
    // The specialization NUM_HEADS=4,HAS_INITIAL_STATE=False,OUTPUT_FINAL_STATE=False: its constant branches folded away.
    #[cutile::entry(unchecked_accesses = true)]
    pub unsafe fn _chunk_inter_recurrence_kernel_num_heads_4_has_initial_state_false_output_final_state_false<E: ElementType, const NUM_HEADS: i32, const CHUNK_SIZE: i32, const BLOCK_K: i32, const BLOCK_V: i32>(
        Q_ch: &Tensor<E, { [-1, -1, -1, -1, -1] }>,
        K_ch: &Tensor<E, { [-1, -1, -1, -1, -1] }>,
        V_corr: &Tensor<E, { [-1, -1, -1, -1, -1] }>,
        K_cumdecay: &Tensor<E, { [-1, -1, -1, -1, -1] }>,
        G_cum_in: &Tensor<f32, { [-1, -1, -1, -1] }>,
        Output: &Tensor<f32, { [-1, -1, -1, -1, -1] }>,
        InitState: &Tensor<f32, { [-1, -1, -1, -1] }>,
        FinalState: &Tensor<f32, { [-1, -1, -1, -1] }>,
        num_chunks: i32,
        K_dim: i32,
        V_dim: i32,
    ) {
        let pid_bh: i32 = get_tile_block_id().0;
        let pid_v: i32 = get_tile_block_id().1;
        let pid_bh_t: Tile<i32, { [] }> = scalar_to_tile(pid_bh);
        let lit: Tile<i32, { [] }> = constant(4i32, shape![]);
        let b: Tile<i32, { [] }> = divi(pid_bh_t, lit, rounding::NegativeInf);
        let pid_bh_t_2: Tile<i32, { [] }> = scalar_to_tile(pid_bh);
        let lit_2: Tile<i32, { [] }> = constant(4i32, shape![]);
        let h_raw: Tile<i32, { [] }> = remi(pid_bh_t_2, lit_2);
        let zeros: Tile<i32, { [] }> = constant(0i32, shape![]);
        let h_neg: Tile<bool, { [] }> = lt_tile(h_raw, zeros);
        let lit_2_neg: Tile<bool, { [] }> = scalar_to_tile(false);
        let h_signs: Tile<bool, { [] }> = xori(h_neg, lit_2_neg);
        let h_nonzero: Tile<bool, { [] }> = ne_tile(h_raw, zeros);
        let h_fix: Tile<bool, { [] }> = andi(h_signs, h_nonzero);
        let h_shifted: Tile<i32, { [] }> = h_raw + lit_2;
        let h: Tile<i32, { [] }> = select(h_fix, h_shifted, h_raw);
        let mut state: Tile<f32, { [BLOCK_K, BLOCK_V] }> = constant(0.0f32, shape![BLOCK_K, BLOCK_V]);
        let offs_c: Tile<i32, { [CHUNK_SIZE] }> = iota(shape![CHUNK_SIZE]);
        let offs_c_e: Tile<i32, { [CHUNK_SIZE, 1] }> = offs_c.reshape(shape![CHUNK_SIZE, 1]);
        let offs_c_e_2: Tile<i32, { [1, CHUNK_SIZE] }> = offs_c.reshape(shape![1, CHUNK_SIZE]);
        let offs_c_e_b: Tile<i32, { [CHUNK_SIZE, CHUNK_SIZE] }> = offs_c_e.broadcast(shape![CHUNK_SIZE, CHUNK_SIZE]);
        let offs_c_e_2_b: Tile<i32, { [CHUNK_SIZE, CHUNK_SIZE] }> = offs_c_e_2.broadcast(shape![CHUNK_SIZE, CHUNK_SIZE]);
        let causal: Tile<bool, { [CHUNK_SIZE, CHUNK_SIZE] }> = ge_tile(offs_c_e_b, offs_c_e_2_b);
        let idx: i32 = tile_to_scalar(b);
        let idx_2: i32 = tile_to_scalar(h);
        let zero: i32 = 0i32;
        let K_cumdecay_part: Partition<E, { [1, 1, 1, CHUNK_SIZE, BLOCK_K] }> = K_cumdecay.partition(shape![1, 1, 1, CHUNK_SIZE, BLOCK_K]);
        let acc: Tile<f32, { [CHUNK_SIZE, BLOCK_V] }> = constant(0.0f32, shape![CHUNK_SIZE, BLOCK_V]);
        let idx_3: i32 = tile_to_scalar(b);
        let idx_4: i32 = tile_to_scalar(h);
        let V_corr_part: Partition<E, { [1, 1, 1, CHUNK_SIZE, BLOCK_V] }> = V_corr.partition(shape![1, 1, 1, CHUNK_SIZE, BLOCK_V]);
        let idx_5: i32 = tile_to_scalar(b);
        let idx_6: i32 = tile_to_scalar(h);
        let Q_ch_part: Partition<E, { [1, 1, 1, CHUNK_SIZE, BLOCK_K] }> = Q_ch.partition(shape![1, 1, 1, CHUNK_SIZE, BLOCK_K]);
        let idx_7: i32 = tile_to_scalar(b);
        let idx_8: i32 = tile_to_scalar(h);
        let G_cum_in_part: Partition<f32, { [1, 1, 1, CHUNK_SIZE] }> = G_cum_in.partition(shape![1, 1, 1, CHUNK_SIZE]);
        let acc_2: Tile<f32, { [CHUNK_SIZE, BLOCK_V] }> = constant(0.0f32, shape![CHUNK_SIZE, BLOCK_V]);
        let idx_9: i32 = tile_to_scalar(b);
        let idx_10: i32 = tile_to_scalar(h);
        let K_ch_part: Partition<E, { [1, 1, 1, CHUNK_SIZE, BLOCK_K] }> = K_ch.partition(shape![1, 1, 1, CHUNK_SIZE, BLOCK_K]);
        let acc_3: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = constant(0.0f32, shape![CHUNK_SIZE, CHUNK_SIZE]);
        let lit_3: Tile<f32, { [] }> = scalar_to_tile(0.0f32);
        let lit_3_r: Tile<f32, { [1, 1] }> = lit_3.reshape(shape![1, 1]);
        let lit_3_b: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = lit_3_r.broadcast(shape![CHUNK_SIZE, CHUNK_SIZE]);
        let lit_4: Tile<f32, { [] }> = scalar_to_tile(0.0f32);
        let lit_4_r: Tile<f32, { [1, 1] }> = lit_4.reshape(shape![1, 1]);
        let lit_4_b: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = lit_4_r.broadcast(shape![CHUNK_SIZE, CHUNK_SIZE]);
        let acc_4: Tile<f32, { [CHUNK_SIZE, BLOCK_V] }> = constant(0.0f32, shape![CHUNK_SIZE, BLOCK_V]);
        let idx_11: i32 = tile_to_scalar(b);
        let idx_12: i32 = tile_to_scalar(h);
        let mut Output_part: PartitionMut<f32, { [1, 1, 1, CHUNK_SIZE, BLOCK_V] }> =
            unsafe { Output.partition_full_mut(shape![1, 1, 1, CHUNK_SIZE, BLOCK_V]) };
        let idx_13: i32 = tile_to_scalar(b);
        let idx_14: i32 = tile_to_scalar(h);
        let G_cum_in_part_2: Partition<f32, { [1, 1, 1, 1] }> = G_cum_in.partition(shape![1, 1, 1, 1]);
        let acc_5: Tile<f32, { [BLOCK_K, BLOCK_V] }> = constant(0.0f32, shape![BLOCK_K, BLOCK_V]);
        for ci in 0i32..num_chunks {
            let K_cumdecay_tile: Tile<E, { [1, 1, 1, CHUNK_SIZE, BLOCK_K] }> = K_cumdecay_part.load([idx, idx_2, ci, zero, zero]);
            let K_cumdecay_tile_r: Tile<E, { [CHUNK_SIZE, BLOCK_K] }> = K_cumdecay_tile.reshape(shape![CHUNK_SIZE, BLOCK_K]);
            let kc_chunk: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = convert_tile(K_cumdecay_tile_r);
            let a: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = kc_chunk;
            let b_2: Tile<f32, { [BLOCK_K, BLOCK_V] }> = state;
            let a_2: Tile<tf32, { [CHUNK_SIZE, BLOCK_K] }> = convert_tile(a);
            let b_3: Tile<tf32, { [BLOCK_K, BLOCK_V] }> = convert_tile(b_2);
            let mma_2: Tile<f32, { [CHUNK_SIZE, BLOCK_V] }> = mma(a_2, b_3, acc);
            let mma_2_tf32: Tile<tf32, { [CHUNK_SIZE, BLOCK_V] }> = convert_tile(mma_2);
            let ct_mm: Tile<f32, { [CHUNK_SIZE, BLOCK_V] }> = convert_tile(mma_2_tf32);
            let V_corr_tile: Tile<E, { [1, 1, 1, CHUNK_SIZE, BLOCK_V] }> = V_corr_part.load([idx_3, idx_4, ci, zero, pid_v]);
            let V_corr_tile_r: Tile<E, { [CHUNK_SIZE, BLOCK_V] }> = V_corr_tile.reshape(shape![CHUNK_SIZE, BLOCK_V]);
            let v_corr: Tile<f32, { [CHUNK_SIZE, BLOCK_V] }> = convert_tile(V_corr_tile_r);
            let v_new: Tile<f32, { [CHUNK_SIZE, BLOCK_V] }> = v_corr - ct_mm;
            let Q_ch_tile: Tile<E, { [1, 1, 1, CHUNK_SIZE, BLOCK_K] }> = Q_ch_part.load([idx_5, idx_6, ci, zero, zero]);
            let Q_ch_tile_r: Tile<E, { [CHUNK_SIZE, BLOCK_K] }> = Q_ch_tile.reshape(shape![CHUNK_SIZE, BLOCK_K]);
            let q_chunk: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = convert_tile(Q_ch_tile_r);
            let G_cum_in_tile: Tile<f32, { [1, 1, 1, CHUNK_SIZE] }> = G_cum_in_part.load([idx_7, idx_8, ci, zero]);
            let g_cum: Tile<f32, { [CHUNK_SIZE] }> = G_cum_in_tile.reshape(shape![CHUNK_SIZE]);
            let exp_2: Tile<f32, { [CHUNK_SIZE] }> = exp(g_cum);
            let exp_2_e: Tile<f32, { [CHUNK_SIZE, 1] }> = exp_2.reshape(shape![CHUNK_SIZE, 1]);
            let exp_2_e_b: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = exp_2_e.broadcast(shape![CHUNK_SIZE, BLOCK_K]);
            let q_weighted: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = q_chunk * exp_2_e_b;
            let a_3: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = q_weighted;
            let b_4: Tile<f32, { [BLOCK_K, BLOCK_V] }> = state;
            let a_4: Tile<tf32, { [CHUNK_SIZE, BLOCK_K] }> = convert_tile(a_3);
            let b_5: Tile<tf32, { [BLOCK_K, BLOCK_V] }> = convert_tile(b_4);
            let mma_3: Tile<f32, { [CHUNK_SIZE, BLOCK_V] }> = mma(a_4, b_5, acc_2);
            let mma_3_tf32: Tile<tf32, { [CHUNK_SIZE, BLOCK_V] }> = convert_tile(mma_3);
            let ct_mm_2: Tile<f32, { [CHUNK_SIZE, BLOCK_V] }> = convert_tile(mma_3_tf32);
            let K_ch_tile: Tile<E, { [1, 1, 1, CHUNK_SIZE, BLOCK_K] }> = K_ch_part.load([idx_9, idx_10, ci, zero, zero]);
            let K_ch_tile_r: Tile<E, { [CHUNK_SIZE, BLOCK_K] }> = K_ch_tile.reshape(shape![CHUNK_SIZE, BLOCK_K]);
            let k_chunk: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = convert_tile(K_ch_tile_r);
            let k_chunk_p: Tile<f32, { [BLOCK_K, CHUNK_SIZE] }> = permute(k_chunk, const_array![1, 0]);
            let a_5: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = q_chunk;
            let b_6: Tile<f32, { [BLOCK_K, CHUNK_SIZE] }> = k_chunk_p;
            let a_6: Tile<tf32, { [CHUNK_SIZE, BLOCK_K] }> = convert_tile(a_5);
            let b_7: Tile<tf32, { [BLOCK_K, CHUNK_SIZE] }> = convert_tile(b_6);
            let mma_4: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = mma(a_6, b_7, acc_3);
            let mma_4_tf32: Tile<tf32, { [CHUNK_SIZE, CHUNK_SIZE] }> = convert_tile(mma_4);
            let ct_mm_3: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = convert_tile(mma_4_tf32);
            let gc_row: Tile<f32, { [CHUNK_SIZE, 1] }> = g_cum.reshape(shape![CHUNK_SIZE, 1]);
            let gc_col: Tile<f32, { [1, CHUNK_SIZE] }> = g_cum.reshape(shape![1, CHUNK_SIZE]);
            let gc_row_b: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = gc_row.broadcast(shape![CHUNK_SIZE, CHUNK_SIZE]);
            let gc_col_b: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = gc_col.broadcast(shape![CHUNK_SIZE, CHUNK_SIZE]);
            let diff: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = gc_row_b - gc_col_b;
            let exp_3: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = exp(diff);
            let decay: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = select(causal, exp_3, lit_3_b);
            let prod: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = ct_mm_3 * decay;
            let qk_masked: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = select(causal, prod, lit_4_b);
            let a_7: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = qk_masked;
            let b_8: Tile<f32, { [CHUNK_SIZE, BLOCK_V] }> = v_new;
            let a_8: Tile<tf32, { [CHUNK_SIZE, CHUNK_SIZE] }> = convert_tile(a_7);
            let b_9: Tile<tf32, { [CHUNK_SIZE, BLOCK_V] }> = convert_tile(b_8);
            let mma_5: Tile<f32, { [CHUNK_SIZE, BLOCK_V] }> = mma(a_8, b_9, acc_4);
            let mma_5_tf32: Tile<tf32, { [CHUNK_SIZE, BLOCK_V] }> = convert_tile(mma_5);
            let ct_mm_4: Tile<f32, { [CHUNK_SIZE, BLOCK_V] }> = convert_tile(mma_5_tf32);
            let out_chunk: Tile<f32, { [CHUNK_SIZE, BLOCK_V] }> = ct_mm_2 + ct_mm_4;
            let result: Tile<f32, { [1, 1, 1, CHUNK_SIZE, BLOCK_V] }> = out_chunk.reshape(shape![1, 1, 1, CHUNK_SIZE, BLOCK_V]);
            Output_part.store(result, [idx_11, idx_12, ci, zero, pid_v]);
            let G_cum_in_tile_2: Tile<f32, { [1, 1, 1, 1] }> = G_cum_in_part_2.load([idx_13, idx_14, ci, (CHUNK_SIZE - 1i32)]);
            let g_last: Tile<f32, { [] }> = G_cum_in_tile_2.reshape(shape![]);
            let g_last_2: Tile<f32, { [] }> = g_last;
            let g_last_2_r: Tile<f32, { [1] }> = g_last_2.reshape(shape![1]);
            let g_last_2_b: Tile<f32, { [CHUNK_SIZE] }> = g_last_2_r.broadcast(shape![CHUNK_SIZE]);
            let diff_2: Tile<f32, { [CHUNK_SIZE] }> = g_last_2_b - g_cum;
            let exp_4: Tile<f32, { [CHUNK_SIZE] }> = exp(diff_2);
            let exp_4_e: Tile<f32, { [CHUNK_SIZE, 1] }> = exp_4.reshape(shape![CHUNK_SIZE, 1]);
            let exp_4_e_b: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = exp_4_e.broadcast(shape![CHUNK_SIZE, BLOCK_K]);
            let k_weighted: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = k_chunk * exp_4_e_b;
            let exp_5: Tile<f32, { [] }> = exp(g_last_2);
            let exp_5_r: Tile<f32, { [1, 1] }> = exp_5.reshape(shape![1, 1]);
            let exp_5_b: Tile<f32, { [BLOCK_K, BLOCK_V] }> = exp_5_r.broadcast(shape![BLOCK_K, BLOCK_V]);
            let k_weighted_p: Tile<f32, { [BLOCK_K, CHUNK_SIZE] }> = permute(k_weighted, const_array![1, 0]);
            let a_9: Tile<f32, { [BLOCK_K, CHUNK_SIZE] }> = k_weighted_p;
            let b_10: Tile<f32, { [CHUNK_SIZE, BLOCK_V] }> = v_new;
            let a_10: Tile<tf32, { [BLOCK_K, CHUNK_SIZE] }> = convert_tile(a_9);
            let b_11: Tile<tf32, { [CHUNK_SIZE, BLOCK_V] }> = convert_tile(b_10);
            let mma_6: Tile<f32, { [BLOCK_K, BLOCK_V] }> = mma(a_10, b_11, acc_5);
            let mma_6_tf32: Tile<tf32, { [BLOCK_K, BLOCK_V] }> = convert_tile(mma_6);
            let ct_mm_5: Tile<f32, { [BLOCK_K, BLOCK_V] }> = convert_tile(mma_6_tf32);
            let state_next: Tile<f32, { [BLOCK_K, BLOCK_V] }> = fma(state, exp_5_b, ct_mm_5, rounding::NearestEven, ftz::Disabled);
            state = state_next;
        }
    }

    // NOTE unchecked_accesses: the store at an explicit index goes through the full output view; the launcher must keep it in range
    // NOTE line 261: loads indexed by `ci` run to a bound cutile cannot relate to the arrays, so the entry is unsafe with unchecked_accesses = true; the launcher must keep every index in range
    // The specialization NUM_HEADS=4,HAS_INITIAL_STATE=True,OUTPUT_FINAL_STATE=True: its constant branches folded away.
    #[cutile::entry(unchecked_accesses = true)]
    pub unsafe fn _chunk_inter_recurrence_kernel_num_heads_4_has_initial_state_true_output_final_state_true<E: ElementType, const NUM_HEADS: i32, const CHUNK_SIZE: i32, const BLOCK_K: i32, const BLOCK_V: i32>(
        Q_ch: &Tensor<E, { [-1, -1, -1, -1, -1] }>,
        K_ch: &Tensor<E, { [-1, -1, -1, -1, -1] }>,
        V_corr: &Tensor<E, { [-1, -1, -1, -1, -1] }>,
        K_cumdecay: &Tensor<E, { [-1, -1, -1, -1, -1] }>,
        G_cum_in: &Tensor<f32, { [-1, -1, -1, -1] }>,
        Output: &Tensor<f32, { [-1, -1, -1, -1, -1] }>,
        InitState: &Tensor<f32, { [-1, -1, -1, -1] }>,
        FinalState: &Tensor<f32, { [-1, -1, -1, -1] }>,
        num_chunks: i32,
        K_dim: i32,
        V_dim: i32,
    ) {
        let pid_bh: i32 = get_tile_block_id().0;
        let pid_v: i32 = get_tile_block_id().1;
        let pid_bh_t: Tile<i32, { [] }> = scalar_to_tile(pid_bh);
        let lit: Tile<i32, { [] }> = constant(4i32, shape![]);
        let b: Tile<i32, { [] }> = divi(pid_bh_t, lit, rounding::NegativeInf);
        let pid_bh_t_2: Tile<i32, { [] }> = scalar_to_tile(pid_bh);
        let lit_2: Tile<i32, { [] }> = constant(4i32, shape![]);
        let h_raw: Tile<i32, { [] }> = remi(pid_bh_t_2, lit_2);
        let zeros: Tile<i32, { [] }> = constant(0i32, shape![]);
        let h_neg: Tile<bool, { [] }> = lt_tile(h_raw, zeros);
        let lit_2_neg: Tile<bool, { [] }> = scalar_to_tile(false);
        let h_signs: Tile<bool, { [] }> = xori(h_neg, lit_2_neg);
        let h_nonzero: Tile<bool, { [] }> = ne_tile(h_raw, zeros);
        let h_fix: Tile<bool, { [] }> = andi(h_signs, h_nonzero);
        let h_shifted: Tile<i32, { [] }> = h_raw + lit_2;
        let h: Tile<i32, { [] }> = select(h_fix, h_shifted, h_raw);
        let idx: i32 = tile_to_scalar(b);
        let idx_2: i32 = tile_to_scalar(h);
        let zero: i32 = 0i32;
        let InitState_part: Partition<f32, { [1, 1, BLOCK_K, BLOCK_V] }> = InitState.partition(shape![1, 1, BLOCK_K, BLOCK_V]);
        let InitState_tile: Tile<f32, { [1, 1, BLOCK_K, BLOCK_V] }> = InitState_part.load([idx, idx_2, zero, pid_v]);
        let state_2: Tile<f32, { [BLOCK_K, BLOCK_V] }> = InitState_tile.reshape(shape![BLOCK_K, BLOCK_V]);
        let mut state_3: Tile<f32, { [BLOCK_K, BLOCK_V] }> = state_2;
        let offs_c: Tile<i32, { [CHUNK_SIZE] }> = iota(shape![CHUNK_SIZE]);
        let offs_c_e: Tile<i32, { [CHUNK_SIZE, 1] }> = offs_c.reshape(shape![CHUNK_SIZE, 1]);
        let offs_c_e_2: Tile<i32, { [1, CHUNK_SIZE] }> = offs_c.reshape(shape![1, CHUNK_SIZE]);
        let offs_c_e_b: Tile<i32, { [CHUNK_SIZE, CHUNK_SIZE] }> = offs_c_e.broadcast(shape![CHUNK_SIZE, CHUNK_SIZE]);
        let offs_c_e_2_b: Tile<i32, { [CHUNK_SIZE, CHUNK_SIZE] }> = offs_c_e_2.broadcast(shape![CHUNK_SIZE, CHUNK_SIZE]);
        let causal: Tile<bool, { [CHUNK_SIZE, CHUNK_SIZE] }> = ge_tile(offs_c_e_b, offs_c_e_2_b);
        let idx_3: i32 = tile_to_scalar(b);
        let idx_4: i32 = tile_to_scalar(h);
        let K_cumdecay_part: Partition<E, { [1, 1, 1, CHUNK_SIZE, BLOCK_K] }> = K_cumdecay.partition(shape![1, 1, 1, CHUNK_SIZE, BLOCK_K]);
        let acc: Tile<f32, { [CHUNK_SIZE, BLOCK_V] }> = constant(0.0f32, shape![CHUNK_SIZE, BLOCK_V]);
        let idx_5: i32 = tile_to_scalar(b);
        let idx_6: i32 = tile_to_scalar(h);
        let V_corr_part: Partition<E, { [1, 1, 1, CHUNK_SIZE, BLOCK_V] }> = V_corr.partition(shape![1, 1, 1, CHUNK_SIZE, BLOCK_V]);
        let idx_7: i32 = tile_to_scalar(b);
        let idx_8: i32 = tile_to_scalar(h);
        let Q_ch_part: Partition<E, { [1, 1, 1, CHUNK_SIZE, BLOCK_K] }> = Q_ch.partition(shape![1, 1, 1, CHUNK_SIZE, BLOCK_K]);
        let idx_9: i32 = tile_to_scalar(b);
        let idx_10: i32 = tile_to_scalar(h);
        let G_cum_in_part: Partition<f32, { [1, 1, 1, CHUNK_SIZE] }> = G_cum_in.partition(shape![1, 1, 1, CHUNK_SIZE]);
        let acc_2: Tile<f32, { [CHUNK_SIZE, BLOCK_V] }> = constant(0.0f32, shape![CHUNK_SIZE, BLOCK_V]);
        let idx_11: i32 = tile_to_scalar(b);
        let idx_12: i32 = tile_to_scalar(h);
        let K_ch_part: Partition<E, { [1, 1, 1, CHUNK_SIZE, BLOCK_K] }> = K_ch.partition(shape![1, 1, 1, CHUNK_SIZE, BLOCK_K]);
        let acc_3: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = constant(0.0f32, shape![CHUNK_SIZE, CHUNK_SIZE]);
        let lit_3: Tile<f32, { [] }> = scalar_to_tile(0.0f32);
        let lit_3_r: Tile<f32, { [1, 1] }> = lit_3.reshape(shape![1, 1]);
        let lit_3_b: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = lit_3_r.broadcast(shape![CHUNK_SIZE, CHUNK_SIZE]);
        let lit_4: Tile<f32, { [] }> = scalar_to_tile(0.0f32);
        let lit_4_r: Tile<f32, { [1, 1] }> = lit_4.reshape(shape![1, 1]);
        let lit_4_b: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = lit_4_r.broadcast(shape![CHUNK_SIZE, CHUNK_SIZE]);
        let acc_4: Tile<f32, { [CHUNK_SIZE, BLOCK_V] }> = constant(0.0f32, shape![CHUNK_SIZE, BLOCK_V]);
        let idx_13: i32 = tile_to_scalar(b);
        let idx_14: i32 = tile_to_scalar(h);
        let mut Output_part: PartitionMut<f32, { [1, 1, 1, CHUNK_SIZE, BLOCK_V] }> =
            unsafe { Output.partition_full_mut(shape![1, 1, 1, CHUNK_SIZE, BLOCK_V]) };
        let idx_15: i32 = tile_to_scalar(b);
        let idx_16: i32 = tile_to_scalar(h);
        let G_cum_in_part_2: Partition<f32, { [1, 1, 1, 1] }> = G_cum_in.partition(shape![1, 1, 1, 1]);
        let acc_5: Tile<f32, { [BLOCK_K, BLOCK_V] }> = constant(0.0f32, shape![BLOCK_K, BLOCK_V]);
        for ci in 0i32..num_chunks {
            let K_cumdecay_tile: Tile<E, { [1, 1, 1, CHUNK_SIZE, BLOCK_K] }> = K_cumdecay_part.load([idx_3, idx_4, ci, zero, zero]);
            let K_cumdecay_tile_r: Tile<E, { [CHUNK_SIZE, BLOCK_K] }> = K_cumdecay_tile.reshape(shape![CHUNK_SIZE, BLOCK_K]);
            let kc_chunk: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = convert_tile(K_cumdecay_tile_r);
            let a: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = kc_chunk;
            let b_2: Tile<f32, { [BLOCK_K, BLOCK_V] }> = state_3;
            let a_2: Tile<tf32, { [CHUNK_SIZE, BLOCK_K] }> = convert_tile(a);
            let b_3: Tile<tf32, { [BLOCK_K, BLOCK_V] }> = convert_tile(b_2);
            let mma_2: Tile<f32, { [CHUNK_SIZE, BLOCK_V] }> = mma(a_2, b_3, acc);
            let mma_2_tf32: Tile<tf32, { [CHUNK_SIZE, BLOCK_V] }> = convert_tile(mma_2);
            let ct_mm: Tile<f32, { [CHUNK_SIZE, BLOCK_V] }> = convert_tile(mma_2_tf32);
            let V_corr_tile: Tile<E, { [1, 1, 1, CHUNK_SIZE, BLOCK_V] }> = V_corr_part.load([idx_5, idx_6, ci, zero, pid_v]);
            let V_corr_tile_r: Tile<E, { [CHUNK_SIZE, BLOCK_V] }> = V_corr_tile.reshape(shape![CHUNK_SIZE, BLOCK_V]);
            let v_corr: Tile<f32, { [CHUNK_SIZE, BLOCK_V] }> = convert_tile(V_corr_tile_r);
            let v_new: Tile<f32, { [CHUNK_SIZE, BLOCK_V] }> = v_corr - ct_mm;
            let Q_ch_tile: Tile<E, { [1, 1, 1, CHUNK_SIZE, BLOCK_K] }> = Q_ch_part.load([idx_7, idx_8, ci, zero, zero]);
            let Q_ch_tile_r: Tile<E, { [CHUNK_SIZE, BLOCK_K] }> = Q_ch_tile.reshape(shape![CHUNK_SIZE, BLOCK_K]);
            let q_chunk: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = convert_tile(Q_ch_tile_r);
            let G_cum_in_tile: Tile<f32, { [1, 1, 1, CHUNK_SIZE] }> = G_cum_in_part.load([idx_9, idx_10, ci, zero]);
            let g_cum: Tile<f32, { [CHUNK_SIZE] }> = G_cum_in_tile.reshape(shape![CHUNK_SIZE]);
            let exp_2: Tile<f32, { [CHUNK_SIZE] }> = exp(g_cum);
            let exp_2_e: Tile<f32, { [CHUNK_SIZE, 1] }> = exp_2.reshape(shape![CHUNK_SIZE, 1]);
            let exp_2_e_b: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = exp_2_e.broadcast(shape![CHUNK_SIZE, BLOCK_K]);
            let q_weighted: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = q_chunk * exp_2_e_b;
            let a_3: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = q_weighted;
            let b_4: Tile<f32, { [BLOCK_K, BLOCK_V] }> = state_3;
            let a_4: Tile<tf32, { [CHUNK_SIZE, BLOCK_K] }> = convert_tile(a_3);
            let b_5: Tile<tf32, { [BLOCK_K, BLOCK_V] }> = convert_tile(b_4);
            let mma_3: Tile<f32, { [CHUNK_SIZE, BLOCK_V] }> = mma(a_4, b_5, acc_2);
            let mma_3_tf32: Tile<tf32, { [CHUNK_SIZE, BLOCK_V] }> = convert_tile(mma_3);
            let ct_mm_2: Tile<f32, { [CHUNK_SIZE, BLOCK_V] }> = convert_tile(mma_3_tf32);
            let K_ch_tile: Tile<E, { [1, 1, 1, CHUNK_SIZE, BLOCK_K] }> = K_ch_part.load([idx_11, idx_12, ci, zero, zero]);
            let K_ch_tile_r: Tile<E, { [CHUNK_SIZE, BLOCK_K] }> = K_ch_tile.reshape(shape![CHUNK_SIZE, BLOCK_K]);
            let k_chunk: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = convert_tile(K_ch_tile_r);
            let k_chunk_p: Tile<f32, { [BLOCK_K, CHUNK_SIZE] }> = permute(k_chunk, const_array![1, 0]);
            let a_5: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = q_chunk;
            let b_6: Tile<f32, { [BLOCK_K, CHUNK_SIZE] }> = k_chunk_p;
            let a_6: Tile<tf32, { [CHUNK_SIZE, BLOCK_K] }> = convert_tile(a_5);
            let b_7: Tile<tf32, { [BLOCK_K, CHUNK_SIZE] }> = convert_tile(b_6);
            let mma_4: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = mma(a_6, b_7, acc_3);
            let mma_4_tf32: Tile<tf32, { [CHUNK_SIZE, CHUNK_SIZE] }> = convert_tile(mma_4);
            let ct_mm_3: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = convert_tile(mma_4_tf32);
            let gc_row: Tile<f32, { [CHUNK_SIZE, 1] }> = g_cum.reshape(shape![CHUNK_SIZE, 1]);
            let gc_col: Tile<f32, { [1, CHUNK_SIZE] }> = g_cum.reshape(shape![1, CHUNK_SIZE]);
            let gc_row_b: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = gc_row.broadcast(shape![CHUNK_SIZE, CHUNK_SIZE]);
            let gc_col_b: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = gc_col.broadcast(shape![CHUNK_SIZE, CHUNK_SIZE]);
            let diff: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = gc_row_b - gc_col_b;
            let exp_3: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = exp(diff);
            let decay: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = select(causal, exp_3, lit_3_b);
            let prod: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = ct_mm_3 * decay;
            let qk_masked: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = select(causal, prod, lit_4_b);
            let a_7: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = qk_masked;
            let b_8: Tile<f32, { [CHUNK_SIZE, BLOCK_V] }> = v_new;
            let a_8: Tile<tf32, { [CHUNK_SIZE, CHUNK_SIZE] }> = convert_tile(a_7);
            let b_9: Tile<tf32, { [CHUNK_SIZE, BLOCK_V] }> = convert_tile(b_8);
            let mma_5: Tile<f32, { [CHUNK_SIZE, BLOCK_V] }> = mma(a_8, b_9, acc_4);
            let mma_5_tf32: Tile<tf32, { [CHUNK_SIZE, BLOCK_V] }> = convert_tile(mma_5);
            let ct_mm_4: Tile<f32, { [CHUNK_SIZE, BLOCK_V] }> = convert_tile(mma_5_tf32);
            let out_chunk: Tile<f32, { [CHUNK_SIZE, BLOCK_V] }> = ct_mm_2 + ct_mm_4;
            let result: Tile<f32, { [1, 1, 1, CHUNK_SIZE, BLOCK_V] }> = out_chunk.reshape(shape![1, 1, 1, CHUNK_SIZE, BLOCK_V]);
            Output_part.store(result, [idx_13, idx_14, ci, zero, pid_v]);
            let G_cum_in_tile_2: Tile<f32, { [1, 1, 1, 1] }> = G_cum_in_part_2.load([idx_15, idx_16, ci, (CHUNK_SIZE - 1i32)]);
            let g_last: Tile<f32, { [] }> = G_cum_in_tile_2.reshape(shape![]);
            let g_last_2: Tile<f32, { [] }> = g_last;
            let g_last_2_r: Tile<f32, { [1] }> = g_last_2.reshape(shape![1]);
            let g_last_2_b: Tile<f32, { [CHUNK_SIZE] }> = g_last_2_r.broadcast(shape![CHUNK_SIZE]);
            let diff_2: Tile<f32, { [CHUNK_SIZE] }> = g_last_2_b - g_cum;
            let exp_4: Tile<f32, { [CHUNK_SIZE] }> = exp(diff_2);
            let exp_4_e: Tile<f32, { [CHUNK_SIZE, 1] }> = exp_4.reshape(shape![CHUNK_SIZE, 1]);
            let exp_4_e_b: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = exp_4_e.broadcast(shape![CHUNK_SIZE, BLOCK_K]);
            let k_weighted: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = k_chunk * exp_4_e_b;
            let exp_5: Tile<f32, { [] }> = exp(g_last_2);
            let exp_5_r: Tile<f32, { [1, 1] }> = exp_5.reshape(shape![1, 1]);
            let exp_5_b: Tile<f32, { [BLOCK_K, BLOCK_V] }> = exp_5_r.broadcast(shape![BLOCK_K, BLOCK_V]);
            let k_weighted_p: Tile<f32, { [BLOCK_K, CHUNK_SIZE] }> = permute(k_weighted, const_array![1, 0]);
            let a_9: Tile<f32, { [BLOCK_K, CHUNK_SIZE] }> = k_weighted_p;
            let b_10: Tile<f32, { [CHUNK_SIZE, BLOCK_V] }> = v_new;
            let a_10: Tile<tf32, { [BLOCK_K, CHUNK_SIZE] }> = convert_tile(a_9);
            let b_11: Tile<tf32, { [CHUNK_SIZE, BLOCK_V] }> = convert_tile(b_10);
            let mma_6: Tile<f32, { [BLOCK_K, BLOCK_V] }> = mma(a_10, b_11, acc_5);
            let mma_6_tf32: Tile<tf32, { [BLOCK_K, BLOCK_V] }> = convert_tile(mma_6);
            let ct_mm_5: Tile<f32, { [BLOCK_K, BLOCK_V] }> = convert_tile(mma_6_tf32);
            let state_next: Tile<f32, { [BLOCK_K, BLOCK_V] }> = fma(state_3, exp_5_b, ct_mm_5, rounding::NearestEven, ftz::Disabled);
            state_3 = state_next;
        }
        let result_2: Tile<f32, { [1, 1, BLOCK_K, BLOCK_V] }> = state_3.reshape(shape![1, 1, BLOCK_K, BLOCK_V]);
        let idx_17: i32 = tile_to_scalar(b);
        let idx_18: i32 = tile_to_scalar(h);
        let mut FinalState_part: PartitionMut<f32, { [1, 1, BLOCK_K, BLOCK_V] }> =
            unsafe { FinalState.partition_full_mut(shape![1, 1, BLOCK_K, BLOCK_V]) };
        FinalState_part.store(result_2, [idx_17, idx_18, zero, pid_v]);
    }

    // NOTE unchecked_accesses: the store at an explicit index goes through the full output view; the launcher must keep it in range
    // NOTE line 261: loads indexed by `ci` run to a bound cutile cannot relate to the arrays, so the entry is unsafe with unchecked_accesses = true; the launcher must keep every index in range
    // The specialization NUM_HEADS=16,HAS_INITIAL_STATE=True,OUTPUT_FINAL_STATE=True: its constant branches folded away.
    #[cutile::entry(unchecked_accesses = true)]
    pub unsafe fn _chunk_inter_recurrence_kernel_num_heads_16_has_initial_state_true_output_final_state_true<E: ElementType, const NUM_HEADS: i32, const CHUNK_SIZE: i32, const BLOCK_K: i32, const BLOCK_V: i32>(
        Q_ch: &Tensor<E, { [-1, -1, -1, -1, -1] }>,
        K_ch: &Tensor<E, { [-1, -1, -1, -1, -1] }>,
        V_corr: &Tensor<E, { [-1, -1, -1, -1, -1] }>,
        K_cumdecay: &Tensor<E, { [-1, -1, -1, -1, -1] }>,
        G_cum_in: &Tensor<f32, { [-1, -1, -1, -1] }>,
        Output: &Tensor<f32, { [-1, -1, -1, -1, -1] }>,
        InitState: &Tensor<f32, { [-1, -1, -1, -1] }>,
        FinalState: &Tensor<f32, { [-1, -1, -1, -1] }>,
        num_chunks: i32,
        K_dim: i32,
        V_dim: i32,
    ) {
        let pid_bh: i32 = get_tile_block_id().0;
        let pid_v: i32 = get_tile_block_id().1;
        let pid_bh_t: Tile<i32, { [] }> = scalar_to_tile(pid_bh);
        let lit: Tile<i32, { [] }> = constant(16i32, shape![]);
        let b: Tile<i32, { [] }> = divi(pid_bh_t, lit, rounding::NegativeInf);
        let pid_bh_t_2: Tile<i32, { [] }> = scalar_to_tile(pid_bh);
        let lit_2: Tile<i32, { [] }> = constant(16i32, shape![]);
        let h_raw: Tile<i32, { [] }> = remi(pid_bh_t_2, lit_2);
        let zeros: Tile<i32, { [] }> = constant(0i32, shape![]);
        let h_neg: Tile<bool, { [] }> = lt_tile(h_raw, zeros);
        let lit_2_neg: Tile<bool, { [] }> = scalar_to_tile(false);
        let h_signs: Tile<bool, { [] }> = xori(h_neg, lit_2_neg);
        let h_nonzero: Tile<bool, { [] }> = ne_tile(h_raw, zeros);
        let h_fix: Tile<bool, { [] }> = andi(h_signs, h_nonzero);
        let h_shifted: Tile<i32, { [] }> = h_raw + lit_2;
        let h: Tile<i32, { [] }> = select(h_fix, h_shifted, h_raw);
        let idx: i32 = tile_to_scalar(b);
        let idx_2: i32 = tile_to_scalar(h);
        let zero: i32 = 0i32;
        let InitState_part: Partition<f32, { [1, 1, BLOCK_K, BLOCK_V] }> = InitState.partition(shape![1, 1, BLOCK_K, BLOCK_V]);
        let InitState_tile: Tile<f32, { [1, 1, BLOCK_K, BLOCK_V] }> = InitState_part.load([idx, idx_2, zero, pid_v]);
        let state_2: Tile<f32, { [BLOCK_K, BLOCK_V] }> = InitState_tile.reshape(shape![BLOCK_K, BLOCK_V]);
        let mut state_3: Tile<f32, { [BLOCK_K, BLOCK_V] }> = state_2;
        let offs_c: Tile<i32, { [CHUNK_SIZE] }> = iota(shape![CHUNK_SIZE]);
        let offs_c_e: Tile<i32, { [CHUNK_SIZE, 1] }> = offs_c.reshape(shape![CHUNK_SIZE, 1]);
        let offs_c_e_2: Tile<i32, { [1, CHUNK_SIZE] }> = offs_c.reshape(shape![1, CHUNK_SIZE]);
        let offs_c_e_b: Tile<i32, { [CHUNK_SIZE, CHUNK_SIZE] }> = offs_c_e.broadcast(shape![CHUNK_SIZE, CHUNK_SIZE]);
        let offs_c_e_2_b: Tile<i32, { [CHUNK_SIZE, CHUNK_SIZE] }> = offs_c_e_2.broadcast(shape![CHUNK_SIZE, CHUNK_SIZE]);
        let causal: Tile<bool, { [CHUNK_SIZE, CHUNK_SIZE] }> = ge_tile(offs_c_e_b, offs_c_e_2_b);
        let idx_3: i32 = tile_to_scalar(b);
        let idx_4: i32 = tile_to_scalar(h);
        let K_cumdecay_part: Partition<E, { [1, 1, 1, CHUNK_SIZE, BLOCK_K] }> = K_cumdecay.partition(shape![1, 1, 1, CHUNK_SIZE, BLOCK_K]);
        let acc: Tile<f32, { [CHUNK_SIZE, BLOCK_V] }> = constant(0.0f32, shape![CHUNK_SIZE, BLOCK_V]);
        let idx_5: i32 = tile_to_scalar(b);
        let idx_6: i32 = tile_to_scalar(h);
        let V_corr_part: Partition<E, { [1, 1, 1, CHUNK_SIZE, BLOCK_V] }> = V_corr.partition(shape![1, 1, 1, CHUNK_SIZE, BLOCK_V]);
        let idx_7: i32 = tile_to_scalar(b);
        let idx_8: i32 = tile_to_scalar(h);
        let Q_ch_part: Partition<E, { [1, 1, 1, CHUNK_SIZE, BLOCK_K] }> = Q_ch.partition(shape![1, 1, 1, CHUNK_SIZE, BLOCK_K]);
        let idx_9: i32 = tile_to_scalar(b);
        let idx_10: i32 = tile_to_scalar(h);
        let G_cum_in_part: Partition<f32, { [1, 1, 1, CHUNK_SIZE] }> = G_cum_in.partition(shape![1, 1, 1, CHUNK_SIZE]);
        let acc_2: Tile<f32, { [CHUNK_SIZE, BLOCK_V] }> = constant(0.0f32, shape![CHUNK_SIZE, BLOCK_V]);
        let idx_11: i32 = tile_to_scalar(b);
        let idx_12: i32 = tile_to_scalar(h);
        let K_ch_part: Partition<E, { [1, 1, 1, CHUNK_SIZE, BLOCK_K] }> = K_ch.partition(shape![1, 1, 1, CHUNK_SIZE, BLOCK_K]);
        let acc_3: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = constant(0.0f32, shape![CHUNK_SIZE, CHUNK_SIZE]);
        let lit_3: Tile<f32, { [] }> = scalar_to_tile(0.0f32);
        let lit_3_r: Tile<f32, { [1, 1] }> = lit_3.reshape(shape![1, 1]);
        let lit_3_b: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = lit_3_r.broadcast(shape![CHUNK_SIZE, CHUNK_SIZE]);
        let lit_4: Tile<f32, { [] }> = scalar_to_tile(0.0f32);
        let lit_4_r: Tile<f32, { [1, 1] }> = lit_4.reshape(shape![1, 1]);
        let lit_4_b: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = lit_4_r.broadcast(shape![CHUNK_SIZE, CHUNK_SIZE]);
        let acc_4: Tile<f32, { [CHUNK_SIZE, BLOCK_V] }> = constant(0.0f32, shape![CHUNK_SIZE, BLOCK_V]);
        let idx_13: i32 = tile_to_scalar(b);
        let idx_14: i32 = tile_to_scalar(h);
        let mut Output_part: PartitionMut<f32, { [1, 1, 1, CHUNK_SIZE, BLOCK_V] }> =
            unsafe { Output.partition_full_mut(shape![1, 1, 1, CHUNK_SIZE, BLOCK_V]) };
        let idx_15: i32 = tile_to_scalar(b);
        let idx_16: i32 = tile_to_scalar(h);
        let G_cum_in_part_2: Partition<f32, { [1, 1, 1, 1] }> = G_cum_in.partition(shape![1, 1, 1, 1]);
        let acc_5: Tile<f32, { [BLOCK_K, BLOCK_V] }> = constant(0.0f32, shape![BLOCK_K, BLOCK_V]);
        for ci in 0i32..num_chunks {
            let K_cumdecay_tile: Tile<E, { [1, 1, 1, CHUNK_SIZE, BLOCK_K] }> = K_cumdecay_part.load([idx_3, idx_4, ci, zero, zero]);
            let K_cumdecay_tile_r: Tile<E, { [CHUNK_SIZE, BLOCK_K] }> = K_cumdecay_tile.reshape(shape![CHUNK_SIZE, BLOCK_K]);
            let kc_chunk: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = convert_tile(K_cumdecay_tile_r);
            let a: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = kc_chunk;
            let b_2: Tile<f32, { [BLOCK_K, BLOCK_V] }> = state_3;
            let a_2: Tile<tf32, { [CHUNK_SIZE, BLOCK_K] }> = convert_tile(a);
            let b_3: Tile<tf32, { [BLOCK_K, BLOCK_V] }> = convert_tile(b_2);
            let mma_2: Tile<f32, { [CHUNK_SIZE, BLOCK_V] }> = mma(a_2, b_3, acc);
            let mma_2_tf32: Tile<tf32, { [CHUNK_SIZE, BLOCK_V] }> = convert_tile(mma_2);
            let ct_mm: Tile<f32, { [CHUNK_SIZE, BLOCK_V] }> = convert_tile(mma_2_tf32);
            let V_corr_tile: Tile<E, { [1, 1, 1, CHUNK_SIZE, BLOCK_V] }> = V_corr_part.load([idx_5, idx_6, ci, zero, pid_v]);
            let V_corr_tile_r: Tile<E, { [CHUNK_SIZE, BLOCK_V] }> = V_corr_tile.reshape(shape![CHUNK_SIZE, BLOCK_V]);
            let v_corr: Tile<f32, { [CHUNK_SIZE, BLOCK_V] }> = convert_tile(V_corr_tile_r);
            let v_new: Tile<f32, { [CHUNK_SIZE, BLOCK_V] }> = v_corr - ct_mm;
            let Q_ch_tile: Tile<E, { [1, 1, 1, CHUNK_SIZE, BLOCK_K] }> = Q_ch_part.load([idx_7, idx_8, ci, zero, zero]);
            let Q_ch_tile_r: Tile<E, { [CHUNK_SIZE, BLOCK_K] }> = Q_ch_tile.reshape(shape![CHUNK_SIZE, BLOCK_K]);
            let q_chunk: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = convert_tile(Q_ch_tile_r);
            let G_cum_in_tile: Tile<f32, { [1, 1, 1, CHUNK_SIZE] }> = G_cum_in_part.load([idx_9, idx_10, ci, zero]);
            let g_cum: Tile<f32, { [CHUNK_SIZE] }> = G_cum_in_tile.reshape(shape![CHUNK_SIZE]);
            let exp_2: Tile<f32, { [CHUNK_SIZE] }> = exp(g_cum);
            let exp_2_e: Tile<f32, { [CHUNK_SIZE, 1] }> = exp_2.reshape(shape![CHUNK_SIZE, 1]);
            let exp_2_e_b: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = exp_2_e.broadcast(shape![CHUNK_SIZE, BLOCK_K]);
            let q_weighted: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = q_chunk * exp_2_e_b;
            let a_3: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = q_weighted;
            let b_4: Tile<f32, { [BLOCK_K, BLOCK_V] }> = state_3;
            let a_4: Tile<tf32, { [CHUNK_SIZE, BLOCK_K] }> = convert_tile(a_3);
            let b_5: Tile<tf32, { [BLOCK_K, BLOCK_V] }> = convert_tile(b_4);
            let mma_3: Tile<f32, { [CHUNK_SIZE, BLOCK_V] }> = mma(a_4, b_5, acc_2);
            let mma_3_tf32: Tile<tf32, { [CHUNK_SIZE, BLOCK_V] }> = convert_tile(mma_3);
            let ct_mm_2: Tile<f32, { [CHUNK_SIZE, BLOCK_V] }> = convert_tile(mma_3_tf32);
            let K_ch_tile: Tile<E, { [1, 1, 1, CHUNK_SIZE, BLOCK_K] }> = K_ch_part.load([idx_11, idx_12, ci, zero, zero]);
            let K_ch_tile_r: Tile<E, { [CHUNK_SIZE, BLOCK_K] }> = K_ch_tile.reshape(shape![CHUNK_SIZE, BLOCK_K]);
            let k_chunk: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = convert_tile(K_ch_tile_r);
            let k_chunk_p: Tile<f32, { [BLOCK_K, CHUNK_SIZE] }> = permute(k_chunk, const_array![1, 0]);
            let a_5: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = q_chunk;
            let b_6: Tile<f32, { [BLOCK_K, CHUNK_SIZE] }> = k_chunk_p;
            let a_6: Tile<tf32, { [CHUNK_SIZE, BLOCK_K] }> = convert_tile(a_5);
            let b_7: Tile<tf32, { [BLOCK_K, CHUNK_SIZE] }> = convert_tile(b_6);
            let mma_4: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = mma(a_6, b_7, acc_3);
            let mma_4_tf32: Tile<tf32, { [CHUNK_SIZE, CHUNK_SIZE] }> = convert_tile(mma_4);
            let ct_mm_3: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = convert_tile(mma_4_tf32);
            let gc_row: Tile<f32, { [CHUNK_SIZE, 1] }> = g_cum.reshape(shape![CHUNK_SIZE, 1]);
            let gc_col: Tile<f32, { [1, CHUNK_SIZE] }> = g_cum.reshape(shape![1, CHUNK_SIZE]);
            let gc_row_b: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = gc_row.broadcast(shape![CHUNK_SIZE, CHUNK_SIZE]);
            let gc_col_b: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = gc_col.broadcast(shape![CHUNK_SIZE, CHUNK_SIZE]);
            let diff: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = gc_row_b - gc_col_b;
            let exp_3: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = exp(diff);
            let decay: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = select(causal, exp_3, lit_3_b);
            let prod: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = ct_mm_3 * decay;
            let qk_masked: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = select(causal, prod, lit_4_b);
            let a_7: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = qk_masked;
            let b_8: Tile<f32, { [CHUNK_SIZE, BLOCK_V] }> = v_new;
            let a_8: Tile<tf32, { [CHUNK_SIZE, CHUNK_SIZE] }> = convert_tile(a_7);
            let b_9: Tile<tf32, { [CHUNK_SIZE, BLOCK_V] }> = convert_tile(b_8);
            let mma_5: Tile<f32, { [CHUNK_SIZE, BLOCK_V] }> = mma(a_8, b_9, acc_4);
            let mma_5_tf32: Tile<tf32, { [CHUNK_SIZE, BLOCK_V] }> = convert_tile(mma_5);
            let ct_mm_4: Tile<f32, { [CHUNK_SIZE, BLOCK_V] }> = convert_tile(mma_5_tf32);
            let out_chunk: Tile<f32, { [CHUNK_SIZE, BLOCK_V] }> = ct_mm_2 + ct_mm_4;
            let result: Tile<f32, { [1, 1, 1, CHUNK_SIZE, BLOCK_V] }> = out_chunk.reshape(shape![1, 1, 1, CHUNK_SIZE, BLOCK_V]);
            Output_part.store(result, [idx_13, idx_14, ci, zero, pid_v]);
            let G_cum_in_tile_2: Tile<f32, { [1, 1, 1, 1] }> = G_cum_in_part_2.load([idx_15, idx_16, ci, (CHUNK_SIZE - 1i32)]);
            let g_last: Tile<f32, { [] }> = G_cum_in_tile_2.reshape(shape![]);
            let g_last_2: Tile<f32, { [] }> = g_last;
            let g_last_2_r: Tile<f32, { [1] }> = g_last_2.reshape(shape![1]);
            let g_last_2_b: Tile<f32, { [CHUNK_SIZE] }> = g_last_2_r.broadcast(shape![CHUNK_SIZE]);
            let diff_2: Tile<f32, { [CHUNK_SIZE] }> = g_last_2_b - g_cum;
            let exp_4: Tile<f32, { [CHUNK_SIZE] }> = exp(diff_2);
            let exp_4_e: Tile<f32, { [CHUNK_SIZE, 1] }> = exp_4.reshape(shape![CHUNK_SIZE, 1]);
            let exp_4_e_b: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = exp_4_e.broadcast(shape![CHUNK_SIZE, BLOCK_K]);
            let k_weighted: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = k_chunk * exp_4_e_b;
            let exp_5: Tile<f32, { [] }> = exp(g_last_2);
            let exp_5_r: Tile<f32, { [1, 1] }> = exp_5.reshape(shape![1, 1]);
            let exp_5_b: Tile<f32, { [BLOCK_K, BLOCK_V] }> = exp_5_r.broadcast(shape![BLOCK_K, BLOCK_V]);
            let k_weighted_p: Tile<f32, { [BLOCK_K, CHUNK_SIZE] }> = permute(k_weighted, const_array![1, 0]);
            let a_9: Tile<f32, { [BLOCK_K, CHUNK_SIZE] }> = k_weighted_p;
            let b_10: Tile<f32, { [CHUNK_SIZE, BLOCK_V] }> = v_new;
            let a_10: Tile<tf32, { [BLOCK_K, CHUNK_SIZE] }> = convert_tile(a_9);
            let b_11: Tile<tf32, { [CHUNK_SIZE, BLOCK_V] }> = convert_tile(b_10);
            let mma_6: Tile<f32, { [BLOCK_K, BLOCK_V] }> = mma(a_10, b_11, acc_5);
            let mma_6_tf32: Tile<tf32, { [BLOCK_K, BLOCK_V] }> = convert_tile(mma_6);
            let ct_mm_5: Tile<f32, { [BLOCK_K, BLOCK_V] }> = convert_tile(mma_6_tf32);
            let state_next: Tile<f32, { [BLOCK_K, BLOCK_V] }> = fma(state_3, exp_5_b, ct_mm_5, rounding::NearestEven, ftz::Disabled);
            state_3 = state_next;
        }
        let result_2: Tile<f32, { [1, 1, BLOCK_K, BLOCK_V] }> = state_3.reshape(shape![1, 1, BLOCK_K, BLOCK_V]);
        let idx_17: i32 = tile_to_scalar(b);
        let idx_18: i32 = tile_to_scalar(h);
        let mut FinalState_part: PartitionMut<f32, { [1, 1, BLOCK_K, BLOCK_V] }> =
            unsafe { FinalState.partition_full_mut(shape![1, 1, BLOCK_K, BLOCK_V]) };
        FinalState_part.store(result_2, [idx_17, idx_18, zero, pid_v]);
    }
}
