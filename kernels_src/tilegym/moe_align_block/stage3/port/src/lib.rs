//! The port of tilegym.ops.cutile.moe_align_block:_moe_align_block_size_stage3_kernel and its
//! C ABI: `wb_tilegym_moe_align_block_stage3` launches, `..._emit` compiles Tile IR,
//! `..._build_id` names the build.

mod kernel;

use cutile::prelude::*;
use cutile::tile_kernel::TileKernel;
use wb_ffi::{Call, Error, Launch, DTYPE_I32};

pub use kernel::moe_stage3_port;

wb_ffi::port! {
    /// _moe_align_block_size_stage3_kernel(total_tokens_post_pad, max_expert_cnt, tokens_cnts,
    /// cumsum, NUM_EXPERTS, BLOCK_SIZE, NUM_PROGRAMS): tensors [total (1), max (1),
    /// tokens_cnts ((programs + 1) * experts), cumsum (experts + 1)], those constants, then
    /// the launch.
    wb_tilegym_moe_align_block_stage3, wb_tilegym_moe_align_block_stage3_emit,
    wb_tilegym_moe_align_block_stage3_build_id, moe_stage3_port;
    op "tilegym.moe_align_block.stage3", tensors 4, scalars 0, consts 9;
    |call| {
        for t in 0..4 {
            call.require(call.dtype_of(t) == DTYPE_I32, || format!("tensor {t} must be i32"))?;
        }
        let (experts, block, programs) = (call.consts[0], call.consts[1], call.consts[2]);
        call.require(experts > 0 && block > 0 && programs > 0,
                     || "NUM_EXPERTS, BLOCK_SIZE and NUM_PROGRAMS must be positive".into())?;
        call.require(call.dim(2, 0) == (programs + 1) * experts,
                     || "tokens_cnts must hold (NUM_PROGRAMS + 1) * NUM_EXPERTS counts".into())?;
        call.require(call.dim(3, 0) == experts + 1, || "cumsum must hold NUM_EXPERTS + 1 sums".into())?;
        let launch = call.launch_at(3)?;
        call.require(launch.grid == (1, 1, 1), || "the kernel runs as a single block".into())?;
        run(&call, launch)
    }
}

fn run(call: &Call, launch: Launch) -> Result<(), Error> {
    let (total, total0, total_s0) = call.raw1::<i32>(0)?;
    let (max, max0, max_s0) = call.raw1::<i32>(1)?;
    let (cnts, cnts0, cnts_s0) = call.raw1::<i32>(2)?;
    let (cumsum, cumsum0, cumsum_s0) = call.raw1::<i32>(3)?;
    let generics: Vec<String> = call.consts[..3].iter().map(|c| c.to_string()).collect();
    unsafe {
        moe_stage3_port::moe_stage3(total, total0, total_s0, max, max0, max_s0, cnts, cnts0, cnts_s0,
                                    cumsum, cumsum0, cumsum_s0)
            .generics(generics)
            .grid(launch.grid)
            .compile_options(launch.options)
            .async_on(&call.stream)
    }
    .map(|_| ())
    .map_err(|e| call.launch_error(e))
}
