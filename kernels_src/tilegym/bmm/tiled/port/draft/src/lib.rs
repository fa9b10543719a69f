//! The _bmm_kernel port and its C ABI: `wb__bmm_kernel` launches, `wb__bmm_kernel_emit` compiles Tile IR.
//! Drafted by workbench/port/rules: the launcher checks ranks and dtypes only.

mod kernel;

#[allow(unused_imports)]
use cutile::half::{bf16, f16};
use cutile::prelude::*;
#[allow(unused_imports)]
use wb_ffi::{Call, DTYPE_BF16, DTYPE_F16, DTYPE_F32, Error, set_error};

pub use kernel::_bmm_kernel_port;

wb_ffi::port! {
    /// _bmm_kernel(A, B, C, TM, TN, TK): tensors [A, B, C], scalars [], constants [TM, TN, TK].
    wb__bmm_kernel, wb__bmm_kernel_emit, wb__bmm_kernel_build_id, _bmm_kernel_port;
    op "_bmm_kernel", tensors 3, scalars 0, consts 3;
    |call| {
        call.rank(0, 3)?;
        call.rank(1, 3)?;
        call.rank(2, 3)?;
        let (tm, tn, tk) = (call.tile(0)?, call.tile(1)?, call.tile(2)?);
        match call.dtype()? {
            DTYPE_F16 => launch::<f16>(&call, tm, tn, tk),
            DTYPE_BF16 => launch::<bf16>(&call, tm, tn, tk),
            other => call.bad_dtype(other),
        }
    }
}

fn launch<E: DType>(call: &Call, tm: usize, tn: usize, tk: usize) -> Result<(), Error> {
    let A = call.input::<E>(0)?;
    let B = call.input::<E>(1)?;
    let C = call.output::<E>(2)?;
    let generics = vec![E::DTYPE.as_str().to_string(), tm.to_string(), tn.to_string(), tk.to_string()];
    // C partitioned by its stored tile: the grid is its tile count (check it against kernel.py's grid())
    unsafe {
        _bmm_kernel_port::_bmm_kernel(A, B, C.partition([1, tm, tn]))
            .generics(generics)
            .async_on(&call.stream)
    }
    .map(|_| ())
    .map_err(|e| call.launch_error(e))
}
