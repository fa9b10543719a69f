//! Port of tilegym.ops.cutile.rms_norm:_rms_norm_kernel_static_persistent: a static
//! persistent loop over (TILE_SIZE_M, TILE_SIZE_N) row blocks (TMA loads through zero-padded
//! views, latency 10), rstd = rsqrt(sum(x*x) / N + eps) per row stored without TMA, and
//! y = x * rstd * (offset + w) stored without TMA (latency 3). w is loaded once per block.
#[cutile::module]
#[allow(non_snake_case)]
pub mod rms_norm_persistent_port {
    use cutile::core::*;

    #[cutile::entry(unchecked_accesses = true)]
    pub unsafe fn rms_norm_persistent<E: ElementType, const TILE_SIZE_M: i32, const TILE_SIZE_N: i32>(
        X: &Tensor<E, { [-1, -1] }>,
        Y: &Tensor<E, { [-1, -1] }>,
        W: &Tensor<E, { [-1] }>,
        Rstd: &Tensor<f32, { [-1] }>,
    ) {
        let bid: i32 = get_tile_block_id().0;
        let M: i32 = get_shape_dim(X.shape(), 0i32);
        let N: i32 = get_shape_dim(X.shape(), 1i32);
        // upper_bound = (M + TILE_SIZE_M - 1) // TILE_SIZE_M (floor division)
        let span: Tile<i32, { [] }> = scalar_to_tile(M + TILE_SIZE_M - 1i32);
        let tile_m: Tile<i32, { [] }> = scalar_to_tile(TILE_SIZE_M);
        let upper_bound: Tile<i32, { [] }> = divi(span, tile_m, rounding::NegativeInf);
        let upper_bound: i32 = tile_to_scalar(upper_bound);
        let zero: i32 = 0i32;
        let w_view: Partition<E, { [TILE_SIZE_N] }> = unsafe {
            make_partition_view(W, const_shape![TILE_SIZE_N], padding::Zero, dim_map::Identity, W.token())
        };
        let w: Tile<E, { [TILE_SIZE_N] }> = w_view.load([zero]);
        let w: Tile<f32, { [TILE_SIZE_N] }> = convert_tile(w);
        let num_tile_blocks: i32 = get_num_tile_blocks().0;
        let rows: Partition<E, { [TILE_SIZE_M, TILE_SIZE_N] }> = unsafe {
            make_partition_view(X, const_shape![TILE_SIZE_M, TILE_SIZE_N], padding::Zero, dim_map::Identity, X.token())
        };
        // N_f32 = ct.full((TILE_SIZE_M, 1), N * 1.0); eps_tensor = ct.full(.., EPS)
        let n_i: Tile<i32, { [] }> = scalar_to_tile(N);
        let n_f: Tile<f32, { [] }> = convert_tile(n_i);
        let one: Tile<f32, { [] }> = constant(1.0f32, const_shape![]);
        let n_f: Tile<f32, { [] }> = n_f * one;
        let n_f: Tile<f32, { [TILE_SIZE_M, 1] }> = n_f.reshape(const_shape![1, 1]).broadcast(const_shape![TILE_SIZE_M, 1]);
        // EPS = 1e-5 and OFFSET = 0.0 are this port's constants (the C ABI refuses others)
        let eps: Tile<f32, { [TILE_SIZE_M, 1] }> = constant(1e-5f32, const_shape![TILE_SIZE_M, 1]);
        let mut rstd_out: PartitionMut<f32, { [TILE_SIZE_M] }> =
            unsafe { Rstd.partition_full_mut(const_shape![TILE_SIZE_M]) };
        let w_row: Tile<f32, { [1, TILE_SIZE_N] }> = w.reshape(const_shape![1, TILE_SIZE_N]);
        let offset: Tile<f32, { [1, TILE_SIZE_N] }> = constant(0.0f32, const_shape![1, TILE_SIZE_N]);
        let w_with_offset: Tile<f32, { [1, TILE_SIZE_N] }> = offset + w_row;
        let w_with_offset: Tile<f32, { [TILE_SIZE_M, TILE_SIZE_N] }> =
            w_with_offset.broadcast(const_shape![TILE_SIZE_M, TILE_SIZE_N]);
        let mut y_out: PartitionMut<E, { [TILE_SIZE_M, TILE_SIZE_N] }> =
            unsafe { Y.partition_full_mut(const_shape![TILE_SIZE_M, TILE_SIZE_N]) };
        for current_bid in (bid..upper_bound).step_by(num_tile_blocks as usize) {
            let x: Tile<E, { [TILE_SIZE_M, TILE_SIZE_N] }> =
                load_view_tko(&rows, [current_bid, zero], ordering::Weak, scope::TileBlock, Some(10), tma::Enabled);
            let x: Tile<f32, { [TILE_SIZE_M, TILE_SIZE_N] }> = convert_tile(x);
            let x_squared: Tile<f32, { [TILE_SIZE_M, TILE_SIZE_N] }> = x * x;
            let x2_sum: Tile<f32, { [TILE_SIZE_M] }> = reduce_sum(x_squared, 1i32);
            let x2_sum: Tile<f32, { [TILE_SIZE_M, 1] }> = x2_sum.reshape(const_shape![TILE_SIZE_M, 1]);
            let variance: Tile<f32, { [TILE_SIZE_M, 1] }> = x2_sum / n_f;
            let variance_eps: Tile<f32, { [TILE_SIZE_M, 1] }> = variance + eps;
            let rsqrt_var: Tile<f32, { [TILE_SIZE_M, 1] }> = rsqrt(variance_eps, ftz::Disabled);
            let rstd: Tile<f32, { [TILE_SIZE_M] }> = rsqrt_var.reshape(const_shape![TILE_SIZE_M]);
            unsafe {
                store_view_tko_mut(&mut rstd_out, rstd, [current_bid], ordering::Weak, scope::TileBlock, None, tma::Disabled)
            };
            let rsqrt_var: Tile<f32, { [TILE_SIZE_M, TILE_SIZE_N] }> =
                rsqrt_var.broadcast(const_shape![TILE_SIZE_M, TILE_SIZE_N]);
            let x_normalized: Tile<f32, { [TILE_SIZE_M, TILE_SIZE_N] }> = x * rsqrt_var;
            let y: Tile<f32, { [TILE_SIZE_M, TILE_SIZE_N] }> = x_normalized * w_with_offset;
            let y: Tile<E, { [TILE_SIZE_M, TILE_SIZE_N] }> = convert_tile(y);
            unsafe {
                store_view_tko_mut(&mut y_out, y, [current_bid, zero], ordering::Weak, scope::TileBlock, Some(3), tma::Disabled)
            };
        }
    }
}
