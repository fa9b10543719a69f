//! One C ABI call, unpacked and checked: every port's `wb_<op>` starts with `Call::new`.

use std::ffi::c_void;
use std::sync::Arc;

use cutile::cuda_core::Stream;
use cutile::prelude::*;
use cutile::tile_kernel::CompileOptions;

use crate::launch::{Error, WbTensor, borrow, borrow_stream, device, dtype_name, set_error};

/// Words a call may carry after its constants: occupancy, num_ctas, num_worker_warps (0 = the
/// kernel's own hint), then the program (0 = the port's entry; n = port.toml's `programs[n-1]`).
/// Only a port whose port.toml says `hints = true` is sent them, and such a port hands
/// `Call::options()` to its launch; that is how `workbench tune` tries them.
pub const HINT_WORDS: usize = 4;

pub struct Call<'a> {
    pub op: &'static str,
    pub tensors: &'a [WbTensor],
    pub scalars: &'a [f64],
    pub consts: &'a [i64],
    /// The trailing hint words, when the caller sent them (empty otherwise).
    pub hints: &'a [i64],
    pub stream: Arc<Stream>,
    /// Each list argument's (first tensor, length) among `tensors` (lists.rs; empty for a
    /// port without lists).
    pub lists: Vec<(usize, usize)>,
    /// The port's tile programs: its entry and port.toml's `programs` (`with_manifest`).
    pub programs: usize,
}

unsafe fn slice<'a, T>(ptr: *const T, n: i32, want: usize, what: &str, op: &str) -> Result<&'a [T], Error> {
    if n < 0 || n as usize != want || (want > 0 && ptr.is_null()) {
        return Err(set_error(Error::BadArgument, format!("{op} takes {want} {what}, got {n}")));
    }
    Ok(if want == 0 { &[] } else { unsafe { std::slice::from_raw_parts(ptr, want) } })
}

impl<'a> Call<'a> {
    /// Check the counts, open the device of the first tensor and borrow the caller's stream.
    ///
    /// # Safety
    /// The pointers must be valid for their counts; `stream` a live CUstream (or null).
    #[allow(clippy::too_many_arguments)]
    pub unsafe fn new(
        op: &'static str,
        tensors: *const WbTensor, n_tensors: i32, want_tensors: usize,
        scalars: *const f64, n_scalars: i32, want_scalars: usize,
        consts: *const i64, n_consts: i32, want_consts: usize,
        stream: *mut c_void,
    ) -> Result<Self, Error> {
        let tensors = unsafe { slice(tensors, n_tensors, want_tensors, "tensors", op)? };
        let scalars = unsafe { slice(scalars, n_scalars, want_scalars, "scalars", op)? };
        let with_hints = n_consts >= 0 && n_consts as usize == want_consts + HINT_WORDS;
        let counted = if with_hints { want_consts + HINT_WORDS } else { want_consts };
        let words = unsafe { slice(consts, n_consts, counted, "constants", op)? };
        let (consts, hints) = words.split_at(want_consts);
        let dev = device(tensors[0].device)?;
        let stream = unsafe { borrow_stream(stream, &dev) };
        Ok(Self { op, tensors, scalars, consts, hints, stream, lists: Vec::new(), programs: 1 })
    }

    pub fn rank(&self, index: usize, rank: i32) -> Result<(), Error> {
        let t = &self.tensors[index];
        if t.ndim != rank {
            return Err(set_error(Error::BadArgument,
                                 format!("{}: tensor {index} has rank {}, needs {rank}", self.op, t.ndim)));
        }
        Ok(())
    }

    /// The dtype every tensor shares.
    pub fn dtype(&self) -> Result<i32, Error> {
        let first = self.tensors[0].dtype;
        if let Some(t) = self.tensors.iter().find(|t| t.dtype != first) {
            return Err(set_error(Error::BadArgument, format!(
                "{}: mixed dtypes {} and {}", self.op, dtype_name(first), dtype_name(t.dtype))));
        }
        Ok(first)
    }

    /// The dtype code of one tensor (ports whose arrays have their own element types).
    pub fn dtype_of(&self, index: usize) -> i32 {
        self.tensors[index].dtype
    }

