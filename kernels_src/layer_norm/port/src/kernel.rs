//! out = (x - mean) * rsqrt(var + eps) * weight + bias, one row per tile block
//! (port of kernels_src/layer_norm).
#[cutile::module]
pub mod layer_norm_port {
    use cutile::core::*;

    // the Python kernel's hints (cuTile Python's apply to every GPU; cutile names each)
    #[cutile::entry(unchecked_accesses = true, optimization_hints = (
        sm_90 = (occupancy = 8, num_worker_warps_per_cta = 8),
        sm_100 = (occupancy = 8, num_worker_warps_per_cta = 8)))]
    pub unsafe fn layer_norm<E: ElementType, const TILE_COLS: i32>(
        x: &Tensor<E, { [-1, -1] }>,
        weight: &Tensor<E, { [-1] }>,
        bias: &Tensor<E, { [-1] }>,
        out: &mut Tensor<E, { [1, TILE_COLS] }>,
        eps: f32,
    ) {
        // One ordering token for every array, as cuTile Python threads its single entry token
        // through all loads and stores (no tensor is written before this point).
        let entry_token: Token = x.token();
        unsafe {
            weight.set_token(entry_token);
            bias.set_token(entry_token);
            out.set_token(entry_token);
        }
        let bid: (i32, i32, i32) = get_tile_block_id();
        let row: i32 = bid.0;
        let cols: i32 = x.shape()[1];
        let xp: Partition<E, { [1, TILE_COLS] }> = x.partition(shape![1, TILE_COLS]);
        let t: Tile<E, { [1, TILE_COLS] }> = xp.load([row, 0i32]);
        let t: Tile<f32, { [1, TILE_COLS] }> = convert_tile(t);
        // mean over the true column count (zero padding keeps the sum exact)
        let sum: Tile<f32, { [1] }> = reduce_sum(t, 1i32);
        let cols_i: Tile<i32, { [] }> = scalar_to_tile(cols);
        let cols_f: Tile<f32, { [] }> = convert_tile(cols_i);
        let mean: Tile<f32, { [1, 1] }> = sum.reshape(shape![1, 1]) / cols_f.reshape(shape![1, 1]);
        // columns < cols are real, the rest is padding
        let idx: Tile<i32, { [TILE_COLS] }> = iota(shape![TILE_COLS]);
        let limit: Tile<i32, { [TILE_COLS] }> = cols_i.reshape(shape![1]).broadcast(shape![TILE_COLS]);
        let in_row: Tile<bool, { [TILE_COLS] }> = lt_tile(idx, limit);
        let diff: Tile<f32, { [1, TILE_COLS] }> = t - mean.broadcast(shape![1, TILE_COLS]);
        let zero: Tile<f32, { [] }> = scalar_to_tile(0.0f32);
        let zero: Tile<f32, { [1, TILE_COLS] }> =
            zero.reshape(shape![1, 1]).broadcast(shape![1, TILE_COLS]);
        let centred: Tile<f32, { [1, TILE_COLS] }> =
            select(in_row.reshape(shape![1, TILE_COLS]), diff, zero);
        let sum_sq: Tile<f32, { [1] }> = reduce_sum(centred * centred, 1i32);
        let cols_f2: Tile<f32, { [] }> = convert_tile(cols_i);
        let var: Tile<f32, { [1, 1] }> = sum_sq.reshape(shape![1, 1]) / cols_f2.reshape(shape![1, 1]);
        let eps_t: Tile<f32, { [] }> = scalar_to_tile(eps);
        let inv_std: Tile<f32, { [1, 1] }> = rsqrt(var + eps_t.reshape(shape![1, 1]), ftz::Disabled);
        let wp: Partition<E, { [TILE_COLS] }> = weight.partition(shape![TILE_COLS]);
        let w: Tile<E, { [TILE_COLS] }> = wp.load([0i32]);
        let w: Tile<f32, { [TILE_COLS] }> = convert_tile(w);
        let bp: Partition<E, { [TILE_COLS] }> = bias.partition(shape![TILE_COLS]);
        let b: Tile<E, { [TILE_COLS] }> = bp.load([0i32]);
        let b: Tile<f32, { [TILE_COLS] }> = convert_tile(b);
        let scaled: Tile<f32, { [1, TILE_COLS] }> = centred * inv_std.broadcast(shape![1, TILE_COLS]);
        let y: Tile<f32, { [1, TILE_COLS] }> = fma(
            scaled,
            w.reshape(shape![1, TILE_COLS]),
            b.reshape(shape![1, TILE_COLS]),
            rounding::NearestEven,
            ftz::Disabled,
        );
        let y: Tile<E, { [1, TILE_COLS] }> = convert_tile(y);
        let mut op: PartitionMut<E, { [1, TILE_COLS] }> =
            unsafe { out.partition_full_mut(shape![1, TILE_COLS]) };
        op.store(y, [row, 0i32]);
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
    /// shape; the IR diff compares `layer_norm` alone, and this one is checked by its numbers.
    /// The same arithmetic, the row of x and of out as a 1-D gather and scatter (plain loads
    /// and stores, no TMA): the form that took softmax's row to the copy bandwidth on an H100.
    #[cutile::entry(unchecked_accesses = true, optimization_hints = (
        sm_90 = (occupancy = 8, num_worker_warps_per_cta = 8),
        sm_100 = (occupancy = 8, num_worker_warps_per_cta = 8)))]
    pub unsafe fn layer_norm_row_gather<E: ElementType, const TILE_COLS: i32>(
        x: &Tensor<E, { [-1, -1] }>,
        weight: &Tensor<E, { [-1] }>,
        bias: &Tensor<E, { [-1] }>,
        out: &Tensor<E, { [-1, -1] }>,
        eps: f32,
    ) {
        let entry: Token = x.token();
        unsafe {
            weight.set_token(entry);
            bias.set_token(entry);
            out.set_token(entry);
        }
        let row: i32 = get_tile_block_id().0;
        let cols: i32 = x.shape()[1];
        let idx: Tile<i32, { [TILE_COLS] }> = iota(shape![TILE_COLS]);
        let cols_i: Tile<i32, { [] }> = scalar_to_tile(cols);
        let limit: Tile<i32, { [1] }> = cols_i.reshape(shape![1]);
        let limit: Tile<i32, { [TILE_COLS] }> = limit.broadcast(shape![TILE_COLS]);
        let inside: Tile<bool, { [TILE_COLS] }> = lt_tile(idx, limit);
        let offsets: Tile<i64, { [TILE_COLS] }> = exti(idx);
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
        let zero: Tile<f32, { [TILE_COLS] }> = constant(0.0f32, shape![TILE_COLS]);
        let raw: Tile<f32, { [TILE_COLS] }> = convert_tile(raw);
        let t: Tile<f32, { [TILE_COLS] }> = select(inside, raw, zero);
        let cols_f: Tile<f32, { [] }> = convert_tile(cols_i);
        let sum: Tile<f32, { [] }> = reduce_sum(t, 0i32);
        let mean: Tile<f32, { [] }> = sum / cols_f;
        let mean: Tile<f32, { [1] }> = mean.reshape(shape![1]);
        let mean: Tile<f32, { [TILE_COLS] }> = mean.broadcast(shape![TILE_COLS]);
        let diff: Tile<f32, { [TILE_COLS] }> = t - mean;
        let centred: Tile<f32, { [TILE_COLS] }> = select(inside, diff, zero);
        let sum_sq: Tile<f32, { [] }> = reduce_sum(centred * centred, 0i32);
        let var: Tile<f32, { [] }> = sum_sq / cols_f;
        let eps_t: Tile<f32, { [] }> = scalar_to_tile(eps);
        let var_eps: Tile<f32, { [] }> = var + eps_t;
        let inv_std: Tile<f32, { [] }> = rsqrt(var_eps, ftz::Disabled);
        let inv_std: Tile<f32, { [1] }> = inv_std.reshape(shape![1]);
        let inv_std: Tile<f32, { [TILE_COLS] }> = inv_std.broadcast(shape![TILE_COLS]);
        let wp: Partition<E, { [TILE_COLS] }> = weight.partition(shape![TILE_COLS]);
        let w: Tile<E, { [TILE_COLS] }> = wp.load([0i32]);
        let w: Tile<f32, { [TILE_COLS] }> = convert_tile(w);
        let bp: Partition<E, { [TILE_COLS] }> = bias.partition(shape![TILE_COLS]);
        let b: Tile<E, { [TILE_COLS] }> = bp.load([0i32]);
        let b: Tile<f32, { [TILE_COLS] }> = convert_tile(b);
        let scaled: Tile<f32, { [TILE_COLS] }> = centred * inv_std;
        let y: Tile<f32, { [TILE_COLS] }> = fma(scaled, w, b, rounding::NearestEven, ftz::Disabled);
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
