//! The _rms_norm_kernel_static_persistent port and its C ABI: `wb__rms_norm_kernel_static_persistent` launches, `wb__rms_norm_kernel_static_persistent_emit` compiles Tile IR.
//! Drafted by workbench/port/rules: the launcher checks ranks and dtypes only.

mod kernel;

#[allow(unused_imports)]
use cutile::half::{bf16, f16};
use cutile::prelude::*;
#[allow(unused_imports)]
use wb_ffi::{Call, DTYPE_BF16, DTYPE_F16, DTYPE_F32, Error, set_error};

pub use kernel::_rms_norm_kernel_static_persistent_port;

wb_ffi::port! {
    /// _rms_norm_kernel_static_persistent(X, Y, W, Rstd, TILE_SIZE_M, TILE_SIZE_N, EPS, OFFSET): tensors [X, Y, W, Rstd], scalars [], constants [TILE_SIZE_M, TILE_SIZE_N, EPS, OFFSET].
    wb__rms_norm_kernel_static_persistent, wb__rms_norm_kernel_static_persistent_emit, wb__rms_norm_kernel_static_persistent_build_id, _rms_norm_kernel_static_persistent_port;
    op "_rms_norm_kernel_static_persistent", tensors 4, scalars 0, consts 4;
    |call| {
        call.rank(0, 2)?;
        call.rank(1, 2)?;
        call.rank(2, 1)?;
        call.rank(3, 1)?;
        let (tile_size_m, tile_size_n, eps, offset) = (call.consts[0] as usize, call.consts[1] as usize, call.consts[2] as usize, call.consts[3] as usize);
        call.same_dtype(1, 0)?;
        call.same_dtype(2, 0)?;
        call.require_dtype(3, wb_ffi::DTYPE_F32)?;
        match (call.dtype_of(0),) {
            (wb_ffi::DTYPE_BF16,) => launch::<bf16>(&call, tile_size_m, tile_size_n, eps, offset),
            (wb_ffi::DTYPE_F16,) => launch::<f16>(&call, tile_size_m, tile_size_n, eps, offset),
            other => call.bad_dtypes(&[other.0]),
        }
    }
}

/// One entry per specialization of the kernel's constant branches (port.toml [entries]).
fn launch<E: DType>(call: &Call, tile_size_m: usize, tile_size_n: usize, eps: usize, offset: usize) -> Result<(), Error> {
    match (call.consts[0], call.consts[2], call.consts[3],) {

        _ => Err(set_error(Error::BadArgument, format!("_rms_norm_kernel_static_persistent: TILE_SIZE_M={}, EPS={}, OFFSET={} has no entry in the port", call.consts[0], call.consts[2], call.consts[3]))),
    }
}

fn launch__rms_norm_kernel_static_persistent_tile_size_m_4_eps_1em06_offset_0_0<E: DType>(call: &Call, tile_size_m: usize, tile_size_n: usize, eps: usize, offset: usize) -> Result<(), Error> {
    let X = call.input::<E>(0)?;
    let Y = call.output::<E>(1)?;
    let W = call.input::<E>(2)?;
    let Rstd = call.output::<f32>(3)?;
    let generics = vec![E::DTYPE.as_str().to_string(), tile_size_m.to_string(), tile_size_n.to_string()];
    // Y partitioned by its stored tile: the grid is its tile count (check it against kernel.py's grid())
    unsafe {
        _rms_norm_kernel_static_persistent_port::_rms_norm_kernel_static_persistent_tile_size_m_4_eps_1em06_offset_0_0(X, Y.partition([4, tile_size_n]), W, Rstd.partition([4]))
            .generics(generics)
            .async_on(&call.stream)
    }
    .map(|_| ())
    .map_err(|e| call.launch_error(e))
}

fn launch__rms_norm_kernel_static_persistent_tile_size_m_16_eps_1em05_offset_0_0<E: DType>(call: &Call, tile_size_m: usize, tile_size_n: usize, eps: usize, offset: usize) -> Result<(), Error> {
    let X = call.input::<E>(0)?;
    let Y = call.output::<E>(1)?;
    let W = call.input::<E>(2)?;
    let Rstd = call.output::<f32>(3)?;
    let generics = vec![E::DTYPE.as_str().to_string(), tile_size_m.to_string(), tile_size_n.to_string()];
    // Y partitioned by its stored tile: the grid is its tile count (check it against kernel.py's grid())
    unsafe {
        _rms_norm_kernel_static_persistent_port::_rms_norm_kernel_static_persistent_tile_size_m_16_eps_1em05_offset_0_0(X, Y.partition([16, tile_size_n]), W, Rstd.partition([16]))
            .generics(generics)
            .async_on(&call.stream)
    }
    .map(|_| ())
    .map_err(|e| call.launch_error(e))
}
