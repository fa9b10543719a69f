//! Port of tilegym.ops.cutile.gemma_attention:_gemma_fmha_kernel: one block per BLOCK_M
//! queries of one head, an online softmax in exp2 over K/V tiles (K loaded, then transposed),
//! the logits soft-capped as cap * tanh(x / cap) (approximate division and tanh), then masked:
//! causal on the diagonal stage, the key bound on the last tile of a non-causal pass, and a
//! two-sided sliding window. STAGE 3 (causal) runs the off-diagonal tiles, then the diagonal
//! ones (`_gemma_attn_fwd_inner` stages 1 and 2); STAGE 1 one pass (stage 3).
//!
//! Hand-finished from the offline drafter's version (draft/: one entry specialized to case 0's
//! constants, its constant branches folded) into one entry for every case.
#[cutile::module]
pub mod gemma_fmha_port {
    use cutile::core::*;

    /// `a // b` as Python computes it (rounding toward negative infinity).
    fn floor_div(a: i32, b: i32) -> i32 {
        let q: Tile<i32, { [] }> = divi(scalar_to_tile(a), scalar_to_tile(b), rounding::NegativeInf);
        tile_to_scalar(q)
    }

    /// `a % b` as Python computes it for a positive constant b (cuTile Python's expansion).
    fn floor_mod(a: i32, b: i32) -> i32 {
        let b_t: Tile<i32, { [] }> = scalar_to_tile(b);
        let r: Tile<i32, { [] }> = remi(scalar_to_tile(a), b_t);
        let zero: Tile<i32, { [] }> = constant(0i32, const_shape![]);
        let negative: Tile<bool, { [] }> = cmpi(r, zero, predicate::LessThan);
        // a `false` literal, not constant(false, ..): cutile 0.4.0 encodes the latter as true
        let no: bool = false;
        let divisor_negative: Tile<bool, { [] }> = scalar_to_tile(no);
        let signs_differ: Tile<bool, { [] }> = xori(negative, divisor_negative);
        let nonzero: Tile<bool, { [] }> = cmpi(r, zero, predicate::NotEqual);
        let fix: Tile<bool, { [] }> = andi(signs_differ, nonzero);
        let moved: Tile<i32, { [] }> = b_t + r;
        tile_to_scalar(select(fix, moved, r))
    }

