//! The port of tilegym.ops.cutile.rope:_rope_kernel and its C ABI:
//! `wb_tilegym_rope_forward` launches, `..._emit` compiles Tile IR.

mod kernel;

use cutile::half::{bf16, f16};
use cutile::prelude::*;
use cutile::tile_kernel::TileKernel;
use wb_ffi::{Call, Error, Launch, DTYPE_BF16, DTYPE_F16, DTYPE_F32};

pub use kernel::rope_port;

wb_ffi::port! {
    /// _rope_kernel(q, k, cos, sin, COS_BS, SEQ_LEN, TILE_QH, TILE_KH, TILE_RD): tensors
    /// [q (B, Hq, S, D), k (B, Hk, S, D), cos, sin (COS_BS, S, rope_dim)], all of one dtype,
    /// constants [COS_BS, SEQ_LEN, TILE_QH, TILE_KH, TILE_RD], then the launch (grid, hints).
    wb_tilegym_rope_forward, wb_tilegym_rope_forward_emit, wb_tilegym_rope_forward_build_id, rope_port;
    op "tilegym.rope.forward", tensors 4, scalars 0, consts 11;
    |call| {
        call.rank(0, 4)?;
        call.rank(1, 4)?;
        let (b, hq, s, d) = (call.dim(0, 0), call.dim(0, 1), call.dim(0, 2), call.dim(0, 3));
        let hk = call.dim(1, 1);
        call.shape_is(1, &[b, hk, s, d])?;
        call.rank(2, 3)?;
        let (cos_bs, rope_dim) = (call.dim(2, 0), call.dim(2, 2));
        call.shape_is(3, &[cos_bs, s, rope_dim])?;
        call.require(call.dim(2, 1) == s, || "cos and sin have one row per position".into())?;
        call.require(cos_bs == 1 || cos_bs == b, || "cos and sin have batch 1 or the batch of q".into())?;
        for (i, dim) in [(0, 3), (1, 3), (2, 2), (3, 2)] {
            call.unit_stride(i, dim)?;
        }
        let c = call.consts;
        call.require(c[0] == cos_bs && c[1] == s, || "COS_BS and SEQ_LEN must be cos's batch and the length".into())?;
        let (tile_qh, tile_kh, tile_rd) = (call.pow2(2, 1 << 10)?, call.pow2(3, 1 << 10)?, call.pow2(4, 1 << 12)?);
        call.require(tile_qh >= hq && tile_kh >= hk, || "TILE_QH and TILE_KH must cover the heads".into())?;
        // dim-tile 1 of TILE_RD is [TILE_RD, 2 * TILE_RD): the rotated dims must be those
        call.require(2 * tile_rd == rope_dim && rope_dim <= d,
                     || format!("rope_dim {rope_dim} must be 2 * TILE_RD ({tile_rd}) and at most head_dim {d}"))?;
        let launch = call.launch_at(5)?;
        call.require(launch.grid == ((b * s) as u32, 1, 1), || "the grid is one block per (batch, row)".into())?;
        match call.dtype()? {
            DTYPE_F32 => run::<f32>(&call, launch),
            DTYPE_F16 => run::<f16>(&call, launch),
            DTYPE_BF16 => run::<bf16>(&call, launch),
            other => call.bad_dtype(other),
        }
    }
}

fn run<T: DType>(call: &Call, launch: Launch) -> Result<(), Error> {
    let (q, k, cos, sin) = (call.input::<T>(0)?, call.input::<T>(1)?, call.input::<T>(2)?, call.input::<T>(3)?);
    let mut generics = vec![T::DTYPE.as_str().to_string()];
    generics.extend(call.consts[..5].iter().map(|c| c.to_string()));
    unsafe {
        rope_port::rope(q, k, cos, sin)
            .generics(generics)
            .grid(launch.grid)
            .compile_options(launch.options)
            .async_on(&call.stream)
    }
    .map(|_| ())
    .map_err(|e| call.launch_error(e))
}
