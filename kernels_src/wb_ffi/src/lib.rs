//! Shared by every operator port: the `#[repr(C)]` tensor descriptor that crosses the C
//! ABI, borrowing foreign memory and streams without copies, turning panics and errors
//! into return codes (with a message), and the compile-only Tile IR emitter.

mod call;
mod emit;
mod launch;
pub mod lists;
mod raw;
pub mod promises;

pub use call::Call;
pub use emit::emit_entry;
pub use launch::{WbTensor, borrow, borrow_stream, device, dtype_name, guard, set_error, Error,
                 DTYPE_BF16, DTYPE_BOOL, DTYPE_F16, DTYPE_F32, DTYPE_F64, DTYPE_F8E4M3,
                 DTYPE_F8E5M2, DTYPE_I16, DTYPE_I32, DTYPE_I64, DTYPE_I8, DTYPE_U16, DTYPE_U32,
                 DTYPE_U64, DTYPE_U8};
pub use lists::ListTable;
pub use raw::{dtype_code, Launch};

/// The two exports every port has besides its launcher: `$emit` compiles the entry of
/// `$module` to Tile IR bytecode for a specialization request (see the emit module), and
/// `$build_id` names the build (`WB_BUILD_ID`, set by `workbench build`; the `option_env!`
/// expands in the port's crate, so cargo rebuilds it when the id changes).
///
/// `wb_ffi::port_exports!(wb_softmax_emit, wb_softmax_build_id, softmax_port);`
#[macro_export]
macro_rules! port_exports {
    ($emit:ident, $build_id:ident, $module:ident) => {
        /// Tile IR bytecode for a specialization request.
        ///
        /// # Safety
        /// See `wb_ffi::emit_entry`.
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $emit(
            request: *const ::std::ffi::c_char, out: *mut *mut u8, len: *mut usize,
        ) -> i32 {
            unsafe {
                $crate::emit_entry($module::__module_ast_self, stringify!($module), request, out, len)
            }
        }

        /// The build this library came from.
        #[unsafe(no_mangle)]
        pub extern "C" fn $build_id() -> *const ::std::ffi::c_char {
            $crate::build_id(option_env!("WB_BUILD_ID"))
        }
    };
}

