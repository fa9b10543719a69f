//! Port of tilegym.ops.cutile.rope:_rope_kernel: one block per (batch, row). The block loads
//! the row's first TILE_RD of cos and sin (3-d views, zero padded) and, for q and then k,
//! the two halves of the rotated dims, all heads at once: tiles (1, TILE_QH, 1, TILE_RD)
//! at dim-tile 0 and 1 of a zero-padded 4-d view (TMA). It rotates them as
//! x1 * cos - x2 * sin and x2 * cos + x1 * sin (an fma, as cuTile Python fuses them) and
//! stores both back in place; dims past 2 * TILE_RD are not touched (partial RoPE).
#[cutile::module]
#[allow(non_snake_case)]
pub mod rope_port {
    use cutile::core::*;

    #[cutile::entry(unchecked_accesses = true)]
    pub unsafe fn rope<
        E: ElementType,
        const COS_BS: i32,
        const SEQ_LEN: i32,
        const TILE_QH: i32,
        const TILE_KH: i32,
        const TILE_RD: i32,
    >(
        q: &Tensor<E, { [-1, -1, -1, -1] }>,
        k: &Tensor<E, { [-1, -1, -1, -1] }>,
        cos: &Tensor<E, { [-1, -1, -1] }>,
        sin: &Tensor<E, { [-1, -1, -1] }>,
    ) {
        let bid: Tile<i32, { [] }> = scalar_to_tile(get_tile_block_id().0);
        let seq_len: Tile<i32, { [] }> = scalar_to_tile(SEQ_LEN);
        // batch_idx = bid // SEQ_LEN; row_idx = bid % SEQ_LEN (Python's floor division and
        // modulo: the remainder moved into [0, SEQ_LEN) when it is negative)
        let batch_idx: Tile<i32, { [] }> = divi(bid, seq_len, rounding::NegativeInf);
        let rem: Tile<i32, { [] }> = remi(bid, seq_len);
        let zero_t: Tile<i32, { [] }> = constant(0i32, const_shape![]);
        let negative: Tile<bool, { [] }> = cmpi(rem, zero_t, predicate::LessThan);
        let divisor_negative: Tile<bool, { [] }> = scalar_to_tile(false);
        let negative: Tile<bool, { [] }> = xori(negative, divisor_negative);
        let nonzero: Tile<bool, { [] }> = cmpi(rem, zero_t, predicate::NotEqual);
        let wrap: Tile<bool, { [] }> = andi(negative, nonzero);
        let wrapped: Tile<i32, { [] }> = rem + seq_len;
        let row_idx: Tile<i32, { [] }> = select(wrap, wrapped, rem);
        let batch_idx: i32 = tile_to_scalar(batch_idx);
        let row_idx: i32 = tile_to_scalar(row_idx);
        let cos_batch_idx: i32 = if COS_BS == 1 { 0i32 } else { batch_idx };
        let zero: i32 = 0i32;
        let one: i32 = 1i32;
        // each array's entry token, taken before any set_token: cutile's setter reaches the
        // other entry tensors too (they share the entry token value)
        let k_entry: Token = k.token();
        // the first half of rope_dim of cos and sin
        let view: Partition<E, { [1, 1, TILE_RD] }> = unsafe {
            make_partition_view(cos, const_shape![1, 1, TILE_RD], padding::Zero, dim_map::Identity, cos.token())
        };
        let cos_row: Tile<E, { [1, 1, TILE_RD] }> = view.load([cos_batch_idx, row_idx, zero]);
        let cos_row: Tile<E, { [1, TILE_RD] }> = cos_row.reshape(const_shape![1, TILE_RD]);
        let view: Partition<E, { [1, 1, TILE_RD] }> = unsafe {
            make_partition_view(sin, const_shape![1, 1, TILE_RD], padding::Zero, dim_map::Identity, sin.token())
        };
        let sin_row: Tile<E, { [1, 1, TILE_RD] }> = view.load([cos_batch_idx, row_idx, zero]);
        let sin_row: Tile<E, { [1, TILE_RD] }> = sin_row.reshape(const_shape![1, TILE_RD]);

        // q: [x1, x2] -> [x1 * cos - x2 * sin, x2 * cos + x1 * sin]
        let view: Partition<E, { [1, TILE_QH, 1, TILE_RD] }> = unsafe {
            make_partition_view(q, const_shape![1, TILE_QH, 1, TILE_RD], padding::Zero, dim_map::Identity, q.token())
        };
        let q1: Tile<E, { [1, TILE_QH, 1, TILE_RD] }> =
            load_view_tko(&view, [batch_idx, zero, row_idx, zero], ordering::Weak, scope::TileBlock, None, tma::Enabled);
        let read: Token = join_tokens(&[q.token(), get_partition_token(&view)]);
        let q1: Tile<E, { [TILE_QH, TILE_RD] }> = q1.reshape(const_shape![TILE_QH, TILE_RD]);
        let view: Partition<E, { [1, TILE_QH, 1, TILE_RD] }> = unsafe {
            make_partition_view(q, const_shape![1, TILE_QH, 1, TILE_RD], padding::Zero, dim_map::Identity, q.token())
        };
        let q2: Tile<E, { [1, TILE_QH, 1, TILE_RD] }> =
            load_view_tko(&view, [batch_idx, zero, row_idx, one], ordering::Weak, scope::TileBlock, None, tma::Enabled);
        let read: Token = join_tokens(&[read, get_partition_token(&view)]);
        let q2: Tile<E, { [TILE_QH, TILE_RD] }> = q2.reshape(const_shape![TILE_QH, TILE_RD]);
        let c: Tile<E, { [TILE_QH, TILE_RD] }> = cos_row.broadcast(const_shape![TILE_QH, TILE_RD]);
        let s: Tile<E, { [TILE_QH, TILE_RD] }> = sin_row.broadcast(const_shape![TILE_QH, TILE_RD]);
        let new1: Tile<E, { [TILE_QH, TILE_RD] }> = fma(q1, c, negf(q2 * s), rounding::NearestEven, ftz::Disabled);
        let c: Tile<E, { [TILE_QH, TILE_RD] }> = cos_row.broadcast(const_shape![TILE_QH, TILE_RD]);
        let s: Tile<E, { [TILE_QH, TILE_RD] }> = sin_row.broadcast(const_shape![TILE_QH, TILE_RD]);
        let new2: Tile<E, { [TILE_QH, TILE_RD] }> = fma(q2, c, q1 * s, rounding::NearestEven, ftz::Disabled);
        let new1: Tile<E, { [1, TILE_QH, 1, TILE_RD] }> = new1.reshape(const_shape![1, TILE_QH, 1, TILE_RD]);
        // the stores wait for both loads of this array (they write what the loads read)
        unsafe { q.set_token(read) };
        let mut out: PartitionMut<E, { [1, TILE_QH, 1, TILE_RD] }> =
            unsafe { q.partition_full_mut(const_shape![1, TILE_QH, 1, TILE_RD]) };
        unsafe { out.store(new1, [batch_idx, zero, row_idx, zero]) };
        // the second store is ordered after the first (cuTile Python chains stores to one array)
        unsafe { k.set_token(get_partition_token_mut(&out)) };
        // the second store is ordered after the first (cuTile Python chains stores to one array)
        unsafe { q.set_token(get_partition_token_mut(&out)) };
        let new2: Tile<E, { [1, TILE_QH, 1, TILE_RD] }> = new2.reshape(const_shape![1, TILE_QH, 1, TILE_RD]);
        let mut out: PartitionMut<E, { [1, TILE_QH, 1, TILE_RD] }> =
            unsafe { q.partition_full_mut(const_shape![1, TILE_QH, 1, TILE_RD]) };
        unsafe { out.store(new2, [batch_idx, zero, row_idx, one]) };

        // k: [x1, x2] -> [x1 * cos - x2 * sin, x2 * cos + x1 * sin]
        let view: Partition<E, { [1, TILE_KH, 1, TILE_RD] }> = unsafe {
            make_partition_view(k, const_shape![1, TILE_KH, 1, TILE_RD], padding::Zero, dim_map::Identity, k_entry)
        };
        let k1: Tile<E, { [1, TILE_KH, 1, TILE_RD] }> =
            load_view_tko(&view, [batch_idx, zero, row_idx, zero], ordering::Weak, scope::TileBlock, None, tma::Enabled);
        let read: Token = join_tokens(&[k_entry, get_partition_token(&view)]);
        let k1: Tile<E, { [TILE_KH, TILE_RD] }> = k1.reshape(const_shape![TILE_KH, TILE_RD]);
        let view: Partition<E, { [1, TILE_KH, 1, TILE_RD] }> = unsafe {
            make_partition_view(k, const_shape![1, TILE_KH, 1, TILE_RD], padding::Zero, dim_map::Identity, k_entry)
        };
        let k2: Tile<E, { [1, TILE_KH, 1, TILE_RD] }> =
            load_view_tko(&view, [batch_idx, zero, row_idx, one], ordering::Weak, scope::TileBlock, None, tma::Enabled);
        let read: Token = join_tokens(&[read, get_partition_token(&view)]);
        let k2: Tile<E, { [TILE_KH, TILE_RD] }> = k2.reshape(const_shape![TILE_KH, TILE_RD]);
        let c: Tile<E, { [TILE_KH, TILE_RD] }> = cos_row.broadcast(const_shape![TILE_KH, TILE_RD]);
        let s: Tile<E, { [TILE_KH, TILE_RD] }> = sin_row.broadcast(const_shape![TILE_KH, TILE_RD]);
        let new1: Tile<E, { [TILE_KH, TILE_RD] }> = fma(k1, c, negf(k2 * s), rounding::NearestEven, ftz::Disabled);
        let c: Tile<E, { [TILE_KH, TILE_RD] }> = cos_row.broadcast(const_shape![TILE_KH, TILE_RD]);
        let s: Tile<E, { [TILE_KH, TILE_RD] }> = sin_row.broadcast(const_shape![TILE_KH, TILE_RD]);
        let new2: Tile<E, { [TILE_KH, TILE_RD] }> = fma(k2, c, k1 * s, rounding::NearestEven, ftz::Disabled);
        let new1: Tile<E, { [1, TILE_KH, 1, TILE_RD] }> = new1.reshape(const_shape![1, TILE_KH, 1, TILE_RD]);
        // the stores wait for both loads of this array (they write what the loads read)
        unsafe { k.set_token(read) };
        let mut out: PartitionMut<E, { [1, TILE_KH, 1, TILE_RD] }> =
            unsafe { k.partition_full_mut(const_shape![1, TILE_KH, 1, TILE_RD]) };
        unsafe { out.store(new1, [batch_idx, zero, row_idx, zero]) };
        // the second store is ordered after the first (cuTile Python chains stores to one array)
        unsafe { k.set_token(get_partition_token_mut(&out)) };
        // the second store is ordered after the first (cuTile Python chains stores to one array)
        unsafe { q.set_token(get_partition_token_mut(&out)) };
        let new2: Tile<E, { [1, TILE_KH, 1, TILE_RD] }> = new2.reshape(const_shape![1, TILE_KH, 1, TILE_RD]);
        let mut out: PartitionMut<E, { [1, TILE_KH, 1, TILE_RD] }> =
            unsafe { k.partition_full_mut(const_shape![1, TILE_KH, 1, TILE_RD]) };
        unsafe { out.store(new2, [batch_idx, zero, row_idx, one]) };
    }
}
