//! Drafted by workbench/port/rules from /work/wt/tilegym2/.venv/lib/python3.11/site-packages/tilegym/ops/cutile/moe_align_block.py (_moe_align_block_size_stage2_kernel); review before use.
#![allow(unused_unsafe, unused_variables, unused_mut)]
#[cutile::module]
pub mod _moe_align_block_size_stage2_kernel_port {
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
    // The specialization NUM_EXPERTS=16: its constant branches folded away.
    #[cutile::entry()]
    pub fn _moe_align_block_size_stage2_kernel_num_experts_16<const NUM_EXPERTS: i32, const NUM_EXPERTS_POW2: i32>(
        tokens_cnts: &Tensor<i32, { [-1] }>,
    ) {
        let mut tokens_cnts_token_2: Token = tokens_cnts.token();  // threaded through its scatters
        let c16i32: Tile<i32, { [NUM_EXPERTS_POW2] }> = constant(16i32, shape![NUM_EXPERTS_POW2]);
        let tokens_cnts_stride0: Tile<u64, { [NUM_EXPERTS_POW2] }> = constant(1u64, shape![NUM_EXPERTS_POW2]);
        let c0i32: Tile<i32, { [] }> = constant(0i32, shape![]);
        let tokens_cnts_stride0_2: Tile<u64, { [NUM_EXPERTS_POW2] }> = constant(1u64, shape![NUM_EXPERTS_POW2]);
        let bid: i32 = get_tile_block_id().0;
        let base_offset: i32 = NUM_EXPERTS + bid;
        let iota_2: Tile<i32, { [NUM_EXPERTS_POW2] }> = iota(shape![NUM_EXPERTS_POW2]);
        let prod: Tile<i32, { [NUM_EXPERTS_POW2] }> = iota_2 * c16i32;
        let base_offset_t: Tile<i32, { [] }> = scalar_to_tile(base_offset);
        let base_offset_t_r: Tile<i32, { [1] }> = base_offset_t.reshape(shape![1]);
        let base_offset_t_b: Tile<i32, { [NUM_EXPERTS_POW2] }> = base_offset_t_r.broadcast(shape![NUM_EXPERTS_POW2]);
        let offsets: Tile<i32, { [NUM_EXPERTS_POW2] }> = prod + base_offset_t_b;
        let offsets_u64: Tile<u64, { [NUM_EXPERTS_POW2] }> = exti(offsets);
        let tokens_cnts_dim0: i32 = get_shape_dim(tokens_cnts.shape(), 0i32);
        let tokens_cnts_dim0_t: Tile<i32, { [] }> = scalar_to_tile(tokens_cnts_dim0);
        let tokens_cnts_dim0_t_u64: Tile<u64, { [] }> = exti(tokens_cnts_dim0_t);
        let tokens_cnts_dim0_t_u64_r: Tile<u64, { [1] }> = tokens_cnts_dim0_t_u64.reshape(shape![1]);
        let tokens_cnts_dim0_t_u64_b: Tile<u64, { [NUM_EXPERTS_POW2] }> = tokens_cnts_dim0_t_u64_r.broadcast(shape![NUM_EXPERTS_POW2]);
        let in0: Tile<bool, { [NUM_EXPERTS_POW2] }> = lt_tile(offsets_u64, tokens_cnts_dim0_t_u64_b);
        let off0: Tile<u64, { [NUM_EXPERTS_POW2] }> = offsets_u64 * tokens_cnts_stride0;
        let tokens_cnts_base: PointerTile<*mut i32, { [] }> = get_tensor_base(tokens_cnts);
        let tokens_cnts_base_r: PointerTile<*mut i32, { [1] }> = tokens_cnts_base.reshape(shape![1]);
        let tokens_cnts_base_b: PointerTile<*mut i32, { [NUM_EXPERTS_POW2] }> = tokens_cnts_base_r.broadcast(shape![NUM_EXPERTS_POW2]);
        let tokens_cnts_ptrs: PointerTile<*mut i32, { [NUM_EXPERTS_POW2] }> = addptr_tile(tokens_cnts_base_b, off0);
        let c0i32_r: Tile<i32, { [1] }> = c0i32.reshape(shape![1]);
        let c0i32_b: Tile<i32, { [NUM_EXPERTS_POW2] }> = c0i32_r.broadcast(shape![NUM_EXPERTS_POW2]);
        let tokens_cnts_token: Token = tokens_cnts.token();
        let (token_cnts_vec, _): (Tile<i32, { [NUM_EXPERTS_POW2] }>, Token) = unsafe {
            load_ptr_padded_1(tokens_cnts_ptrs, ordering::Weak, None::<scope::TileBlock>, Some(in0), Some(c0i32_b), Some(tokens_cnts_token), Latency::<0>)
        };
        let cumsum: Tile<i32, { [NUM_EXPERTS_POW2] }> = scan_sum(token_cnts_vec, 0i32, reverse::Forward, 0i32);
        let offsets_u64_2: Tile<u64, { [NUM_EXPERTS_POW2] }> = exti(offsets);
        let tokens_cnts_dim0_2: i32 = get_shape_dim(tokens_cnts.shape(), 0i32);
        let tokens_cnts_dim0_2_t: Tile<i32, { [] }> = scalar_to_tile(tokens_cnts_dim0_2);
        let tokens_cnts_dim0_2_t_u64: Tile<u64, { [] }> = exti(tokens_cnts_dim0_2_t);
        let tokens_cnts_dim0_2_t_u64_r: Tile<u64, { [1] }> = tokens_cnts_dim0_2_t_u64.reshape(shape![1]);
        let tokens_cnts_dim0_2_t_u64_b: Tile<u64, { [NUM_EXPERTS_POW2] }> = tokens_cnts_dim0_2_t_u64_r.broadcast(shape![NUM_EXPERTS_POW2]);
        let in0_2: Tile<bool, { [NUM_EXPERTS_POW2] }> = lt_tile(offsets_u64_2, tokens_cnts_dim0_2_t_u64_b);
        let off0_2: Tile<u64, { [NUM_EXPERTS_POW2] }> = offsets_u64_2 * tokens_cnts_stride0_2;
        let tokens_cnts_base_2: PointerTile<*mut i32, { [] }> = get_tensor_base(tokens_cnts);
        let tokens_cnts_base_r_2: PointerTile<*mut i32, { [1] }> = tokens_cnts_base_2.reshape(shape![1]);
        let tokens_cnts_base_b_2: PointerTile<*mut i32, { [NUM_EXPERTS_POW2] }> = tokens_cnts_base_r_2.broadcast(shape![NUM_EXPERTS_POW2]);
        let tokens_cnts_ptrs_2: PointerTile<*mut i32, { [NUM_EXPERTS_POW2] }> = addptr_tile(tokens_cnts_base_b_2, off0_2);
        tokens_cnts_token_2 = unsafe {
            store_ptr_tko(tokens_cnts_ptrs_2, cumsum, ordering::Weak, None::<scope::TileBlock>, Some(in0_2), Some(tokens_cnts_token_2), Latency::<0>)
        };
    }

