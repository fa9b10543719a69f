//! Port of tilegym.ops.cutile.gemma_attention_decode:_gemma_attention_decode_kernel_grouped
//! (the Gemma split-KV decode's first launch): one block per (batch, kv head, split); the
//! group's queries are one transposed tile, the split's keys stream through BLOCK_N tiles;
//! the logits are soft-capped (cap * tanh(x / cap), with the scale undone from qk_scale),
//! masked past S_KV and before the window (S_KV - 1 - WINDOW_SIZE, a constant), then an
//! online softmax in exp2 with flush-to-zero. Writes the partial output (TMA when the group
//! fills its tile, else a scatter) and the lse, rounded through the input dtype as the
//! kernel does (`m + astype(log2(l), dtype)`). SOFT_CAP, a float constant in Python, is an
//! i32 generic (its f32 an itof of a constant): the port takes whole soft caps.
#[cutile::module]
pub mod gemma_decode_port {
    use cutile::core::*;

    /// A scalar as lanes of u64 (cuTile Python widens scatter indices and extents to 64
    /// bits and compares them unsigned). Bind the result with `let` before any arithmetic.
    fn lanes1<const N: i32>(v: i32) -> Tile<u64, { [N] }> {
        let s: Tile<i32, { [] }> = scalar_to_tile(v);
        let w: Tile<u64, { [] }> = exti(s);
        w.reshape(const_shape![1]).broadcast(const_shape![N])
    }

    fn lanes2<const M: i32, const N: i32>(v: i32) -> Tile<u64, { [M, N] }> {
        let s: Tile<i32, { [] }> = scalar_to_tile(v);
        let w: Tile<u64, { [] }> = exti(s);
        w.reshape(const_shape![1, 1]).broadcast(const_shape![M, N])
    }

    /// Scatter index tiles widened to u64 the way `lanes` are (so both type alike in cutile).
    fn rows_u64<const M: i32, const N: i32>(t: Tile<i32, { [M, 1] }>) -> Tile<u64, { [M, N] }> {
        let w: Tile<u64, { [M, 1] }> = exti(t);
        w.broadcast(const_shape![M, N])
    }

    fn cols_u64<const M: i32, const N: i32>(t: Tile<i32, { [1, N] }>) -> Tile<u64, { [M, N] }> {
        let w: Tile<u64, { [1, N] }> = exti(t);
        w.broadcast(const_shape![M, N])
    }

    fn lanes_u64<const N: i32>(t: Tile<i32, { [N] }>) -> Tile<u64, { [N] }> {
        exti(t)
    }

    fn ones2<const M: i32, const N: i32>() -> Tile<u64, { [M, N] }> {
        constant(1u64, const_shape![M, N])
    }

    fn ones1<const N: i32>() -> Tile<u64, { [N] }> {
        constant(1u64, const_shape![N])
    }

