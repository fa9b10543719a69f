//! Port of tilegym.ops.cutile.layer_norm_legacy:_persistent_layer_norm_fwd_kernel as its
//! launcher calls it (IS_SWISH 0, TRAINING 1, COMPUTE_MEAN_AND_RSTD 1): w and b loaded once
//! through zero-padded views; a persistent loop over BLOCK_N-row blocks, step NUM_SMS, with
//! the rows' TMA load (latency 4), mean = sum(x) / D and var = sum(x * x) / D - mean * mean
//! (an fma of -mean, as cuTile Python fuses it), rstd = rsqrt(var + EPS); mean and rstd stored
//! without TMA, y = (x - mean) * rstd * w + b (an fma) cast to bf16 and stored without TMA.
//! N, D and NUM_SMS are constants of the kernel (folded into the loop bound, step and divisor)
//! and so const generics here (ROWS, COLS: cutile's own types name theirs N and D); EPS = 1e-6 is this port's (the C ABI refuses others).
#[cutile::module]
#[allow(non_snake_case)]
pub mod layer_norm_persistent_port {
    use cutile::core::*;

    #[cutile::entry(unchecked_accesses = true)]
    pub unsafe fn layer_norm_persistent<
        E: ElementType, const ROWS: i32, const COLS: i32, const BLOCK_N: i32, const BLOCK_D: i32, const NUM_SMS: i32,
    >(
        X: &Tensor<E, { [-1, -1] }>,
        Y: &Tensor<E, { [-1, -1] }>,
        W: &Tensor<E, { [-1] }>,
        B: &Tensor<E, { [-1] }>,
        Mean: &Tensor<f32, { [-1] }>,
        Rstd: &Tensor<f32, { [-1] }>,
    ) {
        let pid: i32 = get_tile_block_id().0;
        // upper_bound = cdiv(N, BLOCK_N) = cdiv(ROWS, BLOCK_N): constant, as in cuTile Python
        let upper_bound: i32 = (ROWS + BLOCK_N - 1i32) / BLOCK_N;
        let zero: i32 = 0i32;
        let w_view: Partition<E, { [BLOCK_D] }> = unsafe {
            make_partition_view(W, const_shape![BLOCK_D], padding::Zero, dim_map::Identity, W.token())
        };
        let w: Tile<E, { [BLOCK_D] }> = w_view.load([zero]);
        let b_view: Partition<E, { [BLOCK_D] }> = unsafe {
            make_partition_view(B, const_shape![BLOCK_D], padding::Zero, dim_map::Identity, B.token())
        };
        let b: Tile<E, { [BLOCK_D] }> = b_view.load([zero]);
        let w: Tile<f32, { [BLOCK_D] }> = convert_tile(w);
        let b: Tile<f32, { [BLOCK_D] }> = convert_tile(b);
        let rows: Partition<E, { [BLOCK_N, BLOCK_D] }> = unsafe {
            make_partition_view(X, const_shape![BLOCK_N, BLOCK_D], padding::Zero, dim_map::Identity, X.token())
        };
        // `/ D` divides by D as an f32 constant (an itof of a constant folds to it)
        let d_i: Tile<i32, { [] }> = scalar_to_tile(COLS);
        let d_f: Tile<f32, { [] }> = convert_tile(d_i);
        let d_f: Tile<f32, { [BLOCK_N] }> = d_f.reshape(const_shape![1]).broadcast(const_shape![BLOCK_N]);
        let eps: Tile<f32, { [BLOCK_N] }> = constant(1e-6f32, const_shape![BLOCK_N]);
        let mut mean_out: PartitionMut<f32, { [BLOCK_N] }> =
            unsafe { Mean.partition_full_mut(const_shape![BLOCK_N]) };
        let mut rstd_out: PartitionMut<f32, { [BLOCK_N] }> =
            unsafe { Rstd.partition_full_mut(const_shape![BLOCK_N]) };
        let w_rows: Tile<f32, { [BLOCK_N, BLOCK_D] }> =
            w.reshape(const_shape![1, BLOCK_D]).broadcast(const_shape![BLOCK_N, BLOCK_D]);
        let b_rows: Tile<f32, { [BLOCK_N, BLOCK_D] }> =
            b.reshape(const_shape![1, BLOCK_D]).broadcast(const_shape![BLOCK_N, BLOCK_D]);
        let mut y_out: PartitionMut<E, { [BLOCK_N, BLOCK_D] }> =
            unsafe { Y.partition_full_mut(const_shape![BLOCK_N, BLOCK_D]) };
        for current_pid in (pid..upper_bound).step_by(NUM_SMS as usize) {
            let x: Tile<E, { [BLOCK_N, BLOCK_D] }> =
                load_view_tko(&rows, [current_pid, zero], ordering::Weak, scope::TileBlock, Some(4), tma::Enabled);
            let x: Tile<f32, { [BLOCK_N, BLOCK_D] }> = convert_tile(x);
            let x_squared: Tile<f32, { [BLOCK_N, BLOCK_D] }> = x * x;
            // reduce_sum's result is typed by its concrete shape; an identity convert_tile (no
            // op) retypes it by BLOCK_N, as the binary ops with the body's tiles need
            let sum_sq: Tile<f32, { [BLOCK_N] }> = reduce_sum(x_squared, 1i32);
            let sum_sq: Tile<f32, { [BLOCK_N] }> = convert_tile(sum_sq);
            let avg_square: Tile<f32, { [BLOCK_N] }> = sum_sq / d_f;
            let sum: Tile<f32, { [BLOCK_N] }> = reduce_sum(x, 1i32);
            let sum: Tile<f32, { [BLOCK_N] }> = convert_tile(sum);
            let mean: Tile<f32, { [BLOCK_N] }> = sum / d_f;
            let neg_mean: Tile<f32, { [BLOCK_N] }> = negf(mean);
            let var: Tile<f32, { [BLOCK_N] }> = fma(neg_mean, mean, avg_square, rounding::NearestEven, ftz::Disabled);
            let rstd: Tile<f32, { [BLOCK_N] }> = rsqrt(var + eps, ftz::Disabled);
            unsafe {
                store_view_tko_mut(&mut mean_out, mean, [current_pid], ordering::Weak, scope::TileBlock, None, tma::Disabled)
            };
            unsafe {
                store_view_tko_mut(&mut rstd_out, rstd, [current_pid], ordering::Weak, scope::TileBlock, None, tma::Disabled)
            };
            let mean: Tile<f32, { [BLOCK_N, BLOCK_D] }> =
                mean.reshape(const_shape![BLOCK_N, 1]).broadcast(const_shape![BLOCK_N, BLOCK_D]);
            let centered: Tile<f32, { [BLOCK_N, BLOCK_D] }> = x - mean;
            let rstd: Tile<f32, { [BLOCK_N, BLOCK_D] }> =
                rstd.reshape(const_shape![BLOCK_N, 1]).broadcast(const_shape![BLOCK_N, BLOCK_D]);
            let x_hat: Tile<f32, { [BLOCK_N, BLOCK_D] }> = centered * rstd;
            let y: Tile<f32, { [BLOCK_N, BLOCK_D] }> = fma(x_hat, w_rows, b_rows, rounding::NearestEven, ftz::Disabled);
            let y: Tile<E, { [BLOCK_N, BLOCK_D] }> = convert_tile(y);
            unsafe {
                store_view_tko_mut(&mut y_out, y, [current_pid, zero], ordering::Weak, scope::TileBlock, None, tma::Disabled)
            };
        }
    }
}
