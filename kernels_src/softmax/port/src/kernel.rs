//! Row softmax, the same tile program as kernels_src/softmax/kernel.py: one block per row,
//! the row in one (1, TILE_COLS) tile padded with -inf.

#[cutile::module]
pub mod softmax_port {
    use cutile::core::*;

    // the Python kernel's hints (cuTile Python's apply to every GPU; cutile names each)
    #[cutile::entry(unchecked_accesses = true, optimization_hints = (
        sm_90 = (occupancy = 8, num_worker_warps_per_cta = 8),
        sm_100 = (occupancy = 8, num_worker_warps_per_cta = 8)))]
    pub unsafe fn softmax<E: ElementType, const TILE_COLS: i32>(
        x: &Tensor<E, { [-1, -1] }>,
        out: &mut Tensor<E, { [1, TILE_COLS] }>,
    ) {
        // One ordering token for both arrays, as cuTile Python threads its entry token
        // through every load and store (nothing is written before this point).
        unsafe { out.set_token(x.token()) };
        let block: (i32, i32, i32) = get_tile_block_id();
        let rows: Partition<E, { [1, TILE_COLS] }> = unsafe {
            make_partition_view(x, const_shape![1, TILE_COLS], padding::NegInf, dim_map::Identity,
                                x.token())
        };
        let raw: Tile<E, { [1, TILE_COLS] }> = rows.load([block.0, 0i32]);
        let t: Tile<f32, { [1, TILE_COLS] }> = convert_tile(raw);
        let row_max: Tile<f32, { [1] }> = reduce_max(t, 1i32);
        let row_max: Tile<f32, { [1, TILE_COLS] }> =
            row_max.reshape(const_shape![1, 1]).broadcast(const_shape![1, TILE_COLS]);
        let e: Tile<f32, { [1, TILE_COLS] }> = exp(t - row_max);
        let row_sum: Tile<f32, { [1] }> = reduce_sum(e, 1i32);
        let row_sum: Tile<f32, { [1, TILE_COLS] }> =
            row_sum.reshape(const_shape![1, 1]).broadcast(const_shape![1, TILE_COLS]);
        let result: Tile<E, { [1, TILE_COLS] }> = convert_tile(e / row_sum);
        // a dynamic-shape output stores at exactly (row, 0), as the Python kernel does
        let mut rows_out: PartitionMut<E, { [1, TILE_COLS] }> =
            unsafe { out.partition_full_mut(const_shape![1, TILE_COLS]) };
        rows_out.store(result, [block.0, 0i32]);
    }

    // cutile 0.5.0 has no accessor for a tensor's strides; this reads the view's `strides`
    // metadata (all but the unit last one) with the compiler op Tensor::shape() uses.
    #[cuda_tile::compiler_op(name = "return_type_meta_field", type_meta_field = "strides")]
    fn row_strides<T: ElementType, const S: [i32; 2]>(tensor: &Tensor<T, S>) -> Shape<'static, { [-1] }> {
        unreachable!()
    }

    /// The address of row `row` of a 2-D tensor whose last stride is 1.
    fn row_start<E: ElementType>(t: &Tensor<E, { [-1, -1] }>, row: Tile<i64, { [] }>) -> PointerTile<*mut E, { [] }> {
        let stride: i32 = get_shape_dim(row_strides(t), 0i32);
        let stride: Tile<i32, { [] }> = scalar_to_tile(stride);
        let stride: Tile<i64, { [] }> = exti(stride);
        let base: PointerTile<*mut E, { [] }> = get_tensor_base(t);
        let start: Tile<i64, { [] }> = row * stride;
        addptr_tile(base, start)
    }

    /// Program 1 of the port (port.toml `programs`), which `workbench tune` may choose per
    /// shape; the IR diff compares `softmax` alone, and this one is checked by its numbers.
    /// The row as a 1-D gather and scatter (plain loads and stores, no TMA), exp and the
    /// division approximate (flush to zero). On an H100, 16384 rows of 4096 f16 ran
    /// at 99% of copy bandwidth this way against 76% for the reference's program
    /// (bench/row_programs.py); the numbers differ from `softmax` by the approximations.
    #[cutile::entry(unchecked_accesses = true, optimization_hints = (
        sm_90 = (occupancy = 8, num_worker_warps_per_cta = 8),
        sm_100 = (occupancy = 8, num_worker_warps_per_cta = 8)))]
    pub unsafe fn softmax_row_gather<E: ElementType, const TILE_COLS: i32>(
        x: &Tensor<E, { [-1, -1] }>,
        out: &Tensor<E, { [-1, -1] }>,
    ) {
        // one ordering token for both arrays, as in `softmax`
        let entry: Token = x.token();
        unsafe { out.set_token(entry) };
        let row: i32 = get_tile_block_id().0;
        // (cutile 0.5.0 resolves no const generic shape in a helper fn: the row's pointers
        // are made here from row_start's scalar address)
        let cols: Tile<i32, { [TILE_COLS] }> = iota(shape![TILE_COLS]);
        let n_cols: i32 = get_shape_dim(x.shape(), 1i32);
        let n_cols: Tile<i32, { [] }> = scalar_to_tile(n_cols);
        let n_cols: Tile<i32, { [TILE_COLS] }> = n_cols.reshape(shape![1]).broadcast(shape![TILE_COLS]);
        let inside: Tile<bool, { [TILE_COLS] }> = lt_tile(cols, n_cols);
        let offsets: Tile<i64, { [TILE_COLS] }> = exti(cols);
        let row_t: Tile<i32, { [] }> = scalar_to_tile(row);
        let row_t: Tile<i64, { [] }> = exti(row_t);
        let x_row: PointerTile<*mut E, { [] }> = row_start(x, row_t);
        let x_row: PointerTile<*mut E, { [1] }> = x_row.reshape(shape![1]);
        let x_row: PointerTile<*mut E, { [TILE_COLS] }> = x_row.broadcast(shape![TILE_COLS]);
        let sources: PointerTile<*mut E, { [TILE_COLS] }> = addptr_tile(x_row, offsets);
        let (raw, _read): (Tile<E, { [TILE_COLS] }>, Token) = unsafe {
            load_ptr_tko(sources, ordering::Weak, None::<scope::TileBlock>, Some(inside), None,
                         Some(entry), Latency::<0>)
        };
        let lowest: Tile<f32, { [TILE_COLS] }> = constant(f32::NEG_INFINITY, shape![TILE_COLS]);
        let raw: Tile<f32, { [TILE_COLS] }> = convert_tile(raw);
        let t: Tile<f32, { [TILE_COLS] }> = select(inside, raw, lowest);
        let row_max: Tile<f32, { [] }> = reduce_max(t, 0i32);
        let row_max: Tile<f32, { [TILE_COLS] }> = row_max.reshape(shape![1]).broadcast(shape![TILE_COLS]);
        let e: Tile<f32, { [TILE_COLS] }> = unsafe { exp_with_rounding(t - row_max, rounding::Approx) };
        let row_sum: Tile<f32, { [] }> = reduce_sum(e, 0i32);
        let row_sum: Tile<f32, { [TILE_COLS] }> = row_sum.reshape(shape![1]).broadcast(shape![TILE_COLS]);
        let y: Tile<f32, { [TILE_COLS] }> = divf(e, row_sum, rounding::Approx, ftz::Enabled);
        let out_row: PointerTile<*mut E, { [] }> = row_start(out, row_t);
        let out_row: PointerTile<*mut E, { [1] }> = out_row.reshape(shape![1]);
        let out_row: PointerTile<*mut E, { [TILE_COLS] }> = out_row.broadcast(shape![TILE_COLS]);
        let targets: PointerTile<*mut E, { [TILE_COLS] }> = addptr_tile(out_row, offsets);
        let result: Tile<E, { [TILE_COLS] }> = convert_tile(y);
        let _written: Token = unsafe {
            store_ptr_tko(targets, result, ordering::Weak, None::<scope::TileBlock>,
                          Some(inside), Some(entry), Latency::<0>)
        };
    }
}
