//! Port of tilegym.ops.cutile.silu_and_mul:_silu_and_mul_kernel_row_wise: one block per row;
//! a = input[row, offsets], b = input[row, offsets + TOTAL_HIDDEN_SIZE] (bounds-checked
//! gathers, zero padding), out = a * sigmoid(a) * b in float32 with the kernel's
//! flush-to-zero exp2 and approximate division, one bounds-checked scatter.
#[cutile::module]
pub mod silu_and_mul_port {
    use cutile::core::*;

    /// A scalar as [T] lanes of u64 (gather indices and extents are widened to 64 bits).
    fn lanes<const TILE_SIZE: i32>(v: i32) -> Tile<u64, { [TILE_SIZE] }> {
        let s: Tile<i32, { [] }> = scalar_to_tile(v);
        let w: Tile<u64, { [] }> = exti(s);
        w.reshape(const_shape![1]).broadcast(const_shape![TILE_SIZE])
    }


    #[cutile::entry(unchecked_accesses = true)]
    pub unsafe fn silu_and_mul_f32<const TILE_SIZE: i32, const TOTAL_HIDDEN_SIZE: i32>(
        input: *mut f32, input_shape0: i32, input_shape1: i32, input_stride0: i32, input_stride1: i32,
        output: *mut f32, output_shape0: i32, output_shape1: i32, output_stride0: i32, output_stride1: i32,
    ) {
        // ct.gather's default padding is 0 of the array's dtype
        let zero: Tile<f32, { [] }> = constant(0.0f32, const_shape![]);
        let zero: f32 = tile_to_scalar(zero);
        let hidden: Tile<i32, { [TILE_SIZE] }> = broadcast_scalar(TOTAL_HIDDEN_SIZE, const_shape![TILE_SIZE]);
        let offsets: Tile<i32, { [TILE_SIZE] }> = iota(const_shape![TILE_SIZE]);
        let b_cols: Tile<i32, { [TILE_SIZE] }> = hidden + offsets;
        unsafe {
            body(input, input_shape0, input_shape1, input_stride0, input_stride1,
                 output, output_shape0, output_shape1, output_stride0, output_stride1, zero, offsets, b_cols)
        }
    }

    #[cutile::entry(unchecked_accesses = true)]
    pub unsafe fn silu_and_mul_f16<const TILE_SIZE: i32, const TOTAL_HIDDEN_SIZE: i32>(
        input: *mut f16, input_shape0: i32, input_shape1: i32, input_stride0: i32, input_stride1: i32,
        output: *mut f16, output_shape0: i32, output_shape1: i32, output_stride0: i32, output_stride1: i32,
    ) {
        // ct.gather's default padding is 0 of the array's dtype
        let zero: Tile<f16, { [] }> = constant(f16::ZERO, const_shape![]);
        let zero: f16 = tile_to_scalar(zero);
        let hidden: Tile<i32, { [TILE_SIZE] }> = broadcast_scalar(TOTAL_HIDDEN_SIZE, const_shape![TILE_SIZE]);
        let offsets: Tile<i32, { [TILE_SIZE] }> = iota(const_shape![TILE_SIZE]);
        let b_cols: Tile<i32, { [TILE_SIZE] }> = hidden + offsets;
        unsafe {
            body(input, input_shape0, input_shape1, input_stride0, input_stride1,
                 output, output_shape0, output_shape1, output_stride0, output_stride1, zero, offsets, b_cols)
        }
    }

    #[cutile::entry(unchecked_accesses = true)]
    pub unsafe fn silu_and_mul_bf16<const TILE_SIZE: i32, const TOTAL_HIDDEN_SIZE: i32>(
        input: *mut bf16, input_shape0: i32, input_shape1: i32, input_stride0: i32, input_stride1: i32,
        output: *mut bf16, output_shape0: i32, output_shape1: i32, output_stride0: i32, output_stride1: i32,
    ) {
        // ct.gather's default padding is 0 of the array's dtype
        let zero: Tile<bf16, { [] }> = constant(bf16::ZERO, const_shape![]);
        let zero: bf16 = tile_to_scalar(zero);
        let hidden: Tile<i32, { [TILE_SIZE] }> = broadcast_scalar(TOTAL_HIDDEN_SIZE, const_shape![TILE_SIZE]);
        let offsets: Tile<i32, { [TILE_SIZE] }> = iota(const_shape![TILE_SIZE]);
        let b_cols: Tile<i32, { [TILE_SIZE] }> = hidden + offsets;
        unsafe {
            body(input, input_shape0, input_shape1, input_stride0, input_stride1,
                 output, output_shape0, output_shape1, output_stride0, output_stride1, zero, offsets, b_cols)
        }
    }

