//! Drafted by workbench/port/rules from /tmp/tg4_drafter/.venv/lib/python3.11/site-packages/tilegym/ops/cutile/matmul.py (_static_persistent_matmul_kernel); review before use.
#![allow(unused_unsafe, unused_variables, unused_mut)]
#[cutile::module]
pub mod _static_persistent_matmul_kernel_port {
    use cutile::core::*;

    // NOTE line 286: loads indexed by `k_tile` run to a bound cutile cannot relate to the arrays, so the entry is unsafe with unchecked_accesses = true; the launcher must keep every index in range
    // The specialization TRANSPOSE_A=False,TRANSPOSE_B=False,GROUP_SIZE_M=8,LOAD_LATENCY=-1: its constant branches folded away.
    #[cutile::entry(unchecked_accesses = true)]
    pub unsafe fn _static_persistent_matmul_kernel_transpose_a_false_transpose_b_false_group_size_m_8_load_latency_m1<const TILE_SIZE_M: i32, const TILE_SIZE_N: i32, const TILE_SIZE_K: i32, const GROUP_SIZE_M: i32, const LOAD_LATENCY: i32>(
        A: &Tensor<f16, { [-1, -1] }>,
        B: &Tensor<f16, { [-1, -1] }>,
        C: &mut Tensor<f16, { [TILE_SIZE_M, TILE_SIZE_N] }>,
        M: i32,
        N: i32,
        K: i32,
    ) {
        let mut C_token: Token = C.token();  // threaded through its scatters
        let cGROUP_SIZE_M: i32 = GROUP_SIZE_M;
        let start_bid: i32 = get_tile_block_id().0;
        let num_bid_m: i32 = ceil_div(M, TILE_SIZE_M);
        let num_bid_n: i32 = ceil_div(N, TILE_SIZE_N);
        let k_tiles: i32 = ceil_div(K, TILE_SIZE_K);
        let num_tiles_2: i32 = num_bid_m * num_bid_n;
        let num_programs: i32 = get_num_tile_blocks().0;
        let num_bid_in_group: i32 = cGROUP_SIZE_M * num_bid_n;
        let num_bid_in_group_t: Tile<i32, { [] }> = scalar_to_tile(num_bid_in_group);
        let lit: Tile<i32, { [] }> = constant(8i32, shape![]);
        let num_bid_m_t: Tile<i32, { [] }> = scalar_to_tile(num_bid_m);
        let lit_2: Tile<i32, { [] }> = constant(8i32, shape![]);
        let zeros: Tile<i32, { [] }> = constant(0i32, shape![]);
        let num_bid_in_group_t_2: Tile<i32, { [] }> = scalar_to_tile(num_bid_in_group);
        let zeros_2: Tile<i32, { [] }> = constant(0i32, shape![]);
        let num_bid_in_group_t_2_neg: Tile<bool, { [] }> = lt_tile(num_bid_in_group_t_2, zeros_2);
        let A_part: Partition<f16, { [TILE_SIZE_M, TILE_SIZE_K] }> = A.partition(shape![TILE_SIZE_M, TILE_SIZE_K]);
        let B_part: Partition<f16, { [TILE_SIZE_K, TILE_SIZE_N] }> = B.partition(shape![TILE_SIZE_K, TILE_SIZE_N]);
        let mut C_part: PartitionMut<f16, { [TILE_SIZE_M, TILE_SIZE_N] }> =
            unsafe { C.partition_full_mut(shape![TILE_SIZE_M, TILE_SIZE_N]) };
        for tile_id in (start_bid..num_tiles_2).step_by(num_programs as usize) {
            let tile_id_t: Tile<i32, { [] }> = scalar_to_tile(tile_id);
            let group_id: Tile<i32, { [] }> = divi(tile_id_t, num_bid_in_group_t, rounding::NegativeInf);
            let first_bid_m: Tile<i32, { [] }> = group_id * lit;
            let diff: Tile<i32, { [] }> = num_bid_m_t - first_bid_m;
            let group_size_m: Tile<i32, { [] }> = mini(diff, lit_2);
            let tile_id_t_2: Tile<i32, { [] }> = scalar_to_tile(tile_id);
            let rem_raw: Tile<i32, { [] }> = remi(tile_id_t_2, group_size_m);
            let rem_neg: Tile<bool, { [] }> = lt_tile(rem_raw, zeros);
            let group_size_m_neg: Tile<bool, { [] }> = lt_tile(group_size_m, zeros);
            let rem_signs: Tile<bool, { [] }> = xori(rem_neg, group_size_m_neg);
            let rem_nonzero: Tile<bool, { [] }> = ne_tile(rem_raw, zeros);
            let rem_fix: Tile<bool, { [] }> = andi(rem_signs, rem_nonzero);
            let rem_shifted: Tile<i32, { [] }> = rem_raw + group_size_m;
            let rem: Tile<i32, { [] }> = select(rem_fix, rem_shifted, rem_raw);
            let bid_m: Tile<i32, { [] }> = first_bid_m + rem;
            let tile_id_t_3: Tile<i32, { [] }> = scalar_to_tile(tile_id);
            let rem_raw_2: Tile<i32, { [] }> = remi(tile_id_t_3, num_bid_in_group_t_2);
            let rem_neg_2: Tile<bool, { [] }> = lt_tile(rem_raw_2, zeros_2);
            let rem_signs_2: Tile<bool, { [] }> = xori(rem_neg_2, num_bid_in_group_t_2_neg);
            let rem_nonzero_2: Tile<bool, { [] }> = ne_tile(rem_raw_2, zeros_2);
            let rem_fix_2: Tile<bool, { [] }> = andi(rem_signs_2, rem_nonzero_2);
            let rem_shifted_2: Tile<i32, { [] }> = rem_raw_2 + num_bid_in_group_t_2;
            let rem_2: Tile<i32, { [] }> = select(rem_fix_2, rem_shifted_2, rem_raw_2);
            let bid_n: Tile<i32, { [] }> = divi(rem_2, group_size_m, rounding::NegativeInf);
            let mut accumulator: Tile<f32, { [TILE_SIZE_M, TILE_SIZE_N] }> = constant(0.0f32, shape![TILE_SIZE_M, TILE_SIZE_N]);
            let idx: i32 = tile_to_scalar(bid_m);
            let idx_2: i32 = tile_to_scalar(bid_n);
            for k_tile in 0i32..k_tiles {
                let A_tile: Tile<f16, { [TILE_SIZE_M, TILE_SIZE_K] }> = A_part.load([idx, k_tile]);
                let B_tile: Tile<f16, { [TILE_SIZE_K, TILE_SIZE_N] }> = B_part.load([k_tile, idx_2]);
                let a: Tile<f16, { [TILE_SIZE_M, TILE_SIZE_K] }> = A_tile;
                let b: Tile<f16, { [TILE_SIZE_K, TILE_SIZE_N] }> = B_tile;
                let accumulator_next: Tile<f32, { [TILE_SIZE_M, TILE_SIZE_N] }> = mma(a, b, accumulator);
                accumulator = accumulator_next;
            }
            let result: Tile<f16, { [TILE_SIZE_M, TILE_SIZE_N] }> = convert_tile(accumulator);
            let idx_3: i32 = tile_to_scalar(bid_m);
            let idx_4: i32 = tile_to_scalar(bid_n);
            C_token = unsafe { store_view_raw(&C_part, result, [idx_3, idx_4], Some(C_token), ordering::Weak, scope::TileBlock, tma::Enabled, None, [false, false]) };
        }
    }

