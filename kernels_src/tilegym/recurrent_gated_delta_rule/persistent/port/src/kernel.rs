//! Port of tilegym.ops.cutile.recurrent_gated_delta_rule:_recurrent_gated_delta_rule_fwd_kernel_persistent:
//! the standard kernel's work in a persistent grid: each block strides over the (batch x value
//! head, BLOCK_V columns) work items; per item it keeps its K x BLOCK_V slice of the state in
//! registers and walks the T tokens. The output and final-state stores thread a token through
//! both loops, as cuTile Python orders stores in a loop whose iterations may write the same
//! tensor (store_view_raw with the token, join_tokens). Per token: per token q and k (L2-normalized when asked),
//! v, and the scalars g and beta gathered without bounds checks (Gate and Beta come in as
//! cuTile Python's entry takes them: pointer, extents, strides). S <- S * exp(g); the delta
//! beta * (v - S^T k) is added along k; o = S^T q goes out per token, the state at the end.
//! The TMA toggles are both on (the launcher's autotune-off setting): plain TMA loads.
#[cutile::module]
pub mod gdr_persistent_port {
    use cutile::core::*;

    /// `a % b` as Python computes it for a runtime b (cuTile Python's expansion).
    fn floor_mod(a: i32, b: i32) -> i32 {
        let b_t: Tile<i32, { [] }> = scalar_to_tile(b);
        let r: Tile<i32, { [] }> = remi(scalar_to_tile(a), b_t);
        let zero: Tile<i32, { [] }> = constant(0i32, const_shape![]);
        let negative: Tile<bool, { [] }> = cmpi(r, zero, predicate::LessThan);
        let divisor_negative: Tile<bool, { [] }> = cmpi(b_t, zero, predicate::LessThan);
        let signs_differ: Tile<bool, { [] }> = xori(negative, divisor_negative);
        let nonzero: Tile<bool, { [] }> = cmpi(r, zero, predicate::NotEqual);
        let fix: Tile<bool, { [] }> = andi(signs_differ, nonzero);
        let moved: Tile<i32, { [] }> = b_t + r;
        tile_to_scalar(select(fix, moved, r))
    }

    fn floor_div(a: i32, b: i32) -> i32 {
        let q: Tile<i32, { [] }> = divi(scalar_to_tile(a), scalar_to_tile(b), rounding::NegativeInf);
        tile_to_scalar(q)
    }

    fn wide(v: i32) -> Tile<i64, { [] }> {
        let t: Tile<i32, { [] }> = scalar_to_tile(v);
        exti(t)
    }

    /// cutile's load_ptr_tko takes its padding as a scalar, which a generic element type
    /// cannot spell in cutile 0.4; the same Tile IR op, declared with a padding tile.
    #[cuda_tile::op(name = "cuda_tile.load_ptr_tko", since = "V13_2", params = ["source"])]
    unsafe fn load_ptr_padded<T: ElementType, P: PointerTo<T>, O: ordering::LoadMode, Sc: scope::Mode, const CYCLES: i32>(
        source: PointerTile<P, { [] }>,
        memory_ordering: O,
        memory_scope: Option<Sc>,
        mask: Option<Tile<bool, { [] }>>,
        padding_value: Option<Tile<T, { [] }>>,
        token: Option<Token>,
        latency: Latency<CYCLES>,
    ) -> (Tile<T, { [] }>, Token) {
        unreachable!()
    }

