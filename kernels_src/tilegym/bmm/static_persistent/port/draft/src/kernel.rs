//! Drafted by workbench/port/rules from /tmp/tg4_drafter/.venv/lib/python3.11/site-packages/tilegym/ops/cutile/bmm.py (_static_persistent_bmm_kernel); review before use.
#![allow(unused_unsafe, unused_variables, unused_mut)]
#[cutile::module]
pub mod _static_persistent_bmm_kernel_port {
    use cutile::core::*;

    // NOTE line 159: loads indexed by `k_tile` run to a bound cutile cannot relate to the arrays, so the entry is unsafe with unchecked_accesses = true; the launcher must keep every index in range
    // The specialization M=128,N=256,TILE_M=64,TILE_N=64,GROUP_SIZE_M=8,LATENCY=3,TRANSPOSE_A=False,TRANSPOSE_B=False: its constant branches folded away.
    #[cutile::entry(unchecked_accesses = true)]
    pub unsafe fn _static_persistent_bmm_kernel_m_128_n_256_tile_m_64_tile_n_64_group_size_m_8_latency_3_transpose_a_false_transpose_b_false<const M: i32, const N: i32, const K: i32, const TILE_M: i32, const TILE_N: i32, const TILE_K: i32, const GROUP_SIZE_M: i32, const LATENCY: i32>(
        A: &Tensor<f16, { [-1, -1, -1] }>,
        B: &Tensor<f16, { [-1, -1, -1] }>,
        C: &mut Tensor<f16, { [1, 64, 64] }>,
        Batch: i32,
    ) {
        let mut C_token: Token = C.token();  // threaded through its scatters
        let bid: i32 = get_tile_block_id().0;
        let total_tiles: i32 = 8i32 * Batch;
        let num_programs: i32 = get_num_tile_blocks().0;
        let lit: Tile<i32, { [] }> = constant(8i32, shape![]);
        let lit_2: Tile<i32, { [] }> = constant(8i32, shape![]);
        let zeros: Tile<i32, { [] }> = constant(0i32, shape![]);
        let lit_2_neg: Tile<bool, { [] }> = scalar_to_tile(false);
        let lit_3: Tile<i32, { [] }> = constant(32i32, shape![]);
        let lit_4: Tile<i32, { [] }> = constant(8i32, shape![]);
        let lit_5: Tile<i32, { [] }> = constant(2i32, shape![]);
        let lit_6: Tile<i32, { [] }> = constant(8i32, shape![]);
        let zeros_2: Tile<i32, { [] }> = constant(0i32, shape![]);
        let lit_7: Tile<i32, { [] }> = constant(32i32, shape![]);
        let zeros_3: Tile<i32, { [] }> = constant(0i32, shape![]);
        let lit_7_neg: Tile<bool, { [] }> = scalar_to_tile(false);
        let A_part: Partition<f16, { [1, 64, TILE_K] }> = A.partition(shape![1, 64, TILE_K]);
        let B_part: Partition<f16, { [1, TILE_K, 64] }> = B.partition(shape![1, TILE_K, 64]);
        let mut C_part: PartitionMut<f16, { [1, 64, 64] }> =
            unsafe { C.partition_full_mut(shape![1, 64, 64]) };
        for current_bid in (bid..total_tiles).step_by(num_programs as usize) {
            let current_bid_t: Tile<i32, { [] }> = scalar_to_tile(current_bid);
            let bid_q: Tile<i32, { [] }> = divi(current_bid_t, lit, rounding::NegativeInf);
            let current_bid_t_2: Tile<i32, { [] }> = scalar_to_tile(current_bid);
            let current_bid_2d_raw: Tile<i32, { [] }> = remi(current_bid_t_2, lit_2);
            let current_bid_2d_neg: Tile<bool, { [] }> = lt_tile(current_bid_2d_raw, zeros);
            let current_bid_2d_signs: Tile<bool, { [] }> = xori(current_bid_2d_neg, lit_2_neg);
            let current_bid_2d_nonzero: Tile<bool, { [] }> = ne_tile(current_bid_2d_raw, zeros);
            let current_bid_2d_fix: Tile<bool, { [] }> = andi(current_bid_2d_signs, current_bid_2d_nonzero);
            let current_bid_2d_shifted: Tile<i32, { [] }> = current_bid_2d_raw + lit_2;
            let current_bid_2d: Tile<i32, { [] }> = select(current_bid_2d_fix, current_bid_2d_shifted, current_bid_2d_raw);
            let group_id: Tile<i32, { [] }> = divi(current_bid_2d, lit_3, rounding::NegativeInf);
            let first_bid_m: Tile<i32, { [] }> = group_id * lit_4;
            let group_size_m_temp: Tile<i32, { [] }> = lit_5 - first_bid_m;
            let group_size_m: Tile<i32, { [] }> = mini(group_size_m_temp, lit_6);
            let rem_raw: Tile<i32, { [] }> = remi(current_bid_2d, group_size_m);
            let rem_neg: Tile<bool, { [] }> = lt_tile(rem_raw, zeros_2);
            let group_size_m_neg: Tile<bool, { [] }> = lt_tile(group_size_m, zeros_2);
            let rem_signs: Tile<bool, { [] }> = xori(rem_neg, group_size_m_neg);
            let rem_nonzero: Tile<bool, { [] }> = ne_tile(rem_raw, zeros_2);
            let rem_fix: Tile<bool, { [] }> = andi(rem_signs, rem_nonzero);
            let rem_shifted: Tile<i32, { [] }> = rem_raw + group_size_m;
            let rem: Tile<i32, { [] }> = select(rem_fix, rem_shifted, rem_raw);
            let bid_m: Tile<i32, { [] }> = first_bid_m + rem;
            let rem_raw_2: Tile<i32, { [] }> = remi(current_bid_2d, lit_7);
            let rem_neg_2: Tile<bool, { [] }> = lt_tile(rem_raw_2, zeros_3);
            let rem_signs_2: Tile<bool, { [] }> = xori(rem_neg_2, lit_7_neg);
            let rem_nonzero_2: Tile<bool, { [] }> = ne_tile(rem_raw_2, zeros_3);
            let rem_fix_2: Tile<bool, { [] }> = andi(rem_signs_2, rem_nonzero_2);
            let rem_shifted_2: Tile<i32, { [] }> = rem_raw_2 + lit_7;
            let rem_2: Tile<i32, { [] }> = select(rem_fix_2, rem_shifted_2, rem_raw_2);
            let bid_n: Tile<i32, { [] }> = divi(rem_2, group_size_m, rounding::NegativeInf);
            let mut accumulator: Tile<f32, { [64, 64] }> = constant(0.0f32, shape![64, 64]);
            let idx: i32 = tile_to_scalar(bid_q);
            let idx_2: i32 = tile_to_scalar(bid_m);
            let idx_3: i32 = tile_to_scalar(bid_q);
            let idx_4: i32 = tile_to_scalar(bid_n);
            for k_tile in 0i32..ceil_div(K, TILE_K) {
                let A_tile: Tile<f16, { [1, 64, TILE_K] }> = load_view_tko(&A_part, [idx, idx_2, k_tile], ordering::Weak, scope::TileBlock, Some(3), tma::Enabled);
                let a_tile: Tile<f16, { [64, TILE_K] }> = A_tile.reshape(shape![64, TILE_K]);
                let B_tile: Tile<f16, { [1, TILE_K, 64] }> = load_view_tko(&B_part, [idx_3, k_tile, idx_4], ordering::Weak, scope::TileBlock, Some(3), tma::Enabled);
                let b_tile: Tile<f16, { [TILE_K, 64] }> = B_tile.reshape(shape![TILE_K, 64]);
                let accumulator_next: Tile<f32, { [64, 64] }> = mma(a_tile, b_tile, accumulator);
                accumulator = accumulator_next;
            }
            let result: Tile<f16, { [64, 64] }> = convert_tile(accumulator);
            let result_3d: Tile<f16, { [1, 64, 64] }> = result.reshape(shape![1, 64, 64]);
            let idx_5: i32 = tile_to_scalar(bid_q);
            let idx_6: i32 = tile_to_scalar(bid_m);
            let idx_7: i32 = tile_to_scalar(bid_n);
            C_token = unsafe { store_view_raw(&C_part, result_3d, [idx_5, idx_6, idx_7], Some(C_token), ordering::Weak, scope::TileBlock, tma::Enabled, Some(3), [false, false, false]) };
        }
    }

