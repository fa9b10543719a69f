//! Port of tilegym.ops.cutile.moe_align_block:_moe_align_block_size_stage1_kernel: one block
//! per token range. Its tokens in sub-chunks of SUB_CHUNK, each a gather of expert ids (the
//! padding id NUM_EXPERTS past the range), compared with every expert index: the match matrix's
//! column sums are the range's histogram, scattered to row bid + 1 of tokens_cnts.
//! Hand-finished from the drafter's per-case draft (draft/): one generic entry, raw pointer
//! parameters as cuTile Python's entry takes them (pointer, extent, stride; port.toml `raw`).
#[cutile::module]
pub mod moe_stage1_port {
    use cutile::core::*;

    /// cutile's load_ptr_tko takes the padding as a scalar and broadcasts it at the load;
    /// cuTile Python broadcasts it first. The same Tile IR op, declared with a padding tile.
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

    /// A scalar as [T] lanes of u64: cuTile Python widens gather indices and extents to 64
    /// bits and compares them unsigned.
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

    /// a + b (a reduction's result types concretely in cutile, its carried sum symbolically:
    /// cutile's `+` refuses the mix, a helper's parameters unify them).
    fn add<const T: i32>(a: Tile<i32, { [T] }>, b: Tile<i32, { [T] }>) -> Tile<i32, { [T] }> {
        a + b
    }

