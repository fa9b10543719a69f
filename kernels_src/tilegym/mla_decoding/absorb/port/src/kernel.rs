//! Port of tilegym.ops.cutile.mla_decoding:_naive_absorb_mla_transpose_kernel: one block per
//! TILE_H heads of one token, everything transposed (heads in the last dim): q and q_pe loaded
//! through [0, 2, 1] views, the latent cache K (= V) streamed through TILE_N x 512 tiles, qk
//! = K q + K_pe q_pe, an online softmax in exp2 per head whose denominator stays a TILE_N x
//! TILE_H tile until the end, the last tile masked past S_KV when the keys do not fill it.
//! Writes out (transposed back) and L, the base-2 log-sum-exp per head.
#[cutile::module]
pub mod mla_decoding_port {
    use cutile::core::*;

    /// The last tile's keys past S_KV hidden (`if curr_n >= mask_start`). A function of its
    /// own so that the `if` yields only qk: cutile threads every mutable variable in scope
    /// through an `if`, and the loop's carried values are not in scope here.
    fn mask_tail<const TILE_N: i32, const TILE_H: i32>(
        qk: Tile<f32, { [TILE_N, TILE_H] }>, curr_n: i32, mask_start: i32,
        offs_n: Tile<i32, { [TILE_N] }>, key_end: Tile<i32, { [TILE_N, 1] }>,
    ) -> Tile<f32, { [TILE_N, TILE_H] }> {
        let mut qk: Tile<f32, { [TILE_N, TILE_H] }> = qk;
        if curr_n >= mask_start {
            let n0: Tile<i32, { [] }> = scalar_to_tile(curr_n);
            let keys: Tile<i32, { [TILE_N, 1] }> = offs_n.reshape(const_shape![TILE_N, 1])
                + n0.reshape(const_shape![1, 1]).broadcast(const_shape![TILE_N, 1]);
            let inside: Tile<bool, { [TILE_N, 1] }> = cmpi(keys, key_end, predicate::LessThan);
            let hidden: Tile<f32, { [TILE_N, TILE_H] }> = constant(-1.0e6f32, const_shape![TILE_N, TILE_H]);
            qk = select(inside.broadcast(const_shape![TILE_N, TILE_H]), qk, hidden);
        }
        qk
    }

