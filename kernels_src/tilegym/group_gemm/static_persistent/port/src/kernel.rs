//! Port of tilegym.ops.cutile.group_gemm:_group_gemm_kernel: a persistent grouped GEMM. Each
//! list of matrices (As, Bs, Cs) comes in as cuTile Python's entry takes it: a pointer to a
//! table of i64 words, five per matrix (base address, two extents, two strides in elements),
//! and the list's length. Group g's row is one (1 x 8) tile load of the table; its words are
//! extracted, the base turned back into a pointer, and the list's facts stated (the JIT's
//! list constraint, one for every item: base div_by 16 bytes, extents div_by 16 and
//! stride0 div_by 8, all >= 0, the last stride 1) before the matrix's view is made. Blocks
//! walk the groups' output tiles in one sequence, `NUM_SM` apart, a K loop of zero-padded
//! loads and mma onto a float32 accumulator per tile, and one store per tile, ordered after
//! the last by a token.
#[cutile::module]
pub mod group_gemm_port {
    use cutile::core::*;

    /// Item `g` of a list of rank-2 arrays: its table row loaded, unpacked and assumed as
    /// cuTile Python's `As[g]` does: the base pointer, the extents and the row stride (the
    /// view is made by the caller: cutile cannot inline a function whose return type has a
    /// dynamic dim). The list's facts are those of the JIT's list spec for the call, one
    /// bool per fact (BASE: a 16-byte aligned base; SHAPE0, SHAPE1: extents divisible by 16;
    /// STRIDE0: a row stride of 16 bytes' multiple), derived from every item by the launcher.
    unsafe fn list_item<E: ElementType, const BASE: bool, const SHAPE0: bool, const SHAPE1: bool, const STRIDE0: bool>(
        rows: &Partition<i64, { [1, 8] }>, g: i32,
    ) -> (PointerTile<*mut E, { [] }>, i32, i32, i32) {
        let zero: i32 = 0i32;
        let row: Tile<i64, { [1, 8] }> = rows.load([g, zero]);
        let z: Tile<i32, { [] }> = scalar_to_tile(zero);
        let c0: Tile<i32, { [] }> = constant(0i32, shape![]);
        let w0: Tile<i64, { [1, 1] }> = extract(row, [z, c0]);
        let w0: Tile<i64, { [] }> = w0.reshape(shape![]);
        let c1: Tile<i32, { [] }> = constant(1i32, shape![]);
        let w1: Tile<i64, { [1, 1] }> = extract(row, [z, c1]);
        let w1: Tile<i64, { [] }> = w1.reshape(shape![]);
        let c2: Tile<i32, { [] }> = constant(2i32, shape![]);
        let w2: Tile<i64, { [1, 1] }> = extract(row, [z, c2]);
        let w2: Tile<i64, { [] }> = w2.reshape(shape![]);
        let c3: Tile<i32, { [] }> = constant(3i32, shape![]);
        let w3: Tile<i64, { [1, 1] }> = extract(row, [z, c3]);
        let w3: Tile<i64, { [] }> = w3.reshape(shape![]);
        let c4: Tile<i32, { [] }> = constant(4i32, shape![]);
        let w4: Tile<i64, { [1, 1] }> = extract(row, [z, c4]);
        let w4: Tile<i64, { [] }> = w4.reshape(shape![]);
        let shape0: Tile<i32, { [] }> = trunci(w1, overflow::NoWrap);
        let shape1: Tile<i32, { [] }> = trunci(w2, overflow::NoWrap);
        let stride0: Tile<i32, { [] }> = trunci(w3, overflow::NoWrap);
        let _stride1: Tile<i32, { [] }> = trunci(w4, overflow::NoWrap);
        let base: PointerTile<*mut E, { [] }> = int_to_ptr(w0);
        let base: PointerTile<*mut E, { [] }> = if BASE { unsafe { assume_div_by::<_, 16>(base) } } else { base };
        let shape0: Tile<i32, { [] }> = unsafe { assume_bounds_lower::<_, 0>(shape0) };
        let shape0: Tile<i32, { [] }> = if SHAPE0 { unsafe { assume_div_by::<_, 16>(shape0) } } else { shape0 };
        let shape1: Tile<i32, { [] }> = unsafe { assume_bounds_lower::<_, 0>(shape1) };
        let shape1: Tile<i32, { [] }> = if SHAPE1 { unsafe { assume_div_by::<_, 16>(shape1) } } else { shape1 };
        let stride0: Tile<i32, { [] }> = unsafe { assume_bounds_lower::<_, 0>(stride0) };
        // 16 bytes of f16 or bf16, the port's element types
        let stride0: Tile<i32, { [] }> = if STRIDE0 { unsafe { assume_div_by::<_, 8>(stride0) } } else { stride0 };
        (base, tile_to_scalar(shape0), tile_to_scalar(shape1), tile_to_scalar(stride0))
    }

