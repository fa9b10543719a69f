//! Port of tilegym.ops.cutile.mla:_prefill_mla_kernel: one block per TILE_M queries of one
//! head; per K/V tile two mma (q k^T from a transposed K view, then q_pe k_pe^T added into the
//! same accumulator; k_pe is one head shared by all), a causal mask, an online softmax in exp2.
//! H is a runtime integer (so `% H` keeps its divisor-sign test). cuTile Python splits the
//! loop at `j >= mask_start`: tiles before the diagonal run unmasked; the port writes both.
#[cutile::module]
pub mod mla_prefill_port {
    use cutile::core::*;

    /// `a // b` as Python computes it (rounding toward negative infinity).
    fn floor_div(a: i32, b: i32) -> i32 {
        let q: Tile<i32, { [] }> = divi(scalar_to_tile(a), scalar_to_tile(b), rounding::NegativeInf);
        tile_to_scalar(q)
    }

    /// `a % b` as Python computes it for a runtime b: the remainder, moved by b when its sign
    /// differs from b's and it is not zero (cuTile Python's expansion).
    fn floor_mod(a: i32, b: i32) -> i32 {
        let b_t: Tile<i32, { [] }> = scalar_to_tile(b);
        let r: Tile<i32, { [] }> = remi(scalar_to_tile(a), b_t);
        let zero: Tile<i32, { [] }> = constant(0i32, const_shape![]);
        let negative: Tile<bool, { [] }> = cmpi(r, zero, predicate::LessThan);
        let divisor_negative: Tile<bool, { [] }> = cmpi(b_t, zero, predicate::LessThan);
        let signs_differ: Tile<bool, { [] }> = xori(negative, divisor_negative);
        let nonzero: Tile<bool, { [] }> = cmpi(r, zero, predicate::NotEqual);
        let fix: Tile<bool, { [] }> = andi(signs_differ, nonzero);
        let moved: Tile<i32, { [] }> = b_t + r;
        tile_to_scalar(select(fix, moved, r))
    }

