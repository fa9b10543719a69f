//! Port of tilegym.ops.cutile.bmm:_static_persistent_bmm_kernel: a static persistent loop
//! over the batch's output tiles (`for current_bid in range(bid, tiles * Batch, num_blocks)`),
//! each tile's (bid_q, bid_m, bid_n) from GROUP_SIZE_M grouping with Python's floor division
//! and modulo, a K loop of zero-padded (1, TILE_M, TILE_K) / (1, TILE_K, TILE_N) loads with a
//! latency hint (transposed inputs loaded as (1, TILE_K, TILE_M) / (1, TILE_N, TILE_K) and
//! permuted), mma onto a float32 accumulator, and one store per tile with the same hint,
//! ordered after the last by a token. M, N and K are constants: every count of tiles is one
//! (cutile folds arithmetic on const generics, as cuTile Python folds its constants).
#[cutile::module]
pub mod bmm_static_persistent_port {
    use cutile::core::*;

    #[cutile::entry(unchecked_accesses = true)]
    pub unsafe fn bmm_static_persistent<E: ElementType, const M: i32, const N: i32, const K: i32, const TILE_M: i32, const TILE_N: i32, const TILE_K: i32, const GROUP_SIZE_M: i32, const LATENCY: i32, const TRANSPOSE_A: bool, const TRANSPOSE_B: bool>(
        A: &Tensor<E, { [-1, -1, -1] }>, B: &Tensor<E, { [-1, -1, -1] }>, C: &Tensor<E, { [-1, -1, -1] }>,
        Batch: i32,
    ) {
        let bid: i32 = get_tile_block_id().0;
        let num_tiles_m: i32 = ceil_div(M, TILE_M);
        let num_tiles_n: i32 = ceil_div(N, TILE_N);
        let total_tiles: i32 = num_tiles_m * num_tiles_n * Batch;
        let num_programs: i32 = get_num_tile_blocks().0;
        // the constants of the tile mapping, and the signs Python's modulo tests (folded)
        let per_batch: i32 = num_tiles_m * num_tiles_n;
        let num_bid_in_group: i32 = GROUP_SIZE_M * num_tiles_n;
        let per_batch_t: Tile<i32, { [] }> = scalar_to_tile(per_batch);
        let in_group_t: Tile<i32, { [] }> = scalar_to_tile(num_bid_in_group);
        let group_t: Tile<i32, { [] }> = scalar_to_tile(GROUP_SIZE_M);
        let num_bid_m_t: Tile<i32, { [] }> = scalar_to_tile(num_tiles_m);
        let zero: Tile<i32, { [] }> = constant(0i32, shape![]);
        let per_batch_neg: bool = per_batch < 0;
        let per_batch_neg: Tile<bool, { [] }> = scalar_to_tile(per_batch_neg);
        let in_group_neg: bool = num_bid_in_group < 0;
        let in_group_neg: Tile<bool, { [] }> = scalar_to_tile(in_group_neg);
        // both layouts' views; the branch not taken leaves its view unused
        let a_rows: Partition<E, { [1, TILE_M, TILE_K] }> = A.partition(shape![1, TILE_M, TILE_K]);
        let a_cols: Partition<E, { [1, TILE_K, TILE_M] }> = A.partition(shape![1, TILE_K, TILE_M]);
        let b_rows: Partition<E, { [1, TILE_K, TILE_N] }> = B.partition(shape![1, TILE_K, TILE_N]);
        let b_cols: Partition<E, { [1, TILE_N, TILE_K] }> = B.partition(shape![1, TILE_N, TILE_K]);
        let c_tiles: PartitionMut<E, { [1, TILE_M, TILE_N] }> = unsafe { C.partition_full_mut(shape![1, TILE_M, TILE_N]) };
        let mut written: Token = C.token();
        for current_bid in (bid..total_tiles).step_by(num_programs as usize) {
            let cur: Tile<i32, { [] }> = scalar_to_tile(current_bid);
            let bid_q: Tile<i32, { [] }> = divi(cur, per_batch_t, rounding::NegativeInf);
            // current_bid % (num_bid_m * num_bid_n)
            let r: Tile<i32, { [] }> = remi(cur, per_batch_t);
            let fix: Tile<bool, { [] }> = andi(xori(per_batch_neg, lt_tile(r, zero)), ne_tile(r, zero));
            let bid_2d: Tile<i32, { [] }> = select(fix, per_batch_t + r, r);
            let group_id: Tile<i32, { [] }> = divi(bid_2d, in_group_t, rounding::NegativeInf);
            let first_bid_m: Tile<i32, { [] }> = group_t * group_id;
            let group_size_m: Tile<i32, { [] }> = mini(group_t, num_bid_m_t - first_bid_m);
            // bid_2d % group_size_m
            let r2: Tile<i32, { [] }> = remi(bid_2d, group_size_m);
            let fix2: Tile<bool, { [] }> = andi(xori(lt_tile(r2, zero), lt_tile(group_size_m, zero)), ne_tile(r2, zero));
            let bid_m: Tile<i32, { [] }> = first_bid_m + select(fix2, group_size_m + r2, r2);
            // (bid_2d % num_bid_in_group) // group_size_m
            let r3: Tile<i32, { [] }> = remi(bid_2d, in_group_t);
            let fix3: Tile<bool, { [] }> = andi(xori(in_group_neg, lt_tile(r3, zero)), ne_tile(r3, zero));
            let bid_n: Tile<i32, { [] }> = divi(select(fix3, in_group_t + r3, r3), group_size_m, rounding::NegativeInf);
            let mut accumulator: Tile<f32, { [TILE_M, TILE_N] }> = constant(0.0f32, shape![TILE_M, TILE_N]);
            let q: i32 = tile_to_scalar(bid_q);
            let m: i32 = tile_to_scalar(bid_m);
            let n: i32 = tile_to_scalar(bid_n);
            for k_tile in 0i32..ceil_div(K, TILE_K) {
                let a: Tile<E, { [1, TILE_M, TILE_K] }> = if TRANSPOSE_A {
                    let t: Tile<E, { [1, TILE_K, TILE_M] }> =
                        load_view_tko(&a_cols, [q, k_tile, m], ordering::Weak, scope::TileBlock, Some(LATENCY), tma::Enabled);
                    permute(t, const_array![0, 2, 1])
                } else {
                    let t: Tile<E, { [1, TILE_M, TILE_K] }> =
                        load_view_tko(&a_rows, [q, m, k_tile], ordering::Weak, scope::TileBlock, Some(LATENCY), tma::Enabled);
                    t
                };
                let a: Tile<E, { [TILE_M, TILE_K] }> = a.reshape(shape![TILE_M, TILE_K]);
                let b: Tile<E, { [1, TILE_K, TILE_N] }> = if TRANSPOSE_B {
                    let t: Tile<E, { [1, TILE_N, TILE_K] }> =
                        load_view_tko(&b_cols, [q, n, k_tile], ordering::Weak, scope::TileBlock, Some(LATENCY), tma::Enabled);
                    permute(t, const_array![0, 2, 1])
                } else {
                    let t: Tile<E, { [1, TILE_K, TILE_N] }> =
                        load_view_tko(&b_rows, [q, k_tile, n], ordering::Weak, scope::TileBlock, Some(LATENCY), tma::Enabled);
                    t
                };
                let b: Tile<E, { [TILE_K, TILE_N] }> = b.reshape(shape![TILE_K, TILE_N]);
                accumulator = mma(a, b, accumulator);
            }
            let result: Tile<E, { [TILE_M, TILE_N] }> = convert_tile(accumulator);
            let result: Tile<E, { [1, TILE_M, TILE_N] }> = result.reshape(shape![1, TILE_M, TILE_N]);
            written = unsafe {
                store_view_raw(&c_tiles, result, [q, m, n], Some(written), ordering::Weak, scope::TileBlock,
                               tma::Enabled, Some(LATENCY), [false, false, false])
            };
        }
    }
}