    #[cutile::entry(unchecked_accesses = true)]
    pub unsafe fn gemma_attention_decode_grouped<
        E: ElementType,
        const B: i32,
        const H_QO: i32,
        const H_KV: i32,
        const S_KV: i32,
        const KV_LEN_PER_SPLIT: i32,
        const HEAD_DIM: i32,
        const BLOCK_N: i32,
        const NUM_Q_HEAD_PER_KV: i32,
        const QUERY_GROUP_BLOCK_SIZE: i32,
        const NUM_KV_SPLITS: i32,
        const WINDOW_SIZE: i32,
        const SOFT_CAP: i32,
        const HAS_SOFT_CAP: i32,
    >(
        Q: &Tensor<E, { [-1, -1, -1, -1] }>,
        K: &Tensor<E, { [-1, -1, -1, -1] }>,
        V: &Tensor<E, { [-1, -1, -1, -1] }>,
        Att_Out: *mut E, Att_Out_shape0: i32, Att_Out_shape1: i32, Att_Out_shape2: i32, Att_Out_shape3: i32, Att_Out_shape4: i32,
        Att_Out_stride0: i32, Att_Out_stride1: i32, Att_Out_stride2: i32, Att_Out_stride3: i32, Att_Out_stride4: i32,
        LSE_Out: *mut f32, LSE_Out_shape0: i32, LSE_Out_shape1: i32, LSE_Out_shape2: i32, LSE_Out_shape3: i32,
        LSE_Out_stride0: i32, LSE_Out_stride1: i32, LSE_Out_stride2: i32, LSE_Out_stride3: i32,
        softmax_scale: f32,
    ) {
        // the splat constants cuTile Python defines first: the counter step, the key bound,
        // the window's first key, the unit strides
        let one: i32 = 1i32;
        let key_end: Tile<i32, { [BLOCK_N] }> = broadcast_scalar(S_KV, const_shape![BLOCK_N]);
        let window_first: Tile<i32, { [BLOCK_N] }> = broadcast_scalar(S_KV - 1i32 - WINDOW_SIZE, const_shape![BLOCK_N]);
        let unit_2d: Tile<u64, { [QUERY_GROUP_BLOCK_SIZE, HEAD_DIM] }> = ones2::<QUERY_GROUP_BLOCK_SIZE, HEAD_DIM>();
        let unit_1d: Tile<u64, { [QUERY_GROUP_BLOCK_SIZE] }> = ones1::<QUERY_GROUP_BLOCK_SIZE>();
        // what cuTile Python states of the raw arrays' extents and strides (last strides 1)
        let Att_Out_shape0 = unsafe { assume_bounds_lower::<_, 0>(Att_Out_shape0) };
        let Att_Out_shape1 = unsafe { assume_bounds_lower::<_, 0>(Att_Out_shape1) };
        let Att_Out_shape2 = unsafe { assume_bounds_lower::<_, 0>(Att_Out_shape2) };
        let Att_Out_shape3 = unsafe { assume_bounds_lower::<_, 0>(Att_Out_shape3) };
        let Att_Out_shape4 = unsafe { assume_bounds_lower::<_, 0>(Att_Out_shape4) };
        let Att_Out_stride0 = unsafe { assume_bounds_lower::<_, 0>(Att_Out_stride0) };
        let Att_Out_stride1 = unsafe { assume_bounds_lower::<_, 0>(Att_Out_stride1) };
        let Att_Out_stride2 = unsafe { assume_bounds_lower::<_, 0>(Att_Out_stride2) };
        let Att_Out_stride3 = unsafe { assume_bounds_lower::<_, 0>(Att_Out_stride3) };
        let LSE_Out_shape0 = unsafe { assume_bounds_lower::<_, 0>(LSE_Out_shape0) };
        let LSE_Out_shape1 = unsafe { assume_bounds_lower::<_, 0>(LSE_Out_shape1) };
        let LSE_Out_shape2 = unsafe { assume_bounds_lower::<_, 0>(LSE_Out_shape2) };
        let LSE_Out_shape3 = unsafe { assume_bounds_lower::<_, 0>(LSE_Out_shape3) };
        let LSE_Out_stride0 = unsafe { assume_bounds_lower::<_, 0>(LSE_Out_stride0) };
        let LSE_Out_stride1 = unsafe { assume_bounds_lower::<_, 0>(LSE_Out_stride1) };
        let LSE_Out_stride2 = unsafe { assume_bounds_lower::<_, 0>(LSE_Out_stride2) };
        // the unit strides: cuTile Python multiplies by a constant 1
        let _ = (Att_Out_stride4, LSE_Out_stride3);
        let entry: Token = new_token_unordered();
        let batch_id: i32 = get_tile_block_id().0;
        let head_id: i32 = get_tile_block_id().1;
        let tile_id: i32 = get_tile_block_id().2;
        let inv_log_2: Tile<f32, { [] }> = constant(1.4426950408889634f32, const_shape![]);
        let sm: Tile<f32, { [] }> = scalar_to_tile(softmax_scale);
        let qk_scale: Tile<f32, { [] }> = sm * inv_log_2;
        let zero: i32 = 0i32;
        let q_view: Partition<E, { [1, 1, QUERY_GROUP_BLOCK_SIZE, HEAD_DIM] }> = unsafe {
            make_partition_view(Q, const_shape![1, 1, QUERY_GROUP_BLOCK_SIZE, HEAD_DIM], padding::None,
                                dim_map::Identity, Q.token())
        };
        let q: Tile<E, { [1, 1, QUERY_GROUP_BLOCK_SIZE, HEAD_DIM] }> = load_view_tko(
            &q_view, [batch_id, head_id, zero, zero], ordering::Weak, scope::TileBlock, Some(3), tma::Enabled);
        let q: Tile<E, { [QUERY_GROUP_BLOCK_SIZE, HEAD_DIM] }> = q.reshape(const_shape![QUERY_GROUP_BLOCK_SIZE, HEAD_DIM]);
        let q: Tile<E, { [HEAD_DIM, QUERY_GROUP_BLOCK_SIZE] }> = permute(q, const_array![1, 0]);

        let start_idx: i32 = tile_id * KV_LEN_PER_SPLIT;
        let end_idx: i32 = min(S_KV, KV_LEN_PER_SPLIT + start_idx);
        let mut m_i: Tile<f32, { [QUERY_GROUP_BLOCK_SIZE] }> = constant(f32::NEG_INFINITY, const_shape![QUERY_GROUP_BLOCK_SIZE]);
        let mut l_i: Tile<f32, { [BLOCK_N, QUERY_GROUP_BLOCK_SIZE] }> = constant(1.0f32, const_shape![BLOCK_N, QUERY_GROUP_BLOCK_SIZE]);
        let mut acc: Tile<f32, { [HEAD_DIM, QUERY_GROUP_BLOCK_SIZE] }> =
            constant(0.0f32, const_shape![HEAD_DIM, QUERY_GROUP_BLOCK_SIZE]);
        if end_idx > start_idx {
            // _gemma_attn_decode_inner_grouped, inlined
            let cnt0: Tile<i32, { [] }> = divi(scalar_to_tile(start_idx), scalar_to_tile(BLOCK_N), rounding::NegativeInf);
            let mut cnt: i32 = tile_to_scalar(cnt0);
            let offs_n: Tile<i32, { [BLOCK_N] }> = iota(const_shape![BLOCK_N]);
            let k_view: Partition<E, { [1, 1, BLOCK_N, HEAD_DIM] }> = unsafe {
                make_partition_view(K, const_shape![1, 1, BLOCK_N, HEAD_DIM], padding::None, dim_map::Identity, K.token())
            };
            let zero_qk: Tile<f32, { [BLOCK_N, QUERY_GROUP_BLOCK_SIZE] }> =
                constant(0.0f32, const_shape![BLOCK_N, QUERY_GROUP_BLOCK_SIZE]);
            let hidden: Tile<f32, { [BLOCK_N, QUERY_GROUP_BLOCK_SIZE] }> =
                constant(-1.0e6f32, const_shape![BLOCK_N, QUERY_GROUP_BLOCK_SIZE]);
            let v_view: Partition<E, { [1, 1, BLOCK_N, HEAD_DIM] }> = unsafe {
                make_partition_view(V, const_shape![1, 1, BLOCK_N, HEAD_DIM], padding::None, dim_map::Identity, V.token())
            };
            for curr_n in (start_idx..(KV_LEN_PER_SPLIT + start_idx)).step_by(BLOCK_N as usize) {
                let k: Tile<E, { [1, 1, BLOCK_N, HEAD_DIM] }> = load_view_tko(
                    &k_view, [batch_id, head_id, cnt, zero], ordering::Weak, scope::TileBlock, Some(3), tma::Enabled);
                let k: Tile<E, { [BLOCK_N, HEAD_DIM] }> = k.reshape(const_shape![BLOCK_N, HEAD_DIM]);
                let mut qk: Tile<f32, { [BLOCK_N, QUERY_GROUP_BLOCK_SIZE] }> = mma(k, q, zero_qk);
                if HAS_SOFT_CAP == 1i32 {
                    let ln_2: Tile<f32, { [] }> = constant(0.6931471805599453f32, const_shape![]);
                    let sm_scale_orig: Tile<f32, { [] }> = qk_scale * ln_2;
                    qk = qk * sm_scale_orig.reshape(const_shape![1, 1]).broadcast(const_shape![BLOCK_N, QUERY_GROUP_BLOCK_SIZE]);
                    let cap_i: Tile<i32, { [] }> = scalar_to_tile(SOFT_CAP);
                    let cap_t: Tile<f32, { [] }> = convert_tile(cap_i);
                    let cap: Tile<f32, { [BLOCK_N, QUERY_GROUP_BLOCK_SIZE] }> =
                        cap_t.reshape(const_shape![1, 1]).broadcast(const_shape![BLOCK_N, QUERY_GROUP_BLOCK_SIZE]);
                    qk = divf(qk, cap, rounding::Approx, ftz::Enabled);
                    qk = unsafe { tanh_with_rounding(qk, rounding::Approx) };
                    qk = qk * cap;
                }
                let n0: Tile<i32, { [] }> = scalar_to_tile(curr_n);
                let keys: Tile<i32, { [BLOCK_N] }> = offs_n + n0.reshape(const_shape![1]).broadcast(const_shape![BLOCK_N]);
                let inside: Tile<bool, { [BLOCK_N] }> = cmpi(keys, key_end, predicate::LessThan);
                qk = select(inside.reshape(const_shape![BLOCK_N, 1]).broadcast(const_shape![BLOCK_N, QUERY_GROUP_BLOCK_SIZE]),
                            qk, hidden);
                if WINDOW_SIZE > 0i32 {
                    let n1: Tile<i32, { [] }> = scalar_to_tile(curr_n);
                    let kv_positions: Tile<i32, { [BLOCK_N] }> =
                        offs_n + n1.reshape(const_shape![1]).broadcast(const_shape![BLOCK_N]);
                    let in_window: Tile<bool, { [BLOCK_N] }> = cmpi(kv_positions, window_first, predicate::GreaterThanOrEqual);
                    qk = select(in_window.reshape(const_shape![BLOCK_N, 1]).broadcast(const_shape![BLOCK_N, QUERY_GROUP_BLOCK_SIZE]),
                                qk, hidden);
                }
                let qk: Tile<f32, { [BLOCK_N, QUERY_GROUP_BLOCK_SIZE] }> = qk;
                let col_max: Tile<f32, { [QUERY_GROUP_BLOCK_SIZE] }> = reduce_max(qk, 0i32);
                let mut scale_g: Tile<f32, { [QUERY_GROUP_BLOCK_SIZE] }> =
                    constant(1.4426950408889634f32, const_shape![QUERY_GROUP_BLOCK_SIZE]);
                let mut scale_ng: Tile<f32, { [BLOCK_N, QUERY_GROUP_BLOCK_SIZE] }> =
                    constant(1.4426950408889634f32, const_shape![BLOCK_N, QUERY_GROUP_BLOCK_SIZE]);
                if HAS_SOFT_CAP == 0i32 {
                    scale_g = qk_scale.reshape(const_shape![1]).broadcast(const_shape![QUERY_GROUP_BLOCK_SIZE]);
                    scale_ng = qk_scale.reshape(const_shape![1, 1]).broadcast(const_shape![BLOCK_N, QUERY_GROUP_BLOCK_SIZE]);
                }
                let scaled: Tile<f32, { [QUERY_GROUP_BLOCK_SIZE] }> = mulf(col_max, scale_g, rounding::NearestEven, ftz::Disabled);
                let m_ij: Tile<f32, { [QUERY_GROUP_BLOCK_SIZE] }> = max_tile(m_i, scaled);
                let neg_m: Tile<f32, { [BLOCK_N, QUERY_GROUP_BLOCK_SIZE] }> = negf(
                    m_ij.reshape(const_shape![1, QUERY_GROUP_BLOCK_SIZE]).broadcast(const_shape![BLOCK_N, QUERY_GROUP_BLOCK_SIZE]));
                let qk: Tile<f32, { [BLOCK_N, QUERY_GROUP_BLOCK_SIZE] }> = fma(qk, scale_ng, neg_m, rounding::NearestEven, ftz::Disabled);
                let alpha: Tile<f32, { [QUERY_GROUP_BLOCK_SIZE] }> = exp2(m_i - m_ij, ftz::Enabled);
                let p: Tile<f32, { [BLOCK_N, QUERY_GROUP_BLOCK_SIZE] }> = exp2(qk, ftz::Enabled);
                l_i = fma(l_i, alpha.reshape(const_shape![1, QUERY_GROUP_BLOCK_SIZE])
                          .broadcast(const_shape![BLOCK_N, QUERY_GROUP_BLOCK_SIZE]), p, rounding::NearestEven, ftz::Disabled);
                let acc_scaled: Tile<f32, { [HEAD_DIM, QUERY_GROUP_BLOCK_SIZE] }> = acc
                    * alpha.reshape(const_shape![1, QUERY_GROUP_BLOCK_SIZE]).broadcast(const_shape![HEAD_DIM, QUERY_GROUP_BLOCK_SIZE]);
                let v: Tile<E, { [1, 1, BLOCK_N, HEAD_DIM] }> = load_view_tko(
                    &v_view, [batch_id, head_id, cnt, zero], ordering::Weak, scope::TileBlock, Some(3), tma::Enabled);
                let v: Tile<E, { [BLOCK_N, HEAD_DIM] }> = v.reshape(const_shape![BLOCK_N, HEAD_DIM]);
                let v: Tile<E, { [HEAD_DIM, BLOCK_N] }> = permute(v, const_array![1, 0]);
                let p: Tile<E, { [BLOCK_N, QUERY_GROUP_BLOCK_SIZE] }> = convert_tile(p);
                acc = mma(v, p, acc_scaled);
                m_i = m_ij;
                cnt = one + cnt;
            }
        }

        let l: Tile<f32, { [QUERY_GROUP_BLOCK_SIZE] }> = reduce_sum(l_i, 0i32);
        let out: Tile<f32, { [HEAD_DIM, QUERY_GROUP_BLOCK_SIZE] }> = divf(
            acc, l.reshape(const_shape![1, QUERY_GROUP_BLOCK_SIZE]).broadcast(const_shape![HEAD_DIM, QUERY_GROUP_BLOCK_SIZE]),
            rounding::Approx, ftz::Enabled);
        let out: Tile<f32, { [QUERY_GROUP_BLOCK_SIZE, HEAD_DIM] }> = permute(out, const_array![1, 0]);
        let out: Tile<E, { [QUERY_GROUP_BLOCK_SIZE, HEAD_DIM] }> = convert_tile(out);
        // the log rounded through the input dtype, as `ct.astype(ct.log2(l), dtype)` does
        let log_l: Tile<E, { [QUERY_GROUP_BLOCK_SIZE] }> = convert_tile(log2(l));
        let log_l: Tile<f32, { [QUERY_GROUP_BLOCK_SIZE] }> = convert_tile(log_l);
        let lse: Tile<f32, { [QUERY_GROUP_BLOCK_SIZE] }> = m_i + log_l;

        if NUM_Q_HEAD_PER_KV == QUERY_GROUP_BLOCK_SIZE {
            // the group fills its tile: one TMA store of [1, 1, group, 1, HEAD_DIM]
            let out: Tile<E, { [1, 1, QUERY_GROUP_BLOCK_SIZE, 1, HEAD_DIM] }> =
                out.reshape(const_shape![1, 1, QUERY_GROUP_BLOCK_SIZE, 1, HEAD_DIM]);
            let base: PointerTile<*mut E, { [] }> = pointer_to_tile(Att_Out);
            let shape: Shape<{ [-1, -1, -1, -1, -1] }> = Shape::<{ [-1, -1, -1, -1, -1] }> {
                dims: &[Att_Out_shape0, Att_Out_shape1, Att_Out_shape2, Att_Out_shape3, Att_Out_shape4] };
            let strides: Array<{ [-1, -1, -1, -1, 1] }> = Array::<{ [-1, -1, -1, -1, 1] }> {
                dims: &[Att_Out_stride0, Att_Out_stride1, Att_Out_stride2, Att_Out_stride3, 1i32] };
            let view: Tensor<E, { [-1, -1, -1, -1, -1] }> = make_tensor_view(base, shape, strides, entry);
            let mut tiles: PartitionMut<E, { [1, 1, QUERY_GROUP_BLOCK_SIZE, 1, HEAD_DIM] }> =
                view.partition_full_mut(const_shape![1, 1, QUERY_GROUP_BLOCK_SIZE, 1, HEAD_DIM]);
            tiles.store(out, [batch_id, head_id, zero, tile_id, zero]);
        } else {
            // Att_Out[batch, head, q, split, d] for q < group, bounds checked, latency 1
            let rows: Tile<i32, { [QUERY_GROUP_BLOCK_SIZE] }> = iota(const_shape![QUERY_GROUP_BLOCK_SIZE]);
            let rows: Tile<i32, { [QUERY_GROUP_BLOCK_SIZE, 1] }> = rows.reshape(const_shape![QUERY_GROUP_BLOCK_SIZE, 1]);
            let cols: Tile<i32, { [HEAD_DIM] }> = iota(const_shape![HEAD_DIM]);
            let cols: Tile<i32, { [1, HEAD_DIM] }> = cols.reshape(const_shape![1, HEAD_DIM]);
            let idx0: Tile<u64, { [QUERY_GROUP_BLOCK_SIZE, HEAD_DIM] }> = lanes2::<QUERY_GROUP_BLOCK_SIZE, HEAD_DIM>(batch_id);
            let n0: Tile<u64, { [QUERY_GROUP_BLOCK_SIZE, HEAD_DIM] }> = lanes2::<QUERY_GROUP_BLOCK_SIZE, HEAD_DIM>(Att_Out_shape0);
            let ok: Tile<bool, { [QUERY_GROUP_BLOCK_SIZE, HEAD_DIM] }> = cmpi(idx0, n0, predicate::LessThan);
            let s0: Tile<u64, { [QUERY_GROUP_BLOCK_SIZE, HEAD_DIM] }> = lanes2::<QUERY_GROUP_BLOCK_SIZE, HEAD_DIM>(Att_Out_stride0);
            let off: Tile<u64, { [QUERY_GROUP_BLOCK_SIZE, HEAD_DIM] }> = idx0 * s0;
            let idx1: Tile<u64, { [QUERY_GROUP_BLOCK_SIZE, HEAD_DIM] }> = lanes2::<QUERY_GROUP_BLOCK_SIZE, HEAD_DIM>(head_id);
            let n1: Tile<u64, { [QUERY_GROUP_BLOCK_SIZE, HEAD_DIM] }> = lanes2::<QUERY_GROUP_BLOCK_SIZE, HEAD_DIM>(Att_Out_shape1);
            let ok1: Tile<bool, { [QUERY_GROUP_BLOCK_SIZE, HEAD_DIM] }> = cmpi(idx1, n1, predicate::LessThan);
            let ok: Tile<bool, { [QUERY_GROUP_BLOCK_SIZE, HEAD_DIM] }> = andi(ok, ok1);
            let s1: Tile<u64, { [QUERY_GROUP_BLOCK_SIZE, HEAD_DIM] }> = lanes2::<QUERY_GROUP_BLOCK_SIZE, HEAD_DIM>(Att_Out_stride1);
            let off1: Tile<u64, { [QUERY_GROUP_BLOCK_SIZE, HEAD_DIM] }> = idx1 * s1;
            let off: Tile<u64, { [QUERY_GROUP_BLOCK_SIZE, HEAD_DIM] }> = off + off1;
            let idx2: Tile<u64, { [QUERY_GROUP_BLOCK_SIZE, HEAD_DIM] }> = rows_u64::<QUERY_GROUP_BLOCK_SIZE, HEAD_DIM>(rows);
            let n2: Tile<u64, { [QUERY_GROUP_BLOCK_SIZE, HEAD_DIM] }> = lanes2::<QUERY_GROUP_BLOCK_SIZE, HEAD_DIM>(Att_Out_shape2);
            let ok2: Tile<bool, { [QUERY_GROUP_BLOCK_SIZE, HEAD_DIM] }> = cmpi(idx2, n2, predicate::LessThan);
            let ok: Tile<bool, { [QUERY_GROUP_BLOCK_SIZE, HEAD_DIM] }> = andi(ok, ok2);
            let s2: Tile<u64, { [QUERY_GROUP_BLOCK_SIZE, HEAD_DIM] }> = lanes2::<QUERY_GROUP_BLOCK_SIZE, HEAD_DIM>(Att_Out_stride2);
            let off2: Tile<u64, { [QUERY_GROUP_BLOCK_SIZE, HEAD_DIM] }> = idx2 * s2;
            let off: Tile<u64, { [QUERY_GROUP_BLOCK_SIZE, HEAD_DIM] }> = off + off2;
            let idx3: Tile<u64, { [QUERY_GROUP_BLOCK_SIZE, HEAD_DIM] }> = lanes2::<QUERY_GROUP_BLOCK_SIZE, HEAD_DIM>(tile_id);
            let n3: Tile<u64, { [QUERY_GROUP_BLOCK_SIZE, HEAD_DIM] }> = lanes2::<QUERY_GROUP_BLOCK_SIZE, HEAD_DIM>(Att_Out_shape3);
            let ok3: Tile<bool, { [QUERY_GROUP_BLOCK_SIZE, HEAD_DIM] }> = cmpi(idx3, n3, predicate::LessThan);
            let ok: Tile<bool, { [QUERY_GROUP_BLOCK_SIZE, HEAD_DIM] }> = andi(ok, ok3);
            let s3: Tile<u64, { [QUERY_GROUP_BLOCK_SIZE, HEAD_DIM] }> = lanes2::<QUERY_GROUP_BLOCK_SIZE, HEAD_DIM>(Att_Out_stride3);
            let off3: Tile<u64, { [QUERY_GROUP_BLOCK_SIZE, HEAD_DIM] }> = idx3 * s3;
            let off: Tile<u64, { [QUERY_GROUP_BLOCK_SIZE, HEAD_DIM] }> = off + off3;
            let idx4: Tile<u64, { [QUERY_GROUP_BLOCK_SIZE, HEAD_DIM] }> = cols_u64::<QUERY_GROUP_BLOCK_SIZE, HEAD_DIM>(cols);
            let n4: Tile<u64, { [QUERY_GROUP_BLOCK_SIZE, HEAD_DIM] }> = lanes2::<QUERY_GROUP_BLOCK_SIZE, HEAD_DIM>(Att_Out_shape4);
            let ok4: Tile<bool, { [QUERY_GROUP_BLOCK_SIZE, HEAD_DIM] }> = cmpi(idx4, n4, predicate::LessThan);
            let ok: Tile<bool, { [QUERY_GROUP_BLOCK_SIZE, HEAD_DIM] }> = andi(ok, ok4);
            let off4: Tile<u64, { [QUERY_GROUP_BLOCK_SIZE, HEAD_DIM] }> = unit_2d * idx4;
            let off: Tile<u64, { [QUERY_GROUP_BLOCK_SIZE, HEAD_DIM] }> = off + off4;
            let base: PointerTile<*mut E, { [] }> = pointer_to_tile(Att_Out);
            let base: PointerTile<*mut E, { [1, 1] }> = base.reshape(const_shape![1, 1]);
            let base: PointerTile<*mut E, { [QUERY_GROUP_BLOCK_SIZE, HEAD_DIM] }> = base.broadcast(const_shape![QUERY_GROUP_BLOCK_SIZE, HEAD_DIM]);
            let ptrs: PointerTile<*mut E, { [QUERY_GROUP_BLOCK_SIZE, HEAD_DIM] }> = base.offset_tile(off);
            let _t: Token = unsafe {
                store_ptr_tko(ptrs, out, ordering::Weak, None::<scope::TileBlock>, Some(ok), Some(entry),
                              Latency::<1>)
            };
        }

        // LSE_Out[batch, head, q, split] for q < group, bounds checked, latency 1
        let rows: Tile<i32, { [QUERY_GROUP_BLOCK_SIZE] }> = iota(const_shape![QUERY_GROUP_BLOCK_SIZE]);
        let idx0: Tile<u64, { [QUERY_GROUP_BLOCK_SIZE] }> = lanes1::<QUERY_GROUP_BLOCK_SIZE>(batch_id);
        let n0: Tile<u64, { [QUERY_GROUP_BLOCK_SIZE] }> = lanes1::<QUERY_GROUP_BLOCK_SIZE>(LSE_Out_shape0);
        let ok: Tile<bool, { [QUERY_GROUP_BLOCK_SIZE] }> = cmpi(idx0, n0, predicate::LessThan);
        let s0: Tile<u64, { [QUERY_GROUP_BLOCK_SIZE] }> = lanes1::<QUERY_GROUP_BLOCK_SIZE>(LSE_Out_stride0);
        let off: Tile<u64, { [QUERY_GROUP_BLOCK_SIZE] }> = idx0 * s0;
        let idx1: Tile<u64, { [QUERY_GROUP_BLOCK_SIZE] }> = lanes1::<QUERY_GROUP_BLOCK_SIZE>(head_id);
        let n1: Tile<u64, { [QUERY_GROUP_BLOCK_SIZE] }> = lanes1::<QUERY_GROUP_BLOCK_SIZE>(LSE_Out_shape1);
        let ok1: Tile<bool, { [QUERY_GROUP_BLOCK_SIZE] }> = cmpi(idx1, n1, predicate::LessThan);
        let ok: Tile<bool, { [QUERY_GROUP_BLOCK_SIZE] }> = andi(ok, ok1);
        let s1: Tile<u64, { [QUERY_GROUP_BLOCK_SIZE] }> = lanes1::<QUERY_GROUP_BLOCK_SIZE>(LSE_Out_stride1);
        let off1: Tile<u64, { [QUERY_GROUP_BLOCK_SIZE] }> = idx1 * s1;
        let off: Tile<u64, { [QUERY_GROUP_BLOCK_SIZE] }> = off + off1;
        let idx2: Tile<u64, { [QUERY_GROUP_BLOCK_SIZE] }> = lanes_u64::<QUERY_GROUP_BLOCK_SIZE>(rows);
        let n2: Tile<u64, { [QUERY_GROUP_BLOCK_SIZE] }> = lanes1::<QUERY_GROUP_BLOCK_SIZE>(LSE_Out_shape2);
        let ok2: Tile<bool, { [QUERY_GROUP_BLOCK_SIZE] }> = cmpi(idx2, n2, predicate::LessThan);
        let ok: Tile<bool, { [QUERY_GROUP_BLOCK_SIZE] }> = andi(ok, ok2);
        let s2: Tile<u64, { [QUERY_GROUP_BLOCK_SIZE] }> = lanes1::<QUERY_GROUP_BLOCK_SIZE>(LSE_Out_stride2);
        let off2: Tile<u64, { [QUERY_GROUP_BLOCK_SIZE] }> = idx2 * s2;
        let off: Tile<u64, { [QUERY_GROUP_BLOCK_SIZE] }> = off + off2;
        let idx3: Tile<u64, { [QUERY_GROUP_BLOCK_SIZE] }> = lanes1::<QUERY_GROUP_BLOCK_SIZE>(tile_id);
        let n3: Tile<u64, { [QUERY_GROUP_BLOCK_SIZE] }> = lanes1::<QUERY_GROUP_BLOCK_SIZE>(LSE_Out_shape3);
        let ok3: Tile<bool, { [QUERY_GROUP_BLOCK_SIZE] }> = cmpi(idx3, n3, predicate::LessThan);
        let ok: Tile<bool, { [QUERY_GROUP_BLOCK_SIZE] }> = andi(ok, ok3);
        let off3: Tile<u64, { [QUERY_GROUP_BLOCK_SIZE] }> = unit_1d * idx3;
        let off: Tile<u64, { [QUERY_GROUP_BLOCK_SIZE] }> = off + off3;
        let base: PointerTile<*mut f32, { [] }> = pointer_to_tile(LSE_Out);
        let base: PointerTile<*mut f32, { [1] }> = base.reshape(const_shape![1]);
        let base: PointerTile<*mut f32, { [QUERY_GROUP_BLOCK_SIZE] }> = base.broadcast(const_shape![QUERY_GROUP_BLOCK_SIZE]);
        let ptrs: PointerTile<*mut f32, { [QUERY_GROUP_BLOCK_SIZE] }> = base.offset_tile(off);
        let _t: Token = unsafe {
            store_ptr_tko(ptrs, lse, ordering::Weak, None::<scope::TileBlock>, Some(ok), Some(entry),
                          Latency::<1>)
        };
    }
}