    #[cutile::entry(unchecked_accesses = true)]
    pub unsafe fn prefill_mla<
        E: ElementType,
        const TILE_D: i32,
        const TILE_KPE: i32,
        const TILE_M: i32,
        const TILE_N: i32,
        const QUERY_GROUP_SIZE: i32,
    >(
        Q: &Tensor<E, { [-1, -1, -1, -1] }>,
        QPE: &Tensor<E, { [-1, -1, -1, -1] }>,
        K: &Tensor<E, { [-1, -1, -1, -1] }>,
        KPE: &Tensor<E, { [-1, -1, -1, -1] }>,
        V: &Tensor<E, { [-1, -1, -1, -1] }>,
        Out: &Tensor<E, { [-1, -1, -1, -1] }>,
        qk_scale: f32,
        H: i32,
    ) {
        let one: i32 = 1i32;     // first, as in cuTile Python's IR (the loop step)
        let bid_x: i32 = get_tile_block_id().0;
        let bid_y: i32 = get_tile_block_id().1;
        let batch_idx: i32 = floor_div(bid_y, H);
        let head_idx: i32 = floor_mod(bid_y, H);
        let mut off_kv_h: i32 = head_idx;
        if QUERY_GROUP_SIZE > 0i32 {
            off_kv_h = floor_div(head_idx, QUERY_GROUP_SIZE);
        }
        let zero: i32 = 0i32;
        let inv_log_2: Tile<f32, { [] }> = constant(1.4426950408889634f32, const_shape![]);
        let qk_scale: Tile<f32, { [] }> = scalar_to_tile(qk_scale);
        let qk_scale: Tile<f32, { [] }> = qk_scale * inv_log_2;

        let m0: Tile<i32, { [] }> = scalar_to_tile(bid_x * TILE_M);
        let lanes_m: Tile<i32, { [TILE_M] }> = iota(const_shape![TILE_M]);
        let offs_m: Tile<i32, { [TILE_M] }> = lanes_m + m0.reshape(const_shape![1]).broadcast(const_shape![TILE_M]);
        let offs_m: Tile<i32, { [TILE_M, 1] }> = offs_m.reshape(const_shape![TILE_M, 1]);
        let lanes_n: Tile<i32, { [TILE_N] }> = iota(const_shape![TILE_N]);
        let offs_n: Tile<i32, { [1, TILE_N] }> = lanes_n.reshape(const_shape![1, TILE_N]);

        let mut m_i: Tile<f32, { [TILE_M] }> = constant(f32::NEG_INFINITY, const_shape![TILE_M]);
        let mut l_i: Tile<f32, { [TILE_M] }> = constant(1.0f32, const_shape![TILE_M]);
        let mut acc: Tile<f32, { [TILE_M, TILE_D] }> = constant(0.0f32, const_shape![TILE_M, TILE_D]);
        let q_view: Partition<E, { [1, 1, TILE_M, TILE_D] }> = unsafe {
            make_partition_view(Q, const_shape![1, 1, TILE_M, TILE_D], padding::None, dim_map::Identity, Q.token())
        };
        let q: Tile<E, { [1, 1, TILE_M, TILE_D] }> = q_view.load([batch_idx, head_idx, bid_x, zero]);
        let q: Tile<E, { [TILE_M, TILE_D] }> = q.reshape(const_shape![TILE_M, TILE_D]);
        let qpe_view: Partition<E, { [1, 1, TILE_M, TILE_KPE] }> = unsafe {
            make_partition_view(QPE, const_shape![1, 1, TILE_M, TILE_KPE], padding::None, dim_map::Identity, QPE.token())
        };
        let qpe: Tile<E, { [1, 1, TILE_M, TILE_KPE] }> = qpe_view.load([batch_idx, head_idx, bid_x, zero]);
        let qpe: Tile<E, { [TILE_M, TILE_KPE] }> = qpe.reshape(const_shape![TILE_M, TILE_KPE]);

        let mask_start: i32 = bid_x * TILE_M;
        let hi: i32 = (one + bid_x) * TILE_M;
        let mask_start: i32 = floor_div(mask_start, TILE_N);
        let hi_t: Tile<i32, { [] }> = scalar_to_tile(hi);
        let hi_t: Tile<i32, { [] }> = divi(hi_t, scalar_to_tile(TILE_N), rounding::PositiveInf);
        let hi: i32 = tile_to_scalar(hi_t);

        let k_view: Partition<E, { [1, 1, TILE_D, TILE_N] }> = unsafe {
            make_partition_view(K, const_shape![1, 1, TILE_D, TILE_N], padding::None, const_array![0, 1, 3, 2], K.token())
        };
        let zero_qk: Tile<f32, { [TILE_M, TILE_N] }> = constant(0.0f32, const_shape![TILE_M, TILE_N]);
        let kpe_view: Partition<E, { [1, 1, TILE_KPE, TILE_N] }> = unsafe {
            make_partition_view(KPE, const_shape![1, 1, TILE_KPE, TILE_N], padding::None, const_array![0, 1, 3, 2], KPE.token())
        };
        let scale_m: Tile<f32, { [TILE_M] }> = qk_scale.reshape(const_shape![1]).broadcast(const_shape![TILE_M]);
        let scale_mn: Tile<f32, { [TILE_M, TILE_N] }> =
            qk_scale.reshape(const_shape![1, 1]).broadcast(const_shape![TILE_M, TILE_N]);
        let v_view: Partition<E, { [1, 1, TILE_N, TILE_D] }> = unsafe {
            make_partition_view(V, const_shape![1, 1, TILE_N, TILE_D], padding::None, dim_map::Identity, V.token())
        };
        // the loop cuTile Python splits at `j >= mask_start`: unmasked tiles, then the rest
        let unmasked_end: i32 = min(mask_start, hi);
        let masked_start: i32 = max(zero, mask_start);
        for j in 0i32..unmasked_end {
            let k: Tile<E, { [1, 1, TILE_D, TILE_N] }> = k_view.load([batch_idx, off_kv_h, zero, j]);
            let k: Tile<E, { [TILE_D, TILE_N] }> = k.reshape(const_shape![TILE_D, TILE_N]);
            let qk: Tile<f32, { [TILE_M, TILE_N] }> = mma(q, k, zero_qk);
            let kpe: Tile<E, { [1, 1, TILE_KPE, TILE_N] }> = kpe_view.load([batch_idx, zero, zero, j]);
            let kpe: Tile<E, { [TILE_KPE, TILE_N] }> = kpe.reshape(const_shape![TILE_KPE, TILE_N]);
            let qk: Tile<f32, { [TILE_M, TILE_N] }> = mma(qpe, kpe, qk);
            let row_max: Tile<f32, { [TILE_M] }> = reduce_max(qk, 1i32);
            let scaled: Tile<f32, { [TILE_M] }> = mulf(row_max, scale_m, rounding::NearestEven, ftz::Disabled);
            let m_ij: Tile<f32, { [TILE_M] }> = max_tile(m_i, scaled);
            let neg_m: Tile<f32, { [TILE_M, TILE_N] }> =
                negf(m_ij.reshape(const_shape![TILE_M, 1]).broadcast(const_shape![TILE_M, TILE_N]));
            let qk: Tile<f32, { [TILE_M, TILE_N] }> = fma(qk, scale_mn, neg_m, rounding::NearestEven, ftz::Disabled);
            let p: Tile<f32, { [TILE_M, TILE_N] }> = exp2(qk, ftz::Enabled);
            let l_ij: Tile<f32, { [TILE_M] }> = reduce_sum(p, 1i32);
            let alpha: Tile<f32, { [TILE_M] }> = exp2(m_i - m_ij, ftz::Enabled);
            l_i = fma(l_i, alpha, l_ij, rounding::NearestEven, ftz::Disabled);
            let acc_scaled: Tile<f32, { [TILE_M, TILE_D] }> =
                acc * alpha.reshape(const_shape![TILE_M, 1]).broadcast(const_shape![TILE_M, TILE_D]);
            let v: Tile<E, { [1, 1, TILE_N, TILE_D] }> = v_view.load([batch_idx, off_kv_h, j, zero]);
            let v: Tile<E, { [TILE_N, TILE_D] }> = v.reshape(const_shape![TILE_N, TILE_D]);
            let p: Tile<E, { [TILE_M, TILE_N] }> = convert_tile(p);
            acc = mma(p, v, acc_scaled);
            m_i = m_ij;
        }
        let rows: Tile<i32, { [TILE_M, TILE_N] }> = offs_m.broadcast(const_shape![TILE_M, TILE_N]);
        let hidden: Tile<f32, { [TILE_M, TILE_N] }> = constant(-1.0e6f32, const_shape![TILE_M, TILE_N]);
        for j in masked_start..hi {
            let curr_n: i32 = j * TILE_N;
            let k: Tile<E, { [1, 1, TILE_D, TILE_N] }> = k_view.load([batch_idx, off_kv_h, zero, j]);
            let k: Tile<E, { [TILE_D, TILE_N] }> = k.reshape(const_shape![TILE_D, TILE_N]);
            let qk: Tile<f32, { [TILE_M, TILE_N] }> = mma(q, k, zero_qk);
            let kpe: Tile<E, { [1, 1, TILE_KPE, TILE_N] }> = kpe_view.load([batch_idx, zero, zero, j]);
            let kpe: Tile<E, { [TILE_KPE, TILE_N] }> = kpe.reshape(const_shape![TILE_KPE, TILE_N]);
            let qk: Tile<f32, { [TILE_M, TILE_N] }> = mma(qpe, kpe, qk);
            let n0: Tile<i32, { [] }> = scalar_to_tile(curr_n);
            let keys: Tile<i32, { [1, TILE_N] }> =
                offs_n + n0.reshape(const_shape![1, 1]).broadcast(const_shape![1, TILE_N]);
            let seen: Tile<bool, { [TILE_M, TILE_N] }> =
                cmpi(rows, keys.broadcast(const_shape![TILE_M, TILE_N]), predicate::GreaterThanOrEqual);
            let qk: Tile<f32, { [TILE_M, TILE_N] }> = select(seen, qk, hidden);
            let row_max: Tile<f32, { [TILE_M] }> = reduce_max(qk, 1i32);
            let scaled: Tile<f32, { [TILE_M] }> = mulf(row_max, scale_m, rounding::NearestEven, ftz::Disabled);
            let m_ij: Tile<f32, { [TILE_M] }> = max_tile(m_i, scaled);
            let neg_m: Tile<f32, { [TILE_M, TILE_N] }> =
                negf(m_ij.reshape(const_shape![TILE_M, 1]).broadcast(const_shape![TILE_M, TILE_N]));
            let qk: Tile<f32, { [TILE_M, TILE_N] }> = fma(qk, scale_mn, neg_m, rounding::NearestEven, ftz::Disabled);
            let p: Tile<f32, { [TILE_M, TILE_N] }> = exp2(qk, ftz::Enabled);
            let l_ij: Tile<f32, { [TILE_M] }> = reduce_sum(p, 1i32);
            let alpha: Tile<f32, { [TILE_M] }> = exp2(m_i - m_ij, ftz::Enabled);
            l_i = fma(l_i, alpha, l_ij, rounding::NearestEven, ftz::Disabled);
            let acc_scaled: Tile<f32, { [TILE_M, TILE_D] }> =
                acc * alpha.reshape(const_shape![TILE_M, 1]).broadcast(const_shape![TILE_M, TILE_D]);
            let v: Tile<E, { [1, 1, TILE_N, TILE_D] }> = v_view.load([batch_idx, off_kv_h, j, zero]);
            let v: Tile<E, { [TILE_N, TILE_D] }> = v.reshape(const_shape![TILE_N, TILE_D]);
            let p: Tile<E, { [TILE_M, TILE_N] }> = convert_tile(p);
            acc = mma(p, v, acc_scaled);
            m_i = m_ij;
        }

        let out: Tile<f32, { [TILE_M, TILE_D] }> = divf(
            acc, l_i.reshape(const_shape![TILE_M, 1]).broadcast(const_shape![TILE_M, TILE_D]), rounding::Approx, ftz::Enabled);
        let out: Tile<f32, { [1, 1, TILE_M, TILE_D] }> = out.reshape(const_shape![1, 1, TILE_M, TILE_D]);
        let out: Tile<E, { [1, 1, TILE_M, TILE_D] }> = convert_tile(out);
        let mut out_view: PartitionMut<E, { [1, 1, TILE_M, TILE_D] }> =
            unsafe { Out.partition_full_mut(const_shape![1, 1, TILE_M, TILE_D]) };
        out_view.store(out, [batch_idx, head_idx, bid_x, zero]);
    }
}
