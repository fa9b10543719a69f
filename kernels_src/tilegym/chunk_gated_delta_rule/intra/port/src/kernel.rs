//! Drafted by workbench/port/rules from tilegym/ops/cutile/chunk_gated_delta_rule.py (_intra_chunk_prepare_kernel); review before use.
#![allow(unused_unsafe, unused_variables, unused_mut)]
#[cutile::module]
pub mod tilegym_chunk_gated_delta_rule_intra_port {
    use cutile::core::*;

    // NOTE unchecked_accesses: the store at an explicit index goes through the full output view; the launcher must keep it in range
    // NOTE line 158: loads indexed by `vt` run to a bound cutile cannot relate to the arrays, so the entry is unsafe with unchecked_accesses = true; the launcher must keep every index in range
    // The specialization NUM_HEADS=8,USE_QK_L2NORM=False,INTER_BF16=True: its constant branches folded away.
    #[cutile::entry(unchecked_accesses = true, optimization_hints = (sm_90 = (occupancy = 2,), sm_100 = (occupancy = 2,),))]
    pub unsafe fn _intra_chunk_prepare_kernel_bf16_bf16_num_heads_8_use_qk_l2norm_false_inter_bf16_true<const NUM_HEADS: i32, const CHUNK_SIZE: i32, const BLOCK_K: i32, const SOLVE_STEPS: i32>(
        Q: &Tensor<bf16, { [-1, -1, -1, -1] }>,
        K: &Tensor<bf16, { [-1, -1, -1, -1] }>,
        V: &Tensor<bf16, { [-1, -1, -1, -1] }>,
        Beta: &Tensor<bf16, { [-1, -1, -1] }>,
        G: &Tensor<f32, { [-1, -1, -1] }>,
        Q_out: &Tensor<bf16, { [-1, -1, -1, -1, -1] }>,
        K_out: &Tensor<bf16, { [-1, -1, -1, -1, -1] }>,
        V_corr: &Tensor<bf16, { [-1, -1, -1, -1, -1] }>,
        K_cumdecay: &Tensor<bf16, { [-1, -1, -1, -1, -1] }>,
        G_cum_out: &Tensor<f32, { [-1, -1, -1, -1] }>,
        seq_len: i32,
        K_dim: i32,
        V_dim: i32,
        scale: f32,
    ) {
        let pid_bh: i32 = get_tile_block_id().0;
        let pid_chunk: i32 = get_tile_block_id().1;
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
        let K_part: Partition<bf16, { [1, CHUNK_SIZE, 1, BLOCK_K] }> = K.partition(shape![1, CHUNK_SIZE, 1, BLOCK_K]);
        let K_tile: Tile<bf16, { [1, CHUNK_SIZE, 1, BLOCK_K] }> = K_part.load([idx, pid_chunk, idx_2, zero]);
        let K_tile_r: Tile<bf16, { [CHUNK_SIZE, BLOCK_K] }> = K_tile.reshape(shape![CHUNK_SIZE, BLOCK_K]);
        let k_tile: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = convert_tile(K_tile_r);
        let idx_3: i32 = tile_to_scalar(b);
        let idx_4: i32 = tile_to_scalar(h);
        let Beta_part: Partition<bf16, { [1, CHUNK_SIZE, 1] }> = Beta.partition(shape![1, CHUNK_SIZE, 1]);
        let Beta_tile: Tile<bf16, { [1, CHUNK_SIZE, 1] }> = Beta_part.load([idx_3, pid_chunk, idx_4]);
        let Beta_tile_r: Tile<bf16, { [CHUNK_SIZE] }> = Beta_tile.reshape(shape![CHUNK_SIZE]);
        let beta_tile: Tile<f32, { [CHUNK_SIZE] }> = convert_tile(Beta_tile_r);
        let idx_5: i32 = tile_to_scalar(b);
        let idx_6: i32 = tile_to_scalar(h);
        let G_part: Partition<f32, { [1, CHUNK_SIZE, 1] }> = G.partition(shape![1, CHUNK_SIZE, 1]);
        let G_tile: Tile<f32, { [1, CHUNK_SIZE, 1] }> = G_part.load([idx_5, pid_chunk, idx_6]);
        let G_tile_r: Tile<f32, { [CHUNK_SIZE] }> = G_tile.reshape(shape![CHUNK_SIZE]);
        let g_cum: Tile<f32, { [CHUNK_SIZE] }> = scan_sum(G_tile_r, 0i32, reverse::Forward, 0.0f32);
        let offs_c: Tile<i32, { [CHUNK_SIZE] }> = iota(shape![CHUNK_SIZE]);
        let offs_c_row: Tile<i32, { [CHUNK_SIZE, 1] }> = offs_c.reshape(shape![CHUNK_SIZE, 1]);
        let offs_c_col: Tile<i32, { [1, CHUNK_SIZE] }> = offs_c.reshape(shape![1, CHUNK_SIZE]);
        let offs_c_row_b: Tile<i32, { [CHUNK_SIZE, CHUNK_SIZE] }> = offs_c_row.broadcast(shape![CHUNK_SIZE, CHUNK_SIZE]);
        let offs_c_col_b: Tile<i32, { [CHUNK_SIZE, CHUNK_SIZE] }> = offs_c_col.broadcast(shape![CHUNK_SIZE, CHUNK_SIZE]);
        let lower_tri: Tile<bool, { [CHUNK_SIZE, CHUNK_SIZE] }> = ge_tile(offs_c_row_b, offs_c_col_b);
        let offs_c_row_b_2: Tile<i32, { [CHUNK_SIZE, CHUNK_SIZE] }> = offs_c_row.broadcast(shape![CHUNK_SIZE, CHUNK_SIZE]);
        let offs_c_col_b_2: Tile<i32, { [CHUNK_SIZE, CHUNK_SIZE] }> = offs_c_col.broadcast(shape![CHUNK_SIZE, CHUNK_SIZE]);
        let strict_lower: Tile<bool, { [CHUNK_SIZE, CHUNK_SIZE] }> = gt_tile(offs_c_row_b_2, offs_c_col_b_2);
        let gc_row: Tile<f32, { [CHUNK_SIZE, 1] }> = g_cum.reshape(shape![CHUNK_SIZE, 1]);
        let gc_col: Tile<f32, { [1, CHUNK_SIZE] }> = g_cum.reshape(shape![1, CHUNK_SIZE]);
        let gc_row_b: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = gc_row.broadcast(shape![CHUNK_SIZE, CHUNK_SIZE]);
        let gc_col_b: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = gc_col.broadcast(shape![CHUNK_SIZE, CHUNK_SIZE]);
        let diff: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = gc_row_b - gc_col_b;
        let exp_2: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = exp(diff);
        let lit_3: Tile<f32, { [] }> = scalar_to_tile(0.0f32);
        let lit_3_r: Tile<f32, { [1, 1] }> = lit_3.reshape(shape![1, 1]);
        let lit_3_b: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = lit_3_r.broadcast(shape![CHUNK_SIZE, CHUNK_SIZE]);
        let decay_mask: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = select(lower_tri, exp_2, lit_3_b);
        let beta_tile_e: Tile<f32, { [CHUNK_SIZE, 1] }> = beta_tile.reshape(shape![CHUNK_SIZE, 1]);
        let beta_tile_e_b: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = beta_tile_e.broadcast(shape![CHUNK_SIZE, BLOCK_K]);
        let kb_tile: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = k_tile * beta_tile_e_b;
        let k_tile_p: Tile<f32, { [BLOCK_K, CHUNK_SIZE] }> = permute(k_tile, const_array![1, 0]);
        let a: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = kb_tile;
        let b_2: Tile<f32, { [BLOCK_K, CHUNK_SIZE] }> = k_tile_p;
        let a_2: Tile<tf32, { [CHUNK_SIZE, BLOCK_K] }> = convert_tile(a);
        let b_3: Tile<tf32, { [BLOCK_K, CHUNK_SIZE] }> = convert_tile(b_2);
        let acc: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = constant(0.0f32, shape![CHUNK_SIZE, CHUNK_SIZE]);
        let mma_2: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = mma(a_2, b_3, acc);
        let mma_2_tf32: Tile<tf32, { [CHUNK_SIZE, CHUNK_SIZE] }> = convert_tile(mma_2);
        let ct_mm: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = convert_tile(mma_2_tf32);
        let prod: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = ct_mm * decay_mask;
        let neg: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = negf(prod);
        let lit_4: Tile<f32, { [] }> = scalar_to_tile(0.0f32);
        let lit_4_r: Tile<f32, { [1, 1] }> = lit_4.reshape(shape![1, 1]);
        let lit_4_b: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = lit_4_r.broadcast(shape![CHUNK_SIZE, CHUNK_SIZE]);
        let attn: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = select(strict_lower, neg, lit_4_b);
        let offs: Tile<i32, { [CHUNK_SIZE] }> = iota(shape![CHUNK_SIZE]);
        let offs_e: Tile<i32, { [CHUNK_SIZE, 1] }> = offs.reshape(shape![CHUNK_SIZE, 1]);
        let offs_e_2: Tile<i32, { [1, CHUNK_SIZE] }> = offs.reshape(shape![1, CHUNK_SIZE]);
        let offs_e_b: Tile<i32, { [CHUNK_SIZE, CHUNK_SIZE] }> = offs_e.broadcast(shape![CHUNK_SIZE, CHUNK_SIZE]);
        let offs_e_2_b: Tile<i32, { [CHUNK_SIZE, CHUNK_SIZE] }> = offs_e_2.broadcast(shape![CHUNK_SIZE, CHUNK_SIZE]);
        let mask: Tile<bool, { [CHUNK_SIZE, CHUNK_SIZE] }> = eq_tile(offs_e_b, offs_e_2_b);
        let lit_6: Tile<f32, { [] }> = scalar_to_tile(0.0f32);
        let lit_5: Tile<f32, { [] }> = scalar_to_tile(1.0f32);
        let lit_5_r: Tile<f32, { [1, 1] }> = lit_5.reshape(shape![1, 1]);
        let lit_5_b: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = lit_5_r.broadcast(shape![CHUNK_SIZE, CHUNK_SIZE]);
        let lit_6_r: Tile<f32, { [1, 1] }> = lit_6.reshape(shape![1, 1]);
        let lit_6_b: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = lit_6_r.broadcast(shape![CHUNK_SIZE, CHUNK_SIZE]);
        let eye: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = select(mask, lit_5_b, lit_6_b);
        let abs: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = absf(attn);
        let sum_red: Tile<f32, { [CHUNK_SIZE] }> = reduce_sum(abs, 1i32);
        let sum_red_t: Tile<f32, { [CHUNK_SIZE] }> = convert_tile(sum_red);
        let norm_inf: Tile<f32, { [] }> = reduce_max(sum_red_t, 0i32);
        let mut result: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = attn;
        let lit_7: Tile<f32, { [] }> = scalar_to_tile(1.0f32);
        let cond: Tile<bool, { [] }> = lt_tile(norm_inf, lit_7);
        let cond_2: bool = tile_to_scalar(cond);
        if cond_2 {
            let mut result_2: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = eye + attn;
            let mut A_power: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = attn;
            let acc_2: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = constant(0.0f32, shape![CHUNK_SIZE, CHUNK_SIZE]);
            let acc_3: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = constant(0.0f32, shape![CHUNK_SIZE, CHUNK_SIZE]);
            for _ in 1i32..SOLVE_STEPS {
                let a_3: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = A_power;
                let b_4: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = A_power;
                let a_4: Tile<tf32, { [CHUNK_SIZE, CHUNK_SIZE] }> = convert_tile(a_3);
                let b_5: Tile<tf32, { [CHUNK_SIZE, CHUNK_SIZE] }> = convert_tile(b_4);
                let mma_3: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = mma(a_4, b_5, acc_2);
                let mma_3_tf32: Tile<tf32, { [CHUNK_SIZE, CHUNK_SIZE] }> = convert_tile(mma_3);
                let ct_mm_2: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = convert_tile(mma_3_tf32);
                A_power = ct_mm_2;
                let sum: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = eye + A_power;
                let a_5: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = result_2;
                let b_6: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = sum;
                let a_6: Tile<tf32, { [CHUNK_SIZE, CHUNK_SIZE] }> = convert_tile(a_5);
                let b_7: Tile<tf32, { [CHUNK_SIZE, CHUNK_SIZE] }> = convert_tile(b_6);
                let mma_4: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = mma(a_6, b_7, acc_3);
                let mma_4_tf32: Tile<tf32, { [CHUNK_SIZE, CHUNK_SIZE] }> = convert_tile(mma_4);
                let ct_mm_3: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = convert_tile(mma_4_tf32);
                result_2 = ct_mm_3;
            }
            result = result_2;
        } else {
            let mut A: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = attn;
            let offs_2: Tile<i32, { [CHUNK_SIZE] }> = iota(shape![CHUNK_SIZE]);
            let lit_8: Tile<f32, { [] }> = scalar_to_tile(0.0f32);
            let lit_8_r: Tile<f32, { [1, 1] }> = lit_8.reshape(shape![1, 1]);
            let lit_8_b: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = lit_8_r.broadcast(shape![CHUNK_SIZE, CHUNK_SIZE]);
            let lit_9: Tile<f32, { [] }> = scalar_to_tile(0.0f32);
            let lit_9_r: Tile<f32, { [1, 1] }> = lit_9.reshape(shape![1, 1]);
            let lit_9_b: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = lit_9_r.broadcast(shape![CHUNK_SIZE, CHUNK_SIZE]);
            for i in 1i32..CHUNK_SIZE {
                let i_t: Tile<i32, { [] }> = scalar_to_tile(i);
                let i_t_r: Tile<i32, { [1] }> = i_t.reshape(shape![1]);
                let i_t_b: Tile<i32, { [CHUNK_SIZE] }> = i_t_r.broadcast(shape![CHUNK_SIZE]);
                let is_row: Tile<bool, { [CHUNK_SIZE] }> = eq_tile(offs_2, i_t_b);
                let is_row_col: Tile<bool, { [CHUNK_SIZE, 1] }> = is_row.reshape(shape![CHUNK_SIZE, 1]);
                let is_row_col_b: Tile<bool, { [CHUNK_SIZE, CHUNK_SIZE] }> = is_row_col.broadcast(shape![CHUNK_SIZE, CHUNK_SIZE]);
                let selected: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = select(is_row_col_b, A, lit_8_b);
                let row: Tile<f32, { [CHUNK_SIZE] }> = reduce_sum(selected, 0i32);
                let row_t: Tile<f32, { [CHUNK_SIZE] }> = convert_tile(row);
                let row_t_e: Tile<f32, { [CHUNK_SIZE, 1] }> = row_t.reshape(shape![CHUNK_SIZE, 1]);
                let row_t_e_b: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = row_t_e.broadcast(shape![CHUNK_SIZE, CHUNK_SIZE]);
                let prod_2: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = row_t_e_b * A;
                let correction: Tile<f32, { [CHUNK_SIZE] }> = reduce_sum(prod_2, 0i32);
                let correction_t: Tile<f32, { [CHUNK_SIZE] }> = convert_tile(correction);
                let correction_t_e: Tile<f32, { [1, CHUNK_SIZE] }> = correction_t.reshape(shape![1, CHUNK_SIZE]);
                let is_row_col_b_2: Tile<bool, { [CHUNK_SIZE, CHUNK_SIZE] }> = is_row_col.broadcast(shape![CHUNK_SIZE, CHUNK_SIZE]);
                let correction_t_e_b: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = correction_t_e.broadcast(shape![CHUNK_SIZE, CHUNK_SIZE]);
                let selected_2: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = select(is_row_col_b_2, correction_t_e_b, lit_9_b);
                let A_next: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = A + selected_2;
                A = A_next;
            }
            let offs_2_e: Tile<i32, { [CHUNK_SIZE, 1] }> = offs_2.reshape(shape![CHUNK_SIZE, 1]);
            let offs_2_e_2: Tile<i32, { [1, CHUNK_SIZE] }> = offs_2.reshape(shape![1, CHUNK_SIZE]);
            let offs_2_e_b: Tile<i32, { [CHUNK_SIZE, CHUNK_SIZE] }> = offs_2_e.broadcast(shape![CHUNK_SIZE, CHUNK_SIZE]);
            let offs_2_e_2_b: Tile<i32, { [CHUNK_SIZE, CHUNK_SIZE] }> = offs_2_e_2.broadcast(shape![CHUNK_SIZE, CHUNK_SIZE]);
            let mask_2: Tile<bool, { [CHUNK_SIZE, CHUNK_SIZE] }> = eq_tile(offs_2_e_b, offs_2_e_2_b);
            let lit_11: Tile<f32, { [] }> = scalar_to_tile(0.0f32);
            let lit_10: Tile<f32, { [] }> = scalar_to_tile(1.0f32);
            let lit_10_r: Tile<f32, { [1, 1] }> = lit_10.reshape(shape![1, 1]);
            let lit_10_b: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = lit_10_r.broadcast(shape![CHUNK_SIZE, CHUNK_SIZE]);
            let lit_11_r: Tile<f32, { [1, 1] }> = lit_11.reshape(shape![1, 1]);
            let lit_11_b: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = lit_11_r.broadcast(shape![CHUNK_SIZE, CHUNK_SIZE]);
            let eye_2: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = select(mask_2, lit_10_b, lit_11_b);
            let ct_solve_tril_serial: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = A + eye_2;
            result = ct_solve_tril_serial;
        }
        let attn_2: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = result;
        let num_v_tiles: i32 = ceil_div(V_dim, BLOCK_K);
        let idx_7: i32 = tile_to_scalar(b);
        let idx_8: i32 = tile_to_scalar(h);
        let V_part: Partition<bf16, { [1, CHUNK_SIZE, 1, BLOCK_K] }> = V.partition(shape![1, CHUNK_SIZE, 1, BLOCK_K]);
        let beta_tile_e_2: Tile<f32, { [CHUNK_SIZE, 1] }> = beta_tile.reshape(shape![CHUNK_SIZE, 1]);
        let beta_tile_e_2_b: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = beta_tile_e_2.broadcast(shape![CHUNK_SIZE, BLOCK_K]);
        let a_7: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = attn_2;
        let a_8: Tile<tf32, { [CHUNK_SIZE, CHUNK_SIZE] }> = convert_tile(a_7);
        let acc_4: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = constant(0.0f32, shape![CHUNK_SIZE, BLOCK_K]);
        let idx_9: i32 = tile_to_scalar(b);
        let idx_10: i32 = tile_to_scalar(h);
        let mut V_corr_part: PartitionMut<bf16, { [1, 1, 1, CHUNK_SIZE, BLOCK_K] }> =
            unsafe { V_corr.partition_full_mut(shape![1, 1, 1, CHUNK_SIZE, BLOCK_K]) };
        for vt in 0i32..num_v_tiles {
            let V_tile: Tile<bf16, { [1, CHUNK_SIZE, 1, BLOCK_K] }> = V_part.load([idx_7, pid_chunk, idx_8, vt]);
            let V_tile_r: Tile<bf16, { [CHUNK_SIZE, BLOCK_K] }> = V_tile.reshape(shape![CHUNK_SIZE, BLOCK_K]);
            let v_tile: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = convert_tile(V_tile_r);
            let vb_tile: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = v_tile * beta_tile_e_2_b;
            let b_8: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = vb_tile;
            let b_9: Tile<tf32, { [CHUNK_SIZE, BLOCK_K] }> = convert_tile(b_8);
            let mma_5: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = mma(a_8, b_9, acc_4);
            let mma_5_tf32: Tile<tf32, { [CHUNK_SIZE, BLOCK_K] }> = convert_tile(mma_5);
            let ct_mm_4: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = convert_tile(mma_5_tf32);
            let ct_mm_4_bf16: Tile<bf16, { [CHUNK_SIZE, BLOCK_K] }> = convert_tile(ct_mm_4);
            let result_3: Tile<bf16, { [1, 1, 1, CHUNK_SIZE, BLOCK_K] }> = ct_mm_4_bf16.reshape(shape![1, 1, 1, CHUNK_SIZE, BLOCK_K]);
            V_corr_part.store(result_3, [idx_9, idx_10, pid_chunk, zero, vt]);
        }
        let exp_3: Tile<f32, { [CHUNK_SIZE] }> = exp(g_cum);
        let exp_3_e: Tile<f32, { [CHUNK_SIZE, 1] }> = exp_3.reshape(shape![CHUNK_SIZE, 1]);
        let exp_3_e_b: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = exp_3_e.broadcast(shape![CHUNK_SIZE, BLOCK_K]);
        let kbe_tile: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = kb_tile * exp_3_e_b;
        let a_9: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = attn_2;
        let b_10: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = kbe_tile;
        let a_10: Tile<tf32, { [CHUNK_SIZE, CHUNK_SIZE] }> = convert_tile(a_9);
        let b_11: Tile<tf32, { [CHUNK_SIZE, BLOCK_K] }> = convert_tile(b_10);
        let acc_5: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = constant(0.0f32, shape![CHUNK_SIZE, BLOCK_K]);
        let mma_6: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = mma(a_10, b_11, acc_5);
        let mma_6_tf32: Tile<tf32, { [CHUNK_SIZE, BLOCK_K] }> = convert_tile(mma_6);
        let ct_mm_5: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = convert_tile(mma_6_tf32);
        let ct_mm_5_bf16: Tile<bf16, { [CHUNK_SIZE, BLOCK_K] }> = convert_tile(ct_mm_5);
        let result_4: Tile<bf16, { [1, 1, 1, CHUNK_SIZE, BLOCK_K] }> = ct_mm_5_bf16.reshape(shape![1, 1, 1, CHUNK_SIZE, BLOCK_K]);
        let idx_11: i32 = tile_to_scalar(b);
        let idx_12: i32 = tile_to_scalar(h);
        let mut K_cumdecay_part: PartitionMut<bf16, { [1, 1, 1, CHUNK_SIZE, BLOCK_K] }> =
            unsafe { K_cumdecay.partition_full_mut(shape![1, 1, 1, CHUNK_SIZE, BLOCK_K]) };
        K_cumdecay_part.store(result_4, [idx_11, idx_12, pid_chunk, zero, zero]);
        let result_5: Tile<f32, { [1, 1, 1, CHUNK_SIZE] }> = g_cum.reshape(shape![1, 1, 1, CHUNK_SIZE]);
        let idx_13: i32 = tile_to_scalar(b);
        let idx_14: i32 = tile_to_scalar(h);
        let mut G_cum_out_part: PartitionMut<f32, { [1, 1, 1, CHUNK_SIZE] }> =
            unsafe { G_cum_out.partition_full_mut(shape![1, 1, 1, CHUNK_SIZE]) };
        G_cum_out_part.store(result_5, [idx_13, idx_14, pid_chunk, zero]);
        let idx_15: i32 = tile_to_scalar(b);
        let idx_16: i32 = tile_to_scalar(h);
        let Q_part: Partition<bf16, { [1, CHUNK_SIZE, 1, BLOCK_K] }> = Q.partition(shape![1, CHUNK_SIZE, 1, BLOCK_K]);
        let Q_tile: Tile<bf16, { [1, CHUNK_SIZE, 1, BLOCK_K] }> = Q_part.load([idx_15, pid_chunk, idx_16, zero]);
        let Q_tile_r: Tile<bf16, { [CHUNK_SIZE, BLOCK_K] }> = Q_tile.reshape(shape![CHUNK_SIZE, BLOCK_K]);
        let q_tile: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = convert_tile(Q_tile_r);
        let scale_t: Tile<f32, { [] }> = scalar_to_tile(scale);
        let scale_t_r: Tile<f32, { [1, 1] }> = scale_t.reshape(shape![1, 1]);
        let scale_t_b: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = scale_t_r.broadcast(shape![CHUNK_SIZE, BLOCK_K]);
        let q_tile_2: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = q_tile * scale_t_b;
        let q_tile_2_bf16: Tile<bf16, { [CHUNK_SIZE, BLOCK_K] }> = convert_tile(q_tile_2);
        let result_6: Tile<bf16, { [1, 1, 1, CHUNK_SIZE, BLOCK_K] }> = q_tile_2_bf16.reshape(shape![1, 1, 1, CHUNK_SIZE, BLOCK_K]);
        let idx_17: i32 = tile_to_scalar(b);
        let idx_18: i32 = tile_to_scalar(h);
        let mut Q_out_part: PartitionMut<bf16, { [1, 1, 1, CHUNK_SIZE, BLOCK_K] }> =
            unsafe { Q_out.partition_full_mut(shape![1, 1, 1, CHUNK_SIZE, BLOCK_K]) };
        Q_out_part.store(result_6, [idx_17, idx_18, pid_chunk, zero, zero]);
        let k_tile_bf16: Tile<bf16, { [CHUNK_SIZE, BLOCK_K] }> = convert_tile(k_tile);
        let result_7: Tile<bf16, { [1, 1, 1, CHUNK_SIZE, BLOCK_K] }> = k_tile_bf16.reshape(shape![1, 1, 1, CHUNK_SIZE, BLOCK_K]);
        let idx_19: i32 = tile_to_scalar(b);
        let idx_20: i32 = tile_to_scalar(h);
        let mut K_out_part: PartitionMut<bf16, { [1, 1, 1, CHUNK_SIZE, BLOCK_K] }> =
            unsafe { K_out.partition_full_mut(shape![1, 1, 1, CHUNK_SIZE, BLOCK_K]) };
        K_out_part.store(result_7, [idx_19, idx_20, pid_chunk, zero, zero]);
    }

