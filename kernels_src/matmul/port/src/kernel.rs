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

    /// Program 1 of the port (port.toml `programs`), which `workbench tune` may choose per
    /// shape; the IR diff compares `matmul` alone, and this one is checked by its numbers.
    /// Persistent: each block walks the output tiles bid, bid + grid, ... (the launch makes
    /// the grid the SM count times the occupancy), taken GROUP_M rows of tiles at a time so
    /// that consecutive tiles share a's rows and b's columns in L2.
    #[cutile::entry(unchecked_accesses = true)]
    pub unsafe fn matmul_persistent<E: ElementType, const TILE_M: i32, const TILE_N: i32, const TILE_K: i32>(
        a: &Tensor<E, { [-1, -1] }>,
        b: &Tensor<E, { [-1, -1] }>,
        c: &Tensor<E, { [-1, -1] }>,
    ) {
        let first: i32 = get_tile_block_id().0;
        let blocks: i32 = get_num_tile_blocks().0;
        let rows: i32 = get_shape_dim(c.shape(), 0i32);
        let cols: i32 = get_shape_dim(c.shape(), 1i32);
        let depth: i32 = get_shape_dim(a.shape(), 1i32);
        let m_tiles: i32 = ceil_div(rows, TILE_M);
        let n_tiles: i32 = ceil_div(cols, TILE_N);
        let k_tiles: i32 = ceil_div(depth, TILE_K);
        let tiles: i32 = m_tiles * n_tiles;
        let group: Tile<i32, { [] }> = constant(8i32, shape![]);        // GROUP_M
        let n_tiles_t: Tile<i32, { [] }> = scalar_to_tile(n_tiles);
        let m_tiles_t: Tile<i32, { [] }> = scalar_to_tile(m_tiles);
        let per_group: Tile<i32, { [] }> = group * n_tiles_t;
        let a_tiles: Partition<E, { [TILE_M, TILE_K] }> = a.partition(shape![TILE_M, TILE_K]);
        let b_tiles: Partition<E, { [TILE_K, TILE_N] }> = b.partition(shape![TILE_K, TILE_N]);
        let c_tiles: PartitionMut<E, { [TILE_M, TILE_N] }> =
            unsafe { c.partition_full_mut(shape![TILE_M, TILE_N]) };
        let mut written: Token = c.token();
        for tile_id in (first..tiles).step_by(blocks as usize) {
            // every operand is >= 0: the divisions round down either way
            let t: Tile<i32, { [] }> = scalar_to_tile(tile_id);
            let group_id: Tile<i32, { [] }> = divi(t, per_group, rounding::NegativeInf);
            let first_m: Tile<i32, { [] }> = group_id * group;
            let group_rows: Tile<i32, { [] }> = mini(m_tiles_t - first_m, group);
            let in_group: Tile<i32, { [] }> = remi(t, per_group);
            let m_t: Tile<i32, { [] }> = first_m + remi(in_group, group_rows);
            let n_t: Tile<i32, { [] }> = divi(in_group, group_rows, rounding::NegativeInf);
            let m: i32 = tile_to_scalar(m_t);
            let n: i32 = tile_to_scalar(n_t);
            let mut acc: Tile<f32, { [TILE_M, TILE_N] }> = constant(0.0f32, shape![TILE_M, TILE_N]);
            for k in 0i32..k_tiles {
                let a_tile: Tile<E, { [TILE_M, TILE_K] }> = a_tiles.load([m, k]);
                let b_tile: Tile<E, { [TILE_K, TILE_N] }> = b_tiles.load([k, n]);
                acc = mma(a_tile, b_tile, acc);
            }
            let out: Tile<E, { [TILE_M, TILE_N] }> = convert_tile(acc);
            written = unsafe {
                store_view_raw(&c_tiles, out, [m, n], Some(written), ordering::Weak, scope::TileBlock,
                               tma::Enabled, None, [false, false])
            };
        }
    }
}
