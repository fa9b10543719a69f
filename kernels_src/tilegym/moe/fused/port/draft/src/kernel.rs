//! Drafted by workbench/port/rules from /tmp/tg4_exp/moe_draft_noif.py (_fused_moe_kernel); review before use.
#![allow(unused_unsafe, unused_variables, unused_mut)]
#[cutile::module]
pub mod _fused_moe_kernel_port {
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

    // cutile's load_ptr_tko takes the padding as a scalar and broadcasts it at the
    // load; cuTile Python broadcasts it first (and hoists that out of loops). The
    // same Tile IR op, declared with a padding tile of the result's shape:
    #[cuda_tile::op(name = "cuda_tile.load_ptr_tko", since = "V13_2", params = ["source"])]
    unsafe fn load_ptr_padded_2<T: ElementType, P: PointerTo<T>, const S: [i32; 2], O: ordering::LoadMode, Sc: scope::Mode, const CYCLES: i32>(
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

    // cutile 0.4.0 exposes a tensor's base pointer and shape but no accessor for its
    // strides; this reads the view's `strides` metadata (its dynamic strides, all but
    // the unit last one) with the compiler op that Tensor::shape() uses.
    #[cuda_tile::compiler_op(name = "return_type_meta_field", type_meta_field = "strides")]
    fn tensor_strides_2<T: ElementType, const S: [i32; 2]>(
        tensor: &Tensor<T, S>,
    ) -> Shape<'static, { [-1] }> {
        unreachable!()
    }