    /// Tensor `index` shares tensor `other`'s dtype (one generic element type).
    pub fn same_dtype(&self, index: usize, other: usize) -> Result<(), Error> {
        let (a, b) = (self.dtype_of(index), self.dtype_of(other));
        self.require(a == b, || format!("tensors {index} and {other} have dtypes {} and {}, the port \
                                          takes one element type for both", dtype_name(a), dtype_name(b)))
    }

    /// Tensor `index` has the one dtype the port takes for it.
    pub fn require_dtype(&self, index: usize, code: i32) -> Result<(), Error> {
        let got = self.dtype_of(index);
        self.require(got == code, || format!("tensor {index} is {}, the port takes {}",
                                             dtype_name(got), dtype_name(code)))
    }

    /// The error of a dtype combination the port has no arm for.
    pub fn bad_dtypes(&self, codes: &[i32]) -> Result<(), Error> {
        let names: Vec<&str> = codes.iter().map(|&c| dtype_name(c)).collect();
        Err(set_error(Error::BadArgument, format!("{}: dtypes {names:?} have no launch", self.op)))
    }

    pub fn extent(&self, index: usize, dim: usize) -> i64 {
        self.tensors[index].shape[dim]
    }

    /// A tile-size constant: a power of two.
    pub fn tile(&self, index: usize) -> Result<usize, Error> {
        let v = self.consts[index];
        if v <= 0 || v > (1 << 20) || v & (v - 1) != 0 {
            return Err(set_error(Error::BadArgument,
                                 format!("{}: constant {index} = {v} is not a power of two", self.op)));
        }
        Ok(v as usize)
    }

    pub fn require(&self, ok: bool, message: impl FnOnce() -> String) -> Result<(), Error> {
        if ok { Ok(()) } else { Err(set_error(Error::BadArgument, format!("{}: {}", self.op, message()))) }
    }

    /// A read-only input, shared with the launch.
    pub fn input<T: DType>(&self, index: usize) -> Result<Arc<Tensor<T>>, Error> {
        Ok(Arc::new(unsafe { borrow::<T>(&self.tensors[index], self.op)? }))
    }

    /// An output the launch writes (partitioned by the caller to set the grid).
    pub fn output<T: DType>(&self, index: usize) -> Result<Tensor<T>, Error> {
        unsafe { borrow::<T>(&self.tensors[index], self.op) }
    }

    /// The error of a dtype code the port has no arm for.
    pub fn bad_dtype(&self, code: i32) -> Result<(), Error> {
        Err(set_error(Error::BadArgument, format!("{}: dtype code {code}", self.op)))
    }

    /// The compile options the caller's hint words ask for (none sent: the kernel's own).
    pub fn options(&self) -> CompileOptions {
        let word = |i: usize| self.hints.get(i).copied().filter(|&v| v > 0).map(|v| v as i32);
        let mut options = CompileOptions::default();
        if let Some(v) = word(0) {
            options = options.occupancy(v);
        }
        if let Some(v) = word(1) {
            options = options.num_cta_in_cga(v);
        }
        if let Some(v) = word(2) {
            options = options.num_worker_warps_per_cta(v);
        }
        options
    }

    /// The port's own manifest (its port.toml) says how many tile programs it has.
    pub fn with_manifest(mut self, manifest: &str) -> Self {
        self.programs = 1 + crate::promises::other_programs(manifest);
        self
    }

    /// Which of the port's tile programs the caller asks for (0, its entry, when no hint
    /// words were sent; n, port.toml's `programs[n-1]`).
    pub fn program(&self) -> Result<usize, Error> {
        let program = self.hints.get(3).copied().unwrap_or(0);
        let count = self.programs;
        self.require(program >= 0 && (program as usize) < count, || {
            format!("program {program}: the port has {count} (0 is its entry; port.toml `programs`)")
        })?;
        Ok(program as usize)
    }

    pub fn launch_error(&self, error: impl std::fmt::Debug) -> Error {
        set_error(Error::Launch, format!("{} launch: {error:?}", self.op))
    }
}