    unsafe fn body<E: ElementType, const TILE_SIZE: i32>(
        input: *mut E, input_shape0: i32, input_shape1: i32, input_stride0: i32, input_stride1: i32,
        output: *mut E, output_shape0: i32, output_shape1: i32, output_stride0: i32, output_stride1: i32,
        zero: E, offsets: Tile<i32, { [TILE_SIZE] }>, b_cols: Tile<i32, { [TILE_SIZE] }>,
    ) {
        let input_shape0 = unsafe { assume_bounds_lower::<_, 0>(input_shape0) };
        let input_shape1 = unsafe { assume_bounds_lower::<_, 0>(input_shape1) };
        let input_stride0 = unsafe { assume_bounds_lower::<_, 0>(input_stride0) };
        let output_shape0 = unsafe { assume_bounds_lower::<_, 0>(output_shape0) };
        let output_shape1 = unsafe { assume_bounds_lower::<_, 0>(output_shape1) };
        let output_stride0 = unsafe { assume_bounds_lower::<_, 0>(output_stride0) };
        let _ = (input_stride1, output_stride1);
        let entry: Token = new_token_unordered();
        let unit: Tile<u64, { [TILE_SIZE] }> = constant(1u64, const_shape![TILE_SIZE]);
        let row: i32 = get_tile_block_id().0;
        let base: PointerTile<*mut E, { [] }> = pointer_to_tile(input);
        // a = input[row, offsets]
        let rows: Tile<u64, { [TILE_SIZE] }> = lanes::<TILE_SIZE>(row);
        let height: Tile<u64, { [TILE_SIZE] }> = lanes::<TILE_SIZE>(input_shape0);
        let row_ok: Tile<bool, { [TILE_SIZE] }> = cmpi(rows, height, predicate::LessThan);
        let stride: Tile<u64, { [TILE_SIZE] }> = lanes::<TILE_SIZE>(input_stride0);
        let row_off: Tile<u64, { [TILE_SIZE] }> = rows * stride;
        let cols: Tile<u64, { [TILE_SIZE] }> = exti(offsets);
        let width: Tile<u64, { [TILE_SIZE] }> = lanes::<TILE_SIZE>(input_shape1);
        let col_ok: Tile<bool, { [TILE_SIZE] }> = cmpi(cols, width, predicate::LessThan);
        let mask: Tile<bool, { [TILE_SIZE] }> = andi(row_ok, col_ok);
        let col_off: Tile<u64, { [TILE_SIZE] }> = unit * cols;
        let off: Tile<u64, { [TILE_SIZE] }> = row_off + col_off;
        let ptrs: PointerTile<*mut E, { [1] }> = base.reshape(const_shape![1]);
        let ptrs: PointerTile<*mut E, { [TILE_SIZE] }> = ptrs.broadcast(const_shape![TILE_SIZE]);
        let ptrs: PointerTile<*mut E, { [TILE_SIZE] }> = ptrs.offset_tile(off);
        let (a, _t): (Tile<E, { [TILE_SIZE] }>, Token) = unsafe {
            load_ptr_tko(ptrs, ordering::Weak, None::<scope::TileBlock>, Some(mask), Some(zero), Some(entry), Latency::<0>)
        };
        // b = input[row, offsets + TOTAL_HIDDEN_SIZE]
        let brows: Tile<u64, { [TILE_SIZE] }> = lanes::<TILE_SIZE>(row);
        let bheight: Tile<u64, { [TILE_SIZE] }> = lanes::<TILE_SIZE>(input_shape0);
        let brow_ok: Tile<bool, { [TILE_SIZE] }> = cmpi(brows, bheight, predicate::LessThan);
        let bstride: Tile<u64, { [TILE_SIZE] }> = lanes::<TILE_SIZE>(input_stride0);
        let brow_off: Tile<u64, { [TILE_SIZE] }> = brows * bstride;
        let bcols: Tile<u64, { [TILE_SIZE] }> = exti(b_cols);
        let bwidth: Tile<u64, { [TILE_SIZE] }> = lanes::<TILE_SIZE>(input_shape1);
        let bcol_ok: Tile<bool, { [TILE_SIZE] }> = cmpi(bcols, bwidth, predicate::LessThan);
        let bmask: Tile<bool, { [TILE_SIZE] }> = andi(brow_ok, bcol_ok);
        let bcol_off: Tile<u64, { [TILE_SIZE] }> = unit * bcols;
        let boff: Tile<u64, { [TILE_SIZE] }> = brow_off + bcol_off;
        let bptrs: PointerTile<*mut E, { [1] }> = base.reshape(const_shape![1]);
        let bptrs: PointerTile<*mut E, { [TILE_SIZE] }> = bptrs.broadcast(const_shape![TILE_SIZE]);
        let bptrs: PointerTile<*mut E, { [TILE_SIZE] }> = bptrs.offset_tile(boff);
        let (b, _t2): (Tile<E, { [TILE_SIZE] }>, Token) = unsafe {
            load_ptr_tko(bptrs, ordering::Weak, None::<scope::TileBlock>, Some(bmask), Some(zero), Some(entry), Latency::<0>)
        };
        let a: Tile<f32, { [TILE_SIZE] }> = convert_tile(a);
        let b: Tile<f32, { [TILE_SIZE] }> = convert_tile(b);
        // denom = 1 + exp2(mul(-a, LOG2_E, ftz), ftz); sigmoid = truediv(1.0, denom, ftz, APPROX)
        let neg_a: Tile<f32, { [TILE_SIZE] }> = negf(a);
        let log2e: Tile<f32, { [] }> = constant(1.4426950408889634f32, const_shape![]);
        let log2e: Tile<f32, { [1] }> = log2e.reshape(const_shape![1]);
        let log2e: Tile<f32, { [TILE_SIZE] }> = log2e.broadcast(const_shape![TILE_SIZE]);
        let scaled: Tile<f32, { [TILE_SIZE] }> = mulf(neg_a, log2e, rounding::NearestEven, ftz::Enabled);
        let e: Tile<f32, { [TILE_SIZE] }> = exp2(scaled, ftz::Enabled);
        let one: Tile<f32, { [] }> = constant(1.0f32, const_shape![]);
        let one_l: Tile<f32, { [1] }> = one.reshape(const_shape![1]);
        let one_l: Tile<f32, { [TILE_SIZE] }> = one_l.broadcast(const_shape![TILE_SIZE]);
        let denom: Tile<f32, { [TILE_SIZE] }> = e + one_l;
        let one_r: Tile<f32, { [1] }> = one.reshape(const_shape![1]);
        let one_r: Tile<f32, { [TILE_SIZE] }> = one_r.broadcast(const_shape![TILE_SIZE]);
        let sigmoid: Tile<f32, { [TILE_SIZE] }> = true_div(one_r, denom);
        let silu: Tile<f32, { [TILE_SIZE] }> = a * sigmoid;
        let result: Tile<f32, { [TILE_SIZE] }> = silu * b;
        let result: Tile<E, { [TILE_SIZE] }> = convert_tile(result);
        // output[row, offsets]
        let orows: Tile<u64, { [TILE_SIZE] }> = lanes::<TILE_SIZE>(row);
        let oheight: Tile<u64, { [TILE_SIZE] }> = lanes::<TILE_SIZE>(output_shape0);
        let orow_ok: Tile<bool, { [TILE_SIZE] }> = cmpi(orows, oheight, predicate::LessThan);
        let ostride: Tile<u64, { [TILE_SIZE] }> = lanes::<TILE_SIZE>(output_stride0);
        let orow_off: Tile<u64, { [TILE_SIZE] }> = orows * ostride;
        let ocols: Tile<u64, { [TILE_SIZE] }> = exti(offsets);
        let owidth: Tile<u64, { [TILE_SIZE] }> = lanes::<TILE_SIZE>(output_shape1);
        let ocol_ok: Tile<bool, { [TILE_SIZE] }> = cmpi(ocols, owidth, predicate::LessThan);
        let omask: Tile<bool, { [TILE_SIZE] }> = andi(orow_ok, ocol_ok);
        let ocol_off: Tile<u64, { [TILE_SIZE] }> = unit * ocols;
        let ooff: Tile<u64, { [TILE_SIZE] }> = orow_off + ocol_off;
        let obase: PointerTile<*mut E, { [] }> = pointer_to_tile(output);
        let optrs: PointerTile<*mut E, { [1] }> = obase.reshape(const_shape![1]);
        let optrs: PointerTile<*mut E, { [TILE_SIZE] }> = optrs.broadcast(const_shape![TILE_SIZE]);
        let optrs: PointerTile<*mut E, { [TILE_SIZE] }> = optrs.offset_tile(ooff);
        let _s: Token = unsafe {
            store_ptr_tko(optrs, result, ordering::Weak, None::<scope::TileBlock>, Some(omask), Some(entry), Latency::<0>)
        };
    }
}