/// A port's three C symbols around the body particular to it: `$launcher` unpacks and checks
/// the C call (counts, device, stream) into `$call` (a `wb_ffi::Call`), runs the body (the
/// port's checks, its dtype dispatch, its launch: `Result<(), Error>`) under `guard`, and
/// returns 0 or the error code; `$emit` and `$build_id` are `port_exports!`.
///
/// ```ignore
/// wb_ffi::port! {
///     /// softmax(x, out, TILE_COLS): tensors [x, out], no scalars, constants [TILE_COLS].
///     wb_softmax, wb_softmax_emit, wb_softmax_build_id, softmax_port;
///     op "softmax", tensors 2, scalars 0, consts 1;
///     |call| {
///         call.rank(0, 2)?;
///         match call.dtype()? { DTYPE_F32 => launch::<f32>(&call), other => call.bad_dtype(other) }
///     }
/// }
/// ```
#[macro_export]
macro_rules! port {
    ($(#[$doc:meta])* $launcher:ident, $emit:ident, $build_id:ident, $module:ident;
     op $op:literal, tensors $n_tensors:expr, scalars $n_scalars:expr, consts $n_consts:expr;
     |$call:ident| $body:block) => {
        $(#[$doc])*
        ///
        /// # Safety
        /// Pointers valid for their counts; tensors live device memory; `stream` a live CUstream.
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $launcher(
            tensors: *const $crate::WbTensor, n_tensors: i32, scalars: *const f64, n_scalars: i32,
            consts: *const i64, n_consts: i32, stream: *mut ::std::ffi::c_void,
        ) -> i32 {
            $crate::guard(|| {
                // the manifest's promises (port.toml), before any CUDA call
                unsafe {
                    $crate::promises::check($op, include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/port.toml")),
                                            tensors, n_tensors)?
                };
                let $call = unsafe {
                    $crate::Call::new($op, tensors, n_tensors, $n_tensors, scalars, n_scalars,
                                      $n_scalars, consts, n_consts, $n_consts, stream)?
                }.with_manifest(include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/port.toml")));
                $body
            })
        }

        $crate::port_exports!($emit, $build_id, $module);
    };
    // A port with lists of arrays (lists.rs): `tensors` plain tensors first, then each list's
    // items; the first `lists` scalars are the lists' lengths, the kernel's own after them.
    ($(#[$doc:meta])* $launcher:ident, $emit:ident, $build_id:ident, $module:ident;
     op $op:literal, tensors $n_tensors:expr, lists $n_lists:expr, scalars $n_scalars:expr, consts $n_consts:expr;
     |$call:ident| $body:block) => {
        $(#[$doc])*
        ///
        /// # Safety
        /// Pointers valid for their counts; tensors live device memory; `stream` a live CUstream.
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $launcher(
            tensors: *const $crate::WbTensor, n_tensors: i32, scalars: *const f64, n_scalars: i32,
            consts: *const i64, n_consts: i32, stream: *mut ::std::ffi::c_void,
        ) -> i32 {
            $crate::guard(|| {
                let lengths = unsafe { $crate::lists::lengths($op, scalars, n_scalars, $n_lists)? };
                // the manifest's promises, every list item's included, before any CUDA call
                unsafe {
                    $crate::promises::check_with_lists(
                        $op, include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/port.toml")),
                        tensors, n_tensors, &lengths)?
                };
                let want = $n_tensors + lengths.iter().sum::<usize>();
                let $call = {
                    let mut call = unsafe {
                        $crate::Call::new($op, tensors, n_tensors, want, scalars, n_scalars,
                                          $n_lists + $n_scalars, consts, n_consts, $n_consts, stream)?
                    }.with_manifest(include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/port.toml")));
                    call.lists = $crate::lists::ranges($n_tensors, &lengths);
                    call
                };
                $body
            })
        }

        $crate::port_exports!($emit, $build_id, $module);
    };
}

/// A NUL-terminated copy of a port's build id, made once per library.
pub fn build_id(id: Option<&'static str>) -> *const std::ffi::c_char {
    static ID: std::sync::OnceLock<std::ffi::CString> = std::sync::OnceLock::new();
    ID.get_or_init(|| std::ffi::CString::new(id.unwrap_or("dev")).unwrap_or_default()).as_ptr()
}

/// Copy the last error message of this thread into `buf` (NUL-terminated, truncated to
/// `len`); returns the full message length.
///
/// # Safety
/// `buf` must point to `len` writable bytes (or be null with `len` 0).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn wb_last_error(buf: *mut u8, len: usize) -> usize {
    let message = launch::last_error();
    if !buf.is_null() && len > 0 {
        let n = message.len().min(len - 1);
        unsafe {
            std::ptr::copy_nonoverlapping(message.as_ptr(), buf, n);
            *buf.add(n) = 0;
        }
    }
    message.len()
}

/// Free a buffer returned by an emitter.
///
/// # Safety
/// `ptr`/`len` must come from one `wb_*_emit` call and be freed once.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn wb_free(ptr: *mut u8, len: usize) {
    if !ptr.is_null() {
        drop(unsafe { Vec::from_raw_parts(ptr, len, len) });
    }
}

/// The float constants a kernel names through its element type (`E::NEG_INFINITY`): cutile's
/// JIT resolves them per dtype, rustc needs the bound to type-check the kernel.
pub trait Float: Copy {
    const NEG_INFINITY: Self;
    const INFINITY: Self;
}

macro_rules! float_consts {
    ($($t:ty),*) => {$(
        impl Float for $t {
            const NEG_INFINITY: Self = <$t>::NEG_INFINITY;
            const INFINITY: Self = <$t>::INFINITY;
        }
    )*};
}
float_consts!(f32, cutile::half::f16, cutile::half::bf16);
