//! Port of tilegym.ops.cutile.swiglu:_swiglu_forward_kernel: one block per row, a and b
//! gathered (padding 0; bounds checked only when check_bounds, a constant: one entry each),
//! c = (silu(a) in float32, cast to a's dtype) * b, one scatter. Entry hints: occupancy 1,
//! 8 worker warps, as the kernel's decorator.
#[cutile::module]
pub mod swiglu_port {
    use cutile::core::*;

    /// A scalar as [T] lanes of u64 (gather indices and extents are widened to 64 bits).
    fn lanes<const TILE_SIZE: i32>(v: i32) -> Tile<u64, { [TILE_SIZE] }> {
        let s: Tile<i32, { [] }> = scalar_to_tile(v);
        let w: Tile<u64, { [] }> = exti(s);
        w.reshape(const_shape![1]).broadcast(const_shape![TILE_SIZE])
    }

    #[cutile::entry(unchecked_accesses = true, optimization_hints = (
        sm_90 = (occupancy = 1, num_worker_warps_per_cta = 8),
        sm_100 = (occupancy = 1, num_worker_warps_per_cta = 8)))]
    pub unsafe fn swiglu_checked_f32<const TILE_SIZE: i32>(
        a: *mut f32, a_shape0: i32, a_shape1: i32, a_stride0: i32, a_stride1: i32,
        b: *mut f32, b_shape0: i32, b_shape1: i32, b_stride0: i32, b_stride1: i32,
        c: *mut f32, c_shape0: i32, c_shape1: i32, c_stride0: i32, c_stride1: i32,
    ) {
        let zero: Tile<f32, { [] }> = constant(0.0f32, const_shape![]);
        let zero: f32 = tile_to_scalar(zero);
        let offsets: Tile<i32, { [TILE_SIZE] }> = iota(const_shape![TILE_SIZE]);
        unsafe {
            checked(a, a_shape0, a_shape1, a_stride0, a_stride1, b, b_shape0, b_shape1, b_stride0, b_stride1,
                   c, c_shape0, c_shape1, c_stride0, c_stride1, zero, offsets)
        }
    }

    #[cutile::entry(unchecked_accesses = true, optimization_hints = (
        sm_90 = (occupancy = 1, num_worker_warps_per_cta = 8),
        sm_100 = (occupancy = 1, num_worker_warps_per_cta = 8)))]
    pub unsafe fn swiglu_unchecked_f32<const TILE_SIZE: i32>(
        a: *mut f32, a_shape0: i32, a_shape1: i32, a_stride0: i32, a_stride1: i32,
        b: *mut f32, b_shape0: i32, b_shape1: i32, b_stride0: i32, b_stride1: i32,
        c: *mut f32, c_shape0: i32, c_shape1: i32, c_stride0: i32, c_stride1: i32,
    ) {
        let zero: Tile<f32, { [] }> = constant(0.0f32, const_shape![]);
        let zero: f32 = tile_to_scalar(zero);
        let offsets: Tile<i32, { [TILE_SIZE] }> = iota(const_shape![TILE_SIZE]);
        unsafe {
            unchecked(a, a_shape0, a_shape1, a_stride0, a_stride1, b, b_shape0, b_shape1, b_stride0, b_stride1,
                   c, c_shape0, c_shape1, c_stride0, c_stride1, zero, offsets)
        }
    }

    #[cutile::entry(unchecked_accesses = true, optimization_hints = (
        sm_90 = (occupancy = 1, num_worker_warps_per_cta = 8),
        sm_100 = (occupancy = 1, num_worker_warps_per_cta = 8)))]
    pub unsafe fn swiglu_checked_f16<const TILE_SIZE: i32>(
        a: *mut f16, a_shape0: i32, a_shape1: i32, a_stride0: i32, a_stride1: i32,
        b: *mut f16, b_shape0: i32, b_shape1: i32, b_stride0: i32, b_stride1: i32,
        c: *mut f16, c_shape0: i32, c_shape1: i32, c_stride0: i32, c_stride1: i32,
    ) {
        let zero: Tile<f16, { [] }> = constant(f16::ZERO, const_shape![]);
        let zero: f16 = tile_to_scalar(zero);
        let offsets: Tile<i32, { [TILE_SIZE] }> = iota(const_shape![TILE_SIZE]);
        unsafe {
            checked(a, a_shape0, a_shape1, a_stride0, a_stride1, b, b_shape0, b_shape1, b_stride0, b_stride1,
                   c, c_shape0, c_shape1, c_stride0, c_stride1, zero, offsets)
        }
    }

    #[cutile::entry(unchecked_accesses = true, optimization_hints = (
        sm_90 = (occupancy = 1, num_worker_warps_per_cta = 8),
        sm_100 = (occupancy = 1, num_worker_warps_per_cta = 8)))]
    pub unsafe fn swiglu_unchecked_f16<const TILE_SIZE: i32>(
        a: *mut f16, a_shape0: i32, a_shape1: i32, a_stride0: i32, a_stride1: i32,
        b: *mut f16, b_shape0: i32, b_shape1: i32, b_stride0: i32, b_stride1: i32,
        c: *mut f16, c_shape0: i32, c_shape1: i32, c_stride0: i32, c_stride1: i32,
    ) {
        let zero: Tile<f16, { [] }> = constant(f16::ZERO, const_shape![]);
        let zero: f16 = tile_to_scalar(zero);
        let offsets: Tile<i32, { [TILE_SIZE] }> = iota(const_shape![TILE_SIZE]);
        unsafe {
            unchecked(a, a_shape0, a_shape1, a_stride0, a_stride1, b, b_shape0, b_shape1, b_stride0, b_stride1,
                   c, c_shape0, c_shape1, c_stride0, c_stride1, zero, offsets)
        }
    }

    #[cutile::entry(unchecked_accesses = true, optimization_hints = (
        sm_90 = (occupancy = 1, num_worker_warps_per_cta = 8),
        sm_100 = (occupancy = 1, num_worker_warps_per_cta = 8)))]
    pub unsafe fn swiglu_checked_bf16<const TILE_SIZE: i32>(
        a: *mut bf16, a_shape0: i32, a_shape1: i32, a_stride0: i32, a_stride1: i32,
        b: *mut bf16, b_shape0: i32, b_shape1: i32, b_stride0: i32, b_stride1: i32,
        c: *mut bf16, c_shape0: i32, c_shape1: i32, c_stride0: i32, c_stride1: i32,
    ) {
        let zero: Tile<bf16, { [] }> = constant(bf16::ZERO, const_shape![]);
        let zero: bf16 = tile_to_scalar(zero);
        let offsets: Tile<i32, { [TILE_SIZE] }> = iota(const_shape![TILE_SIZE]);
        unsafe {
            checked(a, a_shape0, a_shape1, a_stride0, a_stride1, b, b_shape0, b_shape1, b_stride0, b_stride1,
                   c, c_shape0, c_shape1, c_stride0, c_stride1, zero, offsets)
        }
    }

    #[cutile::entry(unchecked_accesses = true, optimization_hints = (
        sm_90 = (occupancy = 1, num_worker_warps_per_cta = 8),
        sm_100 = (occupancy = 1, num_worker_warps_per_cta = 8)))]
    pub unsafe fn swiglu_unchecked_bf16<const TILE_SIZE: i32>(
        a: *mut bf16, a_shape0: i32, a_shape1: i32, a_stride0: i32, a_stride1: i32,
        b: *mut bf16, b_shape0: i32, b_shape1: i32, b_stride0: i32, b_stride1: i32,
        c: *mut bf16, c_shape0: i32, c_shape1: i32, c_stride0: i32, c_stride1: i32,
    ) {
        let zero: Tile<bf16, { [] }> = constant(bf16::ZERO, const_shape![]);
        let zero: bf16 = tile_to_scalar(zero);
        let offsets: Tile<i32, { [TILE_SIZE] }> = iota(const_shape![TILE_SIZE]);
        unsafe {
            unchecked(a, a_shape0, a_shape1, a_stride0, a_stride1, b, b_shape0, b_shape1, b_stride0, b_stride1,
                   c, c_shape0, c_shape1, c_stride0, c_stride1, zero, offsets)
        }
    }

    unsafe fn checked<E: ElementType, const TILE_SIZE: i32>(
        a: *mut E, a_shape0: i32, a_shape1: i32, a_stride0: i32, a_stride1: i32,
        b: *mut E, b_shape0: i32, b_shape1: i32, b_stride0: i32, b_stride1: i32,
        c: *mut E, c_shape0: i32, c_shape1: i32, c_stride0: i32, c_stride1: i32,
        zero: E, offsets: Tile<i32, { [TILE_SIZE] }>,
    ) {
        let a_shape0 = unsafe { assume_bounds_lower::<_, 0>(a_shape0) };
        let a_shape1 = unsafe { assume_bounds_lower::<_, 0>(a_shape1) };
        let a_stride0 = unsafe { assume_bounds_lower::<_, 0>(a_stride0) };
        let b_shape0 = unsafe { assume_bounds_lower::<_, 0>(b_shape0) };
        let b_shape1 = unsafe { assume_bounds_lower::<_, 0>(b_shape1) };
        let b_stride0 = unsafe { assume_bounds_lower::<_, 0>(b_stride0) };
        let c_shape0 = unsafe { assume_bounds_lower::<_, 0>(c_shape0) };
        let c_shape1 = unsafe { assume_bounds_lower::<_, 0>(c_shape1) };
        let c_stride0 = unsafe { assume_bounds_lower::<_, 0>(c_stride0) };
        let _ = (a_stride1, b_stride1, c_stride1);
        let entry: Token = new_token_unordered();
        let unit: Tile<u64, { [TILE_SIZE] }> = constant(1u64, const_shape![TILE_SIZE]);
        let row: i32 = get_tile_block_id().0;
        // a = ct.gather(a, (row, offsets), padding 0), b likewise
        let arows: Tile<u64, { [TILE_SIZE] }> = lanes::<TILE_SIZE>(row);
        let aheight: Tile<u64, { [TILE_SIZE] }> = lanes::<TILE_SIZE>(a_shape0);
        let arow_ok: Tile<bool, { [TILE_SIZE] }> = cmpi(arows, aheight, predicate::LessThan);
        let astride: Tile<u64, { [TILE_SIZE] }> = lanes::<TILE_SIZE>(a_stride0);
        let arow_off: Tile<u64, { [TILE_SIZE] }> = arows * astride;
        let acols: Tile<u64, { [TILE_SIZE] }> = exti(offsets);
        let awidth: Tile<u64, { [TILE_SIZE] }> = lanes::<TILE_SIZE>(a_shape1);
        let acol_ok: Tile<bool, { [TILE_SIZE] }> = cmpi(acols, awidth, predicate::LessThan);
        let amask: Tile<bool, { [TILE_SIZE] }> = andi(arow_ok, acol_ok);
        let acol_off: Tile<u64, { [TILE_SIZE] }> = unit * acols;
        let aoff: Tile<u64, { [TILE_SIZE] }> = arow_off + acol_off;
        let abase: PointerTile<*mut E, { [] }> = pointer_to_tile(a);
        let aptrs: PointerTile<*mut E, { [1] }> = abase.reshape(const_shape![1]);
        let aptrs: PointerTile<*mut E, { [TILE_SIZE] }> = aptrs.broadcast(const_shape![TILE_SIZE]);
        let aptrs: PointerTile<*mut E, { [TILE_SIZE] }> = aptrs.offset_tile(aoff);
        let (a_tile, _at): (Tile<E, { [TILE_SIZE] }>, Token) = unsafe {
            load_ptr_tko(aptrs, ordering::Weak, None::<scope::TileBlock>, Some(amask), Some(zero), Some(entry), Latency::<0>)
        };
        let brows: Tile<u64, { [TILE_SIZE] }> = lanes::<TILE_SIZE>(row);
        let bheight: Tile<u64, { [TILE_SIZE] }> = lanes::<TILE_SIZE>(b_shape0);
        let brow_ok: Tile<bool, { [TILE_SIZE] }> = cmpi(brows, bheight, predicate::LessThan);
        let bstride: Tile<u64, { [TILE_SIZE] }> = lanes::<TILE_SIZE>(b_stride0);
        let brow_off: Tile<u64, { [TILE_SIZE] }> = brows * bstride;
        let bcols: Tile<u64, { [TILE_SIZE] }> = exti(offsets);
        let bwidth: Tile<u64, { [TILE_SIZE] }> = lanes::<TILE_SIZE>(b_shape1);
        let bcol_ok: Tile<bool, { [TILE_SIZE] }> = cmpi(bcols, bwidth, predicate::LessThan);
        let bmask: Tile<bool, { [TILE_SIZE] }> = andi(brow_ok, bcol_ok);
        let bcol_off: Tile<u64, { [TILE_SIZE] }> = unit * bcols;
        let boff: Tile<u64, { [TILE_SIZE] }> = brow_off + bcol_off;
        let bbase: PointerTile<*mut E, { [] }> = pointer_to_tile(b);
        let bptrs: PointerTile<*mut E, { [1] }> = bbase.reshape(const_shape![1]);
        let bptrs: PointerTile<*mut E, { [TILE_SIZE] }> = bptrs.broadcast(const_shape![TILE_SIZE]);
        let bptrs: PointerTile<*mut E, { [TILE_SIZE] }> = bptrs.offset_tile(boff);
        let (b_tile, _bt): (Tile<E, { [TILE_SIZE] }>, Token) = unsafe {
            load_ptr_tko(bptrs, ordering::Weak, None::<scope::TileBlock>, Some(bmask), Some(zero), Some(entry), Latency::<0>)
        };
        // silu(a) in float32 (exp, then truediv(1.0, 1 + exp(-a), ftz, APPROX)), cast to a's
        // dtype, times b in that dtype
        let a_f32: Tile<f32, { [TILE_SIZE] }> = convert_tile(a_tile);
        let neg: Tile<f32, { [TILE_SIZE] }> = negf(a_f32);
        let e: Tile<f32, { [TILE_SIZE] }> = exp(neg);
        let one: Tile<f32, { [TILE_SIZE] }> = constant(1.0f32, const_shape![TILE_SIZE]);
        let denom: Tile<f32, { [TILE_SIZE] }> = e + one;
        let sigmoid: Tile<f32, { [TILE_SIZE] }> = true_div(one, denom);
        let silu: Tile<f32, { [TILE_SIZE] }> = a_f32 * sigmoid;
        let silu: Tile<E, { [TILE_SIZE] }> = convert_tile(silu);
        let c_tile: Tile<E, { [TILE_SIZE] }> = silu * b_tile;
        // ct.scatter(c, (row, offsets), c_tile)
        let crows: Tile<u64, { [TILE_SIZE] }> = lanes::<TILE_SIZE>(row);
        let cheight: Tile<u64, { [TILE_SIZE] }> = lanes::<TILE_SIZE>(c_shape0);
        let crow_ok: Tile<bool, { [TILE_SIZE] }> = cmpi(crows, cheight, predicate::LessThan);
        let cstride: Tile<u64, { [TILE_SIZE] }> = lanes::<TILE_SIZE>(c_stride0);
        let crow_off: Tile<u64, { [TILE_SIZE] }> = crows * cstride;
        let ccols: Tile<u64, { [TILE_SIZE] }> = exti(offsets);
        let cwidth: Tile<u64, { [TILE_SIZE] }> = lanes::<TILE_SIZE>(c_shape1);
        let ccol_ok: Tile<bool, { [TILE_SIZE] }> = cmpi(ccols, cwidth, predicate::LessThan);
        let cmask: Tile<bool, { [TILE_SIZE] }> = andi(crow_ok, ccol_ok);
        let ccol_off: Tile<u64, { [TILE_SIZE] }> = unit * ccols;
        let coff: Tile<u64, { [TILE_SIZE] }> = crow_off + ccol_off;
        let cbase: PointerTile<*mut E, { [] }> = pointer_to_tile(c);
        let cptrs: PointerTile<*mut E, { [1] }> = cbase.reshape(const_shape![1]);
        let cptrs: PointerTile<*mut E, { [TILE_SIZE] }> = cptrs.broadcast(const_shape![TILE_SIZE]);
        let cptrs: PointerTile<*mut E, { [TILE_SIZE] }> = cptrs.offset_tile(coff);
        let _s: Token = unsafe {
            store_ptr_tko(cptrs, c_tile, ordering::Weak, None::<scope::TileBlock>, Some(cmask), Some(entry), Latency::<0>)
        };
    }

    unsafe fn unchecked<E: ElementType, const TILE_SIZE: i32>(
        a: *mut E, a_shape0: i32, a_shape1: i32, a_stride0: i32, a_stride1: i32,
        b: *mut E, b_shape0: i32, b_shape1: i32, b_stride0: i32, b_stride1: i32,
        c: *mut E, c_shape0: i32, c_shape1: i32, c_stride0: i32, c_stride1: i32,
        zero: E, offsets: Tile<i32, { [TILE_SIZE] }>,
    ) {
        let a_stride0 = unsafe { assume_bounds_lower::<_, 0>(a_stride0) };
        let b_stride0 = unsafe { assume_bounds_lower::<_, 0>(b_stride0) };
        let c_stride0 = unsafe { assume_bounds_lower::<_, 0>(c_stride0) };
        let _ = (a_stride1, b_stride1, c_stride1, a_shape0, a_shape1, b_shape0, b_shape1, c_shape0, c_shape1);
        let entry: Token = new_token_unordered();
        let unit: Tile<u64, { [TILE_SIZE] }> = constant(1u64, const_shape![TILE_SIZE]);
        let row: i32 = get_tile_block_id().0;
        // a = ct.gather(a, (row, offsets), padding 0), b likewise
        let arows: Tile<u64, { [TILE_SIZE] }> = lanes::<TILE_SIZE>(row);
        let astride: Tile<u64, { [TILE_SIZE] }> = lanes::<TILE_SIZE>(a_stride0);
        let arow_off: Tile<u64, { [TILE_SIZE] }> = arows * astride;
        let acols: Tile<u64, { [TILE_SIZE] }> = exti(offsets);
        let acol_off: Tile<u64, { [TILE_SIZE] }> = unit * acols;
        let aoff: Tile<u64, { [TILE_SIZE] }> = arow_off + acol_off;
        let abase: PointerTile<*mut E, { [] }> = pointer_to_tile(a);
        let aptrs: PointerTile<*mut E, { [1] }> = abase.reshape(const_shape![1]);
        let aptrs: PointerTile<*mut E, { [TILE_SIZE] }> = aptrs.broadcast(const_shape![TILE_SIZE]);
        let aptrs: PointerTile<*mut E, { [TILE_SIZE] }> = aptrs.offset_tile(aoff);
        let (a_tile, _at): (Tile<E, { [TILE_SIZE] }>, Token) = unsafe {
            load_ptr_tko(aptrs, ordering::Weak, None::<scope::TileBlock>, None, Some(zero), Some(entry), Latency::<0>)
        };
        let brows: Tile<u64, { [TILE_SIZE] }> = lanes::<TILE_SIZE>(row);
        let bstride: Tile<u64, { [TILE_SIZE] }> = lanes::<TILE_SIZE>(b_stride0);
        let brow_off: Tile<u64, { [TILE_SIZE] }> = brows * bstride;
        let bcols: Tile<u64, { [TILE_SIZE] }> = exti(offsets);
        let bcol_off: Tile<u64, { [TILE_SIZE] }> = unit * bcols;
        let boff: Tile<u64, { [TILE_SIZE] }> = brow_off + bcol_off;
        let bbase: PointerTile<*mut E, { [] }> = pointer_to_tile(b);
        let bptrs: PointerTile<*mut E, { [1] }> = bbase.reshape(const_shape![1]);
        let bptrs: PointerTile<*mut E, { [TILE_SIZE] }> = bptrs.broadcast(const_shape![TILE_SIZE]);
        let bptrs: PointerTile<*mut E, { [TILE_SIZE] }> = bptrs.offset_tile(boff);
        let (b_tile, _bt): (Tile<E, { [TILE_SIZE] }>, Token) = unsafe {
            load_ptr_tko(bptrs, ordering::Weak, None::<scope::TileBlock>, None, Some(zero), Some(entry), Latency::<0>)
        };
        // silu(a) in float32 (exp, then truediv(1.0, 1 + exp(-a), ftz, APPROX)), cast to a's
        // dtype, times b in that dtype
        let a_f32: Tile<f32, { [TILE_SIZE] }> = convert_tile(a_tile);
        let neg: Tile<f32, { [TILE_SIZE] }> = negf(a_f32);
        let e: Tile<f32, { [TILE_SIZE] }> = exp(neg);
        let one: Tile<f32, { [TILE_SIZE] }> = constant(1.0f32, const_shape![TILE_SIZE]);
        let denom: Tile<f32, { [TILE_SIZE] }> = e + one;
        let sigmoid: Tile<f32, { [TILE_SIZE] }> = true_div(one, denom);
        let silu: Tile<f32, { [TILE_SIZE] }> = a_f32 * sigmoid;
        let silu: Tile<E, { [TILE_SIZE] }> = convert_tile(silu);
        let c_tile: Tile<E, { [TILE_SIZE] }> = silu * b_tile;
        // ct.scatter(c, (row, offsets), c_tile)
        let crows: Tile<u64, { [TILE_SIZE] }> = lanes::<TILE_SIZE>(row);
        let cstride: Tile<u64, { [TILE_SIZE] }> = lanes::<TILE_SIZE>(c_stride0);
        let crow_off: Tile<u64, { [TILE_SIZE] }> = crows * cstride;
        let ccols: Tile<u64, { [TILE_SIZE] }> = exti(offsets);
        let ccol_off: Tile<u64, { [TILE_SIZE] }> = unit * ccols;
        let coff: Tile<u64, { [TILE_SIZE] }> = crow_off + ccol_off;
        let cbase: PointerTile<*mut E, { [] }> = pointer_to_tile(c);
        let cptrs: PointerTile<*mut E, { [1] }> = cbase.reshape(const_shape![1]);
        let cptrs: PointerTile<*mut E, { [TILE_SIZE] }> = cptrs.broadcast(const_shape![TILE_SIZE]);
        let cptrs: PointerTile<*mut E, { [TILE_SIZE] }> = cptrs.offset_tile(coff);
        let _s: Token = unsafe {
            store_ptr_tko(cptrs, c_tile, ordering::Weak, None::<scope::TileBlock>, None, Some(entry), Latency::<0>)
        };
    }
}
