//! Port of tilegym.ops.cutile.moe:_fused_moe_kernel: each block maps to (bid_m, bid_n) in
//! groups of GROUP_SIZE_M rows of blocks; a block whose first sorted row is below
//! num_tokens_post_padded gathers its TILE_SIZE_M sorted (token, expert) ids (padding 0),
//! loads its expert's id, and runs a K loop: a gather of its tokens' A rows (one flat index
//! per element, padding 0) and a TMA load of the expert's B tile through a transposed view
//! (dim_map 0, 2, 1), mma onto a float32 accumulator. The down GEMM (MUL_ROUTED_WEIGHT)
//! multiplies each row by its routing weight; the tile is scattered to its rows of C with
//! both dimensions bounds-checked. Every array is a `&Tensor`: the gathers and the scatter
//! address memory through its base pointer, extents and strides, as cuTile Python's do.
#![allow(clippy::too_many_arguments)]
#[cutile::module]
pub mod moe_fused_port {
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
    /// `cuda_tile.constant` of an i1 from an integer literal: cutile 0.4's `constant(false, ..)`
    /// writes `<i1: true>` (it encodes the literal's text "false" as non-zero).
    #[cuda_tile::op(name = "cuda_tile.constant", since = "V13_2", params = [], attribute_params = ["value:dense"])]
    #[cuda_tile::variadic_op(N = 6)]
    fn bool_splat<const S: [i32; N]>(value: i32, shape: Shape<S>) -> Tile<bool, S> {
        unreachable!()
    }