    /// SOFT_CAP is a whole number here (a float constant of the Python kernel): its f32 is an
    /// itof of a constant, which tileiras folds, as the IR diff's normalization does.
    #[cutile::entry(unchecked_accesses = true, optimization_hints = (sm_90 = (occupancy = 2,), sm_100 = (occupancy = 2,)))]
    pub unsafe fn gemma_fmha<
        E: ElementType, const B: i32, const H: i32, const S_QO: i32, const S_KV: i32,
        const BLOCK_D: i32, const BLOCK_M: i32, const BLOCK_N: i32, const QUERY_GROUP_SIZE: i32,
        const STAGE: i32, const WINDOW_SIZE: i32, const SOFT_CAP: i32, const HAS_SOFT_CAP: i32,
        const EVEN_K: i32,
    >(
        Q: &Tensor<E, { [-1, -1, -1, -1] }>,
        K: &Tensor<E, { [-1, -1, -1, -1] }>,
        V: &Tensor<E, { [-1, -1, -1, -1] }>,
        Out: &Tensor<E, { [-1, -1, -1, -1] }>,
        sm_scale: f32,
    ) {
        let one: i32 = 1i32;     // first, as in cuTile Python's IR (the counter step)
        // the window's splat constants, early as cuTile Python defines them
        let window_lo: Tile<i32, { [BLOCK_M, BLOCK_N] }> = broadcast_scalar(0i32 - WINDOW_SIZE, const_shape![BLOCK_M, BLOCK_N]);
        let window_hi: Tile<i32, { [BLOCK_M, BLOCK_N] }> = broadcast_scalar(WINDOW_SIZE, const_shape![BLOCK_M, BLOCK_N]);
        let bid_x: i32 = get_tile_block_id().0;
        let bid_y: i32 = get_tile_block_id().1;
        let batch_idx: i32 = floor_div(bid_y, H);
        let head_idx: i32 = floor_mod(bid_y, H);
        let mut kv_head_idx: i32 = head_idx;
        if QUERY_GROUP_SIZE > 1i32 {
            kv_head_idx = floor_div(head_idx, QUERY_GROUP_SIZE);
        }
        let zero: i32 = 0i32;
        let mut qk_scale: Tile<f32, { [] }> = constant(0.0f32, const_shape![]);
        if HAS_SOFT_CAP == 0i32 {
            let inv_log_2: Tile<f32, { [] }> = constant(1.4426950408889634f32, const_shape![]);
            let sm: Tile<f32, { [] }> = scalar_to_tile(sm_scale);
            qk_scale = sm * inv_log_2;
        }
        // the query positions, read by the diagonal stage's and the window's masks only
        let mut offs_m: Tile<i32, { [BLOCK_M] }> = constant(0i32, const_shape![BLOCK_M]);
        if STAGE == 3i32 || WINDOW_SIZE > 0i32 {
            let m0: Tile<i32, { [] }> = scalar_to_tile(bid_x * BLOCK_M);
            let lanes_m: Tile<i32, { [BLOCK_M] }> = iota(const_shape![BLOCK_M]);
            offs_m = lanes_m + m0.reshape(const_shape![1]).broadcast(const_shape![BLOCK_M]);
        }
        let offs_n: Tile<i32, { [BLOCK_N] }> = iota(const_shape![BLOCK_N]);
        let mut m_i: Tile<f32, { [BLOCK_M] }> = constant(f32::NEG_INFINITY, const_shape![BLOCK_M]);
        let mut l_i: Tile<f32, { [BLOCK_M] }> = constant(1.0f32, const_shape![BLOCK_M]);
        let mut acc: Tile<f32, { [BLOCK_M, BLOCK_D] }> = constant(0.0f32, const_shape![BLOCK_M, BLOCK_D]);
        let q_view: Partition<E, { [1, 1, BLOCK_M, BLOCK_D] }> = unsafe {
            make_partition_view(Q, const_shape![1, 1, BLOCK_M, BLOCK_D], padding::None, dim_map::Identity, Q.token())
        };
        let q: Tile<E, { [1, 1, BLOCK_M, BLOCK_D] }> = q_view.load([batch_idx, head_idx, bid_x, zero]);
        let q: Tile<E, { [BLOCK_M, BLOCK_D] }> = q.reshape(const_shape![BLOCK_M, BLOCK_D]);
        let n_ctx: i32 = get_shape_dim(K.shape(), 2i32);

        if STAGE == 1i32 || STAGE == 3i32 {
            // the first inner stage: 3 (the whole row) for STAGE 1, 1 (off-diagonal) for 3
            let mut lo: i32 = zero;
            let mut hi: i32 = n_ctx;
            let mut cnt: i32 = zero;
            if WINDOW_SIZE > 0i32 {
                let back: i32 = max(zero, bid_x * BLOCK_M - WINDOW_SIZE);
                lo = floor_div(back, BLOCK_N) * BLOCK_N;
            }
            if STAGE == 3i32 {
                hi = bid_x * BLOCK_M;
            } else if WINDOW_SIZE > 0i32 {
                hi = min(n_ctx, (one + bid_x) * BLOCK_M + WINDOW_SIZE);
            }
            if WINDOW_SIZE > 0i32 || STAGE == 3i32 {
                cnt = floor_div(lo, BLOCK_N);
            }
            let k_view: Partition<E, { [1, 1, BLOCK_N, BLOCK_D] }> = unsafe {
                make_partition_view(K, const_shape![1, 1, BLOCK_N, BLOCK_D], padding::None, dim_map::Identity, K.token())
            };
            let zero_qk: Tile<f32, { [BLOCK_M, BLOCK_N] }> = constant(0.0f32, const_shape![BLOCK_M, BLOCK_N]);
            let hidden: Tile<f32, { [BLOCK_M, BLOCK_N] }> = constant(-1.0e6f32, const_shape![BLOCK_M, BLOCK_N]);
            let v_view: Partition<E, { [1, 1, BLOCK_N, BLOCK_D] }> = unsafe {
                make_partition_view(V, const_shape![1, 1, BLOCK_N, BLOCK_D], padding::None, dim_map::Identity, V.token())
            };
            for curr_n in (lo..hi).step_by(BLOCK_N as usize) {
                // inner stage 4 - STAGE: no causal mask; the key bound only in stage 3 (STAGE 1)
                let k: Tile<E, { [1, 1, BLOCK_N, BLOCK_D] }> = load_view_tko(
                    &k_view, [batch_idx, kv_head_idx, cnt, zero], ordering::Weak, scope::TileBlock, Some(3), tma::Enabled);
                let k: Tile<E, { [BLOCK_N, BLOCK_D] }> = k.reshape(const_shape![BLOCK_N, BLOCK_D]);
                let k: Tile<E, { [BLOCK_D, BLOCK_N] }> = permute(k, const_array![1, 0]);
                let mut qk: Tile<f32, { [BLOCK_M, BLOCK_N] }> = mma(q, k, zero_qk);
                if HAS_SOFT_CAP == 1i32 {
                    let sm: Tile<f32, { [] }> = scalar_to_tile(sm_scale);
                    qk = qk * sm.reshape(const_shape![1, 1]).broadcast(const_shape![BLOCK_M, BLOCK_N]);
                    let cap_i: Tile<i32, { [] }> = scalar_to_tile(SOFT_CAP);
                    let cap_t: Tile<f32, { [] }> = convert_tile(cap_i);
                    let cap_mn: Tile<f32, { [BLOCK_M, BLOCK_N] }> =
                        cap_t.reshape(const_shape![1, 1]).broadcast(const_shape![BLOCK_M, BLOCK_N]);
                    qk = divf(qk, cap_mn, rounding::Approx, ftz::Enabled);
                    qk = unsafe { tanh_with_rounding(qk, rounding::Approx) };
                    qk = qk * cap_mn;
                }
                let curr: Tile<i32, { [] }> = scalar_to_tile(curr_n);
                if STAGE == 1i32 && EVEN_K == 0i32 {
                    let cols: Tile<i32, { [1, BLOCK_N] }> = offs_n.reshape(const_shape![1, BLOCK_N]);
                    let keys: Tile<i32, { [1, BLOCK_N] }> =
                        curr.reshape(const_shape![1, 1]).broadcast(const_shape![1, BLOCK_N]) + cols;
                    let n_ctx_t: Tile<i32, { [] }> = scalar_to_tile(n_ctx);
                    let inside: Tile<bool, { [1, BLOCK_N] }> =
                        cmpi(keys, n_ctx_t.reshape(const_shape![1, 1]).broadcast(const_shape![1, BLOCK_N]), predicate::LessThan);
                    qk = select(inside.broadcast(const_shape![BLOCK_M, BLOCK_N]), qk, hidden);
                }
                if WINDOW_SIZE > 0i32 {
                    let cols: Tile<i32, { [1, BLOCK_N] }> = offs_n.reshape(const_shape![1, BLOCK_N]);
                    let keys: Tile<i32, { [1, BLOCK_N] }> =
                        curr.reshape(const_shape![1, 1]).broadcast(const_shape![1, BLOCK_N]) + cols;
                    let rows: Tile<i32, { [BLOCK_M, 1] }> = offs_m.reshape(const_shape![BLOCK_M, 1]);
                    let offset: Tile<i32, { [BLOCK_M, BLOCK_N] }> =
                        keys.broadcast(const_shape![BLOCK_M, BLOCK_N]) - rows.broadcast(const_shape![BLOCK_M, BLOCK_N]);
                    let inside: Tile<bool, { [BLOCK_M, BLOCK_N] }> =
                        andi(cmpi(offset, window_lo, predicate::GreaterThanOrEqual),
                             cmpi(offset, window_hi, predicate::LessThanOrEqual));
                    qk = select(inside, qk, hidden);
                }
                let qk: Tile<f32, { [BLOCK_M, BLOCK_N] }> = qk;
                let row_max: Tile<f32, { [BLOCK_M] }> = reduce_max(qk, 1i32);
                // with a soft cap the logits are already scaled: the factor is 1 / ln 2 alone
                let mut scale_m: Tile<f32, { [BLOCK_M] }> = constant(1.4426950408889634f32, const_shape![BLOCK_M]);
                let mut scale_mn: Tile<f32, { [BLOCK_M, BLOCK_N] }> =
                    constant(1.4426950408889634f32, const_shape![BLOCK_M, BLOCK_N]);
                if HAS_SOFT_CAP == 0i32 {
                    scale_m = qk_scale.reshape(const_shape![1]).broadcast(const_shape![BLOCK_M]);
                    scale_mn = qk_scale.reshape(const_shape![1, 1]).broadcast(const_shape![BLOCK_M, BLOCK_N]);
                }
                let scaled: Tile<f32, { [BLOCK_M] }> = mulf(row_max, scale_m, rounding::NearestEven, ftz::Disabled);
                let m_ij: Tile<f32, { [BLOCK_M] }> = max_tile(m_i, scaled);
                let neg_m: Tile<f32, { [BLOCK_M, BLOCK_N] }> =
                    negf(m_ij.reshape(const_shape![BLOCK_M, 1]).broadcast(const_shape![BLOCK_M, BLOCK_N]));
                let qk: Tile<f32, { [BLOCK_M, BLOCK_N] }> = fma(qk, scale_mn, neg_m, rounding::NearestEven, ftz::Disabled);
                let p: Tile<f32, { [BLOCK_M, BLOCK_N] }> = exp2(qk, ftz::Enabled);
                let l_ij: Tile<f32, { [BLOCK_M] }> = reduce_sum(p, 1i32);
                let alpha: Tile<f32, { [BLOCK_M] }> = exp2(m_i - m_ij, ftz::Enabled);
                l_i = fma(l_i, alpha, l_ij, rounding::NearestEven, ftz::Disabled);
                let acc_scaled: Tile<f32, { [BLOCK_M, BLOCK_D] }> =
                    acc * alpha.reshape(const_shape![BLOCK_M, 1]).broadcast(const_shape![BLOCK_M, BLOCK_D]);
                let v: Tile<E, { [1, 1, BLOCK_N, BLOCK_D] }> = load_view_tko(
                    &v_view, [batch_idx, kv_head_idx, cnt, zero], ordering::Weak, scope::TileBlock, Some(3), tma::Enabled);
                let v: Tile<E, { [BLOCK_N, BLOCK_D] }> = v.reshape(const_shape![BLOCK_N, BLOCK_D]);
                let p: Tile<E, { [BLOCK_M, BLOCK_N] }> = convert_tile(p);
                acc = mma(p, v, acc_scaled);
                m_i = m_ij;
                cnt = one + cnt;
            }
        }
        if STAGE == 3i32 {
            // the second inner stage: the diagonal tiles, causally masked
            let lo: i32 = bid_x * BLOCK_M;
            let hi: i32 = (one + bid_x) * BLOCK_M;
            let mut cnt: i32 = floor_div(lo, BLOCK_N);
            let k_view: Partition<E, { [1, 1, BLOCK_N, BLOCK_D] }> = unsafe {
                make_partition_view(K, const_shape![1, 1, BLOCK_N, BLOCK_D], padding::None, dim_map::Identity, K.token())
            };
            let zero_qk: Tile<f32, { [BLOCK_M, BLOCK_N] }> = constant(0.0f32, const_shape![BLOCK_M, BLOCK_N]);
            let hidden: Tile<f32, { [BLOCK_M, BLOCK_N] }> = constant(-1.0e6f32, const_shape![BLOCK_M, BLOCK_N]);
            let v_view: Partition<E, { [1, 1, BLOCK_N, BLOCK_D] }> = unsafe {
                make_partition_view(V, const_shape![1, 1, BLOCK_N, BLOCK_D], padding::None, dim_map::Identity, V.token())
            };
            for curr_n in (lo..hi).step_by(BLOCK_N as usize) {
                // inner stage 2: the causal mask, no key bound
                let k: Tile<E, { [1, 1, BLOCK_N, BLOCK_D] }> = load_view_tko(
                    &k_view, [batch_idx, kv_head_idx, cnt, zero], ordering::Weak, scope::TileBlock, Some(3), tma::Enabled);
                let k: Tile<E, { [BLOCK_N, BLOCK_D] }> = k.reshape(const_shape![BLOCK_N, BLOCK_D]);
                let k: Tile<E, { [BLOCK_D, BLOCK_N] }> = permute(k, const_array![1, 0]);
                let mut qk: Tile<f32, { [BLOCK_M, BLOCK_N] }> = mma(q, k, zero_qk);
                if HAS_SOFT_CAP == 1i32 {
                    let sm: Tile<f32, { [] }> = scalar_to_tile(sm_scale);
                    qk = qk * sm.reshape(const_shape![1, 1]).broadcast(const_shape![BLOCK_M, BLOCK_N]);
                    let cap_i: Tile<i32, { [] }> = scalar_to_tile(SOFT_CAP);
                    let cap_t: Tile<f32, { [] }> = convert_tile(cap_i);
                    let cap_mn: Tile<f32, { [BLOCK_M, BLOCK_N] }> =
                        cap_t.reshape(const_shape![1, 1]).broadcast(const_shape![BLOCK_M, BLOCK_N]);
                    qk = divf(qk, cap_mn, rounding::Approx, ftz::Enabled);
                    qk = unsafe { tanh_with_rounding(qk, rounding::Approx) };
                    qk = qk * cap_mn;
                }
                let curr: Tile<i32, { [] }> = scalar_to_tile(curr_n);
                {
                    let rows: Tile<i32, { [BLOCK_M, 1] }> = offs_m.reshape(const_shape![BLOCK_M, 1]);
                    let cols: Tile<i32, { [1, BLOCK_N] }> = offs_n.reshape(const_shape![1, BLOCK_N]);
                    let keys: Tile<i32, { [1, BLOCK_N] }> =
                        curr.reshape(const_shape![1, 1]).broadcast(const_shape![1, BLOCK_N]) + cols;
                    let causal: Tile<bool, { [BLOCK_M, BLOCK_N] }> = cmpi(
                        rows.broadcast(const_shape![BLOCK_M, BLOCK_N]), keys.broadcast(const_shape![BLOCK_M, BLOCK_N]),
                        predicate::GreaterThanOrEqual);
                    qk = select(causal, qk, hidden);
                }
                if WINDOW_SIZE > 0i32 {
                    let cols: Tile<i32, { [1, BLOCK_N] }> = offs_n.reshape(const_shape![1, BLOCK_N]);
                    let keys: Tile<i32, { [1, BLOCK_N] }> =
                        curr.reshape(const_shape![1, 1]).broadcast(const_shape![1, BLOCK_N]) + cols;
                    let rows: Tile<i32, { [BLOCK_M, 1] }> = offs_m.reshape(const_shape![BLOCK_M, 1]);
                    let offset: Tile<i32, { [BLOCK_M, BLOCK_N] }> =
                        keys.broadcast(const_shape![BLOCK_M, BLOCK_N]) - rows.broadcast(const_shape![BLOCK_M, BLOCK_N]);
                    let inside: Tile<bool, { [BLOCK_M, BLOCK_N] }> =
                        andi(cmpi(offset, window_lo, predicate::GreaterThanOrEqual),
                             cmpi(offset, window_hi, predicate::LessThanOrEqual));
                    qk = select(inside, qk, hidden);
                }
                let qk: Tile<f32, { [BLOCK_M, BLOCK_N] }> = qk;
                let row_max: Tile<f32, { [BLOCK_M] }> = reduce_max(qk, 1i32);
                // with a soft cap the logits are already scaled: the factor is 1 / ln 2 alone
                let mut scale_m: Tile<f32, { [BLOCK_M] }> = constant(1.4426950408889634f32, const_shape![BLOCK_M]);
                let mut scale_mn: Tile<f32, { [BLOCK_M, BLOCK_N] }> =
                    constant(1.4426950408889634f32, const_shape![BLOCK_M, BLOCK_N]);
                if HAS_SOFT_CAP == 0i32 {
                    scale_m = qk_scale.reshape(const_shape![1]).broadcast(const_shape![BLOCK_M]);
                    scale_mn = qk_scale.reshape(const_shape![1, 1]).broadcast(const_shape![BLOCK_M, BLOCK_N]);
                }
                let scaled: Tile<f32, { [BLOCK_M] }> = mulf(row_max, scale_m, rounding::NearestEven, ftz::Disabled);
                let m_ij: Tile<f32, { [BLOCK_M] }> = max_tile(m_i, scaled);
                let neg_m: Tile<f32, { [BLOCK_M, BLOCK_N] }> =
                    negf(m_ij.reshape(const_shape![BLOCK_M, 1]).broadcast(const_shape![BLOCK_M, BLOCK_N]));
                let qk: Tile<f32, { [BLOCK_M, BLOCK_N] }> = fma(qk, scale_mn, neg_m, rounding::NearestEven, ftz::Disabled);
                let p: Tile<f32, { [BLOCK_M, BLOCK_N] }> = exp2(qk, ftz::Enabled);
                let l_ij: Tile<f32, { [BLOCK_M] }> = reduce_sum(p, 1i32);
                let alpha: Tile<f32, { [BLOCK_M] }> = exp2(m_i - m_ij, ftz::Enabled);
                l_i = fma(l_i, alpha, l_ij, rounding::NearestEven, ftz::Disabled);
                let acc_scaled: Tile<f32, { [BLOCK_M, BLOCK_D] }> =
                    acc * alpha.reshape(const_shape![BLOCK_M, 1]).broadcast(const_shape![BLOCK_M, BLOCK_D]);
                let v: Tile<E, { [1, 1, BLOCK_N, BLOCK_D] }> = load_view_tko(
                    &v_view, [batch_idx, kv_head_idx, cnt, zero], ordering::Weak, scope::TileBlock, Some(3), tma::Enabled);
                let v: Tile<E, { [BLOCK_N, BLOCK_D] }> = v.reshape(const_shape![BLOCK_N, BLOCK_D]);
                let p: Tile<E, { [BLOCK_M, BLOCK_N] }> = convert_tile(p);
                acc = mma(p, v, acc_scaled);
                m_i = m_ij;
                cnt = one + cnt;
            }
        }

        let out: Tile<f32, { [BLOCK_M, BLOCK_D] }> = divf(
            acc, l_i.reshape(const_shape![BLOCK_M, 1]).broadcast(const_shape![BLOCK_M, BLOCK_D]), rounding::Approx, ftz::Enabled);
        let out: Tile<f32, { [1, 1, BLOCK_M, BLOCK_D] }> = out.reshape(const_shape![1, 1, BLOCK_M, BLOCK_D]);
        let out: Tile<E, { [1, 1, BLOCK_M, BLOCK_D] }> = convert_tile(out);
        let mut out_view: PartitionMut<E, { [1, 1, BLOCK_M, BLOCK_D] }> =
            unsafe { Out.partition_full_mut(const_shape![1, 1, BLOCK_M, BLOCK_D]) };
        out_view.store(out, [batch_idx, head_idx, bid_x, zero]);
    }
}