    /// ct.num_tiles(t, axis, tile): the index space of an unpadded partition (cutile's
    /// `.partition` pads with zero; cuTile Python's view for num_tiles has no padding value).
    /// A partition returned from a function cannot be typed by cutile's inliner, so the
    /// helpers that need one return what they read of it.
    fn tiles_along<E: ElementType, const R: [i32; 2]>(t: &Tensor<E, { [-1, -1] }>, tile: Shape<R>, axis: i32) -> i32 {
        let p: Partition<E, R> = unsafe { make_partition_view(t, tile, padding::None, dim_map::Identity, t.token()) };
        num_tiles(&p, axis)
    }

    #[cutile::entry(unchecked_accesses = true)]
    pub unsafe fn group_gemm<E: ElementType, const TILE_M: i32, const TILE_N: i32, const TILE_K: i32, const NUM_SM: i32, const TRANSPOSE_B: bool,
                             const A_BASE: bool, const A_SHAPE0: bool, const A_SHAPE1: bool, const A_STRIDE0: bool, const B_BASE: bool, const B_SHAPE0: bool, const B_SHAPE1: bool, const B_STRIDE0: bool, const C_BASE: bool, const C_SHAPE0: bool, const C_SHAPE1: bool, const C_STRIDE0: bool>(
        As: *mut i64, As_len: i32, Bs: *mut i64, Bs_len: i32, Cs: *mut i64, Cs_len: i32,
    ) {
        let entry: Token = new_token_unordered();
        // each list's table: `len` rows of five i64 words
        let rows: Array<{ [5, 1] }> = Array::<{ [5, 1] }> { dims: &[5i32, 1i32] };
        let a_ptr: PointerTile<*mut i64, { [] }> = pointer_to_tile(As);
        let a_len: Shape<{ [-1, 5] }> = Shape::<{ [-1, 5] }> { dims: &[As_len, 5i32] };
        let a_view: Tensor<i64, { [-1, 5] }> = unsafe { make_tensor_view(a_ptr, a_len, rows, entry) };
        let b_ptr: PointerTile<*mut i64, { [] }> = pointer_to_tile(Bs);
        let b_len: Shape<{ [-1, 5] }> = Shape::<{ [-1, 5] }> { dims: &[Bs_len, 5i32] };
        let b_view: Tensor<i64, { [-1, 5] }> = unsafe { make_tensor_view(b_ptr, b_len, rows, entry) };
        let c_ptr: PointerTile<*mut i64, { [] }> = pointer_to_tile(Cs);
        let c_len: Shape<{ [-1, 5] }> = Shape::<{ [-1, 5] }> { dims: &[Cs_len, 5i32] };
        let c_view: Tensor<i64, { [-1, 5] }> = unsafe { make_tensor_view(c_ptr, c_len, rows, entry) };
        unsafe { groups::<E, TILE_M, TILE_N, TILE_K, NUM_SM, TRANSPOSE_B, A_BASE, A_SHAPE0, A_SHAPE1, A_STRIDE0, B_BASE, B_SHAPE0, B_SHAPE1, B_STRIDE0, C_BASE, C_SHAPE0, C_SHAPE1, C_STRIDE0>(&a_view, &b_view, &c_view, As_len, entry) }
    }

