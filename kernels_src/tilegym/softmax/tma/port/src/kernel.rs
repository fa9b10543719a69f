//! Port of tilegym.ops.cutile.softmax:_softmax_kernel_tma: a static persistent loop over
//! rows, each row one (1, TILE_SIZE) tile loaded through a -inf padded view (TMA), a float32
//! softmax with approximate exp and division, and one store.
#[cutile::module]
pub mod softmax_tma_port {
    use cutile::core::*;

    #[cutile::entry(unchecked_accesses = true, optimization_hints = (sm_90 = (occupancy = 2,), sm_100 = (occupancy = 2,)))]
    pub unsafe fn softmax_tma<E: ElementType, const N_ROWS: i32, const N_COLS: i32, const TILE_SIZE: i32>(
        output: &Tensor<E, { [-1, -1] }>,
        input: &Tensor<E, { [-1, -1] }>,
    ) {
        let pid: i32 = get_tile_block_id().0;
        let num_programs: i32 = get_num_tile_blocks().0;
        let rows: Partition<E, { [1, TILE_SIZE] }> = unsafe {
            make_partition_view(input, const_shape![1, TILE_SIZE], padding::NegInf, dim_map::Identity, input.token())
        };
        let mut rows_out: PartitionMut<E, { [1, TILE_SIZE] }> =
            unsafe { output.partition_full_mut(const_shape![1, TILE_SIZE]) };
        let col0: i32 = 0i32;
        for row_idx in (pid..N_ROWS).step_by(num_programs as usize) {
            let row: Tile<E, { [1, TILE_SIZE] }> = rows.load([row_idx, col0]);
            let row: Tile<f32, { [1, TILE_SIZE] }> = convert_tile(row);
            let row_max: Tile<f32, { [1] }> = reduce_max(row, 1i32);
            let row_max: Tile<f32, { [1, TILE_SIZE] }> =
                row_max.reshape(const_shape![1, 1]).broadcast(const_shape![1, TILE_SIZE]);
            let num: Tile<f32, { [1, TILE_SIZE] }> = unsafe { exp_with_rounding(row - row_max, rounding::Approx) };
            let den: Tile<f32, { [1] }> = reduce_sum(num, 1i32);
            let den: Tile<f32, { [1, TILE_SIZE] }> =
                den.reshape(const_shape![1, 1]).broadcast(const_shape![1, TILE_SIZE]);
            let out: Tile<f32, { [1, TILE_SIZE] }> = true_div(num, den);
            let out: Tile<E, { [1, TILE_SIZE] }> = convert_tile(out);
            rows_out.store(out, [row_idx, col0]);
        }
    }
}
