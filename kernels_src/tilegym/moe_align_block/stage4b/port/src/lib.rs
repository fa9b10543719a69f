//! The port of tilegym.ops.cutile.moe_align_block:_moe_align_block_size_stage4b_scatter_kernel
//! and its C ABI: `wb_tilegym_moe_align_block_stage4b` launches, `..._emit` compiles Tile IR,
//! `..._build_id` names the build.
//!
//! What the C ABI cannot check is the counts on the device; every gather and scatter of
//! the kernel checks its index against the extent, so any counts stay in bounds.

mod kernel;

use cutile::prelude::*;
use cutile::tile_kernel::TileKernel;
use wb_ffi::{Call, Error, Launch, DTYPE_I32, DTYPE_I64};

pub use kernel::moe_stage4b_port;

wb_ffi::port! {
    /// _moe_align_block_size_stage4b_scatter_kernel(topk_ids, sorted_token_ids, expert_ids,
    /// tokens_cnts, cumsum, NUM_EXPERTS, BLOCK_SIZE, NUMEL, TOKENS_PER_THREAD, SUB_CHUNK,
    /// NUM_EXPERTS_POW2): tensors [topk_ids (numel) i64, then four i32], those constants,
    /// then the launch.
    wb_tilegym_moe_align_block_stage4b, wb_tilegym_moe_align_block_stage4b_emit,
    wb_tilegym_moe_align_block_stage4b_build_id, moe_stage4b_port;
    op "tilegym.moe_align_block.stage4b", tensors 5, scalars 0, consts 12;
    |call| {
        call.require(call.dtype_of(0) == DTYPE_I64, || "topk_ids must be i64".into())?;
        for t in 1..5 {
            call.require(call.dtype_of(t) == DTYPE_I32, || format!("tensor {t} must be i32"))?;
        }
        let c = &call.consts;
        let (experts, block, numel, per_program) = (c[0], c[1], c[2], c[3]);
        call.require(experts > 0 && block > 0 && per_program > 0,
                     || "NUM_EXPERTS, BLOCK_SIZE and TOKENS_PER_THREAD must be positive".into())?;
        call.require(call.dim(0, 0) == numel, || "NUMEL must be topk_ids' length".into())?;
        call.pow2(4, 1 << 16)?;
        let pow2 = call.pow2(5, 1 << 16)?;
        call.require(pow2 >= experts, || "NUM_EXPERTS_POW2 must cover NUM_EXPERTS".into())?;
        call.require(call.dim(4, 0) == experts + 1, || "cumsum must hold NUM_EXPERTS + 1 sums".into())?;
        let launch = call.launch_at(6)?;
        let programs = launch.grid.0 as i64;
        call.require(launch.grid.1 == 1 && launch.grid.2 == 1 && programs * per_program >= numel,
                     || "the grid is one block per TOKENS_PER_THREAD tokens, covering NUMEL".into())?;
        call.require(call.dim(3, 0) >= programs * experts,
                     || "tokens_cnts must hold a row of NUM_EXPERTS counts per block".into())?;
        run(&call, launch)
    }
}

fn run(call: &Call, launch: Launch) -> Result<(), Error> {
    let (ids, ids0, ids_s0) = call.raw1::<i64>(0)?;
    let (sorted, sorted0, sorted_s0) = call.raw1::<i32>(1)?;
    let (experts, experts0, experts_s0) = call.raw1::<i32>(2)?;
    let (cnts, cnts0, cnts_s0) = call.raw1::<i32>(3)?;
    let (cumsum, cumsum0, cumsum_s0) = call.raw1::<i32>(4)?;
    let generics: Vec<String> = call.consts[..6].iter().map(|c| c.to_string()).collect();
    unsafe {
        moe_stage4b_port::moe_stage4b(ids, ids0, ids_s0, sorted, sorted0, sorted_s0, experts, experts0,
                                      experts_s0, cnts, cnts0, cnts_s0, cumsum, cumsum0, cumsum_s0)
            .generics(generics)
            .grid(launch.grid)
            .compile_options(launch.options)
            .async_on(&call.stream)
    }
    .map(|_| ())
    .map_err(|e| call.launch_error(e))
}
