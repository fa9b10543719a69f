//! Row softmax, the same tile program as kernels_src/softmax/kernel.py: one block per row,
//! the row in one (1, TILE_COLS) tile padded with -inf.

#[cutile::module]
pub mod softmax_port {
    use cutile::core::*;

    // the Python kernel's hints (cuTile Python's apply to every GPU; cutile names each)
    #[cutile::entry(unchecked_accesses = true, optimization_hints = (
        sm_90 = (occupancy = 8, num_worker_warps_per_cta = 8),
        sm_100 = (occupancy = 8, num_worker_warps_per_cta = 8)))]
    pub unsafe fn softmax<E: ElementType, const TILE_COLS: i32>(
        x: &Tensor<E, { [-1, -1] }>,
        out: &mut Tensor<E, { [1, TILE_COLS] }>,
    ) {
        // One ordering token for both arrays, as cuTile Python threads its entry token
        // through every load and store (nothing is written before this point).
        unsafe { out.set_token(x.token()) };
        let block: (i32, i32, i32) = get_tile_block_id();
        let rows: Partition<E, { [1, TILE_COLS] }> = unsafe {
            make_partition_view(x, const_shape![1, TILE_COLS], padding::NegInf, dim_map::Identity,
                                x.token())
        };
        let raw: Tile<E, { [1, TILE_COLS] }> = rows.load([block.0, 0i32]);
        let t: Tile<f32, { [1, TILE_COLS] }> = convert_tile(raw);
        let row_max: Tile<f32, { [1] }> = reduce_max(t, 1i32);
        let row_max: Tile<f32, { [1, TILE_COLS] }> =
            row_max.reshape(const_shape![1, 1]).broadcast(const_shape![1, TILE_COLS]);
        let e: Tile<f32, { [1, TILE_COLS] }> = exp(t - row_max);
        let row_sum: Tile<f32, { [1] }> = reduce_sum(e, 1i32);
        let row_sum: Tile<f32, { [1, TILE_COLS] }> =
            row_sum.reshape(const_shape![1, 1]).broadcast(const_shape![1, TILE_COLS]);
        let result: Tile<E, { [1, TILE_COLS] }> = convert_tile(e / row_sum);
        // a dynamic-shape output stores at exactly (row, 0), as the Python kernel does
        let mut rows_out: PartitionMut<E, { [1, TILE_COLS] }> =
            unsafe { out.partition_full_mut(const_shape![1, TILE_COLS]) };
        rows_out.store(result, [block.0, 0i32]);
    }
}