    /// The kernel's body over the three tables (a function of its own: cutile types a
    /// partition of a view only where the view is a reference parameter).
    unsafe fn groups<E: ElementType, const TILE_M: i32, const TILE_N: i32, const TILE_K: i32, const NUM_SM: i32, const TRANSPOSE_B: bool,
                     const A_BASE: bool, const A_SHAPE0: bool, const A_SHAPE1: bool, const A_STRIDE0: bool, const B_BASE: bool, const B_SHAPE0: bool, const B_SHAPE1: bool, const B_STRIDE0: bool, const C_BASE: bool, const C_SHAPE0: bool, const C_SHAPE1: bool, const C_STRIDE0: bool>(
        a_view: &Tensor<i64, { [-1, 5] }>, b_view: &Tensor<i64, { [-1, 5] }>, c_view: &Tensor<i64, { [-1, 5] }>,
        groups: i32, entry: Token,
    ) {
        // each table's (1 x 8) tiles of its rows, no padding value (a row's tile reads into
        // the next row; only its first five words are used)
        let a_table: Partition<i64, { [1, 8] }> =
            unsafe { make_partition_view(a_view, const_shape![1, 8], padding::None, dim_map::Identity, entry) };
        let b_table: Partition<i64, { [1, 8] }> =
            unsafe { make_partition_view(b_view, const_shape![1, 8], padding::None, dim_map::Identity, entry) };
        let c_table: Partition<i64, { [1, 8] }> =
            unsafe { make_partition_view(c_view, const_shape![1, 8], padding::None, dim_map::Identity, entry) };
        let mut tile_idx: i32 = get_tile_block_id().0;
        let mut last_problem_end: i32 = 0i32;
        let zero: i32 = 0i32;
        let mut written: Token = entry;
        for g in 0i32..groups {
            let (a_base, a_m, a_n, a_s): (PointerTile<*mut E, { [] }>, i32, i32, i32) =
                unsafe { list_item::<E, A_BASE, A_SHAPE0, A_SHAPE1, A_STRIDE0>(&a_table, g) };
            let a_shape: Shape<{ [-1, -1] }> = Shape::<{ [-1, -1] }> { dims: &[a_m, a_n] };
            let a_strides: Array<{ [-1, 1] }> = Array::<{ [-1, 1] }> { dims: &[a_s, 1i32] };
            let a: Tensor<E, { [-1, -1] }> = unsafe { make_tensor_view(a_base, a_shape, a_strides, entry) };
            let (b_base, b_m, b_n, b_s): (PointerTile<*mut E, { [] }>, i32, i32, i32) =
                unsafe { list_item::<E, B_BASE, B_SHAPE0, B_SHAPE1, B_STRIDE0>(&b_table, g) };
            let b_shape: Shape<{ [-1, -1] }> = Shape::<{ [-1, -1] }> { dims: &[b_m, b_n] };
            let b_strides: Array<{ [-1, 1] }> = Array::<{ [-1, 1] }> { dims: &[b_s, 1i32] };
            let b: Tensor<E, { [-1, -1] }> = unsafe { make_tensor_view(b_base, b_shape, b_strides, entry) };
            let (c_base, c_m, c_n, c_s): (PointerTile<*mut E, { [] }>, i32, i32, i32) =
                unsafe { list_item::<E, C_BASE, C_SHAPE0, C_SHAPE1, C_STRIDE0>(&c_table, g) };
            let c_shape: Shape<{ [-1, -1] }> = Shape::<{ [-1, -1] }> { dims: &[c_m, c_n] };
            let c_strides: Array<{ [-1, 1] }> = Array::<{ [-1, 1] }> { dims: &[c_s, 1i32] };
            let c: Tensor<E, { [-1, -1] }> = unsafe { make_tensor_view(c_base, c_shape, c_strides, entry) };
            let num_m_tiles: i32 = tiles_along(&a, const_shape![TILE_M, TILE_K], 0i32);
            let num_k_tiles: i32 = tiles_along(&a, const_shape![TILE_M, TILE_K], 1i32);
            let num_n_tiles: i32 = if TRANSPOSE_B {
                tiles_along(&b, const_shape![TILE_N, TILE_K], 0i32)
            } else {
                tiles_along(&b, const_shape![TILE_K, TILE_N], 1i32)
            };
            let num_tiles_g: i32 = num_m_tiles * num_n_tiles;
            let n_tiles: Tile<i32, { [] }> = scalar_to_tile(num_n_tiles);
            let z: Tile<i32, { [] }> = scalar_to_tile(zero);
            let n_neg: Tile<bool, { [] }> = lt_tile(n_tiles, z);
            let a_tiles: Partition<E, { [TILE_M, TILE_K] }> = a.partition(const_shape![TILE_M, TILE_K]);
            let b_rows: Partition<E, { [TILE_K, TILE_N] }> = b.partition(const_shape![TILE_K, TILE_N]);
            let b_cols: Partition<E, { [TILE_N, TILE_K] }> = b.partition(const_shape![TILE_N, TILE_K]);
            let c_tiles: PartitionMut<E, { [TILE_M, TILE_N] }> = unsafe { c.partition_full_mut(const_shape![TILE_M, TILE_N]) };
            while {
                let started: bool = tile_idx >= last_problem_end;
                if started { tile_idx < last_problem_end + num_tiles_g } else { started }
            } {
                // Python's floor division and modulo of the tile's index in its GEMM
                let in_gemm: Tile<i32, { [] }> = scalar_to_tile(tile_idx - last_problem_end);
                let tile_m: Tile<i32, { [] }> = divi(in_gemm, n_tiles, rounding::NegativeInf);
                let rem_raw: Tile<i32, { [] }> = remi(in_gemm, n_tiles);
                let fix: Tile<bool, { [] }> = andi(xori(lt_tile(rem_raw, z), n_neg), ne_tile(rem_raw, z));
                let tile_n: Tile<i32, { [] }> = select(fix, rem_raw + n_tiles, rem_raw);
                let m: i32 = tile_to_scalar(tile_m);
                let n: i32 = tile_to_scalar(tile_n);
                let mut acc: Tile<f32, { [TILE_M, TILE_N] }> = constant(0.0f32, shape![TILE_M, TILE_N]);
                for kk in 0i32..num_k_tiles {
                    let ta: Tile<E, { [TILE_M, TILE_K] }> = a_tiles.load([m, kk]);
                    let tb: Tile<E, { [TILE_K, TILE_N] }> = if TRANSPOSE_B {
                        let t: Tile<E, { [TILE_N, TILE_K] }> = b_cols.load([n, kk]);
                        permute(t, const_array![1, 0])
                    } else {
                        b_rows.load([kk, n])
                    };
                    acc = mma(ta, tb, acc);
                }
                let result: Tile<E, { [TILE_M, TILE_N] }> = convert_tile(acc);
                written = unsafe {
                    store_view_raw(&c_tiles, result, [m, n], Some(written), ordering::Weak, scope::TileBlock,
                                   tma::Enabled, None, [false, false])
                };
                tile_idx = tile_idx + NUM_SM;
            }
            last_problem_end = last_problem_end + num_tiles_g;
        }
    }
}
