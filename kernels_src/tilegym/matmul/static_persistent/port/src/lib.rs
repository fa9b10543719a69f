//! The port of tilegym.ops.cutile.matmul:_static_persistent_matmul_kernel and its C ABI:
//! `wb_tilegym_matmul_static_persistent` launches, `..._emit` compiles Tile IR,
//! `..._build_id` names the build.

mod kernel;

use cutile::half::{bf16, f16};
use cutile::prelude::*;
use cutile::tile_kernel::TileKernel;
use wb_ffi::{Call, Error, DTYPE_BF16, DTYPE_F16, DTYPE_F32};

pub use kernel::matmul_static_persistent_port;

wb_ffi::port! {
    /// _static_persistent_matmul_kernel(A, B, C, M, N, K, TILE_SIZE_M, TILE_SIZE_N,
    /// TILE_SIZE_K, TRANSPOSE_A, TRANSPOSE_B, GROUP_SIZE_M, LOAD_LATENCY): tensors [A, B, C]
    /// (A M x K or, transposed, K x M; B K x N or N x K; C M x N), scalars [M, N, K],
    /// constants [the seven], then the launch.
    wb_tilegym_matmul_static_persistent, wb_tilegym_matmul_static_persistent_emit,
    wb_tilegym_matmul_static_persistent_build_id, matmul_static_persistent_port;
    op "tilegym.matmul.static_persistent", tensors 3, scalars 3, consts 13;
    |call| {
        for t in 0..3 {
            call.rank(t, 2)?;
            call.unit_stride(t, 1)?;
        }
        let (trans_a, trans_b) = (flag(&call, 3)?, flag(&call, 4)?);
        let (m, n, k) = (extent(&call, 0)?, extent(&call, 1)?, extent(&call, 2)?);
        call.shape_is(0, &if trans_a { [k, m] } else { [m, k] })?;
        call.shape_is(1, &if trans_b { [n, k] } else { [k, n] })?;
        call.shape_is(2, &[m, n])?;
        for tile in 0..3 {
            call.pow2(tile, 512)?;
        }
        call.require(call.consts[5] >= 1, || "GROUP_SIZE_M must be at least 1".into())?;
        call.require((-1..=10).contains(&call.consts[6]), || "LOAD_LATENCY must be -1 (none) or 0..10".into())?;
        let launch = call.launch_at(7)?;
        // the persistent loop strides over blocks of grid x; any count covers every tile once
        call.require(launch.grid.1 == 1 && launch.grid.2 == 1, || format!("grid {:?} must be 1-D", launch.grid))?;
        match call.dtype()? {
            DTYPE_F16 => launch!(call, launch, f16, matmul_static_persistent_f16, m, n, k),
            DTYPE_BF16 => launch!(call, launch, bf16, matmul_static_persistent_bf16, m, n, k),
            DTYPE_F32 => launch!(call, launch, f32, matmul_static_persistent_f32, m, n, k),
            other => call.bad_dtype(other),
        }
    }
}

/// A boolean constant (TRANSPOSE_A / TRANSPOSE_B): 0 or 1.
fn flag(call: &Call, index: usize) -> Result<bool, Error> {
    let v = call.consts[index];
    call.require(v == 0 || v == 1, || format!("constant {index} = {v} must be a boolean"))?;
    Ok(v == 1)
}

/// Scalar `index` (M, N or K): a whole number the i32 parameter holds.
fn extent(call: &Call, index: usize) -> Result<i64, Error> {
    let v = call.scalars[index];
    call.require(v >= 0.0 && v.fract() == 0.0 && v <= i32::MAX as f64,
                 || format!("scalar {index} = {v} must be a non-negative i32"))?;
    Ok(v as i64)
}

/// Launch the entry for one dtype with the call's constants, grid and compile options.
macro_rules! launch {
    ($call:ident, $launch:ident, $t:ty, $entry:ident, $m:expr, $n:expr, $k:expr) => {{
        let (a, b, c) = ($call.input::<$t>(0)?, $call.input::<$t>(1)?, $call.input::<$t>(2)?);
        let c7 = &$call.consts[..7];
        let generics: Vec<String> = vec![
            <$t as DType>::DTYPE.as_str().to_string(), c7[0].to_string(), c7[1].to_string(),
            c7[2].to_string(), (c7[3] == 1).to_string(), (c7[4] == 1).to_string(),
            c7[5].to_string(), c7[6].to_string()];
        unsafe { matmul_static_persistent_port::$entry(a, b, c, $m as i32, $n as i32, $k as i32) }
            .generics(generics)
            .grid($launch.grid)
            .compile_options($launch.options)
            .async_on(&$call.stream)
            .map(|_| ())
            .map_err(|e| $call.launch_error(e))
    }};
}
use launch;
