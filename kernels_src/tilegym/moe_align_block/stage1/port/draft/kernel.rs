//! Drafted by workbench/port/rules from /work/wt/tilegym2/.venv/lib/python3.11/site-packages/tilegym/ops/cutile/moe_align_block.py (_moe_align_block_size_stage1_kernel); review before use.
#![allow(unused_unsafe, unused_variables, unused_mut)]
#[cutile::module]
pub mod _moe_align_block_size_stage1_kernel_port {
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
    // The specialization NUM_EXPERTS=16,NUMEL=128,TOKENS_PER_THREAD=8,SUB_CHUNK=8: its constant branches folded away.
    #[cutile::entry()]
    pub fn _moe_align_block_size_stage1_kernel_num_experts_16_numel_128_tokens_per_thread_8_sub_chunk_8<const NUM_EXPERTS: i32, const NUMEL: i32, const TOKENS_PER_THREAD: i32, const SUB_CHUNK: i32, const NUM_EXPERTS_POW2: i32>(
        topk_ids: &Tensor<i64, { [-1] }>,
        tokens_cnts: &Tensor<i32, { [-1] }>,
    ) {
        let mut tokens_cnts_token: Token = tokens_cnts.token();  // threaded through its scatters
        let c16i32: Tile<i32, { [NUM_EXPERTS_POW2] }> = constant(16i32, shape![NUM_EXPERTS_POW2]);
        let c128i32: Tile<i32, { [8] }> = constant(128i32, shape![8]);
        let c8i32: Tile<i32, { [8] }> = constant(8i32, shape![8]);
        let topk_ids_stride0: Tile<u64, { [8] }> = constant(1u64, shape![8]);
        let c16i64: Tile<i64, { [] }> = constant(16i64, shape![]);
        let tokens_cnts_stride0: Tile<u64, { [NUM_EXPERTS_POW2] }> = constant(1u64, shape![NUM_EXPERTS_POW2]);
        let bid: i32 = get_tile_block_id().0;
        let start_idx: i32 = bid * TOKENS_PER_THREAD;
        let s: i32 = bid + 1i32;
        let off_c: i32 = s * NUM_EXPERTS;
        let expert_idx: Tile<i32, { [NUM_EXPERTS_POW2] }> = iota(shape![NUM_EXPERTS_POW2]);
        let expert_mask: Tile<bool, { [NUM_EXPERTS_POW2] }> = lt_tile(expert_idx, c16i32);
        let mut counts: Tile<i32, { [NUM_EXPERTS_POW2] }> = constant(0i32, shape![NUM_EXPERTS_POW2]);
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
        for sub_start in (0i32..TOKENS_PER_THREAD).step_by(SUB_CHUNK as usize) {
            let s_2: i32 = start_idx + sub_start;
            let s_2_t: Tile<i32, { [] }> = scalar_to_tile(s_2);
            let s_2_t_r: Tile<i32, { [1] }> = s_2_t.reshape(shape![1]);
            let s_2_t_b: Tile<i32, { [8] }> = s_2_t_r.broadcast(shape![8]);
            let tok_offs: Tile<i32, { [8] }> = s_2_t_b + sub_arange;
            let mask: Tile<bool, { [8] }> = lt_tile(tok_offs, c128i32);
            let sub_start_t: Tile<i32, { [] }> = scalar_to_tile(sub_start);
            let sub_start_t_r: Tile<i32, { [1] }> = sub_start_t.reshape(shape![1]);
            let sub_start_t_b: Tile<i32, { [8] }> = sub_start_t_r.broadcast(shape![8]);
            let sum: Tile<i32, { [8] }> = sub_start_t_b + sub_arange;
            let mask_2: Tile<bool, { [8] }> = lt_tile(sum, c8i32);
            let tok_mask: Tile<bool, { [8] }> = andi(mask, mask_2);
            let tok_offs_u64: Tile<u64, { [8] }> = exti(tok_offs);
            let in0: Tile<bool, { [8] }> = lt_tile(tok_offs_u64, topk_ids_dim0_t_u64_b);
            let off0: Tile<u64, { [8] }> = tok_offs_u64 * topk_ids_stride0;
            let topk_ids_ptrs: PointerTile<*mut i64, { [8] }> = addptr_tile(topk_ids_base_b, off0);
            let mask_3: Tile<bool, { [8] }> = andi(in0, tok_mask);
            let topk_ids_token: Token = topk_ids.token();
            let (ids, _): (Tile<i64, { [8] }>, Token) = unsafe {
                load_ptr_padded_1(topk_ids_ptrs, ordering::Weak, None::<scope::TileBlock>, Some(mask_3), Some(c16i64_b), Some(topk_ids_token), Latency::<0>)
            };
            let ids_e: Tile<i64, { [8, 1] }> = ids.reshape(shape![8, 1]);
            let ids_e_b: Tile<i64, { [8, NUM_EXPERTS_POW2] }> = ids_e.broadcast(shape![8, NUM_EXPERTS_POW2]);
            let mask_4: Tile<bool, { [8, NUM_EXPERTS_POW2] }> = eq_tile(ids_e_b, expert_idx_e_i64_b);
            let match_2: Tile<i32, { [8, NUM_EXPERTS_POW2] }> = exti(mask_4);
            let sum_red: Tile<i32, { [NUM_EXPERTS_POW2] }> = reduce_sum(match_2, 0i32);
            let sum_red_t: Tile<i32, { [NUM_EXPERTS_POW2] }> = convert_tile(sum_red);
            let counts_next: Tile<i32, { [NUM_EXPERTS_POW2] }> = counts + sum_red_t;
            counts = counts_next;
        }
        let off_c_t: Tile<i32, { [] }> = scalar_to_tile(off_c);
        let off_c_t_r: Tile<i32, { [1] }> = off_c_t.reshape(shape![1]);
        let off_c_t_b: Tile<i32, { [NUM_EXPERTS_POW2] }> = off_c_t_r.broadcast(shape![NUM_EXPERTS_POW2]);
        let sum_2: Tile<i32, { [NUM_EXPERTS_POW2] }> = off_c_t_b + expert_idx;
        let sum_2_u64: Tile<u64, { [NUM_EXPERTS_POW2] }> = exti(sum_2);
        let tokens_cnts_dim0: i32 = get_shape_dim(tokens_cnts.shape(), 0i32);
        let tokens_cnts_dim0_t: Tile<i32, { [] }> = scalar_to_tile(tokens_cnts_dim0);
        let tokens_cnts_dim0_t_u64: Tile<u64, { [] }> = exti(tokens_cnts_dim0_t);
        let tokens_cnts_dim0_t_u64_r: Tile<u64, { [1] }> = tokens_cnts_dim0_t_u64.reshape(shape![1]);
        let tokens_cnts_dim0_t_u64_b: Tile<u64, { [NUM_EXPERTS_POW2] }> = tokens_cnts_dim0_t_u64_r.broadcast(shape![NUM_EXPERTS_POW2]);
        let in0_2: Tile<bool, { [NUM_EXPERTS_POW2] }> = lt_tile(sum_2_u64, tokens_cnts_dim0_t_u64_b);
        let off0_2: Tile<u64, { [NUM_EXPERTS_POW2] }> = sum_2_u64 * tokens_cnts_stride0;
        let tokens_cnts_base: PointerTile<*mut i32, { [] }> = get_tensor_base(tokens_cnts);
        let tokens_cnts_base_r: PointerTile<*mut i32, { [1] }> = tokens_cnts_base.reshape(shape![1]);
        let tokens_cnts_base_b: PointerTile<*mut i32, { [NUM_EXPERTS_POW2] }> = tokens_cnts_base_r.broadcast(shape![NUM_EXPERTS_POW2]);
        let tokens_cnts_ptrs: PointerTile<*mut i32, { [NUM_EXPERTS_POW2] }> = addptr_tile(tokens_cnts_base_b, off0_2);
        let mask_5: Tile<bool, { [NUM_EXPERTS_POW2] }> = andi(in0_2, expert_mask);
        tokens_cnts_token = unsafe {
            store_ptr_tko(tokens_cnts_ptrs, counts, ordering::Weak, None::<scope::TileBlock>, Some(mask_5), Some(tokens_cnts_token), Latency::<0>)
        };
    }

