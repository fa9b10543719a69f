//! Port of tilegym.ops.cutile.matmul:_static_persistent_matmul_kernel: a static persistent
//! loop over output tiles (`for tile_id in range(bid, tiles, num_blocks)`), each tile's
//! (bid_m, bid_n) grouped by GROUP_SIZE_M rows of tiles (_compute_bid, Python's floor
//! division and modulo), a K loop of zero-padded loads (transposed views loaded as
//! (TILE_SIZE_K, TILE_SIZE_M) / (TILE_SIZE_N, TILE_SIZE_K) tiles and permuted; a load
//! latency hint when LOAD_LATENCY >= 1), mma onto a float32 accumulator, and one store per
//! tile, ordered after the last by a token. float32 inputs go through tf32.
#[cutile::module]
pub mod matmul_static_persistent_port {
    use cutile::core::*;

    // One entry per dtype (float32 converts to tf32, a type no generic can branch on); the
    // body is shared. TRANSPOSE_A, TRANSPOSE_B and LOAD_LATENCY are constant branches.
    #[cutile::entry(unchecked_accesses = true)]
    pub unsafe fn matmul_static_persistent_f16<E: ElementType, const TILE_SIZE_M: i32, const TILE_SIZE_N: i32, const TILE_SIZE_K: i32, const TRANSPOSE_A: bool, const TRANSPOSE_B: bool, const GROUP_SIZE_M: i32, const LOAD_LATENCY: i32>(
        A: &Tensor<E, { [-1, -1] }>, B: &Tensor<E, { [-1, -1] }>, C: &Tensor<E, { [-1, -1] }>,
        M: i32, N: i32, K: i32,
    ) {
        unsafe { body::<E, TILE_SIZE_M, TILE_SIZE_N, TILE_SIZE_K, TRANSPOSE_A, TRANSPOSE_B, GROUP_SIZE_M, LOAD_LATENCY, 0>(A, B, C, M, N, K) }
    }

    #[cutile::entry(unchecked_accesses = true)]
    pub unsafe fn matmul_static_persistent_bf16<E: ElementType, const TILE_SIZE_M: i32, const TILE_SIZE_N: i32, const TILE_SIZE_K: i32, const TRANSPOSE_A: bool, const TRANSPOSE_B: bool, const GROUP_SIZE_M: i32, const LOAD_LATENCY: i32>(
        A: &Tensor<E, { [-1, -1] }>, B: &Tensor<E, { [-1, -1] }>, C: &Tensor<E, { [-1, -1] }>,
        M: i32, N: i32, K: i32,
    ) {
        unsafe { body::<E, TILE_SIZE_M, TILE_SIZE_N, TILE_SIZE_K, TRANSPOSE_A, TRANSPOSE_B, GROUP_SIZE_M, LOAD_LATENCY, 0>(A, B, C, M, N, K) }
    }

    #[cutile::entry(unchecked_accesses = true)]
    pub unsafe fn matmul_static_persistent_f32<E: ElementType, const TILE_SIZE_M: i32, const TILE_SIZE_N: i32, const TILE_SIZE_K: i32, const TRANSPOSE_A: bool, const TRANSPOSE_B: bool, const GROUP_SIZE_M: i32, const LOAD_LATENCY: i32>(
        A: &Tensor<E, { [-1, -1] }>, B: &Tensor<E, { [-1, -1] }>, C: &Tensor<E, { [-1, -1] }>,
        M: i32, N: i32, K: i32,
    ) {
        unsafe { body::<E, TILE_SIZE_M, TILE_SIZE_N, TILE_SIZE_K, TRANSPOSE_A, TRANSPOSE_B, GROUP_SIZE_M, LOAD_LATENCY, 1>(A, B, C, M, N, K) }
    }

