//! Port of tilegym.ops.cutile.moe_align_block:_moe_align_block_size_stage3_kernel: a single
//! block walks the experts in order. For expert i it gathers the total count (row
//! NUM_PROGRAMS of tokens_cnts, padding 0), keeps the running maximum, pads the count up to
//! a multiple of BLOCK_SIZE (Python's floor division), adds it to the running sum and
//! scatters the sum to cumsum[i]; those stores are chained through the loop. Then the sum and
//! the maximum are scattered to their one-element outputs (from the entry token, as cuTile
//! Python orders them). Hand-finished from the drafter's per-case draft (draft/): one
//! generic entry over raw arrays.
#[cutile::module]
pub mod moe_stage3_port {
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

    /// An extent as one u64 lane: cuTile Python widens gather indices and extents to 64
    /// bits and compares them unsigned.
    fn lane(v: i32) -> Tile<u64, { [1] }> {
        let s: Tile<i32, { [] }> = scalar_to_tile(v);
        let w: Tile<u64, { [] }> = exti(s);
        w.reshape(const_shape![1])
    }

    #[cutile::entry(unchecked_accesses = true)]
    pub unsafe fn moe_stage3<const NUM_EXPERTS: i32, const BLOCK_SIZE: i32, const NUM_PROGRAMS: i32>(
        total_tokens_post_pad: *mut i32, total_tokens_post_pad_shape0: i32, total_tokens_post_pad_stride0: i32,
        max_expert_cnt: *mut i32, max_expert_cnt_shape0: i32, max_expert_cnt_stride0: i32,
        tokens_cnts: *mut i32, tokens_cnts_shape0: i32, tokens_cnts_stride0: i32,
        cumsum: *mut i32, cumsum_shape0: i32, cumsum_stride0: i32,
    ) {
        let unit: Tile<u64, { [1] }> = constant(1u64, const_shape![1]);
        let zeros: Tile<i32, { [1] }> = constant(0i32, const_shape![1]);
        let total_tokens_post_pad_shape0 = unsafe { assume_bounds_lower::<_, 0>(total_tokens_post_pad_shape0) };
        let max_expert_cnt_shape0 = unsafe { assume_bounds_lower::<_, 0>(max_expert_cnt_shape0) };
        let tokens_cnts_shape0 = unsafe { assume_bounds_lower::<_, 0>(tokens_cnts_shape0) };
        let cumsum_shape0 = unsafe { assume_bounds_lower::<_, 0>(cumsum_shape0) };
        let _ = (total_tokens_post_pad_stride0, max_expert_cnt_stride0, tokens_cnts_stride0, cumsum_stride0);
        let entry: Token = new_token_unordered();

        let off_cnt: i32 = NUM_PROGRAMS * NUM_EXPERTS;
        let first_lane: Tile<i32, { [1] }> = iota(const_shape![1]);
        let block: Tile<i32, { [1] }> = broadcast_scalar(BLOCK_SIZE, const_shape![1]);
        let one: Tile<i32, { [1] }> = constant(1i32, const_shape![1]);
        let block_less_one: Tile<i32, { [1] }> = block - one;
        let mut last_cumsum: Tile<i32, { [1] }> = zeros;
        let mut max_cnt: Tile<i32, { [1] }> = zeros;
        let mut stored: Token = entry;
        for i in 1i32..(NUM_EXPERTS + 1i32) {
            // the running sum is a sum of multiples of BLOCK_SIZE from 0, as cuTile Python
            // derives and states it (the diff proves it from this loop: no caller's promise)
            let running: Tile<i32, { [1] }> = unsafe { assume_div_by::<_, BLOCK_SIZE>(last_cumsum) };
            let at: i32 = off_cnt + i - 1i32;
            let at: Tile<i32, { [] }> = scalar_to_tile(at);
            let cnt_offset: Tile<i32, { [1] }> = first_lane + at.reshape(const_shape![1]);
            let wide: Tile<u64, { [1] }> = exti(cnt_offset);
            let inside: Tile<bool, { [1] }> = cmpi(wide, lane(tokens_cnts_shape0), predicate::LessThan);
            let p: PointerTile<*mut i32, { [] }> = pointer_to_tile(tokens_cnts);
            let p: PointerTile<*mut i32, { [1] }> = p.reshape(const_shape![1]);
            let p: PointerTile<*mut i32, { [1] }> = p.offset_tile(unit * wide);
            // an i32 element's address: 4-byte aligned (the base is checked 16), as cuTile states it
            let p: PointerTile<*mut i32, { [1] }> = unsafe { assume_div_by::<_, 4>(p) };
            let (token_cnt, _): (Tile<i32, { [1] }>, Token) = unsafe {
                load_ptr_padded(p, ordering::Weak, None::<scope::TileBlock>, Some(inside), Some(zeros), Some(entry), Latency::<0>)
            };
            max_cnt = maxi(max_cnt, token_cnt);
            let div_result: Tile<i32, { [1] }> = token_cnt + block_less_one;
            let ceiled_div: Tile<i32, { [1] }> = divi(div_result, block, rounding::NegativeInf);
            last_cumsum = unsafe { assume_div_by::<_, BLOCK_SIZE>(running + ceiled_div * block) };
            let at: Tile<i32, { [] }> = scalar_to_tile(i);
            let wide: Tile<u64, { [1] }> = exti(at.reshape(const_shape![1]));
            let inside: Tile<bool, { [1] }> = cmpi(wide, lane(cumsum_shape0), predicate::LessThan);
            let p: PointerTile<*mut i32, { [] }> = pointer_to_tile(cumsum);
            let p: PointerTile<*mut i32, { [1] }> = p.reshape(const_shape![1]);
            let p: PointerTile<*mut i32, { [1] }> = p.offset_tile(unit * wide);
            // an i32 element's address: 4-byte aligned (the base is checked 16), as cuTile states it
            let p: PointerTile<*mut i32, { [1] }> = unsafe { assume_div_by::<_, 4>(p) };
            stored = unsafe {
                store_ptr_tko(p, last_cumsum, ordering::Weak, None::<scope::TileBlock>, Some(inside), Some(stored), Latency::<0>)
            };
        }
        let last_cumsum: Tile<i32, { [1] }> = unsafe { assume_div_by::<_, BLOCK_SIZE>(last_cumsum) };
        let zero_offset: Tile<u64, { [1] }> = constant(0u64, const_shape![1]);
        let inside: Tile<bool, { [1] }> = cmpi(zero_offset, lane(total_tokens_post_pad_shape0), predicate::LessThan);
        let p: PointerTile<*mut i32, { [] }> = pointer_to_tile(total_tokens_post_pad);
        let p: PointerTile<*mut i32, { [1] }> = p.reshape(const_shape![1]);
        let p: PointerTile<*mut i32, { [1] }> = p.offset_tile(unit * zero_offset);
        // element 0's address is the base, which port.toml promises 16-byte aligned
        let p: PointerTile<*mut i32, { [1] }> = unsafe { assume_div_by::<_, 16>(p) };
        let _t: Token = unsafe {
            store_ptr_tko(p, last_cumsum, ordering::Weak, None::<scope::TileBlock>, Some(inside), Some(entry), Latency::<0>)
        };
        let inside: Tile<bool, { [1] }> = cmpi(zero_offset, lane(max_expert_cnt_shape0), predicate::LessThan);
        let p: PointerTile<*mut i32, { [] }> = pointer_to_tile(max_expert_cnt);
        let p: PointerTile<*mut i32, { [1] }> = p.reshape(const_shape![1]);
        let p: PointerTile<*mut i32, { [1] }> = p.offset_tile(unit * zero_offset);
        // element 0's address is the base, which port.toml promises 16-byte aligned
        let p: PointerTile<*mut i32, { [1] }> = unsafe { assume_div_by::<_, 16>(p) };
        let _t: Token = unsafe {
            store_ptr_tko(p, max_cnt, ordering::Weak, None::<scope::TileBlock>, Some(inside), Some(entry), Latency::<0>)
        };
    }
}
