//! Port of tilegym.ops.cutile.softmax:_softmax_kernel_multi_wave_full_row_reg_cached_ldg:
//! one block per row, the row in one gather of TILE_SIZE columns padded with -inf, bounds
//! checked only when TILE_SIZE != N (a power-of-two row needs no mask), one scatter.
#[cutile::module]
pub mod softmax_multi_wave_port {
    use cutile::core::*;

    /// A scalar as [TILE_SIZE] lanes of u64 (gather indices and extents are widened to 64 bits).
    fn lanes<const TILE_SIZE: i32>(v: i32) -> Tile<u64, { [TILE_SIZE] }> {
        let s: Tile<i32, { [] }> = scalar_to_tile(v);
        let w: Tile<u64, { [] }> = exti(s);
        w.reshape(const_shape![1]).broadcast(const_shape![TILE_SIZE])
    }

    #[cutile::entry(unchecked_accesses = true)]
    pub unsafe fn softmax_multi_wave_f32<const N: i32, const TILE_SIZE: i32>(
        output: *mut f32, output_shape0: i32, output_shape1: i32, output_stride0: i32, output_stride1: i32,
        input: *mut f32, input_shape0: i32, input_shape1: i32, input_stride0: i32, input_stride1: i32,
    ) {
        let neg_inf: Tile<f32, { [] }> = constant(f32::NEG_INFINITY, const_shape![]);
        let neg_inf: f32 = tile_to_scalar(neg_inf);
        let offsets: Tile<i32, { [TILE_SIZE] }> = iota(const_shape![TILE_SIZE]);
        // check_bound = TILE_SIZE != N: a constant, so only one of the two is compiled
        if TILE_SIZE != N {
            unsafe {
                checked(output, output_shape0, output_shape1, output_stride0, output_stride1,
                        input, input_shape0, input_shape1, input_stride0, input_stride1, neg_inf, offsets)
            }
        } else {
            unsafe { unchecked(output, output_stride0, input, input_stride0, neg_inf, offsets) }
        }
    }

    #[cutile::entry(unchecked_accesses = true)]
    pub unsafe fn softmax_multi_wave_f16<const N: i32, const TILE_SIZE: i32>(
        output: *mut f16, output_shape0: i32, output_shape1: i32, output_stride0: i32, output_stride1: i32,
        input: *mut f16, input_shape0: i32, input_shape1: i32, input_stride0: i32, input_stride1: i32,
    ) {
        let neg_inf: Tile<f16, { [] }> = constant(f16::NEG_INFINITY, const_shape![]);
        let neg_inf: f16 = tile_to_scalar(neg_inf);
        let offsets: Tile<i32, { [TILE_SIZE] }> = iota(const_shape![TILE_SIZE]);
        // check_bound = TILE_SIZE != N: a constant, so only one of the two is compiled
        if TILE_SIZE != N {
            unsafe {
                checked(output, output_shape0, output_shape1, output_stride0, output_stride1,
                        input, input_shape0, input_shape1, input_stride0, input_stride1, neg_inf, offsets)
            }
        } else {
            unsafe { unchecked(output, output_stride0, input, input_stride0, neg_inf, offsets) }
        }
    }

    #[cutile::entry(unchecked_accesses = true)]
    pub unsafe fn softmax_multi_wave_bf16<const N: i32, const TILE_SIZE: i32>(
        output: *mut bf16, output_shape0: i32, output_shape1: i32, output_stride0: i32, output_stride1: i32,
        input: *mut bf16, input_shape0: i32, input_shape1: i32, input_stride0: i32, input_stride1: i32,
    ) {
        let neg_inf: Tile<bf16, { [] }> = constant(bf16::NEG_INFINITY, const_shape![]);
        let neg_inf: bf16 = tile_to_scalar(neg_inf);
        let offsets: Tile<i32, { [TILE_SIZE] }> = iota(const_shape![TILE_SIZE]);
        // check_bound = TILE_SIZE != N: a constant, so only one of the two is compiled
        if TILE_SIZE != N {
            unsafe {
                checked(output, output_shape0, output_shape1, output_stride0, output_stride1,
                        input, input_shape0, input_shape1, input_stride0, input_stride1, neg_inf, offsets)
            }
        } else {
            unsafe { unchecked(output, output_stride0, input, input_stride0, neg_inf, offsets) }
        }
    }

    /// softmax of one row, float32, approximate exp and division (as the kernel's RMd.APPROX)
    fn row_softmax<E: ElementType, const TILE_SIZE: i32>(x: Tile<E, { [TILE_SIZE] }>) -> Tile<E, { [TILE_SIZE] }> {
        let x: Tile<f32, { [TILE_SIZE] }> = convert_tile(x);
        let row_max: Tile<f32, { [] }> = reduce_max(x, 0i32);
        let row_max: Tile<f32, { [TILE_SIZE] }> = row_max.reshape(const_shape![1]).broadcast(const_shape![TILE_SIZE]);
        let num: Tile<f32, { [TILE_SIZE] }> = unsafe { exp_with_rounding(x - row_max, rounding::Approx) };
        let den: Tile<f32, { [] }> = reduce_sum(num, 0i32);
        let den: Tile<f32, { [TILE_SIZE] }> = den.reshape(const_shape![1]).broadcast(const_shape![TILE_SIZE]);
        let y: Tile<f32, { [TILE_SIZE] }> = true_div(num, den);
        convert_tile(y)
    }

