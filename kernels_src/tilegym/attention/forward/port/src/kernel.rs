//! Port of tilegym.ops.cutile.attention:_fmha_kernel (fmha_kernel_impl): one block per TILE_M
//! queries of one head, Q loaded zero-padded, K tiles transposed through a dim_map view, an
//! online softmax in exp2. cuTile Python splits the K/V loop at `j >= mask_start` (the test
//! inside its body): the tiles before it run unmasked, the rest build the key-bound and
//! causal masks. The port writes the two loops as cuTile Python's IR has them.
#[cutile::module]
pub mod fmha_port {
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

    #[cutile::entry(unchecked_accesses = true)]
    pub unsafe fn fmha<
        E: ElementType,
        const TILE_D: i32,
        const H: i32,
        const TILE_M: i32,
        const TILE_N: i32,
        const QUERY_GROUP_SIZE: i32,
        const CAUSAL: i32,
        const EVEN_K: i32,
    >(
        Q: &Tensor<E, { [-1, -1, -1, -1] }>,
        K: &Tensor<E, { [-1, -1, -1, -1] }>,
        V: &Tensor<E, { [-1, -1, -1, -1] }>,
        Out: &Tensor<E, { [-1, -1, -1, -1] }>,
        qk_scale: f32,
        input_pos: i32,
    ) {
        let one: i32 = 1i32;     // first, as in cuTile Python's IR (the divisor and loop step)
        let bid_x: i32 = get_tile_block_id().0;
        let bid_y: i32 = get_tile_block_id().1;
        let batch_idx: i32 = floor_div(bid_y, H);
        let head_idx: i32 = floor_mod(bid_y, H);
        let off_kv_h: i32 = floor_div(head_idx, QUERY_GROUP_SIZE);
        let zero: i32 = 0i32;

        let inv_log_2: Tile<f32, { [] }> = constant(1.4426950408889634f32, const_shape![]);
        let qk_scale: Tile<f32, { [] }> = scalar_to_tile(qk_scale);
        let qk_scale: Tile<f32, { [] }> = qk_scale * inv_log_2;

        // the query positions only the causal mask reads (cuTile Python drops them otherwise)
        let mut offs_m: Tile<i32, { [TILE_M, 1] }> = constant(0i32, const_shape![TILE_M, 1]);
        if CAUSAL == 1i32 {
            let m0: Tile<i32, { [] }> = scalar_to_tile(bid_x * TILE_M);
            let pos: Tile<i32, { [] }> = scalar_to_tile(input_pos);
            let lanes_m: Tile<i32, { [TILE_M] }> = iota(const_shape![TILE_M]);
            let rows: Tile<i32, { [TILE_M] }> = lanes_m + m0.reshape(const_shape![1]).broadcast(const_shape![TILE_M]);
            let rows: Tile<i32, { [TILE_M] }> = rows + pos.reshape(const_shape![1]).broadcast(const_shape![TILE_M]);
            offs_m = rows.reshape(const_shape![TILE_M, 1]);
        }
        let lanes_n: Tile<i32, { [TILE_N] }> = iota(const_shape![TILE_N]);
        let offs_n_tile: Tile<i32, { [1, TILE_N] }> = lanes_n.reshape(const_shape![1, TILE_N]);

        let mut m_i: Tile<f32, { [TILE_M, 1] }> = constant(f32::NEG_INFINITY, const_shape![TILE_M, 1]);
        let mut l_i: Tile<f32, { [TILE_M, 1] }> = constant(0.0f32, const_shape![TILE_M, 1]);
        let mut acc: Tile<f32, { [TILE_M, TILE_D] }> = constant(0.0f32, const_shape![TILE_M, TILE_D]);

        let q_view: Partition<E, { [1, 1, TILE_M, TILE_D] }> = unsafe {
            make_partition_view(Q, const_shape![1, 1, TILE_M, TILE_D], padding::Zero, dim_map::Identity, Q.token())
        };
        let q: Tile<E, { [1, 1, TILE_M, TILE_D] }> = q_view.load([batch_idx, head_idx, bid_x, zero]);
        let q: Tile<E, { [TILE_M, TILE_D] }> = q.reshape(const_shape![TILE_M, TILE_D]);

        let k_seqlen: i32 = get_shape_dim(K.shape(), 2i32);
        let mut mask_start: i32 = 0i32;
        let mut tc: i32 = 0i32;
        if CAUSAL == 1i32 {
            let m_end: i32 = input_pos + (one + bid_x) * TILE_M;
            let first: i32 = floor_div(input_pos + bid_x * TILE_M, TILE_N);
            mask_start = min(first, floor_div(k_seqlen, TILE_N));
            let last: Tile<i32, { [] }> = scalar_to_tile(min(m_end, k_seqlen));
            let tiles: Tile<i32, { [] }> = divi(last, scalar_to_tile(TILE_N), rounding::PositiveInf);
            tc = tile_to_scalar(tiles);
        } else {
            let keys: Tile<i32, { [] }> = scalar_to_tile(k_seqlen);
            let tiles: Tile<i32, { [] }> = divi(keys, scalar_to_tile(TILE_N), rounding::PositiveInf);
            tc = tile_to_scalar(tiles);
            if EVEN_K == 0i32 {
                mask_start = floor_div(k_seqlen, TILE_N);
            }
        }

        let k_view: Partition<E, { [1, 1, TILE_D, TILE_N] }> = unsafe {
            make_partition_view(K, const_shape![1, 1, TILE_D, TILE_N], padding::None, const_array![0, 1, 3, 2], K.token())
        };
        let zero_qk: Tile<f32, { [TILE_M, TILE_N] }> = constant(0.0f32, const_shape![TILE_M, TILE_N]);
        let scale_m: Tile<f32, { [TILE_M, 1] }> = qk_scale.reshape(const_shape![1, 1]).broadcast(const_shape![TILE_M, 1]);
        let scale_mn: Tile<f32, { [TILE_M, TILE_N] }> =
            qk_scale.reshape(const_shape![1, 1]).broadcast(const_shape![TILE_M, TILE_N]);
        let v_view: Partition<E, { [1, 1, TILE_N, TILE_D] }> = unsafe {
            make_partition_view(V, const_shape![1, 1, TILE_N, TILE_D], padding::None, dim_map::Identity, V.token())
        };

        // the tiles no mask touches: all of them, or those before mask_start
        let mut unmasked_end: i32 = tc;
        let mut masked_start: i32 = zero;
        if CAUSAL == 1i32 || EVEN_K == 0i32 {
            unmasked_end = min(mask_start, tc);
            masked_start = max(zero, mask_start);
        }
        for j in 0i32..unmasked_end {
            let k: Tile<E, { [1, 1, TILE_D, TILE_N] }> = load_view_tko(
                &k_view, [batch_idx, off_kv_h, zero, j], ordering::Weak, scope::TileBlock, Some(2), tma::Enabled);
            let k: Tile<E, { [TILE_D, TILE_N] }> = k.reshape(const_shape![TILE_D, TILE_N]);
            let qk: Tile<f32, { [TILE_M, TILE_N] }> = mma(q, k, zero_qk);
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
                &v_view, [batch_idx, off_kv_h, j, zero], ordering::Weak, scope::TileBlock, Some(4), tma::Enabled);
            let v: Tile<E, { [TILE_N, TILE_D] }> = v.reshape(const_shape![TILE_N, TILE_D]);
            let p: Tile<E, { [TILE_M, TILE_N] }> = convert_tile(p);
            acc = mma(p, v, acc_scaled);
            m_i = m_ij;
        }
        if CAUSAL == 1i32 || EVEN_K == 0i32 {
            let all: bool = true;
            let all_t: Tile<bool, { [] }> = scalar_to_tile(all);
            let everywhere: Tile<bool, { [TILE_M, TILE_N] }> =
                all_t.reshape(const_shape![1, 1]).broadcast(const_shape![TILE_M, TILE_N]);
            let keys_t: Tile<i32, { [] }> = scalar_to_tile(k_seqlen);
            let key_end: Tile<i32, { [1, TILE_N] }> = keys_t.reshape(const_shape![1, 1]).broadcast(const_shape![1, TILE_N]);
            let offs_m_b: Tile<i32, { [TILE_M, TILE_N] }> = offs_m.broadcast(const_shape![TILE_M, TILE_N]);
            let hidden: Tile<f32, { [TILE_M, TILE_N] }> = constant(f32::NEG_INFINITY, const_shape![TILE_M, TILE_N]);
            for j in masked_start..tc {
                let k: Tile<E, { [1, 1, TILE_D, TILE_N] }> = load_view_tko(
                    &k_view, [batch_idx, off_kv_h, zero, j], ordering::Weak, scope::TileBlock, Some(2), tma::Enabled);
                let k: Tile<E, { [TILE_D, TILE_N] }> = k.reshape(const_shape![TILE_D, TILE_N]);
                let qk: Tile<f32, { [TILE_M, TILE_N] }> = mma(q, k, zero_qk);
                let n0: Tile<i32, { [] }> = scalar_to_tile(j * TILE_N);
                let offs_n: Tile<i32, { [1, TILE_N] }> =
                    offs_n_tile + n0.reshape(const_shape![1, 1]).broadcast(const_shape![1, TILE_N]);
                let mut mask: Tile<bool, { [TILE_M, TILE_N] }> = everywhere;
                if EVEN_K == 0i32 {
                    let inside: Tile<bool, { [1, TILE_N] }> = cmpi(offs_n, key_end, predicate::LessThan);
                    mask = andi(mask, inside.broadcast(const_shape![TILE_M, TILE_N]));
                }
                if CAUSAL == 1i32 {
                    let offs_n_b: Tile<i32, { [TILE_M, TILE_N] }> = offs_n.broadcast(const_shape![TILE_M, TILE_N]);
                    let seen: Tile<bool, { [TILE_M, TILE_N] }> = cmpi(offs_m_b, offs_n_b, predicate::GreaterThanOrEqual);
                    mask = andi(mask, seen);
                }
                let qk: Tile<f32, { [TILE_M, TILE_N] }> = qk + select(mask, zero_qk, hidden);
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
                    &v_view, [batch_idx, off_kv_h, j, zero], ordering::Weak, scope::TileBlock, Some(4), tma::Enabled);
                let v: Tile<E, { [TILE_N, TILE_D] }> = v.reshape(const_shape![TILE_N, TILE_D]);
                let p: Tile<E, { [TILE_M, TILE_N] }> = convert_tile(p);
                acc = mma(p, v, acc_scaled);
                m_i = m_ij;
            }
        }

        let out: Tile<f32, { [TILE_M, TILE_D] }> =
            divf(acc, l_i.broadcast(const_shape![TILE_M, TILE_D]), rounding::Approx, ftz::Enabled);
        let out: Tile<f32, { [1, 1, TILE_M, TILE_D] }> = out.reshape(const_shape![1, 1, TILE_M, TILE_D]);
        let out: Tile<E, { [1, 1, TILE_M, TILE_D] }> = convert_tile(out);
        let mut out_view: PartitionMut<E, { [1, 1, TILE_M, TILE_D] }> =
            unsafe { Out.partition_full_mut(const_shape![1, 1, TILE_M, TILE_D]) };
        out_view.store(out, [batch_idx, head_idx, bid_x, zero]);
    }
}