    // NOTE line 286: loads indexed by `k_tile` run to a bound cutile cannot relate to the arrays, so the entry is unsafe with unchecked_accesses = true; the launcher must keep every index in range
    // The specialization TRANSPOSE_A=True,TRANSPOSE_B=True,GROUP_SIZE_M=8,LOAD_LATENCY=-1: its constant branches folded away.
    #[cutile::entry(unchecked_accesses = true)]
    pub unsafe fn _static_persistent_matmul_kernel_transpose_a_true_transpose_b_true_group_size_m_8_load_latency_m1<const TILE_SIZE_M: i32, const TILE_SIZE_N: i32, const TILE_SIZE_K: i32, const GROUP_SIZE_M: i32, const LOAD_LATENCY: i32>(
        A: &Tensor<f16, { [-1, -1] }>,
        B: &Tensor<f16, { [-1, -1] }>,
        C: &mut Tensor<f16, { [TILE_SIZE_M, TILE_SIZE_N] }>,
        M: i32,
        N: i32,
        K: i32,
    ) {
        let mut C_token: Token = C.token();  // threaded through its scatters
        let cGROUP_SIZE_M: i32 = GROUP_SIZE_M;
        let start_bid: i32 = get_tile_block_id().0;
        let num_bid_m: i32 = ceil_div(M, TILE_SIZE_M);
        let num_bid_n: i32 = ceil_div(N, TILE_SIZE_N);
        let k_tiles: i32 = ceil_div(K, TILE_SIZE_K);
        let num_tiles_2: i32 = num_bid_m * num_bid_n;
        let num_programs: i32 = get_num_tile_blocks().0;
        let num_bid_in_group: i32 = cGROUP_SIZE_M * num_bid_n;
        let num_bid_in_group_t: Tile<i32, { [] }> = scalar_to_tile(num_bid_in_group);
        let lit: Tile<i32, { [] }> = constant(8i32, shape![]);
        let num_bid_m_t: Tile<i32, { [] }> = scalar_to_tile(num_bid_m);
        let lit_2: Tile<i32, { [] }> = constant(8i32, shape![]);
        let zeros: Tile<i32, { [] }> = constant(0i32, shape![]);
        let num_bid_in_group_t_2: Tile<i32, { [] }> = scalar_to_tile(num_bid_in_group);
        let zeros_2: Tile<i32, { [] }> = constant(0i32, shape![]);
        let num_bid_in_group_t_2_neg: Tile<bool, { [] }> = lt_tile(num_bid_in_group_t_2, zeros_2);
        let A_part: Partition<f16, { [TILE_SIZE_K, TILE_SIZE_M] }> = A.partition(shape![TILE_SIZE_K, TILE_SIZE_M]);
        let B_part: Partition<f16, { [TILE_SIZE_N, TILE_SIZE_K] }> = B.partition(shape![TILE_SIZE_N, TILE_SIZE_K]);
        let mut C_part: PartitionMut<f16, { [TILE_SIZE_M, TILE_SIZE_N] }> =
            unsafe { C.partition_full_mut(shape![TILE_SIZE_M, TILE_SIZE_N]) };
        for tile_id in (start_bid..num_tiles_2).step_by(num_programs as usize) {
            let tile_id_t: Tile<i32, { [] }> = scalar_to_tile(tile_id);
            let group_id: Tile<i32, { [] }> = divi(tile_id_t, num_bid_in_group_t, rounding::NegativeInf);
            let first_bid_m: Tile<i32, { [] }> = group_id * lit;
            let diff: Tile<i32, { [] }> = num_bid_m_t - first_bid_m;
            let group_size_m: Tile<i32, { [] }> = mini(diff, lit_2);
            let tile_id_t_2: Tile<i32, { [] }> = scalar_to_tile(tile_id);
            let rem_raw: Tile<i32, { [] }> = remi(tile_id_t_2, group_size_m);
            let rem_neg: Tile<bool, { [] }> = lt_tile(rem_raw, zeros);
            let group_size_m_neg: Tile<bool, { [] }> = lt_tile(group_size_m, zeros);
            let rem_signs: Tile<bool, { [] }> = xori(rem_neg, group_size_m_neg);
            let rem_nonzero: Tile<bool, { [] }> = ne_tile(rem_raw, zeros);
            let rem_fix: Tile<bool, { [] }> = andi(rem_signs, rem_nonzero);
            let rem_shifted: Tile<i32, { [] }> = rem_raw + group_size_m;
            let rem: Tile<i32, { [] }> = select(rem_fix, rem_shifted, rem_raw);
            let bid_m: Tile<i32, { [] }> = first_bid_m + rem;
            let tile_id_t_3: Tile<i32, { [] }> = scalar_to_tile(tile_id);
            let rem_raw_2: Tile<i32, { [] }> = remi(tile_id_t_3, num_bid_in_group_t_2);
            let rem_neg_2: Tile<bool, { [] }> = lt_tile(rem_raw_2, zeros_2);
            let rem_signs_2: Tile<bool, { [] }> = xori(rem_neg_2, num_bid_in_group_t_2_neg);
            let rem_nonzero_2: Tile<bool, { [] }> = ne_tile(rem_raw_2, zeros_2);
            let rem_fix_2: Tile<bool, { [] }> = andi(rem_signs_2, rem_nonzero_2);
            let rem_shifted_2: Tile<i32, { [] }> = rem_raw_2 + num_bid_in_group_t_2;
            let rem_2: Tile<i32, { [] }> = select(rem_fix_2, rem_shifted_2, rem_raw_2);
            let bid_n: Tile<i32, { [] }> = divi(rem_2, group_size_m, rounding::NegativeInf);
            let mut accumulator: Tile<f32, { [TILE_SIZE_M, TILE_SIZE_N] }> = constant(0.0f32, shape![TILE_SIZE_M, TILE_SIZE_N]);
            let idx: i32 = tile_to_scalar(bid_m);
            let idx_2: i32 = tile_to_scalar(bid_n);
            for k_tile in 0i32..k_tiles {
                let A_tile: Tile<f16, { [TILE_SIZE_K, TILE_SIZE_M] }> = A_part.load([k_tile, idx]);
                let a: Tile<f16, { [TILE_SIZE_M, TILE_SIZE_K] }> = permute(A_tile, const_array![1, 0]);
                let B_tile: Tile<f16, { [TILE_SIZE_N, TILE_SIZE_K] }> = B_part.load([idx_2, k_tile]);
                let b: Tile<f16, { [TILE_SIZE_K, TILE_SIZE_N] }> = permute(B_tile, const_array![1, 0]);
                let a_2: Tile<f16, { [TILE_SIZE_M, TILE_SIZE_K] }> = a;
                let b_2: Tile<f16, { [TILE_SIZE_K, TILE_SIZE_N] }> = b;
                let accumulator_next: Tile<f32, { [TILE_SIZE_M, TILE_SIZE_N] }> = mma(a_2, b_2, accumulator);
                accumulator = accumulator_next;
            }
            let result: Tile<f16, { [TILE_SIZE_M, TILE_SIZE_N] }> = convert_tile(accumulator);
            let idx_3: i32 = tile_to_scalar(bid_m);
            let idx_4: i32 = tile_to_scalar(bid_n);
            C_token = unsafe { store_view_raw(&C_part, result, [idx_3, idx_4], Some(C_token), ordering::Weak, scope::TileBlock, tma::Enabled, None, [false, false]) };
        }
    }
}
