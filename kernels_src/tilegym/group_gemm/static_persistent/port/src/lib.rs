//! The port of tilegym.ops.cutile.group_gemm:_group_gemm_kernel and its C ABI:
//! `wb_tilegym_group_gemm_static_persistent` launches, `..._emit` compiles Tile IR,
//! `..._build_id` names the build.

mod kernel;

use cutile::half::{bf16, f16};
use cutile::prelude::*;
use cutile::tile_kernel::TileKernel;
use wb_ffi::{Call, Error, Launch, DTYPE_BF16, DTYPE_F16};

pub use kernel::group_gemm_port;

wb_ffi::port! {
    /// _group_gemm_kernel(As, Bs, Cs, TILE_M, TILE_N, TILE_K, NUM_SM, TRANSPOSE_B): no plain
    /// tensors, three lists (every item of As, then of Bs, then of Cs; their lengths the three
    /// scalars), constants [the five], then the launch (grid, hints). Every item is checked
    /// against port.toml before this body runs; wb_ffi builds each list's device table.
    wb_tilegym_group_gemm_static_persistent, wb_tilegym_group_gemm_static_persistent_emit,
    wb_tilegym_group_gemm_static_persistent_build_id, group_gemm_port;
    op "tilegym.group_gemm.static_persistent", tensors 0, lists 3, scalars 0, consts 11;
    |call| {
        let groups = call.lists[0].1;
        call.require(call.lists.iter().all(|l| l.1 == groups),
                     || format!("As, Bs and Cs have {:?} items; the port takes one of each per group",
                                call.lists.iter().map(|l| l.1).collect::<Vec<_>>()))?;
        for tile in 0..3 {
            call.pow2(tile, 512)?;
        }
        call.require(call.consts[3] >= 1, || "NUM_SM must be at least 1".into())?;
        let transpose_b = flag(&call, 4)?;
        for g in 0..groups {
            group_shapes(&call, g, transpose_b)?;
        }
        let launch = call.launch_at(5)?;
        // the tile loop strides by NUM_SM over blocks of grid x: every tile is visited once
        // only when the grid is NUM_SM blocks, 1-D (the launcher's grid)
        call.require(launch.grid == (call.consts[3] as u32, 1, 1),
                     || format!("grid {:?} must be (NUM_SM, 1, 1) = ({}, 1, 1)", launch.grid, call.consts[3]))?;
        let dtype = call.dtype()?;
        match dtype {
            DTYPE_F16 => run::<f16>(&call, launch),
            DTYPE_BF16 => run::<bf16>(&call, launch),
            other => call.bad_dtype(other),
        }
    }
}

/// A boolean constant (TRANSPOSE_B): 0 or 1.
fn flag(call: &Call, index: usize) -> Result<bool, Error> {
    let v = call.consts[index];
    call.require(v == 0 || v == 1, || format!("constant {index} = {v} must be a boolean"))?;
    Ok(v == 1)
}

/// Group g's matrices agree: A [M, K], B [K, N] (or [N, K] with TRANSPOSE_B), C [M, N].
fn group_shapes(call: &Call, g: usize, transpose_b: bool) -> Result<(), Error> {
    let item = |list: usize| &call.tensors[call.lists[list].0 + g];
    let (a, b, c) = (item(0), item(1), item(2));
    let (m, k) = (a.shape[0], a.shape[1]);
    let (bk, n) = if transpose_b { (b.shape[1], b.shape[0]) } else { (b.shape[0], b.shape[1]) };
    call.require(bk == k && c.shape[0] == m && c.shape[1] == n, || format!(
        "group {g}: As[{g}] {:?}, Bs[{g}] {:?}, Cs[{g}] {:?} do not make a GEMM (TRANSPOSE_B {transpose_b})",
        &a.shape[..2], &b.shape[..2], &c.shape[..2]))
}

fn run<T: DType>(call: &Call, launch: Launch) -> Result<(), Error> {
    let (a, b, c) = (call.list_table(0)?, call.list_table(1)?, call.list_table(2)?);
    let k = &call.consts[..5];
    let mut generics = vec![T::DTYPE.as_str().to_string(), k[0].to_string(), k[1].to_string(),
                            k[2].to_string(), k[3].to_string(), (k[4] == 1).to_string()];
    // each list's divisibility generics (base, shape0, shape1, stride0), from every item
    for list in 0..3 {
        let facts = call.list_facts(list, std::mem::size_of::<T>() as i64);
        generics.extend(facts[..4].iter().map(|f| f.to_string()));
    }
    let launched = unsafe {
        group_gemm_port::group_gemm(a.pointer(), a.len, b.pointer(), b.len, c.pointer(), c.len)
            .generics(generics)
            .grid(launch.grid)
            .compile_options(launch.options)
            .async_on(&call.stream)
    };
    // the tables are freed (in stream order) only after the launch is enqueued
    drop((a, b, c));
    launched.map(|_| ()).map_err(|e| call.launch_error(e))
}
