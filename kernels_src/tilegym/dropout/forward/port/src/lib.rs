//! The port of tilegym.ops.cutile.dropout:_dropout_kernel and its C ABI:
//! `wb_tilegym_dropout_forward` launches, `..._emit` compiles Tile IR.

mod kernel;

use cutile::half::{bf16, f16};
use cutile::prelude::*;
use cutile::tile_kernel::TileKernel;
use wb_ffi::{Call, Error, Launch, DTYPE_BF16, DTYPE_F16, DTYPE_F32};

pub use kernel::dropout_port;

/// The drop probabilities the port has an entry for.
const P_ENTRIES: [f64; 4] = [0.2, 0.4, 0.5, 0.8];

wb_ffi::port! {
    /// _dropout_kernel(x, output, P, SEED, TILE_SIZE, TRAINING): tensors [x (n), output (n)],
    /// constants [P (f64 bits), SEED, TILE_SIZE, TRAINING], then the launch (grid, hints).
    wb_tilegym_dropout_forward, wb_tilegym_dropout_forward_emit,
    wb_tilegym_dropout_forward_build_id, dropout_port;
    op "tilegym.dropout.forward", tensors 2, scalars 0, consts 10;
    |call| {
        call.rank(0, 1)?;
        let n = call.dim(0, 0);
        call.shape_is(1, &[n])?;
        call.unit_stride(0, 0)?;
        call.unit_stride(1, 0)?;
        let p = call.const_f64(0);
        let which = P_ENTRIES.iter().position(|&q| q == p);
        let which = which.ok_or_else(|| wb_ffi::set_error(wb_ffi::Error::BadArgument,
            format!("{}: this port has entries for P in {P_ENTRIES:?}, not {p}", call.op)))?;
        call.require(i32::try_from(call.consts[1]).is_ok(), || "SEED is an int32".into())?;
        let tile = call.pow2(2, 1 << 16)?;
        call.require(call.consts[3] == 1, || "the launcher launches only when training".into())?;
        let launch = call.launch_at(4)?;
        call.require(launch.grid.0 as i64 == (n + tile - 1) / tile,
                     || "the grid is one block per TILE_SIZE elements".into())?;
        match call.dtype_of(0) {
            DTYPE_F32 => run::<f32>(&call, launch, which),
            DTYPE_F16 => run::<f16>(&call, launch, which),
            DTYPE_BF16 => run::<bf16>(&call, launch, which),
            other => call.bad_dtype(other),
        }
    }
}

fn run<T: DType>(call: &Call, launch: Launch, which: usize) -> Result<(), Error> {
    let (x, x0, xs0) = call.raw1::<T>(0)?;
    let (o, o0, os0) = call.raw1::<T>(1)?;
    let generics = vec![T::DTYPE.as_str().to_string(), call.consts[1].to_string(), call.consts[2].to_string()];
    macro_rules! go {
        ($entry:ident) => {
            unsafe {
                dropout_port::$entry(x, x0, xs0, o, o0, os0)
                    .generics(generics)
                    .grid(launch.grid)
                    .compile_options(launch.options)
                    .async_on(&call.stream)
            }
            .map(|_| ())
            .map_err(|e| call.launch_error(e))
        };
    }
    match which {
        0 => go!(dropout_p0_2),
        1 => go!(dropout_p0_4),
        2 => go!(dropout_p0_5),
        _ => go!(dropout_p0_8),
    }
}
