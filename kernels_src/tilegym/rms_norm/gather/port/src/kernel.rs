//! Port of tilegym.ops.cutile.rms_norm:_rms_norm_kernel_gather (mode multi_wave_reload): one
//! block per row; a loop over the row's TILE_SIZE column tiles sums x*x (fma), rms =
//! rsqrt(sum / N + eps) is scattered to Rstd, a second loop reloads x and w (latency 1) and
//! scatters y = x * rms * (offset + w). Bounds are checked only when the tiles overhang N.
//! The loops are `(0..num_tiles).step_by(1)`: over a plain range with constant bounds cutile
//! gives the induction variable an exact range, and for a single tile (num_tiles = 1) it
//! folds `j * TILE_SIZE` to 0, where cuTile Python keeps the multiply. With a step it keeps
//! it too; both loops step by 1 (tileiras folds either form).
#[cutile::module]
#[allow(non_snake_case)]
pub mod rms_norm_gather_port {
    use cutile::core::*;

    /// A scalar as [T] lanes of u64 (gather indices and extents are widened to 64 bits).
    fn lanes<const TILE_SIZE: i32>(v: i32) -> Tile<u64, { [TILE_SIZE] }> {
        let s: Tile<i32, { [] }> = scalar_to_tile(v);
        let w: Tile<u64, { [] }> = exti(s);
        w.reshape(const_shape![1]).broadcast(const_shape![TILE_SIZE])
    }


    #[cutile::entry(unchecked_accesses = true)]
    pub unsafe fn rms_norm_gather_f32<const N: i32, const TILE_SIZE: i32>(
        x: *mut f32, x_shape0: i32, x_shape1: i32, x_stride0: i32, x_stride1: i32,
        w: *mut f32, w_shape0: i32, w_stride0: i32,
        out: *mut f32, out_shape0: i32, out_shape1: i32, out_stride0: i32, out_stride1: i32,
        Rstd: *mut f32, Rstd_shape0: i32, Rstd_stride0: i32,
    ) {
        // EPS = 1e-5 and OFFSET = 0.0 are this port's constants (the C ABI refuses others)
        let eps: Tile<f32, { [] }> = constant(1e-5f32, const_shape![]);
        let acc: Tile<f32, { [TILE_SIZE] }> = constant(0.0f32, const_shape![TILE_SIZE]);
        let offsets: Tile<i32, { [TILE_SIZE] }> = iota(const_shape![TILE_SIZE]);
        let zero: Tile<f32, { [] }> = constant(0.0f32, const_shape![]);
        let zero: f32 = tile_to_scalar(zero);
        let n_i: Tile<i32, { [] }> = scalar_to_tile(N);
        let n_f: Tile<f32, { [] }> = convert_tile(n_i);
        // num_tiles = cdiv(N, TILE_SIZE); check_bound = num_tiles * TILE_SIZE != N (constants)
        let num_tiles: i32 = (N + TILE_SIZE - 1i32) / TILE_SIZE;
        if (N + TILE_SIZE - 1i32) / TILE_SIZE * TILE_SIZE != N {
            unsafe { checked(x, x_shape0, x_shape1, x_stride0, x_stride1, w, w_shape0, w_stride0, out, out_shape0, out_shape1, out_stride0, out_stride1, Rstd, Rstd_shape0, Rstd_stride0, zero, offsets, eps, n_f, acc, TILE_SIZE, num_tiles) }
        } else {
            unsafe { unchecked(x, x_shape0, x_shape1, x_stride0, x_stride1, w, w_shape0, w_stride0, out, out_shape0, out_shape1, out_stride0, out_stride1, Rstd, Rstd_shape0, Rstd_stride0, zero, offsets, eps, n_f, acc, TILE_SIZE, num_tiles) }
        }
    }

