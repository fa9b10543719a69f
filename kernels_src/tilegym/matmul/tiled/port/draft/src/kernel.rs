//! Drafted by workbench/port/rules from /tmp/tg4_drafter/.venv/lib/python3.11/site-packages/tilegym/ops/cutile/matmul.py (_matmul_kernel); review before use.
#![allow(unused_unsafe, unused_variables, unused_mut)]
#[cutile::module]
pub mod _matmul_kernel_port {
    use cutile::core::*;

    // NOTE unchecked_accesses: the store at an explicit index goes through the full output view; the launcher must keep it in range
    #[cutile::entry(unchecked_accesses = true)]
    pub unsafe fn _matmul_kernel_f16<const TILE_SIZE_M: i32, const TILE_SIZE_N: i32, const TILE_SIZE_K: i32>(
        A: &Tensor<f16, { [-1, -1] }>,
        B: &Tensor<f16, { [-1, -1] }>,
        C: &mut Tensor<f16, { [TILE_SIZE_M, TILE_SIZE_N] }>,
    ) {
        let lit_2: Tile<i32, { [] }> = constant(8i32, shape![]);
        let lit: Tile<i32, { [] }> = constant(8i32, shape![]);
        let M: i32 = get_shape_dim(A.shape(), 0i32);
        let N: i32 = get_shape_dim(B.shape(), 1i32);
        let bid: i32 = get_tile_block_id().0;
        let num_bid_m: i32 = ceil_div(M, TILE_SIZE_M);
        let num_bid_n: i32 = ceil_div(N, TILE_SIZE_N);
        let num_bid_in_group: i32 = 8i32 * num_bid_n;
        let bid_t: Tile<i32, { [] }> = scalar_to_tile(bid);
        let num_bid_in_group_t: Tile<i32, { [] }> = scalar_to_tile(num_bid_in_group);
        let group_id: Tile<i32, { [] }> = divi(bid_t, num_bid_in_group_t, rounding::NegativeInf);
        let first_bid_m: Tile<i32, { [] }> = group_id * lit;
        let num_bid_m_t: Tile<i32, { [] }> = scalar_to_tile(num_bid_m);
        let diff: Tile<i32, { [] }> = num_bid_m_t - first_bid_m;
        let group_size_m: Tile<i32, { [] }> = mini(diff, lit_2);
        let bid_t_2: Tile<i32, { [] }> = scalar_to_tile(bid);
        let rem_raw: Tile<i32, { [] }> = remi(bid_t_2, group_size_m);
        let zeros: Tile<i32, { [] }> = constant(0i32, shape![]);
        let rem_neg: Tile<bool, { [] }> = lt_tile(rem_raw, zeros);
        let group_size_m_neg: Tile<bool, { [] }> = lt_tile(group_size_m, zeros);
        let rem_signs: Tile<bool, { [] }> = xori(rem_neg, group_size_m_neg);
        let rem_nonzero: Tile<bool, { [] }> = ne_tile(rem_raw, zeros);
        let rem_fix: Tile<bool, { [] }> = andi(rem_signs, rem_nonzero);
        let rem_shifted: Tile<i32, { [] }> = rem_raw + group_size_m;
        let rem: Tile<i32, { [] }> = select(rem_fix, rem_shifted, rem_raw);
        let bid_m: Tile<i32, { [] }> = first_bid_m + rem;
        let bid_t_3: Tile<i32, { [] }> = scalar_to_tile(bid);
        let num_bid_in_group_t_2: Tile<i32, { [] }> = scalar_to_tile(num_bid_in_group);
        let rem_raw_2: Tile<i32, { [] }> = remi(bid_t_3, num_bid_in_group_t_2);
        let zeros_2: Tile<i32, { [] }> = constant(0i32, shape![]);
        let rem_neg_2: Tile<bool, { [] }> = lt_tile(rem_raw_2, zeros_2);
        let num_bid_in_group_t_2_neg: Tile<bool, { [] }> = lt_tile(num_bid_in_group_t_2, zeros_2);
        let rem_signs_2: Tile<bool, { [] }> = xori(rem_neg_2, num_bid_in_group_t_2_neg);
        let rem_nonzero_2: Tile<bool, { [] }> = ne_tile(rem_raw_2, zeros_2);
        let rem_fix_2: Tile<bool, { [] }> = andi(rem_signs_2, rem_nonzero_2);
        let rem_shifted_2: Tile<i32, { [] }> = rem_raw_2 + num_bid_in_group_t_2;
        let rem_2: Tile<i32, { [] }> = select(rem_fix_2, rem_shifted_2, rem_raw_2);
        let bid_n: Tile<i32, { [] }> = divi(rem_2, group_size_m, rounding::NegativeInf);
        let A_part: Partition<f16, { [TILE_SIZE_M, TILE_SIZE_K] }> = unsafe { make_partition_view(A, shape![TILE_SIZE_M, TILE_SIZE_K], padding::None, dim_map::Identity, A.token()) };
        let num_tiles_k: i32 = num_tiles(&A_part, 1i32);
        let mut accumulator: Tile<f32, { [TILE_SIZE_M, TILE_SIZE_N] }> = constant(0.0f32, shape![TILE_SIZE_M, TILE_SIZE_N]);
        let idx: i32 = tile_to_scalar(bid_m);
        let A_part_2: Partition<f16, { [TILE_SIZE_M, TILE_SIZE_K] }> = A.partition(shape![TILE_SIZE_M, TILE_SIZE_K]);
        let idx_2: i32 = tile_to_scalar(bid_n);
        let B_part: Partition<f16, { [TILE_SIZE_K, TILE_SIZE_N] }> = B.partition(shape![TILE_SIZE_K, TILE_SIZE_N]);
        for k in 0i32..num_tiles_k {
            let A_tile: Tile<f16, { [TILE_SIZE_M, TILE_SIZE_K] }> = A_part_2.load([idx, k]);
            let B_tile: Tile<f16, { [TILE_SIZE_K, TILE_SIZE_N] }> = B_part.load([k, idx_2]);
            let accumulator_next: Tile<f32, { [TILE_SIZE_M, TILE_SIZE_N] }> = mma(A_tile, B_tile, accumulator);
            accumulator = accumulator_next;
        }
        let accumulator_2: Tile<f16, { [TILE_SIZE_M, TILE_SIZE_N] }> = convert_tile(accumulator);
        let idx_3: i32 = tile_to_scalar(bid_m);
        let idx_4: i32 = tile_to_scalar(bid_n);
        let mut C_part: PartitionMut<f16, { [TILE_SIZE_M, TILE_SIZE_N] }> =
            unsafe { C.partition_full_mut(shape![TILE_SIZE_M, TILE_SIZE_N]) };
        C_part.store(accumulator_2, [idx_3, idx_4]);
    }

