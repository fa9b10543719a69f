//! Port of tilegym.ops.cutile.layer_norm_legacy:_layer_norm_fwd_kernel: one block per row,
//! three loops over the row in BLOCK_SIZE steps (bounds-checked gathers, zero padding):
//! the mean; the variance of the masked (x - mean); and y = (x - mean) * rstd * (w + shift) + b
//! scattered to Y (an fma, as cuTile Python fuses it), the stores chained through the loop.
//! mean and rstd are scattered as one element each. Each gather is written in full where
//! the source has it (cuTile Python emits its index arithmetic per gather and hoists the
//! loop-invariant part; so does the IR normalization on this side). The arrays are raw (pointer, extents,
//! strides), as the kernel's gathers address them. EPS and WEIGHT_SHIFT are float constants
//! of the IR and Rust has no float const generics: one entry per pair the catalog's cases
//! use (the C ABI refuses others), over a shared body.
#[cutile::module]
#[allow(non_snake_case)]
pub mod layer_norm_fused_port {
    use cutile::core::*;

    /// `cuda_tile.constant` of a float literal in the element type E (cutile's `constant`
    /// takes an E, and a Rust float literal cannot be a generic E or a half).
    #[cuda_tile::op(name = "cuda_tile.constant", since = "V13_2", params = [], attribute_params = ["value:dense"])]
    #[cuda_tile::variadic_op(N = 6)]
    fn splat_as<E: ElementType, const S: [i32; N]>(value: f32, shape: Shape<S>) -> Tile<E, S> {
        unreachable!()
    }

    /// `cuda_tile.load_ptr_tko` with the padding as a tile of the result's shape, as cuTile
    /// Python writes it (cutile's load_ptr_tko takes a scalar, which needs a concrete type).
    #[cuda_tile::op(name = "cuda_tile.load_ptr_tko", since = "V13_2", params = ["source"])]
    unsafe fn load_ptr_padded<E: ElementType, P: PointerTo<E>, const S: [i32; 1], O: ordering::LoadMode, Sc: scope::Mode, const CYCLES: i32>(
        source: PointerTile<P, S>,
        memory_ordering: O,
        memory_scope: Option<Sc>,
        mask: Option<Tile<bool, S>>,
        padding_value: Option<Tile<E, S>>,
        token: Option<Token>,
        latency: Latency<CYCLES>,
    ) -> (Tile<E, S>, Token) {
        unreachable!()
    }

    /// A scalar as [T] lanes of u64 (gather indices and extents are widened to 64 bits).
    /// The body retypes each result with an identity `convert_tile` (no op): cutile types
    /// a helper's result by its concrete shape, the body's own tiles by BLOCK_SIZE, and a
    /// binary op needs the two spelled alike.
    fn lanes<const T: i32>(v: i32) -> Tile<u64, { [T] }> {
        let s: Tile<i32, { [] }> = scalar_to_tile(v);
        let w: Tile<u64, { [] }> = exti(s);
        w.reshape(const_shape![1]).broadcast(const_shape![T])
    }

    #[cutile::entry(unchecked_accesses = true)]
    pub unsafe fn layer_norm_eps1e5_ws0<E: ElementType, const N: i32, const BLOCK_SIZE: i32>(
        X: *mut E, X_shape0: i32, X_shape1: i32, X_stride0: i32, X_stride1: i32,
        Y: *mut E, Y_shape0: i32, Y_shape1: i32, Y_stride0: i32, Y_stride1: i32,
        W: *mut E, W_shape0: i32, W_stride0: i32,
        B: *mut E, B_shape0: i32, B_stride0: i32,
        Mean: *mut f32, Mean_shape0: i32, Mean_stride0: i32,
        Rstd: *mut f32, Rstd_shape0: i32, Rstd_stride0: i32,
    ) {
        let eps: Tile<f32, { [] }> = constant(1e-5f32, const_shape![]);
        let weight_shift: Tile<E, { [BLOCK_SIZE] }> = splat_as(0.0, const_shape![BLOCK_SIZE]);
        unsafe { body::<E, BLOCK_SIZE>(X, X_shape0, X_shape1, X_stride0, X_stride1, Y, Y_shape0, Y_shape1, Y_stride0, Y_stride1, W, W_shape0, W_stride0, B, B_shape0, B_stride0, Mean, Mean_shape0, Mean_stride0, Rstd, Rstd_shape0, Rstd_stride0, N, eps, weight_shift) }
    }

