//! Shared by every operator port: the `#[repr(C)]` tensor descriptor that crosses the C
//! ABI, borrowing foreign memory and streams without copies, turning panics and errors
//! into return codes (with a message), and the compile-only Tile IR emitter.

mod call;
mod emit;
mod launch;

pub use call::Call;
pub use emit::emit_entry;
pub use launch::{WbTensor, borrow, borrow_stream, device, dtype_name, guard, set_error, Error,
                 DTYPE_BF16, DTYPE_F16, DTYPE_F32};

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