    #[cutile::entry(unchecked_accesses = true)]
    pub unsafe fn rms_norm_gather_f16<const N: i32, const TILE_SIZE: i32>(
        x: *mut f16, x_shape0: i32, x_shape1: i32, x_stride0: i32, x_stride1: i32,
        w: *mut f16, w_shape0: i32, w_stride0: i32,
        out: *mut f16, out_shape0: i32, out_shape1: i32, out_stride0: i32, out_stride1: i32,
        Rstd: *mut f32, Rstd_shape0: i32, Rstd_stride0: i32,
    ) {
        // EPS = 1e-5 and OFFSET = 0.0 are this port's constants (the C ABI refuses others)
        let eps: Tile<f32, { [] }> = constant(1e-5f32, const_shape![]);
        let acc: Tile<f32, { [TILE_SIZE] }> = constant(0.0f32, const_shape![TILE_SIZE]);
        let offsets: Tile<i32, { [TILE_SIZE] }> = iota(const_shape![TILE_SIZE]);
        let zero: Tile<f16, { [] }> = constant(f16::ZERO, const_shape![]);
        let zero: f16 = tile_to_scalar(zero);
        let n_i: Tile<i32, { [] }> = scalar_to_tile(N);
        let n_f: Tile<f32, { [] }> = convert_tile(n_i);
        // num_tiles = cdiv(N, TILE_SIZE); check_bound = num_tiles * TILE_SIZE != N (constants)
        let num_tiles: i32 = (N + TILE_SIZE - 1i32) / TILE_SIZE;
        if (N + TILE_SIZE - 1i32) / TILE_SIZE * TILE_SIZE != N {
            unsafe { checked(x, x_shape0, x_shape1, x_stride0, x_stride1, w, w_shape0, w_stride0, out, out_shape0, out_shape1, out_stride0, out_stride1, Rstd, Rstd_shape0, Rstd_stride0, zero, offsets, eps, n_f, acc, TILE_SIZE, num_tiles) }
        } else {
            unsafe { unchecked(x, x_shape0, x_shape1, x_stride0, x_stride1, w, w_shape0, w_stride0, out, out_shape0, out_shape1, out_stride0, out_stride1, Rstd, Rstd_shape0, Rstd_stride0, zero, offsets, eps, n_f, acc, TILE_SIZE, num_tiles) }
        }
    }

    #[cutile::entry(unchecked_accesses = true)]
    pub unsafe fn rms_norm_gather_bf16<const N: i32, const TILE_SIZE: i32>(
        x: *mut bf16, x_shape0: i32, x_shape1: i32, x_stride0: i32, x_stride1: i32,
        w: *mut bf16, w_shape0: i32, w_stride0: i32,
        out: *mut bf16, out_shape0: i32, out_shape1: i32, out_stride0: i32, out_stride1: i32,
        Rstd: *mut f32, Rstd_shape0: i32, Rstd_stride0: i32,
    ) {
        // EPS = 1e-5 and OFFSET = 0.0 are this port's constants (the C ABI refuses others)
        let eps: Tile<f32, { [] }> = constant(1e-5f32, const_shape![]);
        let acc: Tile<f32, { [TILE_SIZE] }> = constant(0.0f32, const_shape![TILE_SIZE]);
        let offsets: Tile<i32, { [TILE_SIZE] }> = iota(const_shape![TILE_SIZE]);
        let zero: Tile<bf16, { [] }> = constant(bf16::ZERO, const_shape![]);
        let zero: bf16 = tile_to_scalar(zero);
        let n_i: Tile<i32, { [] }> = scalar_to_tile(N);
        let n_f: Tile<f32, { [] }> = convert_tile(n_i);
        // num_tiles = cdiv(N, TILE_SIZE); check_bound = num_tiles * TILE_SIZE != N (constants)
        let num_tiles: i32 = (N + TILE_SIZE - 1i32) / TILE_SIZE;
        if (N + TILE_SIZE - 1i32) / TILE_SIZE * TILE_SIZE != N {
            unsafe { checked(x, x_shape0, x_shape1, x_stride0, x_stride1, w, w_shape0, w_stride0, out, out_shape0, out_shape1, out_stride0, out_stride1, Rstd, Rstd_shape0, Rstd_stride0, zero, offsets, eps, n_f, acc, TILE_SIZE, num_tiles) }
        } else {
            unsafe { unchecked(x, x_shape0, x_shape1, x_stride0, x_stride1, w, w_shape0, w_stride0, out, out_shape0, out_shape1, out_stride0, out_stride1, Rstd, Rstd_shape0, Rstd_stride0, zero, offsets, eps, n_f, acc, TILE_SIZE, num_tiles) }
        }
    }

