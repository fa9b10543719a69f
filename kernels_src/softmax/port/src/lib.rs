//! The softmax port and its C ABI: `wb_softmax` launches, `wb_softmax_emit` compiles Tile IR.

mod kernel;

use std::ffi::{c_char, c_void};
use std::sync::Arc;

use cutile::prelude::*;
use wb_ffi::{DTYPE_BF16, DTYPE_F16, DTYPE_F32, Error, WbTensor, borrow, set_error};

pub use kernel::softmax_port;

/// Tensors (x, out), no scalars, consts (TILE_COLS), on the caller's stream.
///
/// # Safety
/// Pointers must be valid for the given counts; tensors must be live device memory.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn wb_softmax(
    tensors: *const WbTensor, n_tensors: i32, _scalars: *const f64, _n_scalars: i32,
    consts: *const i64, n_consts: i32, stream: *mut c_void,
) -> i32 {
    wb_ffi::guard(|| {
        if n_tensors != 2 || n_consts != 1 {
            return Err(set_error(Error::BadArgument, "softmax takes 2 tensors and 1 constant"));
        }
        let tensors = unsafe { std::slice::from_raw_parts(tensors, 2) };
        let tile_cols = unsafe { *consts };
        let (x, out) = (&tensors[0], &tensors[1]);
        if x.ndim != 2 || out.ndim != 2 || x.dtype != out.dtype {
            return Err(set_error(Error::BadArgument, "softmax: x and out must be 2-D, one dtype"));
        }
        let device = wb_ffi::device(out.device)?;
        let stream = unsafe { wb_ffi::borrow_stream(stream, &device) };
        unsafe {
            match out.dtype {
                DTYPE_F32 => launch::<f32>(x, out, tile_cols, &stream),
                DTYPE_F16 => launch::<cutile::half::f16>(x, out, tile_cols, &stream),
                DTYPE_BF16 => launch::<cutile::half::bf16>(x, out, tile_cols, &stream),
                other => Err(set_error(Error::BadArgument,
                                       format!("softmax: dtype {}", wb_ffi::dtype_name(other)))),
            }
        }
    })
}

unsafe fn launch<T: DType>(
    x: &WbTensor, out: &WbTensor, tile_cols: i64,
    stream: &Arc<cutile::cuda_core::Stream>,
) -> Result<(), Error> {
    let x = Arc::new(unsafe { borrow::<T>(x, "x")? });
    let out = unsafe { borrow::<T>(out, "out")? };
    let generics = vec![T::DTYPE.as_str().to_string(), tile_cols.to_string()];
    // one block per row: the output partition's tile is one row
    unsafe {
        softmax_port::softmax(x, out.partition([1, tile_cols as usize]))
            .generics(generics)
            .async_on(stream)
    }
    .map(|_| ())
    .map_err(|e| set_error(Error::Launch, format!("softmax launch: {e:?}")))
}

/// Tile IR bytecode for a specialization request (see wb_ffi's emit module).
///
/// # Safety
/// See `wb_ffi::emit_entry`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn wb_softmax_emit(request: *const c_char, out: *mut *mut u8, len: *mut usize) -> i32 {
    unsafe { wb_ffi::emit_entry(softmax_port::__module_ast_self, "softmax_port", request, out, len) }
}

/// The build this library came from (`WB_BUILD_ID`, set by `workbench build`).
#[unsafe(no_mangle)]
pub extern "C" fn wb_softmax_build_id() -> *const c_char {
    wb_ffi::build_id(option_env!("WB_BUILD_ID"))
}
