//! The layer_norm port and its C ABI: `wb_layer_norm` launches, `wb_layer_norm_emit` compiles Tile IR.

mod kernel;

use std::ffi::c_void;

use cutile::half::{bf16, f16};
use cutile::prelude::*;
use wb_ffi::{Call, DTYPE_BF16, DTYPE_F16, DTYPE_F32, Error, WbTensor, set_error};

pub use kernel::layer_norm_port;

/// layer_norm(x, weight, bias, out, eps, TILE_COLS): tensors [x, weight, bias, out], scalars [eps], constants [TILE_COLS].
///
/// # Safety
/// Pointers valid for their counts; tensors live device memory; `stream` a live CUstream.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn wb_layer_norm(
    tensors: *const WbTensor, n_tensors: i32, scalars: *const f64, n_scalars: i32,
    consts: *const i64, n_consts: i32, stream: *mut c_void,
) -> i32 {
    wb_ffi::guard(|| {
        let call = unsafe {
            Call::new("layer_norm", tensors, n_tensors, 4, scalars, n_scalars, 1, consts, n_consts, 1, stream)?
        };
        call.rank(0, 2)?;
        call.rank(1, 1)?;
        call.rank(2, 1)?;
        call.rank(3, 2)?;
        let tile_cols = call.tile(0)?;
        call.require(call.extent(1, 0) == call.extent(0, 1) && call.extent(2, 0) == call.extent(0, 1),
                     || "weight and bias must have one value per column".into())?;
        call.require(call.extent(0, 1) <= tile_cols as i64, || "a row must fit one tile".into())?;
        match call.dtype()? {
            DTYPE_F32 => launch::<f32>(&call, tile_cols),
            DTYPE_F16 => launch::<f16>(&call, tile_cols),
            DTYPE_BF16 => launch::<bf16>(&call, tile_cols),
            other => Err(set_error(Error::BadArgument, format!("layer_norm: dtype code {other}"))),
        }
    })
}

fn launch<T: DType>(call: &Call, tile_cols: usize) -> Result<(), Error> {
    let (x, weight, bias) = (call.input::<T>(0)?, call.input::<T>(1)?, call.input::<T>(2)?);
    let out = call.output::<T>(3)?;
    let eps = call.scalars[0] as f32;
    let generics = vec![T::DTYPE.as_str().to_string(), tile_cols.to_string()];
    // out partitioned [1, TILE_COLS]: one block per row, the grid of kernel.py's grid()
    unsafe {
        layer_norm_port::layer_norm(x, weight, bias, out.partition([1, tile_cols]), eps)
            .generics(generics)
            .async_on(&call.stream)
    }
    .map(|_| ())
    .map_err(|e| call.launch_error(e))
}

wb_ffi::port_exports!(wb_layer_norm_emit, wb_layer_norm_build_id, layer_norm_port);