    // NOTE ct.scatter writes through the array's base pointer (store_ptr_tko): the parameter stays `&Tensor`, as cutile asks nothing more of a raw store
    // The specialization NUM_EXPERTS=64,NUMEL=32768,TOKENS_PER_THREAD=128,SUB_CHUNK=128: its constant branches folded away.
    #[cutile::entry()]
    pub fn _moe_align_block_size_stage1_kernel_num_experts_64_numel_32768_tokens_per_thread_128_sub_chunk_128<const NUM_EXPERTS: i32, const NUMEL: i32, const TOKENS_PER_THREAD: i32, const SUB_CHUNK: i32, const NUM_EXPERTS_POW2: i32>(
        topk_ids: &Tensor<i64, { [-1] }>,
        tokens_cnts: &Tensor<i32, { [-1] }>,
    ) {
        let mut tokens_cnts_token: Token = tokens_cnts.token();  // threaded through its scatters
        let c64i32: Tile<i32, { [NUM_EXPERTS_POW2] }> = constant(64i32, shape![NUM_EXPERTS_POW2]);
        let c32768i32: Tile<i32, { [128] }> = constant(32768i32, shape![128]);
        let c128i32: Tile<i32, { [128] }> = constant(128i32, shape![128]);
        let topk_ids_stride0: Tile<u64, { [128] }> = constant(1u64, shape![128]);
        let c64i64: Tile<i64, { [] }> = constant(64i64, shape![]);
        let tokens_cnts_stride0: Tile<u64, { [NUM_EXPERTS_POW2] }> = constant(1u64, shape![NUM_EXPERTS_POW2]);
        let bid: i32 = get_tile_block_id().0;
        let start_idx: i32 = bid * TOKENS_PER_THREAD;
        let s: i32 = bid + 1i32;
        let off_c: i32 = s * NUM_EXPERTS;
        let expert_idx: Tile<i32, { [NUM_EXPERTS_POW2] }> = iota(shape![NUM_EXPERTS_POW2]);
        let expert_mask: Tile<bool, { [NUM_EXPERTS_POW2] }> = lt_tile(expert_idx, c64i32);
        let mut counts: Tile<i32, { [NUM_EXPERTS_POW2] }> = constant(0i32, shape![NUM_EXPERTS_POW2]);
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
        for sub_start in (0i32..TOKENS_PER_THREAD).step_by(SUB_CHUNK as usize) {
            let s_2: i32 = start_idx + sub_start;
            let s_2_t: Tile<i32, { [] }> = scalar_to_tile(s_2);
            let s_2_t_r: Tile<i32, { [1] }> = s_2_t.reshape(shape![1]);
            let s_2_t_b: Tile<i32, { [128] }> = s_2_t_r.broadcast(shape![128]);
            let tok_offs: Tile<i32, { [128] }> = s_2_t_b + sub_arange;
            let mask: Tile<bool, { [128] }> = lt_tile(tok_offs, c32768i32);
            let sub_start_t: Tile<i32, { [] }> = scalar_to_tile(sub_start);
            let sub_start_t_r: Tile<i32, { [1] }> = sub_start_t.reshape(shape![1]);
            let sub_start_t_b: Tile<i32, { [128] }> = sub_start_t_r.broadcast(shape![128]);
            let sum: Tile<i32, { [128] }> = sub_start_t_b + sub_arange;
            let mask_2: Tile<bool, { [128] }> = lt_tile(sum, c128i32);
            let tok_mask: Tile<bool, { [128] }> = andi(mask, mask_2);
            let tok_offs_u64: Tile<u64, { [128] }> = exti(tok_offs);
            let in0: Tile<bool, { [128] }> = lt_tile(tok_offs_u64, topk_ids_dim0_t_u64_b);
            let off0: Tile<u64, { [128] }> = tok_offs_u64 * topk_ids_stride0;
            let topk_ids_ptrs: PointerTile<*mut i64, { [128] }> = addptr_tile(topk_ids_base_b, off0);
            let mask_3: Tile<bool, { [128] }> = andi(in0, tok_mask);
            let topk_ids_token: Token = topk_ids.token();
            let (ids, _): (Tile<i64, { [128] }>, Token) = unsafe {
                load_ptr_padded_1(topk_ids_ptrs, ordering::Weak, None::<scope::TileBlock>, Some(mask_3), Some(c64i64_b), Some(topk_ids_token), Latency::<0>)
            };
            let ids_e: Tile<i64, { [128, 1] }> = ids.reshape(shape![128, 1]);
            let ids_e_b: Tile<i64, { [128, NUM_EXPERTS_POW2] }> = ids_e.broadcast(shape![128, NUM_EXPERTS_POW2]);
            let mask_4: Tile<bool, { [128, NUM_EXPERTS_POW2] }> = eq_tile(ids_e_b, expert_idx_e_i64_b);
            let match_2: Tile<i32, { [128, NUM_EXPERTS_POW2] }> = exti(mask_4);
            let sum_red: Tile<i32, { [NUM_EXPERTS_POW2] }> = reduce_sum(match_2, 0i32);
            let sum_red_t: Tile<i32, { [NUM_EXPERTS_POW2] }> = convert_tile(sum_red);
            let counts_next: Tile<i32, { [NUM_EXPERTS_POW2] }> = counts + sum_red_t;
            counts = counts_next;
        }
        let off_c_t: Tile<i32, { [] }> = scalar_to_tile(off_c);
        let off_c_t_r: Tile<i32, { [1] }> = off_c_t.reshape(shape![1]);
        let off_c_t_b: Tile<i32, { [NUM_EXPERTS_POW2] }> = off_c_t_r.broadcast(shape![NUM_EXPERTS_POW2]);
        let sum_2: Tile<i32, { [NUM_EXPERTS_POW2] }> = off_c_t_b + expert_idx;
        let sum_2_u64: Tile<u64, { [NUM_EXPERTS_POW2] }> = exti(sum_2);
        let tokens_cnts_dim0: i32 = get_shape_dim(tokens_cnts.shape(), 0i32);
        let tokens_cnts_dim0_t: Tile<i32, { [] }> = scalar_to_tile(tokens_cnts_dim0);
        let tokens_cnts_dim0_t_u64: Tile<u64, { [] }> = exti(tokens_cnts_dim0_t);
        let tokens_cnts_dim0_t_u64_r: Tile<u64, { [1] }> = tokens_cnts_dim0_t_u64.reshape(shape![1]);
        let tokens_cnts_dim0_t_u64_b: Tile<u64, { [NUM_EXPERTS_POW2] }> = tokens_cnts_dim0_t_u64_r.broadcast(shape![NUM_EXPERTS_POW2]);
        let in0_2: Tile<bool, { [NUM_EXPERTS_POW2] }> = lt_tile(sum_2_u64, tokens_cnts_dim0_t_u64_b);
        let off0_2: Tile<u64, { [NUM_EXPERTS_POW2] }> = sum_2_u64 * tokens_cnts_stride0;
        let tokens_cnts_base: PointerTile<*mut i32, { [] }> = get_tensor_base(tokens_cnts);
        let tokens_cnts_base_r: PointerTile<*mut i32, { [1] }> = tokens_cnts_base.reshape(shape![1]);
        let tokens_cnts_base_b: PointerTile<*mut i32, { [NUM_EXPERTS_POW2] }> = tokens_cnts_base_r.broadcast(shape![NUM_EXPERTS_POW2]);
        let tokens_cnts_ptrs: PointerTile<*mut i32, { [NUM_EXPERTS_POW2] }> = addptr_tile(tokens_cnts_base_b, off0_2);
        let mask_5: Tile<bool, { [NUM_EXPERTS_POW2] }> = andi(in0_2, expert_mask);
        tokens_cnts_token = unsafe {
            store_ptr_tko(tokens_cnts_ptrs, counts, ordering::Weak, None::<scope::TileBlock>, Some(mask_5), Some(tokens_cnts_token), Latency::<0>)
        };
    }
}
