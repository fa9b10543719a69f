//! Port of tilegym.ops.cutile.recurrent_gated_delta_rule:_recurrent_gated_delta_rule_fwd_kernel_decode_vstream:
//! one token (decode); one block per (batch x value head, BLOCK_V value columns) loads q and k
//! once (L2-normalized when asked), gathers g and beta, and streams its state slice in
//! STREAM_V_TILE-wide pieces: each piece decays, takes the delta along k and gives its output
//! columns (o = S^T q + delta * (k . q)), both stored per piece. The stores thread a token each
//! through the loop, as cuTile Python orders them (one token when there is no final state).
#[cutile::module]
pub mod gdr_decode_port {
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
    pub unsafe fn gated_delta_rule_decode_vstream<
        E: ElementType,
        const HAS_INITIAL_STATE: i32,
        const OUTPUT_FINAL_STATE: i32,
        const USE_QK_L2NORM: i32,
        const BLOCK_K: i32,
        const BLOCK_V: i32,
        const SMALL_TILE_USE_TMA: i32,
        const LARGE_TILE_USE_TMA: i32,
        const STREAM_V_TILE: i32,
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
        let _ = (one, Gate_shape0, Gate_shape1, Gate_shape2, Gate_stride2, Beta_shape0, Beta_shape1, Beta_shape2, Beta_stride2,
                 SMALL_TILE_USE_TMA, LARGE_TILE_USE_TMA);
        let entry: Token = new_token_unordered();
        let idx_bhv: i32 = get_tile_block_id().0;
        let idx_v_block: i32 = get_tile_block_id().1;
        let h: i32 = get_shape_dim(Query.shape(), 2i32);
        let hv: i32 = get_shape_dim(Value.shape(), 2i32);
        let v_dim: i32 = get_shape_dim(Value.shape(), 3i32);
        let idx_b: i32 = floor_div(idx_bhv, hv);
        let idx_hv: i32 = floor_mod(idx_bhv, hv);
        let idx_h: i32 = floor_div(idx_hv, floor_div(hv, h));
        let remaining_v: i32 = v_dim - BLOCK_V * idx_v_block;
        let valid_v: i32 = min(BLOCK_V, remaining_v);
        let pieces: Tile<i32, { [] }> = divi(scalar_to_tile(valid_v), scalar_to_tile(STREAM_V_TILE), rounding::PositiveInf);
        let num_stream_v_tiles: i32 = tile_to_scalar(pieces);
        let zero: i32 = 0i32;

        let q_view: Partition<E, { [1, 1, 1, BLOCK_K] }> = unsafe {
            make_partition_view(Query, const_shape![1, 1, 1, BLOCK_K], padding::Zero, dim_map::Identity, Query.token())
        };
        let q: Tile<E, { [1, 1, 1, BLOCK_K] }> = q_view.load([idx_b, zero, idx_h, zero]);
        let q: Tile<E, { [BLOCK_K] }> = q.reshape(const_shape![BLOCK_K]);
        let k_view: Partition<E, { [1, 1, 1, BLOCK_K] }> = unsafe {
            make_partition_view(Key, const_shape![1, 1, 1, BLOCK_K], padding::Zero, dim_map::Identity, Key.token())
        };
        let k: Tile<E, { [1, 1, 1, BLOCK_K] }> = k_view.load([idx_b, zero, idx_h, zero]);
        let k: Tile<E, { [BLOCK_K] }> = k.reshape(const_shape![BLOCK_K]);
        let mut q: Tile<f32, { [BLOCK_K] }> = convert_tile(q);
        let mut k: Tile<f32, { [BLOCK_K] }> = convert_tile(k);
        if USE_QK_L2NORM == 1i32 {
            let qq: Tile<f32, { [] }> = reduce_sum(q * q, 0i32);
            let eps: Tile<f32, { [] }> = constant(1e-6f32, const_shape![]);     // after qq, as in Python's IR
            let qn: Tile<f32, { [] }> = rsqrt(qq + eps, ftz::Disabled);
            q = q * qn.reshape(const_shape![1]).broadcast(const_shape![BLOCK_K]);
            let kk: Tile<f32, { [] }> = reduce_sum(k * k, 0i32);
            let kn: Tile<f32, { [] }> = rsqrt(kk + eps, ftz::Disabled);
            k = k * kn.reshape(const_shape![1]).broadcast(const_shape![BLOCK_K]);
        }
        let sc: Tile<f32, { [] }> = scalar_to_tile(scale);
        let q: Tile<f32, { [BLOCK_K] }> = q * sc.reshape(const_shape![1]).broadcast(const_shape![BLOCK_K]);
        let k: Tile<f32, { [BLOCK_K] }> = k;