    // NOTE ct.scatter writes through the array's base pointer (store_ptr_tko): the parameter stays `&Tensor`, as cutile asks nothing more of a raw store
    // The specialization NUM_EXPERTS=64: its constant branches folded away.
    #[cutile::entry()]
    pub fn _moe_align_block_size_stage2_kernel_num_experts_64<const NUM_EXPERTS: i32, const NUM_EXPERTS_POW2: i32>(
        tokens_cnts: &Tensor<i32, { [-1] }>,
    ) {
        let mut tokens_cnts_token_2: Token = tokens_cnts.token();  // threaded through its scatters
        let c64i32: Tile<i32, { [NUM_EXPERTS_POW2] }> = constant(64i32, shape![NUM_EXPERTS_POW2]);
        let tokens_cnts_stride0: Tile<u64, { [NUM_EXPERTS_POW2] }> = constant(1u64, shape![NUM_EXPERTS_POW2]);
        let c0i32: Tile<i32, { [] }> = constant(0i32, shape![]);
        let tokens_cnts_stride0_2: Tile<u64, { [NUM_EXPERTS_POW2] }> = constant(1u64, shape![NUM_EXPERTS_POW2]);
        let bid: i32 = get_tile_block_id().0;
        let base_offset: i32 = NUM_EXPERTS + bid;
        let iota_2: Tile<i32, { [NUM_EXPERTS_POW2] }> = iota(shape![NUM_EXPERTS_POW2]);
        let prod: Tile<i32, { [NUM_EXPERTS_POW2] }> = iota_2 * c64i32;
        let base_offset_t: Tile<i32, { [] }> = scalar_to_tile(base_offset);
        let base_offset_t_r: Tile<i32, { [1] }> = base_offset_t.reshape(shape![1]);
        let base_offset_t_b: Tile<i32, { [NUM_EXPERTS_POW2] }> = base_offset_t_r.broadcast(shape![NUM_EXPERTS_POW2]);
        let offsets: Tile<i32, { [NUM_EXPERTS_POW2] }> = prod + base_offset_t_b;
        let offsets_u64: Tile<u64, { [NUM_EXPERTS_POW2] }> = exti(offsets);
        let tokens_cnts_dim0: i32 = get_shape_dim(tokens_cnts.shape(), 0i32);
        let tokens_cnts_dim0_t: Tile<i32, { [] }> = scalar_to_tile(tokens_cnts_dim0);
        let tokens_cnts_dim0_t_u64: Tile<u64, { [] }> = exti(tokens_cnts_dim0_t);
        let tokens_cnts_dim0_t_u64_r: Tile<u64, { [1] }> = tokens_cnts_dim0_t_u64.reshape(shape![1]);
        let tokens_cnts_dim0_t_u64_b: Tile<u64, { [NUM_EXPERTS_POW2] }> = tokens_cnts_dim0_t_u64_r.broadcast(shape![NUM_EXPERTS_POW2]);
        let in0: Tile<bool, { [NUM_EXPERTS_POW2] }> = lt_tile(offsets_u64, tokens_cnts_dim0_t_u64_b);
        let off0: Tile<u64, { [NUM_EXPERTS_POW2] }> = offsets_u64 * tokens_cnts_stride0;
        let tokens_cnts_base: PointerTile<*mut i32, { [] }> = get_tensor_base(tokens_cnts);
        let tokens_cnts_base_r: PointerTile<*mut i32, { [1] }> = tokens_cnts_base.reshape(shape![1]);
        let tokens_cnts_base_b: PointerTile<*mut i32, { [NUM_EXPERTS_POW2] }> = tokens_cnts_base_r.broadcast(shape![NUM_EXPERTS_POW2]);
        let tokens_cnts_ptrs: PointerTile<*mut i32, { [NUM_EXPERTS_POW2] }> = addptr_tile(tokens_cnts_base_b, off0);
        let c0i32_r: Tile<i32, { [1] }> = c0i32.reshape(shape![1]);
        let c0i32_b: Tile<i32, { [NUM_EXPERTS_POW2] }> = c0i32_r.broadcast(shape![NUM_EXPERTS_POW2]);
        let tokens_cnts_token: Token = tokens_cnts.token();
        let (token_cnts_vec, _): (Tile<i32, { [NUM_EXPERTS_POW2] }>, Token) = unsafe {
            load_ptr_padded_1(tokens_cnts_ptrs, ordering::Weak, None::<scope::TileBlock>, Some(in0), Some(c0i32_b), Some(tokens_cnts_token), Latency::<0>)
        };
        let cumsum: Tile<i32, { [NUM_EXPERTS_POW2] }> = scan_sum(token_cnts_vec, 0i32, reverse::Forward, 0i32);
        let offsets_u64_2: Tile<u64, { [NUM_EXPERTS_POW2] }> = exti(offsets);
        let tokens_cnts_dim0_2: i32 = get_shape_dim(tokens_cnts.shape(), 0i32);
        let tokens_cnts_dim0_2_t: Tile<i32, { [] }> = scalar_to_tile(tokens_cnts_dim0_2);
        let tokens_cnts_dim0_2_t_u64: Tile<u64, { [] }> = exti(tokens_cnts_dim0_2_t);
        let tokens_cnts_dim0_2_t_u64_r: Tile<u64, { [1] }> = tokens_cnts_dim0_2_t_u64.reshape(shape![1]);
        let tokens_cnts_dim0_2_t_u64_b: Tile<u64, { [NUM_EXPERTS_POW2] }> = tokens_cnts_dim0_2_t_u64_r.broadcast(shape![NUM_EXPERTS_POW2]);
        let in0_2: Tile<bool, { [NUM_EXPERTS_POW2] }> = lt_tile(offsets_u64_2, tokens_cnts_dim0_2_t_u64_b);
        let off0_2: Tile<u64, { [NUM_EXPERTS_POW2] }> = offsets_u64_2 * tokens_cnts_stride0_2;
        let tokens_cnts_base_2: PointerTile<*mut i32, { [] }> = get_tensor_base(tokens_cnts);
        let tokens_cnts_base_r_2: PointerTile<*mut i32, { [1] }> = tokens_cnts_base_2.reshape(shape![1]);
        let tokens_cnts_base_b_2: PointerTile<*mut i32, { [NUM_EXPERTS_POW2] }> = tokens_cnts_base_r_2.broadcast(shape![NUM_EXPERTS_POW2]);
        let tokens_cnts_ptrs_2: PointerTile<*mut i32, { [NUM_EXPERTS_POW2] }> = addptr_tile(tokens_cnts_base_b_2, off0_2);
        tokens_cnts_token_2 = unsafe {
            store_ptr_tko(tokens_cnts_ptrs_2, cumsum, ordering::Weak, None::<scope::TileBlock>, Some(in0_2), Some(tokens_cnts_token_2), Latency::<0>)
        };
    }
}