    // NOTE line 87: loads indexed by `k` run to a bound cutile cannot relate to the arrays, so the entry is unsafe with unchecked_accesses = true; the launcher must keep every index in range
    // NOTE ct.scatter writes through the array's base pointer (store_ptr_tko): the parameter stays `&Tensor`, as cutile asks nothing more of a raw store
    // The specialization N=1024,TILE_SIZE_M=128,TILE_SIZE_N=128,GROUP_SIZE_M=32,MUL_ROUTED_WEIGHT=0,TOP_K=4,A_STRIDE_1=1024: its constant branches folded away.
    #[cutile::entry(unchecked_accesses = true)]
    pub unsafe fn _fused_moe_kernel_n_1024_tile_size_m_128_tile_size_n_128_group_size_m_32_mul_routed_weight_0_top_k_4_a_stride_1_1024<const N: i32, const K: i32, const GROUP_N: i32, const GROUP_K: i32, const TILE_SIZE_M: i32, const TILE_SIZE_N: i32, const TILE_SIZE_K: i32, const GROUP_SIZE_M: i32, const MUL_ROUTED_WEIGHT: i32, const TOP_K: i32, const USE_FP8_W8A8: i32, const USE_INT8_W8A16: i32, const EVEN_KS: i32, const A_STRIDE_1: i32>(
        a_ptr: &Tensor<bf16, { [-1] }>,
        b_ptr: &Tensor<bf16, { [-1, -1, -1] }>,
        c_ptr: &Tensor<bf16, { [-1, -1] }>,
        a_scale_ptr: &Tensor<bf16, { [-1] }>,
        b_scale_ptr: &Tensor<bf16, { [-1] }>,
        topk_weights_ptr: &Tensor<bf16, { [-1] }>,
        sorted_token_ids_ptr: &Tensor<i32, { [-1] }>,
        expert_ids_ptr: &Tensor<i32, { [-1] }>,
        num_tokens_post_padded_ptr: &Tensor<i32, { [-1] }>,
        EM: i32,
        num_valid_tokens: i32,
    ) {
        let mut c_ptr_token: Token = c_ptr.token();  // threaded through its scatters
        let num_tokens_post_padded_ptr_stride0: Tile<u64, { [] }> = constant(1u64, shape![]);
        let sorted_token_ids_ptr_stride0: Tile<u64, { [128] }> = constant(1u64, shape![128]);
        let c0i32: Tile<i32, { [128] }> = constant(0i32, shape![128]);
        let c4i32: Tile<i32, { [128] }> = constant(4i32, shape![128]);
        let c1024i32: Tile<i32, { [128, 1] }> = constant(1024i32, shape![128, 1]);
        let cTILE_SIZE_K: i32 = TILE_SIZE_K;
        let a_ptr_stride0: Tile<u64, { [128, TILE_SIZE_K] }> = constant(1u64, shape![128, TILE_SIZE_K]);
        let c_ptr_stride1: Tile<u64, { [128, 128] }> = constant(1u64, shape![128, 128]);
        let bid: i32 = get_tile_block_id().0;
        let num_bid_m: i32 = ceil_div(EM, TILE_SIZE_M);
        let bid_t: Tile<i32, { [] }> = scalar_to_tile(bid);
        let lit: Tile<i32, { [] }> = constant(256i32, shape![]);
        let group_id: Tile<i32, { [] }> = divi(bid_t, lit, rounding::NegativeInf);
        let lit_2: Tile<i32, { [] }> = constant(32i32, shape![]);
        let first_bid_m: Tile<i32, { [] }> = group_id * lit_2;
        let num_bid_m_t: Tile<i32, { [] }> = scalar_to_tile(num_bid_m);
        let diff: Tile<i32, { [] }> = num_bid_m_t - first_bid_m;
        let lit_3: Tile<i32, { [] }> = constant(32i32, shape![]);
        let group_size_m: Tile<i32, { [] }> = mini(diff, lit_3);
        let bid_t_2: Tile<i32, { [] }> = scalar_to_tile(bid);
        let lit_4: Tile<i32, { [] }> = constant(256i32, shape![]);
        let rem_raw: Tile<i32, { [] }> = remi(bid_t_2, lit_4);
        let zeros: Tile<i32, { [] }> = constant(0i32, shape![]);
        let rem_neg: Tile<bool, { [] }> = lt_tile(rem_raw, zeros);
        let lit_4_neg: Tile<bool, { [] }> = scalar_to_tile(false);
        let rem_signs: Tile<bool, { [] }> = xori(rem_neg, lit_4_neg);
        let rem_nonzero: Tile<bool, { [] }> = ne_tile(rem_raw, zeros);
        let rem_fix: Tile<bool, { [] }> = andi(rem_signs, rem_nonzero);
        let rem_shifted: Tile<i32, { [] }> = rem_raw + lit_4;
        let rem: Tile<i32, { [] }> = select(rem_fix, rem_shifted, rem_raw);
        let rem_raw_2: Tile<i32, { [] }> = remi(rem, group_size_m);
        let zeros_2: Tile<i32, { [] }> = constant(0i32, shape![]);
        let rem_neg_2: Tile<bool, { [] }> = lt_tile(rem_raw_2, zeros_2);
        let group_size_m_neg: Tile<bool, { [] }> = lt_tile(group_size_m, zeros_2);
        let rem_signs_2: Tile<bool, { [] }> = xori(rem_neg_2, group_size_m_neg);
        let rem_nonzero_2: Tile<bool, { [] }> = ne_tile(rem_raw_2, zeros_2);
        let rem_fix_2: Tile<bool, { [] }> = andi(rem_signs_2, rem_nonzero_2);
        let rem_shifted_2: Tile<i32, { [] }> = rem_raw_2 + group_size_m;
        let rem_2: Tile<i32, { [] }> = select(rem_fix_2, rem_shifted_2, rem_raw_2);
        let bid_m: Tile<i32, { [] }> = first_bid_m + rem_2;
        let bid_t_3: Tile<i32, { [] }> = scalar_to_tile(bid);
        let lit_5: Tile<i32, { [] }> = constant(256i32, shape![]);
        let rem_raw_3: Tile<i32, { [] }> = remi(bid_t_3, lit_5);
        let zeros_3: Tile<i32, { [] }> = constant(0i32, shape![]);
        let rem_neg_3: Tile<bool, { [] }> = lt_tile(rem_raw_3, zeros_3);
        let lit_5_neg: Tile<bool, { [] }> = scalar_to_tile(false);
        let rem_signs_3: Tile<bool, { [] }> = xori(rem_neg_3, lit_5_neg);
        let rem_nonzero_3: Tile<bool, { [] }> = ne_tile(rem_raw_3, zeros_3);
        let rem_fix_3: Tile<bool, { [] }> = andi(rem_signs_3, rem_nonzero_3);
        let rem_shifted_3: Tile<i32, { [] }> = rem_raw_3 + lit_5;
        let rem_3: Tile<i32, { [] }> = select(rem_fix_3, rem_shifted_3, rem_raw_3);
        let bid_n: Tile<i32, { [] }> = divi(rem_3, group_size_m, rounding::NegativeInf);
        let lit_7: Tile<i32, { [] }> = constant(0i32, shape![]);
        let lit_6: Tile<u64, { [] }> = constant(0u64, shape![]);
        let num_tokens_post_padded_ptr_dim0: i32 = get_shape_dim(num_tokens_post_padded_ptr.shape(), 0i32);
        let num_tokens_post_padded_ptr_dim0_t: Tile<i32, { [] }> = scalar_to_tile(num_tokens_post_padded_ptr_dim0);
        let num_tokens_post_padded_ptr_dim0_t_u64: Tile<u64, { [] }> = exti(num_tokens_post_padded_ptr_dim0_t);
        let in0: Tile<bool, { [] }> = lt_tile(lit_6, num_tokens_post_padded_ptr_dim0_t_u64);
        let off0: Tile<u64, { [] }> = lit_6 * num_tokens_post_padded_ptr_stride0;
        let num_tokens_post_padded_ptr_base: PointerTile<*mut i32, { [] }> = get_tensor_base(num_tokens_post_padded_ptr);
        let num_tokens_post_padded_ptr_ptrs: PointerTile<*mut i32, { [] }> = addptr_tile(num_tokens_post_padded_ptr_base, off0);
        let num_tokens_post_padded_ptr_token: Token = num_tokens_post_padded_ptr.token();
        let (num_tokens_post_padded, _): (Tile<i32, { [] }>, Token) = unsafe {
            load_ptr_padded_0(num_tokens_post_padded_ptr_ptrs, ordering::Weak, None::<scope::TileBlock>, Some(in0), Some(lit_7), Some(num_tokens_post_padded_ptr_token), Latency::<0>)
        };
        let lit_9: Tile<i32, { [] }> = constant(128i32, shape![]);
        let prod: Tile<i32, { [] }> = bid_m * lit_9;
        let iota_2: Tile<i32, { [128] }> = iota(shape![128]);
        let prod_r: Tile<i32, { [1] }> = prod.reshape(shape![1]);
        let prod_b: Tile<i32, { [128] }> = prod_r.broadcast(shape![128]);
        let offs_token_id: Tile<i32, { [128] }> = prod_b + iota_2;
        let offs_token_id_u64: Tile<u64, { [128] }> = exti(offs_token_id);
        let sorted_token_ids_ptr_dim0: i32 = get_shape_dim(sorted_token_ids_ptr.shape(), 0i32);
        let sorted_token_ids_ptr_dim0_t: Tile<i32, { [] }> = scalar_to_tile(sorted_token_ids_ptr_dim0);
        let sorted_token_ids_ptr_dim0_t_u64: Tile<u64, { [] }> = exti(sorted_token_ids_ptr_dim0_t);
        let sorted_token_ids_ptr_dim0_t_u64_r: Tile<u64, { [1] }> = sorted_token_ids_ptr_dim0_t_u64.reshape(shape![1]);
        let sorted_token_ids_ptr_dim0_t_u64_b: Tile<u64, { [128] }> = sorted_token_ids_ptr_dim0_t_u64_r.broadcast(shape![128]);
        let in0_2: Tile<bool, { [128] }> = lt_tile(offs_token_id_u64, sorted_token_ids_ptr_dim0_t_u64_b);
        let off0_2: Tile<u64, { [128] }> = offs_token_id_u64 * sorted_token_ids_ptr_stride0;
        let sorted_token_ids_ptr_base: PointerTile<*mut i32, { [] }> = get_tensor_base(sorted_token_ids_ptr);
        let sorted_token_ids_ptr_base_r: PointerTile<*mut i32, { [1] }> = sorted_token_ids_ptr_base.reshape(shape![1]);
        let sorted_token_ids_ptr_base_b: PointerTile<*mut i32, { [128] }> = sorted_token_ids_ptr_base_r.broadcast(shape![128]);
        let sorted_token_ids_ptr_ptrs: PointerTile<*mut i32, { [128] }> = addptr_tile(sorted_token_ids_ptr_base_b, off0_2);
        let sorted_token_ids_ptr_token: Token = sorted_token_ids_ptr.token();
        let (offs_token, _): (Tile<i32, { [128] }>, Token) = unsafe {
            load_ptr_padded_1(sorted_token_ids_ptr_ptrs, ordering::Weak, None::<scope::TileBlock>, Some(in0_2), Some(c0i32), Some(sorted_token_ids_ptr_token), Latency::<0>)
        };
        let idx: i32 = tile_to_scalar(bid_m);
        let expert_ids_ptr_part: Partition<i32, { [1] }> = unsafe { make_partition_view(expert_ids_ptr, shape![1], padding::None, dim_map::Identity, expert_ids_ptr.token()) };
        let expert_ids_ptr_tile: Tile<i32, { [1] }> = expert_ids_ptr_part.load([idx]);
        let off_experts: Tile<i32, { [] }> = expert_ids_ptr_tile.reshape(shape![]);
        let row_indices: Tile<i32, { [128] }> = divi(offs_token, c4i32, rounding::NegativeInf);
        let row_indices_e: Tile<i32, { [128, 1] }> = row_indices.reshape(shape![128, 1]);
        let a_row_offset: Tile<i32, { [128, 1] }> = row_indices_e * c1024i32;
        let mut accumulator: Tile<f32, { [128, 128] }> = constant(0.0f32, shape![128, 128]);
        let iota_3: Tile<i32, { [TILE_SIZE_K] }> = iota(shape![TILE_SIZE_K]);
        let a_row_offset_b: Tile<i32, { [128, TILE_SIZE_K] }> = a_row_offset.broadcast(shape![128, TILE_SIZE_K]);
        let a_ptr_dim0: i32 = get_shape_dim(a_ptr.shape(), 0i32);
        let a_ptr_dim0_t: Tile<i32, { [] }> = scalar_to_tile(a_ptr_dim0);
        let a_ptr_dim0_t_u64: Tile<u64, { [] }> = exti(a_ptr_dim0_t);
        let a_ptr_dim0_t_u64_r: Tile<u64, { [1, 1] }> = a_ptr_dim0_t_u64.reshape(shape![1, 1]);
        let a_ptr_dim0_t_u64_b: Tile<u64, { [128, TILE_SIZE_K] }> = a_ptr_dim0_t_u64_r.broadcast(shape![128, TILE_SIZE_K]);
        let a_ptr_base: PointerTile<*mut bf16, { [] }> = get_tensor_base(a_ptr);
        let a_ptr_base_r: PointerTile<*mut bf16, { [1, 1] }> = a_ptr_base.reshape(shape![1, 1]);
        let a_ptr_base_b: PointerTile<*mut bf16, { [128, TILE_SIZE_K] }> = a_ptr_base_r.broadcast(shape![128, TILE_SIZE_K]);
        let lit_10: Tile<bf16, { [] }> = constant(bf16::ZERO, shape![]);
        let lit_10_r: Tile<bf16, { [1, 1] }> = lit_10.reshape(shape![1, 1]);
        let lit_10_b: Tile<bf16, { [128, TILE_SIZE_K] }> = lit_10_r.broadcast(shape![128, TILE_SIZE_K]);
        let idx_2: i32 = tile_to_scalar(off_experts);
        let idx_3: i32 = tile_to_scalar(bid_n);
        let b_ptr_part: Partition<bf16, { [1, TILE_SIZE_K, 128] }> = unsafe { make_partition_view(b_ptr, shape![1, TILE_SIZE_K, 128], padding::None, const_array![0, 2, 1], b_ptr.token()) };
        for k in 0i32..ceil_div(K, TILE_SIZE_K) {
            let s: i32 = k * cTILE_SIZE_K;
            let s_t: Tile<i32, { [] }> = scalar_to_tile(s);
            let s_t_r: Tile<i32, { [1] }> = s_t.reshape(shape![1]);
            let s_t_b: Tile<i32, { [TILE_SIZE_K] }> = s_t_r.broadcast(shape![TILE_SIZE_K]);
            let col_indices: Tile<i32, { [TILE_SIZE_K] }> = s_t_b + iota_3;
            let col_indices_e: Tile<i32, { [1, TILE_SIZE_K] }> = col_indices.reshape(shape![1, TILE_SIZE_K]);
            let col_indices_e_b: Tile<i32, { [128, TILE_SIZE_K] }> = col_indices_e.broadcast(shape![128, TILE_SIZE_K]);
            let a_indices: Tile<i32, { [128, TILE_SIZE_K] }> = a_row_offset_b + col_indices_e_b;
            let a_indices_u64: Tile<u64, { [128, TILE_SIZE_K] }> = exti(a_indices);
            let in0_3: Tile<bool, { [128, TILE_SIZE_K] }> = lt_tile(a_indices_u64, a_ptr_dim0_t_u64_b);
            let off0_3: Tile<u64, { [128, TILE_SIZE_K] }> = a_indices_u64 * a_ptr_stride0;
            let a_ptr_ptrs: PointerTile<*mut bf16, { [128, TILE_SIZE_K] }> = addptr_tile(a_ptr_base_b, off0_3);
            let a_ptr_token: Token = a_ptr.token();
            let (a, _): (Tile<bf16, { [128, TILE_SIZE_K] }>, Token) = unsafe {
                load_ptr_padded_2(a_ptr_ptrs, ordering::Weak, None::<scope::TileBlock>, Some(in0_3), Some(lit_10_b), Some(a_ptr_token), Latency::<0>)
            };
            let b_ptr_tile: Tile<bf16, { [1, TILE_SIZE_K, 128] }> = b_ptr_part.load([idx_2, k, idx_3]);
            let b: Tile<bf16, { [TILE_SIZE_K, 128] }> = b_ptr_tile.reshape(shape![TILE_SIZE_K, 128]);
            let accumulator_next: Tile<f32, { [128, 128] }> = mma(a, b, accumulator);
            accumulator = accumulator_next;
        }
        let lit_11: Tile<i32, { [] }> = constant(128i32, shape![]);
        let prod_2: Tile<i32, { [] }> = bid_n * lit_11;
        let iota_4: Tile<i32, { [128] }> = iota(shape![128]);
        let prod_2_r: Tile<i32, { [1] }> = prod_2.reshape(shape![1]);
        let prod_2_b: Tile<i32, { [128] }> = prod_2_r.broadcast(shape![128]);
        let offs_cn: Tile<i32, { [128] }> = prod_2_b + iota_4;
        let accumulator_2: Tile<bf16, { [128, 128] }> = convert_tile(accumulator);
        let offs_token_e: Tile<i32, { [128, 1] }> = offs_token.reshape(shape![128, 1]);
        let offs_cn_e: Tile<i32, { [1, 128] }> = offs_cn.reshape(shape![1, 128]);
        let offs_token_e_u64: Tile<u64, { [128, 1] }> = exti(offs_token_e);
        let offs_token_e_u64_b: Tile<u64, { [128, 128] }> = offs_token_e_u64.broadcast(shape![128, 128]);
        let c_ptr_dim0: i32 = get_shape_dim(c_ptr.shape(), 0i32);
        let c_ptr_dim0_t: Tile<i32, { [] }> = scalar_to_tile(c_ptr_dim0);
        let c_ptr_dim0_t_u64: Tile<u64, { [] }> = exti(c_ptr_dim0_t);
        let c_ptr_dim0_t_u64_r: Tile<u64, { [1, 1] }> = c_ptr_dim0_t_u64.reshape(shape![1, 1]);
        let c_ptr_dim0_t_u64_b: Tile<u64, { [128, 128] }> = c_ptr_dim0_t_u64_r.broadcast(shape![128, 128]);
        let in0_4: Tile<bool, { [128, 128] }> = lt_tile(offs_token_e_u64_b, c_ptr_dim0_t_u64_b);
        let c_ptr_stride0: i32 = get_shape_dim(tensor_strides_2(c_ptr), 0i32);
        let c_ptr_stride0_t: Tile<i32, { [] }> = scalar_to_tile(c_ptr_stride0);
        let c_ptr_stride0_t_u64: Tile<u64, { [] }> = exti(c_ptr_stride0_t);
        let c_ptr_stride0_t_u64_r: Tile<u64, { [1, 1] }> = c_ptr_stride0_t_u64.reshape(shape![1, 1]);
        let c_ptr_stride0_t_u64_b: Tile<u64, { [128, 128] }> = c_ptr_stride0_t_u64_r.broadcast(shape![128, 128]);
        let off0_4: Tile<u64, { [128, 128] }> = offs_token_e_u64_b * c_ptr_stride0_t_u64_b;
        let offs_cn_e_u64: Tile<u64, { [1, 128] }> = exti(offs_cn_e);
        let offs_cn_e_u64_b: Tile<u64, { [128, 128] }> = offs_cn_e_u64.broadcast(shape![128, 128]);
        let c_ptr_dim1: i32 = get_shape_dim(c_ptr.shape(), 1i32);
        let c_ptr_dim1_t: Tile<i32, { [] }> = scalar_to_tile(c_ptr_dim1);
        let c_ptr_dim1_t_u64: Tile<u64, { [] }> = exti(c_ptr_dim1_t);
        let c_ptr_dim1_t_u64_r: Tile<u64, { [1, 1] }> = c_ptr_dim1_t_u64.reshape(shape![1, 1]);
        let c_ptr_dim1_t_u64_b: Tile<u64, { [128, 128] }> = c_ptr_dim1_t_u64_r.broadcast(shape![128, 128]);
        let in1: Tile<bool, { [128, 128] }> = lt_tile(offs_cn_e_u64_b, c_ptr_dim1_t_u64_b);
        let inside: Tile<bool, { [128, 128] }> = andi(in0_4, in1);
        let off1: Tile<u64, { [128, 128] }> = offs_cn_e_u64_b * c_ptr_stride1;
        let offset: Tile<u64, { [128, 128] }> = off0_4 + off1;
        let c_ptr_base: PointerTile<*mut bf16, { [] }> = get_tensor_base(c_ptr);
        let c_ptr_base_r: PointerTile<*mut bf16, { [1, 1] }> = c_ptr_base.reshape(shape![1, 1]);
        let c_ptr_base_b: PointerTile<*mut bf16, { [128, 128] }> = c_ptr_base_r.broadcast(shape![128, 128]);
        let c_ptr_ptrs: PointerTile<*mut bf16, { [128, 128] }> = addptr_tile(c_ptr_base_b, offset);
        c_ptr_token = unsafe {
            store_ptr_tko(c_ptr_ptrs, accumulator_2, ordering::Weak, None::<scope::TileBlock>, Some(inside), Some(c_ptr_token), Latency::<0>)
        };
    }
}
