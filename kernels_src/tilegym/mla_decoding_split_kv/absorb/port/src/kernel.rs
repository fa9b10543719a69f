//! Port of tilegym.ops.cutile.mla_decoding_split_kv:_naive_absorb_mla_transpose_kernel (the
//! split-KV MLA decode's first launch): one block per (16 heads, token, split), everything
//! transposed (heads last): q and q_pe loaded through zero-padded [0, 2, 1] views, the split's
//! part of the latent cache (K = V) streamed through TILE_N x 512 tiles, qk = K q + K_pe q_pe,
//! the tail past S_kv masked in the last tile, an online softmax in exp2. Writes the partial
//! output by TMA and the split's base-2 lse by a bounds-checked scatter (LSE_Out comes in as
//! cuTile Python's entry takes it: pointer, extents, strides).
#[cutile::module]
pub mod mla_split_kv_port {
    use cutile::core::*;

    /// A scalar as lanes of u64 (scatter indices and extents are widened to 64 bits and
    /// compared unsigned). Bind the result with `let` before any arithmetic.
    fn lanes<const N: i32>(v: i32) -> Tile<u64, { [N] }> {
        let s: Tile<i32, { [] }> = scalar_to_tile(v);
        let w: Tile<u64, { [] }> = exti(s);
        w.reshape(const_shape![1]).broadcast(const_shape![N])
    }

    fn lanes_u64<const N: i32>(t: Tile<i32, { [N] }>) -> Tile<u64, { [N] }> {
        exti(t)
    }

    fn ones<const N: i32>() -> Tile<u64, { [N] }> {
        constant(1u64, const_shape![N])
    }

    /// `if split_kv_end > S_kv: split_kv_end = S_kv`, in a function of its own so that the
    /// `if` yields the end alone (cutile threads every mutable variable in scope through it).
    fn clamp_end(end: i32, s_kv: i32) -> i32 {
        let mut end: i32 = end;
        if end > s_kv {
            end = s_kv;
        }
        end
    }

    /// The last tile's keys past S_kv hidden (`if curr_n >= mask_start`), qk yielded alone.
    fn mask_tail<const TILE_N: i32, const TILE_H: i32>(
        qk: Tile<f32, { [TILE_N, TILE_H] }>, curr_n: i32, mask_start: i32, s_kv: i32,
        offs_n: Tile<i32, { [TILE_N] }>,
    ) -> Tile<f32, { [TILE_N, TILE_H] }> {
        let mut qk: Tile<f32, { [TILE_N, TILE_H] }> = qk;
        if curr_n >= mask_start {
            let n0: Tile<i32, { [] }> = scalar_to_tile(curr_n);
            let keys: Tile<i32, { [TILE_N, 1] }> = offs_n.reshape(const_shape![TILE_N, 1])
                + n0.reshape(const_shape![1, 1]).broadcast(const_shape![TILE_N, 1]);
            let end: Tile<i32, { [] }> = scalar_to_tile(s_kv);
            let inside: Tile<bool, { [TILE_N, 1] }> =
                cmpi(keys, end.reshape(const_shape![1, 1]).broadcast(const_shape![TILE_N, 1]), predicate::LessThan);
            let hidden: Tile<f32, { [TILE_N, TILE_H] }> = constant(-1.0e6f32, const_shape![TILE_N, TILE_H]);
            qk = select(inside.broadcast(const_shape![TILE_N, TILE_H]), qk, hidden);
        }
        qk
    }