        // g[idx_b, 0, idx_hv] and beta[..]: 0-d gathers, no bounds checks (the literal 0 a constant)
        let t0: Tile<i64, { [] }> = constant(0i64, const_shape![]);
        let g_off: Tile<i64, { [] }> = wide(idx_b) * wide(Gate_stride0);
        let g_off: Tile<i64, { [] }> = g_off + t0 * wide(Gate_stride1);
        let g_off: Tile<i64, { [] }> = g_off + unit * wide(idx_hv);
        let g_ptr: PointerTile<*mut f32, { [] }> = pointer_to_tile(Gate);
        let g_ptr: PointerTile<*mut f32, { [] }> = g_ptr.offset_tile(g_off);
        let g_ptr: PointerTile<*mut f32, { [] }> = unsafe { assume_div_by::<_, 4>(g_ptr) };
        let g_pad: Tile<f32, { [] }> = constant(0.0f32, const_shape![]);
        let (gate, _t): (Tile<f32, { [] }>, Token) = unsafe {
            load_ptr_padded(g_ptr, ordering::Weak, None::<scope::TileBlock>, None, Some(g_pad), Some(entry), Latency::<0>)
        };
        let b_off: Tile<i64, { [] }> = wide(idx_b) * wide(Beta_stride0);
        let b_off: Tile<i64, { [] }> = b_off + t0 * wide(Beta_stride1);
        let b_off: Tile<i64, { [] }> = b_off + unit * wide(idx_hv);
        let b_ptr: PointerTile<*mut E, { [] }> = pointer_to_tile(Beta);
        let b_ptr: PointerTile<*mut E, { [] }> = b_ptr.offset_tile(b_off);
        let b_ptr: PointerTile<*mut E, { [] }> = unsafe { assume_div_by::<_, 2>(b_ptr) };
        let b_pad: Tile<E, { [] }> = constant(E::ZERO, const_shape![]);
        let (beta, _t): (Tile<E, { [] }>, Token) = unsafe {
            load_ptr_padded(b_ptr, ordering::Weak, None::<scope::TileBlock>, None, Some(b_pad), Some(entry), Latency::<0>)
        };
        let beta: Tile<f32, { [] }> = convert_tile(beta);
        let gamma: Tile<f32, { [] }> = exp(gate);
        let key_col: Tile<f32, { [BLOCK_K, 1] }> = k.reshape(const_shape![BLOCK_K, 1]);
        let query_col: Tile<f32, { [BLOCK_K, 1] }> = q.reshape(const_shape![BLOCK_K, 1]);
        let key_query_dot: Tile<f32, { [] }> = reduce_sum(k * q, 0i32);

