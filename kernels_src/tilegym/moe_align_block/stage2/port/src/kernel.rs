//! Port of tilegym.ops.cutile.moe_align_block:_moe_align_block_size_stage2_kernel: one block
//! per expert. Its column of tokens_cnts (rows 1 .. programs, NUM_EXPERTS_POW2 >= programs
//! lanes, 0 past the end) is gathered, prefix-summed (ct.cumsum: a scan) and scattered back in
//! place. Hand-finished from the drafter's per-case draft (draft/): one generic entry, the
//! in-place read before the write ordered as cuTile Python orders it (the store takes the
//! entry token joined with the load's).
#[cutile::module]
pub mod moe_stage2_port {
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

    #[cutile::entry(unchecked_accesses = true)]
    pub unsafe fn moe_stage2<const NUM_EXPERTS: i32, const NUM_EXPERTS_POW2: i32>(
        tokens_cnts: *mut i32, tokens_cnts_shape0: i32, tokens_cnts_stride0: i32,
    ) {
        let bid: i32 = get_tile_block_id().0;
        let base_offset: i32 = NUM_EXPERTS + bid;
        let experts: Tile<i32, { [NUM_EXPERTS_POW2] }> = broadcast_scalar(NUM_EXPERTS, const_shape![NUM_EXPERTS_POW2]);
        let unit: Tile<u64, { [NUM_EXPERTS_POW2] }> = constant(1u64, const_shape![NUM_EXPERTS_POW2]);
        let zeros: Tile<i32, { [NUM_EXPERTS_POW2] }> = constant(0i32, const_shape![NUM_EXPERTS_POW2]);
        let tokens_cnts_shape0 = unsafe { assume_bounds_lower::<_, 0>(tokens_cnts_shape0) };
        let _ = tokens_cnts_stride0;
        let entry: Token = new_token_unordered();

        let rows: Tile<i32, { [NUM_EXPERTS_POW2] }> = iota(const_shape![NUM_EXPERTS_POW2]);
        let rows: Tile<i32, { [NUM_EXPERTS_POW2] }> = experts * rows;
        let base: Tile<i32, { [] }> = scalar_to_tile(base_offset);
        let base: Tile<i32, { [1] }> = base.reshape(const_shape![1]);
        let offsets: Tile<i32, { [NUM_EXPERTS_POW2] }> = rows + base.broadcast(const_shape![NUM_EXPERTS_POW2]);
        let wide: Tile<u64, { [NUM_EXPERTS_POW2] }> = exti(offsets);
        let inside: Tile<bool, { [NUM_EXPERTS_POW2] }> =
            cmpi(wide, lanes::<NUM_EXPERTS_POW2>(tokens_cnts_shape0), predicate::LessThan);
        let scaled: Tile<u64, { [NUM_EXPERTS_POW2] }> = unit * wide;
        let b: PointerTile<*mut i32, { [] }> = pointer_to_tile(tokens_cnts);
        let b: PointerTile<*mut i32, { [1] }> = b.reshape(const_shape![1]);
        let b: PointerTile<*mut i32, { [NUM_EXPERTS_POW2] }> = b.broadcast(const_shape![NUM_EXPERTS_POW2]);
        let ptrs: PointerTile<*mut i32, { [NUM_EXPERTS_POW2] }> = b.offset_tile(scaled);
        let (counts, read): (Tile<i32, { [NUM_EXPERTS_POW2] }>, Token) = unsafe {
            load_ptr_padded(ptrs, ordering::Weak, None::<scope::TileBlock>, Some(inside), Some(zeros), Some(entry), Latency::<0>)
        };
        let after_read: Token = join_tokens(&[entry, read]);
        let cumsum: Tile<i32, { [NUM_EXPERTS_POW2] }> = scan_sum(counts, 0i32, reverse::Forward, 0i32);
        // (the scatter's addresses computed again, as cuTile Python writes them)
        let wide: Tile<u64, { [NUM_EXPERTS_POW2] }> = exti(offsets);
        let inside: Tile<bool, { [NUM_EXPERTS_POW2] }> =
            cmpi(wide, lanes::<NUM_EXPERTS_POW2>(tokens_cnts_shape0), predicate::LessThan);
        let scaled: Tile<u64, { [NUM_EXPERTS_POW2] }> = unit * wide;
        let b: PointerTile<*mut i32, { [] }> = pointer_to_tile(tokens_cnts);
        let b: PointerTile<*mut i32, { [1] }> = b.reshape(const_shape![1]);
        let b: PointerTile<*mut i32, { [NUM_EXPERTS_POW2] }> = b.broadcast(const_shape![NUM_EXPERTS_POW2]);
        let ptrs: PointerTile<*mut i32, { [NUM_EXPERTS_POW2] }> = b.offset_tile(scaled);
        let _t: Token = unsafe {
            store_ptr_tko(ptrs, cumsum, ordering::Weak, None::<scope::TileBlock>, Some(inside), Some(after_read), Latency::<0>)
        };
    }
}
