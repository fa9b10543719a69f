//! What the ports of installed kernels (TileGym's) need of a call besides tensors: raw device
//! pointers with their extents and strides (the entry parameters cuTile Python expands an array
//! into), per-tensor dtypes, constants that are floats or booleans, and the launch the caller's
//! launch rule chose: a grid and compile options. By convention such a port's C call carries,
//! after the kernel's own constants, six more: grid x, y, z, then occupancy, num_ctas and
//! num_worker_warps (0 = the kernel's own hint).

use cutile::cuda_async::device_buffer::DevicePointer;
use cutile::prelude::*;
use cutile::tile_kernel::CompileOptions;

use crate::call::Call;
use crate::launch::{Error, set_error, dtype_name, DTYPE_BF16, DTYPE_F16, DTYPE_F32, DTYPE_I32, DTYPE_I64};

/// The C ABI's dtype code of an element type.
pub fn dtype_code<T: DType>() -> i32 {
    match T::DTYPE.as_str() {
        "f32" => DTYPE_F32,
        "f16" => DTYPE_F16,
        "bf16" => DTYPE_BF16,
        "i32" => DTYPE_I32,
        "i64" => DTYPE_I64,
        _ => -1,
    }
}

/// The grid and compile options of one launch, read from the six trailing constants.
pub struct Launch {
    pub grid: (u32, u32, u32),
    pub options: CompileOptions,
}

impl<'a> Call<'a> {
    /// The dtype code of tensor `index`.
    pub fn dtype_of(&self, index: usize) -> i32 {
        self.tensors[index].dtype
    }

    /// Require tensor `index` to hold `T`.
    pub fn expect_dtype<T: DType>(&self, index: usize) -> Result<(), Error> {
        let code = self.tensors[index].dtype;
        self.require(code == dtype_code::<T>(), || {
            format!("tensor {index} is {}, the port needs {} there", dtype_name(code), T::DTYPE.as_str())
        })
    }

    /// Tensor `index` as a raw device pointer of `T` (its dtype checked).
    pub fn pointer<T: DType>(&self, index: usize) -> Result<DevicePointer<T>, Error> {
        self.expect_dtype::<T>(index)?;
        let t = &self.tensors[index];
        self.require(t.ptr != 0, || format!("tensor {index} is a null pointer"))?;
        Ok(unsafe { DevicePointer::from_cu_deviceptr(t.ptr) })
    }

    /// Extent `dim` of tensor `index` as the i32 the kernel takes (the kernel assumes it is
    /// not negative, as cuTile Python's entry does).
    pub fn shape_i32(&self, index: usize, dim: usize) -> Result<i32, Error> {
        let v = self.tensors[index].shape[dim];
        self.require(v >= 0, || format!("tensor {index} has extent {v} in dim {dim}"))?;
        i32::try_from(v).map_err(|_| set_error(Error::BadArgument, format!("{}: tensor {index} dim {dim} = {v} is over i32", self.op)))
    }

    /// Stride `dim` (elements) of tensor `index` as the i32 the kernel takes (the kernel
    /// assumes strides are not negative, as cuTile Python's `l0` specialization does).
    pub fn stride_i32(&self, index: usize, dim: usize) -> Result<i32, Error> {
        let v = self.tensors[index].strides[dim];
        self.require(v >= 0, || format!("tensor {index} has negative stride {v} in dim {dim}"))?;
        i32::try_from(v).map_err(|_| set_error(Error::BadArgument, format!("{}: tensor {index} stride {dim} = {v} is over i32", self.op)))
    }

    /// A rank-1 array as its entry parameters: pointer, extent, stride.
    pub fn raw1<T: DType>(&self, i: usize) -> Result<(DevicePointer<T>, i32, i32), Error> {
        self.rank_is(i, 1)?;
        Ok((self.pointer(i)?, self.shape_i32(i, 0)?, self.stride_i32(i, 0)?))
    }

    /// A rank-2 array as its entry parameters: pointer, extents, strides.
    #[allow(clippy::type_complexity)]
    pub fn raw2<T: DType>(&self, i: usize) -> Result<(DevicePointer<T>, i32, i32, i32, i32), Error> {
        self.rank_is(i, 2)?;
        Ok((self.pointer(i)?, self.shape_i32(i, 0)?, self.shape_i32(i, 1)?,
            self.stride_i32(i, 0)?, self.stride_i32(i, 1)?))
    }

    /// A rank-3 array as its entry parameters.
    #[allow(clippy::type_complexity)]
    pub fn raw3<T: DType>(&self, i: usize)
        -> Result<(DevicePointer<T>, i32, i32, i32, i32, i32, i32), Error> {
        self.rank_is(i, 3)?;
        Ok((self.pointer(i)?, self.shape_i32(i, 0)?, self.shape_i32(i, 1)?, self.shape_i32(i, 2)?,
            self.stride_i32(i, 0)?, self.stride_i32(i, 1)?, self.stride_i32(i, 2)?))
    }

    fn rank_is(&self, i: usize, rank: i32) -> Result<(), Error> {
        let t = &self.tensors[i];
        self.require(t.ndim == rank, || format!("tensor {i} has rank {}, the port needs {rank}", t.ndim))
    }

    /// Extent `dim` of tensor `i` (as the C call gives it).
    pub fn dim(&self, i: usize, dim: usize) -> i64 {
        self.tensors[i].shape[dim]
    }

    /// Require a unit stride in `dim` of tensor `index` (the kernel assumes it).
    pub fn unit_stride(&self, index: usize, dim: usize) -> Result<(), Error> {
        let t = &self.tensors[index];
        self.require(t.shape[dim] <= 1 || t.strides[dim] == 1, || {
            format!("tensor {index} has stride {} in dim {dim}; the port needs 1", t.strides[dim])
        })
    }

    /// Require tensor `index` to have exactly `shape`.
    pub fn shape_is(&self, index: usize, shape: &[i64]) -> Result<(), Error> {
        let t = &self.tensors[index];
        let got = &t.shape[..t.ndim.max(0) as usize];
        self.require(got == shape, || format!("tensor {index} has shape {got:?}, the port needs {shape:?}"))
    }

    /// A constant the caller passed as the bits of an f64 (a `ct.Constant[float]`).
    pub fn const_f64(&self, index: usize) -> f64 {
        f64::from_bits(self.consts[index] as u64)
    }

    /// A constant that must be a positive power of two no larger than `max`.
    pub fn pow2(&self, index: usize, max: i64) -> Result<i64, Error> {
        let v = self.consts[index];
        self.require(v > 0 && v <= max && v & (v - 1) == 0, || format!("constant {index} = {v} must be a power of two <= {max}"))?;
        Ok(v)
    }

    /// The grid and compile options at constants `first..first + 6`.
    pub fn launch_at(&self, first: usize) -> Result<Launch, Error> {
        let c = &self.consts[first..first + 6];
        let dims: Vec<u32> = c[..3].iter().map(|&v| u32::try_from(v).unwrap_or(0)).collect();
        self.require(dims.iter().all(|&d| d >= 1), || format!("grid {:?} has an empty dimension", &c[..3]))?;
        let mut options = CompileOptions::default();
        if c[3] > 0 {
            options = options.occupancy(c[3] as i32);
        }
        if c[4] > 0 {
            options = options.num_cta_in_cga(c[4] as i32);
        }
        if c[5] > 0 {
            options = options.num_worker_warps_per_cta(c[5] as i32);
        }
        Ok(Launch { grid: (dims[0], dims[1], dims[2]), options })
    }
}