    // NOTE unchecked_accesses: the store at an explicit index goes through the full output view; the launcher must keep it in range
    // NOTE line 158: loads indexed by `vt` run to a bound cutile cannot relate to the arrays, so the entry is unsafe with unchecked_accesses = true; the launcher must keep every index in range
    // The specialization NUM_HEADS=4,USE_QK_L2NORM=True,INTER_BF16=False: its constant branches folded away.
    #[cutile::entry(unchecked_accesses = true, optimization_hints = (sm_90 = (occupancy = 2,), sm_100 = (occupancy = 2,),))]
    pub unsafe fn _intra_chunk_prepare_kernel_f32_f32_num_heads_4_use_qk_l2norm_true_inter_bf16_false<const NUM_HEADS: i32, const CHUNK_SIZE: i32, const BLOCK_K: i32, const SOLVE_STEPS: i32>(
        Q: &Tensor<f32, { [-1, -1, -1, -1] }>,
        K: &Tensor<f32, { [-1, -1, -1, -1] }>,
        V: &Tensor<f32, { [-1, -1, -1, -1] }>,
        Beta: &Tensor<f32, { [-1, -1, -1] }>,
        G: &Tensor<f32, { [-1, -1, -1] }>,
        Q_out: &Tensor<f32, { [-1, -1, -1, -1, -1] }>,
        K_out: &Tensor<f32, { [-1, -1, -1, -1, -1] }>,
        V_corr: &Tensor<f32, { [-1, -1, -1, -1, -1] }>,
        K_cumdecay: &Tensor<f32, { [-1, -1, -1, -1, -1] }>,
        G_cum_out: &Tensor<f32, { [-1, -1, -1, -1] }>,
        seq_len: i32,
        K_dim: i32,
        V_dim: i32,
        scale: f32,
    ) {
        let pid_bh: i32 = get_tile_block_id().0;
        let pid_chunk: i32 = get_tile_block_id().1;
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
        let K_part: Partition<f32, { [1, CHUNK_SIZE, 1, BLOCK_K] }> = K.partition(shape![1, CHUNK_SIZE, 1, BLOCK_K]);
        let K_tile: Tile<f32, { [1, CHUNK_SIZE, 1, BLOCK_K] }> = K_part.load([idx, pid_chunk, idx_2, zero]);
        let K_tile_r: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = K_tile.reshape(shape![CHUNK_SIZE, BLOCK_K]);
        let prod: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = K_tile_r * K_tile_r;
        let sum_red: Tile<f32, { [CHUNK_SIZE] }> = reduce_sum(prod, 1i32);
        let sum: Tile<f32, { [CHUNK_SIZE, 1] }> = sum_red.reshape(shape![CHUNK_SIZE, 1]);
        let lit_3: Tile<f32, { [] }> = scalar_to_tile(1e-06f32);
        let lit_3_r: Tile<f32, { [1, 1] }> = lit_3.reshape(shape![1, 1]);
        let lit_3_b: Tile<f32, { [CHUNK_SIZE, 1] }> = lit_3_r.broadcast(shape![CHUNK_SIZE, 1]);
        let sum_2: Tile<f32, { [CHUNK_SIZE, 1] }> = sum + lit_3_b;
        let rsqrt_2: Tile<f32, { [CHUNK_SIZE, 1] }> = rsqrt(sum_2, ftz::Disabled);
        let rsqrt_2_b: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = rsqrt_2.broadcast(shape![CHUNK_SIZE, BLOCK_K]);
        let k_tile: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = K_tile_r * rsqrt_2_b;
        let idx_3: i32 = tile_to_scalar(b);
        let idx_4: i32 = tile_to_scalar(h);
        let Beta_part: Partition<f32, { [1, CHUNK_SIZE, 1] }> = Beta.partition(shape![1, CHUNK_SIZE, 1]);
        let Beta_tile: Tile<f32, { [1, CHUNK_SIZE, 1] }> = Beta_part.load([idx_3, pid_chunk, idx_4]);
        let Beta_tile_r: Tile<f32, { [CHUNK_SIZE] }> = Beta_tile.reshape(shape![CHUNK_SIZE]);
        let idx_5: i32 = tile_to_scalar(b);
        let idx_6: i32 = tile_to_scalar(h);
        let G_part: Partition<f32, { [1, CHUNK_SIZE, 1] }> = G.partition(shape![1, CHUNK_SIZE, 1]);
        let G_tile: Tile<f32, { [1, CHUNK_SIZE, 1] }> = G_part.load([idx_5, pid_chunk, idx_6]);
        let G_tile_r: Tile<f32, { [CHUNK_SIZE] }> = G_tile.reshape(shape![CHUNK_SIZE]);
        let g_cum: Tile<f32, { [CHUNK_SIZE] }> = scan_sum(G_tile_r, 0i32, reverse::Forward, 0.0f32);
        let offs_c: Tile<i32, { [CHUNK_SIZE] }> = iota(shape![CHUNK_SIZE]);
        let offs_c_row: Tile<i32, { [CHUNK_SIZE, 1] }> = offs_c.reshape(shape![CHUNK_SIZE, 1]);
        let offs_c_col: Tile<i32, { [1, CHUNK_SIZE] }> = offs_c.reshape(shape![1, CHUNK_SIZE]);
        let offs_c_row_b: Tile<i32, { [CHUNK_SIZE, CHUNK_SIZE] }> = offs_c_row.broadcast(shape![CHUNK_SIZE, CHUNK_SIZE]);
        let offs_c_col_b: Tile<i32, { [CHUNK_SIZE, CHUNK_SIZE] }> = offs_c_col.broadcast(shape![CHUNK_SIZE, CHUNK_SIZE]);
        let lower_tri: Tile<bool, { [CHUNK_SIZE, CHUNK_SIZE] }> = ge_tile(offs_c_row_b, offs_c_col_b);
        let offs_c_row_b_2: Tile<i32, { [CHUNK_SIZE, CHUNK_SIZE] }> = offs_c_row.broadcast(shape![CHUNK_SIZE, CHUNK_SIZE]);
        let offs_c_col_b_2: Tile<i32, { [CHUNK_SIZE, CHUNK_SIZE] }> = offs_c_col.broadcast(shape![CHUNK_SIZE, CHUNK_SIZE]);
        let strict_lower: Tile<bool, { [CHUNK_SIZE, CHUNK_SIZE] }> = gt_tile(offs_c_row_b_2, offs_c_col_b_2);
        let gc_row: Tile<f32, { [CHUNK_SIZE, 1] }> = g_cum.reshape(shape![CHUNK_SIZE, 1]);
        let gc_col: Tile<f32, { [1, CHUNK_SIZE] }> = g_cum.reshape(shape![1, CHUNK_SIZE]);
        let gc_row_b: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = gc_row.broadcast(shape![CHUNK_SIZE, CHUNK_SIZE]);
        let gc_col_b: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = gc_col.broadcast(shape![CHUNK_SIZE, CHUNK_SIZE]);
        let diff: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = gc_row_b - gc_col_b;
        let exp_2: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = exp(diff);
        let lit_4: Tile<f32, { [] }> = scalar_to_tile(0.0f32);
        let lit_4_r: Tile<f32, { [1, 1] }> = lit_4.reshape(shape![1, 1]);
        let lit_4_b: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = lit_4_r.broadcast(shape![CHUNK_SIZE, CHUNK_SIZE]);
        let decay_mask: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = select(lower_tri, exp_2, lit_4_b);
        let Beta_tile_r_e: Tile<f32, { [CHUNK_SIZE, 1] }> = Beta_tile_r.reshape(shape![CHUNK_SIZE, 1]);
        let Beta_tile_r_e_b: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = Beta_tile_r_e.broadcast(shape![CHUNK_SIZE, BLOCK_K]);
        let kb_tile: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = k_tile * Beta_tile_r_e_b;
        let k_tile_p: Tile<f32, { [BLOCK_K, CHUNK_SIZE] }> = permute(k_tile, const_array![1, 0]);
        let a: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = kb_tile;
        let b_2: Tile<f32, { [BLOCK_K, CHUNK_SIZE] }> = k_tile_p;
        let a_2: Tile<tf32, { [CHUNK_SIZE, BLOCK_K] }> = convert_tile(a);
        let b_3: Tile<tf32, { [BLOCK_K, CHUNK_SIZE] }> = convert_tile(b_2);
        let acc: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = constant(0.0f32, shape![CHUNK_SIZE, CHUNK_SIZE]);
        let mma_2: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = mma(a_2, b_3, acc);
        let mma_2_tf32: Tile<tf32, { [CHUNK_SIZE, CHUNK_SIZE] }> = convert_tile(mma_2);
        let ct_mm: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = convert_tile(mma_2_tf32);
        let prod_2: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = ct_mm * decay_mask;
        let neg: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = negf(prod_2);
        let lit_5: Tile<f32, { [] }> = scalar_to_tile(0.0f32);
        let lit_5_r: Tile<f32, { [1, 1] }> = lit_5.reshape(shape![1, 1]);
        let lit_5_b: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = lit_5_r.broadcast(shape![CHUNK_SIZE, CHUNK_SIZE]);
        let attn: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = select(strict_lower, neg, lit_5_b);
        let mut A: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = attn;
        let offs: Tile<i32, { [CHUNK_SIZE] }> = iota(shape![CHUNK_SIZE]);
        let lit_6: Tile<f32, { [] }> = scalar_to_tile(0.0f32);
        let lit_6_r: Tile<f32, { [1, 1] }> = lit_6.reshape(shape![1, 1]);
        let lit_6_b: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = lit_6_r.broadcast(shape![CHUNK_SIZE, CHUNK_SIZE]);
        let lit_7: Tile<f32, { [] }> = scalar_to_tile(0.0f32);
        let lit_7_r: Tile<f32, { [1, 1] }> = lit_7.reshape(shape![1, 1]);
        let lit_7_b: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = lit_7_r.broadcast(shape![CHUNK_SIZE, CHUNK_SIZE]);
        for i in 1i32..CHUNK_SIZE {
            let i_t: Tile<i32, { [] }> = scalar_to_tile(i);
            let i_t_r: Tile<i32, { [1] }> = i_t.reshape(shape![1]);
            let i_t_b: Tile<i32, { [CHUNK_SIZE] }> = i_t_r.broadcast(shape![CHUNK_SIZE]);
            let is_row: Tile<bool, { [CHUNK_SIZE] }> = eq_tile(offs, i_t_b);
            let is_row_col: Tile<bool, { [CHUNK_SIZE, 1] }> = is_row.reshape(shape![CHUNK_SIZE, 1]);
            let is_row_col_b: Tile<bool, { [CHUNK_SIZE, CHUNK_SIZE] }> = is_row_col.broadcast(shape![CHUNK_SIZE, CHUNK_SIZE]);
            let selected: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = select(is_row_col_b, A, lit_6_b);
            let row: Tile<f32, { [CHUNK_SIZE] }> = reduce_sum(selected, 0i32);
            let row_t: Tile<f32, { [CHUNK_SIZE] }> = convert_tile(row);
            let row_t_e: Tile<f32, { [CHUNK_SIZE, 1] }> = row_t.reshape(shape![CHUNK_SIZE, 1]);
            let row_t_e_b: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = row_t_e.broadcast(shape![CHUNK_SIZE, CHUNK_SIZE]);
            let prod_3: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = row_t_e_b * A;
            let correction: Tile<f32, { [CHUNK_SIZE] }> = reduce_sum(prod_3, 0i32);
            let correction_t: Tile<f32, { [CHUNK_SIZE] }> = convert_tile(correction);
            let correction_t_e: Tile<f32, { [1, CHUNK_SIZE] }> = correction_t.reshape(shape![1, CHUNK_SIZE]);
            let is_row_col_b_2: Tile<bool, { [CHUNK_SIZE, CHUNK_SIZE] }> = is_row_col.broadcast(shape![CHUNK_SIZE, CHUNK_SIZE]);
            let correction_t_e_b: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = correction_t_e.broadcast(shape![CHUNK_SIZE, CHUNK_SIZE]);
            let selected_2: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = select(is_row_col_b_2, correction_t_e_b, lit_7_b);
            let A_next: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = A + selected_2;
            A = A_next;
        }
        let offs_e: Tile<i32, { [CHUNK_SIZE, 1] }> = offs.reshape(shape![CHUNK_SIZE, 1]);
        let offs_e_2: Tile<i32, { [1, CHUNK_SIZE] }> = offs.reshape(shape![1, CHUNK_SIZE]);
        let offs_e_b: Tile<i32, { [CHUNK_SIZE, CHUNK_SIZE] }> = offs_e.broadcast(shape![CHUNK_SIZE, CHUNK_SIZE]);
        let offs_e_2_b: Tile<i32, { [CHUNK_SIZE, CHUNK_SIZE] }> = offs_e_2.broadcast(shape![CHUNK_SIZE, CHUNK_SIZE]);
        let mask: Tile<bool, { [CHUNK_SIZE, CHUNK_SIZE] }> = eq_tile(offs_e_b, offs_e_2_b);
        let lit_9: Tile<f32, { [] }> = scalar_to_tile(0.0f32);
        let lit_8: Tile<f32, { [] }> = scalar_to_tile(1.0f32);
        let lit_8_r: Tile<f32, { [1, 1] }> = lit_8.reshape(shape![1, 1]);
        let lit_8_b: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = lit_8_r.broadcast(shape![CHUNK_SIZE, CHUNK_SIZE]);
        let lit_9_r: Tile<f32, { [1, 1] }> = lit_9.reshape(shape![1, 1]);
        let lit_9_b: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = lit_9_r.broadcast(shape![CHUNK_SIZE, CHUNK_SIZE]);
        let eye: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = select(mask, lit_8_b, lit_9_b);
        let ct_solve_tril_serial: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = A + eye;
        let num_v_tiles: i32 = ceil_div(V_dim, BLOCK_K);
        let idx_7: i32 = tile_to_scalar(b);
        let idx_8: i32 = tile_to_scalar(h);
        let V_part: Partition<f32, { [1, CHUNK_SIZE, 1, BLOCK_K] }> = V.partition(shape![1, CHUNK_SIZE, 1, BLOCK_K]);
        let Beta_tile_r_e_2: Tile<f32, { [CHUNK_SIZE, 1] }> = Beta_tile_r.reshape(shape![CHUNK_SIZE, 1]);
        let Beta_tile_r_e_2_b: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = Beta_tile_r_e_2.broadcast(shape![CHUNK_SIZE, BLOCK_K]);
        let a_3: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = ct_solve_tril_serial;
        let a_4: Tile<tf32, { [CHUNK_SIZE, CHUNK_SIZE] }> = convert_tile(a_3);
        let acc_2: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = constant(0.0f32, shape![CHUNK_SIZE, BLOCK_K]);
        let idx_9: i32 = tile_to_scalar(b);
        let idx_10: i32 = tile_to_scalar(h);
        let mut V_corr_part: PartitionMut<f32, { [1, 1, 1, CHUNK_SIZE, BLOCK_K] }> =
            unsafe { V_corr.partition_full_mut(shape![1, 1, 1, CHUNK_SIZE, BLOCK_K]) };
        for vt in 0i32..num_v_tiles {
            let V_tile: Tile<f32, { [1, CHUNK_SIZE, 1, BLOCK_K] }> = V_part.load([idx_7, pid_chunk, idx_8, vt]);
            let V_tile_r: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = V_tile.reshape(shape![CHUNK_SIZE, BLOCK_K]);
            let vb_tile: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = V_tile_r * Beta_tile_r_e_2_b;
            let b_4: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = vb_tile;
            let b_5: Tile<tf32, { [CHUNK_SIZE, BLOCK_K] }> = convert_tile(b_4);
            let mma_3: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = mma(a_4, b_5, acc_2);
            let mma_3_tf32: Tile<tf32, { [CHUNK_SIZE, BLOCK_K] }> = convert_tile(mma_3);
            let ct_mm_2: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = convert_tile(mma_3_tf32);
            let result: Tile<f32, { [1, 1, 1, CHUNK_SIZE, BLOCK_K] }> = ct_mm_2.reshape(shape![1, 1, 1, CHUNK_SIZE, BLOCK_K]);
            V_corr_part.store(result, [idx_9, idx_10, pid_chunk, zero, vt]);
        }
        let exp_3: Tile<f32, { [CHUNK_SIZE] }> = exp(g_cum);
        let exp_3_e: Tile<f32, { [CHUNK_SIZE, 1] }> = exp_3.reshape(shape![CHUNK_SIZE, 1]);
        let exp_3_e_b: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = exp_3_e.broadcast(shape![CHUNK_SIZE, BLOCK_K]);
        let kbe_tile: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = kb_tile * exp_3_e_b;
        let a_5: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = ct_solve_tril_serial;
        let b_6: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = kbe_tile;
        let a_6: Tile<tf32, { [CHUNK_SIZE, CHUNK_SIZE] }> = convert_tile(a_5);
        let b_7: Tile<tf32, { [CHUNK_SIZE, BLOCK_K] }> = convert_tile(b_6);
        let acc_3: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = constant(0.0f32, shape![CHUNK_SIZE, BLOCK_K]);
        let mma_4: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = mma(a_6, b_7, acc_3);
        let mma_4_tf32: Tile<tf32, { [CHUNK_SIZE, BLOCK_K] }> = convert_tile(mma_4);
        let ct_mm_3: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = convert_tile(mma_4_tf32);
        let result_2: Tile<f32, { [1, 1, 1, CHUNK_SIZE, BLOCK_K] }> = ct_mm_3.reshape(shape![1, 1, 1, CHUNK_SIZE, BLOCK_K]);
        let idx_11: i32 = tile_to_scalar(b);
        let idx_12: i32 = tile_to_scalar(h);
        let mut K_cumdecay_part: PartitionMut<f32, { [1, 1, 1, CHUNK_SIZE, BLOCK_K] }> =
            unsafe { K_cumdecay.partition_full_mut(shape![1, 1, 1, CHUNK_SIZE, BLOCK_K]) };
        K_cumdecay_part.store(result_2, [idx_11, idx_12, pid_chunk, zero, zero]);
        let result_3: Tile<f32, { [1, 1, 1, CHUNK_SIZE] }> = g_cum.reshape(shape![1, 1, 1, CHUNK_SIZE]);
        let idx_13: i32 = tile_to_scalar(b);
        let idx_14: i32 = tile_to_scalar(h);
        let mut G_cum_out_part: PartitionMut<f32, { [1, 1, 1, CHUNK_SIZE] }> =
            unsafe { G_cum_out.partition_full_mut(shape![1, 1, 1, CHUNK_SIZE]) };
        G_cum_out_part.store(result_3, [idx_13, idx_14, pid_chunk, zero]);
        let idx_15: i32 = tile_to_scalar(b);
        let idx_16: i32 = tile_to_scalar(h);
        let Q_part: Partition<f32, { [1, CHUNK_SIZE, 1, BLOCK_K] }> = Q.partition(shape![1, CHUNK_SIZE, 1, BLOCK_K]);
        let Q_tile: Tile<f32, { [1, CHUNK_SIZE, 1, BLOCK_K] }> = Q_part.load([idx_15, pid_chunk, idx_16, zero]);
        let Q_tile_r: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = Q_tile.reshape(shape![CHUNK_SIZE, BLOCK_K]);
        let prod_4: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = Q_tile_r * Q_tile_r;
        let sum_red_2: Tile<f32, { [CHUNK_SIZE] }> = reduce_sum(prod_4, 1i32);
        let sum_3: Tile<f32, { [CHUNK_SIZE, 1] }> = sum_red_2.reshape(shape![CHUNK_SIZE, 1]);
        let lit_10: Tile<f32, { [] }> = scalar_to_tile(1e-06f32);
        let lit_10_r: Tile<f32, { [1, 1] }> = lit_10.reshape(shape![1, 1]);
        let lit_10_b: Tile<f32, { [CHUNK_SIZE, 1] }> = lit_10_r.broadcast(shape![CHUNK_SIZE, 1]);
        let sum_4: Tile<f32, { [CHUNK_SIZE, 1] }> = sum_3 + lit_10_b;
        let rsqrt_3: Tile<f32, { [CHUNK_SIZE, 1] }> = rsqrt(sum_4, ftz::Disabled);
        let rsqrt_3_b: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = rsqrt_3.broadcast(shape![CHUNK_SIZE, BLOCK_K]);
        let q_tile: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = Q_tile_r * rsqrt_3_b;
        let scale_t: Tile<f32, { [] }> = scalar_to_tile(scale);
        let scale_t_r: Tile<f32, { [1, 1] }> = scale_t.reshape(shape![1, 1]);
        let scale_t_b: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = scale_t_r.broadcast(shape![CHUNK_SIZE, BLOCK_K]);
        let q_tile_2: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = q_tile * scale_t_b;
        let result_4: Tile<f32, { [1, 1, 1, CHUNK_SIZE, BLOCK_K] }> = q_tile_2.reshape(shape![1, 1, 1, CHUNK_SIZE, BLOCK_K]);
        let idx_17: i32 = tile_to_scalar(b);
        let idx_18: i32 = tile_to_scalar(h);
        let mut Q_out_part: PartitionMut<f32, { [1, 1, 1, CHUNK_SIZE, BLOCK_K] }> =
            unsafe { Q_out.partition_full_mut(shape![1, 1, 1, CHUNK_SIZE, BLOCK_K]) };
        Q_out_part.store(result_4, [idx_17, idx_18, pid_chunk, zero, zero]);
        let result_5: Tile<f32, { [1, 1, 1, CHUNK_SIZE, BLOCK_K] }> = k_tile.reshape(shape![1, 1, 1, CHUNK_SIZE, BLOCK_K]);
        let idx_19: i32 = tile_to_scalar(b);
        let idx_20: i32 = tile_to_scalar(h);
        let mut K_out_part: PartitionMut<f32, { [1, 1, 1, CHUNK_SIZE, BLOCK_K] }> =
            unsafe { K_out.partition_full_mut(shape![1, 1, 1, CHUNK_SIZE, BLOCK_K]) };
        K_out_part.store(result_5, [idx_19, idx_20, pid_chunk, zero, zero]);
    }