    #[cutile::entry(unchecked_accesses = true)]
    pub unsafe fn naive_absorb_mla_transpose<
        E: ElementType,
        const TILE_D: i32,
        const TILE_H: i32,
        const TILE_N: i32,
        const TILE_KPE: i32,
        const S_KV: i32,
        const EVEN_N: i32,
    >(
        Q: &Tensor<E, { [-1, -1, -1] }>,
        QPE: &Tensor<E, { [-1, -1, -1] }>,
        K: &Tensor<E, { [-1, -1, -1] }>,
        V: &Tensor<E, { [-1, -1, -1] }>,
        KPE: &Tensor<E, { [-1, -1, -1] }>,
        Out: &Tensor<E, { [-1, -1, -1] }>,
        L: &Tensor<f32, { [-1, -1] }>,
        sm_scale: f32,
    ) {
        let one: i32 = 1i32;     // first, as in cuTile Python's IR (the counter step)
        let key_end: Tile<i32, { [TILE_N, 1] }> = broadcast_scalar(S_KV, const_shape![TILE_N, 1]);
        let bid_x: i32 = get_tile_block_id().0;
        let batch_idx: i32 = get_tile_block_id().1;
        let inv_log_2: Tile<f32, { [] }> = constant(1.4426950408889634f32, const_shape![]);
        let sm: Tile<f32, { [] }> = scalar_to_tile(sm_scale);
        let qk_scale: Tile<f32, { [] }> = sm * inv_log_2;

        let mut m_prev: Tile<f32, { [TILE_H] }> = constant(f32::NEG_INFINITY, const_shape![TILE_H]);
        let mut l_prev: Tile<f32, { [TILE_N, TILE_H] }> = constant(1.0f32, const_shape![TILE_N, TILE_H]);
        let mut acc: Tile<f32, { [TILE_D, TILE_H] }> = constant(0.0f32, const_shape![TILE_D, TILE_H]);
        let zero: i32 = 0i32;
        let q_view: Partition<E, { [1, TILE_D, TILE_H] }> = unsafe {
            make_partition_view(Q, const_shape![1, TILE_D, TILE_H], padding::None, const_array![0, 2, 1], Q.token())
        };
        let q: Tile<E, { [1, TILE_D, TILE_H] }> = q_view.load([batch_idx, zero, bid_x]);
        let q: Tile<E, { [TILE_D, TILE_H] }> = q.reshape(const_shape![TILE_D, TILE_H]);
        let qpe_view: Partition<E, { [1, TILE_KPE, TILE_H] }> = unsafe {
            make_partition_view(QPE, const_shape![1, TILE_KPE, TILE_H], padding::None, const_array![0, 2, 1], QPE.token())
        };
        let qpe: Tile<E, { [1, TILE_KPE, TILE_H] }> = qpe_view.load([batch_idx, zero, bid_x]);
        let qpe: Tile<E, { [TILE_KPE, TILE_H] }> = qpe.reshape(const_shape![TILE_KPE, TILE_H]);

        let mut cnt: i32 = zero;
        let mask_start: i32 = S_KV / TILE_N * TILE_N;
        let offs_n: Tile<i32, { [TILE_N] }> = iota(const_shape![TILE_N]);
        let k_view: Partition<E, { [1, TILE_N, TILE_D] }> = unsafe {
            make_partition_view(K, const_shape![1, TILE_N, TILE_D], padding::None, dim_map::Identity, K.token())
        };
        let zero_qk: Tile<f32, { [TILE_N, TILE_H] }> = constant(0.0f32, const_shape![TILE_N, TILE_H]);
        let kpe_view: Partition<E, { [1, TILE_N, TILE_KPE] }> = unsafe {
            make_partition_view(KPE, const_shape![1, TILE_N, TILE_KPE], padding::None, dim_map::Identity, KPE.token())
        };
        let scale_h: Tile<f32, { [TILE_H] }> = qk_scale.reshape(const_shape![1]).broadcast(const_shape![TILE_H]);
        let scale_nh: Tile<f32, { [TILE_N, TILE_H] }> =
            qk_scale.reshape(const_shape![1, 1]).broadcast(const_shape![TILE_N, TILE_H]);
        let v_view: Partition<E, { [TILE_N, 1, TILE_D] }> = unsafe {
            make_partition_view(V, const_shape![TILE_N, 1, TILE_D], padding::None, const_array![1, 0, 2], V.token())
        };
        for curr_n in (zero..S_KV).step_by(TILE_N as usize) {
            let k: Tile<E, { [1, TILE_N, TILE_D] }> = load_view_tko(
                &k_view, [batch_idx, cnt, zero], ordering::Weak, scope::TileBlock, Some(2), tma::Enabled);
            let k: Tile<E, { [TILE_N, TILE_D] }> = k.reshape(const_shape![TILE_N, TILE_D]);
            let qk: Tile<f32, { [TILE_N, TILE_H] }> = mma(k, q, zero_qk);
            let kpe: Tile<E, { [1, TILE_N, TILE_KPE] }> = load_view_tko(
                &kpe_view, [batch_idx, cnt, zero], ordering::Weak, scope::TileBlock, Some(2), tma::Enabled);
            let kpe: Tile<E, { [TILE_N, TILE_KPE] }> = kpe.reshape(const_shape![TILE_N, TILE_KPE]);
            let mut qk: Tile<f32, { [TILE_N, TILE_H] }> = mma(kpe, qpe, qk);
            if EVEN_N == 0i32 {
                qk = mask_tail(qk, curr_n, mask_start, offs_n, key_end);
            }
            let col_max: Tile<f32, { [TILE_H] }> = reduce_max(qk, 0i32);
            let scaled: Tile<f32, { [TILE_H] }> = mulf(col_max, scale_h, rounding::NearestEven, ftz::Disabled);
            let m_ij: Tile<f32, { [TILE_H] }> = max_tile(m_prev, scaled);
            let neg_m: Tile<f32, { [TILE_N, TILE_H] }> =
                negf(m_ij.reshape(const_shape![1, TILE_H]).broadcast(const_shape![TILE_N, TILE_H]));
            let qk: Tile<f32, { [TILE_N, TILE_H] }> = fma(qk, scale_nh, neg_m, rounding::NearestEven, ftz::Disabled);
            let p: Tile<f32, { [TILE_N, TILE_H] }> = exp2(qk, ftz::Disabled);
            let alpha: Tile<f32, { [TILE_H] }> = exp2(m_prev - m_ij, ftz::Disabled);
            l_prev = fma(l_prev, alpha.reshape(const_shape![1, TILE_H]).broadcast(const_shape![TILE_N, TILE_H]), p,
                         rounding::NearestEven, ftz::Disabled);
            let acc_scaled: Tile<f32, { [TILE_D, TILE_H] }> =
                acc * alpha.reshape(const_shape![1, TILE_H]).broadcast(const_shape![TILE_D, TILE_H]);
            let v: Tile<E, { [TILE_N, 1, TILE_D] }> = load_view_tko(
                &v_view, [cnt, batch_idx, zero], ordering::Weak, scope::TileBlock, Some(2), tma::Enabled);
            let v: Tile<E, { [TILE_N, TILE_D] }> = v.reshape(const_shape![TILE_N, TILE_D]);
            let v: Tile<E, { [TILE_D, TILE_N] }> = permute(v, const_array![1, 0]);
            let p: Tile<E, { [TILE_N, TILE_H] }> = convert_tile(p);
            acc = mma(v, p, acc_scaled);
            m_prev = m_ij;
            cnt = one + cnt;
        }

        let l_sum: Tile<f32, { [TILE_H] }> = reduce_sum(l_prev, 0i32);
        let out: Tile<f32, { [TILE_D, TILE_H] }> = divf(
            acc, l_sum.reshape(const_shape![1, TILE_H]).broadcast(const_shape![TILE_D, TILE_H]), rounding::Approx, ftz::Enabled);
        let lse: Tile<f32, { [TILE_H] }> = m_prev + log2(l_sum);
        let lse: Tile<f32, { [1, TILE_H] }> = lse.reshape(const_shape![1, TILE_H]);
        let mut l_view: PartitionMut<f32, { [1, TILE_H] }> = unsafe { L.partition_full_mut(const_shape![1, TILE_H]) };
        l_view.store(lse, [batch_idx, bid_x]);
        let out: Tile<E, { [TILE_D, TILE_H] }> = convert_tile(out);
        let out: Tile<E, { [TILE_H, TILE_D] }> = permute(out, const_array![1, 0]);
        let out: Tile<E, { [1, TILE_H, TILE_D] }> = out.reshape(const_shape![1, TILE_H, TILE_D]);
        let mut out_view: PartitionMut<E, { [1, TILE_H, TILE_D] }> =
            unsafe { Out.partition_full_mut(const_shape![1, TILE_H, TILE_D]) };
        out_view.store(out, [batch_idx, bid_x, zero]);
    }
}
