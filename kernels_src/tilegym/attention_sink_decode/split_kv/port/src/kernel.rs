//! Port of tilegym.ops.cutile.attention_sink_decode:_attention_sink_decode_kernel (the
//! first launch of attention with sinks, decode): one block per (batch, kv head, split); the
//! split's key range is cut at start_q (causal) and, with a window, at start_q - BANDWIDTH +
//! 1, aligned down to BLOCK_N; every tile masks keys past S_kv, after start_q and outside the
//! window; an online softmax in exp2. The first split adds the sinks (a gather of the group's
//! sink logits, zero-padded) to the max and the denominator. Writes the partial output (TMA
//! when the group fills its tile, else a scatter) and the lse (rounded through the output's
//! dtype, as `ct.astype(lse, Att_Out.dtype)` does, then scattered).
#[cutile::module]
pub mod sink_decode_port {
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
    pub unsafe fn attention_sink_decode_bf16<
        const KV_LEN_PER_SPLIT: i32,
        const HEAD_DIM: i32,
        const BLOCK_N: i32,
        const NUM_Q_HEAD_PER_KV: i32,
        const QUERY_GROUP_BLOCK_SIZE: i32,
        const NUM_KV_SPLITS: i32,
        const BANDWIDTH: i32,
        const HAS_SINKS: i32,
    >(
        Q: &Tensor<bf16, { [-1, -1, -1, -1] }>,
        K: &Tensor<bf16, { [-1, -1, -1, -1] }>,
        V: &Tensor<bf16, { [-1, -1, -1, -1] }>,
        Sinks: *mut bf16, Sinks_shape0: i32, Sinks_stride0: i32,
        Att_Out: *mut bf16, Att_Out_shape0: i32, Att_Out_shape1: i32, Att_Out_shape2: i32, Att_Out_shape3: i32, Att_Out_shape4: i32,
        Att_Out_stride0: i32, Att_Out_stride1: i32, Att_Out_stride2: i32, Att_Out_stride3: i32, Att_Out_stride4: i32,
        LSE_Out: *mut f32, LSE_Out_shape0: i32, LSE_Out_shape1: i32, LSE_Out_shape2: i32, LSE_Out_shape3: i32,
        LSE_Out_stride0: i32, LSE_Out_stride1: i32, LSE_Out_stride2: i32, LSE_Out_stride3: i32,
        Start_q: &Tensor<i32, { [-1] }>,
        softmax_scale: f32,
        stride_mid_ob: i32, stride_mid_oh: i32, stride_mid_os: i32, stride_mid_lseb: i32, stride_mid_lsem: i32,
        B: i32, H_qo: i32, H_kv: i32, S_kv: i32,
    ) {
        // the constants cuTile Python defines first: the loop step, the unit strides
        let one: i32 = 1i32;
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
        // the unit strides, the strides cuTile Python's launcher passes but the kernel never
        // reads, and the sizes it takes as integers
        let Sinks_shape0 = unsafe { assume_bounds_lower::<_, 0>(Sinks_shape0) };
        let _ = (Sinks_stride0, Att_Out_stride4, LSE_Out_stride3, stride_mid_ob, stride_mid_oh, stride_mid_os, stride_mid_lseb,
                 stride_mid_lsem, B, H_qo, H_kv);
        let entry: Token = new_token_unordered();
        // the sinks gather's padding: a scalar of a concrete type (cutile 0.4 cannot spell a
        // generic element type's zero there), hence an entry per dtype: bf16, the cases' one
        let pad: Tile<bf16, { [] }> = constant(bf16::ZERO, const_shape![]);
        let pad_zero: bf16 = tile_to_scalar(pad);

        let batch_id: i32 = get_tile_block_id().0;
        let head_id: i32 = get_tile_block_id().1;
        let tile_id: i32 = get_tile_block_id().2;
        let inv_log_2: Tile<f32, { [] }> = constant(1.4426950408889634f32, const_shape![]);
        let sm: Tile<f32, { [] }> = scalar_to_tile(softmax_scale);
        let qk_scale: Tile<f32, { [] }> = sm * inv_log_2;
        let zero: i32 = 0i32;

        let start_q_view: Partition<i32, { [1] }> = unsafe {
            make_partition_view(Start_q, const_shape![1], padding::None, dim_map::Identity, Start_q.token())
        };
        let start_q_tile: Tile<i32, { [1] }> = start_q_view.load([zero]);
        let start_q_0d: Tile<i32, { [] }> = start_q_tile.reshape(const_shape![]);
        let start_q: i32 = tile_to_scalar(start_q_0d);
        let q_view: Partition<bf16, { [1, 1, QUERY_GROUP_BLOCK_SIZE, HEAD_DIM] }> = unsafe {
            make_partition_view(Q, const_shape![1, 1, QUERY_GROUP_BLOCK_SIZE, HEAD_DIM], padding::None,
                                dim_map::Identity, Q.token())
        };
        let q: Tile<bf16, { [1, 1, QUERY_GROUP_BLOCK_SIZE, HEAD_DIM] }> = q_view.load([batch_id, head_id, zero, zero]);
        let q: Tile<bf16, { [QUERY_GROUP_BLOCK_SIZE, HEAD_DIM] }> = q.reshape(const_shape![QUERY_GROUP_BLOCK_SIZE, HEAD_DIM]);
        let q: Tile<bf16, { [HEAD_DIM, QUERY_GROUP_BLOCK_SIZE] }> = permute(q, const_array![1, 0]);
        let start_idx: i32 = tile_id * KV_LEN_PER_SPLIT;
        let end_idx: i32 = min(S_kv, KV_LEN_PER_SPLIT + start_idx);
        let end_idx: i32 = min(end_idx, one + start_q);
        let mut first: i32 = start_idx;
        if BANDWIDTH > 0i32 {
            let reach: Tile<i32, { [] }> = broadcast_scalar(BANDWIDTH - 1i32, const_shape![]);
            let sq: Tile<i32, { [] }> = scalar_to_tile(start_q);
            let back: Tile<i32, { [] }> = sq - reach;
            let back: i32 = tile_to_scalar(back);
            let window_start: i32 = max(zero, back);
            first = max(start_idx, window_start);
        }
        let start_idx: Tile<i32, { [] }> = divi(scalar_to_tile(first), scalar_to_tile(BLOCK_N), rounding::NegativeInf);
        let start_idx: i32 = tile_to_scalar(start_idx);
        let start_idx: i32 = BLOCK_N * start_idx;

        // the group's sink logits (a zero-padded gather), in log2 units; -inf without sinks
        let mut sink_scaled: Tile<f32, { [QUERY_GROUP_BLOCK_SIZE] }> =
            constant(f32::NEG_INFINITY, const_shape![QUERY_GROUP_BLOCK_SIZE]);
        if HAS_SINKS == 1i32 {
            let h0: Tile<i32, { [] }> = scalar_to_tile(NUM_Q_HEAD_PER_KV * head_id);
            let lanes_h: Tile<i32, { [QUERY_GROUP_BLOCK_SIZE] }> = iota(const_shape![QUERY_GROUP_BLOCK_SIZE]);
            let offs_h: Tile<i32, { [QUERY_GROUP_BLOCK_SIZE] }> =
                lanes_h + h0.reshape(const_shape![1]).broadcast(const_shape![QUERY_GROUP_BLOCK_SIZE]);
            let hs: Tile<u64, { [QUERY_GROUP_BLOCK_SIZE] }> = lanes_u64::<QUERY_GROUP_BLOCK_SIZE>(offs_h);
            let n: Tile<u64, { [QUERY_GROUP_BLOCK_SIZE] }> = lanes1::<QUERY_GROUP_BLOCK_SIZE>(Sinks_shape0);
            let ok: Tile<bool, { [QUERY_GROUP_BLOCK_SIZE] }> = cmpi(hs, n, predicate::LessThan);
            let off: Tile<u64, { [QUERY_GROUP_BLOCK_SIZE] }> = unit_1d * hs;
            let base: PointerTile<*mut bf16, { [] }> = pointer_to_tile(Sinks);
            let base: PointerTile<*mut bf16, { [1] }> = base.reshape(const_shape![1]);
            let base: PointerTile<*mut bf16, { [QUERY_GROUP_BLOCK_SIZE] }> = base.broadcast(const_shape![QUERY_GROUP_BLOCK_SIZE]);
            let ptrs: PointerTile<*mut bf16, { [QUERY_GROUP_BLOCK_SIZE] }> = base.offset_tile(off);
            let (vals, _t): (Tile<bf16, { [QUERY_GROUP_BLOCK_SIZE] }>, Token) = unsafe {
                load_ptr_tko(ptrs, ordering::Weak, None::<scope::TileBlock>, Some(ok), Some(pad_zero), Some(entry),
                             Latency::<0>)
            };
            let vals: Tile<f32, { [QUERY_GROUP_BLOCK_SIZE] }> = convert_tile(vals);
            let inv: Tile<f32, { [QUERY_GROUP_BLOCK_SIZE] }> = constant(1.4426950408889634f32, const_shape![QUERY_GROUP_BLOCK_SIZE]);
            sink_scaled = vals * inv;
        }
        let sink_scaled: Tile<f32, { [QUERY_GROUP_BLOCK_SIZE] }> = sink_scaled;

        let mut m_i: Tile<f32, { [QUERY_GROUP_BLOCK_SIZE] }> = constant(f32::NEG_INFINITY, const_shape![QUERY_GROUP_BLOCK_SIZE]);
        let mut l_i: Tile<f32, { [BLOCK_N, QUERY_GROUP_BLOCK_SIZE] }> = constant(1.0f32, const_shape![BLOCK_N, QUERY_GROUP_BLOCK_SIZE]);
        let mut acc: Tile<f32, { [HEAD_DIM, QUERY_GROUP_BLOCK_SIZE] }> =
            constant(0.0f32, const_shape![HEAD_DIM, QUERY_GROUP_BLOCK_SIZE]);
        let num_tiles: i32 = KV_LEN_PER_SPLIT / BLOCK_N;
        let start_tile: Tile<i32, { [] }> = divi(scalar_to_tile(start_idx), scalar_to_tile(BLOCK_N), rounding::NegativeInf);
        let start_tile: i32 = tile_to_scalar(start_tile);
        let offs_n: Tile<i32, { [BLOCK_N] }> = iota(const_shape![BLOCK_N]);
        if end_idx > start_idx {
            let k_view: Partition<bf16, { [1, 1, BLOCK_N, HEAD_DIM] }> = unsafe {
                make_partition_view(K, const_shape![1, 1, BLOCK_N, HEAD_DIM], padding::Zero, dim_map::Identity, K.token())
            };
            let zero_qk: Tile<f32, { [BLOCK_N, QUERY_GROUP_BLOCK_SIZE] }> =
                constant(0.0f32, const_shape![BLOCK_N, QUERY_GROUP_BLOCK_SIZE]);
            let kv_end_t: Tile<i32, { [] }> = scalar_to_tile(S_kv);
            let kv_end: Tile<i32, { [BLOCK_N] }> = kv_end_t.reshape(const_shape![1]).broadcast(const_shape![BLOCK_N]);
            let query_t: Tile<i32, { [] }> = scalar_to_tile(start_q);
            let query: Tile<i32, { [BLOCK_N] }> = query_t.reshape(const_shape![1]).broadcast(const_shape![BLOCK_N]);
            let hidden: Tile<f32, { [BLOCK_N, QUERY_GROUP_BLOCK_SIZE] }> =
                constant(-1.0e6f32, const_shape![BLOCK_N, QUERY_GROUP_BLOCK_SIZE]);
            let scale_b: Tile<f32, { [BLOCK_N, QUERY_GROUP_BLOCK_SIZE] }> =
                qk_scale.reshape(const_shape![1, 1]).broadcast(const_shape![BLOCK_N, QUERY_GROUP_BLOCK_SIZE]);
            let v_view: Partition<bf16, { [1, 1, BLOCK_N, HEAD_DIM] }> = unsafe {
                make_partition_view(V, const_shape![1, 1, BLOCK_N, HEAD_DIM], padding::Zero, dim_map::Identity, V.token())
            };
            for idx in 0i32..num_tiles {
                let cnt: i32 = start_tile + idx;
                let curr_n: i32 = cnt * BLOCK_N;
                let k: Tile<bf16, { [1, 1, BLOCK_N, HEAD_DIM] }> = k_view.load([batch_id, head_id, cnt, zero]);
                let k: Tile<bf16, { [BLOCK_N, HEAD_DIM] }> = k.reshape(const_shape![BLOCK_N, HEAD_DIM]);
                let qk: Tile<f32, { [BLOCK_N, QUERY_GROUP_BLOCK_SIZE] }> = mma(k, q, zero_qk);
                let n0: Tile<i32, { [] }> = scalar_to_tile(curr_n);
                let kv_positions: Tile<i32, { [BLOCK_N] }> =
                    offs_n + n0.reshape(const_shape![1]).broadcast(const_shape![BLOCK_N]);
                let beyond: Tile<bool, { [BLOCK_N] }> = cmpi(kv_positions, kv_end, predicate::GreaterThanOrEqual);
                let future: Tile<bool, { [BLOCK_N] }> = cmpi(kv_positions, query, predicate::GreaterThan);
                let mut mask: Tile<bool, { [BLOCK_N] }> = ori(beyond, future);
                if BANDWIDTH > 0i32 {
                    let limit: Tile<i32, { [] }> = scalar_to_tile(one + start_q - BANDWIDTH);
                    let too_old: Tile<bool, { [BLOCK_N] }> = cmpi(
                        kv_positions, limit.reshape(const_shape![1]).broadcast(const_shape![BLOCK_N]), predicate::LessThan);
                    mask = ori(mask, too_old);
                }
                let qk: Tile<f32, { [BLOCK_N, QUERY_GROUP_BLOCK_SIZE] }> = select(
                    mask.reshape(const_shape![BLOCK_N, 1]).broadcast(const_shape![BLOCK_N, QUERY_GROUP_BLOCK_SIZE]), hidden, qk);
                let qk_scaled: Tile<f32, { [BLOCK_N, QUERY_GROUP_BLOCK_SIZE] }> = qk * scale_b;
                let col_max: Tile<f32, { [QUERY_GROUP_BLOCK_SIZE] }> = reduce_max(qk_scaled, 0i32);
                let m_ij: Tile<f32, { [QUERY_GROUP_BLOCK_SIZE] }> = maxf(m_i, col_max, nan::Disabled, ftz::Disabled);
                let qk: Tile<f32, { [BLOCK_N, QUERY_GROUP_BLOCK_SIZE] }> = qk_scaled
                    - m_ij.reshape(const_shape![1, QUERY_GROUP_BLOCK_SIZE]).broadcast(const_shape![BLOCK_N, QUERY_GROUP_BLOCK_SIZE]);
                let p: Tile<f32, { [BLOCK_N, QUERY_GROUP_BLOCK_SIZE] }> = exp2(qk, ftz::Disabled);
                let alpha: Tile<f32, { [QUERY_GROUP_BLOCK_SIZE] }> = exp2(m_i - m_ij, ftz::Disabled);
                l_i = fma(l_i, alpha.reshape(const_shape![1, QUERY_GROUP_BLOCK_SIZE])
                          .broadcast(const_shape![BLOCK_N, QUERY_GROUP_BLOCK_SIZE]), p, rounding::NearestEven, ftz::Disabled);
                let acc_scaled: Tile<f32, { [HEAD_DIM, QUERY_GROUP_BLOCK_SIZE] }> = acc
                    * alpha.reshape(const_shape![1, QUERY_GROUP_BLOCK_SIZE]).broadcast(const_shape![HEAD_DIM, QUERY_GROUP_BLOCK_SIZE]);
                let v: Tile<bf16, { [1, 1, BLOCK_N, HEAD_DIM] }> = v_view.load([batch_id, head_id, cnt, zero]);
                let v: Tile<bf16, { [BLOCK_N, HEAD_DIM] }> = v.reshape(const_shape![BLOCK_N, HEAD_DIM]);
                let v: Tile<bf16, { [HEAD_DIM, BLOCK_N] }> = permute(v, const_array![1, 0]);
                let p: Tile<bf16, { [BLOCK_N, QUERY_GROUP_BLOCK_SIZE] }> = convert_tile(p);
                acc = mma(v, p, acc_scaled);
                m_i = m_ij;
            }
        }

        // the sum of the weights; no longer mutable, so the next `if` yields acc, l and m_i only
        let l_i: Tile<f32, { [BLOCK_N, QUERY_GROUP_BLOCK_SIZE] }> = l_i;
        let mut l: Tile<f32, { [QUERY_GROUP_BLOCK_SIZE] }> = reduce_sum(l_i, 0i32);
        if tile_id == zero {
            // the first split: the sinks join the max and the denominator
            let m_with_sink: Tile<f32, { [QUERY_GROUP_BLOCK_SIZE] }> = max_tile(m_i, sink_scaled);
            let alpha: Tile<f32, { [QUERY_GROUP_BLOCK_SIZE] }> = exp2(m_i - m_with_sink, ftz::Disabled);
            acc = acc * alpha.reshape(const_shape![1, QUERY_GROUP_BLOCK_SIZE]).broadcast(const_shape![HEAD_DIM, QUERY_GROUP_BLOCK_SIZE]);
            let sink_exp: Tile<f32, { [QUERY_GROUP_BLOCK_SIZE] }> = exp2(sink_scaled - m_with_sink, ftz::Disabled);
            l = fma(l, alpha, sink_exp, rounding::NearestEven, ftz::Disabled);
            m_i = m_with_sink;
        }
        let out: Tile<f32, { [HEAD_DIM, QUERY_GROUP_BLOCK_SIZE] }> = divf(
            acc, l.reshape(const_shape![1, QUERY_GROUP_BLOCK_SIZE]).broadcast(const_shape![HEAD_DIM, QUERY_GROUP_BLOCK_SIZE]),
            rounding::Approx, ftz::Enabled);
        let out: Tile<f32, { [QUERY_GROUP_BLOCK_SIZE, HEAD_DIM] }> = permute(out, const_array![1, 0]);
        let out: Tile<bf16, { [QUERY_GROUP_BLOCK_SIZE, HEAD_DIM] }> = convert_tile(out);
        let lse: Tile<f32, { [QUERY_GROUP_BLOCK_SIZE] }> = m_i + log2(l);
        let lse: Tile<bf16, { [QUERY_GROUP_BLOCK_SIZE] }> = convert_tile(lse);

        if NUM_Q_HEAD_PER_KV == QUERY_GROUP_BLOCK_SIZE {
            // the group fills its tile: one TMA store of [1, 1, group, 1, HEAD_DIM]
            let out: Tile<bf16, { [1, 1, QUERY_GROUP_BLOCK_SIZE, 1, HEAD_DIM] }> =
                out.reshape(const_shape![1, 1, QUERY_GROUP_BLOCK_SIZE, 1, HEAD_DIM]);
            let base: PointerTile<*mut bf16, { [] }> = pointer_to_tile(Att_Out);
            let shape: Shape<{ [-1, -1, -1, -1, -1] }> = Shape::<{ [-1, -1, -1, -1, -1] }> {
                dims: &[Att_Out_shape0, Att_Out_shape1, Att_Out_shape2, Att_Out_shape3, Att_Out_shape4] };
            let strides: Array<{ [-1, -1, -1, -1, 1] }> = Array::<{ [-1, -1, -1, -1, 1] }> {
                dims: &[Att_Out_stride0, Att_Out_stride1, Att_Out_stride2, Att_Out_stride3, 1i32] };
            let view: Tensor<bf16, { [-1, -1, -1, -1, -1] }> = make_tensor_view(base, shape, strides, entry);
            let mut tiles: PartitionMut<bf16, { [1, 1, QUERY_GROUP_BLOCK_SIZE, 1, HEAD_DIM] }> =
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
            let base: PointerTile<*mut bf16, { [] }> = pointer_to_tile(Att_Out);
            let base: PointerTile<*mut bf16, { [1, 1] }> = base.reshape(const_shape![1, 1]);
            let base: PointerTile<*mut bf16, { [QUERY_GROUP_BLOCK_SIZE, HEAD_DIM] }> = base.broadcast(const_shape![QUERY_GROUP_BLOCK_SIZE, HEAD_DIM]);
            let ptrs: PointerTile<*mut bf16, { [QUERY_GROUP_BLOCK_SIZE, HEAD_DIM] }> = base.offset_tile(off);
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
        let lse_f32: Tile<f32, { [QUERY_GROUP_BLOCK_SIZE] }> = convert_tile(lse);
        let _t: Token = unsafe {
            store_ptr_tko(ptrs, lse_f32, ordering::Weak, None::<scope::TileBlock>, Some(ok), Some(entry),
                          Latency::<1>)
        };
    }
}