    // NOTE unchecked_accesses: the store at an explicit index goes through the full output view; the launcher must keep it in range
    // NOTE line 158: loads indexed by `vt` run to a bound cutile cannot relate to the arrays, so the entry is unsafe with unchecked_accesses = true; the launcher must keep every index in range
    // The specialization NUM_HEADS=4,USE_QK_L2NORM=True,INTER_BF16=True: its constant branches folded away.
    #[cutile::entry(unchecked_accesses = true, optimization_hints = (sm_90 = (occupancy = 2,), sm_100 = (occupancy = 2,),))]
    pub unsafe fn _intra_chunk_prepare_kernel_f16_bf16_num_heads_4_use_qk_l2norm_true_inter_bf16_true<const NUM_HEADS: i32, const CHUNK_SIZE: i32, const BLOCK_K: i32, const SOLVE_STEPS: i32>(
        Q: &Tensor<f16, { [-1, -1, -1, -1] }>,
        K: &Tensor<f16, { [-1, -1, -1, -1] }>,
        V: &Tensor<f16, { [-1, -1, -1, -1] }>,
        Beta: &Tensor<f16, { [-1, -1, -1] }>,
        G: &Tensor<f32, { [-1, -1, -1] }>,
        Q_out: &Tensor<bf16, { [-1, -1, -1, -1, -1] }>,
        K_out: &Tensor<bf16, { [-1, -1, -1, -1, -1] }>,
        V_corr: &Tensor<bf16, { [-1, -1, -1, -1, -1] }>,
        K_cumdecay: &Tensor<bf16, { [-1, -1, -1, -1, -1] }>,
        G_cum_out: &Tensor<f32, { [-1, -1, -1, -1] }>,
        seq_len: i32,
        K_dim: i32,
        V_dim: i32,
        scale: f32,
    ) {
        let pid_bh: i32 = get_tile_block_id().0;
        let pid_chunk: i32 = get_tile_block_id().1;
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
        let K_part: Partition<f16, { [1, CHUNK_SIZE, 1, BLOCK_K] }> = K.partition(shape![1, CHUNK_SIZE, 1, BLOCK_K]);
        let K_tile: Tile<f16, { [1, CHUNK_SIZE, 1, BLOCK_K] }> = K_part.load([idx, pid_chunk, idx_2, zero]);
        let K_tile_r: Tile<f16, { [CHUNK_SIZE, BLOCK_K] }> = K_tile.reshape(shape![CHUNK_SIZE, BLOCK_K]);
        let k_tile: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = convert_tile(K_tile_r);
        let prod: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = k_tile * k_tile;
        let sum_red: Tile<f32, { [CHUNK_SIZE] }> = reduce_sum(prod, 1i32);
        let sum: Tile<f32, { [CHUNK_SIZE, 1] }> = sum_red.reshape(shape![CHUNK_SIZE, 1]);
        let lit_3: Tile<f32, { [] }> = scalar_to_tile(1e-06f32);
        let lit_3_r: Tile<f32, { [1, 1] }> = lit_3.reshape(shape![1, 1]);
        let lit_3_b: Tile<f32, { [CHUNK_SIZE, 1] }> = lit_3_r.broadcast(shape![CHUNK_SIZE, 1]);
        let sum_2: Tile<f32, { [CHUNK_SIZE, 1] }> = sum + lit_3_b;
        let rsqrt_2: Tile<f32, { [CHUNK_SIZE, 1] }> = rsqrt(sum_2, ftz::Disabled);
        let rsqrt_2_b: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = rsqrt_2.broadcast(shape![CHUNK_SIZE, BLOCK_K]);
        let k_tile_2: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = k_tile * rsqrt_2_b;
        let idx_3: i32 = tile_to_scalar(b);
        let idx_4: i32 = tile_to_scalar(h);
        let Beta_part: Partition<f16, { [1, CHUNK_SIZE, 1] }> = Beta.partition(shape![1, CHUNK_SIZE, 1]);
        let Beta_tile: Tile<f16, { [1, CHUNK_SIZE, 1] }> = Beta_part.load([idx_3, pid_chunk, idx_4]);
        let Beta_tile_r: Tile<f16, { [CHUNK_SIZE] }> = Beta_tile.reshape(shape![CHUNK_SIZE]);
        let beta_tile: Tile<f32, { [CHUNK_SIZE] }> = convert_tile(Beta_tile_r);
        let idx_5: i32 = tile_to_scalar(b);
        let idx_6: i32 = tile_to_scalar(h);
        let G_part: Partition<f32, { [1, CHUNK_SIZE, 1] }> = G.partition(shape![1, CHUNK_SIZE, 1]);
        let G_tile: Tile<f32, { [1, CHUNK_SIZE, 1] }> = G_part.load([idx_5, pid_chunk, idx_6]);
        let G_tile_r: Tile<f32, { [CHUNK_SIZE] }> = G_tile.reshape(shape![CHUNK_SIZE]);
        let g_cum: Tile<f32, { [CHUNK_SIZE] }> = scan_sum(G_tile_r, 0i32, reverse::Forward, 0.0f32);
        let offs_c: Tile<i32, { [CHUNK_SIZE] }> = iota(shape![CHUNK_SIZE]);
        let offs_c_row: Tile<i32, { [CHUNK_SIZE, 1] }> = offs_c.reshape(shape![CHUNK_SIZE, 1]);
        let offs_c_col: Tile<i32, { [1, CHUNK_SIZE] }> = offs_c.reshape(shape![1, CHUNK_SIZE]);
        let offs_c_row_b: Tile<i32, { [CHUNK_SIZE, CHUNK_SIZE] }> = offs_c_row.broadcast(shape![CHUNK_SIZE, CHUNK_SIZE]);
        let offs_c_col_b: Tile<i32, { [CHUNK_SIZE, CHUNK_SIZE] }> = offs_c_col.broadcast(shape![CHUNK_SIZE, CHUNK_SIZE]);
        let lower_tri: Tile<bool, { [CHUNK_SIZE, CHUNK_SIZE] }> = ge_tile(offs_c_row_b, offs_c_col_b);
        let offs_c_row_b_2: Tile<i32, { [CHUNK_SIZE, CHUNK_SIZE] }> = offs_c_row.broadcast(shape![CHUNK_SIZE, CHUNK_SIZE]);
        let offs_c_col_b_2: Tile<i32, { [CHUNK_SIZE, CHUNK_SIZE] }> = offs_c_col.broadcast(shape![CHUNK_SIZE, CHUNK_SIZE]);
        let strict_lower: Tile<bool, { [CHUNK_SIZE, CHUNK_SIZE] }> = gt_tile(offs_c_row_b_2, offs_c_col_b_2);
        let gc_row: Tile<f32, { [CHUNK_SIZE, 1] }> = g_cum.reshape(shape![CHUNK_SIZE, 1]);
        let gc_col: Tile<f32, { [1, CHUNK_SIZE] }> = g_cum.reshape(shape![1, CHUNK_SIZE]);
        let gc_row_b: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = gc_row.broadcast(shape![CHUNK_SIZE, CHUNK_SIZE]);
        let gc_col_b: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = gc_col.broadcast(shape![CHUNK_SIZE, CHUNK_SIZE]);
        let diff: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = gc_row_b - gc_col_b;
        let exp_2: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = exp(diff);
        let lit_4: Tile<f32, { [] }> = scalar_to_tile(0.0f32);
        let lit_4_r: Tile<f32, { [1, 1] }> = lit_4.reshape(shape![1, 1]);
        let lit_4_b: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = lit_4_r.broadcast(shape![CHUNK_SIZE, CHUNK_SIZE]);
        let decay_mask: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = select(lower_tri, exp_2, lit_4_b);
        let beta_tile_e: Tile<f32, { [CHUNK_SIZE, 1] }> = beta_tile.reshape(shape![CHUNK_SIZE, 1]);
        let beta_tile_e_b: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = beta_tile_e.broadcast(shape![CHUNK_SIZE, BLOCK_K]);
        let kb_tile: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = k_tile_2 * beta_tile_e_b;
        let k_tile_2_p: Tile<f32, { [BLOCK_K, CHUNK_SIZE] }> = permute(k_tile_2, const_array![1, 0]);
        let a: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = kb_tile;
        let b_2: Tile<f32, { [BLOCK_K, CHUNK_SIZE] }> = k_tile_2_p;
        let a_2: Tile<tf32, { [CHUNK_SIZE, BLOCK_K] }> = convert_tile(a);
        let b_3: Tile<tf32, { [BLOCK_K, CHUNK_SIZE] }> = convert_tile(b_2);
        let acc: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = constant(0.0f32, shape![CHUNK_SIZE, CHUNK_SIZE]);
        let mma_2: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = mma(a_2, b_3, acc);
        let mma_2_tf32: Tile<tf32, { [CHUNK_SIZE, CHUNK_SIZE] }> = convert_tile(mma_2);
        let ct_mm: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = convert_tile(mma_2_tf32);
        let prod_2: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = ct_mm * decay_mask;
        let neg: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = negf(prod_2);
        let lit_5: Tile<f32, { [] }> = scalar_to_tile(0.0f32);
        let lit_5_r: Tile<f32, { [1, 1] }> = lit_5.reshape(shape![1, 1]);
        let lit_5_b: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = lit_5_r.broadcast(shape![CHUNK_SIZE, CHUNK_SIZE]);
        let attn: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = select(strict_lower, neg, lit_5_b);
        let mut A: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = attn;
        let offs: Tile<i32, { [CHUNK_SIZE] }> = iota(shape![CHUNK_SIZE]);
        let lit_6: Tile<f32, { [] }> = scalar_to_tile(0.0f32);
        let lit_6_r: Tile<f32, { [1, 1] }> = lit_6.reshape(shape![1, 1]);
        let lit_6_b: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = lit_6_r.broadcast(shape![CHUNK_SIZE, CHUNK_SIZE]);
        let lit_7: Tile<f32, { [] }> = scalar_to_tile(0.0f32);
        let lit_7_r: Tile<f32, { [1, 1] }> = lit_7.reshape(shape![1, 1]);
        let lit_7_b: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = lit_7_r.broadcast(shape![CHUNK_SIZE, CHUNK_SIZE]);
        for i in 1i32..CHUNK_SIZE {
            let i_t: Tile<i32, { [] }> = scalar_to_tile(i);
            let i_t_r: Tile<i32, { [1] }> = i_t.reshape(shape![1]);
            let i_t_b: Tile<i32, { [CHUNK_SIZE] }> = i_t_r.broadcast(shape![CHUNK_SIZE]);
            let is_row: Tile<bool, { [CHUNK_SIZE] }> = eq_tile(offs, i_t_b);
            let is_row_col: Tile<bool, { [CHUNK_SIZE, 1] }> = is_row.reshape(shape![CHUNK_SIZE, 1]);
            let is_row_col_b: Tile<bool, { [CHUNK_SIZE, CHUNK_SIZE] }> = is_row_col.broadcast(shape![CHUNK_SIZE, CHUNK_SIZE]);
            let selected: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = select(is_row_col_b, A, lit_6_b);
            let row: Tile<f32, { [CHUNK_SIZE] }> = reduce_sum(selected, 0i32);
            let row_t: Tile<f32, { [CHUNK_SIZE] }> = convert_tile(row);
            let row_t_e: Tile<f32, { [CHUNK_SIZE, 1] }> = row_t.reshape(shape![CHUNK_SIZE, 1]);
            let row_t_e_b: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = row_t_e.broadcast(shape![CHUNK_SIZE, CHUNK_SIZE]);
            let prod_3: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = row_t_e_b * A;
            let correction: Tile<f32, { [CHUNK_SIZE] }> = reduce_sum(prod_3, 0i32);
            let correction_t: Tile<f32, { [CHUNK_SIZE] }> = convert_tile(correction);
            let correction_t_e: Tile<f32, { [1, CHUNK_SIZE] }> = correction_t.reshape(shape![1, CHUNK_SIZE]);
            let is_row_col_b_2: Tile<bool, { [CHUNK_SIZE, CHUNK_SIZE] }> = is_row_col.broadcast(shape![CHUNK_SIZE, CHUNK_SIZE]);
            let correction_t_e_b: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = correction_t_e.broadcast(shape![CHUNK_SIZE, CHUNK_SIZE]);
            let selected_2: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = select(is_row_col_b_2, correction_t_e_b, lit_7_b);
            let A_next: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = A + selected_2;
            A = A_next;
        }
        let offs_e: Tile<i32, { [CHUNK_SIZE, 1] }> = offs.reshape(shape![CHUNK_SIZE, 1]);
        let offs_e_2: Tile<i32, { [1, CHUNK_SIZE] }> = offs.reshape(shape![1, CHUNK_SIZE]);
        let offs_e_b: Tile<i32, { [CHUNK_SIZE, CHUNK_SIZE] }> = offs_e.broadcast(shape![CHUNK_SIZE, CHUNK_SIZE]);
        let offs_e_2_b: Tile<i32, { [CHUNK_SIZE, CHUNK_SIZE] }> = offs_e_2.broadcast(shape![CHUNK_SIZE, CHUNK_SIZE]);
        let mask: Tile<bool, { [CHUNK_SIZE, CHUNK_SIZE] }> = eq_tile(offs_e_b, offs_e_2_b);
        let lit_9: Tile<f32, { [] }> = scalar_to_tile(0.0f32);
        let lit_8: Tile<f32, { [] }> = scalar_to_tile(1.0f32);
        let lit_8_r: Tile<f32, { [1, 1] }> = lit_8.reshape(shape![1, 1]);
        let lit_8_b: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = lit_8_r.broadcast(shape![CHUNK_SIZE, CHUNK_SIZE]);
        let lit_9_r: Tile<f32, { [1, 1] }> = lit_9.reshape(shape![1, 1]);
        let lit_9_b: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = lit_9_r.broadcast(shape![CHUNK_SIZE, CHUNK_SIZE]);
        let eye: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = select(mask, lit_8_b, lit_9_b);
        let ct_solve_tril_serial: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = A + eye;
        let num_v_tiles: i32 = ceil_div(V_dim, BLOCK_K);
        let idx_7: i32 = tile_to_scalar(b);
        let idx_8: i32 = tile_to_scalar(h);
        let V_part: Partition<f16, { [1, CHUNK_SIZE, 1, BLOCK_K] }> = V.partition(shape![1, CHUNK_SIZE, 1, BLOCK_K]);
        let beta_tile_e_2: Tile<f32, { [CHUNK_SIZE, 1] }> = beta_tile.reshape(shape![CHUNK_SIZE, 1]);
        let beta_tile_e_2_b: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = beta_tile_e_2.broadcast(shape![CHUNK_SIZE, BLOCK_K]);
        let a_3: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = ct_solve_tril_serial;
        let a_4: Tile<tf32, { [CHUNK_SIZE, CHUNK_SIZE] }> = convert_tile(a_3);
        let acc_2: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = constant(0.0f32, shape![CHUNK_SIZE, BLOCK_K]);
        let idx_9: i32 = tile_to_scalar(b);
        let idx_10: i32 = tile_to_scalar(h);
        let mut V_corr_part: PartitionMut<bf16, { [1, 1, 1, CHUNK_SIZE, BLOCK_K] }> =
            unsafe { V_corr.partition_full_mut(shape![1, 1, 1, CHUNK_SIZE, BLOCK_K]) };
        for vt in 0i32..num_v_tiles {
            let V_tile: Tile<f16, { [1, CHUNK_SIZE, 1, BLOCK_K] }> = V_part.load([idx_7, pid_chunk, idx_8, vt]);
            let V_tile_r: Tile<f16, { [CHUNK_SIZE, BLOCK_K] }> = V_tile.reshape(shape![CHUNK_SIZE, BLOCK_K]);
            let v_tile: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = convert_tile(V_tile_r);
            let vb_tile: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = v_tile * beta_tile_e_2_b;
            let b_4: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = vb_tile;
            let b_5: Tile<tf32, { [CHUNK_SIZE, BLOCK_K] }> = convert_tile(b_4);
            let mma_3: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = mma(a_4, b_5, acc_2);
            let mma_3_tf32: Tile<tf32, { [CHUNK_SIZE, BLOCK_K] }> = convert_tile(mma_3);
            let ct_mm_2: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = convert_tile(mma_3_tf32);
            let ct_mm_2_bf16: Tile<bf16, { [CHUNK_SIZE, BLOCK_K] }> = convert_tile(ct_mm_2);
            let result: Tile<bf16, { [1, 1, 1, CHUNK_SIZE, BLOCK_K] }> = ct_mm_2_bf16.reshape(shape![1, 1, 1, CHUNK_SIZE, BLOCK_K]);
            V_corr_part.store(result, [idx_9, idx_10, pid_chunk, zero, vt]);
        }
        let exp_3: Tile<f32, { [CHUNK_SIZE] }> = exp(g_cum);
        let exp_3_e: Tile<f32, { [CHUNK_SIZE, 1] }> = exp_3.reshape(shape![CHUNK_SIZE, 1]);
        let exp_3_e_b: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = exp_3_e.broadcast(shape![CHUNK_SIZE, BLOCK_K]);
        let kbe_tile: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = kb_tile * exp_3_e_b;
        let a_5: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = ct_solve_tril_serial;
        let b_6: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = kbe_tile;
        let a_6: Tile<tf32, { [CHUNK_SIZE, CHUNK_SIZE] }> = convert_tile(a_5);
        let b_7: Tile<tf32, { [CHUNK_SIZE, BLOCK_K] }> = convert_tile(b_6);
        let acc_3: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = constant(0.0f32, shape![CHUNK_SIZE, BLOCK_K]);
        let mma_4: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = mma(a_6, b_7, acc_3);
        let mma_4_tf32: Tile<tf32, { [CHUNK_SIZE, BLOCK_K] }> = convert_tile(mma_4);
        let ct_mm_3: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = convert_tile(mma_4_tf32);
        let ct_mm_3_bf16: Tile<bf16, { [CHUNK_SIZE, BLOCK_K] }> = convert_tile(ct_mm_3);
        let result_2: Tile<bf16, { [1, 1, 1, CHUNK_SIZE, BLOCK_K] }> = ct_mm_3_bf16.reshape(shape![1, 1, 1, CHUNK_SIZE, BLOCK_K]);
        let idx_11: i32 = tile_to_scalar(b);
        let idx_12: i32 = tile_to_scalar(h);
        let mut K_cumdecay_part: PartitionMut<bf16, { [1, 1, 1, CHUNK_SIZE, BLOCK_K] }> =
            unsafe { K_cumdecay.partition_full_mut(shape![1, 1, 1, CHUNK_SIZE, BLOCK_K]) };
        K_cumdecay_part.store(result_2, [idx_11, idx_12, pid_chunk, zero, zero]);
        let result_3: Tile<f32, { [1, 1, 1, CHUNK_SIZE] }> = g_cum.reshape(shape![1, 1, 1, CHUNK_SIZE]);
        let idx_13: i32 = tile_to_scalar(b);
        let idx_14: i32 = tile_to_scalar(h);
        let mut G_cum_out_part: PartitionMut<f32, { [1, 1, 1, CHUNK_SIZE] }> =
            unsafe { G_cum_out.partition_full_mut(shape![1, 1, 1, CHUNK_SIZE]) };
        G_cum_out_part.store(result_3, [idx_13, idx_14, pid_chunk, zero]);
        let idx_15: i32 = tile_to_scalar(b);
        let idx_16: i32 = tile_to_scalar(h);
        let Q_part: Partition<f16, { [1, CHUNK_SIZE, 1, BLOCK_K] }> = Q.partition(shape![1, CHUNK_SIZE, 1, BLOCK_K]);
        let Q_tile: Tile<f16, { [1, CHUNK_SIZE, 1, BLOCK_K] }> = Q_part.load([idx_15, pid_chunk, idx_16, zero]);
        let Q_tile_r: Tile<f16, { [CHUNK_SIZE, BLOCK_K] }> = Q_tile.reshape(shape![CHUNK_SIZE, BLOCK_K]);
        let q_tile: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = convert_tile(Q_tile_r);
        let prod_4: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = q_tile * q_tile;
        let sum_red_2: Tile<f32, { [CHUNK_SIZE] }> = reduce_sum(prod_4, 1i32);
        let sum_3: Tile<f32, { [CHUNK_SIZE, 1] }> = sum_red_2.reshape(shape![CHUNK_SIZE, 1]);
        let lit_10: Tile<f32, { [] }> = scalar_to_tile(1e-06f32);
        let lit_10_r: Tile<f32, { [1, 1] }> = lit_10.reshape(shape![1, 1]);
        let lit_10_b: Tile<f32, { [CHUNK_SIZE, 1] }> = lit_10_r.broadcast(shape![CHUNK_SIZE, 1]);
        let sum_4: Tile<f32, { [CHUNK_SIZE, 1] }> = sum_3 + lit_10_b;
        let rsqrt_3: Tile<f32, { [CHUNK_SIZE, 1] }> = rsqrt(sum_4, ftz::Disabled);
        let rsqrt_3_b: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = rsqrt_3.broadcast(shape![CHUNK_SIZE, BLOCK_K]);
        let q_tile_2: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = q_tile * rsqrt_3_b;
        let scale_t: Tile<f32, { [] }> = scalar_to_tile(scale);
        let scale_t_r: Tile<f32, { [1, 1] }> = scale_t.reshape(shape![1, 1]);
        let scale_t_b: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = scale_t_r.broadcast(shape![CHUNK_SIZE, BLOCK_K]);
        let q_tile_3: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = q_tile_2 * scale_t_b;
        let q_tile_3_bf16: Tile<bf16, { [CHUNK_SIZE, BLOCK_K] }> = convert_tile(q_tile_3);
        let result_4: Tile<bf16, { [1, 1, 1, CHUNK_SIZE, BLOCK_K] }> = q_tile_3_bf16.reshape(shape![1, 1, 1, CHUNK_SIZE, BLOCK_K]);
        let idx_17: i32 = tile_to_scalar(b);
        let idx_18: i32 = tile_to_scalar(h);
        let mut Q_out_part: PartitionMut<bf16, { [1, 1, 1, CHUNK_SIZE, BLOCK_K] }> =
            unsafe { Q_out.partition_full_mut(shape![1, 1, 1, CHUNK_SIZE, BLOCK_K]) };
        Q_out_part.store(result_4, [idx_17, idx_18, pid_chunk, zero, zero]);
        let k_tile_2_bf16: Tile<bf16, { [CHUNK_SIZE, BLOCK_K] }> = convert_tile(k_tile_2);
        let result_5: Tile<bf16, { [1, 1, 1, CHUNK_SIZE, BLOCK_K] }> = k_tile_2_bf16.reshape(shape![1, 1, 1, CHUNK_SIZE, BLOCK_K]);
        let idx_19: i32 = tile_to_scalar(b);
        let idx_20: i32 = tile_to_scalar(h);
        let mut K_out_part: PartitionMut<bf16, { [1, 1, 1, CHUNK_SIZE, BLOCK_K] }> =
            unsafe { K_out.partition_full_mut(shape![1, 1, 1, CHUNK_SIZE, BLOCK_K]) };
        K_out_part.store(result_5, [idx_19, idx_20, pid_chunk, zero, zero]);
    }