    /// The kernel's body; TF32 = 1 converts the operands to tf32 before the mma.
    unsafe fn body<E: ElementType, const TILE_SIZE_M: i32, const TILE_SIZE_N: i32, const TILE_SIZE_K: i32, const TRANSPOSE_A: bool, const TRANSPOSE_B: bool, const GROUP_SIZE_M: i32, const LOAD_LATENCY: i32, const TF32: i32>(
        A: &Tensor<E, { [-1, -1] }>, B: &Tensor<E, { [-1, -1] }>, C: &Tensor<E, { [-1, -1] }>,
        M: i32, N: i32, K: i32,
    ) {
        let start_bid: i32 = get_tile_block_id().0;
        let num_bid_m: i32 = ceil_div(M, TILE_SIZE_M);
        let num_bid_n: i32 = ceil_div(N, TILE_SIZE_N);
        let k_tiles: i32 = ceil_div(K, TILE_SIZE_K);
        let num_tiles: i32 = num_bid_m * num_bid_n;
        let num_programs: i32 = get_num_tile_blocks().0;
        let group: Tile<i32, { [] }> = scalar_to_tile(GROUP_SIZE_M);
        let zero: Tile<i32, { [] }> = constant(0i32, shape![]);
        let num_bid_in_group: i32 = GROUP_SIZE_M * num_bid_n;
        let in_group: Tile<i32, { [] }> = scalar_to_tile(num_bid_in_group);
        let in_group_neg: Tile<bool, { [] }> = lt_tile(in_group, zero);
        let num_bid_m_t: Tile<i32, { [] }> = scalar_to_tile(num_bid_m);
        // both layouts' views; the branch not taken leaves its view unused
        let a_rows: Partition<E, { [TILE_SIZE_M, TILE_SIZE_K] }> = A.partition(shape![TILE_SIZE_M, TILE_SIZE_K]);
        let a_cols: Partition<E, { [TILE_SIZE_K, TILE_SIZE_M] }> = A.partition(shape![TILE_SIZE_K, TILE_SIZE_M]);
        let b_rows: Partition<E, { [TILE_SIZE_K, TILE_SIZE_N] }> = B.partition(shape![TILE_SIZE_K, TILE_SIZE_N]);
        let b_cols: Partition<E, { [TILE_SIZE_N, TILE_SIZE_K] }> = B.partition(shape![TILE_SIZE_N, TILE_SIZE_K]);
        let c_tiles: PartitionMut<E, { [TILE_SIZE_M, TILE_SIZE_N] }> =
            unsafe { C.partition_full_mut(shape![TILE_SIZE_M, TILE_SIZE_N]) };
        let mut written: Token = C.token();
        for tile_id in (start_bid..num_tiles).step_by(num_programs as usize) {
            // _compute_bid(tile_id, num_bid_in_group, num_bid_m, GROUP_SIZE_M)
            let tile: Tile<i32, { [] }> = scalar_to_tile(tile_id);
            let group_id: Tile<i32, { [] }> = divi(tile, in_group, rounding::NegativeInf);
            let first_bid_m: Tile<i32, { [] }> = group_id * group;
            let group_size_m: Tile<i32, { [] }> = mini(num_bid_m_t - first_bid_m, group);
            let rem_raw: Tile<i32, { [] }> = remi(tile, group_size_m);
            let fix: Tile<bool, { [] }> = andi(xori(lt_tile(rem_raw, zero), lt_tile(group_size_m, zero)),
                                               ne_tile(rem_raw, zero));
            let bid_m: Tile<i32, { [] }> = first_bid_m + select(fix, rem_raw + group_size_m, rem_raw);
            let rem_raw_2: Tile<i32, { [] }> = remi(tile, in_group);
            let fix_2: Tile<bool, { [] }> = andi(xori(lt_tile(rem_raw_2, zero), in_group_neg), ne_tile(rem_raw_2, zero));
            let rem_2: Tile<i32, { [] }> = select(fix_2, rem_raw_2 + in_group, rem_raw_2);
            let bid_n: Tile<i32, { [] }> = divi(rem_2, group_size_m, rounding::NegativeInf);
            let mut accumulator: Tile<f32, { [TILE_SIZE_M, TILE_SIZE_N] }> = constant(0.0f32, shape![TILE_SIZE_M, TILE_SIZE_N]);
            let m: i32 = tile_to_scalar(bid_m);
            let n: i32 = tile_to_scalar(bid_n);
            for k_tile in 0i32..k_tiles {
                let a: Tile<E, { [TILE_SIZE_M, TILE_SIZE_K] }> = if TRANSPOSE_A {
                    let t: Tile<E, { [TILE_SIZE_K, TILE_SIZE_M] }> = if LOAD_LATENCY >= 1 {
                        let l: Tile<E, { [TILE_SIZE_K, TILE_SIZE_M] }> =
                            load_view_tko(&a_cols, [k_tile, m], ordering::Weak, scope::TileBlock, Some(LOAD_LATENCY), tma::Enabled);
                        l
                    } else {
                        a_cols.load([k_tile, m])
                    };
                    permute(t, const_array![1, 0])
                } else if LOAD_LATENCY >= 1 {
                    let l: Tile<E, { [TILE_SIZE_M, TILE_SIZE_K] }> =
                        load_view_tko(&a_rows, [m, k_tile], ordering::Weak, scope::TileBlock, Some(LOAD_LATENCY), tma::Enabled);
                    l
                } else {
                    a_rows.load([m, k_tile])
                };
                let b: Tile<E, { [TILE_SIZE_K, TILE_SIZE_N] }> = if TRANSPOSE_B {
                    let t: Tile<E, { [TILE_SIZE_N, TILE_SIZE_K] }> = if LOAD_LATENCY >= 1 {
                        let l: Tile<E, { [TILE_SIZE_N, TILE_SIZE_K] }> =
                            load_view_tko(&b_cols, [n, k_tile], ordering::Weak, scope::TileBlock, Some(LOAD_LATENCY), tma::Enabled);
                        l
                    } else {
                        b_cols.load([n, k_tile])
                    };
                    permute(t, const_array![1, 0])
                } else if LOAD_LATENCY >= 1 {
                    let l: Tile<E, { [TILE_SIZE_K, TILE_SIZE_N] }> =
                        load_view_tko(&b_rows, [k_tile, n], ordering::Weak, scope::TileBlock, Some(LOAD_LATENCY), tma::Enabled);
                    l
                } else {
                    b_rows.load([k_tile, n])
                };
                if TF32 == 1 {
                    let a: Tile<tf32, { [TILE_SIZE_M, TILE_SIZE_K] }> = convert_tile(a);
                    let b: Tile<tf32, { [TILE_SIZE_K, TILE_SIZE_N] }> = convert_tile(b);
                    accumulator = mma(a, b, accumulator);
                } else {
                    accumulator = mma(a, b, accumulator);
                }
            }
            let result: Tile<E, { [TILE_SIZE_M, TILE_SIZE_N] }> = convert_tile(accumulator);
            written = unsafe {
                store_view_raw(&c_tiles, result, [m, n], Some(written), ordering::Weak, scope::TileBlock,
                               tma::Enabled, None, [false, false])
            };
        }
    }
}
