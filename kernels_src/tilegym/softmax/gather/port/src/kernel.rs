//! Port of tilegym.ops.cutile.softmax:_softmax_kernel: a static persistent loop over rows
//! (`for row in range(bid, N_ROWS, num_blocks)`), each row one bounds-checked gather of
//! TILE_SIZE columns padded with -inf, a float32 softmax with approximate exp and division,
//! and one scatter. Arrays come in as cuTile Python's entry takes them: pointer, extents,
//! strides (port.toml `raw`), so the gathers address memory exactly as the kernel's do.
#[cutile::module]
pub mod softmax_gather_port {
    use cutile::core::*;

    /// A scalar as [T] lanes of u64: cuTile Python widens gather indices and extents to
    /// 64 bits and compares them unsigned.
    fn lanes<const T: i32>(v: i32) -> Tile<u64, { [T] }> {
        let s: Tile<i32, { [] }> = scalar_to_tile(v);
        let w: Tile<u64, { [] }> = exti(s);
        w.reshape(const_shape![1]).broadcast(const_shape![T])
    }

    // One entry per dtype: the -inf padding scalar needs a concrete element type in cutile
    // 0.4 (tile_to_scalar cannot name a generic one); the body is shared.
    #[cutile::entry(unchecked_accesses = true, optimization_hints = (sm_90 = (occupancy = 4,), sm_100 = (occupancy = 4,)))]
    pub unsafe fn softmax_gather_f32<const N_ROWS: i32, const TILE_SIZE: i32, const DIM_COLS: i32>(
        output: *mut f32, output_shape0: i32, output_shape1: i32, output_stride0: i32, output_stride1: i32,
        input: *mut f32, input_shape0: i32, input_shape1: i32, input_stride0: i32, input_stride1: i32,
    ) {
        let neg_inf: Tile<f32, { [] }> = constant(f32::NEG_INFINITY, const_shape![]);
        let neg_inf: f32 = tile_to_scalar(neg_inf);
        let offsets: Tile<i32, { [TILE_SIZE] }> = iota(const_shape![TILE_SIZE]);
        unsafe {
            body(output, output_shape0, output_shape1, output_stride0, output_stride1,
                 input, input_shape0, input_shape1, input_stride0, input_stride1, neg_inf, N_ROWS, offsets)
        }
    }

    #[cutile::entry(unchecked_accesses = true, optimization_hints = (sm_90 = (occupancy = 4,), sm_100 = (occupancy = 4,)))]
    pub unsafe fn softmax_gather_f16<const N_ROWS: i32, const TILE_SIZE: i32, const DIM_COLS: i32>(
        output: *mut f16, output_shape0: i32, output_shape1: i32, output_stride0: i32, output_stride1: i32,
        input: *mut f16, input_shape0: i32, input_shape1: i32, input_stride0: i32, input_stride1: i32,
    ) {
        let neg_inf: Tile<f16, { [] }> = constant(f16::NEG_INFINITY, const_shape![]);
        let neg_inf: f16 = tile_to_scalar(neg_inf);
        let offsets: Tile<i32, { [TILE_SIZE] }> = iota(const_shape![TILE_SIZE]);
        unsafe {
            body(output, output_shape0, output_shape1, output_stride0, output_stride1,
                 input, input_shape0, input_shape1, input_stride0, input_stride1, neg_inf, N_ROWS, offsets)
        }
    }

    #[cutile::entry(unchecked_accesses = true, optimization_hints = (sm_90 = (occupancy = 4,), sm_100 = (occupancy = 4,)))]
    pub unsafe fn softmax_gather_bf16<const N_ROWS: i32, const TILE_SIZE: i32, const DIM_COLS: i32>(
        output: *mut bf16, output_shape0: i32, output_shape1: i32, output_stride0: i32, output_stride1: i32,
        input: *mut bf16, input_shape0: i32, input_shape1: i32, input_stride0: i32, input_stride1: i32,
    ) {
        let neg_inf: Tile<bf16, { [] }> = constant(bf16::NEG_INFINITY, const_shape![]);
        let neg_inf: bf16 = tile_to_scalar(neg_inf);
        let offsets: Tile<i32, { [TILE_SIZE] }> = iota(const_shape![TILE_SIZE]);
        unsafe {
            body(output, output_shape0, output_shape1, output_stride0, output_stride1,
                 input, input_shape0, input_shape1, input_stride0, input_stride1, neg_inf, N_ROWS, offsets)
        }
    }