    // NOTE line 159: loads indexed by `k_tile` run to a bound cutile cannot relate to the arrays, so the entry is unsafe with unchecked_accesses = true; the launcher must keep every index in range
    // The specialization M=2048,N=2048,TILE_M=64,TILE_N=64,GROUP_SIZE_M=8,LATENCY=3,TRANSPOSE_A=True,TRANSPOSE_B=True: its constant branches folded away.
    #[cutile::entry(unchecked_accesses = true)]
    pub unsafe fn _static_persistent_bmm_kernel_m_2048_n_2048_tile_m_64_tile_n_64_group_size_m_8_latency_3_transpose_a_true_transpose_b_true<const M: i32, const N: i32, const K: i32, const TILE_M: i32, const TILE_N: i32, const TILE_K: i32, const GROUP_SIZE_M: i32, const LATENCY: i32>(
        A: &Tensor<f16, { [-1, -1, -1] }>,
        B: &Tensor<f16, { [-1, -1, -1] }>,
        C: &mut Tensor<f16, { [1, 64, 64] }>,
        Batch: i32,
    ) {
        let mut C_token: Token = C.token();  // threaded through its scatters
        let bid: i32 = get_tile_block_id().0;
        let total_tiles: i32 = 1024i32 * Batch;
        let num_programs: i32 = get_num_tile_blocks().0;
        let lit: Tile<i32, { [] }> = constant(1024i32, shape![]);
        let lit_2: Tile<i32, { [] }> = constant(1024i32, shape![]);
        let zeros: Tile<i32, { [] }> = constant(0i32, shape![]);
        let lit_2_neg: Tile<bool, { [] }> = scalar_to_tile(false);
        let lit_3: Tile<i32, { [] }> = constant(256i32, shape![]);
        let lit_4: Tile<i32, { [] }> = constant(8i32, shape![]);
        let lit_5: Tile<i32, { [] }> = constant(32i32, shape![]);
        let lit_6: Tile<i32, { [] }> = constant(8i32, shape![]);
        let zeros_2: Tile<i32, { [] }> = constant(0i32, shape![]);
        let lit_7: Tile<i32, { [] }> = constant(256i32, shape![]);
        let zeros_3: Tile<i32, { [] }> = constant(0i32, shape![]);
        let lit_7_neg: Tile<bool, { [] }> = scalar_to_tile(false);
        let A_part: Partition<f16, { [1, TILE_K, 64] }> = A.partition(shape![1, TILE_K, 64]);
        let B_part: Partition<f16, { [1, 64, TILE_K] }> = B.partition(shape![1, 64, TILE_K]);
        let mut C_part: PartitionMut<f16, { [1, 64, 64] }> =
            unsafe { C.partition_full_mut(shape![1, 64, 64]) };
        for current_bid in (bid..total_tiles).step_by(num_programs as usize) {
            let current_bid_t: Tile<i32, { [] }> = scalar_to_tile(current_bid);
            let bid_q: Tile<i32, { [] }> = divi(current_bid_t, lit, rounding::NegativeInf);
            let current_bid_t_2: Tile<i32, { [] }> = scalar_to_tile(current_bid);
            let current_bid_2d_raw: Tile<i32, { [] }> = remi(current_bid_t_2, lit_2);
            let current_bid_2d_neg: Tile<bool, { [] }> = lt_tile(current_bid_2d_raw, zeros);
            let current_bid_2d_signs: Tile<bool, { [] }> = xori(current_bid_2d_neg, lit_2_neg);
            let current_bid_2d_nonzero: Tile<bool, { [] }> = ne_tile(current_bid_2d_raw, zeros);
            let current_bid_2d_fix: Tile<bool, { [] }> = andi(current_bid_2d_signs, current_bid_2d_nonzero);
            let current_bid_2d_shifted: Tile<i32, { [] }> = current_bid_2d_raw + lit_2;
            let current_bid_2d: Tile<i32, { [] }> = select(current_bid_2d_fix, current_bid_2d_shifted, current_bid_2d_raw);
            let group_id: Tile<i32, { [] }> = divi(current_bid_2d, lit_3, rounding::NegativeInf);
            let first_bid_m: Tile<i32, { [] }> = group_id * lit_4;
            let group_size_m_temp: Tile<i32, { [] }> = lit_5 - first_bid_m;
            let group_size_m: Tile<i32, { [] }> = mini(group_size_m_temp, lit_6);
            let rem_raw: Tile<i32, { [] }> = remi(current_bid_2d, group_size_m);
            let rem_neg: Tile<bool, { [] }> = lt_tile(rem_raw, zeros_2);
            let group_size_m_neg: Tile<bool, { [] }> = lt_tile(group_size_m, zeros_2);
            let rem_signs: Tile<bool, { [] }> = xori(rem_neg, group_size_m_neg);
            let rem_nonzero: Tile<bool, { [] }> = ne_tile(rem_raw, zeros_2);
            let rem_fix: Tile<bool, { [] }> = andi(rem_signs, rem_nonzero);
            let rem_shifted: Tile<i32, { [] }> = rem_raw + group_size_m;
            let rem: Tile<i32, { [] }> = select(rem_fix, rem_shifted, rem_raw);
            let bid_m: Tile<i32, { [] }> = first_bid_m + rem;
            let rem_raw_2: Tile<i32, { [] }> = remi(current_bid_2d, lit_7);
            let rem_neg_2: Tile<bool, { [] }> = lt_tile(rem_raw_2, zeros_3);
            let rem_signs_2: Tile<bool, { [] }> = xori(rem_neg_2, lit_7_neg);
            let rem_nonzero_2: Tile<bool, { [] }> = ne_tile(rem_raw_2, zeros_3);
            let rem_fix_2: Tile<bool, { [] }> = andi(rem_signs_2, rem_nonzero_2);
            let rem_shifted_2: Tile<i32, { [] }> = rem_raw_2 + lit_7;
            let rem_2: Tile<i32, { [] }> = select(rem_fix_2, rem_shifted_2, rem_raw_2);
            let bid_n: Tile<i32, { [] }> = divi(rem_2, group_size_m, rounding::NegativeInf);
            let mut accumulator: Tile<f32, { [64, 64] }> = constant(0.0f32, shape![64, 64]);
            let idx: i32 = tile_to_scalar(bid_q);
            let idx_2: i32 = tile_to_scalar(bid_m);
            let idx_3: i32 = tile_to_scalar(bid_q);
            let idx_4: i32 = tile_to_scalar(bid_n);
            for k_tile in 0i32..ceil_div(K, TILE_K) {
                let A_tile: Tile<f16, { [1, TILE_K, 64] }> = load_view_tko(&A_part, [idx, k_tile, idx_2], ordering::Weak, scope::TileBlock, Some(3), tma::Enabled);
                let a_tile_3d: Tile<f16, { [1, 64, TILE_K] }> = permute(A_tile, const_array![0, 2, 1]);
                let a_tile: Tile<f16, { [64, TILE_K] }> = a_tile_3d.reshape(shape![64, TILE_K]);
                let B_tile: Tile<f16, { [1, 64, TILE_K] }> = load_view_tko(&B_part, [idx_3, idx_4, k_tile], ordering::Weak, scope::TileBlock, Some(3), tma::Enabled);
                let b_tile_3d: Tile<f16, { [1, TILE_K, 64] }> = permute(B_tile, const_array![0, 2, 1]);
                let b_tile: Tile<f16, { [TILE_K, 64] }> = b_tile_3d.reshape(shape![TILE_K, 64]);
                let accumulator_next: Tile<f32, { [64, 64] }> = mma(a_tile, b_tile, accumulator);
                accumulator = accumulator_next;
            }
            let result: Tile<f16, { [64, 64] }> = convert_tile(accumulator);
            let result_3d: Tile<f16, { [1, 64, 64] }> = result.reshape(shape![1, 64, 64]);
            let idx_5: i32 = tile_to_scalar(bid_q);
            let idx_6: i32 = tile_to_scalar(bid_m);
            let idx_7: i32 = tile_to_scalar(bid_n);
            C_token = unsafe { store_view_raw(&C_part, result_3d, [idx_5, idx_6, idx_7], Some(C_token), ordering::Weak, scope::TileBlock, tma::Enabled, Some(3), [false, false, false]) };
        }
    }
}