    #[cutile::entry(unchecked_accesses = true, optimization_hints = (sm_90 = (occupancy = 2,), sm_100 = (occupancy = 2,)))]
    pub unsafe fn naive_absorb_mla_transpose<
        E: ElementType,
        const NUM_KV_SPLITS: i32,
        const KV_LEN_PER_SPLIT: i32,
        const TILE_D: i32,
        const TILE_H: i32,
        const TILE_N: i32,
        const TILE_KPE: i32,
        const EVEN_N: i32,
    >(
        Q: &Tensor<E, { [-1, -1, -1] }>,
        QPE: &Tensor<E, { [-1, -1, -1] }>,
        K: &Tensor<E, { [-1, -1, -1] }>,
        V: &Tensor<E, { [-1, -1, -1] }>,
        KPE: &Tensor<E, { [-1, -1, -1] }>,
        Att_Out: &Tensor<E, { [-1, -1, -1, -1] }>,
        LSE_Out: *mut f32, LSE_Out_shape0: i32, LSE_Out_shape1: i32, LSE_Out_shape2: i32,
        LSE_Out_stride0: i32, LSE_Out_stride1: i32, LSE_Out_stride2: i32,
        sm_scale: f32,
        B: i32,
        NUM_HEADS: i32,
        S_kv: i32,
    ) {
        let unit: Tile<u64, { [TILE_H] }> = ones::<TILE_H>();     // first, as in cuTile Python's IR
        let LSE_Out_shape0 = unsafe { assume_bounds_lower::<_, 0>(LSE_Out_shape0) };
        let LSE_Out_shape1 = unsafe { assume_bounds_lower::<_, 0>(LSE_Out_shape1) };
        let LSE_Out_shape2 = unsafe { assume_bounds_lower::<_, 0>(LSE_Out_shape2) };
        let LSE_Out_stride0 = unsafe { assume_bounds_lower::<_, 0>(LSE_Out_stride0) };
        let LSE_Out_stride1 = unsafe { assume_bounds_lower::<_, 0>(LSE_Out_stride1) };
        let _ = (LSE_Out_stride2, B, NUM_HEADS);
        let entry: Token = new_token_unordered();
        let pid_x: i32 = get_tile_block_id().0;
        let batch_idx: i32 = get_tile_block_id().1;
        let tile_idx: i32 = get_tile_block_id().2;
        let inv_log_2: Tile<f32, { [] }> = constant(1.4426950408889634f32, const_shape![]);
        let sm: Tile<f32, { [] }> = scalar_to_tile(sm_scale);
        let qk_scale: Tile<f32, { [] }> = sm * inv_log_2;

        let mut m_prev: Tile<f32, { [TILE_H] }> = constant(f32::NEG_INFINITY, const_shape![TILE_H]);
        let mut l_prev: Tile<f32, { [TILE_N, TILE_H] }> = constant(1.0f32, const_shape![TILE_N, TILE_H]);
        let mut acc: Tile<f32, { [TILE_D, TILE_H] }> = constant(0.0f32, const_shape![TILE_D, TILE_H]);
        let zero: i32 = 0i32;
        let q_view: Partition<E, { [1, TILE_D, TILE_H] }> = unsafe {
            make_partition_view(Q, const_shape![1, TILE_D, TILE_H], padding::Zero, const_array![0, 2, 1], Q.token())
        };
        let q: Tile<E, { [1, TILE_D, TILE_H] }> = load_view_tko(
            &q_view, [batch_idx, zero, pid_x], ordering::Weak, scope::TileBlock, Some(2), tma::Enabled);
        let q: Tile<E, { [TILE_D, TILE_H] }> = q.reshape(const_shape![TILE_D, TILE_H]);
        let qpe_view: Partition<E, { [1, TILE_KPE, TILE_H] }> = unsafe {
            make_partition_view(QPE, const_shape![1, TILE_KPE, TILE_H], padding::Zero, const_array![0, 2, 1], QPE.token())
        };
        let qpe: Tile<E, { [1, TILE_KPE, TILE_H] }> = load_view_tko(
            &qpe_view, [batch_idx, zero, pid_x], ordering::Weak, scope::TileBlock, Some(2), tma::Enabled);
        let qpe: Tile<E, { [TILE_KPE, TILE_H] }> = qpe.reshape(const_shape![TILE_KPE, TILE_H]);

        let split_kv_start: i32 = KV_LEN_PER_SPLIT * tile_idx;
        let split_kv_end: i32 = clamp_end(KV_LEN_PER_SPLIT + split_kv_start, S_kv);
        let cnt0: Tile<i32, { [] }> = divi(scalar_to_tile(split_kv_start), scalar_to_tile(TILE_N), rounding::NegativeInf);
        let mut cnt: i32 = tile_to_scalar(cnt0);
        let mut mask_start: i32 = zero;     // read by the tail mask only
        if EVEN_N == 0i32 {
            let tiles: Tile<i32, { [] }> = divi(scalar_to_tile(S_kv), scalar_to_tile(TILE_N), rounding::NegativeInf);
            let tiles: i32 = tile_to_scalar(tiles);
            mask_start = TILE_N * tiles;
        }
        let offs_n: Tile<i32, { [TILE_N] }> = iota(const_shape![TILE_N]);
        let k_view: Partition<E, { [1, TILE_N, TILE_D] }> = unsafe {
            make_partition_view(K, const_shape![1, TILE_N, TILE_D], padding::Zero, dim_map::Identity, K.token())
        };
        let zero_qk: Tile<f32, { [TILE_N, TILE_H] }> = constant(0.0f32, const_shape![TILE_N, TILE_H]);
        let kpe_view: Partition<E, { [1, TILE_N, TILE_KPE] }> = unsafe {
            make_partition_view(KPE, const_shape![1, TILE_N, TILE_KPE], padding::Zero, dim_map::Identity, KPE.token())
        };
        let scale_h: Tile<f32, { [TILE_H] }> = qk_scale.reshape(const_shape![1]).broadcast(const_shape![TILE_H]);
        let scale_nh: Tile<f32, { [TILE_N, TILE_H] }> =
            qk_scale.reshape(const_shape![1, 1]).broadcast(const_shape![TILE_N, TILE_H]);
        let v_view: Partition<E, { [TILE_N, 1, TILE_D] }> = unsafe {
            make_partition_view(V, const_shape![TILE_N, 1, TILE_D], padding::Zero, const_array![1, 0, 2], V.token())
        };
        for curr_n in (split_kv_start..split_kv_end).step_by(TILE_N as usize) {
            let k: Tile<E, { [1, TILE_N, TILE_D] }> = load_view_tko(
                &k_view, [batch_idx, cnt, zero], ordering::Weak, scope::TileBlock, Some(2), tma::Enabled);
            let k: Tile<E, { [TILE_N, TILE_D] }> = k.reshape(const_shape![TILE_N, TILE_D]);
            let qk: Tile<f32, { [TILE_N, TILE_H] }> = mma(k, q, zero_qk);
            let kpe: Tile<E, { [1, TILE_N, TILE_KPE] }> = load_view_tko(
                &kpe_view, [batch_idx, cnt, zero], ordering::Weak, scope::TileBlock, Some(2), tma::Enabled);
            let kpe: Tile<E, { [TILE_N, TILE_KPE] }> = kpe.reshape(const_shape![TILE_N, TILE_KPE]);
            let mut qk: Tile<f32, { [TILE_N, TILE_H] }> = mma(kpe, qpe, qk);
            if EVEN_N == 0i32 {
                qk = mask_tail(qk, curr_n, mask_start, S_kv, offs_n);
            }
            let qk: Tile<f32, { [TILE_N, TILE_H] }> = qk;
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
            cnt = one_plus(cnt);
        }

        let l_sum: Tile<f32, { [TILE_H] }> = reduce_sum(l_prev, 0i32);
        let out: Tile<f32, { [TILE_D, TILE_H] }> = divf(
            acc, l_sum.reshape(const_shape![1, TILE_H]).broadcast(const_shape![TILE_D, TILE_H]), rounding::Approx, ftz::Enabled);
        let lse: Tile<f32, { [TILE_H] }> = m_prev + log2(l_sum);
        let out: Tile<E, { [TILE_D, TILE_H] }> = convert_tile(out);
        let out: Tile<E, { [TILE_H, TILE_D] }> = permute(out, const_array![1, 0]);
        let out: Tile<E, { [1, TILE_H, 1, TILE_D] }> = out.reshape(const_shape![1, TILE_H, 1, TILE_D]);
        let mut out_view: PartitionMut<E, { [1, TILE_H, 1, TILE_D] }> =
            unsafe { Att_Out.partition_full_mut(const_shape![1, TILE_H, 1, TILE_D]) };
        unsafe {
            store_view_tko_mut(&mut out_view, out, [batch_idx, pid_x, tile_idx, zero], ordering::Weak, scope::TileBlock,
                               Some(2), tma::Enabled)
        };

        // LSE_Out[batch, pid_x * TILE_H + h, split], bounds checked, latency 2
        let h0: Tile<i32, { [] }> = scalar_to_tile(TILE_H * pid_x);
        let lanes_h: Tile<i32, { [TILE_H] }> = iota(const_shape![TILE_H]);
        let idx_head: Tile<i32, { [TILE_H] }> = lanes_h + h0.reshape(const_shape![1]).broadcast(const_shape![TILE_H]);
        let b: Tile<u64, { [TILE_H] }> = lanes::<TILE_H>(batch_idx);
        let nb: Tile<u64, { [TILE_H] }> = lanes::<TILE_H>(LSE_Out_shape0);
        let ok: Tile<bool, { [TILE_H] }> = cmpi(b, nb, predicate::LessThan);
        let sb: Tile<u64, { [TILE_H] }> = lanes::<TILE_H>(LSE_Out_stride0);
        let off: Tile<u64, { [TILE_H] }> = b * sb;
        let h: Tile<u64, { [TILE_H] }> = lanes_u64::<TILE_H>(idx_head);
        let nh: Tile<u64, { [TILE_H] }> = lanes::<TILE_H>(LSE_Out_shape1);
        let ok_h: Tile<bool, { [TILE_H] }> = cmpi(h, nh, predicate::LessThan);
        let ok: Tile<bool, { [TILE_H] }> = andi(ok, ok_h);
        let sh: Tile<u64, { [TILE_H] }> = lanes::<TILE_H>(LSE_Out_stride1);
        let off_h: Tile<u64, { [TILE_H] }> = h * sh;
        let off: Tile<u64, { [TILE_H] }> = off + off_h;
        let t: Tile<u64, { [TILE_H] }> = lanes::<TILE_H>(tile_idx);
        let nt: Tile<u64, { [TILE_H] }> = lanes::<TILE_H>(LSE_Out_shape2);
        let ok_t: Tile<bool, { [TILE_H] }> = cmpi(t, nt, predicate::LessThan);
        let ok: Tile<bool, { [TILE_H] }> = andi(ok, ok_t);
        let off_t: Tile<u64, { [TILE_H] }> = unit * t;
        let off: Tile<u64, { [TILE_H] }> = off + off_t;
        let base: PointerTile<*mut f32, { [] }> = pointer_to_tile(LSE_Out);
        let base: PointerTile<*mut f32, { [1] }> = base.reshape(const_shape![1]);
        let base: PointerTile<*mut f32, { [TILE_H] }> = base.broadcast(const_shape![TILE_H]);
        let ptrs: PointerTile<*mut f32, { [TILE_H] }> = base.offset_tile(off);
        let _t: Token = unsafe {
            store_ptr_tko(ptrs, lse, ordering::Weak, None::<scope::TileBlock>, Some(ok), Some(entry), Latency::<2>)
        };
    }

    /// cnt += 1 (the counter's constant 1 comes first in cuTile Python's IR).
    fn one_plus(cnt: i32) -> i32 {
        let one: i32 = 1i32;
        one + cnt
    }
}