    unsafe fn checked<E: ElementType, const TILE_SIZE: i32>(
        x: *mut E, x_shape0: i32, x_shape1: i32, x_stride0: i32, x_stride1: i32,
        w: *mut E, w_shape0: i32, w_stride0: i32,
        out: *mut E, out_shape0: i32, out_shape1: i32, out_stride0: i32, out_stride1: i32,
        Rstd: *mut f32, Rstd_shape0: i32, Rstd_stride0: i32,
        zero: E, offsets: Tile<i32, { [TILE_SIZE] }>, eps: Tile<f32, { [] }>, n_f: Tile<f32, { [] }>,
        acc: Tile<f32, { [TILE_SIZE] }>, tile: i32, num_tiles: i32,
    ) {
        let x_shape0 = unsafe { assume_bounds_lower::<_, 0>(x_shape0) };
        let x_shape1 = unsafe { assume_bounds_lower::<_, 0>(x_shape1) };
        let x_stride0 = unsafe { assume_bounds_lower::<_, 0>(x_stride0) };
        let w_shape0 = unsafe { assume_bounds_lower::<_, 0>(w_shape0) };
        let out_shape0 = unsafe { assume_bounds_lower::<_, 0>(out_shape0) };
        let out_shape1 = unsafe { assume_bounds_lower::<_, 0>(out_shape1) };
        let out_stride0 = unsafe { assume_bounds_lower::<_, 0>(out_stride0) };
        let Rstd_shape0 = unsafe { assume_bounds_lower::<_, 0>(Rstd_shape0) };
        let _ = (x_stride1, w_stride0, out_stride1, Rstd_stride0);
        let entry: Token = new_token_unordered();
        let unit: Tile<u64, { [TILE_SIZE] }> = constant(1u64, const_shape![TILE_SIZE]);
        let unit0: Tile<u64, { [] }> = constant(1u64, const_shape![]);
        let row: i32 = get_tile_block_id().0;
        let xbase: PointerTile<*mut E, { [] }> = pointer_to_tile(x);
        // for j in range(num_tiles): _rms += xj * xj over offs = j * TILE_SIZE + offsets
        let mut sum: Tile<f32, { [TILE_SIZE] }> = acc;
        for j in (0i32..num_tiles).step_by(1i32 as usize) {
            let rows: Tile<u64, { [TILE_SIZE] }> = lanes::<TILE_SIZE>(row);
            let height: Tile<u64, { [TILE_SIZE] }> = lanes::<TILE_SIZE>(x_shape0);
            let row_ok: Tile<bool, { [TILE_SIZE] }> = cmpi(rows, height, predicate::LessThan);
            let stride: Tile<u64, { [TILE_SIZE] }> = lanes::<TILE_SIZE>(x_stride0);
            let row_off: Tile<u64, { [TILE_SIZE] }> = rows * stride;
            let width: Tile<u64, { [TILE_SIZE] }> = lanes::<TILE_SIZE>(x_shape1);
            let xptrs: PointerTile<*mut E, { [1] }> = xbase.reshape(const_shape![1]);
            let xptrs: PointerTile<*mut E, { [TILE_SIZE] }> = xptrs.broadcast(const_shape![TILE_SIZE]);
            let start: Tile<i32, { [] }> = scalar_to_tile(tile * j);
            let start: Tile<i32, { [TILE_SIZE] }> = start.reshape(const_shape![1]).broadcast(const_shape![TILE_SIZE]);
            let offs: Tile<i32, { [TILE_SIZE] }> = offsets + start;
            let cols: Tile<u64, { [TILE_SIZE] }> = exti(offs);
            let col_ok: Tile<bool, { [TILE_SIZE] }> = cmpi(cols, width, predicate::LessThan);
            let mask: Tile<bool, { [TILE_SIZE] }> = andi(row_ok, col_ok);
            let col_off: Tile<u64, { [TILE_SIZE] }> = unit * cols;
            let off: Tile<u64, { [TILE_SIZE] }> = row_off + col_off;
            let ptrs: PointerTile<*mut E, { [TILE_SIZE] }> = xptrs.offset_tile(off);
            let (xj, _xt): (Tile<E, { [TILE_SIZE] }>, Token) = unsafe {
                load_ptr_tko(ptrs, ordering::Weak, None::<scope::TileBlock>, Some(mask), Some(zero), Some(entry), Latency::<1>)
            };
            let xj: Tile<f32, { [TILE_SIZE] }> = convert_tile(xj);
            sum = fma(xj, xj, sum, rounding::NearestEven, ftz::Disabled);
        }
        let total: Tile<f32, { [] }> = reduce_sum(sum, 0i32);
        let mean: Tile<f32, { [] }> = total / n_f;
        let var: Tile<f32, { [] }> = eps + mean;
        let rms: Tile<f32, { [] }> = rsqrt(var, ftz::Disabled);
        // ct.scatter(Rstd, row, rms)
        let r0: Tile<i32, { [] }> = scalar_to_tile(row);
        let r64: Tile<u64, { [] }> = exti(r0);
        let n0: Tile<i32, { [] }> = scalar_to_tile(Rstd_shape0);
        let n64: Tile<u64, { [] }> = exti(n0);
        let r_ok: Tile<bool, { [] }> = cmpi(r64, n64, predicate::LessThan);
        let r_off: Tile<u64, { [] }> = unit0 * r64;
        let rbase: PointerTile<*mut f32, { [] }> = pointer_to_tile(Rstd);
        let rptr: PointerTile<*mut f32, { [] }> = rbase.offset_tile(r_off);
        let rptr: PointerTile<*mut f32, { [] }> = unsafe { assume_div_by::<_, 4>(rptr) };
        let _r: Token = unsafe {
            store_ptr_tko(rptr, rms, ordering::Weak, None::<scope::TileBlock>, Some(r_ok), Some(entry), Latency::<0>)
        };
        let rms_b: Tile<f32, { [1] }> = rms.reshape(const_shape![1]);
        let rms_b: Tile<f32, { [TILE_SIZE] }> = rms_b.broadcast(const_shape![TILE_SIZE]);
        let wbase: PointerTile<*mut E, { [] }> = pointer_to_tile(w);
        let obase: PointerTile<*mut E, { [] }> = pointer_to_tile(out);
        // second pass: wj, xj reloaded, yj = xj * rms * (offset + wj) scattered
        let mut written: Token = entry;
        for j in (0i32..num_tiles).step_by(1i32 as usize) {
            let start: Tile<i32, { [] }> = scalar_to_tile(tile * j);
            let start: Tile<i32, { [TILE_SIZE] }> = start.reshape(const_shape![1]).broadcast(const_shape![TILE_SIZE]);
            let offs: Tile<i32, { [TILE_SIZE] }> = offsets + start;
            let wcols: Tile<u64, { [TILE_SIZE] }> = exti(offs);
            let wn: Tile<u64, { [TILE_SIZE] }> = lanes::<TILE_SIZE>(w_shape0);
            let wmask: Tile<bool, { [TILE_SIZE] }> = cmpi(wcols, wn, predicate::LessThan);
            let woff: Tile<u64, { [TILE_SIZE] }> = unit * wcols;
            let wptrs: PointerTile<*mut E, { [1] }> = wbase.reshape(const_shape![1]);
            let wptrs: PointerTile<*mut E, { [TILE_SIZE] }> = wptrs.broadcast(const_shape![TILE_SIZE]);
            let wptrs: PointerTile<*mut E, { [TILE_SIZE] }> = wptrs.offset_tile(woff);
            let (wj, _wt): (Tile<E, { [TILE_SIZE] }>, Token) = unsafe {
                load_ptr_tko(wptrs, ordering::Weak, None::<scope::TileBlock>, Some(wmask), Some(zero), Some(entry), Latency::<1>)
            };
            let wj: Tile<f32, { [TILE_SIZE] }> = convert_tile(wj);
            let rows: Tile<u64, { [TILE_SIZE] }> = lanes::<TILE_SIZE>(row);
            let height: Tile<u64, { [TILE_SIZE] }> = lanes::<TILE_SIZE>(x_shape0);
            let row_ok: Tile<bool, { [TILE_SIZE] }> = cmpi(rows, height, predicate::LessThan);
            let stride: Tile<u64, { [TILE_SIZE] }> = lanes::<TILE_SIZE>(x_stride0);
            let row_off: Tile<u64, { [TILE_SIZE] }> = rows * stride;
            let width: Tile<u64, { [TILE_SIZE] }> = lanes::<TILE_SIZE>(x_shape1);
            let xptrs: PointerTile<*mut E, { [1] }> = xbase.reshape(const_shape![1]);
            let xptrs: PointerTile<*mut E, { [TILE_SIZE] }> = xptrs.broadcast(const_shape![TILE_SIZE]);
            let cols: Tile<u64, { [TILE_SIZE] }> = exti(offs);
            let col_ok: Tile<bool, { [TILE_SIZE] }> = cmpi(cols, width, predicate::LessThan);
            let mask: Tile<bool, { [TILE_SIZE] }> = andi(row_ok, col_ok);
            let col_off: Tile<u64, { [TILE_SIZE] }> = unit * cols;
            let off: Tile<u64, { [TILE_SIZE] }> = row_off + col_off;
            let ptrs: PointerTile<*mut E, { [TILE_SIZE] }> = xptrs.offset_tile(off);
            let (xj, _xt): (Tile<E, { [TILE_SIZE] }>, Token) = unsafe {
                load_ptr_tko(ptrs, ordering::Weak, None::<scope::TileBlock>, Some(mask), Some(zero), Some(entry), Latency::<1>)
            };
            let xj: Tile<f32, { [TILE_SIZE] }> = convert_tile(xj);
            let scaled: Tile<f32, { [TILE_SIZE] }> = xj * rms_b;
            let shifted: Tile<f32, { [TILE_SIZE] }> = acc + wj;
            let yj: Tile<f32, { [TILE_SIZE] }> = scaled * shifted;
            let yj: Tile<E, { [TILE_SIZE] }> = convert_tile(yj);
            let orows: Tile<u64, { [TILE_SIZE] }> = lanes::<TILE_SIZE>(row);
            let oheight: Tile<u64, { [TILE_SIZE] }> = lanes::<TILE_SIZE>(out_shape0);
            let orow_ok: Tile<bool, { [TILE_SIZE] }> = cmpi(orows, oheight, predicate::LessThan);
            let ostride: Tile<u64, { [TILE_SIZE] }> = lanes::<TILE_SIZE>(out_stride0);
            let orow_off: Tile<u64, { [TILE_SIZE] }> = orows * ostride;
            let owidth: Tile<u64, { [TILE_SIZE] }> = lanes::<TILE_SIZE>(out_shape1);
            let optrs: PointerTile<*mut E, { [1] }> = obase.reshape(const_shape![1]);
            let optrs: PointerTile<*mut E, { [TILE_SIZE] }> = optrs.broadcast(const_shape![TILE_SIZE]);
            let ocols: Tile<u64, { [TILE_SIZE] }> = exti(offs);
            let ocol_ok: Tile<bool, { [TILE_SIZE] }> = cmpi(ocols, owidth, predicate::LessThan);
            let omask: Tile<bool, { [TILE_SIZE] }> = andi(orow_ok, ocol_ok);
            let ocol_off: Tile<u64, { [TILE_SIZE] }> = unit * ocols;
            let ooff: Tile<u64, { [TILE_SIZE] }> = orow_off + ocol_off;
            let optrs: PointerTile<*mut E, { [TILE_SIZE] }> = optrs.offset_tile(ooff);
            written = unsafe {
                store_ptr_tko(optrs, yj, ordering::Weak, None::<scope::TileBlock>, Some(omask), Some(written), Latency::<1>)
            };
        }
    }

