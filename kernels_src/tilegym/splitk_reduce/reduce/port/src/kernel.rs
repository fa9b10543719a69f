//! Port of tilegym.ops.cutile.splitk_reduce:_splitk_reduce_kernel: one block per (batch,
//! head, TILE_D columns). The block loads its (NUM_KV_SPLITS_POW2, TILE_D) slice of the
//! partial outputs through a zero-padded TMA view (latency 2), gathers the splits' lse
//! (bounds-checked, padded with -inf), weights each split by exp2(lse - max), and divides
//! the weighted sum (an mma when USE_DOT, a column sum otherwise) by the sum of the weights.
//! The result is stored through a view (latency 2). attn_splitk_out and attn_out are
//! `&Tensor` views, as in the kernel; lse_splitk_out is a raw array (pointer, extents,
//! strides), as cuTile Python's gather addresses it.
#[cutile::module]
#[allow(non_snake_case)]
pub mod splitk_reduce_port {
    use cutile::core::*;

    /// A scalar as [T] lanes of u64 (gather indices and extents are widened to 64 bits).
    fn lanes<const T: i32>(v: i32) -> Tile<u64, { [T] }> {
        let s: Tile<i32, { [] }> = scalar_to_tile(v);
        let w: Tile<u64, { [] }> = exti(s);
        w.reshape(const_shape![1]).broadcast(const_shape![T])
    }

