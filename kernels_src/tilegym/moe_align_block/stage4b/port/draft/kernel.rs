//! Drafted by workbench/port/rules from /work/wt/tilegym2/.venv/lib/python3.11/site-packages/tilegym/ops/cutile/moe_align_block.py (_moe_align_block_size_stage4b_scatter_kernel); review before use.
#![allow(unused_unsafe, unused_variables, unused_mut)]
#[cutile::module]
pub mod _moe_align_block_size_stage4b_scatter_kernel_port {
    use cutile::core::*;

    // cutile's load_ptr_tko takes the padding as a scalar and broadcasts it at the
    // load; cuTile Python broadcasts it first (and hoists that out of loops). The
    // same Tile IR op, declared with a padding tile of the result's shape:
    #[cuda_tile::op(name = "cuda_tile.load_ptr_tko", since = "V13_2", params = ["source"])]
    unsafe fn load_ptr_padded_0<T: ElementType, P: PointerTo<T>, const S: [i32; 0], O: ordering::LoadMode, Sc: scope::Mode, const CYCLES: i32>(
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
    // The specialization NUM_EXPERTS=16,BLOCK_SIZE=128,NUMEL=128,TOKENS_PER_THREAD=8,SUB_CHUNK=8: its constant branches folded away.
    #[cutile::entry()]
    pub fn _moe_align_block_size_stage4b_scatter_kernel_num_experts_16_block_size_128_numel_128_tokens_per_thread_8_sub_chunk_8<const NUM_EXPERTS: i32, const BLOCK_SIZE: i32, const NUMEL: i32, const TOKENS_PER_THREAD: i32, const SUB_CHUNK: i32, const NUM_EXPERTS_POW2: i32>(
        topk_ids: &Tensor<i64, { [-1] }>,
        sorted_token_ids: &Tensor<i32, { [-1] }>,
        expert_ids: &Tensor<i32, { [-1] }>,
        tokens_cnts: &Tensor<i32, { [-1] }>,
        cumsum: &Tensor<i32, { [-1] }>,
    ) {
        let mut expert_ids_token: Token = expert_ids.token();  // threaded through its scatters
        let mut sorted_token_ids_token: Token = sorted_token_ids.token();  // threaded through its scatters
        let cumsum_stride0: Tile<u64, { [] }> = constant(1u64, shape![]);
        let c0i32: Tile<i32, { [] }> = constant(0i32, shape![]);
        let cumsum_stride0_2: Tile<u64, { [] }> = constant(1u64, shape![]);
        let c0i32_2: Tile<i32, { [] }> = constant(0i32, shape![]);
        let c128i32: Tile<i32, { [] }> = constant(128i32, shape![]);
        let c128i32_2: Tile<i32, { [] }> = constant(128i32, shape![]);
        let c1i32: Tile<i32, { [] }> = constant(1i32, shape![]);
        let c128i32_3: Tile<i32, { [] }> = constant(128i32, shape![]);
        let c0i32_3: Tile<i32, { [] }> = constant(0i32, shape![]);
        let expert_ids_stride0: Tile<u64, { [] }> = constant(1u64, shape![]);
        let c16i32: Tile<i32, { [NUM_EXPERTS_POW2] }> = constant(16i32, shape![NUM_EXPERTS_POW2]);
        let tokens_cnts_stride0: Tile<u64, { [NUM_EXPERTS_POW2] }> = constant(1u64, shape![NUM_EXPERTS_POW2]);
        let c0i32_4: Tile<i32, { [] }> = constant(0i32, shape![]);
        let cumsum_stride0_3: Tile<u64, { [NUM_EXPERTS_POW2] }> = constant(1u64, shape![NUM_EXPERTS_POW2]);
        let c0i32_5: Tile<i32, { [] }> = constant(0i32, shape![]);
        let c128i32_4: Tile<i32, { [8] }> = constant(128i32, shape![8]);
        let c8i32: Tile<i32, { [8] }> = constant(8i32, shape![8]);
        let topk_ids_stride0: Tile<u64, { [8] }> = constant(1u64, shape![8]);
        let c16i64: Tile<i64, { [] }> = constant(16i64, shape![]);
        let sorted_token_ids_stride0: Tile<u64, { [8] }> = constant(1u64, shape![8]);
        let bid: i32 = get_tile_block_id().0;
        let off_t: i32 = bid * NUM_EXPERTS;
        let bid_t: Tile<i32, { [] }> = scalar_to_tile(bid);
        let bid_t_u64: Tile<u64, { [] }> = exti(bid_t);
        let cumsum_dim0: i32 = get_shape_dim(cumsum.shape(), 0i32);
        let cumsum_dim0_t: Tile<i32, { [] }> = scalar_to_tile(cumsum_dim0);
        let cumsum_dim0_t_u64: Tile<u64, { [] }> = exti(cumsum_dim0_t);
        let in0: Tile<bool, { [] }> = lt_tile(bid_t_u64, cumsum_dim0_t_u64);
        let off0: Tile<u64, { [] }> = bid_t_u64 * cumsum_stride0;
        let cumsum_base: PointerTile<*mut i32, { [] }> = get_tensor_base(cumsum);
        let cumsum_ptrs: PointerTile<*mut i32, { [] }> = addptr_tile(cumsum_base, off0);
        let cumsum_token: Token = cumsum.token();
        let (start_idx_cumsum, _): (Tile<i32, { [] }>, Token) = unsafe {
            load_ptr_padded_0(cumsum_ptrs, ordering::Weak, None::<scope::TileBlock>, Some(in0), Some(c0i32), Some(cumsum_token), Latency::<0>)
        };
        let s: i32 = bid + 1i32;
        let s_t: Tile<i32, { [] }> = scalar_to_tile(s);
        let s_t_u64: Tile<u64, { [] }> = exti(s_t);
        let cumsum_dim0_2: i32 = get_shape_dim(cumsum.shape(), 0i32);
        let cumsum_dim0_2_t: Tile<i32, { [] }> = scalar_to_tile(cumsum_dim0_2);
        let cumsum_dim0_2_t_u64: Tile<u64, { [] }> = exti(cumsum_dim0_2_t);
        let in0_2: Tile<bool, { [] }> = lt_tile(s_t_u64, cumsum_dim0_2_t_u64);
        let off0_2: Tile<u64, { [] }> = s_t_u64 * cumsum_stride0_2;
        let cumsum_base_2: PointerTile<*mut i32, { [] }> = get_tensor_base(cumsum);
        let cumsum_ptrs_2: PointerTile<*mut i32, { [] }> = addptr_tile(cumsum_base_2, off0_2);
        let (end_idx_cumsum, _): (Tile<i32, { [] }>, Token) = unsafe {
            load_ptr_padded_0(cumsum_ptrs_2, ordering::Weak, None::<scope::TileBlock>, Some(in0_2), Some(c0i32_2), Some(cumsum_token), Latency::<0>)
        };
        let start_block: Tile<i32, { [] }> = divi(start_idx_cumsum, c128i32, rounding::NegativeInf);
        let sum: Tile<i32, { [] }> = end_idx_cumsum + c128i32_2;
        let diff: Tile<i32, { [] }> = sum - c1i32;
        let end_block: Tile<i32, { [] }> = divi(diff, c128i32_3, rounding::NegativeInf);
        let diff_2: Tile<i32, { [] }> = end_block - start_block;
        let num_blocks: Tile<i32, { [] }> = maxi(c0i32_3, diff_2);
        let num_blocks_s: i32 = tile_to_scalar(num_blocks);
        let expert_ids_dim0: i32 = get_shape_dim(expert_ids.shape(), 0i32);
        let expert_ids_dim0_t: Tile<i32, { [] }> = scalar_to_tile(expert_ids_dim0);
        let expert_ids_dim0_t_u64: Tile<u64, { [] }> = exti(expert_ids_dim0_t);
        let expert_ids_base: PointerTile<*mut i32, { [] }> = get_tensor_base(expert_ids);
        let bid_t_2: Tile<i32, { [] }> = scalar_to_tile(bid);
        for i in 0i32..num_blocks_s {
            let i_t: Tile<i32, { [] }> = scalar_to_tile(i);
            let block_idx: Tile<i32, { [] }> = start_block + i_t;
            let block_idx_u64: Tile<u64, { [] }> = exti(block_idx);
            let in0_3: Tile<bool, { [] }> = lt_tile(block_idx_u64, expert_ids_dim0_t_u64);
            let off0_3: Tile<u64, { [] }> = block_idx_u64 * expert_ids_stride0;
            let expert_ids_ptrs: PointerTile<*mut i32, { [] }> = addptr_tile(expert_ids_base, off0_3);
            expert_ids_token = unsafe {
                store_ptr_tko(expert_ids_ptrs, bid_t_2, ordering::Weak, None::<scope::TileBlock>, Some(in0_3), Some(expert_ids_token), Latency::<0>)
            };
        }
        let expert_idx: Tile<i32, { [NUM_EXPERTS_POW2] }> = iota(shape![NUM_EXPERTS_POW2]);
        let expert_mask: Tile<bool, { [NUM_EXPERTS_POW2] }> = lt_tile(expert_idx, c16i32);
        let off_t_t: Tile<i32, { [] }> = scalar_to_tile(off_t);
        let off_t_t_r: Tile<i32, { [1] }> = off_t_t.reshape(shape![1]);
        let off_t_t_b: Tile<i32, { [NUM_EXPERTS_POW2] }> = off_t_t_r.broadcast(shape![NUM_EXPERTS_POW2]);
        let sum_2: Tile<i32, { [NUM_EXPERTS_POW2] }> = off_t_t_b + expert_idx;
        let sum_2_u64: Tile<u64, { [NUM_EXPERTS_POW2] }> = exti(sum_2);
        let tokens_cnts_dim0: i32 = get_shape_dim(tokens_cnts.shape(), 0i32);
        let tokens_cnts_dim0_t: Tile<i32, { [] }> = scalar_to_tile(tokens_cnts_dim0);
        let tokens_cnts_dim0_t_u64: Tile<u64, { [] }> = exti(tokens_cnts_dim0_t);
        let tokens_cnts_dim0_t_u64_r: Tile<u64, { [1] }> = tokens_cnts_dim0_t_u64.reshape(shape![1]);
        let tokens_cnts_dim0_t_u64_b: Tile<u64, { [NUM_EXPERTS_POW2] }> = tokens_cnts_dim0_t_u64_r.broadcast(shape![NUM_EXPERTS_POW2]);
        let in0_4: Tile<bool, { [NUM_EXPERTS_POW2] }> = lt_tile(sum_2_u64, tokens_cnts_dim0_t_u64_b);
        let off0_4: Tile<u64, { [NUM_EXPERTS_POW2] }> = sum_2_u64 * tokens_cnts_stride0;
        let tokens_cnts_base: PointerTile<*mut i32, { [] }> = get_tensor_base(tokens_cnts);
        let tokens_cnts_base_r: PointerTile<*mut i32, { [1] }> = tokens_cnts_base.reshape(shape![1]);
        let tokens_cnts_base_b: PointerTile<*mut i32, { [NUM_EXPERTS_POW2] }> = tokens_cnts_base_r.broadcast(shape![NUM_EXPERTS_POW2]);
        let tokens_cnts_ptrs: PointerTile<*mut i32, { [NUM_EXPERTS_POW2] }> = addptr_tile(tokens_cnts_base_b, off0_4);
        let mask: Tile<bool, { [NUM_EXPERTS_POW2] }> = andi(in0_4, expert_mask);
        let c0i32_4_r: Tile<i32, { [1] }> = c0i32_4.reshape(shape![1]);
        let c0i32_4_b: Tile<i32, { [NUM_EXPERTS_POW2] }> = c0i32_4_r.broadcast(shape![NUM_EXPERTS_POW2]);
        let tokens_cnts_token: Token = tokens_cnts.token();
        let (pre_cnt, _): (Tile<i32, { [NUM_EXPERTS_POW2] }>, Token) = unsafe {
            load_ptr_padded_1(tokens_cnts_ptrs, ordering::Weak, None::<scope::TileBlock>, Some(mask), Some(c0i32_4_b), Some(tokens_cnts_token), Latency::<0>)
        };
        let expert_idx_u64: Tile<u64, { [NUM_EXPERTS_POW2] }> = exti(expert_idx);
        let cumsum_dim0_3: i32 = get_shape_dim(cumsum.shape(), 0i32);
        let cumsum_dim0_3_t: Tile<i32, { [] }> = scalar_to_tile(cumsum_dim0_3);
        let cumsum_dim0_3_t_u64: Tile<u64, { [] }> = exti(cumsum_dim0_3_t);
        let cumsum_dim0_3_t_u64_r: Tile<u64, { [1] }> = cumsum_dim0_3_t_u64.reshape(shape![1]);
        let cumsum_dim0_3_t_u64_b: Tile<u64, { [NUM_EXPERTS_POW2] }> = cumsum_dim0_3_t_u64_r.broadcast(shape![NUM_EXPERTS_POW2]);
        let in0_5: Tile<bool, { [NUM_EXPERTS_POW2] }> = lt_tile(expert_idx_u64, cumsum_dim0_3_t_u64_b);
        let off0_5: Tile<u64, { [NUM_EXPERTS_POW2] }> = expert_idx_u64 * cumsum_stride0_3;
        let cumsum_base_3: PointerTile<*mut i32, { [] }> = get_tensor_base(cumsum);
        let cumsum_base_r: PointerTile<*mut i32, { [1] }> = cumsum_base_3.reshape(shape![1]);
        let cumsum_base_b: PointerTile<*mut i32, { [NUM_EXPERTS_POW2] }> = cumsum_base_r.broadcast(shape![NUM_EXPERTS_POW2]);
        let cumsum_ptrs_3: PointerTile<*mut i32, { [NUM_EXPERTS_POW2] }> = addptr_tile(cumsum_base_b, off0_5);
        let mask_2: Tile<bool, { [NUM_EXPERTS_POW2] }> = andi(in0_5, expert_mask);
        let c0i32_5_r: Tile<i32, { [1] }> = c0i32_5.reshape(shape![1]);
        let c0i32_5_b: Tile<i32, { [NUM_EXPERTS_POW2] }> = c0i32_5_r.broadcast(shape![NUM_EXPERTS_POW2]);
        let (cum_off, _): (Tile<i32, { [NUM_EXPERTS_POW2] }>, Token) = unsafe {
            load_ptr_padded_1(cumsum_ptrs_3, ordering::Weak, None::<scope::TileBlock>, Some(mask_2), Some(c0i32_5_b), Some(cumsum_token), Latency::<0>)
        };
        let mut running_off: Tile<i32, { [NUM_EXPERTS_POW2] }> = pre_cnt + cum_off;
        let start_idx_tokens: i32 = bid * TOKENS_PER_THREAD;
        let sub_arange: Tile<i32, { [8] }> = iota(shape![8]);
        let topk_ids_dim0: i32 = get_shape_dim(topk_ids.shape(), 0i32);
        let topk_ids_dim0_t: Tile<i32, { [] }> = scalar_to_tile(topk_ids_dim0);
        let topk_ids_dim0_t_u64: Tile<u64, { [] }> = exti(topk_ids_dim0_t);
        let topk_ids_dim0_t_u64_r: Tile<u64, { [1] }> = topk_ids_dim0_t_u64.reshape(shape![1]);
        let topk_ids_dim0_t_u64_b: Tile<u64, { [8] }> = topk_ids_dim0_t_u64_r.broadcast(shape![8]);
        let topk_ids_base: PointerTile<*mut i64, { [] }> = get_tensor_base(topk_ids);
        let topk_ids_base_r: PointerTile<*mut i64, { [1] }> = topk_ids_base.reshape(shape![1]);
        let topk_ids_base_b: PointerTile<*mut i64, { [8] }> = topk_ids_base_r.broadcast(shape![8]);
        let c16i64_r: Tile<i64, { [1] }> = c16i64.reshape(shape![1]);
        let c16i64_b: Tile<i64, { [8] }> = c16i64_r.broadcast(shape![8]);
        let expert_idx_e: Tile<i32, { [1, NUM_EXPERTS_POW2] }> = expert_idx.reshape(shape![1, NUM_EXPERTS_POW2]);
        let expert_idx_e_i64: Tile<i64, { [1, NUM_EXPERTS_POW2] }> = exti(expert_idx_e);
        let expert_idx_e_i64_b: Tile<i64, { [8, NUM_EXPERTS_POW2] }> = expert_idx_e_i64.broadcast(shape![8, NUM_EXPERTS_POW2]);
        let sorted_token_ids_dim0: i32 = get_shape_dim(sorted_token_ids.shape(), 0i32);
        let sorted_token_ids_dim0_t: Tile<i32, { [] }> = scalar_to_tile(sorted_token_ids_dim0);
        let sorted_token_ids_dim0_t_u64: Tile<u64, { [] }> = exti(sorted_token_ids_dim0_t);
        let sorted_token_ids_dim0_t_u64_r: Tile<u64, { [1] }> = sorted_token_ids_dim0_t_u64.reshape(shape![1]);
        let sorted_token_ids_dim0_t_u64_b: Tile<u64, { [8] }> = sorted_token_ids_dim0_t_u64_r.broadcast(shape![8]);
        let sorted_token_ids_base: PointerTile<*mut i32, { [] }> = get_tensor_base(sorted_token_ids);
        let sorted_token_ids_base_r: PointerTile<*mut i32, { [1] }> = sorted_token_ids_base.reshape(shape![1]);
        let sorted_token_ids_base_b: PointerTile<*mut i32, { [8] }> = sorted_token_ids_base_r.broadcast(shape![8]);
        for sub_start in (0i32..TOKENS_PER_THREAD).step_by(SUB_CHUNK as usize) {
            let s_2: i32 = start_idx_tokens + sub_start;
            let s_2_t: Tile<i32, { [] }> = scalar_to_tile(s_2);
            let s_2_t_r: Tile<i32, { [1] }> = s_2_t.reshape(shape![1]);
            let s_2_t_b: Tile<i32, { [8] }> = s_2_t_r.broadcast(shape![8]);
            let tok_offs: Tile<i32, { [8] }> = s_2_t_b + sub_arange;
            let mask_3: Tile<bool, { [8] }> = lt_tile(tok_offs, c128i32_4);
            let sub_start_t: Tile<i32, { [] }> = scalar_to_tile(sub_start);
            let sub_start_t_r: Tile<i32, { [1] }> = sub_start_t.reshape(shape![1]);
            let sub_start_t_b: Tile<i32, { [8] }> = sub_start_t_r.broadcast(shape![8]);
            let sum_3: Tile<i32, { [8] }> = sub_start_t_b + sub_arange;
            let mask_4: Tile<bool, { [8] }> = lt_tile(sum_3, c8i32);
            let in_range: Tile<bool, { [8] }> = andi(mask_3, mask_4);
            let tok_offs_u64: Tile<u64, { [8] }> = exti(tok_offs);
            let in0_6: Tile<bool, { [8] }> = lt_tile(tok_offs_u64, topk_ids_dim0_t_u64_b);
            let off0_6: Tile<u64, { [8] }> = tok_offs_u64 * topk_ids_stride0;
            let topk_ids_ptrs: PointerTile<*mut i64, { [8] }> = addptr_tile(topk_ids_base_b, off0_6);
            let mask_5: Tile<bool, { [8] }> = andi(in0_6, in_range);
            let topk_ids_token: Token = topk_ids.token();
            let (ids, _): (Tile<i64, { [8] }>, Token) = unsafe {
                load_ptr_padded_1(topk_ids_ptrs, ordering::Weak, None::<scope::TileBlock>, Some(mask_5), Some(c16i64_b), Some(topk_ids_token), Latency::<0>)
            };
            let ids_e: Tile<i64, { [8, 1] }> = ids.reshape(shape![8, 1]);
            let ids_e_b: Tile<i64, { [8, NUM_EXPERTS_POW2] }> = ids_e.broadcast(shape![8, NUM_EXPERTS_POW2]);
            let mask_6: Tile<bool, { [8, NUM_EXPERTS_POW2] }> = eq_tile(ids_e_b, expert_idx_e_i64_b);
            let match_2: Tile<i32, { [8, NUM_EXPERTS_POW2] }> = exti(mask_6);
            let cumsum_2: Tile<i32, { [8, NUM_EXPERTS_POW2] }> = scan_sum(match_2, 0i32, reverse::Forward, 0i32);
            let rank_2d: Tile<i32, { [8, NUM_EXPERTS_POW2] }> = cumsum_2 - match_2;
            let prod: Tile<i32, { [8, NUM_EXPERTS_POW2] }> = rank_2d * match_2;
            let rank_per_token: Tile<i32, { [8] }> = reduce_sum(prod, 1i32);
            let running_off_e: Tile<i32, { [1, NUM_EXPERTS_POW2] }> = running_off.reshape(shape![1, NUM_EXPERTS_POW2]);
            let running_off_e_b: Tile<i32, { [8, NUM_EXPERTS_POW2] }> = running_off_e.broadcast(shape![8, NUM_EXPERTS_POW2]);
            let prod_2: Tile<i32, { [8, NUM_EXPERTS_POW2] }> = running_off_e_b * match_2;
            let base_per_token: Tile<i32, { [8] }> = reduce_sum(prod_2, 1i32);
            let rank_post_pad: Tile<i32, { [8] }> = base_per_token + rank_per_token;
            let rank_post_pad_u64: Tile<u64, { [8] }> = exti(rank_post_pad);
            let in0_7: Tile<bool, { [8] }> = lt_tile(rank_post_pad_u64, sorted_token_ids_dim0_t_u64_b);
            let off0_7: Tile<u64, { [8] }> = rank_post_pad_u64 * sorted_token_ids_stride0;
            let sorted_token_ids_ptrs: PointerTile<*mut i32, { [8] }> = addptr_tile(sorted_token_ids_base_b, off0_7);
            let mask_7: Tile<bool, { [8] }> = andi(in0_7, in_range);
            sorted_token_ids_token = unsafe {
                store_ptr_tko(sorted_token_ids_ptrs, tok_offs, ordering::Weak, None::<scope::TileBlock>, Some(mask_7), Some(sorted_token_ids_token), Latency::<0>)
            };
            let sum_red: Tile<i32, { [NUM_EXPERTS_POW2] }> = reduce_sum(match_2, 0i32);
            let sum_red_t: Tile<i32, { [NUM_EXPERTS_POW2] }> = convert_tile(sum_red);
            let running_off_next: Tile<i32, { [NUM_EXPERTS_POW2] }> = running_off + sum_red_t;
            running_off = running_off_next;
        }
    }

    // NOTE ct.scatter writes through the array's base pointer (store_ptr_tko): the parameter stays `&Tensor`, as cutile asks nothing more of a raw store
    // The specialization NUM_EXPERTS=64,BLOCK_SIZE=128,NUMEL=32768,TOKENS_PER_THREAD=128,SUB_CHUNK=128: its constant branches folded away.
    #[cutile::entry()]
    pub fn _moe_align_block_size_stage4b_scatter_kernel_num_experts_64_block_size_128_numel_32768_tokens_per_thread_128_sub_chunk_128<const NUM_EXPERTS: i32, const BLOCK_SIZE: i32, const NUMEL: i32, const TOKENS_PER_THREAD: i32, const SUB_CHUNK: i32, const NUM_EXPERTS_POW2: i32>(
        topk_ids: &Tensor<i64, { [-1] }>,
        sorted_token_ids: &Tensor<i32, { [-1] }>,
        expert_ids: &Tensor<i32, { [-1] }>,
        tokens_cnts: &Tensor<i32, { [-1] }>,
        cumsum: &Tensor<i32, { [-1] }>,
    ) {
        let mut expert_ids_token: Token = expert_ids.token();  // threaded through its scatters
        let mut sorted_token_ids_token: Token = sorted_token_ids.token();  // threaded through its scatters
        let cumsum_stride0: Tile<u64, { [] }> = constant(1u64, shape![]);
        let c0i32: Tile<i32, { [] }> = constant(0i32, shape![]);
        let cumsum_stride0_2: Tile<u64, { [] }> = constant(1u64, shape![]);
        let c0i32_2: Tile<i32, { [] }> = constant(0i32, shape![]);
        let c128i32: Tile<i32, { [] }> = constant(128i32, shape![]);
        let c128i32_2: Tile<i32, { [] }> = constant(128i32, shape![]);
        let c1i32: Tile<i32, { [] }> = constant(1i32, shape![]);
        let c128i32_3: Tile<i32, { [] }> = constant(128i32, shape![]);
        let c0i32_3: Tile<i32, { [] }> = constant(0i32, shape![]);
        let expert_ids_stride0: Tile<u64, { [] }> = constant(1u64, shape![]);
        let c64i32: Tile<i32, { [NUM_EXPERTS_POW2] }> = constant(64i32, shape![NUM_EXPERTS_POW2]);
        let tokens_cnts_stride0: Tile<u64, { [NUM_EXPERTS_POW2] }> = constant(1u64, shape![NUM_EXPERTS_POW2]);
        let c0i32_4: Tile<i32, { [] }> = constant(0i32, shape![]);
        let cumsum_stride0_3: Tile<u64, { [NUM_EXPERTS_POW2] }> = constant(1u64, shape![NUM_EXPERTS_POW2]);
        let c0i32_5: Tile<i32, { [] }> = constant(0i32, shape![]);
        let c32768i32: Tile<i32, { [128] }> = constant(32768i32, shape![128]);
        let c128i32_4: Tile<i32, { [128] }> = constant(128i32, shape![128]);
        let topk_ids_stride0: Tile<u64, { [128] }> = constant(1u64, shape![128]);
        let c64i64: Tile<i64, { [] }> = constant(64i64, shape![]);
        let sorted_token_ids_stride0: Tile<u64, { [128] }> = constant(1u64, shape![128]);
        let bid: i32 = get_tile_block_id().0;
        let off_t: i32 = bid * NUM_EXPERTS;
        let bid_t: Tile<i32, { [] }> = scalar_to_tile(bid);
        let bid_t_u64: Tile<u64, { [] }> = exti(bid_t);
        let cumsum_dim0: i32 = get_shape_dim(cumsum.shape(), 0i32);
        let cumsum_dim0_t: Tile<i32, { [] }> = scalar_to_tile(cumsum_dim0);
        let cumsum_dim0_t_u64: Tile<u64, { [] }> = exti(cumsum_dim0_t);
        let in0: Tile<bool, { [] }> = lt_tile(bid_t_u64, cumsum_dim0_t_u64);
        let off0: Tile<u64, { [] }> = bid_t_u64 * cumsum_stride0;
        let cumsum_base: PointerTile<*mut i32, { [] }> = get_tensor_base(cumsum);
        let cumsum_ptrs: PointerTile<*mut i32, { [] }> = addptr_tile(cumsum_base, off0);
        let cumsum_token: Token = cumsum.token();
        let (start_idx_cumsum, _): (Tile<i32, { [] }>, Token) = unsafe {
            load_ptr_padded_0(cumsum_ptrs, ordering::Weak, None::<scope::TileBlock>, Some(in0), Some(c0i32), Some(cumsum_token), Latency::<0>)
        };
        let s: i32 = bid + 1i32;
        let s_t: Tile<i32, { [] }> = scalar_to_tile(s);
        let s_t_u64: Tile<u64, { [] }> = exti(s_t);
        let cumsum_dim0_2: i32 = get_shape_dim(cumsum.shape(), 0i32);
        let cumsum_dim0_2_t: Tile<i32, { [] }> = scalar_to_tile(cumsum_dim0_2);
        let cumsum_dim0_2_t_u64: Tile<u64, { [] }> = exti(cumsum_dim0_2_t);
        let in0_2: Tile<bool, { [] }> = lt_tile(s_t_u64, cumsum_dim0_2_t_u64);
        let off0_2: Tile<u64, { [] }> = s_t_u64 * cumsum_stride0_2;
        let cumsum_base_2: PointerTile<*mut i32, { [] }> = get_tensor_base(cumsum);
        let cumsum_ptrs_2: PointerTile<*mut i32, { [] }> = addptr_tile(cumsum_base_2, off0_2);
        let (end_idx_cumsum, _): (Tile<i32, { [] }>, Token) = unsafe {
            load_ptr_padded_0(cumsum_ptrs_2, ordering::Weak, None::<scope::TileBlock>, Some(in0_2), Some(c0i32_2), Some(cumsum_token), Latency::<0>)
        };
        let start_block: Tile<i32, { [] }> = divi(start_idx_cumsum, c128i32, rounding::NegativeInf);
        let sum: Tile<i32, { [] }> = end_idx_cumsum + c128i32_2;
        let diff: Tile<i32, { [] }> = sum - c1i32;
        let end_block: Tile<i32, { [] }> = divi(diff, c128i32_3, rounding::NegativeInf);
        let diff_2: Tile<i32, { [] }> = end_block - start_block;
        let num_blocks: Tile<i32, { [] }> = maxi(c0i32_3, diff_2);
        let num_blocks_s: i32 = tile_to_scalar(num_blocks);
        let expert_ids_dim0: i32 = get_shape_dim(expert_ids.shape(), 0i32);
        let expert_ids_dim0_t: Tile<i32, { [] }> = scalar_to_tile(expert_ids_dim0);
        let expert_ids_dim0_t_u64: Tile<u64, { [] }> = exti(expert_ids_dim0_t);
        let expert_ids_base: PointerTile<*mut i32, { [] }> = get_tensor_base(expert_ids);
        let bid_t_2: Tile<i32, { [] }> = scalar_to_tile(bid);
        for i in 0i32..num_blocks_s {
            let i_t: Tile<i32, { [] }> = scalar_to_tile(i);
            let block_idx: Tile<i32, { [] }> = start_block + i_t;
            let block_idx_u64: Tile<u64, { [] }> = exti(block_idx);
            let in0_3: Tile<bool, { [] }> = lt_tile(block_idx_u64, expert_ids_dim0_t_u64);
            let off0_3: Tile<u64, { [] }> = block_idx_u64 * expert_ids_stride0;
            let expert_ids_ptrs: PointerTile<*mut i32, { [] }> = addptr_tile(expert_ids_base, off0_3);
            expert_ids_token = unsafe {
                store_ptr_tko(expert_ids_ptrs, bid_t_2, ordering::Weak, None::<scope::TileBlock>, Some(in0_3), Some(expert_ids_token), Latency::<0>)
            };
        }
        let expert_idx: Tile<i32, { [NUM_EXPERTS_POW2] }> = iota(shape![NUM_EXPERTS_POW2]);
        let expert_mask: Tile<bool, { [NUM_EXPERTS_POW2] }> = lt_tile(expert_idx, c64i32);
        let off_t_t: Tile<i32, { [] }> = scalar_to_tile(off_t);
        let off_t_t_r: Tile<i32, { [1] }> = off_t_t.reshape(shape![1]);
        let off_t_t_b: Tile<i32, { [NUM_EXPERTS_POW2] }> = off_t_t_r.broadcast(shape![NUM_EXPERTS_POW2]);
        let sum_2: Tile<i32, { [NUM_EXPERTS_POW2] }> = off_t_t_b + expert_idx;
        let sum_2_u64: Tile<u64, { [NUM_EXPERTS_POW2] }> = exti(sum_2);
        let tokens_cnts_dim0: i32 = get_shape_dim(tokens_cnts.shape(), 0i32);
        let tokens_cnts_dim0_t: Tile<i32, { [] }> = scalar_to_tile(tokens_cnts_dim0);
        let tokens_cnts_dim0_t_u64: Tile<u64, { [] }> = exti(tokens_cnts_dim0_t);
        let tokens_cnts_dim0_t_u64_r: Tile<u64, { [1] }> = tokens_cnts_dim0_t_u64.reshape(shape![1]);
        let tokens_cnts_dim0_t_u64_b: Tile<u64, { [NUM_EXPERTS_POW2] }> = tokens_cnts_dim0_t_u64_r.broadcast(shape![NUM_EXPERTS_POW2]);
        let in0_4: Tile<bool, { [NUM_EXPERTS_POW2] }> = lt_tile(sum_2_u64, tokens_cnts_dim0_t_u64_b);
        let off0_4: Tile<u64, { [NUM_EXPERTS_POW2] }> = sum_2_u64 * tokens_cnts_stride0;
        let tokens_cnts_base: PointerTile<*mut i32, { [] }> = get_tensor_base(tokens_cnts);
        let tokens_cnts_base_r: PointerTile<*mut i32, { [1] }> = tokens_cnts_base.reshape(shape![1]);
        let tokens_cnts_base_b: PointerTile<*mut i32, { [NUM_EXPERTS_POW2] }> = tokens_cnts_base_r.broadcast(shape![NUM_EXPERTS_POW2]);
        let tokens_cnts_ptrs: PointerTile<*mut i32, { [NUM_EXPERTS_POW2] }> = addptr_tile(tokens_cnts_base_b, off0_4);
        let mask: Tile<bool, { [NUM_EXPERTS_POW2] }> = andi(in0_4, expert_mask);
        let c0i32_4_r: Tile<i32, { [1] }> = c0i32_4.reshape(shape![1]);
        let c0i32_4_b: Tile<i32, { [NUM_EXPERTS_POW2] }> = c0i32_4_r.broadcast(shape![NUM_EXPERTS_POW2]);
        let tokens_cnts_token: Token = tokens_cnts.token();
        let (pre_cnt, _): (Tile<i32, { [NUM_EXPERTS_POW2] }>, Token) = unsafe {
            load_ptr_padded_1(tokens_cnts_ptrs, ordering::Weak, None::<scope::TileBlock>, Some(mask), Some(c0i32_4_b), Some(tokens_cnts_token), Latency::<0>)
        };
        let expert_idx_u64: Tile<u64, { [NUM_EXPERTS_POW2] }> = exti(expert_idx);
        let cumsum_dim0_3: i32 = get_shape_dim(cumsum.shape(), 0i32);
        let cumsum_dim0_3_t: Tile<i32, { [] }> = scalar_to_tile(cumsum_dim0_3);
        let cumsum_dim0_3_t_u64: Tile<u64, { [] }> = exti(cumsum_dim0_3_t);
        let cumsum_dim0_3_t_u64_r: Tile<u64, { [1] }> = cumsum_dim0_3_t_u64.reshape(shape![1]);
        let cumsum_dim0_3_t_u64_b: Tile<u64, { [NUM_EXPERTS_POW2] }> = cumsum_dim0_3_t_u64_r.broadcast(shape![NUM_EXPERTS_POW2]);
        let in0_5: Tile<bool, { [NUM_EXPERTS_POW2] }> = lt_tile(expert_idx_u64, cumsum_dim0_3_t_u64_b);
        let off0_5: Tile<u64, { [NUM_EXPERTS_POW2] }> = expert_idx_u64 * cumsum_stride0_3;
        let cumsum_base_3: PointerTile<*mut i32, { [] }> = get_tensor_base(cumsum);
        let cumsum_base_r: PointerTile<*mut i32, { [1] }> = cumsum_base_3.reshape(shape![1]);
        let cumsum_base_b: PointerTile<*mut i32, { [NUM_EXPERTS_POW2] }> = cumsum_base_r.broadcast(shape![NUM_EXPERTS_POW2]);
        let cumsum_ptrs_3: PointerTile<*mut i32, { [NUM_EXPERTS_POW2] }> = addptr_tile(cumsum_base_b, off0_5);
        let mask_2: Tile<bool, { [NUM_EXPERTS_POW2] }> = andi(in0_5, expert_mask);
        let c0i32_5_r: Tile<i32, { [1] }> = c0i32_5.reshape(shape![1]);
        let c0i32_5_b: Tile<i32, { [NUM_EXPERTS_POW2] }> = c0i32_5_r.broadcast(shape![NUM_EXPERTS_POW2]);
        let (cum_off, _): (Tile<i32, { [NUM_EXPERTS_POW2] }>, Token) = unsafe {
            load_ptr_padded_1(cumsum_ptrs_3, ordering::Weak, None::<scope::TileBlock>, Some(mask_2), Some(c0i32_5_b), Some(cumsum_token), Latency::<0>)
        };
        let mut running_off: Tile<i32, { [NUM_EXPERTS_POW2] }> = pre_cnt + cum_off;
        let start_idx_tokens: i32 = bid * TOKENS_PER_THREAD;
        let sub_arange: Tile<i32, { [128] }> = iota(shape![128]);
        let topk_ids_dim0: i32 = get_shape_dim(topk_ids.shape(), 0i32);
        let topk_ids_dim0_t: Tile<i32, { [] }> = scalar_to_tile(topk_ids_dim0);
        let topk_ids_dim0_t_u64: Tile<u64, { [] }> = exti(topk_ids_dim0_t);
        let topk_ids_dim0_t_u64_r: Tile<u64, { [1] }> = topk_ids_dim0_t_u64.reshape(shape![1]);
        let topk_ids_dim0_t_u64_b: Tile<u64, { [128] }> = topk_ids_dim0_t_u64_r.broadcast(shape![128]);
        let topk_ids_base: PointerTile<*mut i64, { [] }> = get_tensor_base(topk_ids);
        let topk_ids_base_r: PointerTile<*mut i64, { [1] }> = topk_ids_base.reshape(shape![1]);
        let topk_ids_base_b: PointerTile<*mut i64, { [128] }> = topk_ids_base_r.broadcast(shape![128]);
        let c64i64_r: Tile<i64, { [1] }> = c64i64.reshape(shape![1]);
        let c64i64_b: Tile<i64, { [128] }> = c64i64_r.broadcast(shape![128]);
        let expert_idx_e: Tile<i32, { [1, NUM_EXPERTS_POW2] }> = expert_idx.reshape(shape![1, NUM_EXPERTS_POW2]);
        let expert_idx_e_i64: Tile<i64, { [1, NUM_EXPERTS_POW2] }> = exti(expert_idx_e);
        let expert_idx_e_i64_b: Tile<i64, { [128, NUM_EXPERTS_POW2] }> = expert_idx_e_i64.broadcast(shape![128, NUM_EXPERTS_POW2]);
        let sorted_token_ids_dim0: i32 = get_shape_dim(sorted_token_ids.shape(), 0i32);
        let sorted_token_ids_dim0_t: Tile<i32, { [] }> = scalar_to_tile(sorted_token_ids_dim0);
        let sorted_token_ids_dim0_t_u64: Tile<u64, { [] }> = exti(sorted_token_ids_dim0_t);
        let sorted_token_ids_dim0_t_u64_r: Tile<u64, { [1] }> = sorted_token_ids_dim0_t_u64.reshape(shape![1]);
        let sorted_token_ids_dim0_t_u64_b: Tile<u64, { [128] }> = sorted_token_ids_dim0_t_u64_r.broadcast(shape![128]);
        let sorted_token_ids_base: PointerTile<*mut i32, { [] }> = get_tensor_base(sorted_token_ids);
        let sorted_token_ids_base_r: PointerTile<*mut i32, { [1] }> = sorted_token_ids_base.reshape(shape![1]);
        let sorted_token_ids_base_b: PointerTile<*mut i32, { [128] }> = sorted_token_ids_base_r.broadcast(shape![128]);
        for sub_start in (0i32..TOKENS_PER_THREAD).step_by(SUB_CHUNK as usize) {
            let s_2: i32 = start_idx_tokens + sub_start;
            let s_2_t: Tile<i32, { [] }> = scalar_to_tile(s_2);
            let s_2_t_r: Tile<i32, { [1] }> = s_2_t.reshape(shape![1]);
            let s_2_t_b: Tile<i32, { [128] }> = s_2_t_r.broadcast(shape![128]);
            let tok_offs: Tile<i32, { [128] }> = s_2_t_b + sub_arange;
            let mask_3: Tile<bool, { [128] }> = lt_tile(tok_offs, c32768i32);
            let sub_start_t: Tile<i32, { [] }> = scalar_to_tile(sub_start);
            let sub_start_t_r: Tile<i32, { [1] }> = sub_start_t.reshape(shape![1]);
            let sub_start_t_b: Tile<i32, { [128] }> = sub_start_t_r.broadcast(shape![128]);
            let sum_3: Tile<i32, { [128] }> = sub_start_t_b + sub_arange;
            let mask_4: Tile<bool, { [128] }> = lt_tile(sum_3, c128i32_4);
            let in_range: Tile<bool, { [128] }> = andi(mask_3, mask_4);
            let tok_offs_u64: Tile<u64, { [128] }> = exti(tok_offs);
            let in0_6: Tile<bool, { [128] }> = lt_tile(tok_offs_u64, topk_ids_dim0_t_u64_b);
            let off0_6: Tile<u64, { [128] }> = tok_offs_u64 * topk_ids_stride0;
            let topk_ids_ptrs: PointerTile<*mut i64, { [128] }> = addptr_tile(topk_ids_base_b, off0_6);
            let mask_5: Tile<bool, { [128] }> = andi(in0_6, in_range);
            let topk_ids_token: Token = topk_ids.token();
            let (ids, _): (Tile<i64, { [128] }>, Token) = unsafe {
                load_ptr_padded_1(topk_ids_ptrs, ordering::Weak, None::<scope::TileBlock>, Some(mask_5), Some(c64i64_b), Some(topk_ids_token), Latency::<0>)
            };
            let ids_e: Tile<i64, { [128, 1] }> = ids.reshape(shape![128, 1]);
            let ids_e_b: Tile<i64, { [128, NUM_EXPERTS_POW2] }> = ids_e.broadcast(shape![128, NUM_EXPERTS_POW2]);
            let mask_6: Tile<bool, { [128, NUM_EXPERTS_POW2] }> = eq_tile(ids_e_b, expert_idx_e_i64_b);
            let match_2: Tile<i32, { [128, NUM_EXPERTS_POW2] }> = exti(mask_6);
            let cumsum_2: Tile<i32, { [128, NUM_EXPERTS_POW2] }> = scan_sum(match_2, 0i32, reverse::Forward, 0i32);
            let rank_2d: Tile<i32, { [128, NUM_EXPERTS_POW2] }> = cumsum_2 - match_2;
            let prod: Tile<i32, { [128, NUM_EXPERTS_POW2] }> = rank_2d * match_2;
            let rank_per_token: Tile<i32, { [128] }> = reduce_sum(prod, 1i32);
            let running_off_e: Tile<i32, { [1, NUM_EXPERTS_POW2] }> = running_off.reshape(shape![1, NUM_EXPERTS_POW2]);
            let running_off_e_b: Tile<i32, { [128, NUM_EXPERTS_POW2] }> = running_off_e.broadcast(shape![128, NUM_EXPERTS_POW2]);
            let prod_2: Tile<i32, { [128, NUM_EXPERTS_POW2] }> = running_off_e_b * match_2;
            let base_per_token: Tile<i32, { [128] }> = reduce_sum(prod_2, 1i32);
            let rank_post_pad: Tile<i32, { [128] }> = base_per_token + rank_per_token;
            let rank_post_pad_u64: Tile<u64, { [128] }> = exti(rank_post_pad);
            let in0_7: Tile<bool, { [128] }> = lt_tile(rank_post_pad_u64, sorted_token_ids_dim0_t_u64_b);
            let off0_7: Tile<u64, { [128] }> = rank_post_pad_u64 * sorted_token_ids_stride0;
            let sorted_token_ids_ptrs: PointerTile<*mut i32, { [128] }> = addptr_tile(sorted_token_ids_base_b, off0_7);
            let mask_7: Tile<bool, { [128] }> = andi(in0_7, in_range);
            sorted_token_ids_token = unsafe {
                store_ptr_tko(sorted_token_ids_ptrs, tok_offs, ordering::Weak, None::<scope::TileBlock>, Some(mask_7), Some(sorted_token_ids_token), Latency::<0>)
            };
            let sum_red: Tile<i32, { [NUM_EXPERTS_POW2] }> = reduce_sum(match_2, 0i32);
            let sum_red_t: Tile<i32, { [NUM_EXPERTS_POW2] }> = convert_tile(sum_red);
            let running_off_next: Tile<i32, { [NUM_EXPERTS_POW2] }> = running_off + sum_red_t;
            running_off = running_off_next;
        }
    }
}