    #[cutile::entry(unchecked_accesses = true, optimization_hints = (sm_90 = (occupancy = 2,), sm_100 = (occupancy = 2,)))]
    pub unsafe fn gated_delta_rule_persistent<
        E: ElementType,
        const HAS_INITIAL_STATE: i32,
        const OUTPUT_FINAL_STATE: i32,
        const USE_QK_L2NORM: i32,
        const BLOCK_K: i32,
        const BLOCK_V: i32,
        const SMALL_TILE_USE_TMA: i32,
        const LARGE_TILE_USE_TMA: i32,
        const T: i32,
    >(
        Query: &Tensor<E, { [-1, -1, -1, -1] }>,
        Key: &Tensor<E, { [-1, -1, -1, -1] }>,
        Value: &Tensor<E, { [-1, -1, -1, -1] }>,
        Gate: *mut f32, Gate_shape0: i32, Gate_shape1: i32, Gate_shape2: i32, Gate_stride0: i32, Gate_stride1: i32, Gate_stride2: i32,
        Beta: *mut E, Beta_shape0: i32, Beta_shape1: i32, Beta_shape2: i32, Beta_stride0: i32, Beta_stride1: i32, Beta_stride2: i32,
        Output: &Tensor<E, { [-1, -1, -1, -1] }>,
        StateIn: &Tensor<f32, { [-1, -1, -1, -1] }>,
        StateOut: &Tensor<f32, { [-1, -1, -1, -1] }>,
        scale: f32,
    ) {
        let one: i32 = 1i32;     // the loop step and the unit stride, first as in cuTile Python
        let unit: Tile<i64, { [] }> = constant(1i64, const_shape![]);
        let Gate_stride0 = unsafe { assume_bounds_lower::<_, 0>(Gate_stride0) };
        let Gate_stride1 = unsafe { assume_bounds_lower::<_, 0>(Gate_stride1) };
        let Beta_stride0 = unsafe { assume_bounds_lower::<_, 0>(Beta_stride0) };
        let Beta_stride1 = unsafe { assume_bounds_lower::<_, 0>(Beta_stride1) };
        // no bounds checks: the extents and the unit strides go unread
        let _ = (one, Gate_shape0, Gate_shape1, Gate_shape2, Gate_stride2, Beta_shape0, Beta_shape1, Beta_shape2, Beta_stride2,
                 SMALL_TILE_USE_TMA, LARGE_TILE_USE_TMA);
        let entry: Token = new_token_unordered();
        let idx_cga: i32 = get_tile_block_id().0;
        let num_cgas: i32 = get_num_tile_blocks().0;
        let b: i32 = get_shape_dim(Query.shape(), 0i32);
        let h: i32 = get_shape_dim(Query.shape(), 2i32);
        let hv: i32 = get_shape_dim(Value.shape(), 2i32);
        let v_dim: Tile<i32, { [] }> = scalar_to_tile(get_shape_dim(Value.shape(), 3i32));
        let num_v_blocks: Tile<i32, { [] }> = divi(v_dim, scalar_to_tile(BLOCK_V), rounding::PositiveInf);
        let num_v_blocks: i32 = tile_to_scalar(num_v_blocks);
        let num_blocks: i32 = b * hv * num_v_blocks;
        let h_per_group: i32 = floor_div(hv, h);
        let zero: i32 = 0i32;
        let state_view: Partition<f32, { [1, 1, BLOCK_K, BLOCK_V] }> = unsafe {
            make_partition_view(StateIn, const_shape![1, 1, BLOCK_K, BLOCK_V], padding::Zero, dim_map::Identity,
                                StateIn.token())
        };
        let q_view: Partition<E, { [1, 1, 1, BLOCK_K] }> = unsafe {
            make_partition_view(Query, const_shape![1, 1, 1, BLOCK_K], padding::Zero, dim_map::Identity, Query.token())
        };
        let k_view: Partition<E, { [1, 1, 1, BLOCK_K] }> = unsafe {
            make_partition_view(Key, const_shape![1, 1, 1, BLOCK_K], padding::Zero, dim_map::Identity, Key.token())
        };
        let v_view: Partition<E, { [1, 1, 1, BLOCK_V] }> = unsafe {
            make_partition_view(Value, const_shape![1, 1, 1, BLOCK_V], padding::Zero, dim_map::Identity, Value.token())
        };
        let out_view: PartitionMut<E, { [1, 1, 1, BLOCK_V] }> =
            unsafe { Output.partition_full_mut(const_shape![1, 1, 1, BLOCK_V]) };
        let state_out: PartitionMut<f32, { [1, 1, BLOCK_K, BLOCK_V] }> =
            unsafe { StateOut.partition_full_mut(const_shape![1, 1, BLOCK_K, BLOCK_V]) };
        // Two copies of the persistent loop: with a final state its store threads a token of
        // its own through the loop (cutile carries every mutable variable a loop body assigns,
        // so one loop would carry that token in both cases; cuTile Python carries it only here)
        if OUTPUT_FINAL_STATE == 1i32 {
            let mut token_out: Token = entry;
            let mut token_state: Token = entry;
            for idx_block in (idx_cga..num_blocks).step_by(num_cgas as usize) {
                let idx_bhv: i32 = floor_div(idx_block, num_v_blocks);
                let idx_v: i32 = floor_mod(idx_block, num_v_blocks);
                let idx_b: i32 = floor_div(idx_bhv, hv);
                let idx_hv: i32 = floor_mod(idx_bhv, hv);
                let idx_h: i32 = floor_div(idx_hv, h_per_group);
                let mut state: Tile<f32, { [BLOCK_K, BLOCK_V] }> = constant(0.0f32, const_shape![BLOCK_K, BLOCK_V]);
                if HAS_INITIAL_STATE == 1i32 {
                    let s: Tile<f32, { [1, 1, BLOCK_K, BLOCK_V] }> = state_view.load([idx_b, idx_hv, zero, idx_v]);
                    state = s.reshape(const_shape![BLOCK_K, BLOCK_V]);
                }
                let mut token_inner: Token = token_out;
                for idx_t in 0i32..T {
                    let q: Tile<E, { [1, 1, 1, BLOCK_K] }> = q_view.load([idx_b, idx_t, idx_h, zero]);
                    let q: Tile<E, { [BLOCK_K] }> = q.reshape(const_shape![BLOCK_K]);
                    let mut q: Tile<f32, { [BLOCK_K] }> = convert_tile(q);
                    let k: Tile<E, { [1, 1, 1, BLOCK_K] }> = k_view.load([idx_b, idx_t, idx_h, zero]);
                    let k: Tile<E, { [BLOCK_K] }> = k.reshape(const_shape![BLOCK_K]);
                    let mut k: Tile<f32, { [BLOCK_K] }> = convert_tile(k);
                    if USE_QK_L2NORM == 1i32 {
                        let eps: Tile<f32, { [] }> = constant(1e-6f32, const_shape![]);
                        let qq: Tile<f32, { [] }> = reduce_sum(q * q, 0i32);
                        let qn: Tile<f32, { [] }> = rsqrt(qq + eps, ftz::Disabled);
                        q = q * qn.reshape(const_shape![1]).broadcast(const_shape![BLOCK_K]);
                        let kk: Tile<f32, { [] }> = reduce_sum(k * k, 0i32);
                        let kn: Tile<f32, { [] }> = rsqrt(kk + eps, ftz::Disabled);
                        k = k * kn.reshape(const_shape![1]).broadcast(const_shape![BLOCK_K]);
                    }
                    let sc: Tile<f32, { [] }> = scalar_to_tile(scale);
                    let q: Tile<f32, { [BLOCK_K] }> = q * sc.reshape(const_shape![1]).broadcast(const_shape![BLOCK_K]);
                    let v: Tile<E, { [1, 1, 1, BLOCK_V] }> = v_view.load([idx_b, idx_t, idx_hv, idx_v]);
                    let v: Tile<E, { [BLOCK_V] }> = v.reshape(const_shape![BLOCK_V]);
                    let v: Tile<f32, { [BLOCK_V] }> = convert_tile(v);

                    // g[idx_b, idx_t, idx_hv] and beta[..]: 0-d gathers, no bounds checks
                    let g_off: Tile<i64, { [] }> = wide(idx_b) * wide(Gate_stride0);
                    let g_off: Tile<i64, { [] }> = g_off + wide(Gate_stride1) * wide(idx_t);
                    let g_off: Tile<i64, { [] }> = unit * wide(idx_hv) + g_off;
                    let g_ptr: PointerTile<*mut f32, { [] }> = pointer_to_tile(Gate);
                    let g_ptr: PointerTile<*mut f32, { [] }> = g_ptr.offset_tile(g_off);
                    let g_ptr: PointerTile<*mut f32, { [] }> = unsafe { assume_div_by::<_, 4>(g_ptr) };
                    let g_pad: Tile<f32, { [] }> = constant(0.0f32, const_shape![]);
                    let (gate, _t): (Tile<f32, { [] }>, Token) = unsafe {
                        load_ptr_padded(g_ptr, ordering::Weak, None::<scope::TileBlock>, None, Some(g_pad), Some(entry), Latency::<0>)
                    };
                    let b_off: Tile<i64, { [] }> = wide(idx_b) * wide(Beta_stride0);
                    let b_off: Tile<i64, { [] }> = b_off + wide(Beta_stride1) * wide(idx_t);
                    let b_off: Tile<i64, { [] }> = unit * wide(idx_hv) + b_off;
                    let b_ptr: PointerTile<*mut E, { [] }> = pointer_to_tile(Beta);
                    let b_ptr: PointerTile<*mut E, { [] }> = b_ptr.offset_tile(b_off);
                    let b_ptr: PointerTile<*mut E, { [] }> = unsafe { assume_div_by::<_, 2>(b_ptr) };
                    let b_pad: Tile<E, { [] }> = constant(E::ZERO, const_shape![]);
                    let (beta, _t): (Tile<E, { [] }>, Token) = unsafe {
                        load_ptr_padded(b_ptr, ordering::Weak, None::<scope::TileBlock>, None, Some(b_pad), Some(entry), Latency::<0>)
                    };
                    let beta: Tile<f32, { [] }> = convert_tile(beta);

                    let decay: Tile<f32, { [] }> = exp(gate);
                    state = state * decay.reshape(const_shape![1, 1]).broadcast(const_shape![BLOCK_K, BLOCK_V]);
                    let k_col: Tile<f32, { [BLOCK_K, 1] }> = k.reshape(const_shape![BLOCK_K, 1]);
                    let kv_mem: Tile<f32, { [BLOCK_V] }> =
                        reduce_sum(state * k_col.broadcast(const_shape![BLOCK_K, BLOCK_V]), 0i32);
                    // (a reduction's result types concretely in cutile: its arithmetic as calls)
                    let diff: Tile<f32, { [BLOCK_V] }> = subf(v, kv_mem, rounding::NearestEven, ftz::Disabled);
                    let delta: Tile<f32, { [BLOCK_V] }> = diff * beta.reshape(const_shape![1]).broadcast(const_shape![BLOCK_V]);
                    let delta_row: Tile<f32, { [1, BLOCK_V] }> = delta.reshape(const_shape![1, BLOCK_V]);
                    state = state + k_col.broadcast(const_shape![BLOCK_K, BLOCK_V]) * delta_row.broadcast(const_shape![BLOCK_K, BLOCK_V]);
                    let q_col: Tile<f32, { [BLOCK_K, 1] }> = q.reshape(const_shape![BLOCK_K, 1]);
                    let o: Tile<f32, { [BLOCK_V] }> = reduce_sum(state * q_col.broadcast(const_shape![BLOCK_K, BLOCK_V]), 0i32);
                    let o: Tile<f32, { [1, 1, 1, BLOCK_V] }> = o.reshape(const_shape![1, 1, 1, BLOCK_V]);
                    let o: Tile<E, { [1, 1, 1, BLOCK_V] }> = convert_tile(o);
                    let stored: Token = unsafe {
                        store_view_raw(&out_view, o, [idx_b, idx_t, idx_hv, idx_v], Some(token_out), ordering::Weak,
                                       scope::TileBlock, tma::Enabled, None, [false, false, false, false])
                    };
                    token_inner = join_tokens(&[token_inner, stored]);
                }
                token_out = token_inner;
                let s: Tile<f32, { [1, 1, BLOCK_K, BLOCK_V] }> = state.reshape(const_shape![1, 1, BLOCK_K, BLOCK_V]);
                token_state = unsafe {
                    store_view_raw(&state_out, s, [idx_b, idx_hv, zero, idx_v], Some(token_state), ordering::Weak,
                                   scope::TileBlock, tma::Enabled, None, [false, false, false, false])
                };
            }
        } else {
            let mut token_out: Token = entry;
            for idx_block in (idx_cga..num_blocks).step_by(num_cgas as usize) {
                let idx_bhv: i32 = floor_div(idx_block, num_v_blocks);
                let idx_v: i32 = floor_mod(idx_block, num_v_blocks);
                let idx_b: i32 = floor_div(idx_bhv, hv);
                let idx_hv: i32 = floor_mod(idx_bhv, hv);
                let idx_h: i32 = floor_div(idx_hv, h_per_group);
                let mut state: Tile<f32, { [BLOCK_K, BLOCK_V] }> = constant(0.0f32, const_shape![BLOCK_K, BLOCK_V]);
                if HAS_INITIAL_STATE == 1i32 {
                    let s: Tile<f32, { [1, 1, BLOCK_K, BLOCK_V] }> = state_view.load([idx_b, idx_hv, zero, idx_v]);
                    state = s.reshape(const_shape![BLOCK_K, BLOCK_V]);
                }
                let mut token_inner: Token = token_out;
                for idx_t in 0i32..T {
                    let q: Tile<E, { [1, 1, 1, BLOCK_K] }> = q_view.load([idx_b, idx_t, idx_h, zero]);
                    let q: Tile<E, { [BLOCK_K] }> = q.reshape(const_shape![BLOCK_K]);
                    let mut q: Tile<f32, { [BLOCK_K] }> = convert_tile(q);
                    let k: Tile<E, { [1, 1, 1, BLOCK_K] }> = k_view.load([idx_b, idx_t, idx_h, zero]);
                    let k: Tile<E, { [BLOCK_K] }> = k.reshape(const_shape![BLOCK_K]);
                    let mut k: Tile<f32, { [BLOCK_K] }> = convert_tile(k);
                    if USE_QK_L2NORM == 1i32 {
                        let eps: Tile<f32, { [] }> = constant(1e-6f32, const_shape![]);
                        let qq: Tile<f32, { [] }> = reduce_sum(q * q, 0i32);
                        let qn: Tile<f32, { [] }> = rsqrt(qq + eps, ftz::Disabled);
                        q = q * qn.reshape(const_shape![1]).broadcast(const_shape![BLOCK_K]);
                        let kk: Tile<f32, { [] }> = reduce_sum(k * k, 0i32);
                        let kn: Tile<f32, { [] }> = rsqrt(kk + eps, ftz::Disabled);
                        k = k * kn.reshape(const_shape![1]).broadcast(const_shape![BLOCK_K]);
                    }
                    let sc: Tile<f32, { [] }> = scalar_to_tile(scale);
                    let q: Tile<f32, { [BLOCK_K] }> = q * sc.reshape(const_shape![1]).broadcast(const_shape![BLOCK_K]);
                    let v: Tile<E, { [1, 1, 1, BLOCK_V] }> = v_view.load([idx_b, idx_t, idx_hv, idx_v]);
                    let v: Tile<E, { [BLOCK_V] }> = v.reshape(const_shape![BLOCK_V]);
                    let v: Tile<f32, { [BLOCK_V] }> = convert_tile(v);

                    // g[idx_b, idx_t, idx_hv] and beta[..]: 0-d gathers, no bounds checks
                    let g_off: Tile<i64, { [] }> = wide(idx_b) * wide(Gate_stride0);
                    let g_off: Tile<i64, { [] }> = g_off + wide(Gate_stride1) * wide(idx_t);
                    let g_off: Tile<i64, { [] }> = unit * wide(idx_hv) + g_off;
                    let g_ptr: PointerTile<*mut f32, { [] }> = pointer_to_tile(Gate);
                    let g_ptr: PointerTile<*mut f32, { [] }> = g_ptr.offset_tile(g_off);
                    let g_ptr: PointerTile<*mut f32, { [] }> = unsafe { assume_div_by::<_, 4>(g_ptr) };
                    let g_pad: Tile<f32, { [] }> = constant(0.0f32, const_shape![]);
                    let (gate, _t): (Tile<f32, { [] }>, Token) = unsafe {
                        load_ptr_padded(g_ptr, ordering::Weak, None::<scope::TileBlock>, None, Some(g_pad), Some(entry), Latency::<0>)
                    };
                    let b_off: Tile<i64, { [] }> = wide(idx_b) * wide(Beta_stride0);
                    let b_off: Tile<i64, { [] }> = b_off + wide(Beta_stride1) * wide(idx_t);
                    let b_off: Tile<i64, { [] }> = unit * wide(idx_hv) + b_off;
                    let b_ptr: PointerTile<*mut E, { [] }> = pointer_to_tile(Beta);
                    let b_ptr: PointerTile<*mut E, { [] }> = b_ptr.offset_tile(b_off);
                    let b_ptr: PointerTile<*mut E, { [] }> = unsafe { assume_div_by::<_, 2>(b_ptr) };
                    let b_pad: Tile<E, { [] }> = constant(E::ZERO, const_shape![]);
                    let (beta, _t): (Tile<E, { [] }>, Token) = unsafe {
                        load_ptr_padded(b_ptr, ordering::Weak, None::<scope::TileBlock>, None, Some(b_pad), Some(entry), Latency::<0>)
                    };
                    let beta: Tile<f32, { [] }> = convert_tile(beta);

                    let decay: Tile<f32, { [] }> = exp(gate);
                    state = state * decay.reshape(const_shape![1, 1]).broadcast(const_shape![BLOCK_K, BLOCK_V]);
                    let k_col: Tile<f32, { [BLOCK_K, 1] }> = k.reshape(const_shape![BLOCK_K, 1]);
                    let kv_mem: Tile<f32, { [BLOCK_V] }> =
                        reduce_sum(state * k_col.broadcast(const_shape![BLOCK_K, BLOCK_V]), 0i32);
                    // (a reduction's result types concretely in cutile: its arithmetic as calls)
                    let diff: Tile<f32, { [BLOCK_V] }> = subf(v, kv_mem, rounding::NearestEven, ftz::Disabled);
                    let delta: Tile<f32, { [BLOCK_V] }> = diff * beta.reshape(const_shape![1]).broadcast(const_shape![BLOCK_V]);
                    let delta_row: Tile<f32, { [1, BLOCK_V] }> = delta.reshape(const_shape![1, BLOCK_V]);
                    state = state + k_col.broadcast(const_shape![BLOCK_K, BLOCK_V]) * delta_row.broadcast(const_shape![BLOCK_K, BLOCK_V]);
                    let q_col: Tile<f32, { [BLOCK_K, 1] }> = q.reshape(const_shape![BLOCK_K, 1]);
                    let o: Tile<f32, { [BLOCK_V] }> = reduce_sum(state * q_col.broadcast(const_shape![BLOCK_K, BLOCK_V]), 0i32);
                    let o: Tile<f32, { [1, 1, 1, BLOCK_V] }> = o.reshape(const_shape![1, 1, 1, BLOCK_V]);
                    let o: Tile<E, { [1, 1, 1, BLOCK_V] }> = convert_tile(o);
                    let stored: Token = unsafe {
                        store_view_raw(&out_view, o, [idx_b, idx_t, idx_hv, idx_v], Some(token_out), ordering::Weak,
                                       scope::TileBlock, tma::Enabled, None, [false, false, false, false])
                    };
                    token_inner = join_tokens(&[token_inner, stored]);
                }
                token_out = token_inner;
            }
        }
    }
}
