//! Compile one entry of a port to Tile IR bytecode, with no GPU: the specialization a real
//! launch would compile, described by a small text request from the Python side:
//!
//! ```text
//! target sm_90                     the GPU (the Python side's one TARGET)
//! entry softmax
//! generics f32 1024
//! array x 0 4 256,1000 1000,1      name, byte offset from an aligned base, element bytes, shape, strides
//! scalar eps f32 1e-5
//! scalar n i32 4096                integer scalars become divisibility hints
//! pointer x 0                      a raw-pointer parameter: byte offset from an aligned base
//! options occupancy=2 num_worker_warps=8 num_ctas=1   the launch's compile options
//! ```

use std::ffi::{CStr, c_char};

use cutile::compile_api::KernelCompiler;
use cutile::tile_kernel::CompileOptions;
use cutile::cutile_compiler::ast::Module;
use cutile::cutile_compiler::specialization::{DivHint, SpecializationBits, compute_spec};
use cutile_ir::bytecode::BytecodeVersion;

use crate::launch::{Error, guard, set_error};

/// A 16-byte aligned address standing in for a device allocation.
const ALIGNED_BASE: u64 = 0x7f00_0000_0000;
const STACK_BYTES: usize = 8 << 20;

struct Array {
    name: String,
    byte_offset: u64,
    elt_bytes: i32,
    shape: Vec<i32>,
    strides: Vec<i32>,
}

#[derive(Default)]
struct Request {
    target: String,
    entry: String,
    generics: Vec<String>,
    arrays: Vec<Array>,
    int_scalars: Vec<(String, i32)>,
    pointers: Vec<(String, u64)>,
    options: CompileOptions,
}

fn numbers(text: &str) -> Result<Vec<i32>, String> {
    text.split(',').filter(|s| !s.is_empty()).map(|s| s.parse().map_err(|_| format!("bad number {s:?}"))).collect()
}

fn parse(request: &str) -> Result<Request, String> {
    let mut r = Request::default();
    for (i, line) in request.lines().enumerate() {
        let words: Vec<&str> = line.split_whitespace().collect();
        let bad = || format!("request line {}: {line:?}", i + 1);
        match words.as_slice() {
            [] => {}
            ["target", gpu] => r.target = gpu.to_string(),
            ["entry", name] => r.entry = name.to_string(),
            ["generics", rest @ ..] => r.generics = rest.iter().map(|s| s.to_string()).collect(),
            ["array", name, offset, elt, shape, strides] => r.arrays.push(Array {
                name: name.to_string(),
                byte_offset: offset.parse().map_err(|_| bad())?,
                elt_bytes: elt.parse().map_err(|_| bad())?,
                shape: numbers(shape)?,
                strides: numbers(strides)?,
            }),
            ["scalar", name, dtype, value] if dtype.starts_with('i') => {
                r.int_scalars.push((name.to_string(), value.parse().map_err(|_| bad())?))
            }
            ["scalar", ..] => {}
            ["pointer", name, offset] => {
                r.pointers.push((name.to_string(), offset.parse().map_err(|_| bad())?))
            }
            ["options", rest @ ..] => r.options = options(rest).map_err(|e| format!("{}: {e}", bad()))?,
            _ => return Err(bad()),
        }
    }
    if r.entry.is_empty() || r.target.is_empty() {
        return Err("request needs an `entry` and a `target` line".into());
    }
    Ok(r)
}

fn options(words: &[&str]) -> Result<CompileOptions, String> {
    let mut options = CompileOptions::default();
    for word in words {
        let (key, value) = word.split_once('=').ok_or_else(|| format!("{word:?} is not KEY=VALUE"))?;
        let value: i32 = value.parse().map_err(|_| format!("{word:?}: not an integer"))?;
        options = match key {
            "occupancy" => options.occupancy(value),
            "num_ctas" => options.num_cta_in_cga(value),
            "num_worker_warps" => options.num_worker_warps_per_cta(value),
            _ => return Err(format!("unknown option {key:?}")),
        };
    }
    Ok(options)
}

fn compile(module_ast: fn() -> Module, module_name: &str, r: &Request) -> Result<Vec<u8>, String> {
    let hints: Vec<(&str, Vec<i32>)> = r
        .arrays
        .iter()
        .map(|a| (a.name.as_str(), a.strides.iter().map(|&s| if s == 1 { 1 } else { -1 }).collect()))
        .collect();
    let hint_refs: Vec<(&str, &[i32])> = hints.iter().map(|(n, v)| (*n, v.as_slice())).collect();
    let specs: Vec<(&str, SpecializationBits)> = r
        .arrays
        .iter()
        .map(|a| (a.name.as_str(), compute_spec(ALIGNED_BASE + a.byte_offset, &a.shape, &a.strides, a.elt_bytes)))
        .collect();
    let mut scalars: Vec<(&str, DivHint)> =
        r.int_scalars.iter().map(|(n, v)| (n.as_str(), DivHint::from_value(*v))).collect();
    scalars.extend(r.pointers.iter().map(|(n, offset)| (n.as_str(), DivHint::from_ptr(ALIGNED_BASE + offset))));
    KernelCompiler::new(module_ast, module_name, &r.entry)
        .generics(r.generics.clone())
        .strides(&hint_refs)
        .spec_args(&specs)
        .scalar_hints(&scalars)
        .target(&r.target)
        .options(r.options.clone())
        // 13.3 is what both front ends write; pinning it also keeps the compiler from
        // asking tileiras which versions it accepts.
        .bytecode_version(BytecodeVersion::V13_3)
        .compile()
        .map_err(|e| format!("{e:?}"))?
        .bytecode()
        .map_err(|e| format!("{e:?}"))
}

/// Body of every port's `wb_<op>_emit`: bytecode for the request, in a buffer the caller
/// frees with `wb_free`.
///
/// # Safety
/// `request` is a NUL-terminated string; `out`/`out_len` are writable.
pub unsafe fn emit_entry(
    module_ast: fn() -> Module,
    module_name: &'static str,
    request: *const c_char,
    out: *mut *mut u8,
    out_len: *mut usize,
) -> i32 {
    guard(|| {
        let text = unsafe { CStr::from_ptr(request) }.to_string_lossy().into_owned();
        let request = parse(&text).map_err(|e| set_error(Error::BadArgument, e))?;
        // The compiler recurses deeply: give it the stack upstream's tests use.
        let result = std::thread::Builder::new()
            .stack_size(STACK_BYTES)
            .spawn(move || compile(module_ast, module_name, &request))
            .map_err(|e| set_error(Error::Compile, e.to_string()))?
            .join()
            .map_err(|_| set_error(Error::Panic, "the Tile IR compiler panicked"))?;
        let mut bytes = result.map_err(|e| set_error(Error::Compile, e))?;
        bytes.shrink_to_fit();
        let mut bytes = std::mem::ManuallyDrop::new(bytes.into_boxed_slice().into_vec());
        unsafe {
            *out_len = bytes.len();
            *out = bytes.as_mut_ptr();
        }
        Ok(())
    })
}
