//! Port of tilegym.ops.cutile.flash_decode:_attention_decode_kernel_grouped (the split-KV
//! decode's first launch): one block per (batch, kv head, split); the group's queries are one
//! transposed tile, the split's keys stream through TILE_N tiles (zero-padded TMA loads, the
//! tail masked past S_kv), an online softmax in exp2 per query whose denominator stays a
//! TILE_N x group tile until the end. Writes the split's partial output and base-2 lse: by
//! TMA when the group fills its tile, else by bounds-checked scatters, and the lse always by
//! a scatter. Att_Out and LSE_Out come in as cuTile Python's entry takes them (pointer,
//! extents, strides: port.toml `raw`), as the scatters need.
#[cutile::module]
pub mod flash_decode_port {
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

    /// The keys past S_kv hidden when the tile overhangs them (`if curr_n + TILE_N > S_kv`).
    /// A function of its own so that the `if` yields qk alone (cutile threads every mutable
    /// variable in scope through an `if`).
    fn mask_tail<const TILE_N: i32, const G: i32>(
        qk: Tile<f32, { [TILE_N, G] }>, curr_n: i32, s_kv: i32, offs_n: Tile<i32, { [TILE_N] }>,
    ) -> Tile<f32, { [TILE_N, G] }> {
        let mut qk: Tile<f32, { [TILE_N, G] }> = qk;
        if TILE_N + curr_n > s_kv {
            let n0: Tile<i32, { [] }> = scalar_to_tile(curr_n);
            let keys: Tile<i32, { [TILE_N, 1] }> = offs_n.reshape(const_shape![TILE_N, 1])
                + n0.reshape(const_shape![1, 1]).broadcast(const_shape![TILE_N, 1]);
            let end: Tile<i32, { [] }> = scalar_to_tile(s_kv);
            let inside: Tile<bool, { [TILE_N, 1] }> =
                cmpi(keys, end.reshape(const_shape![1, 1]).broadcast(const_shape![TILE_N, 1]), predicate::LessThan);
            let hidden: Tile<f32, { [TILE_N, G] }> = constant(-1.0e6f32, const_shape![TILE_N, G]);
            qk = select(inside.broadcast(const_shape![TILE_N, G]), qk, hidden);
        }
        qk
    }

