//! Lists of arrays at the C ABI (a kernel parameter cuTile Python takes as a list, TileGym's
//! group GEMM): the caller passes a list as its items' descriptors, after the plain tensors
//! and the lists before it, and its length as one of the first scalars (one per list, in the
//! manifest's order); `wb_ffi::port!`'s `lists N` form reads them, checks every item against
//! its `[tensors.NAME]` table (`list = true`, see promises.rs) and records each list's range.
//!
//! The device table the kernel reads (one row of 1 + 2 * rank i64 words per item: base
//! address, extents, strides in elements, as cuTile Python's list view lays it out) is built
//! here, from the descriptors just checked, not by the caller: the kernel then reads exactly
//! the facts the checks passed (a caller's table could say anything, and reading device
//! memory back to compare costs a sync), and a caller needs no device allocation of its own
//! (an `__cuda_array_interface__` array works as a torch tensor does). The table is
//! allocated, filled and freed in the call's stream order (cuMemAllocAsync, cuMemcpyHtoDAsync
//! from pageable memory, which returns once the words are staged; cuMemFreeAsync after the
//! launch is enqueued), the same staging cuTile Python does for a list on every launch.

use cutile::cuda_async::device_buffer::DevicePointer;
use cutile::cuda_core::memory::{free_async, malloc_async, memcpy_htod_async};

use crate::call::Call;
use crate::launch::{Error, set_error};

/// The most items one list may have (a bound on the table the call allocates).
pub const MAX_ITEMS: usize = 1 << 16;
/// Unused words after the last row: the kernel's row load is a power-of-two wide tile.
const SLACK_WORDS: usize = 8;

/// The lengths of a call's `n_lists` lists: its first scalars, each a whole number from 1 to
/// MAX_ITEMS (cuTile Python refuses an empty list).
///
/// # Safety
/// `scalars` must be valid for `n_scalars` values (or null).
pub unsafe fn lengths(op: &str, scalars: *const f64, n_scalars: i32, n_lists: usize) -> Result<Vec<usize>, Error> {
    if scalars.is_null() || n_scalars < 0 || (n_scalars as usize) < n_lists {
        return Err(set_error(Error::BadArgument, format!(
            "{op} takes {n_lists} list lengths as its first scalars, got {n_scalars} scalars; nothing was launched")));
    }
    let values = unsafe { std::slice::from_raw_parts(scalars, n_lists) };
    values.iter().enumerate().map(|(i, &v)| {
        if v.fract() != 0.0 || v < 1.0 || v > MAX_ITEMS as f64 {
            Err(set_error(Error::BadArgument, format!(
                "{op}: list {i} has length {v}; a list takes 1 to {MAX_ITEMS} arrays (cuTile Python \
                 refuses an empty one); nothing was launched")))
        } else {
            Ok(v as usize)
        }
    }).collect()
}

/// Each list's (first tensor, length) in the call's tensors, after `plain` plain tensors.
pub fn ranges(plain: usize, lengths: &[usize]) -> Vec<(usize, usize)> {
    let mut start = plain;
    lengths.iter().map(|&n| { let r = (start, n); start += n; r }).collect()
}

/// A list's device table, freed in stream order when dropped (after the launch).
pub struct ListTable {
    ptr: u64,
    stream: cutile::cuda_core::sys::CUstream,
    pub len: i32,
}

impl ListTable {
    pub fn pointer(&self) -> DevicePointer<i64> {
        unsafe { DevicePointer::from_cu_deviceptr(self.ptr) }
    }
}

impl Drop for ListTable {
    fn drop(&mut self) {
        let _ = unsafe { free_async(self.ptr, self.stream) };
    }
}

/// The words of a list's table: per item its base address, extents, then strides.
pub fn table_words(items: &[crate::launch::WbTensor]) -> Vec<i64> {
    let mut words = Vec::new();
    for t in items {
        let n = t.ndim.max(0) as usize;
        words.push(t.ptr as i64);
        words.extend_from_slice(&t.shape[..n]);
        words.extend_from_slice(&t.strides[..n]);
    }
    words.resize(words.len() + SLACK_WORDS, 0);
    words
}

/// What cuTile Python's JIT states of a list's items (its list spec: a fact holds of the
/// list where it holds of every item), in the workbench's `divides(..)` order: a 16-byte
/// aligned base, then each extent divisible by 16, then each stride divisible by 16 bytes.
pub fn list_divides(items: &[crate::launch::WbTensor], elem_bytes: i64) -> Vec<bool> {
    let rank = items.first().map_or(0, |t| t.ndim.clamp(0, crate::launch::MAX_RANK as i32) as usize);
    let per16 = (16 / elem_bytes.max(1)).max(1);
    let mut out = vec![items.iter().all(|t| t.ptr % 16 == 0)];
    out.extend((0..rank).map(|d| items.iter().all(|t| t.shape[d] % 16 == 0)));
    out.extend((0..rank).map(|d| items.iter().all(|t| t.strides[d] % per16 == 0)));
    out
}

impl<'a> Call<'a> {
    /// `list_divides` of list `index`'s items.
    pub fn list_facts(&self, index: usize, elem_bytes: i64) -> Vec<bool> {
        let (start, len) = self.lists[index];
        list_divides(&self.tensors[start..start + len], elem_bytes)
    }

    /// List `index`'s device table, built from its items' (checked) descriptors.
    pub fn list_table(&self, index: usize) -> Result<ListTable, Error> {
        let &(start, len) = self.lists.get(index).ok_or_else(|| set_error(
            Error::BadArgument, format!("{}: no list {index}", self.op)))?;
        let words = table_words(&self.tensors[start..start + len]);
        let bytes = words.len() * std::mem::size_of::<i64>();
        let stream = self.stream.cu_stream();
        let device_error = |e| set_error(Error::Device, format!("{}: list {index}'s table: {e:?}", self.op));
        self.stream.context().bind_to_thread().map_err(device_error)?;
        let ptr = unsafe { malloc_async(stream, bytes) }.map_err(device_error)?;
        let table = ListTable { ptr, stream, len: len as i32 };
        unsafe { memcpy_htod_async(ptr, words.as_ptr(), bytes, stream) }.map_err(device_error)?;
        Ok(table)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::launch::WbTensor;

    #[test]
    fn a_row_per_item_base_extents_strides() {
        let t = |ptr, m, n| WbTensor { ptr, ndim: 2, shape: [m, n, 0, 0, 0, 0], strides: [n, 1, 0, 0, 0, 0], dtype: 1, device: 0 };
        let words = table_words(&[t(4096, 32, 16), t(8192, 48, 64)]);
        assert_eq!(&words[..10], &[4096, 32, 16, 16, 1, 8192, 48, 64, 64, 1]);
        assert_eq!(words.len(), 10 + SLACK_WORDS);
        assert_eq!(ranges(1, &[2, 3]), vec![(1, 2), (3, 3)]);
        // base, extents, strides: 8192 is aligned, 4100 is not; 48 and 16 divide by 16, 24 not;
        // a row stride of 16 or 64 f16 elements is a multiple of 16 bytes, 20 is not (the unit
        // last stride is not: the JIT makes it the constant 1 instead)
        assert_eq!(list_divides(&[t(4096, 32, 16), t(8192, 48, 64)], 2), vec![true, true, true, true, false]);
        assert_eq!(list_divides(&[t(4096, 32, 16), t(4100, 24, 20)], 2), vec![false, false, false, false, false]);
    }
}
