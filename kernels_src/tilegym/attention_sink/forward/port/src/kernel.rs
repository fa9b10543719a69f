//! Port of tilegym.ops.cutile.attention_sink:_attention_sink_kernel: one block per TILE_M
//! queries of one head. K tiles are loaded transposed (a dim_map [0, 1, 3, 2] view, TMA),
//! scores masked causally (from start_q, read from a one-element tensor), past the keys'
//! end and outside the sliding window (BANDWIDTH > 0), an online softmax in exp2 whose max
//! starts at the head's sink logit, and the sink's mass added to the denominator at the end.
#[cutile::module]
pub mod attention_sink_port {
    use cutile::core::*;

    /// `a // b` as Python computes it (rounding toward negative infinity).
    fn floor_div(a: i32, b: i32) -> i32 {
        let q: Tile<i32, { [] }> = divi(scalar_to_tile(a), scalar_to_tile(b), rounding::NegativeInf);
        tile_to_scalar(q)
    }

    /// `a % b` as Python computes it for a positive constant b: the remainder, moved into
    /// [0, b) when it is negative (cuTile Python's expansion, with b's sign folded).
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

    #[cutile::entry(unchecked_accesses = true, optimization_hints = (sm_90 = (occupancy = 2,), sm_100 = (occupancy = 2,)))]
    pub unsafe fn attention_sink<
        E: ElementType,
        const TILE_D: i32,
        const H: i32,
        const N_KV_CTX: i32,
        const TILE_M: i32,
        const TILE_N: i32,
        const QUERY_GROUP_SIZE: i32,
        const BANDWIDTH: i32,
    >(
        Q: &Tensor<E, { [-1, -1, -1, -1] }>,
        K: &Tensor<E, { [-1, -1, -1, -1] }>,
        V: &Tensor<E, { [-1, -1, -1, -1] }>,
        Sinks: &Tensor<E, { [-1] }>,
        Out: &Tensor<E, { [-1, -1, -1, -1] }>,
        Start_q: &Tensor<i32, { [-1] }>,
        qk_scale: f32,
    ) {
        let one: i32 = 1i32;     // first, as in cuTile Python's IR (the loop step)
        // the window's splat constants, defined before their uses as cuTile Python does (the
        // commutative addi's operands are ordered by definition); unused without a window
        let window_m: Tile<i32, { [TILE_M, 1] }> = broadcast_scalar(BANDWIDTH, const_shape![TILE_M, 1]);
        let one_m: Tile<i32, { [TILE_M, 1] }> = constant(1i32, const_shape![TILE_M, 1]);
        let bid_x: i32 = get_tile_block_id().0;
        let bid_y: i32 = get_tile_block_id().1;
        let batch_idx: i32 = floor_div(bid_y, H);
        let head_idx: i32 = floor_mod(bid_y, H);
        let off_kv_h: i32 = floor_div(head_idx, QUERY_GROUP_SIZE);
        let zero: i32 = 0i32;

        let start_q_view: Partition<i32, { [1] }> = unsafe {
            make_partition_view(Start_q, const_shape![1], padding::None, dim_map::Identity, Start_q.token())
        };
        let start_q_tile: Tile<i32, { [1] }> = start_q_view.load([zero]);
        let start_q_0d: Tile<i32, { [] }> = start_q_tile.reshape(const_shape![]);
        let start_q: i32 = tile_to_scalar(start_q_0d);

        let inv_log_2: Tile<f32, { [] }> = constant(1.4426950408889634f32, const_shape![]);
        let qk_scale: Tile<f32, { [] }> = scalar_to_tile(qk_scale);
        let qk_scale: Tile<f32, { [] }> = qk_scale * inv_log_2;

        let sinks_view: Partition<E, { [1] }> = unsafe {
            make_partition_view(Sinks, const_shape![1], padding::None, dim_map::Identity, Sinks.token())
        };
        let sink: Tile<E, { [1] }> = sinks_view.load([head_idx]);
        let sink: Tile<f32, { [1] }> = convert_tile(sink);
        let sink: Tile<f32, { [] }> = sink.reshape(const_shape![]);
        let sink_scaled: Tile<f32, { [] }> = sink * inv_log_2;

        let m0: Tile<i32, { [] }> = scalar_to_tile(bid_x * TILE_M);
        let lanes_m: Tile<i32, { [TILE_M] }> = iota(const_shape![TILE_M]);
        let offs_m: Tile<i32, { [TILE_M] }> = lanes_m + m0.reshape(const_shape![1]).broadcast(const_shape![TILE_M]);
        let offs_m: Tile<i32, { [TILE_M, 1] }> = offs_m.reshape(const_shape![TILE_M, 1]);
        let lanes_n: Tile<i32, { [TILE_N] }> = iota(const_shape![TILE_N]);
        let offs_n_tile: Tile<i32, { [1, TILE_N] }> = lanes_n.reshape(const_shape![1, TILE_N]);

        let zeros_m: Tile<f32, { [TILE_M, 1] }> = constant(0.0f32, const_shape![TILE_M, 1]);
        let mut m_i: Tile<f32, { [TILE_M, 1] }> =
            zeros_m + sink_scaled.reshape(const_shape![1, 1]).broadcast(const_shape![TILE_M, 1]);
        let mut l_i: Tile<f32, { [TILE_M, 1] }> = constant(0.0f32, const_shape![TILE_M, 1]);
        let mut acc: Tile<f32, { [TILE_M, TILE_D] }> = constant(0.0f32, const_shape![TILE_M, TILE_D]);

        let q_view: Partition<E, { [1, 1, TILE_M, TILE_D] }> = unsafe {
            make_partition_view(Q, const_shape![1, 1, TILE_M, TILE_D], padding::None, dim_map::Identity, Q.token())
        };
        let q: Tile<E, { [1, 1, TILE_M, TILE_D] }> = q_view.load([batch_idx, head_idx, bid_x, zero]);
        let q: Tile<E, { [TILE_M, TILE_D] }> = q.reshape(const_shape![TILE_M, TILE_D]);

        // lo = 0 without a window: cuTile Python folds lo // TILE_N to the constant 0
        let mut start_block: i32 = 0i32;
        if BANDWIDTH > 0 {
            let back: i32 = start_q + bid_x * TILE_M - BANDWIDTH;
            let lo: i32 = max(zero, back);
            start_block = floor_div(lo, TILE_N);
        }
        let hi: i32 = start_q + (one + bid_x) * TILE_M;
        let hi: i32 = min(hi, N_KV_CTX);
        let tc: Tile<i32, { [] }> = divi(scalar_to_tile(hi), scalar_to_tile(TILE_N), rounding::PositiveInf);
        let tc: i32 = tile_to_scalar(tc);

        let k_view: Partition<E, { [1, 1, TILE_D, TILE_N] }> = unsafe {
            make_partition_view(K, const_shape![1, 1, TILE_D, TILE_N], padding::None, const_array![0, 1, 3, 2], K.token())
        };
        let zero_qk: Tile<f32, { [TILE_M, TILE_N] }> = constant(0.0f32, const_shape![TILE_M, TILE_N]);
        let start_q_t: Tile<i32, { [] }> = scalar_to_tile(start_q);
        let query_pos: Tile<i32, { [TILE_M, 1] }> =
            offs_m + start_q_t.reshape(const_shape![1, 1]).broadcast(const_shape![TILE_M, 1]);
        let query_pos_b: Tile<i32, { [TILE_M, TILE_N] }> = query_pos.broadcast(const_shape![TILE_M, TILE_N]);
        let kv_end: Tile<i32, { [1, TILE_N] }> = broadcast_scalar(N_KV_CTX, const_shape![1, TILE_N]);
        let masked: Tile<f32, { [TILE_M, TILE_N] }> = constant(-1.0e6f32, const_shape![TILE_M, TILE_N]);
        let scale_m: Tile<f32, { [TILE_M, 1] }> = qk_scale.reshape(const_shape![1, 1]).broadcast(const_shape![TILE_M, 1]);
        let scale_mn: Tile<f32, { [TILE_M, TILE_N] }> =
            qk_scale.reshape(const_shape![1, 1]).broadcast(const_shape![TILE_M, TILE_N]);
        let v_view: Partition<E, { [1, 1, TILE_N, TILE_D] }> = unsafe {
            make_partition_view(V, const_shape![1, 1, TILE_N, TILE_D], padding::None, dim_map::Identity, V.token())
        };
        for j in start_block..tc {
            let n0: Tile<i32, { [] }> = scalar_to_tile(j * TILE_N);
            let offs_n: Tile<i32, { [1, TILE_N] }> =
                offs_n_tile + n0.reshape(const_shape![1, 1]).broadcast(const_shape![1, TILE_N]);
            let k: Tile<E, { [1, 1, TILE_D, TILE_N] }> = load_view_tko(
                &k_view, [batch_idx, off_kv_h, zero, j], ordering::Weak, scope::TileBlock, Some(6), tma::Enabled);
            let k: Tile<E, { [TILE_D, TILE_N] }> = k.reshape(const_shape![TILE_D, TILE_N]);
            let qk: Tile<f32, { [TILE_M, TILE_N] }> = mma(q, k, zero_qk);
            let offs_n_b: Tile<i32, { [TILE_M, TILE_N] }> = offs_n.broadcast(const_shape![TILE_M, TILE_N]);
            let causal: Tile<bool, { [TILE_M, TILE_N] }> = cmpi(offs_n_b, query_pos_b, predicate::GreaterThan);
            let oob: Tile<bool, { [1, TILE_N] }> = cmpi(offs_n, kv_end, predicate::GreaterThanOrEqual);
            let mut mask: Tile<bool, { [TILE_M, TILE_N] }> = ori(causal, oob.broadcast(const_shape![TILE_M, TILE_N]));
            if BANDWIDTH > 0 {
                let oldest: Tile<i32, { [TILE_M, 1] }> = query_pos - window_m + one_m;
                let keys: Tile<i32, { [TILE_M, TILE_N] }> = offs_n.broadcast(const_shape![TILE_M, TILE_N]);
                let too_old: Tile<bool, { [TILE_M, TILE_N] }> =
                    cmpi(keys, oldest.broadcast(const_shape![TILE_M, TILE_N]), predicate::LessThan);
                mask = ori(mask, too_old);
            }
            let qk: Tile<f32, { [TILE_M, TILE_N] }> = qk + select(mask, masked, zero_qk);
            let row_max: Tile<f32, { [TILE_M] }> = reduce_max(qk, 1i32);
            let m_ij: Tile<f32, { [TILE_M, 1] }> = max_tile(m_i, row_max.reshape(const_shape![TILE_M, 1]) * scale_m);
            let neg_m: Tile<f32, { [TILE_M, TILE_N] }> = negf(m_ij.broadcast(const_shape![TILE_M, TILE_N]));
            let qk: Tile<f32, { [TILE_M, TILE_N] }> = fma(qk, scale_mn, neg_m, rounding::NearestEven, ftz::Disabled);
            let p: Tile<f32, { [TILE_M, TILE_N] }> = exp2(qk, ftz::Enabled);
            let l_ij: Tile<f32, { [TILE_M] }> = reduce_sum(p, 1i32);
            let l_ij: Tile<f32, { [TILE_M, 1] }> = l_ij.reshape(const_shape![TILE_M, 1]);
            let alpha: Tile<f32, { [TILE_M, 1] }> = exp2(m_i - m_ij, ftz::Enabled);
            l_i = fma(l_i, alpha, l_ij, rounding::NearestEven, ftz::Disabled);
            let acc_scaled: Tile<f32, { [TILE_M, TILE_D] }> = acc * alpha.broadcast(const_shape![TILE_M, TILE_D]);
            let v: Tile<E, { [1, 1, TILE_N, TILE_D] }> = load_view_tko(
                &v_view, [batch_idx, off_kv_h, j, zero], ordering::Weak, scope::TileBlock, Some(6), tma::Enabled);
            let v: Tile<E, { [TILE_N, TILE_D] }> = v.reshape(const_shape![TILE_N, TILE_D]);
            let p: Tile<E, { [TILE_M, TILE_N] }> = convert_tile(p);
            acc = mma(p, v, acc_scaled);
            m_i = m_ij;
        }

        let sink_exp: Tile<f32, { [TILE_M, 1] }> =
            exp2(sink_scaled.reshape(const_shape![1, 1]).broadcast(const_shape![TILE_M, 1]) - m_i, ftz::Enabled);
        let z: Tile<f32, { [TILE_M, 1] }> = l_i + sink_exp;
        let out: Tile<f32, { [TILE_M, TILE_D] }> =
            divf(acc, z.broadcast(const_shape![TILE_M, TILE_D]), rounding::Approx, ftz::Enabled);
        let out: Tile<f32, { [1, 1, TILE_M, TILE_D] }> = out.reshape(const_shape![1, 1, TILE_M, TILE_D]);
        let out: Tile<E, { [1, 1, TILE_M, TILE_D] }> = convert_tile(out);
        let mut out_view: PartitionMut<E, { [1, 1, TILE_M, TILE_D] }> =
            unsafe { Out.partition_full_mut(const_shape![1, 1, TILE_M, TILE_D]) };
        out_view.store(out, [batch_idx, head_idx, bid_x, zero]);
    }
}