        let first_piece: i32 = idx_v_block * (BLOCK_V / STREAM_V_TILE);
        let v_view: Partition<E, { [1, 1, 1, STREAM_V_TILE] }> = unsafe {
            make_partition_view(Value, const_shape![1, 1, 1, STREAM_V_TILE], padding::Zero, dim_map::Identity, Value.token())
        };
        let state_view: Partition<f32, { [1, 1, BLOCK_K, STREAM_V_TILE] }> = unsafe {
            make_partition_view(StateIn, const_shape![1, 1, BLOCK_K, STREAM_V_TILE], padding::Zero, dim_map::Identity,
                                StateIn.token())
        };
        let out_view: PartitionMut<E, { [1, 1, 1, STREAM_V_TILE] }> =
            unsafe { Output.partition_full_mut(const_shape![1, 1, 1, STREAM_V_TILE]) };
        let state_out: PartitionMut<f32, { [1, 1, BLOCK_K, STREAM_V_TILE] }> =
            unsafe { StateOut.partition_full_mut(const_shape![1, 1, BLOCK_K, STREAM_V_TILE]) };
        // Three copies of the loop: with a final state its store threads a token of its own
        // (cutile carries every mutable variable a loop body assigns; see the persistent port);
        // with no state at all the zero state's reductions move before the loop. (A final state
        // without an initial one would hoist them too: no case takes that combination.)
        if OUTPUT_FINAL_STATE == 1i32 {
            let mut token_out: Token = entry;
            let mut token_state: Token = entry;
            for idx_stream_v in 0i32..num_stream_v_tiles {
                let idx_sv: i32 = first_piece + idx_stream_v;
                let v: Tile<E, { [1, 1, 1, STREAM_V_TILE] }> = v_view.load([idx_b, zero, idx_hv, idx_sv]);
                let v: Tile<E, { [STREAM_V_TILE] }> = v.reshape(const_shape![STREAM_V_TILE]);
                let v: Tile<f32, { [STREAM_V_TILE] }> = convert_tile(v);
                let mut state: Tile<f32, { [BLOCK_K, STREAM_V_TILE] }> = constant(0.0f32, const_shape![BLOCK_K, STREAM_V_TILE]);
                if HAS_INITIAL_STATE == 1i32 {
                    let s: Tile<f32, { [1, 1, BLOCK_K, STREAM_V_TILE] }> = state_view.load([idx_b, idx_hv, zero, idx_sv]);
                    state = s.reshape(const_shape![BLOCK_K, STREAM_V_TILE]);
                }
                let state: Tile<f32, { [BLOCK_K, STREAM_V_TILE] }> =
                    gamma.reshape(const_shape![1, 1]).broadcast(const_shape![BLOCK_K, STREAM_V_TILE]) * state;
                let kv_mem: Tile<f32, { [STREAM_V_TILE] }> =
                    reduce_sum(key_col.broadcast(const_shape![BLOCK_K, STREAM_V_TILE]) * state, 0i32);
                let out_base: Tile<f32, { [STREAM_V_TILE] }> =
                    reduce_sum(query_col.broadcast(const_shape![BLOCK_K, STREAM_V_TILE]) * state, 0i32);
                let diff: Tile<f32, { [STREAM_V_TILE] }> = subf(v, kv_mem, rounding::NearestEven, ftz::Disabled);
                let delta: Tile<f32, { [STREAM_V_TILE] }> =
                    beta.reshape(const_shape![1]).broadcast(const_shape![STREAM_V_TILE]) * diff;
                let o: Tile<f32, { [STREAM_V_TILE] }> = fma(
                    delta, key_query_dot.reshape(const_shape![1]).broadcast(const_shape![STREAM_V_TILE]), out_base,
                    rounding::NearestEven, ftz::Disabled);
                let delta_row: Tile<f32, { [1, STREAM_V_TILE] }> = delta.reshape(const_shape![1, STREAM_V_TILE]);
                let state: Tile<f32, { [BLOCK_K, STREAM_V_TILE] }> = state
                    + key_col.broadcast(const_shape![BLOCK_K, STREAM_V_TILE]) * delta_row.broadcast(const_shape![BLOCK_K, STREAM_V_TILE]);
                let o: Tile<f32, { [1, 1, 1, STREAM_V_TILE] }> = o.reshape(const_shape![1, 1, 1, STREAM_V_TILE]);
                let o: Tile<E, { [1, 1, 1, STREAM_V_TILE] }> = convert_tile(o);
                token_out = unsafe {
                    store_view_raw(&out_view, o, [idx_b, zero, idx_hv, idx_sv], Some(token_out), ordering::Weak,
                                   scope::TileBlock, tma::Enabled, None, [false, false, false, false])
                };
                let s: Tile<f32, { [1, 1, BLOCK_K, STREAM_V_TILE] }> = state.reshape(const_shape![1, 1, BLOCK_K, STREAM_V_TILE]);
                token_state = unsafe {
                    store_view_raw(&state_out, s, [idx_b, idx_hv, zero, idx_sv], Some(token_state), ordering::Weak,
                                   scope::TileBlock, tma::Enabled, None, [false, false, false, false])
                };
            }
        } else if HAS_INITIAL_STATE == 0i32 {
            // no state in or out: the zero state's reductions do not depend on the piece;
            // cuTile Python computes them once, before the loop
            let zeros: Tile<f32, { [BLOCK_K, STREAM_V_TILE] }> = constant(0.0f32, const_shape![BLOCK_K, STREAM_V_TILE]);
            let state: Tile<f32, { [BLOCK_K, STREAM_V_TILE] }> =
                zeros * gamma.reshape(const_shape![1, 1]).broadcast(const_shape![BLOCK_K, STREAM_V_TILE]);
            let kv_mem: Tile<f32, { [STREAM_V_TILE] }> =
                reduce_sum(state * key_col.broadcast(const_shape![BLOCK_K, STREAM_V_TILE]), 0i32);
            let out_base: Tile<f32, { [STREAM_V_TILE] }> =
                reduce_sum(state * query_col.broadcast(const_shape![BLOCK_K, STREAM_V_TILE]), 0i32);
            let mut token_out: Token = entry;
            for idx_stream_v in 0i32..num_stream_v_tiles {
                let idx_sv: i32 = first_piece + idx_stream_v;
                let v: Tile<E, { [1, 1, 1, STREAM_V_TILE] }> = v_view.load([idx_b, zero, idx_hv, idx_sv]);
                let v: Tile<E, { [STREAM_V_TILE] }> = v.reshape(const_shape![STREAM_V_TILE]);
                let v: Tile<f32, { [STREAM_V_TILE] }> = convert_tile(v);
                let diff: Tile<f32, { [STREAM_V_TILE] }> = subf(v, kv_mem, rounding::NearestEven, ftz::Disabled);
                let delta: Tile<f32, { [STREAM_V_TILE] }> =
                    beta.reshape(const_shape![1]).broadcast(const_shape![STREAM_V_TILE]) * diff;
                let o: Tile<f32, { [STREAM_V_TILE] }> = fma(
                    delta, key_query_dot.reshape(const_shape![1]).broadcast(const_shape![STREAM_V_TILE]), out_base,
                    rounding::NearestEven, ftz::Disabled);
                let o: Tile<f32, { [1, 1, 1, STREAM_V_TILE] }> = o.reshape(const_shape![1, 1, 1, STREAM_V_TILE]);
                let o: Tile<E, { [1, 1, 1, STREAM_V_TILE] }> = convert_tile(o);
                token_out = unsafe {
                    store_view_raw(&out_view, o, [idx_b, zero, idx_hv, idx_sv], Some(token_out), ordering::Weak,
                                   scope::TileBlock, tma::Enabled, None, [false, false, false, false])
                };
            }
        } else {
            let mut token_out: Token = entry;
            for idx_stream_v in 0i32..num_stream_v_tiles {
                let idx_sv: i32 = first_piece + idx_stream_v;
                let v: Tile<E, { [1, 1, 1, STREAM_V_TILE] }> = v_view.load([idx_b, zero, idx_hv, idx_sv]);
                let v: Tile<E, { [STREAM_V_TILE] }> = v.reshape(const_shape![STREAM_V_TILE]);
                let v: Tile<f32, { [STREAM_V_TILE] }> = convert_tile(v);
                let mut state: Tile<f32, { [BLOCK_K, STREAM_V_TILE] }> = constant(0.0f32, const_shape![BLOCK_K, STREAM_V_TILE]);
                if HAS_INITIAL_STATE == 1i32 {
                    let s: Tile<f32, { [1, 1, BLOCK_K, STREAM_V_TILE] }> = state_view.load([idx_b, idx_hv, zero, idx_sv]);
                    state = s.reshape(const_shape![BLOCK_K, STREAM_V_TILE]);
                }
                let state: Tile<f32, { [BLOCK_K, STREAM_V_TILE] }> =
                    gamma.reshape(const_shape![1, 1]).broadcast(const_shape![BLOCK_K, STREAM_V_TILE]) * state;
                let kv_mem: Tile<f32, { [STREAM_V_TILE] }> =
                    reduce_sum(key_col.broadcast(const_shape![BLOCK_K, STREAM_V_TILE]) * state, 0i32);
                let out_base: Tile<f32, { [STREAM_V_TILE] }> =
                    reduce_sum(query_col.broadcast(const_shape![BLOCK_K, STREAM_V_TILE]) * state, 0i32);
                let diff: Tile<f32, { [STREAM_V_TILE] }> = subf(v, kv_mem, rounding::NearestEven, ftz::Disabled);
                let delta: Tile<f32, { [STREAM_V_TILE] }> =
                    beta.reshape(const_shape![1]).broadcast(const_shape![STREAM_V_TILE]) * diff;
                let o: Tile<f32, { [STREAM_V_TILE] }> = fma(
                    delta, key_query_dot.reshape(const_shape![1]).broadcast(const_shape![STREAM_V_TILE]), out_base,
                    rounding::NearestEven, ftz::Disabled);
                // the updated state is not stored: cuTile Python drops its update
                let o: Tile<f32, { [1, 1, 1, STREAM_V_TILE] }> = o.reshape(const_shape![1, 1, 1, STREAM_V_TILE]);
                let o: Tile<E, { [1, 1, 1, STREAM_V_TILE] }> = convert_tile(o);
                token_out = unsafe {
                    store_view_raw(&out_view, o, [idx_b, zero, idx_hv, idx_sv], Some(token_out), ordering::Weak,
                                   scope::TileBlock, tma::Enabled, None, [false, false, false, false])
                };
            }
        }
    }
}