    // NOTE unchecked_accesses: the store at an explicit index goes through the full output view; the launcher must keep it in range
    // NOTE line 158: loads indexed by `vt` run to a bound cutile cannot relate to the arrays, so the entry is unsafe with unchecked_accesses = true; the launcher must keep every index in range
    // The specialization NUM_HEADS=16,USE_QK_L2NORM=True,INTER_BF16=True: its constant branches folded away.
    #[cutile::entry(unchecked_accesses = true, optimization_hints = (sm_90 = (occupancy = 2,), sm_100 = (occupancy = 2,),))]
    pub unsafe fn _intra_chunk_prepare_kernel_bf16_bf16_num_heads_16_use_qk_l2norm_true_inter_bf16_true<const NUM_HEADS: i32, const CHUNK_SIZE: i32, const BLOCK_K: i32, const SOLVE_STEPS: i32>(
        Q: &Tensor<bf16, { [-1, -1, -1, -1] }>,
        K: &Tensor<bf16, { [-1, -1, -1, -1] }>,
        V: &Tensor<bf16, { [-1, -1, -1, -1] }>,
        Beta: &Tensor<bf16, { [-1, -1, -1] }>,
        G: &Tensor<f32, { [-1, -1, -1] }>,
        Q_out: &Tensor<bf16, { [-1, -1, -1, -1, -1] }>,
        K_out: &Tensor<bf16, { [-1, -1, -1, -1, -1] }>,
        V_corr: &Tensor<bf16, { [-1, -1, -1, -1, -1] }>,
        K_cumdecay: &Tensor<bf16, { [-1, -1, -1, -1, -1] }>,
        G_cum_out: &Tensor<f32, { [-1, -1, -1, -1] }>,
        seq_len: i32,
        K_dim: i32,
        V_dim: i32,
        scale: f32,
    ) {
        let pid_bh: i32 = get_tile_block_id().0;
        let pid_chunk: i32 = get_tile_block_id().1;
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
        let K_part: Partition<bf16, { [1, CHUNK_SIZE, 1, BLOCK_K] }> = K.partition(shape![1, CHUNK_SIZE, 1, BLOCK_K]);
        let K_tile: Tile<bf16, { [1, CHUNK_SIZE, 1, BLOCK_K] }> = K_part.load([idx, pid_chunk, idx_2, zero]);
        let K_tile_r: Tile<bf16, { [CHUNK_SIZE, BLOCK_K] }> = K_tile.reshape(shape![CHUNK_SIZE, BLOCK_K]);
        let k_tile: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = convert_tile(K_tile_r);
        let prod: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = k_tile * k_tile;
        let sum_red: Tile<f32, { [CHUNK_SIZE] }> = reduce_sum(prod, 1i32);
        let sum: Tile<f32, { [CHUNK_SIZE, 1] }> = sum_red.reshape(shape![CHUNK_SIZE, 1]);
        let lit_3: Tile<f32, { [] }> = scalar_to_tile(1e-06f32);
        let lit_3_r: Tile<f32, { [1, 1] }> = lit_3.reshape(shape![1, 1]);
        let lit_3_b: Tile<f32, { [CHUNK_SIZE, 1] }> = lit_3_r.broadcast(shape![CHUNK_SIZE, 1]);
        let sum_2: Tile<f32, { [CHUNK_SIZE, 1] }> = sum + lit_3_b;
        let rsqrt_2: Tile<f32, { [CHUNK_SIZE, 1] }> = rsqrt(sum_2, ftz::Disabled);
        let rsqrt_2_b: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = rsqrt_2.broadcast(shape![CHUNK_SIZE, BLOCK_K]);
        let k_tile_2: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = k_tile * rsqrt_2_b;
        let idx_3: i32 = tile_to_scalar(b);
        let idx_4: i32 = tile_to_scalar(h);
        let Beta_part: Partition<bf16, { [1, CHUNK_SIZE, 1] }> = Beta.partition(shape![1, CHUNK_SIZE, 1]);
        let Beta_tile: Tile<bf16, { [1, CHUNK_SIZE, 1] }> = Beta_part.load([idx_3, pid_chunk, idx_4]);
        let Beta_tile_r: Tile<bf16, { [CHUNK_SIZE] }> = Beta_tile.reshape(shape![CHUNK_SIZE]);
        let beta_tile: Tile<f32, { [CHUNK_SIZE] }> = convert_tile(Beta_tile_r);
        let idx_5: i32 = tile_to_scalar(b);
        let idx_6: i32 = tile_to_scalar(h);
        let G_part: Partition<f32, { [1, CHUNK_SIZE, 1] }> = G.partition(shape![1, CHUNK_SIZE, 1]);
        let G_tile: Tile<f32, { [1, CHUNK_SIZE, 1] }> = G_part.load([idx_5, pid_chunk, idx_6]);
        let G_tile_r: Tile<f32, { [CHUNK_SIZE] }> = G_tile.reshape(shape![CHUNK_SIZE]);
        let g_cum: Tile<f32, { [CHUNK_SIZE] }> = scan_sum(G_tile_r, 0i32, reverse::Forward, 0.0f32);
        let offs_c: Tile<i32, { [CHUNK_SIZE] }> = iota(shape![CHUNK_SIZE]);
        let offs_c_row: Tile<i32, { [CHUNK_SIZE, 1] }> = offs_c.reshape(shape![CHUNK_SIZE, 1]);
        let offs_c_col: Tile<i32, { [1, CHUNK_SIZE] }> = offs_c.reshape(shape![1, CHUNK_SIZE]);
        let offs_c_row_b: Tile<i32, { [CHUNK_SIZE, CHUNK_SIZE] }> = offs_c_row.broadcast(shape![CHUNK_SIZE, CHUNK_SIZE]);
        let offs_c_col_b: Tile<i32, { [CHUNK_SIZE, CHUNK_SIZE] }> = offs_c_col.broadcast(shape![CHUNK_SIZE, CHUNK_SIZE]);
        let lower_tri: Tile<bool, { [CHUNK_SIZE, CHUNK_SIZE] }> = ge_tile(offs_c_row_b, offs_c_col_b);
        let offs_c_row_b_2: Tile<i32, { [CHUNK_SIZE, CHUNK_SIZE] }> = offs_c_row.broadcast(shape![CHUNK_SIZE, CHUNK_SIZE]);
        let offs_c_col_b_2: Tile<i32, { [CHUNK_SIZE, CHUNK_SIZE] }> = offs_c_col.broadcast(shape![CHUNK_SIZE, CHUNK_SIZE]);
        let strict_lower: Tile<bool, { [CHUNK_SIZE, CHUNK_SIZE] }> = gt_tile(offs_c_row_b_2, offs_c_col_b_2);
        let gc_row: Tile<f32, { [CHUNK_SIZE, 1] }> = g_cum.reshape(shape![CHUNK_SIZE, 1]);
        let gc_col: Tile<f32, { [1, CHUNK_SIZE] }> = g_cum.reshape(shape![1, CHUNK_SIZE]);
        let gc_row_b: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = gc_row.broadcast(shape![CHUNK_SIZE, CHUNK_SIZE]);
        let gc_col_b: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = gc_col.broadcast(shape![CHUNK_SIZE, CHUNK_SIZE]);
        let diff: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = gc_row_b - gc_col_b;
        let exp_2: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = exp(diff);
        let lit_4: Tile<f32, { [] }> = scalar_to_tile(0.0f32);
        let lit_4_r: Tile<f32, { [1, 1] }> = lit_4.reshape(shape![1, 1]);
        let lit_4_b: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = lit_4_r.broadcast(shape![CHUNK_SIZE, CHUNK_SIZE]);
        let decay_mask: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = select(lower_tri, exp_2, lit_4_b);
        let beta_tile_e: Tile<f32, { [CHUNK_SIZE, 1] }> = beta_tile.reshape(shape![CHUNK_SIZE, 1]);
        let beta_tile_e_b: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = beta_tile_e.broadcast(shape![CHUNK_SIZE, BLOCK_K]);
        let kb_tile: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = k_tile_2 * beta_tile_e_b;
        let k_tile_2_p: Tile<f32, { [BLOCK_K, CHUNK_SIZE] }> = permute(k_tile_2, const_array![1, 0]);
        let a: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = kb_tile;
        let b_2: Tile<f32, { [BLOCK_K, CHUNK_SIZE] }> = k_tile_2_p;
        let a_2: Tile<tf32, { [CHUNK_SIZE, BLOCK_K] }> = convert_tile(a);
        let b_3: Tile<tf32, { [BLOCK_K, CHUNK_SIZE] }> = convert_tile(b_2);
        let acc: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = constant(0.0f32, shape![CHUNK_SIZE, CHUNK_SIZE]);
        let mma_2: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = mma(a_2, b_3, acc);
        let mma_2_tf32: Tile<tf32, { [CHUNK_SIZE, CHUNK_SIZE] }> = convert_tile(mma_2);
        let ct_mm: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = convert_tile(mma_2_tf32);
        let prod_2: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = ct_mm * decay_mask;
        let neg: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = negf(prod_2);
        let lit_5: Tile<f32, { [] }> = scalar_to_tile(0.0f32);
        let lit_5_r: Tile<f32, { [1, 1] }> = lit_5.reshape(shape![1, 1]);
        let lit_5_b: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = lit_5_r.broadcast(shape![CHUNK_SIZE, CHUNK_SIZE]);
        let attn: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = select(strict_lower, neg, lit_5_b);
        let mut A: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = attn;
        let offs: Tile<i32, { [CHUNK_SIZE] }> = iota(shape![CHUNK_SIZE]);
        let lit_6: Tile<f32, { [] }> = scalar_to_tile(0.0f32);
        let lit_6_r: Tile<f32, { [1, 1] }> = lit_6.reshape(shape![1, 1]);
        let lit_6_b: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = lit_6_r.broadcast(shape![CHUNK_SIZE, CHUNK_SIZE]);
        let lit_7: Tile<f32, { [] }> = scalar_to_tile(0.0f32);
        let lit_7_r: Tile<f32, { [1, 1] }> = lit_7.reshape(shape![1, 1]);
        let lit_7_b: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = lit_7_r.broadcast(shape![CHUNK_SIZE, CHUNK_SIZE]);
        for i in 1i32..CHUNK_SIZE {
            let i_t: Tile<i32, { [] }> = scalar_to_tile(i);
            let i_t_r: Tile<i32, { [1] }> = i_t.reshape(shape![1]);
            let i_t_b: Tile<i32, { [CHUNK_SIZE] }> = i_t_r.broadcast(shape![CHUNK_SIZE]);
            let is_row: Tile<bool, { [CHUNK_SIZE] }> = eq_tile(offs, i_t_b);
            let is_row_col: Tile<bool, { [CHUNK_SIZE, 1] }> = is_row.reshape(shape![CHUNK_SIZE, 1]);
            let is_row_col_b: Tile<bool, { [CHUNK_SIZE, CHUNK_SIZE] }> = is_row_col.broadcast(shape![CHUNK_SIZE, CHUNK_SIZE]);
            let selected: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = select(is_row_col_b, A, lit_6_b);
            let row: Tile<f32, { [CHUNK_SIZE] }> = reduce_sum(selected, 0i32);
            let row_t: Tile<f32, { [CHUNK_SIZE] }> = convert_tile(row);
            let row_t_e: Tile<f32, { [CHUNK_SIZE, 1] }> = row_t.reshape(shape![CHUNK_SIZE, 1]);
            let row_t_e_b: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = row_t_e.broadcast(shape![CHUNK_SIZE, CHUNK_SIZE]);
            let prod_3: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = row_t_e_b * A;
            let correction: Tile<f32, { [CHUNK_SIZE] }> = reduce_sum(prod_3, 0i32);
            let correction_t: Tile<f32, { [CHUNK_SIZE] }> = convert_tile(correction);
            let correction_t_e: Tile<f32, { [1, CHUNK_SIZE] }> = correction_t.reshape(shape![1, CHUNK_SIZE]);
            let is_row_col_b_2: Tile<bool, { [CHUNK_SIZE, CHUNK_SIZE] }> = is_row_col.broadcast(shape![CHUNK_SIZE, CHUNK_SIZE]);
            let correction_t_e_b: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = correction_t_e.broadcast(shape![CHUNK_SIZE, CHUNK_SIZE]);
            let selected_2: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = select(is_row_col_b_2, correction_t_e_b, lit_7_b);
            let A_next: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = A + selected_2;
            A = A_next;
        }
        let offs_e: Tile<i32, { [CHUNK_SIZE, 1] }> = offs.reshape(shape![CHUNK_SIZE, 1]);
        let offs_e_2: Tile<i32, { [1, CHUNK_SIZE] }> = offs.reshape(shape![1, CHUNK_SIZE]);
        let offs_e_b: Tile<i32, { [CHUNK_SIZE, CHUNK_SIZE] }> = offs_e.broadcast(shape![CHUNK_SIZE, CHUNK_SIZE]);
        let offs_e_2_b: Tile<i32, { [CHUNK_SIZE, CHUNK_SIZE] }> = offs_e_2.broadcast(shape![CHUNK_SIZE, CHUNK_SIZE]);
        let mask: Tile<bool, { [CHUNK_SIZE, CHUNK_SIZE] }> = eq_tile(offs_e_b, offs_e_2_b);
        let lit_9: Tile<f32, { [] }> = scalar_to_tile(0.0f32);
        let lit_8: Tile<f32, { [] }> = scalar_to_tile(1.0f32);
        let lit_8_r: Tile<f32, { [1, 1] }> = lit_8.reshape(shape![1, 1]);
        let lit_8_b: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = lit_8_r.broadcast(shape![CHUNK_SIZE, CHUNK_SIZE]);
        let lit_9_r: Tile<f32, { [1, 1] }> = lit_9.reshape(shape![1, 1]);
        let lit_9_b: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = lit_9_r.broadcast(shape![CHUNK_SIZE, CHUNK_SIZE]);
        let eye: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = select(mask, lit_8_b, lit_9_b);
        let ct_solve_tril_serial: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = A + eye;
        let num_v_tiles: i32 = ceil_div(V_dim, BLOCK_K);
        let idx_7: i32 = tile_to_scalar(b);
        let idx_8: i32 = tile_to_scalar(h);
        let V_part: Partition<bf16, { [1, CHUNK_SIZE, 1, BLOCK_K] }> = V.partition(shape![1, CHUNK_SIZE, 1, BLOCK_K]);
        let beta_tile_e_2: Tile<f32, { [CHUNK_SIZE, 1] }> = beta_tile.reshape(shape![CHUNK_SIZE, 1]);
        let beta_tile_e_2_b: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = beta_tile_e_2.broadcast(shape![CHUNK_SIZE, BLOCK_K]);
        let a_3: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = ct_solve_tril_serial;
        let a_4: Tile<tf32, { [CHUNK_SIZE, CHUNK_SIZE] }> = convert_tile(a_3);
        let acc_2: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = constant(0.0f32, shape![CHUNK_SIZE, BLOCK_K]);
        let idx_9: i32 = tile_to_scalar(b);
        let idx_10: i32 = tile_to_scalar(h);
        let mut V_corr_part: PartitionMut<bf16, { [1, 1, 1, CHUNK_SIZE, BLOCK_K] }> =
            unsafe { V_corr.partition_full_mut(shape![1, 1, 1, CHUNK_SIZE, BLOCK_K]) };
        for vt in 0i32..num_v_tiles {
            let V_tile: Tile<bf16, { [1, CHUNK_SIZE, 1, BLOCK_K] }> = V_part.load([idx_7, pid_chunk, idx_8, vt]);
            let V_tile_r: Tile<bf16, { [CHUNK_SIZE, BLOCK_K] }> = V_tile.reshape(shape![CHUNK_SIZE, BLOCK_K]);
            let v_tile: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = convert_tile(V_tile_r);
            let vb_tile: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = v_tile * beta_tile_e_2_b;
            let b_4: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = vb_tile;
            let b_5: Tile<tf32, { [CHUNK_SIZE, BLOCK_K] }> = convert_tile(b_4);
            let mma_3: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = mma(a_4, b_5, acc_2);
            let mma_3_tf32: Tile<tf32, { [CHUNK_SIZE, BLOCK_K] }> = convert_tile(mma_3);
            let ct_mm_2: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = convert_tile(mma_3_tf32);
            let ct_mm_2_bf16: Tile<bf16, { [CHUNK_SIZE, BLOCK_K] }> = convert_tile(ct_mm_2);
            let result: Tile<bf16, { [1, 1, 1, CHUNK_SIZE, BLOCK_K] }> = ct_mm_2_bf16.reshape(shape![1, 1, 1, CHUNK_SIZE, BLOCK_K]);
            V_corr_part.store(result, [idx_9, idx_10, pid_chunk, zero, vt]);
        }
        let exp_3: Tile<f32, { [CHUNK_SIZE] }> = exp(g_cum);
        let exp_3_e: Tile<f32, { [CHUNK_SIZE, 1] }> = exp_3.reshape(shape![CHUNK_SIZE, 1]);
        let exp_3_e_b: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = exp_3_e.broadcast(shape![CHUNK_SIZE, BLOCK_K]);
        let kbe_tile: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = kb_tile * exp_3_e_b;
        let a_5: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = ct_solve_tril_serial;
        let b_6: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = kbe_tile;
        let a_6: Tile<tf32, { [CHUNK_SIZE, CHUNK_SIZE] }> = convert_tile(a_5);
        let b_7: Tile<tf32, { [CHUNK_SIZE, BLOCK_K] }> = convert_tile(b_6);
        let acc_3: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = constant(0.0f32, shape![CHUNK_SIZE, BLOCK_K]);
        let mma_4: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = mma(a_6, b_7, acc_3);
        let mma_4_tf32: Tile<tf32, { [CHUNK_SIZE, BLOCK_K] }> = convert_tile(mma_4);
        let ct_mm_3: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = convert_tile(mma_4_tf32);
        let ct_mm_3_bf16: Tile<bf16, { [CHUNK_SIZE, BLOCK_K] }> = convert_tile(ct_mm_3);
        let result_2: Tile<bf16, { [1, 1, 1, CHUNK_SIZE, BLOCK_K] }> = ct_mm_3_bf16.reshape(shape![1, 1, 1, CHUNK_SIZE, BLOCK_K]);
        let idx_11: i32 = tile_to_scalar(b);
        let idx_12: i32 = tile_to_scalar(h);
        let mut K_cumdecay_part: PartitionMut<bf16, { [1, 1, 1, CHUNK_SIZE, BLOCK_K] }> =
            unsafe { K_cumdecay.partition_full_mut(shape![1, 1, 1, CHUNK_SIZE, BLOCK_K]) };
        K_cumdecay_part.store(result_2, [idx_11, idx_12, pid_chunk, zero, zero]);
        let result_3: Tile<f32, { [1, 1, 1, CHUNK_SIZE] }> = g_cum.reshape(shape![1, 1, 1, CHUNK_SIZE]);
        let idx_13: i32 = tile_to_scalar(b);
        let idx_14: i32 = tile_to_scalar(h);
        let mut G_cum_out_part: PartitionMut<f32, { [1, 1, 1, CHUNK_SIZE] }> =
            unsafe { G_cum_out.partition_full_mut(shape![1, 1, 1, CHUNK_SIZE]) };
        G_cum_out_part.store(result_3, [idx_13, idx_14, pid_chunk, zero]);
        let idx_15: i32 = tile_to_scalar(b);
        let idx_16: i32 = tile_to_scalar(h);
        let Q_part: Partition<bf16, { [1, CHUNK_SIZE, 1, BLOCK_K] }> = Q.partition(shape![1, CHUNK_SIZE, 1, BLOCK_K]);
        let Q_tile: Tile<bf16, { [1, CHUNK_SIZE, 1, BLOCK_K] }> = Q_part.load([idx_15, pid_chunk, idx_16, zero]);
        let Q_tile_r: Tile<bf16, { [CHUNK_SIZE, BLOCK_K] }> = Q_tile.reshape(shape![CHUNK_SIZE, BLOCK_K]);
        let q_tile: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = convert_tile(Q_tile_r);
        let prod_4: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = q_tile * q_tile;
        let sum_red_2: Tile<f32, { [CHUNK_SIZE] }> = reduce_sum(prod_4, 1i32);
        let sum_3: Tile<f32, { [CHUNK_SIZE, 1] }> = sum_red_2.reshape(shape![CHUNK_SIZE, 1]);
        let lit_10: Tile<f32, { [] }> = scalar_to_tile(1e-06f32);
        let lit_10_r: Tile<f32, { [1, 1] }> = lit_10.reshape(shape![1, 1]);
        let lit_10_b: Tile<f32, { [CHUNK_SIZE, 1] }> = lit_10_r.broadcast(shape![CHUNK_SIZE, 1]);
        let sum_4: Tile<f32, { [CHUNK_SIZE, 1] }> = sum_3 + lit_10_b;
        let rsqrt_3: Tile<f32, { [CHUNK_SIZE, 1] }> = rsqrt(sum_4, ftz::Disabled);
        let rsqrt_3_b: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = rsqrt_3.broadcast(shape![CHUNK_SIZE, BLOCK_K]);
        let q_tile_2: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = q_tile * rsqrt_3_b;
        let scale_t: Tile<f32, { [] }> = scalar_to_tile(scale);
        let scale_t_r: Tile<f32, { [1, 1] }> = scale_t.reshape(shape![1, 1]);
        let scale_t_b: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = scale_t_r.broadcast(shape![CHUNK_SIZE, BLOCK_K]);
        let q_tile_3: Tile<f32, { [CHUNK_SIZE, BLOCK_K] }> = q_tile_2 * scale_t_b;
        let q_tile_3_bf16: Tile<bf16, { [CHUNK_SIZE, BLOCK_K] }> = convert_tile(q_tile_3);
        let result_4: Tile<bf16, { [1, 1, 1, CHUNK_SIZE, BLOCK_K] }> = q_tile_3_bf16.reshape(shape![1, 1, 1, CHUNK_SIZE, BLOCK_K]);
        let idx_17: i32 = tile_to_scalar(b);
        let idx_18: i32 = tile_to_scalar(h);
        let mut Q_out_part: PartitionMut<bf16, { [1, 1, 1, CHUNK_SIZE, BLOCK_K] }> =
            unsafe { Q_out.partition_full_mut(shape![1, 1, 1, CHUNK_SIZE, BLOCK_K]) };
        Q_out_part.store(result_4, [idx_17, idx_18, pid_chunk, zero, zero]);
        let k_tile_2_bf16: Tile<bf16, { [CHUNK_SIZE, BLOCK_K] }> = convert_tile(k_tile_2);
        let result_5: Tile<bf16, { [1, 1, 1, CHUNK_SIZE, BLOCK_K] }> = k_tile_2_bf16.reshape(shape![1, 1, 1, CHUNK_SIZE, BLOCK_K]);
        let idx_19: i32 = tile_to_scalar(b);
        let idx_20: i32 = tile_to_scalar(h);
        let mut K_out_part: PartitionMut<bf16, { [1, 1, 1, CHUNK_SIZE, BLOCK_K] }> =
            unsafe { K_out.partition_full_mut(shape![1, 1, 1, CHUNK_SIZE, BLOCK_K]) };
        K_out_part.store(result_5, [idx_19, idx_20, pid_chunk, zero, zero]);
    }
}
