//! Port of tilegym.ops.cutile.dropout:_dropout_kernel (training): one block per TILE_SIZE
//! elements. The block gathers x (bounds-checked, zero padding) and hashes each element's
//! offset with the seed (an LCG step, then three xor-shifts). An element is kept where the
//! hash, read as a float in [0, 1), exceeds P; kept elements are multiplied by
//! 1 / (1 - P) in x's dtype, dropped ones are 0, and the tile is scattered.
//! P is a float constant of the IR and Rust has no float const generics: one entry per P
//! the catalog's cases use (the C ABI refuses any other), each spelling P and 1 / (1 - P)
//! as the literals cuTile Python folds them to.
#[cutile::module]
#[allow(non_snake_case)]
pub mod dropout_port {
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
    fn lanes<const T: i32>(v: i32) -> Tile<u64, { [T] }> {
        let s: Tile<i32, { [] }> = scalar_to_tile(v);
        let w: Tile<u64, { [] }> = exti(s);
        w.reshape(const_shape![1]).broadcast(const_shape![T])
    }

    #[cutile::entry(unchecked_accesses = true)]
    pub unsafe fn dropout_p0_2<E: ElementType, const SEED: i32, const TILE_SIZE: i32>(
        x: *mut E, x_shape0: i32, x_stride0: i32,
        output: *mut E, output_shape0: i32, output_stride0: i32,
    ) {
        let p: Tile<f32, { [] }> = constant(0.2f32, const_shape![]);
        // 1.0 / (1.0 - P), as Python computes it in double precision
        let scale: Tile<E, { [TILE_SIZE] }> = splat_as(1.25, const_shape![TILE_SIZE]);
        unsafe { body(x, x_shape0, x_stride0, output, output_shape0, output_stride0, p, scale, SEED) }
    }

    #[cutile::entry(unchecked_accesses = true)]
    pub unsafe fn dropout_p0_4<E: ElementType, const SEED: i32, const TILE_SIZE: i32>(
        x: *mut E, x_shape0: i32, x_stride0: i32,
        output: *mut E, output_shape0: i32, output_stride0: i32,
    ) {
        let p: Tile<f32, { [] }> = constant(0.4f32, const_shape![]);
        // 1.0 / (1.0 - P), as Python computes it in double precision
        let scale: Tile<E, { [TILE_SIZE] }> = splat_as(1.6666666666666667, const_shape![TILE_SIZE]);
        unsafe { body(x, x_shape0, x_stride0, output, output_shape0, output_stride0, p, scale, SEED) }
    }

    #[cutile::entry(unchecked_accesses = true)]
    pub unsafe fn dropout_p0_5<E: ElementType, const SEED: i32, const TILE_SIZE: i32>(
        x: *mut E, x_shape0: i32, x_stride0: i32,
        output: *mut E, output_shape0: i32, output_stride0: i32,
    ) {
        let p: Tile<f32, { [] }> = constant(0.5f32, const_shape![]);
        // 1.0 / (1.0 - P), as Python computes it in double precision
        let scale: Tile<E, { [TILE_SIZE] }> = splat_as(2.0, const_shape![TILE_SIZE]);
        unsafe { body(x, x_shape0, x_stride0, output, output_shape0, output_stride0, p, scale, SEED) }
    }

    #[cutile::entry(unchecked_accesses = true)]
    pub unsafe fn dropout_p0_8<E: ElementType, const SEED: i32, const TILE_SIZE: i32>(
        x: *mut E, x_shape0: i32, x_stride0: i32,
        output: *mut E, output_shape0: i32, output_stride0: i32,
    ) {
        let p: Tile<f32, { [] }> = constant(0.8f32, const_shape![]);
        // 1.0 / (1.0 - P), as Python computes it in double precision
        let scale: Tile<E, { [TILE_SIZE] }> = splat_as(5.000000000000001, const_shape![TILE_SIZE]);
        unsafe { body(x, x_shape0, x_stride0, output, output_shape0, output_stride0, p, scale, SEED) }
    }

