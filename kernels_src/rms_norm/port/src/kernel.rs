//! out = x * rsqrt(mean(x^2) + eps) * weight, one row per tile block (port of kernels_src/rms_norm).
#[cutile::module]
pub mod rms_norm_port {
    use cutile::core::*;

    // the Python kernel's hints (cuTile Python's apply to every GPU; cutile names each)
    #[cutile::entry(unchecked_accesses = true, optimization_hints = (
        sm_90 = (occupancy = 8, num_worker_warps_per_cta = 8),
        sm_100 = (occupancy = 8, num_worker_warps_per_cta = 8)))]
    pub unsafe fn rms_norm<E: ElementType, const TILE_COLS: i32>(
        x: &Tensor<E, { [-1, -1] }>,
        weight: &Tensor<E, { [-1] }>,
        out: &mut Tensor<E, { [1, TILE_COLS] }>,
        eps: f32,
    ) {
        // One ordering token for every array, as cuTile Python threads its single entry token
        // through all loads and stores (no tensor is written before this point).
        let entry_token: Token = x.token();
        unsafe {
            weight.set_token(entry_token);
            out.set_token(entry_token);
        }
        let bid: (i32, i32, i32) = get_tile_block_id();
        let row: i32 = bid.0;
        let cols: i32 = x.shape()[1];
        let xp: Partition<E, { [1, TILE_COLS] }> = x.partition(shape![1, TILE_COLS]);
        let t: Tile<E, { [1, TILE_COLS] }> = xp.load([row, 0i32]);
        let t: Tile<f32, { [1, TILE_COLS] }> = convert_tile(t);
        let sum_sq: Tile<f32, { [1] }> = reduce_sum(t * t, 1i32);
        let sum_sq: Tile<f32, { [1, 1] }> = sum_sq.reshape(shape![1, 1]);
        let cols_i: Tile<i32, { [] }> = scalar_to_tile(cols);
        let cols_f: Tile<f32, { [] }> = convert_tile(cols_i);
        let mean_sq: Tile<f32, { [1, 1] }> = sum_sq / cols_f.reshape(shape![1, 1]);
        let eps_t: Tile<f32, { [] }> = scalar_to_tile(eps);
        let inv_rms: Tile<f32, { [1, 1] }> = rsqrt(mean_sq + eps_t.reshape(shape![1, 1]), ftz::Disabled);
        let wp: Partition<E, { [TILE_COLS] }> = weight.partition(shape![TILE_COLS]);
        let w: Tile<E, { [TILE_COLS] }> = wp.load([0i32]);
        let w: Tile<f32, { [TILE_COLS] }> = convert_tile(w);
        let y: Tile<f32, { [1, TILE_COLS] }> =
            t * inv_rms.broadcast(shape![1, TILE_COLS]) * w.reshape(shape![1, TILE_COLS]);
        let y: Tile<E, { [1, TILE_COLS] }> = convert_tile(y);
        let mut op: PartitionMut<E, { [1, TILE_COLS] }> =
            unsafe { out.partition_full_mut(shape![1, TILE_COLS]) };
        op.store(y, [row, 0i32]);
    }
}