    #[cutile::entry(unchecked_accesses = true)]
    pub unsafe fn attention_decode_grouped<
        E: ElementType,
        const HEAD_DIM: i32,
        const TILE_N: i32,
        const KV_LEN_PER_SPLIT: i32,
        const NUM_Q_HEAD_PER_KV: i32,
        const QUERY_GROUP_TILE_SIZE: i32,
        const NUM_KV_SPLITS: i32,
    >(
        Q: &Tensor<E, { [-1, -1, -1, -1] }>,
        K: &Tensor<E, { [-1, -1, -1, -1] }>,
        V: &Tensor<E, { [-1, -1, -1, -1] }>,
        Att_Out: *mut E, Att_Out_shape0: i32, Att_Out_shape1: i32, Att_Out_shape2: i32, Att_Out_shape3: i32, Att_Out_shape4: i32,
        Att_Out_stride0: i32, Att_Out_stride1: i32, Att_Out_stride2: i32, Att_Out_stride3: i32, Att_Out_stride4: i32,
        LSE_Out: *mut f32, LSE_Out_shape0: i32, LSE_Out_shape1: i32, LSE_Out_shape2: i32, LSE_Out_shape3: i32,
        LSE_Out_stride0: i32, LSE_Out_stride1: i32, LSE_Out_stride2: i32, LSE_Out_stride3: i32,
        softmax_scale: f32,
        stride_mid_ob: i32, stride_mid_oh: i32, stride_mid_os: i32, stride_mid_lseb: i32, stride_mid_lsem: i32,
        B: i32, H_qo: i32, H_kv: i32, S_kv: i32,
    ) {
        // the unit strides' constants, first as in cuTile Python's IR
        let unit_2d: Tile<u64, { [QUERY_GROUP_TILE_SIZE, HEAD_DIM] }> = ones2::<QUERY_GROUP_TILE_SIZE, HEAD_DIM>();
        let unit_1d: Tile<u64, { [QUERY_GROUP_TILE_SIZE] }> = ones1::<QUERY_GROUP_TILE_SIZE>();
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
        let _ = (Att_Out_stride4, LSE_Out_stride3, stride_mid_ob, stride_mid_oh, stride_mid_os, stride_mid_lseb,
                 stride_mid_lsem, B, H_qo, H_kv);
        let entry: Token = new_token_unordered();
        let batch_id: i32 = get_tile_block_id().0;
        let head_id: i32 = get_tile_block_id().1;
        let tile_id: i32 = get_tile_block_id().2;
        let inv_log_2: Tile<f32, { [] }> = constant(1.4426950408889634f32, const_shape![]);
        let sm: Tile<f32, { [] }> = scalar_to_tile(softmax_scale);
        let qk_scale: Tile<f32, { [] }> = sm * inv_log_2;
        let zero: i32 = 0i32;
        let q_view: Partition<E, { [1, 1, QUERY_GROUP_TILE_SIZE, HEAD_DIM] }> = unsafe {
            make_partition_view(Q, const_shape![1, 1, QUERY_GROUP_TILE_SIZE, HEAD_DIM], padding::None,
                                dim_map::Identity, Q.token())
        };
        let q: Tile<E, { [1, 1, QUERY_GROUP_TILE_SIZE, HEAD_DIM] }> = q_view.load([batch_id, head_id, zero, zero]);
        let q: Tile<E, { [QUERY_GROUP_TILE_SIZE, HEAD_DIM] }> = q.reshape(const_shape![QUERY_GROUP_TILE_SIZE, HEAD_DIM]);
        let q: Tile<E, { [HEAD_DIM, QUERY_GROUP_TILE_SIZE] }> = permute(q, const_array![1, 0]);

        let start_idx: i32 = tile_id * KV_LEN_PER_SPLIT;
        let end_idx: i32 = min(S_kv, KV_LEN_PER_SPLIT + start_idx);
        let mut m_i: Tile<f32, { [QUERY_GROUP_TILE_SIZE] }> = constant(f32::NEG_INFINITY, const_shape![QUERY_GROUP_TILE_SIZE]);
        let mut l_i: Tile<f32, { [TILE_N, QUERY_GROUP_TILE_SIZE] }> = constant(1.0f32, const_shape![TILE_N, QUERY_GROUP_TILE_SIZE]);
        let mut acc: Tile<f32, { [HEAD_DIM, QUERY_GROUP_TILE_SIZE] }> =
            constant(0.0f32, const_shape![HEAD_DIM, QUERY_GROUP_TILE_SIZE]);
        let num_tiles: i32 = KV_LEN_PER_SPLIT / TILE_N;
        let start_tile: Tile<i32, { [] }> = divi(scalar_to_tile(start_idx), scalar_to_tile(TILE_N), rounding::NegativeInf);
        let start_tile: i32 = tile_to_scalar(start_tile);
        let offs_n: Tile<i32, { [TILE_N] }> = iota(const_shape![TILE_N]);
        if end_idx > start_idx {
            let k_view: Partition<E, { [1, 1, TILE_N, HEAD_DIM] }> = unsafe {
                make_partition_view(K, const_shape![1, 1, TILE_N, HEAD_DIM], padding::Zero, dim_map::Identity, K.token())
            };
            let zero_qk: Tile<f32, { [TILE_N, QUERY_GROUP_TILE_SIZE] }> =
                constant(0.0f32, const_shape![TILE_N, QUERY_GROUP_TILE_SIZE]);
            let scale_b: Tile<f32, { [TILE_N, QUERY_GROUP_TILE_SIZE] }> =
                qk_scale.reshape(const_shape![1, 1]).broadcast(const_shape![TILE_N, QUERY_GROUP_TILE_SIZE]);
            let v_view: Partition<E, { [1, 1, TILE_N, HEAD_DIM] }> = unsafe {
                make_partition_view(V, const_shape![1, 1, TILE_N, HEAD_DIM], padding::Zero, dim_map::Identity, V.token())
            };
            for idx in 0i32..num_tiles {
                let cnt: i32 = start_tile + idx;
                let curr_n: i32 = cnt * TILE_N;
                let k: Tile<E, { [1, 1, TILE_N, HEAD_DIM] }> = k_view.load([batch_id, head_id, cnt, zero]);
                let k: Tile<E, { [TILE_N, HEAD_DIM] }> = k.reshape(const_shape![TILE_N, HEAD_DIM]);
                let qk: Tile<f32, { [TILE_N, QUERY_GROUP_TILE_SIZE] }> = mma(k, q, zero_qk);
                let qk: Tile<f32, { [TILE_N, QUERY_GROUP_TILE_SIZE] }> = mask_tail(qk, curr_n, S_kv, offs_n);
                let qk_scaled: Tile<f32, { [TILE_N, QUERY_GROUP_TILE_SIZE] }> = mulf(qk, scale_b, rounding::NearestEven, ftz::Disabled);
                let col_max: Tile<f32, { [QUERY_GROUP_TILE_SIZE] }> = reduce_max(qk_scaled, 0i32);
                let m_ij: Tile<f32, { [QUERY_GROUP_TILE_SIZE] }> = maxf(m_i, col_max, nan::Disabled, ftz::Disabled);
                let qk: Tile<f32, { [TILE_N, QUERY_GROUP_TILE_SIZE] }> = qk_scaled
                    - m_ij.reshape(const_shape![1, QUERY_GROUP_TILE_SIZE]).broadcast(const_shape![TILE_N, QUERY_GROUP_TILE_SIZE]);
                let p: Tile<f32, { [TILE_N, QUERY_GROUP_TILE_SIZE] }> = exp2(qk, ftz::Disabled);
                let alpha: Tile<f32, { [QUERY_GROUP_TILE_SIZE] }> = exp2(m_i - m_ij, ftz::Disabled);
                l_i = fma(l_i, alpha.reshape(const_shape![1, QUERY_GROUP_TILE_SIZE])
                          .broadcast(const_shape![TILE_N, QUERY_GROUP_TILE_SIZE]), p, rounding::NearestEven, ftz::Disabled);
                let acc_scaled: Tile<f32, { [HEAD_DIM, QUERY_GROUP_TILE_SIZE] }> = acc
                    * alpha.reshape(const_shape![1, QUERY_GROUP_TILE_SIZE]).broadcast(const_shape![HEAD_DIM, QUERY_GROUP_TILE_SIZE]);
                let v: Tile<E, { [1, 1, TILE_N, HEAD_DIM] }> = v_view.load([batch_id, head_id, cnt, zero]);
                let v: Tile<E, { [TILE_N, HEAD_DIM] }> = v.reshape(const_shape![TILE_N, HEAD_DIM]);
                let v: Tile<E, { [HEAD_DIM, TILE_N] }> = permute(v, const_array![1, 0]);
                let p: Tile<E, { [TILE_N, QUERY_GROUP_TILE_SIZE] }> = convert_tile(p);
                acc = mma(v, p, acc_scaled);
                m_i = m_ij;
            }
        }

        let l: Tile<f32, { [QUERY_GROUP_TILE_SIZE] }> = reduce_sum(l_i, 0i32);
        let out: Tile<f32, { [HEAD_DIM, QUERY_GROUP_TILE_SIZE] }> = divf(
            acc, l.reshape(const_shape![1, QUERY_GROUP_TILE_SIZE]).broadcast(const_shape![HEAD_DIM, QUERY_GROUP_TILE_SIZE]),
            rounding::Approx, ftz::Enabled);
        let out: Tile<f32, { [QUERY_GROUP_TILE_SIZE, HEAD_DIM] }> = permute(out, const_array![1, 0]);
        let out: Tile<E, { [QUERY_GROUP_TILE_SIZE, HEAD_DIM] }> = convert_tile(out);
        let lse: Tile<f32, { [QUERY_GROUP_TILE_SIZE] }> = m_i + log2(l);

        if NUM_Q_HEAD_PER_KV == QUERY_GROUP_TILE_SIZE {
            // the group fills its tile: one TMA store of [1, 1, group, 1, HEAD_DIM]
            let out: Tile<E, { [1, 1, QUERY_GROUP_TILE_SIZE, 1, HEAD_DIM] }> =
                out.reshape(const_shape![1, 1, QUERY_GROUP_TILE_SIZE, 1, HEAD_DIM]);
            let base: PointerTile<*mut E, { [] }> = pointer_to_tile(Att_Out);
            let shape: Shape<{ [-1, -1, -1, -1, -1] }> = Shape::<{ [-1, -1, -1, -1, -1] }> {
                dims: &[Att_Out_shape0, Att_Out_shape1, Att_Out_shape2, Att_Out_shape3, Att_Out_shape4] };
            let strides: Array<{ [-1, -1, -1, -1, 1] }> = Array::<{ [-1, -1, -1, -1, 1] }> {
                dims: &[Att_Out_stride0, Att_Out_stride1, Att_Out_stride2, Att_Out_stride3, 1i32] };
            let view: Tensor<E, { [-1, -1, -1, -1, -1] }> = make_tensor_view(base, shape, strides, entry);
            let mut tiles: PartitionMut<E, { [1, 1, QUERY_GROUP_TILE_SIZE, 1, HEAD_DIM] }> =
                view.partition_full_mut(const_shape![1, 1, QUERY_GROUP_TILE_SIZE, 1, HEAD_DIM]);
            tiles.store(out, [batch_id, head_id, zero, tile_id, zero]);
        } else {
            // Att_Out[batch, head, q, split, d] for q < group, bounds checked, latency 1
            let rows: Tile<i32, { [QUERY_GROUP_TILE_SIZE] }> = iota(const_shape![QUERY_GROUP_TILE_SIZE]);
            let rows: Tile<i32, { [QUERY_GROUP_TILE_SIZE, 1] }> = rows.reshape(const_shape![QUERY_GROUP_TILE_SIZE, 1]);
            let cols: Tile<i32, { [HEAD_DIM] }> = iota(const_shape![HEAD_DIM]);
            let cols: Tile<i32, { [1, HEAD_DIM] }> = cols.reshape(const_shape![1, HEAD_DIM]);
            let idx0: Tile<u64, { [QUERY_GROUP_TILE_SIZE, HEAD_DIM] }> = lanes2::<QUERY_GROUP_TILE_SIZE, HEAD_DIM>(batch_id);
            let n0: Tile<u64, { [QUERY_GROUP_TILE_SIZE, HEAD_DIM] }> = lanes2::<QUERY_GROUP_TILE_SIZE, HEAD_DIM>(Att_Out_shape0);
            let ok: Tile<bool, { [QUERY_GROUP_TILE_SIZE, HEAD_DIM] }> = cmpi(idx0, n0, predicate::LessThan);
            let s0: Tile<u64, { [QUERY_GROUP_TILE_SIZE, HEAD_DIM] }> = lanes2::<QUERY_GROUP_TILE_SIZE, HEAD_DIM>(Att_Out_stride0);
            let off: Tile<u64, { [QUERY_GROUP_TILE_SIZE, HEAD_DIM] }> = idx0 * s0;
            let idx1: Tile<u64, { [QUERY_GROUP_TILE_SIZE, HEAD_DIM] }> = lanes2::<QUERY_GROUP_TILE_SIZE, HEAD_DIM>(head_id);
            let n1: Tile<u64, { [QUERY_GROUP_TILE_SIZE, HEAD_DIM] }> = lanes2::<QUERY_GROUP_TILE_SIZE, HEAD_DIM>(Att_Out_shape1);
            let ok1: Tile<bool, { [QUERY_GROUP_TILE_SIZE, HEAD_DIM] }> = cmpi(idx1, n1, predicate::LessThan);
            let ok: Tile<bool, { [QUERY_GROUP_TILE_SIZE, HEAD_DIM] }> = andi(ok, ok1);
            let s1: Tile<u64, { [QUERY_GROUP_TILE_SIZE, HEAD_DIM] }> = lanes2::<QUERY_GROUP_TILE_SIZE, HEAD_DIM>(Att_Out_stride1);
            let off1: Tile<u64, { [QUERY_GROUP_TILE_SIZE, HEAD_DIM] }> = idx1 * s1;
            let off: Tile<u64, { [QUERY_GROUP_TILE_SIZE, HEAD_DIM] }> = off + off1;
            let idx2: Tile<u64, { [QUERY_GROUP_TILE_SIZE, HEAD_DIM] }> = rows_u64::<QUERY_GROUP_TILE_SIZE, HEAD_DIM>(rows);
            let n2: Tile<u64, { [QUERY_GROUP_TILE_SIZE, HEAD_DIM] }> = lanes2::<QUERY_GROUP_TILE_SIZE, HEAD_DIM>(Att_Out_shape2);
            let ok2: Tile<bool, { [QUERY_GROUP_TILE_SIZE, HEAD_DIM] }> = cmpi(idx2, n2, predicate::LessThan);
            let ok: Tile<bool, { [QUERY_GROUP_TILE_SIZE, HEAD_DIM] }> = andi(ok, ok2);
            let s2: Tile<u64, { [QUERY_GROUP_TILE_SIZE, HEAD_DIM] }> = lanes2::<QUERY_GROUP_TILE_SIZE, HEAD_DIM>(Att_Out_stride2);
            let off2: Tile<u64, { [QUERY_GROUP_TILE_SIZE, HEAD_DIM] }> = idx2 * s2;
            let off: Tile<u64, { [QUERY_GROUP_TILE_SIZE, HEAD_DIM] }> = off + off2;
            let idx3: Tile<u64, { [QUERY_GROUP_TILE_SIZE, HEAD_DIM] }> = lanes2::<QUERY_GROUP_TILE_SIZE, HEAD_DIM>(tile_id);
            let n3: Tile<u64, { [QUERY_GROUP_TILE_SIZE, HEAD_DIM] }> = lanes2::<QUERY_GROUP_TILE_SIZE, HEAD_DIM>(Att_Out_shape3);
            let ok3: Tile<bool, { [QUERY_GROUP_TILE_SIZE, HEAD_DIM] }> = cmpi(idx3, n3, predicate::LessThan);
            let ok: Tile<bool, { [QUERY_GROUP_TILE_SIZE, HEAD_DIM] }> = andi(ok, ok3);
            let s3: Tile<u64, { [QUERY_GROUP_TILE_SIZE, HEAD_DIM] }> = lanes2::<QUERY_GROUP_TILE_SIZE, HEAD_DIM>(Att_Out_stride3);
            let off3: Tile<u64, { [QUERY_GROUP_TILE_SIZE, HEAD_DIM] }> = idx3 * s3;
            let off: Tile<u64, { [QUERY_GROUP_TILE_SIZE, HEAD_DIM] }> = off + off3;
            let idx4: Tile<u64, { [QUERY_GROUP_TILE_SIZE, HEAD_DIM] }> = cols_u64::<QUERY_GROUP_TILE_SIZE, HEAD_DIM>(cols);
            let n4: Tile<u64, { [QUERY_GROUP_TILE_SIZE, HEAD_DIM] }> = lanes2::<QUERY_GROUP_TILE_SIZE, HEAD_DIM>(Att_Out_shape4);
            let ok4: Tile<bool, { [QUERY_GROUP_TILE_SIZE, HEAD_DIM] }> = cmpi(idx4, n4, predicate::LessThan);
            let ok: Tile<bool, { [QUERY_GROUP_TILE_SIZE, HEAD_DIM] }> = andi(ok, ok4);
            let off4: Tile<u64, { [QUERY_GROUP_TILE_SIZE, HEAD_DIM] }> = unit_2d * idx4;
            let off: Tile<u64, { [QUERY_GROUP_TILE_SIZE, HEAD_DIM] }> = off + off4;
            let base: PointerTile<*mut E, { [] }> = pointer_to_tile(Att_Out);
            let base: PointerTile<*mut E, { [1, 1] }> = base.reshape(const_shape![1, 1]);
            let base: PointerTile<*mut E, { [QUERY_GROUP_TILE_SIZE, HEAD_DIM] }> = base.broadcast(const_shape![QUERY_GROUP_TILE_SIZE, HEAD_DIM]);
            let ptrs: PointerTile<*mut E, { [QUERY_GROUP_TILE_SIZE, HEAD_DIM] }> = base.offset_tile(off);
            let _t: Token = unsafe {
                store_ptr_tko(ptrs, out, ordering::Weak, None::<scope::TileBlock>, Some(ok), Some(entry),
                              Latency::<1>)
            };
        }

        // LSE_Out[batch, head, q, split] for q < group, bounds checked, latency 1
        let rows: Tile<i32, { [QUERY_GROUP_TILE_SIZE] }> = iota(const_shape![QUERY_GROUP_TILE_SIZE]);
        let idx0: Tile<u64, { [QUERY_GROUP_TILE_SIZE] }> = lanes1::<QUERY_GROUP_TILE_SIZE>(batch_id);
        let n0: Tile<u64, { [QUERY_GROUP_TILE_SIZE] }> = lanes1::<QUERY_GROUP_TILE_SIZE>(LSE_Out_shape0);
        let ok: Tile<bool, { [QUERY_GROUP_TILE_SIZE] }> = cmpi(idx0, n0, predicate::LessThan);
        let s0: Tile<u64, { [QUERY_GROUP_TILE_SIZE] }> = lanes1::<QUERY_GROUP_TILE_SIZE>(LSE_Out_stride0);
        let off: Tile<u64, { [QUERY_GROUP_TILE_SIZE] }> = idx0 * s0;
        let idx1: Tile<u64, { [QUERY_GROUP_TILE_SIZE] }> = lanes1::<QUERY_GROUP_TILE_SIZE>(head_id);
        let n1: Tile<u64, { [QUERY_GROUP_TILE_SIZE] }> = lanes1::<QUERY_GROUP_TILE_SIZE>(LSE_Out_shape1);
        let ok1: Tile<bool, { [QUERY_GROUP_TILE_SIZE] }> = cmpi(idx1, n1, predicate::LessThan);
        let ok: Tile<bool, { [QUERY_GROUP_TILE_SIZE] }> = andi(ok, ok1);
        let s1: Tile<u64, { [QUERY_GROUP_TILE_SIZE] }> = lanes1::<QUERY_GROUP_TILE_SIZE>(LSE_Out_stride1);
        let off1: Tile<u64, { [QUERY_GROUP_TILE_SIZE] }> = idx1 * s1;
        let off: Tile<u64, { [QUERY_GROUP_TILE_SIZE] }> = off + off1;
        let idx2: Tile<u64, { [QUERY_GROUP_TILE_SIZE] }> = lanes_u64::<QUERY_GROUP_TILE_SIZE>(rows);
        let n2: Tile<u64, { [QUERY_GROUP_TILE_SIZE] }> = lanes1::<QUERY_GROUP_TILE_SIZE>(LSE_Out_shape2);
        let ok2: Tile<bool, { [QUERY_GROUP_TILE_SIZE] }> = cmpi(idx2, n2, predicate::LessThan);
        let ok: Tile<bool, { [QUERY_GROUP_TILE_SIZE] }> = andi(ok, ok2);
        let s2: Tile<u64, { [QUERY_GROUP_TILE_SIZE] }> = lanes1::<QUERY_GROUP_TILE_SIZE>(LSE_Out_stride2);
        let off2: Tile<u64, { [QUERY_GROUP_TILE_SIZE] }> = idx2 * s2;
        let off: Tile<u64, { [QUERY_GROUP_TILE_SIZE] }> = off + off2;
        let idx3: Tile<u64, { [QUERY_GROUP_TILE_SIZE] }> = lanes1::<QUERY_GROUP_TILE_SIZE>(tile_id);
        let n3: Tile<u64, { [QUERY_GROUP_TILE_SIZE] }> = lanes1::<QUERY_GROUP_TILE_SIZE>(LSE_Out_shape3);
        let ok3: Tile<bool, { [QUERY_GROUP_TILE_SIZE] }> = cmpi(idx3, n3, predicate::LessThan);
        let ok: Tile<bool, { [QUERY_GROUP_TILE_SIZE] }> = andi(ok, ok3);
        let off3: Tile<u64, { [QUERY_GROUP_TILE_SIZE] }> = unit_1d * idx3;
        let off: Tile<u64, { [QUERY_GROUP_TILE_SIZE] }> = off + off3;
        let base: PointerTile<*mut f32, { [] }> = pointer_to_tile(LSE_Out);
        let base: PointerTile<*mut f32, { [1] }> = base.reshape(const_shape![1]);
        let base: PointerTile<*mut f32, { [QUERY_GROUP_TILE_SIZE] }> = base.broadcast(const_shape![QUERY_GROUP_TILE_SIZE]);
        let ptrs: PointerTile<*mut f32, { [QUERY_GROUP_TILE_SIZE] }> = base.offset_tile(off);
        let _t: Token = unsafe {
            store_ptr_tko(ptrs, lse, ordering::Weak, None::<scope::TileBlock>, Some(ok), Some(entry),
                          Latency::<1>)
        };
    }
}
