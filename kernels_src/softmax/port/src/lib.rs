//! The softmax port and its C ABI: `wb_softmax` launches, `wb_softmax_emit` compiles Tile IR.

mod kernel;

use std::ffi::c_void;

use cutile::half::{bf16, f16};
use cutile::prelude::*;
use wb_ffi::{Call, DTYPE_BF16, DTYPE_F16, DTYPE_F32, Error, WbTensor, set_error};

pub use kernel::softmax_port;

/// softmax(x, out, TILE_COLS): tensors [x, out], no scalars, constants [TILE_COLS].
///
/// # Safety
/// Pointers valid for their counts; tensors live device memory; `stream` a live CUstream.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn wb_softmax(
    tensors: *const WbTensor, n_tensors: i32, scalars: *const f64, n_scalars: i32,
    consts: *const i64, n_consts: i32, stream: *mut c_void,
) -> i32 {
    wb_ffi::guard(|| {
        let call = unsafe {
            Call::new("softmax", tensors, n_tensors, 2, scalars, n_scalars, 0, consts, n_consts, 1, stream)?
        };
        call.rank(0, 2)?;
        call.rank(1, 2)?;
        let tile_cols = call.tile(0)?;
        call.require(call.extent(0, 1) <= tile_cols as i64, || "a row must fit one tile".into())?;
        match call.dtype()? {
            DTYPE_F32 => launch::<f32>(&call, tile_cols),
            DTYPE_F16 => launch::<f16>(&call, tile_cols),
            DTYPE_BF16 => launch::<bf16>(&call, tile_cols),
            other => Err(set_error(Error::BadArgument, format!("softmax: dtype code {other}"))),
        }
    })
}

fn launch<T: DType>(call: &Call, tile_cols: usize) -> Result<(), Error> {
    let (x, out) = (call.input::<T>(0)?, call.output::<T>(1)?);
    let generics = vec![T::DTYPE.as_str().to_string(), tile_cols.to_string()];
    // out partitioned [1, TILE_COLS]: one block per row, the grid of kernel.py's grid()
    unsafe { softmax_port::softmax(x, out.partition([1, tile_cols])).generics(generics).async_on(&call.stream) }
        .map(|_| ())
        .map_err(|e| call.launch_error(e))
}

wb_ffi::port_exports!(wb_softmax_emit, wb_softmax_build_id, softmax_port);
