use std::cell::RefCell;
use std::collections::HashMap;
use std::ffi::c_void;
use std::sync::{Arc, Mutex, OnceLock};

use cutile::cuda_core::{Context, Stream};
use cutile::prelude::*;

pub const DTYPE_F32: i32 = 0;
pub const DTYPE_F16: i32 = 1;
pub const DTYPE_BF16: i32 = 2;
// Codes of the other storage types a drafted port may take (one element type per array).
// The Python side's DTYPE_CODES must use the same numbers.
pub const DTYPE_F64: i32 = 3;
pub const DTYPE_I64: i32 = 4;
pub const DTYPE_I32: i32 = 5;
pub const DTYPE_I16: i32 = 6;
pub const DTYPE_I8: i32 = 7;
pub const DTYPE_U8: i32 = 8;
pub const DTYPE_BOOL: i32 = 9;
pub const DTYPE_F8E4M3: i32 = 10;
pub const DTYPE_F8E5M2: i32 = 11;
pub const DTYPE_U16: i32 = 12;
pub const DTYPE_U32: i32 = 13;
pub const DTYPE_U64: i32 = 14;
/// How many dtype codes there are (0..DTYPE_COUNT).
pub const DTYPE_COUNT: i32 = 15;

/// The most dims a descriptor carries: cutile's largest tile rank (the split-KV decode
/// kernels take rank-5 arrays).
pub const MAX_RANK: usize = 6;

/// A device tensor as the Python side describes it. Strides are in elements.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct WbTensor {
    pub ptr: u64,
    pub ndim: i32,
    pub shape: [i64; MAX_RANK],
    pub strides: [i64; MAX_RANK],
    pub dtype: i32,
    pub device: i32,
}

/// Return codes of every `wb_*` function; the message is in `wb_last_error`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(i32)]
pub enum Error {
    BadArgument = 1,
    Device = 2,
    Launch = 3,
    Panic = 4,
    Compile = 5,
}

thread_local! {
    static LAST_ERROR: RefCell<String> = const { RefCell::new(String::new()) };
}

pub fn set_error(code: Error, message: impl Into<String>) -> Error {
    LAST_ERROR.with(|e| *e.borrow_mut() = message.into());
    code
}

pub(crate) fn last_error() -> String {
    LAST_ERROR.with(|e| e.borrow().clone())
}

pub fn dtype_name(code: i32) -> &'static str {
    match code {
        DTYPE_F32 => "f32",
        DTYPE_F16 => "f16",
        DTYPE_BF16 => "bf16",
        DTYPE_F64 => "f64",
        DTYPE_I64 => "i64",
        DTYPE_I32 => "i32",
        DTYPE_I16 => "i16",
        DTYPE_I8 => "i8",
        DTYPE_U8 => "u8",
        DTYPE_BOOL => "bool",
        DTYPE_F8E4M3 => "f8e4m3",
        DTYPE_F8E5M2 => "f8e5m2",
        DTYPE_U16 => "u16",
        DTYPE_U32 => "u32",
        DTYPE_U64 => "u64",
        _ => "unknown",
    }
}

/// Run `body`, turning a panic or an error into a return code (0 = success).
pub fn guard(body: impl FnOnce() -> Result<(), Error>) -> i32 {
    LAST_ERROR.with(|e| e.borrow_mut().clear());
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(body)) {
        Ok(Ok(())) => 0,
        Ok(Err(code)) => code as i32,
        Err(payload) => {
            let text = payload
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "panic".into());
            set_error(Error::Panic, format!("panic in the port: {text}")) as i32
        }
    }
}

/// The primary context of device `ordinal` (the one PyTorch uses), retained once per process.
pub fn device(ordinal: i32) -> Result<Arc<Context>, Error> {
    static DEVICES: OnceLock<Mutex<HashMap<i32, Arc<Context>>>> = OnceLock::new();
    let mut devices = DEVICES.get_or_init(Default::default).lock().unwrap();
    if let Some(d) = devices.get(&ordinal) {
        return Ok(d.clone());
    }
    let d = Context::new(ordinal as usize)
        .map_err(|e| set_error(Error::Device, format!("CUDA device {ordinal}: {e:?}")))?;
    devices.insert(ordinal, d.clone());
    Ok(d)
}

/// Wrap the caller's CUDA stream; it is never destroyed here.
///
/// # Safety
/// `raw` must be a live `CUstream` of `device` (or null for the legacy default stream).
pub unsafe fn borrow_stream(raw: *mut c_void, device: &Arc<Context>) -> Arc<Stream> {
    unsafe { Stream::borrow_raw(raw as _, device) }
}

/// Borrow the memory `desc` describes as a cutile tensor: no copy, no allocation, never freed.
///
/// # Safety
/// `desc` must describe live device memory that outlives the launch.
pub unsafe fn borrow<T: DType>(desc: &WbTensor, name: &str) -> Result<Tensor<T>, Error> {
    if desc.ndim < 1 || desc.ndim as usize > MAX_RANK || desc.ptr == 0 {
        return Err(set_error(Error::BadArgument, format!("{name}: bad descriptor {desc:?}")));
    }
    let n = desc.ndim as usize;
    let to_i32 = |v: &[i64]| -> Result<Vec<i32>, Error> {
        v.iter()
            .map(|&x| i32::try_from(x))
            .collect::<Result<_, _>>()
            .map_err(|_| set_error(Error::BadArgument, format!("{name}: extent over i32")))
    };
    let shape = to_i32(&desc.shape[..n])?;
    let strides = to_i32(&desc.strides[..n])?;
    let context = device(desc.device)?;
    Ok(unsafe { Tensor::<T>::borrow_raw_parts(desc.ptr, context, shape, strides) })
}