    #[cuda_tile::compiler_op(name = "return_type_meta_field", type_meta_field = "strides")]
    fn tensor_strides_2<T: ElementType, const S: [i32; 2]>(
        tensor: &Tensor<T, S>,
    ) -> Shape<'static, { [-1] }> {
        unreachable!()
    }

    #[cutile::entry(unchecked_accesses = true)]
    pub unsafe fn moe_fused<E: ElementType, const N: i32, const K: i32, const GROUP_N: i32, const GROUP_K: i32, const TILE_SIZE_M: i32, const TILE_SIZE_N: i32, const TILE_SIZE_K: i32, const GROUP_SIZE_M: i32, const MUL_ROUTED_WEIGHT: i32, const TOP_K: i32, const USE_FP8_W8A8: i32, const USE_INT8_W8A16: i32, const EVEN_KS: i32, const A_STRIDE_1: i32>(
        a_ptr: &Tensor<E, { [-1] }>,
        b_ptr: &Tensor<E, { [-1, -1, -1] }>,
        c_ptr: &Tensor<E, { [-1, -1] }>,
        a_scale_ptr: &Tensor<E, { [-1] }>,
        b_scale_ptr: &Tensor<E, { [-1] }>,
        topk_weights_ptr: &Tensor<E, { [-1] }>,
        sorted_token_ids_ptr: &Tensor<i32, { [-1] }>,
        expert_ids_ptr: &Tensor<i32, { [-1] }>,
        num_tokens_post_padded_ptr: &Tensor<i32, { [-1] }>,
        EM: i32,
        num_valid_tokens: i32,
    ) {
        let c_token: Token = c_ptr.token();
        // unit strides (the JIT's stride-1 specialization, a constant 1 in every offset)
        let ntpp_stride: Tile<u64, { [] }> = constant(1u64, shape![]);
        let ids_stride: Tile<u64, { [TILE_SIZE_M] }> = constant(1u64, shape![TILE_SIZE_M]);
        let ids_pad: Tile<i32, { [TILE_SIZE_M] }> = constant(0i32, shape![TILE_SIZE_M]);
        let top_k: Tile<i32, { [] }> = scalar_to_tile(TOP_K);
        let top_k: Tile<i32, { [TILE_SIZE_M] }> = top_k.reshape(shape![1]).broadcast(shape![TILE_SIZE_M]);
        let a_stride_1: Tile<i32, { [] }> = scalar_to_tile(A_STRIDE_1);
        let a_stride_1: Tile<i32, { [TILE_SIZE_M, 1] }> = a_stride_1.reshape(shape![1, 1]).broadcast(shape![TILE_SIZE_M, 1]);
        let a_stride: Tile<u64, { [TILE_SIZE_M, TILE_SIZE_K] }> = constant(1u64, shape![TILE_SIZE_M, TILE_SIZE_K]);
        let c_stride_1: Tile<u64, { [TILE_SIZE_M, TILE_SIZE_N] }> = constant(1u64, shape![TILE_SIZE_M, TILE_SIZE_N]);
        // the block's (bid_m, bid_n): Python's floor division and modulo
        let bid: i32 = get_tile_block_id().0;
        let num_bid_m: i32 = ceil_div(EM, TILE_SIZE_M);
        let num_bid_in_group: i32 = GROUP_SIZE_M * ceil_div(N, TILE_SIZE_N);
        let bid_t: Tile<i32, { [] }> = scalar_to_tile(bid);
        let in_group: Tile<i32, { [] }> = scalar_to_tile(num_bid_in_group);
        let group: Tile<i32, { [] }> = scalar_to_tile(GROUP_SIZE_M);
        let zero: Tile<i32, { [] }> = constant(0i32, shape![]);
        let group_id: Tile<i32, { [] }> = divi(bid_t, in_group, rounding::NegativeInf);
        let first_bid_m: Tile<i32, { [] }> = group_id * group;
        let num_bid_m_t: Tile<i32, { [] }> = scalar_to_tile(num_bid_m);
        let group_size_m: Tile<i32, { [] }> = mini(num_bid_m_t - first_bid_m, group);
        // bid % num_bid_in_group
        let r: Tile<i32, { [] }> = remi(bid_t, in_group);
        // num_bid_in_group < 0 is false (a positive constant): cuTile Python folds it to an i1
        // constant, defined where it is first used (after the cmpi), and reuses it below
        let fix: Tile<bool, { [] }> = andi(xori(lt_tile(r, zero), bool_splat(0, shape![])), ne_tile(r, zero));
        let in_group_bid: Tile<i32, { [] }> = select(fix, r + in_group, r);
        // (bid % num_bid_in_group) % group_size_m
        let r2: Tile<i32, { [] }> = remi(in_group_bid, group_size_m);
        let fix2: Tile<bool, { [] }> = andi(xori(lt_tile(r2, zero), lt_tile(group_size_m, zero)), ne_tile(r2, zero));
        let bid_m: Tile<i32, { [] }> = first_bid_m + select(fix2, r2 + group_size_m, r2);
        // bid % num_bid_in_group, again (cuTile Python does not reuse it)
        let r3: Tile<i32, { [] }> = remi(bid_t, in_group);
        let fix3: Tile<bool, { [] }> = andi(xori(lt_tile(r3, zero), bool_splat(0, shape![])), ne_tile(r3, zero));
        let bid_n: Tile<i32, { [] }> = divi(select(fix3, r3 + in_group, r3), group_size_m, rounding::NegativeInf);
        // num_tokens_post_padded = ct.gather(num_tokens_post_padded_ptr, 0, padding_value=0)
        let i0: Tile<u64, { [] }> = constant(0u64, shape![]);
        let ntpp_len: i32 = get_shape_dim(num_tokens_post_padded_ptr.shape(), 0i32);
        let ntpp_len: Tile<i32, { [] }> = scalar_to_tile(ntpp_len);
        let ntpp_len: Tile<u64, { [] }> = exti(ntpp_len);
        let ntpp_in: Tile<bool, { [] }> = lt_tile(i0, ntpp_len);
        let ntpp_base: PointerTile<*mut i32, { [] }> = get_tensor_base(num_tokens_post_padded_ptr);
        let ntpp_ptr: PointerTile<*mut i32, { [] }> = addptr_tile(ntpp_base, i0 * ntpp_stride);
        // element 0 is the base: as aligned as cuTile assumes the base (port.toml div_by)
        let ntpp_ptr: PointerTile<*mut i32, { [] }> = unsafe { assume_div_by::<_, 16>(ntpp_ptr) };
        let ntpp_pad: Tile<i32, { [] }> = constant(0i32, shape![]);
        let num_tokens_post_padded_ptr_token: Token = num_tokens_post_padded_ptr.token();
        let (num_tokens_post_padded, _): (Tile<i32, { [] }>, Token) = unsafe {
            load_ptr_padded_0(ntpp_ptr, ordering::Weak, None::<scope::TileBlock>, Some(ntpp_in), Some(ntpp_pad),
                              Some(num_tokens_post_padded_ptr_token), Latency::<0>)
        };
        let tile_m: Tile<i32, { [] }> = scalar_to_tile(TILE_SIZE_M);
        let first_row: Tile<i32, { [] }> = bid_m * tile_m;
        // tile_to_scalar has no bool result in cutile 0.4: compare the i32 scalars (one cmpi)
        let first_row: i32 = tile_to_scalar(first_row);
        let num_tokens_post_padded: i32 = tile_to_scalar(num_tokens_post_padded);
        let active: bool = first_row < num_tokens_post_padded;
        if active {
            // offs_token = ct.gather(sorted_token_ids_ptr, bid_m * TILE_SIZE_M + arange, padding_value=0)
            let row0: Tile<i32, { [] }> = bid_m * tile_m;
            let rows: Tile<i32, { [TILE_SIZE_M] }> = iota(shape![TILE_SIZE_M]);
            let offs_token_id: Tile<i32, { [TILE_SIZE_M] }> = row0.reshape(shape![1]).broadcast(shape![TILE_SIZE_M]) + rows;
            let offs_token_id: Tile<u64, { [TILE_SIZE_M] }> = exti(offs_token_id);
            let ids_len: i32 = get_shape_dim(sorted_token_ids_ptr.shape(), 0i32);
            let ids_len: Tile<i32, { [] }> = scalar_to_tile(ids_len);
            let ids_len: Tile<u64, { [] }> = exti(ids_len);
            let ids_in: Tile<bool, { [TILE_SIZE_M] }> = lt_tile(offs_token_id, ids_len.reshape(shape![1]).broadcast(shape![TILE_SIZE_M]));
            let ids_base: PointerTile<*mut i32, { [] }> = get_tensor_base(sorted_token_ids_ptr);
            let ids_base_r: PointerTile<*mut i32, { [1] }> = ids_base.reshape(shape![1]);
            let ids_base: PointerTile<*mut i32, { [TILE_SIZE_M] }> = ids_base_r.broadcast(shape![TILE_SIZE_M]);
            let ids_ptrs: PointerTile<*mut i32, { [TILE_SIZE_M] }> = addptr_tile(ids_base, offs_token_id * ids_stride);
            let sorted_token_ids_ptr_token: Token = sorted_token_ids_ptr.token();
            let (offs_token, _): (Tile<i32, { [TILE_SIZE_M] }>, Token) = unsafe {
                load_ptr_padded_1(ids_ptrs, ordering::Weak, None::<scope::TileBlock>, Some(ids_in), Some(ids_pad),
                                  Some(sorted_token_ids_ptr_token), Latency::<0>)
            };
            // off_experts = ct.load(expert_ids_ptr, index=(bid_m,), shape=(1,)).item()
            let m: i32 = tile_to_scalar(bid_m);
            let experts: Partition<i32, { [1] }> = unsafe {
                make_partition_view(expert_ids_ptr, shape![1], padding::None, dim_map::Identity, expert_ids_ptr.token())
            };
            let expert: Tile<i32, { [1] }> = experts.load([m]);
            let expert: Tile<i32, { [] }> = expert.reshape(shape![]);
            let row_indices: Tile<i32, { [TILE_SIZE_M] }> = divi(offs_token, top_k, rounding::NegativeInf);
            let a_row_offset: Tile<i32, { [TILE_SIZE_M, 1] }> = row_indices.reshape(shape![TILE_SIZE_M, 1]) * a_stride_1;
            let mut accumulator: Tile<f32, { [TILE_SIZE_M, TILE_SIZE_N] }> = constant(0.0f32, shape![TILE_SIZE_M, TILE_SIZE_N]);
            let cols: Tile<i32, { [TILE_SIZE_K] }> = iota(shape![TILE_SIZE_K]);
            let a_row_offset: Tile<i32, { [TILE_SIZE_M, TILE_SIZE_K] }> = a_row_offset.broadcast(shape![TILE_SIZE_M, TILE_SIZE_K]);
            let a_len: i32 = get_shape_dim(a_ptr.shape(), 0i32);
            let a_len: Tile<i32, { [] }> = scalar_to_tile(a_len);
            let a_len: Tile<u64, { [] }> = exti(a_len);
            let a_len: Tile<u64, { [TILE_SIZE_M, TILE_SIZE_K] }> = a_len.reshape(shape![1, 1]).broadcast(shape![TILE_SIZE_M, TILE_SIZE_K]);
            let a_base: PointerTile<*mut E, { [] }> = get_tensor_base(a_ptr);
            let a_base_r: PointerTile<*mut E, { [1, 1] }> = a_base.reshape(shape![1, 1]);
            let a_base: PointerTile<*mut E, { [TILE_SIZE_M, TILE_SIZE_K] }> = a_base_r.broadcast(shape![TILE_SIZE_M, TILE_SIZE_K]);
            let a_pad: Tile<E, { [TILE_SIZE_M, TILE_SIZE_K] }> = constant(E::ZERO, shape![TILE_SIZE_M, TILE_SIZE_K]);
            let e: i32 = tile_to_scalar(expert);
            let n: i32 = tile_to_scalar(bid_n);
            // B [E, N, K] read as (1, TILE_SIZE_K, TILE_SIZE_N) tiles: order=(0, 2, 1)
            let b_tiles: Partition<E, { [1, TILE_SIZE_K, TILE_SIZE_N] }> = unsafe {
                make_partition_view(b_ptr, shape![1, TILE_SIZE_K, TILE_SIZE_N], padding::None, const_array![0, 2, 1], b_ptr.token())
            };
            for k in 0i32..ceil_div(K, TILE_SIZE_K) {
                let col0: i32 = k * TILE_SIZE_K;
                let col0: Tile<i32, { [] }> = scalar_to_tile(col0);
                let col_indices: Tile<i32, { [TILE_SIZE_K] }> = col0.reshape(shape![1]).broadcast(shape![TILE_SIZE_K]) + cols;
                let col_indices: Tile<i32, { [TILE_SIZE_M, TILE_SIZE_K] }> =
                    col_indices.reshape(shape![1, TILE_SIZE_K]).broadcast(shape![TILE_SIZE_M, TILE_SIZE_K]);
                let a_indices: Tile<u64, { [TILE_SIZE_M, TILE_SIZE_K] }> = exti(a_row_offset + col_indices);
                let a_in: Tile<bool, { [TILE_SIZE_M, TILE_SIZE_K] }> = lt_tile(a_indices, a_len);
                let a_ptrs: PointerTile<*mut E, { [TILE_SIZE_M, TILE_SIZE_K] }> = addptr_tile(a_base, a_indices * a_stride);
                let a_ptr_token: Token = a_ptr.token();
                let (a, _): (Tile<E, { [TILE_SIZE_M, TILE_SIZE_K] }>, Token) = unsafe {
                    load_ptr_padded_2(a_ptrs, ordering::Weak, None::<scope::TileBlock>, Some(a_in), Some(a_pad),
                                      Some(a_ptr_token), Latency::<0>)
                };
                let b: Tile<E, { [1, TILE_SIZE_K, TILE_SIZE_N] }> = b_tiles.load([e, k, n]);
                let b: Tile<E, { [TILE_SIZE_K, TILE_SIZE_N] }> = b.reshape(shape![TILE_SIZE_K, TILE_SIZE_N]);
                accumulator = mma(a, b, accumulator);
            }
            if MUL_ROUTED_WEIGHT != 0 {
                // moe_weight = ct.gather(topk_weights_ptr, offs_token, padding_value=0)[:, None]
                let w_index: Tile<u64, { [TILE_SIZE_M] }> = exti(offs_token);
                let w_len: i32 = get_shape_dim(topk_weights_ptr.shape(), 0i32);
                let w_len: Tile<i32, { [] }> = scalar_to_tile(w_len);
                let w_len: Tile<u64, { [] }> = exti(w_len);
                let w_in: Tile<bool, { [TILE_SIZE_M] }> = lt_tile(w_index, w_len.reshape(shape![1]).broadcast(shape![TILE_SIZE_M]));
                let w_base: PointerTile<*mut E, { [] }> = get_tensor_base(topk_weights_ptr);
                let w_base_r: PointerTile<*mut E, { [1] }> = w_base.reshape(shape![1]);
            let w_base: PointerTile<*mut E, { [TILE_SIZE_M] }> = w_base_r.broadcast(shape![TILE_SIZE_M]);
                let w_ptrs: PointerTile<*mut E, { [TILE_SIZE_M] }> = addptr_tile(w_base, w_index * ids_stride);
                let w_pad: Tile<E, { [TILE_SIZE_M] }> = constant(E::ZERO, shape![TILE_SIZE_M]);
                let topk_weights_ptr_token: Token = topk_weights_ptr.token();
                let (moe_weight, _): (Tile<E, { [TILE_SIZE_M] }>, Token) = unsafe {
                    load_ptr_padded_1(w_ptrs, ordering::Weak, None::<scope::TileBlock>, Some(w_in), Some(w_pad),
                                      Some(topk_weights_ptr_token), Latency::<0>)
                };
                let moe_weight: Tile<E, { [TILE_SIZE_M, 1] }> = moe_weight.reshape(shape![TILE_SIZE_M, 1]);
                let moe_weight: Tile<f32, { [TILE_SIZE_M, 1] }> = convert_tile(moe_weight);
                accumulator = accumulator * moe_weight.broadcast(shape![TILE_SIZE_M, TILE_SIZE_N]);
            }
            // ct.scatter(c_ptr, (offs_token[:, None], offs_cn[None, :]), acc, check_bounds=True)
            let col0: Tile<i32, { [] }> = scalar_to_tile(TILE_SIZE_N);
            let col0: Tile<i32, { [] }> = bid_n * col0;
            let cn: Tile<i32, { [TILE_SIZE_N] }> = iota(shape![TILE_SIZE_N]);
            let offs_cn: Tile<i32, { [TILE_SIZE_N] }> = col0.reshape(shape![1]).broadcast(shape![TILE_SIZE_N]) + cn;
            let out: Tile<E, { [TILE_SIZE_M, TILE_SIZE_N] }> = convert_tile(accumulator);
            let rows_c: Tile<i32, { [TILE_SIZE_M, 1] }> = offs_token.reshape(shape![TILE_SIZE_M, 1]);
            let cols_c: Tile<i32, { [1, TILE_SIZE_N] }> = offs_cn.reshape(shape![1, TILE_SIZE_N]);
            let rows_c: Tile<u64, { [TILE_SIZE_M, 1] }> = exti(rows_c);
            let rows_c: Tile<u64, { [TILE_SIZE_M, TILE_SIZE_N] }> = rows_c.broadcast(shape![TILE_SIZE_M, TILE_SIZE_N]);
            let c_rows: i32 = get_shape_dim(c_ptr.shape(), 0i32);
            let c_rows: Tile<i32, { [] }> = scalar_to_tile(c_rows);
            let c_rows: Tile<u64, { [] }> = exti(c_rows);
            let row_in: Tile<bool, { [TILE_SIZE_M, TILE_SIZE_N] }> =
                lt_tile(rows_c, c_rows.reshape(shape![1, 1]).broadcast(shape![TILE_SIZE_M, TILE_SIZE_N]));
            let c_stride_0: i32 = get_shape_dim(tensor_strides_2(c_ptr), 0i32);
            let c_stride_0: Tile<i32, { [] }> = scalar_to_tile(c_stride_0);
            let c_stride_0: Tile<u64, { [] }> = exti(c_stride_0);
            let row_off: Tile<u64, { [TILE_SIZE_M, TILE_SIZE_N] }> =
                rows_c * c_stride_0.reshape(shape![1, 1]).broadcast(shape![TILE_SIZE_M, TILE_SIZE_N]);
            let cols_c: Tile<u64, { [1, TILE_SIZE_N] }> = exti(cols_c);
            let cols_c: Tile<u64, { [TILE_SIZE_M, TILE_SIZE_N] }> = cols_c.broadcast(shape![TILE_SIZE_M, TILE_SIZE_N]);
            let c_cols: i32 = get_shape_dim(c_ptr.shape(), 1i32);
            let c_cols: Tile<i32, { [] }> = scalar_to_tile(c_cols);
            let c_cols: Tile<u64, { [] }> = exti(c_cols);
            let col_in: Tile<bool, { [TILE_SIZE_M, TILE_SIZE_N] }> =
                lt_tile(cols_c, c_cols.reshape(shape![1, 1]).broadcast(shape![TILE_SIZE_M, TILE_SIZE_N]));
            let inside: Tile<bool, { [TILE_SIZE_M, TILE_SIZE_N] }> = andi(row_in, col_in);
            let offset: Tile<u64, { [TILE_SIZE_M, TILE_SIZE_N] }> = row_off + cols_c * c_stride_1;
            let c_base: PointerTile<*mut E, { [] }> = get_tensor_base(c_ptr);
            let c_base_r: PointerTile<*mut E, { [1, 1] }> = c_base.reshape(shape![1, 1]);
            let c_base: PointerTile<*mut E, { [TILE_SIZE_M, TILE_SIZE_N] }> = c_base_r.broadcast(shape![TILE_SIZE_M, TILE_SIZE_N]);
            let c_ptrs: PointerTile<*mut E, { [TILE_SIZE_M, TILE_SIZE_N] }> = addptr_tile(c_base, offset);
            // the store's token is not yielded out of the if (cuTile Python's if has no result)
            let _stored: Token = unsafe {
                store_ptr_tko(c_ptrs, out, ordering::Weak, None::<scope::TileBlock>, Some(inside), Some(c_token), Latency::<0>)
            };
        }
    }
}
