//! The port of tilegym.ops.cutile.moe_align_block:_moe_align_block_size_stage1_kernel and its
//! C ABI: `wb_tilegym_moe_align_block_stage1` launches, `..._emit` compiles Tile IR,
//! `..._build_id` names the build.

mod kernel;

use cutile::prelude::*;
use cutile::tile_kernel::TileKernel;
use wb_ffi::{Call, Error, Launch, DTYPE_I32, DTYPE_I64};

pub use kernel::moe_stage1_port;

wb_ffi::port! {
    /// _moe_align_block_size_stage1_kernel(topk_ids, tokens_cnts, NUM_EXPERTS, NUMEL,
    /// TOKENS_PER_THREAD, SUB_CHUNK, NUM_EXPERTS_POW2): tensors [topk_ids, tokens_cnts],
    /// constants [NUM_EXPERTS .. NUM_EXPERTS_POW2], then the launch (grid, hints).
    wb_tilegym_moe_align_block_stage1, wb_tilegym_moe_align_block_stage1_emit,
    wb_tilegym_moe_align_block_stage1_build_id, moe_stage1_port;
    op "tilegym.moe_align_block.stage1", tensors 2, scalars 0, consts 11;
    |call| {
        call.require(call.dtype_of(0) == DTYPE_I64 && call.dtype_of(1) == DTYPE_I32,
                     || "topk_ids must be i64 and tokens_cnts i32".into())?;
        let c = call.consts;
        call.require(c[1] == call.dim(0, 0), || "NUMEL must be topk_ids' extent".into())?;
        call.require(call.dim(1, 0) >= c[0], || "tokens_cnts must hold a row of NUM_EXPERTS".into())?;
        let pow2 = call.pow2(4, 1 << 12)?;
        call.require(pow2 >= c[0], || "NUM_EXPERTS_POW2 must cover the experts".into())?;
        call.pow2(3, 1 << 12)?;
        call.require(c[2] > 0, || "TOKENS_PER_THREAD must be positive".into())?;
        let launch = call.launch_at(5)?;
        run(&call, launch)
    }
}

fn run(call: &Call, launch: Launch) -> Result<(), Error> {
    let (ids, ids0, ids_s0) = call.raw1::<i64>(0)?;
    let (cnts, cnts0, cnts_s0) = call.raw1::<i32>(1)?;
    let generics: Vec<String> = call.consts[..5].iter().map(|c| c.to_string()).collect();
    unsafe {
        moe_stage1_port::moe_stage1(ids, ids0, ids_s0, cnts, cnts0, cnts_s0)
            .generics(generics)
            .grid(launch.grid)
            .compile_options(launch.options)
            .async_on(&call.stream)
    }
    .map(|_| ())
    .map_err(|e| call.launch_error(e))
}