    // NOTE unchecked_accesses: the store at an explicit index goes through the full output view; the launcher must keep it in range
    #[cutile::entry(unchecked_accesses = true)]
    pub unsafe fn _matmul_kernel_f32<const TILE_SIZE_M: i32, const TILE_SIZE_N: i32, const TILE_SIZE_K: i32>(
        A: &Tensor<f32, { [-1, -1] }>,
        B: &Tensor<f32, { [-1, -1] }>,
        C: &mut Tensor<f32, { [TILE_SIZE_M, TILE_SIZE_N] }>,
    ) {
        let lit_2: Tile<i32, { [] }> = constant(8i32, shape![]);
        let lit: Tile<i32, { [] }> = constant(8i32, shape![]);
        let M: i32 = get_shape_dim(A.shape(), 0i32);
        let N: i32 = get_shape_dim(B.shape(), 1i32);
        let bid: i32 = get_tile_block_id().0;
        let num_bid_m: i32 = ceil_div(M, TILE_SIZE_M);
        let num_bid_n: i32 = ceil_div(N, TILE_SIZE_N);
        let num_bid_in_group: i32 = 8i32 * num_bid_n;
        let bid_t: Tile<i32, { [] }> = scalar_to_tile(bid);
        let num_bid_in_group_t: Tile<i32, { [] }> = scalar_to_tile(num_bid_in_group);
        let group_id: Tile<i32, { [] }> = divi(bid_t, num_bid_in_group_t, rounding::NegativeInf);
        let first_bid_m: Tile<i32, { [] }> = group_id * lit;
        let num_bid_m_t: Tile<i32, { [] }> = scalar_to_tile(num_bid_m);
        let diff: Tile<i32, { [] }> = num_bid_m_t - first_bid_m;
        let group_size_m: Tile<i32, { [] }> = mini(diff, lit_2);
        let bid_t_2: Tile<i32, { [] }> = scalar_to_tile(bid);
        let rem_raw: Tile<i32, { [] }> = remi(bid_t_2, group_size_m);
        let zeros: Tile<i32, { [] }> = constant(0i32, shape![]);
        let rem_neg: Tile<bool, { [] }> = lt_tile(rem_raw, zeros);
        let group_size_m_neg: Tile<bool, { [] }> = lt_tile(group_size_m, zeros);
        let rem_signs: Tile<bool, { [] }> = xori(rem_neg, group_size_m_neg);
        let rem_nonzero: Tile<bool, { [] }> = ne_tile(rem_raw, zeros);
        let rem_fix: Tile<bool, { [] }> = andi(rem_signs, rem_nonzero);
        let rem_shifted: Tile<i32, { [] }> = rem_raw + group_size_m;
        let rem: Tile<i32, { [] }> = select(rem_fix, rem_shifted, rem_raw);
        let bid_m: Tile<i32, { [] }> = first_bid_m + rem;
        let bid_t_3: Tile<i32, { [] }> = scalar_to_tile(bid);
        let num_bid_in_group_t_2: Tile<i32, { [] }> = scalar_to_tile(num_bid_in_group);
        let rem_raw_2: Tile<i32, { [] }> = remi(bid_t_3, num_bid_in_group_t_2);
        let zeros_2: Tile<i32, { [] }> = constant(0i32, shape![]);
        let rem_neg_2: Tile<bool, { [] }> = lt_tile(rem_raw_2, zeros_2);
        let num_bid_in_group_t_2_neg: Tile<bool, { [] }> = lt_tile(num_bid_in_group_t_2, zeros_2);
        let rem_signs_2: Tile<bool, { [] }> = xori(rem_neg_2, num_bid_in_group_t_2_neg);
        let rem_nonzero_2: Tile<bool, { [] }> = ne_tile(rem_raw_2, zeros_2);
        let rem_fix_2: Tile<bool, { [] }> = andi(rem_signs_2, rem_nonzero_2);
        let rem_shifted_2: Tile<i32, { [] }> = rem_raw_2 + num_bid_in_group_t_2;
        let rem_2: Tile<i32, { [] }> = select(rem_fix_2, rem_shifted_2, rem_raw_2);
        let bid_n: Tile<i32, { [] }> = divi(rem_2, group_size_m, rounding::NegativeInf);
        let A_part: Partition<f32, { [TILE_SIZE_M, TILE_SIZE_K] }> = unsafe { make_partition_view(A, shape![TILE_SIZE_M, TILE_SIZE_K], padding::None, dim_map::Identity, A.token()) };
        let num_tiles_k: i32 = num_tiles(&A_part, 1i32);
        let mut accumulator: Tile<f32, { [TILE_SIZE_M, TILE_SIZE_N] }> = constant(0.0f32, shape![TILE_SIZE_M, TILE_SIZE_N]);
        let idx: i32 = tile_to_scalar(bid_m);
        let A_part_2: Partition<f32, { [TILE_SIZE_M, TILE_SIZE_K] }> = A.partition(shape![TILE_SIZE_M, TILE_SIZE_K]);
        let idx_2: i32 = tile_to_scalar(bid_n);
        let B_part: Partition<f32, { [TILE_SIZE_K, TILE_SIZE_N] }> = B.partition(shape![TILE_SIZE_K, TILE_SIZE_N]);
        for k in 0i32..num_tiles_k {
            let A_tile: Tile<f32, { [TILE_SIZE_M, TILE_SIZE_K] }> = A_part_2.load([idx, k]);
            let a: Tile<tf32, { [TILE_SIZE_M, TILE_SIZE_K] }> = convert_tile(A_tile);
            let B_tile: Tile<f32, { [TILE_SIZE_K, TILE_SIZE_N] }> = B_part.load([k, idx_2]);
            let b: Tile<tf32, { [TILE_SIZE_K, TILE_SIZE_N] }> = convert_tile(B_tile);
            let accumulator_next: Tile<f32, { [TILE_SIZE_M, TILE_SIZE_N] }> = mma(a, b, accumulator);
            accumulator = accumulator_next;
        }
        let accumulator_2: Tile<f32, { [TILE_SIZE_M, TILE_SIZE_N] }> = accumulator;
        let idx_3: i32 = tile_to_scalar(bid_m);
        let idx_4: i32 = tile_to_scalar(bid_n);
        let mut C_part: PartitionMut<f32, { [TILE_SIZE_M, TILE_SIZE_N] }> =
            unsafe { C.partition_full_mut(shape![TILE_SIZE_M, TILE_SIZE_N]) };
        C_part.store(accumulator_2, [idx_3, idx_4]);
    }
}
