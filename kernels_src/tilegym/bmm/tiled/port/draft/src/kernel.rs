//! Drafted by workbench/port/rules from /tmp/tg4_drafter/.venv/lib/python3.11/site-packages/tilegym/ops/cutile/bmm.py (_bmm_kernel); review before use.
#![allow(unused_unsafe, unused_variables, unused_mut)]
#[cutile::module]
pub mod _bmm_kernel_port {
    use cutile::core::*;

    // NOTE unchecked_accesses: the store at an explicit index goes through the full output view; the launcher must keep it in range
    #[cutile::entry(unchecked_accesses = true)]
    pub unsafe fn _bmm_kernel<E: ElementType, const TM: i32, const TN: i32, const TK: i32>(
        A: &Tensor<E, { [-1, -1, -1] }>,
        B: &Tensor<E, { [-1, -1, -1] }>,
        C: &mut Tensor<E, { [1, TM, TN] }>,
    ) {
        let bidx: i32 = get_tile_block_id().0;
        let bidy: i32 = get_tile_block_id().1;
        let bidz: i32 = get_tile_block_id().2;
        let A_part: Partition<E, { [1, TM, TK] }> = unsafe { make_partition_view(A, shape![1, TM, TK], padding::None, dim_map::Identity, A.token()) };
        let num_k_tiles: i32 = num_tiles(&A_part, 2i32);
        let mut sum: Tile<f32, { [TM, TN] }> = constant(0.0f32, shape![TM, TN]);
        let A_part_2: Partition<E, { [1, TM, TK] }> = A.partition(shape![1, TM, TK]);
        let B_part: Partition<E, { [1, TK, TN] }> = B.partition(shape![1, TK, TN]);
        for k in 0i32..num_k_tiles {
            let A_tile: Tile<E, { [1, TM, TK] }> = A_part_2.load([bidz, bidx, k]);
            let a: Tile<E, { [TM, TK] }> = A_tile.reshape(shape![TM, TK]);
            let B_tile: Tile<E, { [1, TK, TN] }> = B_part.load([bidz, k, bidy]);
            let b: Tile<E, { [TK, TN] }> = B_tile.reshape(shape![TK, TN]);
            let sum_next: Tile<f32, { [TM, TN] }> = mma(a, b, sum);
            sum = sum_next;
        }
        let result: Tile<E, { [TM, TN] }> = convert_tile(sum);
        let result_3d: Tile<E, { [1, TM, TN] }> = result.reshape(shape![1, TM, TN]);
        let mut C_part: PartitionMut<E, { [1, TM, TN] }> =
            unsafe { C.partition_full_mut(shape![1, TM, TN]) };
        C_part.store(result_3d, [bidz, bidx, bidy]);
    }
}
