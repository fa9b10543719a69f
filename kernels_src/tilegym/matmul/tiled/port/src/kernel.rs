//! Port of tilegym.ops.cutile.matmul:_matmul_kernel: one 1-D grid of output tiles, each
//! block's (bid_m, bid_n) swizzled in groups of GROUP_SIZE_M = 8 rows of tiles (floor
//! division and modulo as Python's), a K loop of zero-padded loads and mma onto a float32
//! accumulator, one store. float32 inputs are converted to tf32 for the tensor cores.
#[cutile::module]
pub mod matmul_tiled_port {
    use cutile::core::*;

    // One entry per dtype: the mma operand type is tf32 for float32 inputs (a type, which
    // no generic can branch on); the body is shared. The launch hints come with the call.
    #[cutile::entry(unchecked_accesses = true)]
    pub unsafe fn matmul_tiled_f16<E: ElementType, const TILE_SIZE_M: i32, const TILE_SIZE_N: i32, const TILE_SIZE_K: i32>(
        A: &Tensor<E, { [-1, -1] }>,
        B: &Tensor<E, { [-1, -1] }>,
        C: &Tensor<E, { [-1, -1] }>,
    ) {
        unsafe { body::<E, TILE_SIZE_M, TILE_SIZE_N, TILE_SIZE_K, 0>(A, B, C) }
    }

    #[cutile::entry(unchecked_accesses = true)]
    pub unsafe fn matmul_tiled_bf16<E: ElementType, const TILE_SIZE_M: i32, const TILE_SIZE_N: i32, const TILE_SIZE_K: i32>(
        A: &Tensor<E, { [-1, -1] }>,
        B: &Tensor<E, { [-1, -1] }>,
        C: &Tensor<E, { [-1, -1] }>,
    ) {
        unsafe { body::<E, TILE_SIZE_M, TILE_SIZE_N, TILE_SIZE_K, 0>(A, B, C) }
    }

    #[cutile::entry(unchecked_accesses = true)]
    pub unsafe fn matmul_tiled_f32<E: ElementType, const TILE_SIZE_M: i32, const TILE_SIZE_N: i32, const TILE_SIZE_K: i32>(
        A: &Tensor<E, { [-1, -1] }>,
        B: &Tensor<E, { [-1, -1] }>,
        C: &Tensor<E, { [-1, -1] }>,
    ) {
        unsafe { body::<E, TILE_SIZE_M, TILE_SIZE_N, TILE_SIZE_K, 1>(A, B, C) }
    }

    /// The kernel's body: E the arrays' element type, T the mma operand type.
    unsafe fn body<E: ElementType, const TILE_SIZE_M: i32, const TILE_SIZE_N: i32, const TILE_SIZE_K: i32, const TF32: i32>(
        A: &Tensor<E, { [-1, -1] }>,
        B: &Tensor<E, { [-1, -1] }>,
        C: &Tensor<E, { [-1, -1] }>,
    ) {
        let group_size: Tile<i32, { [] }> = constant(8i32, shape![]);
        let M: i32 = get_shape_dim(A.shape(), 0i32);
        let N: i32 = get_shape_dim(B.shape(), 1i32);
        // _swizzle_2d(M, N, TILE_SIZE_M, TILE_SIZE_N, GROUP_SIZE_M = 8)
        let bid: i32 = get_tile_block_id().0;
        let num_bid_m: i32 = ceil_div(M, TILE_SIZE_M);
        let num_bid_n: i32 = ceil_div(N, TILE_SIZE_N);
        let num_bid_in_group: i32 = 8i32 * num_bid_n;
        let bid_t: Tile<i32, { [] }> = scalar_to_tile(bid);
        let in_group: Tile<i32, { [] }> = scalar_to_tile(num_bid_in_group);
        let group_id: Tile<i32, { [] }> = divi(bid_t, in_group, rounding::NegativeInf);
        let first_bid_m: Tile<i32, { [] }> = group_id * group_size;
        let num_bid_m_t: Tile<i32, { [] }> = scalar_to_tile(num_bid_m);
        let group_size_m: Tile<i32, { [] }> = mini(num_bid_m_t - first_bid_m, group_size);
        let zero: Tile<i32, { [] }> = constant(0i32, shape![]);
        // bid % group_size_m, with Python's sign (the divisor's)
        let rem_raw: Tile<i32, { [] }> = remi(bid_t, group_size_m);
        let fix: Tile<bool, { [] }> = andi(xori(lt_tile(rem_raw, zero), lt_tile(group_size_m, zero)),
                                           ne_tile(rem_raw, zero));
        let rem: Tile<i32, { [] }> = select(fix, rem_raw + group_size_m, rem_raw);
        let bid_m: Tile<i32, { [] }> = first_bid_m + rem;
        // (bid % num_bid_in_group) // group_size_m
        let rem_raw_2: Tile<i32, { [] }> = remi(bid_t, in_group);
        let fix_2: Tile<bool, { [] }> = andi(xori(lt_tile(rem_raw_2, zero), lt_tile(in_group, zero)),
                                             ne_tile(rem_raw_2, zero));
        let rem_2: Tile<i32, { [] }> = select(fix_2, rem_raw_2 + in_group, rem_raw_2);
        let bid_n: Tile<i32, { [] }> = divi(rem_2, group_size_m, rounding::NegativeInf);
        // ct.num_tiles(A, axis=1, shape=(TILE_SIZE_M, TILE_SIZE_K)): an unpadded view's count
        let a_grid: Partition<E, { [TILE_SIZE_M, TILE_SIZE_K] }> = unsafe {
            make_partition_view(A, shape![TILE_SIZE_M, TILE_SIZE_K], padding::None, dim_map::Identity, A.token())
        };
        let num_tiles_k: i32 = num_tiles(&a_grid, 1i32);
        let mut accumulator: Tile<f32, { [TILE_SIZE_M, TILE_SIZE_N] }> = constant(0.0f32, shape![TILE_SIZE_M, TILE_SIZE_N]);
        let m: i32 = tile_to_scalar(bid_m);
        let n: i32 = tile_to_scalar(bid_n);
        let a_tiles: Partition<E, { [TILE_SIZE_M, TILE_SIZE_K] }> = A.partition(shape![TILE_SIZE_M, TILE_SIZE_K]);
        let b_tiles: Partition<E, { [TILE_SIZE_K, TILE_SIZE_N] }> = B.partition(shape![TILE_SIZE_K, TILE_SIZE_N]);
        for k in 0i32..num_tiles_k {
            let a: Tile<E, { [TILE_SIZE_M, TILE_SIZE_K] }> = a_tiles.load([m, k]);
            let b: Tile<E, { [TILE_SIZE_K, TILE_SIZE_N] }> = b_tiles.load([k, n]);
            if TF32 == 1 {
                let a: Tile<tf32, { [TILE_SIZE_M, TILE_SIZE_K] }> = convert_tile(a);
                let b: Tile<tf32, { [TILE_SIZE_K, TILE_SIZE_N] }> = convert_tile(b);
                accumulator = mma(a, b, accumulator);
            } else {
                accumulator = mma(a, b, accumulator);
            }
        }
        let out: Tile<E, { [TILE_SIZE_M, TILE_SIZE_N] }> = convert_tile(accumulator);
        let mut c_tiles: PartitionMut<E, { [TILE_SIZE_M, TILE_SIZE_N] }> =
            unsafe { C.partition_full_mut(shape![TILE_SIZE_M, TILE_SIZE_N]) };
        c_tiles.store(out, [m, n]);
    }
}
