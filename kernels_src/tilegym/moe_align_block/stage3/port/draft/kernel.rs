//! Drafted by workbench/port/rules from /work/wt/tilegym2/.venv/lib/python3.11/site-packages/tilegym/ops/cutile/moe_align_block.py (_moe_align_block_size_stage3_kernel); review before use.
#![allow(unused_unsafe, unused_variables, unused_mut)]
#[cutile::module]
pub mod _moe_align_block_size_stage3_kernel_port {
    use cutile::core::*;

    // cutile's load_ptr_tko takes the padding as a scalar and broadcasts it at the
    // load; cuTile Python broadcasts it first (and hoists that out of loops). The
    // same Tile IR op, declared with a padding tile of the result's shape:
    #[cuda_tile::op(name = "cuda_tile.load_ptr_tko", since = "V13_2", params = ["source"])]
    unsafe fn load_ptr_padded_1<T: ElementType, P: PointerTo<T>, const S: [i32; 1], O: ordering::LoadMode, Sc: scope::Mode, const CYCLES: i32>(
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

    // NOTE ct.scatter writes through the array's base pointer (store_ptr_tko): the parameter stays `&Tensor`, as cutile asks nothing more of a raw store
    // The specialization BLOCK_SIZE=128: its constant branches folded away.
    #[cutile::entry()]
    pub fn _moe_align_block_size_stage3_kernel_block_size_128<const NUM_EXPERTS: i32, const BLOCK_SIZE: i32, const NUM_PROGRAMS: i32>(
        total_tokens_post_pad: &Tensor<i32, { [-1] }>,
        max_expert_cnt: &Tensor<i32, { [-1] }>,
        tokens_cnts: &Tensor<i32, { [-1] }>,
        cumsum: &Tensor<i32, { [-1] }>,
    ) {
        let mut cumsum_token: Token = cumsum.token();  // threaded through its scatters
        let mut total_tokens_post_pad_token: Token = total_tokens_post_pad.token();  // threaded through its scatters
        let mut max_expert_cnt_token: Token = max_expert_cnt.token();  // threaded through its scatters
        let tokens_cnts_stride0: Tile<u64, { [1] }> = constant(1u64, shape![1]);
        let c0i32: Tile<i32, { [] }> = constant(0i32, shape![]);
        let cumsum_stride0: Tile<u64, { [1] }> = constant(1u64, shape![1]);
        let total_tokens_post_pad_stride0: Tile<u64, { [1] }> = constant(1u64, shape![1]);
        let max_expert_cnt_stride0: Tile<u64, { [1] }> = constant(1u64, shape![1]);
        let mut last_cumsum: Tile<i32, { [1] }> = constant(0i32, shape![1]);
        let mut max_cnt: Tile<i32, { [1] }> = constant(0i32, shape![1]);
        let iota_2: Tile<i32, { [1] }> = iota(shape![1]);
        let tokens_cnts_dim0: i32 = get_shape_dim(tokens_cnts.shape(), 0i32);
        let tokens_cnts_dim0_t: Tile<i32, { [] }> = scalar_to_tile(tokens_cnts_dim0);
        let tokens_cnts_dim0_t_u64: Tile<u64, { [] }> = exti(tokens_cnts_dim0_t);
        let tokens_cnts_dim0_t_u64_r: Tile<u64, { [1] }> = tokens_cnts_dim0_t_u64.reshape(shape![1]);
        let tokens_cnts_base: PointerTile<*mut i32, { [] }> = get_tensor_base(tokens_cnts);
        let c0i32_r: Tile<i32, { [1] }> = c0i32.reshape(shape![1]);
        let block_size_tile: Tile<i32, { [1] }> = constant(128i32, shape![1]);
        let full: Tile<i32, { [1] }> = constant(1i32, shape![1]);
        let diff: Tile<i32, { [1] }> = block_size_tile - full;
        let cumsum_dim0: i32 = get_shape_dim(cumsum.shape(), 0i32);
        let cumsum_dim0_t: Tile<i32, { [] }> = scalar_to_tile(cumsum_dim0);
        let cumsum_dim0_t_u64: Tile<u64, { [] }> = exti(cumsum_dim0_t);
        let cumsum_dim0_t_u64_r: Tile<u64, { [1] }> = cumsum_dim0_t_u64.reshape(shape![1]);
        let cumsum_base: PointerTile<*mut i32, { [] }> = get_tensor_base(cumsum);
        for i in 1i32..(NUM_EXPERTS + 1i32) {
            let s: i32 = (NUM_PROGRAMS * NUM_EXPERTS) + i;
            let s_2: i32 = s - 1i32;
            let s_2_t: Tile<i32, { [] }> = scalar_to_tile(s_2);
            let s_2_t_r: Tile<i32, { [1] }> = s_2_t.reshape(shape![1]);
            let cnt_offset: Tile<i32, { [1] }> = s_2_t_r + iota_2;
            let cnt_offset_u64: Tile<u64, { [1] }> = exti(cnt_offset);
            let in0: Tile<bool, { [1] }> = lt_tile(cnt_offset_u64, tokens_cnts_dim0_t_u64_r);
            let off0: Tile<u64, { [1] }> = cnt_offset_u64 * tokens_cnts_stride0;
            let tokens_cnts_ptrs: PointerTile<*mut i32, { [1] }> = addptr_tile(tokens_cnts_base, off0);
            let tokens_cnts_token: Token = tokens_cnts.token();
            let (token_cnt, _): (Tile<i32, { [1] }>, Token) = unsafe {
                load_ptr_padded_1(tokens_cnts_ptrs, ordering::Weak, None::<scope::TileBlock>, Some(in0), Some(c0i32_r), Some(tokens_cnts_token), Latency::<0>)
            };
            let max_cnt_next: Tile<i32, { [1] }> = maxi(max_cnt, token_cnt);
            max_cnt = max_cnt_next;
            let div_result: Tile<i32, { [1] }> = token_cnt + diff;
            let ceiled_div: Tile<i32, { [1] }> = divi(div_result, block_size_tile, rounding::NegativeInf);
            let padded_cnt: Tile<i32, { [1] }> = ceiled_div * block_size_tile;
            let last_cumsum_next: Tile<i32, { [1] }> = last_cumsum + padded_cnt;
            last_cumsum = last_cumsum_next;
            let i_t: Tile<i32, { [] }> = scalar_to_tile(i);
            let i_t_r: Tile<i32, { [1] }> = i_t.reshape(shape![1]);
            let i_t_r_u64: Tile<u64, { [1] }> = exti(i_t_r);
            let in0_2: Tile<bool, { [1] }> = lt_tile(i_t_r_u64, cumsum_dim0_t_u64_r);
            let off0_2: Tile<u64, { [1] }> = i_t_r_u64 * cumsum_stride0;
            let cumsum_ptrs: PointerTile<*mut i32, { [1] }> = addptr_tile(cumsum_base, off0_2);
            cumsum_token = unsafe {
                store_ptr_tko(cumsum_ptrs, last_cumsum, ordering::Weak, None::<scope::TileBlock>, Some(in0_2), Some(cumsum_token), Latency::<0>)
            };
        }
        let zero_offset: Tile<i32, { [1] }> = constant(0i32, shape![1]);
        let zero_offset_u64: Tile<u64, { [1] }> = exti(zero_offset);
        let total_tokens_post_pad_dim0: i32 = get_shape_dim(total_tokens_post_pad.shape(), 0i32);
        let total_tokens_post_pad_dim0_t: Tile<i32, { [] }> = scalar_to_tile(total_tokens_post_pad_dim0);
        let total_tokens_post_pad_dim0_t_u64: Tile<u64, { [] }> = exti(total_tokens_post_pad_dim0_t);
        let total_tokens_post_pad_dim0_t_u64_r: Tile<u64, { [1] }> = total_tokens_post_pad_dim0_t_u64.reshape(shape![1]);
        let in0_3: Tile<bool, { [1] }> = lt_tile(zero_offset_u64, total_tokens_post_pad_dim0_t_u64_r);
        let off0_3: Tile<u64, { [1] }> = zero_offset_u64 * total_tokens_post_pad_stride0;
        let total_tokens_post_pad_base: PointerTile<*mut i32, { [] }> = get_tensor_base(total_tokens_post_pad);
        let total_tokens_post_pad_ptrs: PointerTile<*mut i32, { [1] }> = addptr_tile(total_tokens_post_pad_base, off0_3);
        total_tokens_post_pad_token = unsafe {
            store_ptr_tko(total_tokens_post_pad_ptrs, last_cumsum, ordering::Weak, None::<scope::TileBlock>, Some(in0_3), Some(total_tokens_post_pad_token), Latency::<0>)
        };
        let zero_offset_u64_2: Tile<u64, { [1] }> = exti(zero_offset);
        let max_expert_cnt_dim0: i32 = get_shape_dim(max_expert_cnt.shape(), 0i32);
        let max_expert_cnt_dim0_t: Tile<i32, { [] }> = scalar_to_tile(max_expert_cnt_dim0);
        let max_expert_cnt_dim0_t_u64: Tile<u64, { [] }> = exti(max_expert_cnt_dim0_t);
        let max_expert_cnt_dim0_t_u64_r: Tile<u64, { [1] }> = max_expert_cnt_dim0_t_u64.reshape(shape![1]);
        let in0_4: Tile<bool, { [1] }> = lt_tile(zero_offset_u64_2, max_expert_cnt_dim0_t_u64_r);
        let off0_4: Tile<u64, { [1] }> = zero_offset_u64_2 * max_expert_cnt_stride0;
        let max_expert_cnt_base: PointerTile<*mut i32, { [] }> = get_tensor_base(max_expert_cnt);
        let max_expert_cnt_ptrs: PointerTile<*mut i32, { [1] }> = addptr_tile(max_expert_cnt_base, off0_4);
        max_expert_cnt_token = unsafe {
            store_ptr_tko(max_expert_cnt_ptrs, max_cnt, ordering::Weak, None::<scope::TileBlock>, Some(in0_4), Some(max_expert_cnt_token), Latency::<0>)
        };
    }
}