    #[cutile::entry(unchecked_accesses = true)]
    pub unsafe fn layer_norm_eps1e5_ws1<E: ElementType, const N: i32, const BLOCK_SIZE: i32>(
        X: *mut E, X_shape0: i32, X_shape1: i32, X_stride0: i32, X_stride1: i32,
        Y: *mut E, Y_shape0: i32, Y_shape1: i32, Y_stride0: i32, Y_stride1: i32,
        W: *mut E, W_shape0: i32, W_stride0: i32,
        B: *mut E, B_shape0: i32, B_stride0: i32,
        Mean: *mut f32, Mean_shape0: i32, Mean_stride0: i32,
        Rstd: *mut f32, Rstd_shape0: i32, Rstd_stride0: i32,
    ) {
        let eps: Tile<f32, { [] }> = constant(1e-5f32, const_shape![]);
        let weight_shift: Tile<E, { [BLOCK_SIZE] }> = splat_as(1.0, const_shape![BLOCK_SIZE]);
        unsafe { body::<E, BLOCK_SIZE>(X, X_shape0, X_shape1, X_stride0, X_stride1, Y, Y_shape0, Y_shape1, Y_stride0, Y_stride1, W, W_shape0, W_stride0, B, B_shape0, B_stride0, Mean, Mean_shape0, Mean_stride0, Rstd, Rstd_shape0, Rstd_stride0, N, eps, weight_shift) }
    }

    #[cutile::entry(unchecked_accesses = true)]
    pub unsafe fn layer_norm_eps1e6_ws0<E: ElementType, const N: i32, const BLOCK_SIZE: i32>(
        X: *mut E, X_shape0: i32, X_shape1: i32, X_stride0: i32, X_stride1: i32,
        Y: *mut E, Y_shape0: i32, Y_shape1: i32, Y_stride0: i32, Y_stride1: i32,
        W: *mut E, W_shape0: i32, W_stride0: i32,
        B: *mut E, B_shape0: i32, B_stride0: i32,
        Mean: *mut f32, Mean_shape0: i32, Mean_stride0: i32,
        Rstd: *mut f32, Rstd_shape0: i32, Rstd_stride0: i32,
    ) {
        let eps: Tile<f32, { [] }> = constant(1e-6f32, const_shape![]);
        let weight_shift: Tile<E, { [BLOCK_SIZE] }> = splat_as(0.0, const_shape![BLOCK_SIZE]);
        unsafe { body::<E, BLOCK_SIZE>(X, X_shape0, X_shape1, X_stride0, X_stride1, Y, Y_shape0, Y_shape1, Y_stride0, Y_stride1, W, W_shape0, W_stride0, B, B_shape0, B_stride0, Mean, Mean_shape0, Mean_stride0, Rstd, Rstd_shape0, Rstd_stride0, N, eps, weight_shift) }
    }

