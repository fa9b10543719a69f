//! Drafted by workbench/port/rules from /work/wt/tg3/.venv/lib/python3.11/site-packages/tilegym/ops/cutile/rms_norm.py (_rms_norm_kernel_static_persistent); review before use.
#![allow(unused_unsafe, unused_variables, unused_mut)]
#[cutile::module]
pub mod _rms_norm_kernel_static_persistent_port {
    use cutile::core::*;

    // NOTE unchecked_accesses: the store at an explicit index goes through the full output view; the launcher must keep it in range
    // NOTE line 139: loads indexed by `current_bid` run to a bound cutile cannot relate to the arrays, so the entry is unsafe with unchecked_accesses = true; the launcher must keep every index in range
    // The specialization TILE_SIZE_M=4,EPS=1e-06,OFFSET=0.0: its constant branches folded away.
    #[cutile::entry(unchecked_accesses = true)]
    pub unsafe fn _rms_norm_kernel_static_persistent_tile_size_m_4_eps_1em06_offset_0_0<E: ElementType, const TILE_SIZE_M: i32, const TILE_SIZE_N: i32>(
        X: &Tensor<E, { [-1, -1] }>,
        Y: &mut Tensor<E, { [4, TILE_SIZE_N] }>,
        W: &Tensor<E, { [-1] }>,
        Rstd: &mut Tensor<f32, { [4] }>,
    ) {
        let bid: i32 = get_tile_block_id().0;
        let M: i32 = get_shape_dim(X.shape(), 0i32);
        let N: i32 = get_shape_dim(X.shape(), 1i32);
        let s: i32 = M + 4i32;
        let s_2: i32 = s - 1i32;
        let s_2_t: Tile<i32, { [] }> = scalar_to_tile(s_2);
        let lit: Tile<i32, { [] }> = constant(4i32, shape![]);
        let upper_bound: Tile<i32, { [] }> = divi(s_2_t, lit, rounding::NegativeInf);
        let zero: i32 = 0i32;
        let W_part: Partition<E, { [TILE_SIZE_N] }> = W.partition(shape![TILE_SIZE_N]);
        let W_tile: Tile<E, { [TILE_SIZE_N] }> = W_part.load([zero]);
        let w: Tile<f32, { [TILE_SIZE_N] }> = convert_tile(W_tile);
        let num_tile_blocks: i32 = get_num_tile_blocks().0;
        let upper_bound_s: i32 = tile_to_scalar(upper_bound);
        let X_part: Partition<E, { [4, TILE_SIZE_N] }> = X.partition(shape![4, TILE_SIZE_N]);
        let lit_2: Tile<f32, { [] }> = scalar_to_tile(1.0f32);
        let N_t: Tile<i32, { [] }> = scalar_to_tile(N);
        let N_t_f32: Tile<f32, { [] }> = convert_tile(N_t);
        let prod: Tile<f32, { [] }> = N_t_f32 * lit_2;
        let prod_r: Tile<f32, { [1, 1] }> = prod.reshape(shape![1, 1]);
        let prod_b: Tile<f32, { [4, 1] }> = prod_r.broadcast(shape![4, 1]);
        let eps_tensor: Tile<f32, { [4, 1] }> = constant(1e-06f32, shape![4, 1]);
        let mut Rstd_part: PartitionMut<f32, { [4] }> =
            unsafe { Rstd.partition_full_mut(shape![4]) };
        let w_broadcasted: Tile<f32, { [1, TILE_SIZE_N] }> = w.reshape(shape![1, TILE_SIZE_N]);
        let offset_tensor: Tile<f32, { [1, TILE_SIZE_N] }> = constant(0.0f32, shape![1, TILE_SIZE_N]);
        let w_with_offset: Tile<f32, { [1, TILE_SIZE_N] }> = offset_tensor + w_broadcasted;
        let w_with_offset_b: Tile<f32, { [4, TILE_SIZE_N] }> = w_with_offset.broadcast(shape![4, TILE_SIZE_N]);
        let mut Y_part: PartitionMut<E, { [4, TILE_SIZE_N] }> =
            unsafe { Y.partition_full_mut(shape![4, TILE_SIZE_N]) };
        for current_bid in (bid..upper_bound_s).step_by(num_tile_blocks as usize) {
            let X_tile: Tile<E, { [4, TILE_SIZE_N] }> = load_view_tko(&X_part, [current_bid, zero], ordering::Weak, scope::TileBlock, Some(10), tma::Enabled);
            let x: Tile<f32, { [4, TILE_SIZE_N] }> = convert_tile(X_tile);
            let x_squared: Tile<f32, { [4, TILE_SIZE_N] }> = x * x;
            let x2_sum_red: Tile<f32, { [4] }> = reduce_sum(x_squared, 1i32);
            let x2_sum: Tile<f32, { [4, 1] }> = x2_sum_red.reshape(shape![4, 1]);
            let variance: Tile<f32, { [4, 1] }> = x2_sum / prod_b;
            let variance_eps: Tile<f32, { [4, 1] }> = variance + eps_tensor;
            let rsqrt_var: Tile<f32, { [4, 1] }> = rsqrt(variance_eps, ftz::Disabled);
            let result: Tile<f32, { [4] }> = rsqrt_var.reshape(shape![4]);
            unsafe { store_view_tko_mut(&mut Rstd_part, result, [current_bid], ordering::Weak, scope::TileBlock, None, tma::Disabled) };
            let rsqrt_var_b: Tile<f32, { [4, TILE_SIZE_N] }> = rsqrt_var.broadcast(shape![4, TILE_SIZE_N]);
            let x_normalized: Tile<f32, { [4, TILE_SIZE_N] }> = x * rsqrt_var_b;
            let y: Tile<f32, { [4, TILE_SIZE_N] }> = x_normalized * w_with_offset_b;
            let y_2: Tile<E, { [4, TILE_SIZE_N] }> = convert_tile(y);
            unsafe { store_view_tko_mut(&mut Y_part, y_2, [current_bid, zero], ordering::Weak, scope::TileBlock, Some(3), tma::Disabled) };
        }
    }

