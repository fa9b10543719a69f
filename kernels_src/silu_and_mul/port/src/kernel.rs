//! out = silu(gate) * up over [TILE_ROWS, TILE_COLS] tiles (port of kernels_src/silu_and_mul).
#[cutile::module]
pub mod silu_and_mul_port {
    use cutile::core::*;

    // the Python kernel's hints (cuTile Python's apply to every GPU; cutile names each)
    #[cutile::entry(optimization_hints = (
        sm_90 = (occupancy = 8, num_worker_warps_per_cta = 8),
        sm_100 = (occupancy = 8, num_worker_warps_per_cta = 8)))]
    pub fn silu_and_mul<E: ElementType, const TILE_ROWS: i32, const TILE_COLS: i32>(
        gate: &Tensor<E, { [-1, -1] }>,
        up: &Tensor<E, { [-1, -1] }>,
        out: &mut Tensor<E, { [TILE_ROWS, TILE_COLS] }>,
    ) {
        // One ordering token for every array, as cuTile Python threads its single entry token
        // through all loads and stores (no tensor is written before this point).
        let entry_token: Token = gate.token();
        unsafe {
            up.set_token(entry_token);
            out.set_token(entry_token);
        }
        let bid: (i32, i32, i32) = get_tile_block_id();
        let gp: Partition<E, { [TILE_ROWS, TILE_COLS] }> = gate.partition(shape![TILE_ROWS, TILE_COLS]);
        let g: Tile<E, { [TILE_ROWS, TILE_COLS] }> = gp.load([bid.0, bid.1]);
        let up_p: Partition<E, { [TILE_ROWS, TILE_COLS] }> = up.partition(shape![TILE_ROWS, TILE_COLS]);
        let u: Tile<E, { [TILE_ROWS, TILE_COLS] }> = up_p.load([bid.0, bid.1]);
        let g: Tile<f32, { [TILE_ROWS, TILE_COLS] }> = convert_tile(g);
        let u: Tile<f32, { [TILE_ROWS, TILE_COLS] }> = convert_tile(u);
        let e: Tile<f32, { [TILE_ROWS, TILE_COLS] }> = exp(negf(g));
        let one: Tile<f32, { [] }> = scalar_to_tile(1.0f32);
        let one: Tile<f32, { [TILE_ROWS, TILE_COLS] }> =
            one.reshape(shape![1, 1]).broadcast(shape![TILE_ROWS, TILE_COLS]);
        let silu: Tile<f32, { [TILE_ROWS, TILE_COLS] }> = g / (one + e);
        let y: Tile<E, { [TILE_ROWS, TILE_COLS] }> = convert_tile(silu * u);
        out.store(y);
    }
}