    /// The kernel's body for one (EPS, WEIGHT_SHIFT); `n` is N.
    unsafe fn body<E: ElementType, const BLOCK_SIZE: i32>(
        X: *mut E, X_shape0: i32, X_shape1: i32, X_stride0: i32, X_stride1: i32,
        Y: *mut E, Y_shape0: i32, Y_shape1: i32, Y_stride0: i32, Y_stride1: i32,
        W: *mut E, W_shape0: i32, W_stride0: i32,
        B: *mut E, B_shape0: i32, B_stride0: i32,
        Mean: *mut f32, Mean_shape0: i32, Mean_stride0: i32,
        Rstd: *mut f32, Rstd_shape0: i32, Rstd_stride0: i32,
        n: i32, eps: Tile<f32, { [] }>, weight_shift: Tile<E, { [BLOCK_SIZE] }>,
    ) {
        // what cuTile Python states of the arrays' extents and strides; the unit strides
        // are checked by the C ABI and multiplied as the constant 1
        let X_shape0 = unsafe { assume_bounds_lower::<_, 0>(X_shape0) };
        let X_shape1 = unsafe { assume_bounds_lower::<_, 0>(X_shape1) };
        let X_stride0 = unsafe { assume_bounds_lower::<_, 0>(X_stride0) };
        let Y_shape0 = unsafe { assume_bounds_lower::<_, 0>(Y_shape0) };
        let Y_shape1 = unsafe { assume_bounds_lower::<_, 0>(Y_shape1) };
        let Y_stride0 = unsafe { assume_bounds_lower::<_, 0>(Y_stride0) };
        let W_shape0 = unsafe { assume_bounds_lower::<_, 0>(W_shape0) };
        let B_shape0 = unsafe { assume_bounds_lower::<_, 0>(B_shape0) };
        let Mean_shape0 = unsafe { assume_bounds_lower::<_, 0>(Mean_shape0) };
        let Rstd_shape0 = unsafe { assume_bounds_lower::<_, 0>(Rstd_shape0) };
        let _ = (X_stride1, Y_stride1, W_stride0, B_stride0, Mean_stride0, Rstd_stride0);
        let entry: Token = new_token_unordered();
        let unit: Tile<u64, { [BLOCK_SIZE] }> = constant(1u64, const_shape![BLOCK_SIZE]);
        let unit1: Tile<u64, { [1] }> = constant(1u64, const_shape![1]);
        let zeros: Tile<E, { [BLOCK_SIZE] }> = constant(E::ZERO, const_shape![BLOCK_SIZE]);
        let n_t: Tile<i32, { [] }> = scalar_to_tile(n);
        let n_f: Tile<f32, { [] }> = convert_tile(n_t);
        let n_b: Tile<i32, { [1] }> = n_t.reshape(const_shape![1]);
        let n_b: Tile<i32, { [BLOCK_SIZE] }> = n_b.broadcast(const_shape![BLOCK_SIZE]);
        let row: i32 = get_tile_block_id().0;
        let row_tile: Tile<i32, { [] }> = scalar_to_tile(row);
        let row_tile: Tile<i32, { [1] }> = row_tile.reshape(const_shape![1]);
        let row_tile: Tile<i32, { [BLOCK_SIZE] }> = row_tile.broadcast(const_shape![BLOCK_SIZE]);
        let acc0: Tile<f32, { [BLOCK_SIZE] }> = constant(0.0f32, const_shape![BLOCK_SIZE]);
        // mean
        let mut mean_acc: Tile<f32, { [BLOCK_SIZE] }> = acc0;
        for off in (0i32..n).step_by(BLOCK_SIZE as usize) {
            let offsets: Tile<i32, { [BLOCK_SIZE] }> = iota(const_shape![BLOCK_SIZE]);
            let start: Tile<i32, { [] }> = scalar_to_tile(off);
            let start: Tile<i32, { [1] }> = start.reshape(const_shape![1]);
            let start: Tile<i32, { [BLOCK_SIZE] }> = start.broadcast(const_shape![BLOCK_SIZE]);
            let cols: Tile<i32, { [BLOCK_SIZE] }> = offsets + start;
            let X_rows: Tile<u64, { [BLOCK_SIZE] }> = exti(row_tile);
            let X_height: Tile<u64, { [BLOCK_SIZE] }> = convert_tile(lanes::<BLOCK_SIZE>(X_shape0));
            let X_row_ok: Tile<bool, { [BLOCK_SIZE] }> = cmpi(X_rows, X_height, predicate::LessThan);
            let X_stride: Tile<u64, { [BLOCK_SIZE] }> = convert_tile(lanes::<BLOCK_SIZE>(X_stride0));
            let X_row_off: Tile<u64, { [BLOCK_SIZE] }> = X_rows * X_stride;
            let X_width: Tile<u64, { [BLOCK_SIZE] }> = convert_tile(lanes::<BLOCK_SIZE>(X_shape1));
            let X_base: PointerTile<*mut E, { [] }> = pointer_to_tile(X);
            let X_base: PointerTile<*mut E, { [1] }> = X_base.reshape(const_shape![1]);
            let X_base: PointerTile<*mut E, { [BLOCK_SIZE] }> = X_base.broadcast(const_shape![BLOCK_SIZE]);
            let c64: Tile<u64, { [BLOCK_SIZE] }> = exti(cols);
            let col_ok: Tile<bool, { [BLOCK_SIZE] }> = cmpi(c64, X_width, predicate::LessThan);
            let mask: Tile<bool, { [BLOCK_SIZE] }> = andi(X_row_ok, col_ok);
            let col_off: Tile<u64, { [BLOCK_SIZE] }> = c64 * unit;
            let off: Tile<u64, { [BLOCK_SIZE] }> = X_row_off + col_off;
            let ptrs: PointerTile<*mut E, { [BLOCK_SIZE] }> = X_base.offset_tile(off);
            let (a, _t): (Tile<E, { [BLOCK_SIZE] }>, Token) = unsafe {
                load_ptr_padded(ptrs, ordering::Weak, None::<scope::TileBlock>, Some(mask), Some(zeros), Some(entry), Latency::<0>)
            };
            let a: Tile<f32, { [BLOCK_SIZE] }> = convert_tile(a);
            mean_acc = mean_acc + a;
        }
        let mean: Tile<f32, { [] }> = reduce_sum(mean_acc, 0i32);
        let mean: Tile<f32, { [] }> = mean / n_f;
        // variance of the masked (x - mean)
        let mut var_acc: Tile<f32, { [BLOCK_SIZE] }> = acc0;
        for off in (0i32..n).step_by(BLOCK_SIZE as usize) {
            let offsets: Tile<i32, { [BLOCK_SIZE] }> = iota(const_shape![BLOCK_SIZE]);
            let start: Tile<i32, { [] }> = scalar_to_tile(off);
            let start: Tile<i32, { [1] }> = start.reshape(const_shape![1]);
            let start: Tile<i32, { [BLOCK_SIZE] }> = start.broadcast(const_shape![BLOCK_SIZE]);
            let cols: Tile<i32, { [BLOCK_SIZE] }> = offsets + start;
            let X_rows: Tile<u64, { [BLOCK_SIZE] }> = exti(row_tile);
            let X_height: Tile<u64, { [BLOCK_SIZE] }> = convert_tile(lanes::<BLOCK_SIZE>(X_shape0));
            let X_row_ok: Tile<bool, { [BLOCK_SIZE] }> = cmpi(X_rows, X_height, predicate::LessThan);
            let X_stride: Tile<u64, { [BLOCK_SIZE] }> = convert_tile(lanes::<BLOCK_SIZE>(X_stride0));
            let X_row_off: Tile<u64, { [BLOCK_SIZE] }> = X_rows * X_stride;
            let X_width: Tile<u64, { [BLOCK_SIZE] }> = convert_tile(lanes::<BLOCK_SIZE>(X_shape1));
            let X_base: PointerTile<*mut E, { [] }> = pointer_to_tile(X);
            let X_base: PointerTile<*mut E, { [1] }> = X_base.reshape(const_shape![1]);
            let X_base: PointerTile<*mut E, { [BLOCK_SIZE] }> = X_base.broadcast(const_shape![BLOCK_SIZE]);
            let c64: Tile<u64, { [BLOCK_SIZE] }> = exti(cols);
            let col_ok: Tile<bool, { [BLOCK_SIZE] }> = cmpi(c64, X_width, predicate::LessThan);
            let mask: Tile<bool, { [BLOCK_SIZE] }> = andi(X_row_ok, col_ok);
            let col_off: Tile<u64, { [BLOCK_SIZE] }> = c64 * unit;
            let off: Tile<u64, { [BLOCK_SIZE] }> = X_row_off + col_off;
            let ptrs: PointerTile<*mut E, { [BLOCK_SIZE] }> = X_base.offset_tile(off);
            let (x, _t): (Tile<E, { [BLOCK_SIZE] }>, Token) = unsafe {
                load_ptr_padded(ptrs, ordering::Weak, None::<scope::TileBlock>, Some(mask), Some(zeros), Some(entry), Latency::<0>)
            };
            let x: Tile<f32, { [BLOCK_SIZE] }> = convert_tile(x);
            let inside: Tile<bool, { [BLOCK_SIZE] }> = lt_tile(cols, n_b);
            let mean_b: Tile<f32, { [1] }> = mean.reshape(const_shape![1]);
            let mean_b: Tile<f32, { [BLOCK_SIZE] }> = mean_b.broadcast(const_shape![BLOCK_SIZE]);
            let x: Tile<f32, { [BLOCK_SIZE] }> = select(inside, x - mean_b, acc0);
            var_acc = fma(x, x, var_acc, rounding::NearestEven, ftz::Disabled);
        }
        let var: Tile<f32, { [] }> = reduce_sum(var_acc, 0i32);
        let var: Tile<f32, { [] }> = var / n_f;
        let rstd: Tile<f32, { [] }> = rsqrt(var + eps, ftz::Disabled);
        // ct.scatter(Mean, ct.full((1,), row), ct.reshape(mean, (1,)))
        let at: Tile<i32, { [] }> = scalar_to_tile(row);
        let at: Tile<i32, { [1] }> = at.reshape(const_shape![1]);
        let v: Tile<f32, { [1] }> = mean.reshape(const_shape![1]);
        let at: Tile<u64, { [1] }> = exti(at);
        let len: Tile<i32, { [] }> = scalar_to_tile(Mean_shape0);
        let len: Tile<u64, { [] }> = exti(len);
        let len: Tile<u64, { [1] }> = len.reshape(const_shape![1]);
        let ok: Tile<bool, { [1] }> = cmpi(at, len, predicate::LessThan);
        let off: Tile<u64, { [1] }> = at * unit1;
        let base: PointerTile<*mut f32, { [] }> = pointer_to_tile(Mean);
        let base: PointerTile<*mut f32, { [1] }> = base.reshape(const_shape![1]);
        let ptr: PointerTile<*mut f32, { [1] }> = base.offset_tile(off);
        let ptr: PointerTile<*mut f32, { [1] }> = unsafe { assume_div_by::<_, 4>(ptr) };
        let _s: Token = unsafe {
            store_ptr_tko(ptr, v, ordering::Weak, None::<scope::TileBlock>, Some(ok), Some(entry), Latency::<0>)
        };
        // ct.scatter(Rstd, ct.full((1,), row), ct.reshape(rstd, (1,)))
        let at: Tile<i32, { [] }> = scalar_to_tile(row);
        let at: Tile<i32, { [1] }> = at.reshape(const_shape![1]);
        let v: Tile<f32, { [1] }> = rstd.reshape(const_shape![1]);
        let at: Tile<u64, { [1] }> = exti(at);
        let len: Tile<i32, { [] }> = scalar_to_tile(Rstd_shape0);
        let len: Tile<u64, { [] }> = exti(len);
        let len: Tile<u64, { [1] }> = len.reshape(const_shape![1]);
        let ok: Tile<bool, { [1] }> = cmpi(at, len, predicate::LessThan);
        let off: Tile<u64, { [1] }> = at * unit1;
        let base: PointerTile<*mut f32, { [] }> = pointer_to_tile(Rstd);
        let base: PointerTile<*mut f32, { [1] }> = base.reshape(const_shape![1]);
        let ptr: PointerTile<*mut f32, { [1] }> = base.offset_tile(off);
        let ptr: PointerTile<*mut f32, { [1] }> = unsafe { assume_div_by::<_, 4>(ptr) };
        let _s: Token = unsafe {
            store_ptr_tko(ptr, v, ordering::Weak, None::<scope::TileBlock>, Some(ok), Some(entry), Latency::<0>)
        };
        // normalize: y = (x - mean) * rstd * (w + WEIGHT_SHIFT) + b, scattered to Y
        let mut written: Token = entry;
        for off in (0i32..n).step_by(BLOCK_SIZE as usize) {
            let offsets: Tile<i32, { [BLOCK_SIZE] }> = iota(const_shape![BLOCK_SIZE]);
            let start: Tile<i32, { [] }> = scalar_to_tile(off);
            let start: Tile<i32, { [1] }> = start.reshape(const_shape![1]);
            let start: Tile<i32, { [BLOCK_SIZE] }> = start.broadcast(const_shape![BLOCK_SIZE]);
            let cols: Tile<i32, { [BLOCK_SIZE] }> = offsets + start;
            let c64: Tile<u64, { [BLOCK_SIZE] }> = exti(cols);
            let len: Tile<u64, { [BLOCK_SIZE] }> = convert_tile(lanes::<BLOCK_SIZE>(W_shape0));
            let ok: Tile<bool, { [BLOCK_SIZE] }> = cmpi(c64, len, predicate::LessThan);
            let off: Tile<u64, { [BLOCK_SIZE] }> = c64 * unit;
            let base: PointerTile<*mut E, { [] }> = pointer_to_tile(W);
            let base: PointerTile<*mut E, { [1] }> = base.reshape(const_shape![1]);
            let base: PointerTile<*mut E, { [BLOCK_SIZE] }> = base.broadcast(const_shape![BLOCK_SIZE]);
            let ptrs: PointerTile<*mut E, { [BLOCK_SIZE] }> = base.offset_tile(off);
            let (w, _t): (Tile<E, { [BLOCK_SIZE] }>, Token) = unsafe {
                load_ptr_padded(ptrs, ordering::Weak, None::<scope::TileBlock>, Some(ok), Some(zeros), Some(entry), Latency::<0>)
            };
            let w: Tile<E, { [BLOCK_SIZE] }> = w + weight_shift;
            let c64: Tile<u64, { [BLOCK_SIZE] }> = exti(cols);
            let len: Tile<u64, { [BLOCK_SIZE] }> = convert_tile(lanes::<BLOCK_SIZE>(B_shape0));
            let ok: Tile<bool, { [BLOCK_SIZE] }> = cmpi(c64, len, predicate::LessThan);
            let off: Tile<u64, { [BLOCK_SIZE] }> = c64 * unit;
            let base: PointerTile<*mut E, { [] }> = pointer_to_tile(B);
            let base: PointerTile<*mut E, { [1] }> = base.reshape(const_shape![1]);
            let base: PointerTile<*mut E, { [BLOCK_SIZE] }> = base.broadcast(const_shape![BLOCK_SIZE]);
            let ptrs: PointerTile<*mut E, { [BLOCK_SIZE] }> = base.offset_tile(off);
            let (b, _t): (Tile<E, { [BLOCK_SIZE] }>, Token) = unsafe {
                load_ptr_padded(ptrs, ordering::Weak, None::<scope::TileBlock>, Some(ok), Some(zeros), Some(entry), Latency::<0>)
            };
            let X_rows: Tile<u64, { [BLOCK_SIZE] }> = exti(row_tile);
            let X_height: Tile<u64, { [BLOCK_SIZE] }> = convert_tile(lanes::<BLOCK_SIZE>(X_shape0));
            let X_row_ok: Tile<bool, { [BLOCK_SIZE] }> = cmpi(X_rows, X_height, predicate::LessThan);
            let X_stride: Tile<u64, { [BLOCK_SIZE] }> = convert_tile(lanes::<BLOCK_SIZE>(X_stride0));
            let X_row_off: Tile<u64, { [BLOCK_SIZE] }> = X_rows * X_stride;
            let X_width: Tile<u64, { [BLOCK_SIZE] }> = convert_tile(lanes::<BLOCK_SIZE>(X_shape1));
            let X_base: PointerTile<*mut E, { [] }> = pointer_to_tile(X);
            let X_base: PointerTile<*mut E, { [1] }> = X_base.reshape(const_shape![1]);
            let X_base: PointerTile<*mut E, { [BLOCK_SIZE] }> = X_base.broadcast(const_shape![BLOCK_SIZE]);
            let c64: Tile<u64, { [BLOCK_SIZE] }> = exti(cols);
            let col_ok: Tile<bool, { [BLOCK_SIZE] }> = cmpi(c64, X_width, predicate::LessThan);
            let mask: Tile<bool, { [BLOCK_SIZE] }> = andi(X_row_ok, col_ok);
            let col_off: Tile<u64, { [BLOCK_SIZE] }> = c64 * unit;
            let off: Tile<u64, { [BLOCK_SIZE] }> = X_row_off + col_off;
            let ptrs: PointerTile<*mut E, { [BLOCK_SIZE] }> = X_base.offset_tile(off);
            let (x, _t): (Tile<E, { [BLOCK_SIZE] }>, Token) = unsafe {
                load_ptr_padded(ptrs, ordering::Weak, None::<scope::TileBlock>, Some(mask), Some(zeros), Some(entry), Latency::<0>)
            };
            let x: Tile<f32, { [BLOCK_SIZE] }> = convert_tile(x);
            let mean_b: Tile<f32, { [1] }> = mean.reshape(const_shape![1]);
            let mean_b: Tile<f32, { [BLOCK_SIZE] }> = mean_b.broadcast(const_shape![BLOCK_SIZE]);
            let rstd_b: Tile<f32, { [1] }> = rstd.reshape(const_shape![1]);
            let rstd_b: Tile<f32, { [BLOCK_SIZE] }> = rstd_b.broadcast(const_shape![BLOCK_SIZE]);
            let x_hat: Tile<f32, { [BLOCK_SIZE] }> = (x - mean_b) * rstd_b;
            let w: Tile<f32, { [BLOCK_SIZE] }> = convert_tile(w);
            let b: Tile<f32, { [BLOCK_SIZE] }> = convert_tile(b);
            let y: Tile<f32, { [BLOCK_SIZE] }> = fma(x_hat, w, b, rounding::NearestEven, ftz::Disabled);
            let y: Tile<E, { [BLOCK_SIZE] }> = convert_tile(y);
            let Y_rows: Tile<u64, { [BLOCK_SIZE] }> = exti(row_tile);
            let Y_height: Tile<u64, { [BLOCK_SIZE] }> = convert_tile(lanes::<BLOCK_SIZE>(Y_shape0));
            let Y_row_ok: Tile<bool, { [BLOCK_SIZE] }> = cmpi(Y_rows, Y_height, predicate::LessThan);
            let Y_stride: Tile<u64, { [BLOCK_SIZE] }> = convert_tile(lanes::<BLOCK_SIZE>(Y_stride0));
            let Y_row_off: Tile<u64, { [BLOCK_SIZE] }> = Y_rows * Y_stride;
            let Y_width: Tile<u64, { [BLOCK_SIZE] }> = convert_tile(lanes::<BLOCK_SIZE>(Y_shape1));
            let Y_base: PointerTile<*mut E, { [] }> = pointer_to_tile(Y);
            let Y_base: PointerTile<*mut E, { [1] }> = Y_base.reshape(const_shape![1]);
            let Y_base: PointerTile<*mut E, { [BLOCK_SIZE] }> = Y_base.broadcast(const_shape![BLOCK_SIZE]);
            let c64: Tile<u64, { [BLOCK_SIZE] }> = exti(cols);
            let col_ok: Tile<bool, { [BLOCK_SIZE] }> = cmpi(c64, Y_width, predicate::LessThan);
            let mask: Tile<bool, { [BLOCK_SIZE] }> = andi(Y_row_ok, col_ok);
            let col_off: Tile<u64, { [BLOCK_SIZE] }> = c64 * unit;
            let off: Tile<u64, { [BLOCK_SIZE] }> = Y_row_off + col_off;
            let ptrs: PointerTile<*mut E, { [BLOCK_SIZE] }> = Y_base.offset_tile(off);
            written = unsafe {
                store_ptr_tko(ptrs, y, ordering::Weak, None::<scope::TileBlock>, Some(mask), Some(written), Latency::<0>)
            };
        }
    }
}