    unsafe fn unchecked<E: ElementType, const TILE_SIZE: i32>(
        x: *mut E, x_shape0: i32, x_shape1: i32, x_stride0: i32, x_stride1: i32,
        w: *mut E, w_shape0: i32, w_stride0: i32,
        out: *mut E, out_shape0: i32, out_shape1: i32, out_stride0: i32, out_stride1: i32,
        Rstd: *mut f32, Rstd_shape0: i32, Rstd_stride0: i32,
        zero: E, offsets: Tile<i32, { [TILE_SIZE] }>, eps: Tile<f32, { [] }>, n_f: Tile<f32, { [] }>,
        acc: Tile<f32, { [TILE_SIZE] }>, tile: i32, num_tiles: i32,
    ) {
        let x_stride0 = unsafe { assume_bounds_lower::<_, 0>(x_stride0) };
        let out_shape0 = unsafe { assume_bounds_lower::<_, 0>(out_shape0) };
        let out_shape1 = unsafe { assume_bounds_lower::<_, 0>(out_shape1) };
        let out_stride0 = unsafe { assume_bounds_lower::<_, 0>(out_stride0) };
        let Rstd_shape0 = unsafe { assume_bounds_lower::<_, 0>(Rstd_shape0) };
        let _ = (x_stride1, w_stride0, out_stride1, Rstd_stride0, x_shape0, x_shape1, w_shape0);
        let entry: Token = new_token_unordered();
        let unit: Tile<u64, { [TILE_SIZE] }> = constant(1u64, const_shape![TILE_SIZE]);
        let unit0: Tile<u64, { [] }> = constant(1u64, const_shape![]);
        let row: i32 = get_tile_block_id().0;
        let xbase: PointerTile<*mut E, { [] }> = pointer_to_tile(x);
        // for j in range(num_tiles): _rms += xj * xj over offs = j * TILE_SIZE + offsets
        let mut sum: Tile<f32, { [TILE_SIZE] }> = acc;
        for j in (0i32..num_tiles).step_by(1i32 as usize) {
            let rows: Tile<u64, { [TILE_SIZE] }> = lanes::<TILE_SIZE>(row);
            let stride: Tile<u64, { [TILE_SIZE] }> = lanes::<TILE_SIZE>(x_stride0);
            let row_off: Tile<u64, { [TILE_SIZE] }> = rows * stride;
            let xptrs: PointerTile<*mut E, { [1] }> = xbase.reshape(const_shape![1]);
            let xptrs: PointerTile<*mut E, { [TILE_SIZE] }> = xptrs.broadcast(const_shape![TILE_SIZE]);
            let start: Tile<i32, { [] }> = scalar_to_tile(tile * j);
            let start: Tile<i32, { [TILE_SIZE] }> = start.reshape(const_shape![1]).broadcast(const_shape![TILE_SIZE]);
            let offs: Tile<i32, { [TILE_SIZE] }> = offsets + start;
            let cols: Tile<u64, { [TILE_SIZE] }> = exti(offs);
            let col_off: Tile<u64, { [TILE_SIZE] }> = unit * cols;
            let off: Tile<u64, { [TILE_SIZE] }> = row_off + col_off;
            let ptrs: PointerTile<*mut E, { [TILE_SIZE] }> = xptrs.offset_tile(off);
            let (xj, _xt): (Tile<E, { [TILE_SIZE] }>, Token) = unsafe {
                load_ptr_tko(ptrs, ordering::Weak, None::<scope::TileBlock>, None, Some(zero), Some(entry), Latency::<1>)
            };
            let xj: Tile<f32, { [TILE_SIZE] }> = convert_tile(xj);
            sum = fma(xj, xj, sum, rounding::NearestEven, ftz::Disabled);
        }
        let total: Tile<f32, { [] }> = reduce_sum(sum, 0i32);
        let mean: Tile<f32, { [] }> = total / n_f;
        let var: Tile<f32, { [] }> = eps + mean;
        let rms: Tile<f32, { [] }> = rsqrt(var, ftz::Disabled);
        // ct.scatter(Rstd, row, rms)
        let r0: Tile<i32, { [] }> = scalar_to_tile(row);
        let r64: Tile<u64, { [] }> = exti(r0);
        let n0: Tile<i32, { [] }> = scalar_to_tile(Rstd_shape0);
        let n64: Tile<u64, { [] }> = exti(n0);
        let r_ok: Tile<bool, { [] }> = cmpi(r64, n64, predicate::LessThan);
        let r_off: Tile<u64, { [] }> = unit0 * r64;
        let rbase: PointerTile<*mut f32, { [] }> = pointer_to_tile(Rstd);
        let rptr: PointerTile<*mut f32, { [] }> = rbase.offset_tile(r_off);
        let rptr: PointerTile<*mut f32, { [] }> = unsafe { assume_div_by::<_, 4>(rptr) };
        let _r: Token = unsafe {
            store_ptr_tko(rptr, rms, ordering::Weak, None::<scope::TileBlock>, Some(r_ok), Some(entry), Latency::<0>)
        };
        let rms_b: Tile<f32, { [1] }> = rms.reshape(const_shape![1]);
        let rms_b: Tile<f32, { [TILE_SIZE] }> = rms_b.broadcast(const_shape![TILE_SIZE]);
        let wbase: PointerTile<*mut E, { [] }> = pointer_to_tile(w);
        let obase: PointerTile<*mut E, { [] }> = pointer_to_tile(out);
        // second pass: wj, xj reloaded, yj = xj * rms * (offset + wj) scattered
        let mut written: Token = entry;
        for j in (0i32..num_tiles).step_by(1i32 as usize) {
            let start: Tile<i32, { [] }> = scalar_to_tile(tile * j);
            let start: Tile<i32, { [TILE_SIZE] }> = start.reshape(const_shape![1]).broadcast(const_shape![TILE_SIZE]);
            let offs: Tile<i32, { [TILE_SIZE] }> = offsets + start;
            let wcols: Tile<u64, { [TILE_SIZE] }> = exti(offs);
            let woff: Tile<u64, { [TILE_SIZE] }> = unit * wcols;
            let wptrs: PointerTile<*mut E, { [1] }> = wbase.reshape(const_shape![1]);
            let wptrs: PointerTile<*mut E, { [TILE_SIZE] }> = wptrs.broadcast(const_shape![TILE_SIZE]);
            let wptrs: PointerTile<*mut E, { [TILE_SIZE] }> = wptrs.offset_tile(woff);
            let (wj, _wt): (Tile<E, { [TILE_SIZE] }>, Token) = unsafe {
                load_ptr_tko(wptrs, ordering::Weak, None::<scope::TileBlock>, None, Some(zero), Some(entry), Latency::<1>)
            };
            let wj: Tile<f32, { [TILE_SIZE] }> = convert_tile(wj);
            let rows: Tile<u64, { [TILE_SIZE] }> = lanes::<TILE_SIZE>(row);
            let stride: Tile<u64, { [TILE_SIZE] }> = lanes::<TILE_SIZE>(x_stride0);
            let row_off: Tile<u64, { [TILE_SIZE] }> = rows * stride;
            let xptrs: PointerTile<*mut E, { [1] }> = xbase.reshape(const_shape![1]);
            let xptrs: PointerTile<*mut E, { [TILE_SIZE] }> = xptrs.broadcast(const_shape![TILE_SIZE]);
            let cols: Tile<u64, { [TILE_SIZE] }> = exti(offs);
            let col_off: Tile<u64, { [TILE_SIZE] }> = unit * cols;
            let off: Tile<u64, { [TILE_SIZE] }> = row_off + col_off;
            let ptrs: PointerTile<*mut E, { [TILE_SIZE] }> = xptrs.offset_tile(off);
            let (xj, _xt): (Tile<E, { [TILE_SIZE] }>, Token) = unsafe {
                load_ptr_tko(ptrs, ordering::Weak, None::<scope::TileBlock>, None, Some(zero), Some(entry), Latency::<1>)
            };
            let xj: Tile<f32, { [TILE_SIZE] }> = convert_tile(xj);
            let scaled: Tile<f32, { [TILE_SIZE] }> = xj * rms_b;
            let shifted: Tile<f32, { [TILE_SIZE] }> = acc + wj;
            let yj: Tile<f32, { [TILE_SIZE] }> = scaled * shifted;
            let yj: Tile<E, { [TILE_SIZE] }> = convert_tile(yj);
            let orows: Tile<u64, { [TILE_SIZE] }> = lanes::<TILE_SIZE>(row);
            let oheight: Tile<u64, { [TILE_SIZE] }> = lanes::<TILE_SIZE>(out_shape0);
            let orow_ok: Tile<bool, { [TILE_SIZE] }> = cmpi(orows, oheight, predicate::LessThan);
            let ostride: Tile<u64, { [TILE_SIZE] }> = lanes::<TILE_SIZE>(out_stride0);
            let orow_off: Tile<u64, { [TILE_SIZE] }> = orows * ostride;
            let owidth: Tile<u64, { [TILE_SIZE] }> = lanes::<TILE_SIZE>(out_shape1);
            let optrs: PointerTile<*mut E, { [1] }> = obase.reshape(const_shape![1]);
            let optrs: PointerTile<*mut E, { [TILE_SIZE] }> = optrs.broadcast(const_shape![TILE_SIZE]);
            let ocols: Tile<u64, { [TILE_SIZE] }> = exti(offs);
            let ocol_ok: Tile<bool, { [TILE_SIZE] }> = cmpi(ocols, owidth, predicate::LessThan);
            let omask: Tile<bool, { [TILE_SIZE] }> = andi(orow_ok, ocol_ok);
            let ocol_off: Tile<u64, { [TILE_SIZE] }> = unit * ocols;
            let ooff: Tile<u64, { [TILE_SIZE] }> = orow_off + ocol_off;
            let optrs: PointerTile<*mut E, { [TILE_SIZE] }> = optrs.offset_tile(ooff);
            written = unsafe {
                store_ptr_tko(optrs, yj, ordering::Weak, None::<scope::TileBlock>, Some(omask), Some(written), Latency::<1>)
            };
        }
    }
}
