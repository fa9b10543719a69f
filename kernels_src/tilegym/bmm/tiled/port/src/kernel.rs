//! Port of tilegym.ops.cutile.bmm:_bmm_kernel: one block per (M tile, N tile, batch) of a
//! 3-D grid, a K loop of zero-padded (1, TM, TK) and (1, TK, TN) loads reshaped to 2-D, mma
//! onto a float32 accumulator, and one (1, TM, TN) store.
#[cutile::module]
pub mod bmm_tiled_port {
    use cutile::core::*;

    #[cutile::entry(unchecked_accesses = true)]
    pub unsafe fn bmm_tiled<E: ElementType, const TM: i32, const TN: i32, const TK: i32>(
        A: &Tensor<E, { [-1, -1, -1] }>,
        B: &Tensor<E, { [-1, -1, -1] }>,
        C: &Tensor<E, { [-1, -1, -1] }>,
    ) {
        let bidx: i32 = get_tile_block_id().0;
        let bidy: i32 = get_tile_block_id().1;
        let bidz: i32 = get_tile_block_id().2;
        // ct.num_tiles(A, axis=2, shape=(1, TM, TK)): an unpadded view's tile count
        let a_grid: Partition<E, { [1, TM, TK] }> = unsafe {
            make_partition_view(A, shape![1, TM, TK], padding::None, dim_map::Identity, A.token())
        };
        let num_k_tiles: i32 = num_tiles(&a_grid, 2i32);
        let mut sum: Tile<f32, { [TM, TN] }> = constant(0.0f32, shape![TM, TN]);
        let a_tiles: Partition<E, { [1, TM, TK] }> = A.partition(shape![1, TM, TK]);
        let b_tiles: Partition<E, { [1, TK, TN] }> = B.partition(shape![1, TK, TN]);
        for k in 0i32..num_k_tiles {
            let a: Tile<E, { [1, TM, TK] }> = a_tiles.load([bidz, bidx, k]);
            let a: Tile<E, { [TM, TK] }> = a.reshape(shape![TM, TK]);
            let b: Tile<E, { [1, TK, TN] }> = b_tiles.load([bidz, k, bidy]);
            let b: Tile<E, { [TK, TN] }> = b.reshape(shape![TK, TN]);
            sum = mma(a, b, sum);
        }
        let result: Tile<E, { [TM, TN] }> = convert_tile(sum);
        let result: Tile<E, { [1, TM, TN] }> = result.reshape(shape![1, TM, TN]);
        let mut c_tiles: PartitionMut<E, { [1, TM, TN] }> = unsafe { C.partition_full_mut(shape![1, TM, TN]) };
        c_tiles.store(result, [bidz, bidx, bidy]);
    }
}
