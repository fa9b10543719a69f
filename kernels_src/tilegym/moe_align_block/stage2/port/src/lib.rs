//! The port of tilegym.ops.cutile.moe_align_block:_moe_align_block_size_stage2_kernel and its
//! C ABI: `wb_tilegym_moe_align_block_stage2` launches, `..._emit` compiles Tile IR,
//! `..._build_id` names the build.

mod kernel;

use cutile::prelude::*;
use cutile::tile_kernel::TileKernel;
use wb_ffi::{Call, Error, Launch, DTYPE_I32};

pub use kernel::moe_stage2_port;

wb_ffi::port! {
    /// _moe_align_block_size_stage2_kernel(tokens_cnts, NUM_EXPERTS, NUM_EXPERTS_POW2):
    /// tensors [tokens_cnts], constants [NUM_EXPERTS, NUM_EXPERTS_POW2], then the launch.
    wb_tilegym_moe_align_block_stage2, wb_tilegym_moe_align_block_stage2_emit,
    wb_tilegym_moe_align_block_stage2_build_id, moe_stage2_port;
    op "tilegym.moe_align_block.stage2", tensors 1, scalars 0, consts 8;
    |call| {
        call.require(call.dtype_of(0) == DTYPE_I32, || "tokens_cnts must be i32".into())?;
        call.require(call.consts[0] > 0, || "NUM_EXPERTS must be positive".into())?;
        call.pow2(1, 1 << 20)?;
        let launch = call.launch_at(2)?;
        run(&call, launch)
    }
}

fn run(call: &Call, launch: Launch) -> Result<(), Error> {
    let (cnts, cnts0, cnts_s0) = call.raw1::<i32>(0)?;
    let generics: Vec<String> = call.consts[..2].iter().map(|c| c.to_string()).collect();
    unsafe {
        moe_stage2_port::moe_stage2(cnts, cnts0, cnts_s0)
            .generics(generics)
            .grid(launch.grid)
            .compile_options(launch.options)
            .async_on(&call.stream)
    }
    .map(|_| ())
    .map_err(|e| call.launch_error(e))
}