    /// The kernel's body; `offsets` is ct.arange(TILE_SIZE) (it also carries TILE_SIZE).
    unsafe fn body<E: ElementType, const TILE_SIZE: i32>(
        output: *mut E, output_shape0: i32, output_shape1: i32, output_stride0: i32, output_stride1: i32,
        input: *mut E, input_shape0: i32, input_shape1: i32, input_stride0: i32, input_stride1: i32,
        neg_inf: E, n_rows: i32, offsets: Tile<i32, { [TILE_SIZE] }>,
    ) {
        // what cuTile Python states of every array's extents and strides
        let output_shape0 = unsafe { assume_bounds_lower::<_, 0>(output_shape0) };
        let output_shape1 = unsafe { assume_bounds_lower::<_, 0>(output_shape1) };
        let output_stride0 = unsafe { assume_bounds_lower::<_, 0>(output_stride0) };
        let input_shape0 = unsafe { assume_bounds_lower::<_, 0>(input_shape0) };
        let input_shape1 = unsafe { assume_bounds_lower::<_, 0>(input_shape1) };
        let input_stride0 = unsafe { assume_bounds_lower::<_, 0>(input_stride0) };
        // unit column strides: the C ABI checks them, the kernel multiplies by a constant 1
        let _ = (output_stride1, input_stride1);
        let entry: Token = new_token_unordered();
        let unit: Tile<u64, { [TILE_SIZE] }> = constant(1u64, const_shape![TILE_SIZE]);
        let pid: i32 = get_tile_block_id().0;
        let num_programs: i32 = get_num_tile_blocks().0;
        // the gather's loop-invariant half (cuTile Python hoists it out of the row loop)
        let in_rows: Tile<u64, { [TILE_SIZE] }> = lanes::<TILE_SIZE>(input_shape0);
        let in_row_stride: Tile<u64, { [TILE_SIZE] }> = lanes::<TILE_SIZE>(input_stride0);
        let in_cols: Tile<u64, { [TILE_SIZE] }> = exti(offsets);
        let in_width: Tile<u64, { [TILE_SIZE] }> = lanes::<TILE_SIZE>(input_shape1);
        let in_col_ok: Tile<bool, { [TILE_SIZE] }> = cmpi(in_cols, in_width, predicate::LessThan);
        let in_col_off: Tile<u64, { [TILE_SIZE] }> = unit * in_cols;
        let in_base: PointerTile<*mut E, { [] }> = pointer_to_tile(input);
        let in_base: PointerTile<*mut E, { [1] }> = in_base.reshape(const_shape![1]);
        let in_base: PointerTile<*mut E, { [TILE_SIZE] }> = in_base.broadcast(const_shape![TILE_SIZE]);
        // and the scatter's
        let out_rows: Tile<u64, { [TILE_SIZE] }> = lanes::<TILE_SIZE>(output_shape0);
        let out_row_stride: Tile<u64, { [TILE_SIZE] }> = lanes::<TILE_SIZE>(output_stride0);
        let out_cols: Tile<u64, { [TILE_SIZE] }> = exti(offsets);
        let out_width: Tile<u64, { [TILE_SIZE] }> = lanes::<TILE_SIZE>(output_shape1);
        let out_col_ok: Tile<bool, { [TILE_SIZE] }> = cmpi(out_cols, out_width, predicate::LessThan);
        let out_col_off: Tile<u64, { [TILE_SIZE] }> = unit * out_cols;
        let out_base: PointerTile<*mut E, { [] }> = pointer_to_tile(output);
        let out_base: PointerTile<*mut E, { [1] }> = out_base.reshape(const_shape![1]);
        let out_base: PointerTile<*mut E, { [TILE_SIZE] }> = out_base.broadcast(const_shape![TILE_SIZE]);
        let mut written: Token = entry;
        for row_idx in (pid..n_rows).step_by(num_programs as usize) {
            let row: Tile<u64, { [TILE_SIZE] }> = lanes::<TILE_SIZE>(row_idx);
            let row_ok: Tile<bool, { [TILE_SIZE] }> = cmpi(row, in_rows, predicate::LessThan);
            let row_off: Tile<u64, { [TILE_SIZE] }> = in_row_stride * row;
            let mask: Tile<bool, { [TILE_SIZE] }> = andi(in_col_ok, row_ok);
            let off: Tile<u64, { [TILE_SIZE] }> = in_col_off + row_off;
            let ptrs: PointerTile<*mut E, { [TILE_SIZE] }> = in_base.offset_tile(off);
            let (x, _t): (Tile<E, { [TILE_SIZE] }>, Token) = unsafe {
                load_ptr_tko(ptrs, ordering::Weak, None::<scope::TileBlock>, Some(mask), Some(neg_inf),
                             Some(entry), Latency::<0>)
            };
            let x: Tile<f32, { [TILE_SIZE] }> = convert_tile(x);
            let row_max: Tile<f32, { [] }> = reduce_max(x, 0i32);
            let row_max: Tile<f32, { [TILE_SIZE] }> = row_max.reshape(const_shape![1]).broadcast(const_shape![TILE_SIZE]);
            let num: Tile<f32, { [TILE_SIZE] }> = unsafe { exp_with_rounding(x - row_max, rounding::Approx) };
            let den: Tile<f32, { [] }> = reduce_sum(num, 0i32);
            let den: Tile<f32, { [TILE_SIZE] }> = den.reshape(const_shape![1]).broadcast(const_shape![TILE_SIZE]);
            // true_div is divf rounding<approx> flush_to_zero (ct.truediv(.., APPROX, ftz))
            let y: Tile<f32, { [TILE_SIZE] }> = true_div(num, den);
            let y: Tile<E, { [TILE_SIZE] }> = convert_tile(y);
            let orow: Tile<u64, { [TILE_SIZE] }> = lanes::<TILE_SIZE>(row_idx);
            let orow_ok: Tile<bool, { [TILE_SIZE] }> = cmpi(orow, out_rows, predicate::LessThan);
            let orow_off: Tile<u64, { [TILE_SIZE] }> = out_row_stride * orow;
            let omask: Tile<bool, { [TILE_SIZE] }> = andi(out_col_ok, orow_ok);
            let ooff: Tile<u64, { [TILE_SIZE] }> = out_col_off + orow_off;
            let optrs: PointerTile<*mut E, { [TILE_SIZE] }> = out_base.offset_tile(ooff);
            written = unsafe {
                store_ptr_tko(optrs, y, ordering::Weak, None::<scope::TileBlock>, Some(omask), Some(written),
                              Latency::<0>)
            };
        }
    }
}