    // NOTE unchecked_accesses: the store at an explicit index goes through the full output view; the launcher must keep it in range
    // NOTE line 139: loads indexed by `current_bid` run to a bound cutile cannot relate to the arrays, so the entry is unsafe with unchecked_accesses = true; the launcher must keep every index in range
    // The specialization TILE_SIZE_M=16,EPS=1e-05,OFFSET=0.0: its constant branches folded away.
    #[cutile::entry(unchecked_accesses = true)]
    pub unsafe fn _rms_norm_kernel_static_persistent_tile_size_m_16_eps_1em05_offset_0_0<E: ElementType, const TILE_SIZE_M: i32, const TILE_SIZE_N: i32>(
        X: &Tensor<E, { [-1, -1] }>,
        Y: &mut Tensor<E, { [16, TILE_SIZE_N] }>,
        W: &Tensor<E, { [-1] }>,
        Rstd: &mut Tensor<f32, { [16] }>,
    ) {
        let bid: i32 = get_tile_block_id().0;
        let M: i32 = get_shape_dim(X.shape(), 0i32);
        let N: i32 = get_shape_dim(X.shape(), 1i32);
        let s: i32 = M + 16i32;
        let s_2: i32 = s - 1i32;
        let s_2_t: Tile<i32, { [] }> = scalar_to_tile(s_2);
        let lit: Tile<i32, { [] }> = constant(16i32, shape![]);
        let upper_bound: Tile<i32, { [] }> = divi(s_2_t, lit, rounding::NegativeInf);
        let zero: i32 = 0i32;
        let W_part: Partition<E, { [TILE_SIZE_N] }> = W.partition(shape![TILE_SIZE_N]);
        let W_tile: Tile<E, { [TILE_SIZE_N] }> = W_part.load([zero]);
        let w: Tile<f32, { [TILE_SIZE_N] }> = convert_tile(W_tile);
        let num_tile_blocks: i32 = get_num_tile_blocks().0;
        let upper_bound_s: i32 = tile_to_scalar(upper_bound);
        let X_part: Partition<E, { [16, TILE_SIZE_N] }> = X.partition(shape![16, TILE_SIZE_N]);
        let lit_2: Tile<f32, { [] }> = scalar_to_tile(1.0f32);
        let N_t: Tile<i32, { [] }> = scalar_to_tile(N);
        let N_t_f32: Tile<f32, { [] }> = convert_tile(N_t);
        let prod: Tile<f32, { [] }> = N_t_f32 * lit_2;
        let prod_r: Tile<f32, { [1, 1] }> = prod.reshape(shape![1, 1]);
        let prod_b: Tile<f32, { [16, 1] }> = prod_r.broadcast(shape![16, 1]);
        let eps_tensor: Tile<f32, { [16, 1] }> = constant(1e-05f32, shape![16, 1]);
        let mut Rstd_part: PartitionMut<f32, { [16] }> =
            unsafe { Rstd.partition_full_mut(shape![16]) };
        let w_broadcasted: Tile<f32, { [1, TILE_SIZE_N] }> = w.reshape(shape![1, TILE_SIZE_N]);
        let offset_tensor: Tile<f32, { [1, TILE_SIZE_N] }> = constant(0.0f32, shape![1, TILE_SIZE_N]);
        let w_with_offset: Tile<f32, { [1, TILE_SIZE_N] }> = offset_tensor + w_broadcasted;
        let w_with_offset_b: Tile<f32, { [16, TILE_SIZE_N] }> = w_with_offset.broadcast(shape![16, TILE_SIZE_N]);
        let mut Y_part: PartitionMut<E, { [16, TILE_SIZE_N] }> =
            unsafe { Y.partition_full_mut(shape![16, TILE_SIZE_N]) };
        for current_bid in (bid..upper_bound_s).step_by(num_tile_blocks as usize) {
            let X_tile: Tile<E, { [16, TILE_SIZE_N] }> = load_view_tko(&X_part, [current_bid, zero], ordering::Weak, scope::TileBlock, Some(10), tma::Enabled);
            let x: Tile<f32, { [16, TILE_SIZE_N] }> = convert_tile(X_tile);
            let x_squared: Tile<f32, { [16, TILE_SIZE_N] }> = x * x;
            let x2_sum_red: Tile<f32, { [16] }> = reduce_sum(x_squared, 1i32);
            let x2_sum: Tile<f32, { [16, 1] }> = x2_sum_red.reshape(shape![16, 1]);
            let variance: Tile<f32, { [16, 1] }> = x2_sum / prod_b;
            let variance_eps: Tile<f32, { [16, 1] }> = variance + eps_tensor;
            let rsqrt_var: Tile<f32, { [16, 1] }> = rsqrt(variance_eps, ftz::Disabled);
            let result: Tile<f32, { [16] }> = rsqrt_var.reshape(shape![16]);
            unsafe { store_view_tko_mut(&mut Rstd_part, result, [current_bid], ordering::Weak, scope::TileBlock, None, tma::Disabled) };
            let rsqrt_var_b: Tile<f32, { [16, TILE_SIZE_N] }> = rsqrt_var.broadcast(shape![16, TILE_SIZE_N]);
            let x_normalized: Tile<f32, { [16, TILE_SIZE_N] }> = x * rsqrt_var_b;
            let y: Tile<f32, { [16, TILE_SIZE_N] }> = x_normalized * w_with_offset_b;
            let y_2: Tile<E, { [16, TILE_SIZE_N] }> = convert_tile(y);
            unsafe { store_view_tko_mut(&mut Y_part, y_2, [current_bid, zero], ordering::Weak, scope::TileBlock, Some(3), tma::Disabled) };
        }
    }
}
