//! Port of tilegym.ops.cutile.splitk_reduce:_splitk_reduce_kernel: one block per (batch, head,
//! TILE_D columns). The splits' partial outputs are one zero-padded TMA tile; their lse values
//! one bounds-checked gather padded with -inf (lse comes in as cuTile Python's entry takes it:
//! pointer, extents, strides, port.toml `raw`). Each split is weighted by 2^(lse - max); the
//! weighted sum is an mma of the weights' row with the tile from 16 splits up (USE_DOT), a
//! column reduction below, then one division by the weights' sum.
#[cutile::module]
pub mod splitk_reduce_port {
    use cutile::core::*;

    /// A scalar as [T] lanes of u64: cuTile Python widens gather indices and extents to
    /// 64 bits and compares them unsigned. (Its results are bound with `let` before any
    /// arithmetic: cutile's binary operators refuse to mix them with an expression's type.)
    fn lanes<const T: i32>(v: i32) -> Tile<u64, { [T] }> {
        let s: Tile<i32, { [] }> = scalar_to_tile(v);
        let w: Tile<u64, { [] }> = exti(s);
        w.reshape(const_shape![1]).broadcast(const_shape![T])
    }

    #[cutile::entry(unchecked_accesses = true, optimization_hints = (sm_90 = (occupancy = 4,), sm_100 = (occupancy = 4,)))]
    pub unsafe fn splitk_reduce<
        E: ElementType,
        const B: i32,
        const S_KV: i32,
        const NUM_HEADS: i32,
        const HEAD_DIM: i32,
        const NUM_KV_SPLITS: i32,
        const NUM_KV_SPLITS_POW2: i32,
        const TILE_D: i32,
        const USE_DOT: i32,
    >(
        attn_splitk_out: &Tensor<E, { [-1, -1, -1, -1] }>,
        lse_splitk_out: *mut f32, lse_splitk_out_shape0: i32, lse_splitk_out_shape1: i32, lse_splitk_out_shape2: i32,
        lse_splitk_out_stride0: i32, lse_splitk_out_stride1: i32, lse_splitk_out_stride2: i32,
        attn_out: &Tensor<E, { [-1, -1, -1] }>,
    ) {
        let unit: Tile<u64, { [NUM_KV_SPLITS_POW2] }> = constant(1u64, const_shape![NUM_KV_SPLITS_POW2]);
        // what cuTile Python states of lse's extents and strides (the last stride is 1)
        let lse_splitk_out_shape0 = unsafe { assume_bounds_lower::<_, 0>(lse_splitk_out_shape0) };
        let lse_splitk_out_shape1 = unsafe { assume_bounds_lower::<_, 0>(lse_splitk_out_shape1) };
        let lse_splitk_out_shape2 = unsafe { assume_bounds_lower::<_, 0>(lse_splitk_out_shape2) };
        let lse_splitk_out_stride0 = unsafe { assume_bounds_lower::<_, 0>(lse_splitk_out_stride0) };
        let lse_splitk_out_stride1 = unsafe { assume_bounds_lower::<_, 0>(lse_splitk_out_stride1) };
        let _ = lse_splitk_out_stride2;
        let batch_id: i32 = get_tile_block_id().0;
        let head_id: i32 = get_tile_block_id().1;
        let tile_id: i32 = get_tile_block_id().2;
        let zero: i32 = 0i32;
        let mid_view: Partition<E, { [1, 1, NUM_KV_SPLITS_POW2, TILE_D] }> = unsafe {
            make_partition_view(attn_splitk_out, const_shape![1, 1, NUM_KV_SPLITS_POW2, TILE_D], padding::Zero,
                                dim_map::Identity, attn_splitk_out.token())
        };
        let mid: Tile<E, { [1, 1, NUM_KV_SPLITS_POW2, TILE_D] }> = load_view_tko(
            &mid_view, [batch_id, head_id, zero, tile_id], ordering::Weak, scope::TileBlock, Some(2), tma::Enabled);
        let mid: Tile<E, { [NUM_KV_SPLITS_POW2, TILE_D] }> = mid.reshape(const_shape![NUM_KV_SPLITS_POW2, TILE_D]);

        // lse[batch_id, head_id, 0..POW2], -inf past the splits
        let offs: Tile<i32, { [NUM_KV_SPLITS_POW2] }> = iota(const_shape![NUM_KV_SPLITS_POW2]);
        let b: Tile<u64, { [NUM_KV_SPLITS_POW2] }> = lanes::<NUM_KV_SPLITS_POW2>(batch_id);
        let b_ok: Tile<bool, { [NUM_KV_SPLITS_POW2] }> =
            cmpi(b, lanes::<NUM_KV_SPLITS_POW2>(lse_splitk_out_shape0), predicate::LessThan);
        let stride0: Tile<u64, { [NUM_KV_SPLITS_POW2] }> = lanes::<NUM_KV_SPLITS_POW2>(lse_splitk_out_stride0);
        let b_off: Tile<u64, { [NUM_KV_SPLITS_POW2] }> = b * stride0;
        let h: Tile<u64, { [NUM_KV_SPLITS_POW2] }> = lanes::<NUM_KV_SPLITS_POW2>(head_id);
        let h_ok: Tile<bool, { [NUM_KV_SPLITS_POW2] }> =
            cmpi(h, lanes::<NUM_KV_SPLITS_POW2>(lse_splitk_out_shape1), predicate::LessThan);
        let ok: Tile<bool, { [NUM_KV_SPLITS_POW2] }> = andi(b_ok, h_ok);
        let stride1: Tile<u64, { [NUM_KV_SPLITS_POW2] }> = lanes::<NUM_KV_SPLITS_POW2>(lse_splitk_out_stride1);
        let h_off: Tile<u64, { [NUM_KV_SPLITS_POW2] }> = h * stride1;
        let off: Tile<u64, { [NUM_KV_SPLITS_POW2] }> = b_off + h_off;
        let s: Tile<u64, { [NUM_KV_SPLITS_POW2] }> = exti(offs);
        let s_ok: Tile<bool, { [NUM_KV_SPLITS_POW2] }> =
            cmpi(s, lanes::<NUM_KV_SPLITS_POW2>(lse_splitk_out_shape2), predicate::LessThan);
        let ok: Tile<bool, { [NUM_KV_SPLITS_POW2] }> = andi(ok, s_ok);
        let s_off: Tile<u64, { [NUM_KV_SPLITS_POW2] }> = unit * s;
        let off: Tile<u64, { [NUM_KV_SPLITS_POW2] }> = off + s_off;
        let base: PointerTile<*mut f32, { [] }> = pointer_to_tile(lse_splitk_out);
        let base: PointerTile<*mut f32, { [1] }> = base.reshape(const_shape![1]);
        let base: PointerTile<*mut f32, { [NUM_KV_SPLITS_POW2] }> = base.broadcast(const_shape![NUM_KV_SPLITS_POW2]);
        let ptrs: PointerTile<*mut f32, { [NUM_KV_SPLITS_POW2] }> = base.offset_tile(off);
        let entry: Token = new_token_unordered();
        let neg_inf: Tile<f32, { [] }> = constant(f32::NEG_INFINITY, const_shape![]);
        let neg_inf: f32 = tile_to_scalar(neg_inf);
        let (lse_splitk, _t): (Tile<f32, { [NUM_KV_SPLITS_POW2] }>, Token) = unsafe {
            load_ptr_tko(ptrs, ordering::Weak, None::<scope::TileBlock>, Some(ok), Some(neg_inf),
                         Some(entry), Latency::<0>)
        };

        let lse_max: Tile<f32, { [] }> = reduce_max(lse_splitk, 0i32);
        let weights: Tile<f32, { [NUM_KV_SPLITS_POW2] }> =
            exp2(lse_splitk - lse_max.reshape(const_shape![1]).broadcast(const_shape![NUM_KV_SPLITS_POW2]), ftz::Disabled);
        let total: Tile<f32, { [] }> = reduce_sum(weights, 0i32);
        if USE_DOT == 1i32 {
            let row: Tile<f32, { [1, NUM_KV_SPLITS_POW2] }> = weights.reshape(const_shape![1, NUM_KV_SPLITS_POW2]);
            let mid_f: Tile<f32, { [NUM_KV_SPLITS_POW2, TILE_D] }> = convert_tile(mid);
            let zeros: Tile<f32, { [1, TILE_D] }> = constant(0.0f32, const_shape![1, TILE_D]);
            let product: Tile<f32, { [1, TILE_D] }> = mma(row, mid_f, zeros);
            let z: Tile<i32, { [] }> = scalar_to_tile(zero);
            let numer: Tile<f32, { [1, TILE_D] }> = extract(product, [z, z]);
            let total_b: Tile<f32, { [1, TILE_D] }> = total.reshape(const_shape![1, 1]).broadcast(const_shape![1, TILE_D]);
            let acc: Tile<f32, { [1, TILE_D] }> = divf(numer, total_b, rounding::NearestEven, ftz::Disabled);
            let acc: Tile<E, { [1, TILE_D] }> = convert_tile(acc);
            store(attn_out, acc.reshape(const_shape![1, 1, TILE_D]), batch_id, head_id, tile_id);
        } else {
            let column: Tile<f32, { [NUM_KV_SPLITS_POW2, 1] }> = weights.reshape(const_shape![NUM_KV_SPLITS_POW2, 1]);
            let mid_f: Tile<f32, { [NUM_KV_SPLITS_POW2, TILE_D] }> = convert_tile(mid);
            let weighted: Tile<f32, { [NUM_KV_SPLITS_POW2, TILE_D] }> =
                mid_f * column.broadcast(const_shape![NUM_KV_SPLITS_POW2, TILE_D]);
            let sums: Tile<f32, { [TILE_D] }> = reduce_sum(weighted, 0i32);
            let total_b: Tile<f32, { [TILE_D] }> = total.reshape(const_shape![1]).broadcast(const_shape![TILE_D]);
            let acc: Tile<f32, { [TILE_D] }> = divf(sums, total_b, rounding::NearestEven, ftz::Disabled);
            let acc: Tile<E, { [TILE_D] }> = convert_tile(acc);
            store(attn_out, acc.reshape(const_shape![1, 1, TILE_D]), batch_id, head_id, tile_id);
        }
    }

    /// ct.store(attn_out, (batch, head, tile), latency=2).
    fn store<E: ElementType, const TILE_D: i32>(
        attn_out: &Tensor<E, { [-1, -1, -1] }>, tile: Tile<E, { [1, 1, TILE_D] }>, b: i32, h: i32, t: i32,
    ) {
        let mut out_view: PartitionMut<E, { [1, 1, TILE_D] }> =
            unsafe { attn_out.partition_full_mut(const_shape![1, 1, TILE_D]) };
        unsafe {
            store_view_tko_mut(&mut out_view, tile, [b, h, t], ordering::Weak, scope::TileBlock, Some(2), tma::Enabled)
        };
    }
}
