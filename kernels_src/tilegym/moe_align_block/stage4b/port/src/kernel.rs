//! Port of tilegym.ops.cutile.moe_align_block:_moe_align_block_size_stage4b_scatter_kernel:
//! one block per token range. First it stamps expert_ids: block `bid` reads cumsum[bid] and
//! cumsum[bid + 1] (0-d gathers, padding 0, so blocks past the experts stamp nothing) and
//! scatters its id to each of its padded blocks (a loop of max(0, end - start) trips, the
//! stores chained). Then each sub-chunk of its tokens gathers their expert ids (padding id
//! NUM_EXPERTS), builds the match matrix against every expert, and ranks each token within
//! its expert by an exclusive prefix (scan minus the match). Each token is scattered to
//! running_off[expert] + rank, and running_off advances by the sub-chunk's histogram (the
//! stores chained through the loop). Hand-finished from the drafter's per-case draft
//! (draft/): one generic entry over raw arrays, as stage1.
#[cutile::module]
pub mod moe_stage4b_port {
    use cutile::core::*;

    /// cutile's load_ptr_tko takes the padding as a scalar and broadcasts it at the load;
    /// cuTile Python broadcasts it first. The same Tile IR op, declared with a padding tile
    /// (0-d and 1-d).
    #[cuda_tile::op(name = "cuda_tile.load_ptr_tko", since = "V13_2", params = ["source"])]
    unsafe fn load_ptr_padded0<T: ElementType, P: PointerTo<T>, const S: [i32; 0], O: ordering::LoadMode, Sc: scope::Mode, const CYCLES: i32>(
        source: PointerTile<P, S>,
        memory_ordering: O,
        memory_scope: Option<Sc>,
        mask: Option<Tile<bool, S>>,
        padding_value: Option<Tile<T, S>>,
        token: Option<Token>,
        latency: Latency<CYCLES>,
    ) -> (Tile<T, S>, Token) {
        unreachable!()
    }

    #[cuda_tile::op(name = "cuda_tile.load_ptr_tko", since = "V13_2", params = ["source"])]
    unsafe fn load_ptr_padded<T: ElementType, P: PointerTo<T>, const S: [i32; 1], O: ordering::LoadMode, Sc: scope::Mode, const CYCLES: i32>(
        source: PointerTile<P, S>,
        memory_ordering: O,
        memory_scope: Option<Sc>,
        mask: Option<Tile<bool, S>>,
        padding_value: Option<Tile<T, S>>,
        token: Option<Token>,
        latency: Latency<CYCLES>,
    ) -> (Tile<T, S>, Token) {
        unreachable!()
    }

    /// A scalar widened to u64 (0-d): cuTile Python compares indices and extents as u64.
    fn wide(v: i32) -> Tile<u64, { [] }> {
        let s: Tile<i32, { [] }> = scalar_to_tile(v);
        exti(s)
    }

    /// A scalar as [T] lanes of u64.
    fn lanes<const T: i32>(v: i32) -> Tile<u64, { [T] }> {
        let s: Tile<i32, { [] }> = scalar_to_tile(v);
        let w: Tile<u64, { [] }> = exti(s);
        w.reshape(const_shape![1]).broadcast(const_shape![T])
    }

    /// A scalar as [T] lanes of i32.
    fn splat<const T: i32>(v: i32) -> Tile<i32, { [T] }> {
        let s: Tile<i32, { [] }> = scalar_to_tile(v);
        s.reshape(const_shape![1]).broadcast(const_shape![T])
    }

    /// a + b over [T], a * b and a - b over [R, C] (a reduction's or scan's result types concretely in cutile,
    /// the body's tiles symbolically: a helper's parameters unify them).
    fn add<const T: i32>(a: Tile<i32, { [T] }>, b: Tile<i32, { [T] }>) -> Tile<i32, { [T] }> {
        a + b
    }

    fn mul2<const R: i32, const C: i32>(a: Tile<i32, { [R, C] }>, b: Tile<i32, { [R, C] }>) -> Tile<i32, { [R, C] }> {
        a * b
    }