    unsafe fn unchecked<E: ElementType, const TILE_SIZE: i32>(
        output: *mut E, output_stride0: i32, input: *mut E, input_stride0: i32, neg_inf: E,
        offsets: Tile<i32, { [TILE_SIZE] }>,
    ) {
        let output_stride0 = unsafe { assume_bounds_lower::<_, 0>(output_stride0) };
        let input_stride0 = unsafe { assume_bounds_lower::<_, 0>(input_stride0) };
        let entry: Token = new_token_unordered();
        let unit: Tile<u64, { [TILE_SIZE] }> = constant(1u64, const_shape![TILE_SIZE]);
        let row: i32 = get_tile_block_id().0;
        // input[row, offsets]: row * stride + 1 * column
        let rows: Tile<u64, { [TILE_SIZE] }> = lanes::<TILE_SIZE>(row);
        let stride: Tile<u64, { [TILE_SIZE] }> = lanes::<TILE_SIZE>(input_stride0);
        let row_off: Tile<u64, { [TILE_SIZE] }> = rows * stride;
        let cols: Tile<u64, { [TILE_SIZE] }> = exti(offsets);
        let col_off: Tile<u64, { [TILE_SIZE] }> = unit * cols;
        let off: Tile<u64, { [TILE_SIZE] }> = row_off + col_off;
        let base: PointerTile<*mut E, { [] }> = pointer_to_tile(input);
        let base: PointerTile<*mut E, { [1] }> = base.reshape(const_shape![1]);
        let base: PointerTile<*mut E, { [TILE_SIZE] }> = base.broadcast(const_shape![TILE_SIZE]);
        let ptrs: PointerTile<*mut E, { [TILE_SIZE] }> = base.offset_tile(off);
        let (x, _t): (Tile<E, { [TILE_SIZE] }>, Token) = unsafe {
            load_ptr_tko(ptrs, ordering::Weak, None::<scope::TileBlock>, None, Some(neg_inf), Some(entry), Latency::<0>)
        };
        let y: Tile<E, { [TILE_SIZE] }> = row_softmax(x);
        let orows: Tile<u64, { [TILE_SIZE] }> = lanes::<TILE_SIZE>(row);
        let ostride: Tile<u64, { [TILE_SIZE] }> = lanes::<TILE_SIZE>(output_stride0);
        let orow_off: Tile<u64, { [TILE_SIZE] }> = orows * ostride;
        let ocols: Tile<u64, { [TILE_SIZE] }> = exti(offsets);
        let ocol_off: Tile<u64, { [TILE_SIZE] }> = unit * ocols;
        let ooff: Tile<u64, { [TILE_SIZE] }> = orow_off + ocol_off;
        let obase: PointerTile<*mut E, { [] }> = pointer_to_tile(output);
        let obase: PointerTile<*mut E, { [1] }> = obase.reshape(const_shape![1]);
        let obase: PointerTile<*mut E, { [TILE_SIZE] }> = obase.broadcast(const_shape![TILE_SIZE]);
        let optrs: PointerTile<*mut E, { [TILE_SIZE] }> = obase.offset_tile(ooff);
        let _s: Token = unsafe {
            store_ptr_tko(optrs, y, ordering::Weak, None::<scope::TileBlock>, None, Some(entry), Latency::<0>)
        };
    }

    unsafe fn checked<E: ElementType, const TILE_SIZE: i32>(
        output: *mut E, output_shape0: i32, output_shape1: i32, output_stride0: i32, output_stride1: i32,
        input: *mut E, input_shape0: i32, input_shape1: i32, input_stride0: i32, input_stride1: i32,
        neg_inf: E, offsets: Tile<i32, { [TILE_SIZE] }>,
    ) {
        let output_shape0 = unsafe { assume_bounds_lower::<_, 0>(output_shape0) };
        let output_shape1 = unsafe { assume_bounds_lower::<_, 0>(output_shape1) };
        let output_stride0 = unsafe { assume_bounds_lower::<_, 0>(output_stride0) };
        let input_shape0 = unsafe { assume_bounds_lower::<_, 0>(input_shape0) };
        let input_shape1 = unsafe { assume_bounds_lower::<_, 0>(input_shape1) };
        let input_stride0 = unsafe { assume_bounds_lower::<_, 0>(input_stride0) };
        let _ = (output_stride1, input_stride1);
        let entry: Token = new_token_unordered();
        let unit: Tile<u64, { [TILE_SIZE] }> = constant(1u64, const_shape![TILE_SIZE]);
        let row: i32 = get_tile_block_id().0;
        // input[row, offsets], lanes with row < rows and column < width
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
        let base: PointerTile<*mut E, { [] }> = pointer_to_tile(input);
        let base: PointerTile<*mut E, { [1] }> = base.reshape(const_shape![1]);
        let base: PointerTile<*mut E, { [TILE_SIZE] }> = base.broadcast(const_shape![TILE_SIZE]);
        let ptrs: PointerTile<*mut E, { [TILE_SIZE] }> = base.offset_tile(off);
        let (x, _t): (Tile<E, { [TILE_SIZE] }>, Token) = unsafe {
            load_ptr_tko(ptrs, ordering::Weak, None::<scope::TileBlock>, Some(mask), Some(neg_inf), Some(entry), Latency::<0>)
        };
        let y: Tile<E, { [TILE_SIZE] }> = row_softmax(x);
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
        let obase: PointerTile<*mut E, { [1] }> = obase.reshape(const_shape![1]);
        let obase: PointerTile<*mut E, { [TILE_SIZE] }> = obase.broadcast(const_shape![TILE_SIZE]);
        let optrs: PointerTile<*mut E, { [TILE_SIZE] }> = obase.offset_tile(ooff);
        let _s: Token = unsafe {
            store_ptr_tko(optrs, y, ordering::Weak, None::<scope::TileBlock>, Some(omask), Some(entry), Latency::<0>)
        };
    }
}
