//! Port of kernels_src/matmul/kernel.py: c = a @ b, f32 accumulator, one output tile per block.
#[cutile::module]
pub mod matmul_port {
    use cutile::core::*;

    #[cutile::entry(unchecked_accesses = true)]
    pub unsafe fn matmul<E: ElementType, const TILE_M: i32, const TILE_N: i32, const TILE_K: i32>(
        a: &Tensor<E, { [-1, -1] }>,
        b: &Tensor<E, { [-1, -1] }>,
        c: &mut Tensor<E, { [TILE_M, TILE_N] }>,
    ) {
        let m_block: i32 = get_tile_block_id().0;
        let n_block: i32 = get_tile_block_id().1;
        // ct.num_tiles(a, axis=1, shape=(TILE_M, TILE_K)): tile count of an unpadded view of a.
        let a_grid: Partition<E, { [TILE_M, TILE_K] }> = unsafe {
            make_partition_view(a, shape![TILE_M, TILE_K], padding::None, dim_map::Identity, a.token())
        };
        let k_tiles: i32 = num_tiles(&a_grid, 1i32);
        let mut acc: Tile<f32, { [TILE_M, TILE_N] }> = constant(0.0f32, shape![TILE_M, TILE_N]);
        // Zero padding: the partial last K tile contributes nothing.
        let a_tiles: Partition<E, { [TILE_M, TILE_K] }> = a.partition(shape![TILE_M, TILE_K]);
        let b_tiles: Partition<E, { [TILE_K, TILE_N] }> = b.partition(shape![TILE_K, TILE_N]);
        for k in 0i32..k_tiles {
            let a_tile: Tile<E, { [TILE_M, TILE_K] }> = a_tiles.load([m_block, k]);
            let b_tile: Tile<E, { [TILE_K, TILE_N] }> = b_tiles.load([k, n_block]);
            acc = mma(a_tile, b_tile, acc);
        }
        let out: Tile<E, { [TILE_M, TILE_N] }> = convert_tile(acc);
        let mut c_tiles: PartitionMut<E, { [TILE_M, TILE_N] }> =
            unsafe { c.partition_full_mut(shape![TILE_M, TILE_N]) };
        c_tiles.store(out, [m_block, n_block]);
    }
}