    #[cutile::entry(unchecked_accesses = true)]
    pub unsafe fn moe_stage1<
        const NUM_EXPERTS: i32,
        const NUMEL: i32,
        const TOKENS_PER_THREAD: i32,
        const SUB_CHUNK: i32,
        const NUM_EXPERTS_POW2: i32,
    >(
        topk_ids: *mut i64, topk_ids_shape0: i32, topk_ids_stride0: i32,
        tokens_cnts: *mut i32, tokens_cnts_shape0: i32, tokens_cnts_stride0: i32,
    ) {
        // (bid + 1 before the splats: their expansion writes scalar 1s, and cuTile Python's
        // `1` is defined after the block id)
        let bid: i32 = get_tile_block_id().0;
        let start_idx: i32 = TOKENS_PER_THREAD * bid;
        let off_c: i32 = NUM_EXPERTS * (bid + 1i32);
        let experts: Tile<i32, { [NUM_EXPERTS_POW2] }> = broadcast_scalar(NUM_EXPERTS, const_shape![NUM_EXPERTS_POW2]);
        let numel: Tile<i32, { [SUB_CHUNK] }> = broadcast_scalar(NUMEL, const_shape![SUB_CHUNK]);
        let per_thread: Tile<i32, { [SUB_CHUNK] }> = broadcast_scalar(TOKENS_PER_THREAD, const_shape![SUB_CHUNK]);
        let ids_unit: Tile<u64, { [SUB_CHUNK] }> = constant(1u64, const_shape![SUB_CHUNK]);
        let pad: Tile<i32, { [SUB_CHUNK] }> = broadcast_scalar(NUM_EXPERTS, const_shape![SUB_CHUNK]);
        let pad: Tile<i64, { [SUB_CHUNK] }> = exti(pad);
        let cnts_unit: Tile<u64, { [NUM_EXPERTS_POW2] }> = constant(1u64, const_shape![NUM_EXPERTS_POW2]);
        let topk_ids_shape0 = unsafe { assume_bounds_lower::<_, 0>(topk_ids_shape0) };
        let tokens_cnts_shape0 = unsafe { assume_bounds_lower::<_, 0>(tokens_cnts_shape0) };
        let _ = (topk_ids_stride0, tokens_cnts_stride0);
        let entry: Token = new_token_unordered();

        let expert_idx: Tile<i32, { [NUM_EXPERTS_POW2] }> = iota(const_shape![NUM_EXPERTS_POW2]);
        let expert_mask: Tile<bool, { [NUM_EXPERTS_POW2] }> = lt_tile(expert_idx, experts);
        let mut counts: Tile<i32, { [NUM_EXPERTS_POW2] }> = constant(0i32, const_shape![NUM_EXPERTS_POW2]);
        let sub_arange: Tile<i32, { [SUB_CHUNK] }> = iota(const_shape![SUB_CHUNK]);
        let ids_extent: Tile<u64, { [SUB_CHUNK] }> = lanes::<SUB_CHUNK>(topk_ids_shape0);
        let ids_base: PointerTile<*mut i64, { [] }> = pointer_to_tile(topk_ids);
        let ids_base: PointerTile<*mut i64, { [1] }> = ids_base.reshape(const_shape![1]);
        let ids_base: PointerTile<*mut i64, { [SUB_CHUNK] }> = ids_base.broadcast(const_shape![SUB_CHUNK]);
        let row32: Tile<i32, { [1, NUM_EXPERTS_POW2] }> = expert_idx.reshape(const_shape![1, NUM_EXPERTS_POW2]);
        let row64: Tile<i64, { [1, NUM_EXPERTS_POW2] }> = exti(row32);
        let expert_row: Tile<i64, { [SUB_CHUNK, NUM_EXPERTS_POW2] }> =
            row64.broadcast(const_shape![SUB_CHUNK, NUM_EXPERTS_POW2]);
        for sub_start in (0i32..TOKENS_PER_THREAD).step_by(SUB_CHUNK as usize) {
            let tok_offs: Tile<i32, { [SUB_CHUNK] }> = sub_arange + splat::<SUB_CHUNK>(start_idx + sub_start);
            let in_numel: Tile<bool, { [SUB_CHUNK] }> = lt_tile(tok_offs, numel);
            let local: Tile<i32, { [SUB_CHUNK] }> = sub_arange + splat::<SUB_CHUNK>(sub_start);
            let in_range: Tile<bool, { [SUB_CHUNK] }> = lt_tile(local, per_thread);
            let tok_mask: Tile<bool, { [SUB_CHUNK] }> = andi(in_numel, in_range);
            let offs: Tile<u64, { [SUB_CHUNK] }> = exti(tok_offs);
            let in_bounds: Tile<bool, { [SUB_CHUNK] }> = cmpi(offs, ids_extent, predicate::LessThan);
            let offs: Tile<u64, { [SUB_CHUNK] }> = ids_unit * offs;
            let ptrs: PointerTile<*mut i64, { [SUB_CHUNK] }> = ids_base.offset_tile(offs);
            let mask: Tile<bool, { [SUB_CHUNK] }> = andi(tok_mask, in_bounds);
            let (ids, _t): (Tile<i64, { [SUB_CHUNK] }>, Token) = unsafe {
                load_ptr_padded(ptrs, ordering::Weak, None::<scope::TileBlock>, Some(mask), Some(pad), Some(entry), Latency::<0>)
            };
            let ids: Tile<i64, { [SUB_CHUNK, 1] }> = ids.reshape(const_shape![SUB_CHUNK, 1]);
            let ids: Tile<i64, { [SUB_CHUNK, NUM_EXPERTS_POW2] }> = ids.broadcast(const_shape![SUB_CHUNK, NUM_EXPERTS_POW2]);
            let hit: Tile<bool, { [SUB_CHUNK, NUM_EXPERTS_POW2] }> = eq_tile(ids, expert_row);
            let hit: Tile<i32, { [SUB_CHUNK, NUM_EXPERTS_POW2] }> = exti(hit);
            let sums: Tile<i32, { [NUM_EXPERTS_POW2] }> = reduce_sum(hit, 0i32);
            counts = add::<NUM_EXPERTS_POW2>(counts, sums);
        }
        let offs: Tile<i32, { [NUM_EXPERTS_POW2] }> = expert_idx + splat::<NUM_EXPERTS_POW2>(off_c);
        let offs: Tile<u64, { [NUM_EXPERTS_POW2] }> = exti(offs);
        let in_bounds: Tile<bool, { [NUM_EXPERTS_POW2] }> =
            cmpi(offs, lanes::<NUM_EXPERTS_POW2>(tokens_cnts_shape0), predicate::LessThan);
        let offs: Tile<u64, { [NUM_EXPERTS_POW2] }> = cnts_unit * offs;
        let base: PointerTile<*mut i32, { [] }> = pointer_to_tile(tokens_cnts);
        let base: PointerTile<*mut i32, { [1] }> = base.reshape(const_shape![1]);
        let base: PointerTile<*mut i32, { [NUM_EXPERTS_POW2] }> = base.broadcast(const_shape![NUM_EXPERTS_POW2]);
        let ptrs: PointerTile<*mut i32, { [NUM_EXPERTS_POW2] }> = base.offset_tile(offs);
        let mask: Tile<bool, { [NUM_EXPERTS_POW2] }> = andi(expert_mask, in_bounds);
        let _t: Token = unsafe {
            store_ptr_tko(ptrs, counts, ordering::Weak, None::<scope::TileBlock>, Some(mask), Some(entry), Latency::<0>)
        };
    }
}