    /// The kernel's body for one P: `p` is P as float32, `scale` the full tile of 1 / (1 - P).
    unsafe fn body<E: ElementType, const TILE_SIZE: i32>(
        x: *mut E, x_shape0: i32, x_stride0: i32,
        output: *mut E, output_shape0: i32, output_stride0: i32,
        p: Tile<f32, { [] }>, scale: Tile<E, { [TILE_SIZE] }>, seed: i32,
    ) {
        // what cuTile Python states of the arrays' extents; unit strides (checked by the C ABI)
        let x_shape0 = unsafe { assume_bounds_lower::<_, 0>(x_shape0) };
        let output_shape0 = unsafe { assume_bounds_lower::<_, 0>(output_shape0) };
        let _ = (x_stride0, output_stride0);
        let entry: Token = new_token_unordered();
        let unit: Tile<u64, { [TILE_SIZE] }> = constant(1u64, const_shape![TILE_SIZE]);
        let bid: i32 = get_tile_block_id().0;
        let tile_start: i32 = bid * TILE_SIZE;
        let offsets: Tile<i32, { [TILE_SIZE] }> = iota(const_shape![TILE_SIZE]);
        let start: Tile<i32, { [] }> = scalar_to_tile(tile_start);
        let start: Tile<i32, { [1] }> = start.reshape(const_shape![1]);
        let start: Tile<i32, { [TILE_SIZE] }> = start.broadcast(const_shape![TILE_SIZE]);
        let offsets: Tile<i32, { [TILE_SIZE] }> = offsets + start;
        // x_tile = ct.gather(x, offsets, padding_value=0)
        let idx: Tile<u64, { [TILE_SIZE] }> = exti(offsets);
        let n: Tile<u64, { [TILE_SIZE] }> = lanes::<TILE_SIZE>(x_shape0);
        let in_x: Tile<bool, { [TILE_SIZE] }> = cmpi(idx, n, predicate::LessThan);
        let off: Tile<u64, { [TILE_SIZE] }> = idx * unit;
        let base: PointerTile<*mut E, { [] }> = pointer_to_tile(x);
        let base: PointerTile<*mut E, { [1] }> = base.reshape(const_shape![1]);
        let base: PointerTile<*mut E, { [TILE_SIZE] }> = base.broadcast(const_shape![TILE_SIZE]);
        let ptrs: PointerTile<*mut E, { [TILE_SIZE] }> = base.offset_tile(off);
        let zeros: Tile<E, { [TILE_SIZE] }> = constant(E::ZERO, const_shape![TILE_SIZE]);
        let (x_tile, _t): (Tile<E, { [TILE_SIZE] }>, Token) = unsafe {
            load_ptr_padded(ptrs, ordering::Weak, None::<scope::TileBlock>, Some(in_x), Some(zeros),
                            Some(entry), Latency::<0>)
        };
        let output_tile: Tile<E, { [TILE_SIZE] }> = constant(E::ZERO, const_shape![TILE_SIZE]);
        // combined = offsets * 1103515245 + SEED; three xor-shifts (the operators: cutile's
        // shli() with overflow::None writes no overflow attribute, which its bytecode needs)
        let lcg: Tile<i32, { [TILE_SIZE] }> = constant(1103515245i32, const_shape![TILE_SIZE]);
        let seed: Tile<i32, { [] }> = scalar_to_tile(seed);
        let seed: Tile<i32, { [1] }> = seed.reshape(const_shape![1]);
        let seed: Tile<i32, { [TILE_SIZE] }> = seed.broadcast(const_shape![TILE_SIZE]);
        let combined: Tile<i32, { [TILE_SIZE] }> = offsets * lcg + seed;
        let c16: Tile<i32, { [TILE_SIZE] }> = constant(16i32, const_shape![TILE_SIZE]);
        let c8: Tile<i32, { [TILE_SIZE] }> = constant(8i32, const_shape![TILE_SIZE]);
        let c4: Tile<i32, { [TILE_SIZE] }> = constant(4i32, const_shape![TILE_SIZE]);
        let hash: Tile<i32, { [TILE_SIZE] }> = combined ^ (combined >> c16);
        let hash: Tile<i32, { [TILE_SIZE] }> = hash ^ (hash << c8);
        let hash: Tile<i32, { [TILE_SIZE] }> = hash ^ (hash >> c4);
        // hash_float = (hash & 0x7FFFFFFF) as float32 / 2147483647.0
        let positive: Tile<i32, { [TILE_SIZE] }> = constant(2147483647i32, const_shape![TILE_SIZE]);
        let hash: Tile<f32, { [TILE_SIZE] }> = convert_tile(hash & positive);
        let range: Tile<f32, { [TILE_SIZE] }> = constant(2147483647.0f32, const_shape![TILE_SIZE]);
        let hash_float: Tile<f32, { [TILE_SIZE] }> = hash / range;
        let p: Tile<f32, { [1] }> = p.reshape(const_shape![1]);
        let p: Tile<f32, { [TILE_SIZE] }> = p.broadcast(const_shape![TILE_SIZE]);
        let keep_mask: Tile<bool, { [TILE_SIZE] }> = gt_tile(hash_float, p);
        let scaled_x: Tile<E, { [TILE_SIZE] }> = x_tile * scale;
        let output_tile: Tile<E, { [TILE_SIZE] }> = select(keep_mask, scaled_x, output_tile);
        // ct.scatter(output, offsets, output_tile)
        let oidx: Tile<u64, { [TILE_SIZE] }> = exti(offsets);
        let on: Tile<u64, { [TILE_SIZE] }> = lanes::<TILE_SIZE>(output_shape0);
        let in_out: Tile<bool, { [TILE_SIZE] }> = cmpi(oidx, on, predicate::LessThan);
        let ooff: Tile<u64, { [TILE_SIZE] }> = oidx * unit;
        let obase: PointerTile<*mut E, { [] }> = pointer_to_tile(output);
        let obase: PointerTile<*mut E, { [1] }> = obase.reshape(const_shape![1]);
        let obase: PointerTile<*mut E, { [TILE_SIZE] }> = obase.broadcast(const_shape![TILE_SIZE]);
        let optrs: PointerTile<*mut E, { [TILE_SIZE] }> = obase.offset_tile(ooff);
        let _w: Token = unsafe {
            store_ptr_tko(optrs, output_tile, ordering::Weak, None::<scope::TileBlock>, Some(in_out),
                          Some(entry), Latency::<0>)
        };
    }
}