    fn sub2<const R: i32, const C: i32>(a: Tile<i32, { [R, C] }>, b: Tile<i32, { [R, C] }>) -> Tile<i32, { [R, C] }> {
        a - b
    }

    #[cutile::entry(unchecked_accesses = true)]
    pub unsafe fn moe_stage4b<
        const NUM_EXPERTS: i32,
        const BLOCK_SIZE: i32,
        const NUMEL: i32,
        const TOKENS_PER_THREAD: i32,
        const SUB_CHUNK: i32,
        const NUM_EXPERTS_POW2: i32,
    >(
        topk_ids: *mut i64, topk_ids_shape0: i32, topk_ids_stride0: i32,
        sorted_token_ids: *mut i32, sorted_token_ids_shape0: i32, sorted_token_ids_stride0: i32,
        expert_ids: *mut i32, expert_ids_shape0: i32, expert_ids_stride0: i32,
        tokens_cnts: *mut i32, tokens_cnts_shape0: i32, tokens_cnts_stride0: i32,
        cumsum: *mut i32, cumsum_shape0: i32, cumsum_stride0: i32,
    ) {
        // (bid + 1 before the splats: their expansion writes scalar 1s, and cuTile Python's
        // `1` is defined after the block id, as in stage1)
        let bid: i32 = get_tile_block_id().0;
        let next: i32 = bid + 1i32;
        let ids_unit: Tile<u64, { [SUB_CHUNK] }> = constant(1u64, const_shape![SUB_CHUNK]);
        let experts: Tile<i32, { [NUM_EXPERTS_POW2] }> = broadcast_scalar(NUM_EXPERTS, const_shape![NUM_EXPERTS_POW2]);
        let unit_e: Tile<u64, { [NUM_EXPERTS_POW2] }> = constant(1u64, const_shape![NUM_EXPERTS_POW2]);
        let zeros_e: Tile<i32, { [NUM_EXPERTS_POW2] }> = constant(0i32, const_shape![NUM_EXPERTS_POW2]);
        let numel: Tile<i32, { [SUB_CHUNK] }> = broadcast_scalar(NUMEL, const_shape![SUB_CHUNK]);
        let per_thread: Tile<i32, { [SUB_CHUNK] }> = broadcast_scalar(TOKENS_PER_THREAD, const_shape![SUB_CHUNK]);
        let pad: Tile<i32, { [SUB_CHUNK] }> = broadcast_scalar(NUM_EXPERTS, const_shape![SUB_CHUNK]);
        let pad: Tile<i64, { [SUB_CHUNK] }> = exti(pad);
        let topk_ids_shape0 = unsafe { assume_bounds_lower::<_, 0>(topk_ids_shape0) };
        let sorted_token_ids_shape0 = unsafe { assume_bounds_lower::<_, 0>(sorted_token_ids_shape0) };
        let expert_ids_shape0 = unsafe { assume_bounds_lower::<_, 0>(expert_ids_shape0) };
        let tokens_cnts_shape0 = unsafe { assume_bounds_lower::<_, 0>(tokens_cnts_shape0) };
        let cumsum_shape0 = unsafe { assume_bounds_lower::<_, 0>(cumsum_shape0) };
        let _ = (topk_ids_stride0, sorted_token_ids_stride0, expert_ids_stride0, tokens_cnts_stride0, cumsum_stride0);
        let entry: Token = new_token_unordered();

        let off_t: i32 = NUM_EXPERTS * bid;
        let unit: Tile<u64, { [] }> = constant(1u64, const_shape![]);
        let zero: Tile<i32, { [] }> = constant(0i32, const_shape![]);
        // start_idx_cumsum = cumsum[bid], end_idx_cumsum = cumsum[bid + 1] (padding 0)
        let at: Tile<u64, { [] }> = wide(bid);
        let inside: Tile<bool, { [] }> = cmpi(at, wide(cumsum_shape0), predicate::LessThan);
        let p: PointerTile<*mut i32, { [] }> = pointer_to_tile(cumsum);
        let p: PointerTile<*mut i32, { [] }> = p.offset_tile(unit * at);
        // an i32 element's address: 4-byte aligned (the base is checked 16), as cuTile states it
        let p: PointerTile<*mut i32, { [] }> = unsafe { assume_div_by::<_, 4>(p) };
        let (start_c, _): (Tile<i32, { [] }>, Token) = unsafe {
            load_ptr_padded0(p, ordering::Weak, None::<scope::TileBlock>, Some(inside), Some(zero), Some(entry), Latency::<0>)
        };
        let at: Tile<u64, { [] }> = wide(next);
        let inside: Tile<bool, { [] }> = cmpi(at, wide(cumsum_shape0), predicate::LessThan);
        let p: PointerTile<*mut i32, { [] }> = pointer_to_tile(cumsum);
        let p: PointerTile<*mut i32, { [] }> = p.offset_tile(unit * at);
        // an i32 element's address: 4-byte aligned (the base is checked 16), as cuTile states it
        let p: PointerTile<*mut i32, { [] }> = unsafe { assume_div_by::<_, 4>(p) };
        let (end_c, _): (Tile<i32, { [] }>, Token) = unsafe {
            load_ptr_padded0(p, ordering::Weak, None::<scope::TileBlock>, Some(inside), Some(zero), Some(entry), Latency::<0>)
        };
        let block: Tile<i32, { [] }> = scalar_to_tile(BLOCK_SIZE);
        let one: Tile<i32, { [] }> = scalar_to_tile(1i32);
        let start_block: Tile<i32, { [] }> = divi(start_c, block, rounding::NegativeInf);
        let end_block: Tile<i32, { [] }> = divi(end_c + block - one, block, rounding::NegativeInf);
        let num_blocks: Tile<i32, { [] }> = maxi(zero, end_block - start_block);
        let num_blocks: i32 = tile_to_scalar(num_blocks);
        let bid_t: Tile<i32, { [] }> = scalar_to_tile(bid);
        let mut stamped: Token = entry;
        for i in 0i32..num_blocks {
            let i_t: Tile<i32, { [] }> = scalar_to_tile(i);
            let at: Tile<u64, { [] }> = exti(start_block + i_t);
            let inside: Tile<bool, { [] }> = cmpi(at, wide(expert_ids_shape0), predicate::LessThan);
            let p: PointerTile<*mut i32, { [] }> = pointer_to_tile(expert_ids);
            let p: PointerTile<*mut i32, { [] }> = p.offset_tile(unit * at);
            // an i32 element's address: 4-byte aligned (the base is checked 16), as cuTile states it
            let p: PointerTile<*mut i32, { [] }> = unsafe { assume_div_by::<_, 4>(p) };
            stamped = unsafe {
                store_ptr_tko(p, bid_t, ordering::Weak, None::<scope::TileBlock>, Some(inside), Some(stamped), Latency::<0>)
            };
        }

        let expert_idx: Tile<i32, { [NUM_EXPERTS_POW2] }> = iota(const_shape![NUM_EXPERTS_POW2]);
        let expert_mask: Tile<bool, { [NUM_EXPERTS_POW2] }> = lt_tile(expert_idx, experts);
        // pre_cnt = tokens_cnts[off_t + expert_idx], cum_off = cumsum[expert_idx] (masked, padding 0)
        let offs: Tile<i32, { [NUM_EXPERTS_POW2] }> = expert_idx + splat::<NUM_EXPERTS_POW2>(off_t);
        let offs: Tile<u64, { [NUM_EXPERTS_POW2] }> = exti(offs);
        let inside: Tile<bool, { [NUM_EXPERTS_POW2] }> =
            cmpi(offs, lanes::<NUM_EXPERTS_POW2>(tokens_cnts_shape0), predicate::LessThan);
        let offs: Tile<u64, { [NUM_EXPERTS_POW2] }> = unit_e * offs;
        let base: PointerTile<*mut i32, { [] }> = pointer_to_tile(tokens_cnts);
        let base: PointerTile<*mut i32, { [1] }> = base.reshape(const_shape![1]);
        let base: PointerTile<*mut i32, { [NUM_EXPERTS_POW2] }> = base.broadcast(const_shape![NUM_EXPERTS_POW2]);
        let ptrs: PointerTile<*mut i32, { [NUM_EXPERTS_POW2] }> = base.offset_tile(offs);
        let mask: Tile<bool, { [NUM_EXPERTS_POW2] }> = andi(expert_mask, inside);
        let (pre_cnt, _): (Tile<i32, { [NUM_EXPERTS_POW2] }>, Token) = unsafe {
            load_ptr_padded(ptrs, ordering::Weak, None::<scope::TileBlock>, Some(mask), Some(zeros_e), Some(entry), Latency::<0>)
        };
        let offs: Tile<u64, { [NUM_EXPERTS_POW2] }> = exti(expert_idx);
        let inside: Tile<bool, { [NUM_EXPERTS_POW2] }> =
            cmpi(offs, lanes::<NUM_EXPERTS_POW2>(cumsum_shape0), predicate::LessThan);
        let offs: Tile<u64, { [NUM_EXPERTS_POW2] }> = unit_e * offs;
        let base: PointerTile<*mut i32, { [] }> = pointer_to_tile(cumsum);
        let base: PointerTile<*mut i32, { [1] }> = base.reshape(const_shape![1]);
        let base: PointerTile<*mut i32, { [NUM_EXPERTS_POW2] }> = base.broadcast(const_shape![NUM_EXPERTS_POW2]);
        let ptrs: PointerTile<*mut i32, { [NUM_EXPERTS_POW2] }> = base.offset_tile(offs);
        let mask: Tile<bool, { [NUM_EXPERTS_POW2] }> = andi(expert_mask, inside);
        let (cum_off, _): (Tile<i32, { [NUM_EXPERTS_POW2] }>, Token) = unsafe {
            load_ptr_padded(ptrs, ordering::Weak, None::<scope::TileBlock>, Some(mask), Some(zeros_e), Some(entry), Latency::<0>)
        };
        let mut running_off: Tile<i32, { [NUM_EXPERTS_POW2] }> = pre_cnt + cum_off;

        let start_idx_tokens: i32 = TOKENS_PER_THREAD * bid;
        let sub_arange: Tile<i32, { [SUB_CHUNK] }> = iota(const_shape![SUB_CHUNK]);
        let ids_extent: Tile<u64, { [SUB_CHUNK] }> = lanes::<SUB_CHUNK>(topk_ids_shape0);
        let ids_base: PointerTile<*mut i64, { [] }> = pointer_to_tile(topk_ids);
        let ids_base: PointerTile<*mut i64, { [1] }> = ids_base.reshape(const_shape![1]);
        let ids_base: PointerTile<*mut i64, { [SUB_CHUNK] }> = ids_base.broadcast(const_shape![SUB_CHUNK]);
        let row32: Tile<i32, { [1, NUM_EXPERTS_POW2] }> = expert_idx.reshape(const_shape![1, NUM_EXPERTS_POW2]);
        let row64: Tile<i64, { [1, NUM_EXPERTS_POW2] }> = exti(row32);
        let expert_row: Tile<i64, { [SUB_CHUNK, NUM_EXPERTS_POW2] }> =
            row64.broadcast(const_shape![SUB_CHUNK, NUM_EXPERTS_POW2]);
        let sorted_extent: Tile<u64, { [SUB_CHUNK] }> = lanes::<SUB_CHUNK>(sorted_token_ids_shape0);
        let sorted_base: PointerTile<*mut i32, { [] }> = pointer_to_tile(sorted_token_ids);
        let sorted_base: PointerTile<*mut i32, { [1] }> = sorted_base.reshape(const_shape![1]);
        let sorted_base: PointerTile<*mut i32, { [SUB_CHUNK] }> = sorted_base.broadcast(const_shape![SUB_CHUNK]);
        let mut scattered: Token = entry;
        for sub_start in (0i32..TOKENS_PER_THREAD).step_by(SUB_CHUNK as usize) {
            let tok_offs: Tile<i32, { [SUB_CHUNK] }> = sub_arange + splat::<SUB_CHUNK>(start_idx_tokens + sub_start);
            let in_numel: Tile<bool, { [SUB_CHUNK] }> = lt_tile(tok_offs, numel);
            let local: Tile<i32, { [SUB_CHUNK] }> = sub_arange + splat::<SUB_CHUNK>(sub_start);
            let in_chunk: Tile<bool, { [SUB_CHUNK] }> = lt_tile(local, per_thread);
            let in_range: Tile<bool, { [SUB_CHUNK] }> = andi(in_numel, in_chunk);
            let offs: Tile<u64, { [SUB_CHUNK] }> = exti(tok_offs);
            let in_bounds: Tile<bool, { [SUB_CHUNK] }> = cmpi(offs, ids_extent, predicate::LessThan);
            let offs: Tile<u64, { [SUB_CHUNK] }> = ids_unit * offs;
            let ptrs: PointerTile<*mut i64, { [SUB_CHUNK] }> = ids_base.offset_tile(offs);
            let mask: Tile<bool, { [SUB_CHUNK] }> = andi(in_range, in_bounds);
            let (ids, _t): (Tile<i64, { [SUB_CHUNK] }>, Token) = unsafe {
                load_ptr_padded(ptrs, ordering::Weak, None::<scope::TileBlock>, Some(mask), Some(pad), Some(entry), Latency::<0>)
            };
            let ids: Tile<i64, { [SUB_CHUNK, 1] }> = ids.reshape(const_shape![SUB_CHUNK, 1]);
            let ids: Tile<i64, { [SUB_CHUNK, NUM_EXPERTS_POW2] }> = ids.broadcast(const_shape![SUB_CHUNK, NUM_EXPERTS_POW2]);
            let hit: Tile<bool, { [SUB_CHUNK, NUM_EXPERTS_POW2] }> = eq_tile(ids, expert_row);
            let hit: Tile<i32, { [SUB_CHUNK, NUM_EXPERTS_POW2] }> = exti(hit);
            let prefix: Tile<i32, { [SUB_CHUNK, NUM_EXPERTS_POW2] }> = scan_sum(hit, 0i32, reverse::Forward, 0i32);
            let rank_2d: Tile<i32, { [SUB_CHUNK, NUM_EXPERTS_POW2] }> = sub2::<SUB_CHUNK, NUM_EXPERTS_POW2>(prefix, hit);
            let rank_per_token: Tile<i32, { [SUB_CHUNK] }> = reduce_sum(mul2::<SUB_CHUNK, NUM_EXPERTS_POW2>(rank_2d, hit), 1i32);
            let offs_row: Tile<i32, { [1, NUM_EXPERTS_POW2] }> = running_off.reshape(const_shape![1, NUM_EXPERTS_POW2]);
            let offs_rows: Tile<i32, { [SUB_CHUNK, NUM_EXPERTS_POW2] }> = offs_row.broadcast(const_shape![SUB_CHUNK, NUM_EXPERTS_POW2]);
            let base_per_token: Tile<i32, { [SUB_CHUNK] }> = reduce_sum(mul2::<SUB_CHUNK, NUM_EXPERTS_POW2>(offs_rows, hit), 1i32);
            let rank_post_pad: Tile<i32, { [SUB_CHUNK] }> = add::<SUB_CHUNK>(rank_per_token, base_per_token);
            let at: Tile<u64, { [SUB_CHUNK] }> = exti(rank_post_pad);
            let inside: Tile<bool, { [SUB_CHUNK] }> = cmpi(at, sorted_extent, predicate::LessThan);
            let at: Tile<u64, { [SUB_CHUNK] }> = ids_unit * at;
            let ptrs: PointerTile<*mut i32, { [SUB_CHUNK] }> = sorted_base.offset_tile(at);
            let mask: Tile<bool, { [SUB_CHUNK] }> = andi(in_range, inside);
            scattered = unsafe {
                store_ptr_tko(ptrs, tok_offs, ordering::Weak, None::<scope::TileBlock>, Some(mask), Some(scattered), Latency::<0>)
            };
            let histogram: Tile<i32, { [NUM_EXPERTS_POW2] }> = reduce_sum(hit, 0i32);
            running_off = add::<NUM_EXPERTS_POW2>(running_off, histogram);
        }
    }
}