    #[cutile::entry(unchecked_accesses = true, optimization_hints = (sm_90 = (occupancy = 4,), sm_100 = (occupancy = 4,)))]
    pub unsafe fn splitk_reduce<
        E: ElementType,
        const NUM_KV_SPLITS_POW2: i32,
        const TILE_D: i32,
        const USE_DOT: bool,
    >(
        attn_splitk_out: &Tensor<E, { [-1, -1, -1, -1] }>,
        lse_splitk_out: *mut f32, lse_splitk_out_shape0: i32, lse_splitk_out_shape1: i32, lse_splitk_out_shape2: i32,
        lse_splitk_out_stride0: i32, lse_splitk_out_stride1: i32, lse_splitk_out_stride2: i32,
        attn_out: &Tensor<E, { [-1, -1, -1] }>,
    ) {
        // what cuTile Python states of the lse array's extents and strides
        let lse_splitk_out_shape0 = unsafe { assume_bounds_lower::<_, 0>(lse_splitk_out_shape0) };
        let lse_splitk_out_shape1 = unsafe { assume_bounds_lower::<_, 0>(lse_splitk_out_shape1) };
        let lse_splitk_out_shape2 = unsafe { assume_bounds_lower::<_, 0>(lse_splitk_out_shape2) };
        let lse_splitk_out_stride0 = unsafe { assume_bounds_lower::<_, 0>(lse_splitk_out_stride0) };
        let lse_splitk_out_stride1 = unsafe { assume_bounds_lower::<_, 0>(lse_splitk_out_stride1) };
        let _ = lse_splitk_out_stride2; // a unit stride: the C ABI checks it, the gather multiplies by 1
        let entry: Token = new_token_unordered();
        let batch_id: i32 = get_tile_block_id().0;
        let head_id: i32 = get_tile_block_id().1;
        let tile_id: i32 = get_tile_block_id().2;
        let zero: i32 = 0i32;
        let splits: Partition<E, { [1, 1, NUM_KV_SPLITS_POW2, TILE_D] }> = unsafe {
            make_partition_view(attn_splitk_out, const_shape![1, 1, NUM_KV_SPLITS_POW2, TILE_D],
                                padding::Zero, dim_map::Identity, attn_splitk_out.token())
        };
        let out_splitk: Tile<E, { [1, 1, NUM_KV_SPLITS_POW2, TILE_D] }> = load_view_tko(
            &splits, [batch_id, head_id, zero, tile_id], ordering::Weak, scope::TileBlock, Some(2), tma::Enabled);
        let out_splitk: Tile<E, { [NUM_KV_SPLITS_POW2, TILE_D] }> =
            out_splitk.reshape(const_shape![NUM_KV_SPLITS_POW2, TILE_D]);
        // lse_splitk = ct.gather(lse_splitk_out, (batch_id, head_id, offs_lse), padding_value=-inf)
        let offs_lse: Tile<i32, { [NUM_KV_SPLITS_POW2] }> = iota(const_shape![NUM_KV_SPLITS_POW2]);
        let neg_inf: Tile<f32, { [] }> = constant(f32::NEG_INFINITY, const_shape![]);
        let neg_inf: f32 = tile_to_scalar(neg_inf);
        let unit: Tile<u64, { [NUM_KV_SPLITS_POW2] }> = constant(1u64, const_shape![NUM_KV_SPLITS_POW2]);
        let b: Tile<u64, { [NUM_KV_SPLITS_POW2] }> = lanes::<NUM_KV_SPLITS_POW2>(batch_id);
        let n0: Tile<u64, { [NUM_KV_SPLITS_POW2] }> = lanes::<NUM_KV_SPLITS_POW2>(lse_splitk_out_shape0);
        let b_ok: Tile<bool, { [NUM_KV_SPLITS_POW2] }> = cmpi(b, n0, predicate::LessThan);
        let st0: Tile<u64, { [NUM_KV_SPLITS_POW2] }> = lanes::<NUM_KV_SPLITS_POW2>(lse_splitk_out_stride0);
        let b_off: Tile<u64, { [NUM_KV_SPLITS_POW2] }> = b * st0;
        let h: Tile<u64, { [NUM_KV_SPLITS_POW2] }> = lanes::<NUM_KV_SPLITS_POW2>(head_id);
        let n1: Tile<u64, { [NUM_KV_SPLITS_POW2] }> = lanes::<NUM_KV_SPLITS_POW2>(lse_splitk_out_shape1);
        let h_ok: Tile<bool, { [NUM_KV_SPLITS_POW2] }> = cmpi(h, n1, predicate::LessThan);
        let bh_ok: Tile<bool, { [NUM_KV_SPLITS_POW2] }> = andi(b_ok, h_ok);
        let st1: Tile<u64, { [NUM_KV_SPLITS_POW2] }> = lanes::<NUM_KV_SPLITS_POW2>(lse_splitk_out_stride1);
        let h_off: Tile<u64, { [NUM_KV_SPLITS_POW2] }> = h * st1;
        let bh_off: Tile<u64, { [NUM_KV_SPLITS_POW2] }> = b_off + h_off;
        let s: Tile<u64, { [NUM_KV_SPLITS_POW2] }> = exti(offs_lse);
        let n2: Tile<u64, { [NUM_KV_SPLITS_POW2] }> = lanes::<NUM_KV_SPLITS_POW2>(lse_splitk_out_shape2);
        let s_ok: Tile<bool, { [NUM_KV_SPLITS_POW2] }> = cmpi(s, n2, predicate::LessThan);
        let mask: Tile<bool, { [NUM_KV_SPLITS_POW2] }> = andi(bh_ok, s_ok);
        let s_off: Tile<u64, { [NUM_KV_SPLITS_POW2] }> = s * unit;
        let off: Tile<u64, { [NUM_KV_SPLITS_POW2] }> = bh_off + s_off;
        let base: PointerTile<*mut f32, { [] }> = pointer_to_tile(lse_splitk_out);
        let base: PointerTile<*mut f32, { [1] }> = base.reshape(const_shape![1]);
        let base: PointerTile<*mut f32, { [NUM_KV_SPLITS_POW2] }> =
            base.broadcast(const_shape![NUM_KV_SPLITS_POW2]);
        let ptrs: PointerTile<*mut f32, { [NUM_KV_SPLITS_POW2] }> = base.offset_tile(off);
        let (lse_splitk, _t): (Tile<f32, { [NUM_KV_SPLITS_POW2] }>, Token) = unsafe {
            load_ptr_tko(ptrs, ordering::Weak, None::<scope::TileBlock>, Some(mask), Some(neg_inf),
                         Some(entry), Latency::<0>)
        };
        let lse_max: Tile<f32, { [] }> = reduce_max(lse_splitk, 0i32);
        let lse_max: Tile<f32, { [NUM_KV_SPLITS_POW2] }> =
            lse_max.reshape(const_shape![1]).broadcast(const_shape![NUM_KV_SPLITS_POW2]);
        let sumexp_normalized_splitk: Tile<f32, { [NUM_KV_SPLITS_POW2] }> =
            exp2(lse_splitk - lse_max, ftz::Disabled);
        let sumexp_normalized: Tile<f32, { [] }> = reduce_sum(sumexp_normalized_splitk, 0i32);
        let mut out_tiles: PartitionMut<E, { [1, 1, TILE_D] }> =
            unsafe { attn_out.partition_full_mut(const_shape![1, 1, TILE_D]) };
        if USE_DOT {
            let weights: Tile<f32, { [1, NUM_KV_SPLITS_POW2] }> =
                sumexp_normalized_splitk.reshape(const_shape![1, NUM_KV_SPLITS_POW2]);
            let parts: Tile<f32, { [NUM_KV_SPLITS_POW2, TILE_D] }> = convert_tile(out_splitk);
            let acc: Tile<f32, { [1, TILE_D] }> = constant(0.0f32, const_shape![1, TILE_D]);
            let mma_result: Tile<f32, { [1, TILE_D] }> = mma(weights, parts, acc);
            let i0: Tile<i32, { [] }> = constant(0i32, const_shape![]);
            let i1: Tile<i32, { [] }> = constant(0i32, const_shape![]);
            let numerator_normalized: Tile<f32, { [1, TILE_D] }> = extract(mma_result, [i0, i1]);
            let total: Tile<f32, { [1, 1] }> = sumexp_normalized.reshape(const_shape![1, 1]);
            let total: Tile<f32, { [1, TILE_D] }> = total.broadcast(const_shape![1, TILE_D]);
            let acc: Tile<f32, { [1, TILE_D] }> = numerator_normalized / total;
            let acc: Tile<E, { [1, TILE_D] }> = convert_tile(acc);
            let acc: Tile<E, { [1, 1, TILE_D] }> = acc.reshape(const_shape![1, 1, TILE_D]);
            unsafe {
                store_view_tko_mut(&mut out_tiles, acc, [batch_id, head_id, tile_id], ordering::Weak,
                                   scope::TileBlock, Some(2), tma::Enabled)
            };
        } else {
            let weights: Tile<f32, { [NUM_KV_SPLITS_POW2, 1] }> =
                sumexp_normalized_splitk.reshape(const_shape![NUM_KV_SPLITS_POW2, 1]);
            let parts: Tile<f32, { [NUM_KV_SPLITS_POW2, TILE_D] }> = convert_tile(out_splitk);
            let weights: Tile<f32, { [NUM_KV_SPLITS_POW2, TILE_D] }> =
                weights.broadcast(const_shape![NUM_KV_SPLITS_POW2, TILE_D]);
            let numerator_normalized: Tile<f32, { [TILE_D] }> = reduce_sum(parts * weights, 0i32);
            // an identity conversion (no op): cutile types a reduction by its concrete shape,
            // the broadcast below by TILE_D, and a binary op needs the two spelled alike
            let numerator_normalized: Tile<f32, { [TILE_D] }> = convert_tile(numerator_normalized);
            let total: Tile<f32, { [1] }> = sumexp_normalized.reshape(const_shape![1]);
            let total: Tile<f32, { [TILE_D] }> = total.broadcast(const_shape![TILE_D]);
            let acc: Tile<f32, { [TILE_D] }> = numerator_normalized / total;
            let acc: Tile<E, { [TILE_D] }> = convert_tile(acc);
            let acc: Tile<E, { [1, 1, TILE_D] }> = acc.reshape(const_shape![1, 1, TILE_D]);
            unsafe {
                store_view_tko_mut(&mut out_tiles, acc, [batch_id, head_id, tile_id], ordering::Weak,
                                   scope::TileBlock, Some(2), tma::Enabled)
            };
        }
    }
}
