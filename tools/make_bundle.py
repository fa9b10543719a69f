"""Every port in one stripped, xz-compressed library for the GPU machine, which has no cargo
and takes 64 MiB per call (the toolchain is 57 of them).

    .venv/bin/python tools/make_bundle.py        (tools/make_bundle.sh runs this)

The bundle is a crate of its own, written here from the catalogs: every catalog port with
its sources, and every fixture (kernels_src/fixtures) materialised from its patch first.
Beside the library goes what each port in it was built from (code hashes): without cargo,
a port is loaded from the bundle only while its sources still match (workbench/rust/cargo.py).
"""
from __future__ import annotations

import json
import shutil
import sys
import tomllib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from workbench.catalog import KERNELS_DIR, Operator, all_operators, load_catalog  # noqa: E402
from workbench.fixtures import FIXTURE_CATALOG, fixture_operator  # noqa: E402
from workbench.rust.cargo import BUILD_DIR, BUILD_TIMEOUT_S, code_hash, crate_name, has_port  # noqa: E402
from workbench.rust.library import symbol_stem  # noqa: E402
from workbench.rust.toolchain import TARGET_DIR, cargo_env, cargo_path  # noqa: E402
from workbench.tools import run_tool  # noqa: E402

OUT = BUILD_DIR / "bundle"
CRATE = OUT / "crate"
# A target folder of its own: a port is an rlib + cdylib crate, whose outputs cargo names
# without a hash, so the workspace's builds and the bundle's would overwrite each other's
# rlibs in one folder (each linked against its own wb_ffi: "duplicate symbol: wb_free").
BUNDLE_TARGET = TARGET_DIR / "bundle"


# The GPU machine's calls are 10 minutes each and its processes start cold: cutile's on-disk
# cubin cache (off unless enabled, and with no environment switch of its own) lets a later
# process load what an earlier one compiled. workbench/rust/library.py calls it when
# WORKBENCH_JIT_CACHE names a folder.
JIT_CACHE_RS = """
/// Keep compiled kernels in `dir` across processes (cutile's FileSystemJitStore). 0 = on.
///
/// # Safety
/// `dir` must be a NUL-terminated path.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn wb_jit_cache_enable(dir: *const std::ffi::c_char) -> i32 {
    let dir = unsafe { std::ffi::CStr::from_ptr(dir) }.to_string_lossy().into_owned();
    match cutile::jit_cache::FileSystemJitStore::new(dir) {
        Ok(store) => { cutile::jit_cache::enable(std::sync::Arc::new(store)); 0 }
        Err(_) => 1,
    }
}
"""


def bundled_operators() -> list[Operator]:
    """Every port: the catalog's own and TileGym's entries, then the fixtures (each
    materialised from its patch first)."""
    fixtures = load_catalog(FIXTURE_CATALOG)
    ops = [op for name, op in sorted(all_operators().items())
           if name not in fixtures and has_port(op)]
    return ops + [fixture_operator(name) for name in fixtures]


def write_crate(ops: list[Operator], crate: Path = CRATE) -> Path:
    """The bundle's Cargo.toml and lib.rs. Naming each port's symbols keeps them in the link:
    a cdylib exports only what it reaches from its own crate."""
    workspace = tomllib.loads((KERNELS_DIR / "Cargo.toml").read_text())["workspace"]
    deps = [f'{crate_name(op)} = {{ path = "{op.port_folder.resolve()}" }}' for op in ops]
    deps.append(f'wb_ffi = {{ path = "{(KERNELS_DIR / "wb_ffi").resolve()}" }}')
    deps.append(f'cutile = "{workspace["dependencies"]["cutile"]}"')
    uses = [f"pub use {crate_name(op).replace('-', '_')}::{{wb_{s}, wb_{s}_build_id, wb_{s}_emit}};"
            for op, s in ((op, symbol_stem(op.name)) for op in ops)]
    if crate.exists():
        shutil.rmtree(crate)
    (crate / "src").mkdir(parents=True)
    (crate / "Cargo.toml").write_text(
        '[package]\nname = "wb_bundle"\nversion = "0.1.0"\n'
        f'edition = "{workspace["package"]["edition"]}"\npublish = false\n\n'
        '[lib]\ncrate-type = ["cdylib"]\n\n[dependencies]\n' + "\n".join(deps) + "\n\n[workspace]\n")
    (crate / "src" / "lib.rs").write_text(
        "//! Every port in one cdylib (written by tools/make_bundle.py).\n"
        + "\n".join(uses) + "\npub use wb_ffi::{wb_free, wb_last_error};\n" + JIT_CACHE_RS)
    shutil.copy(KERNELS_DIR / "Cargo.lock", crate / "Cargo.lock")   # keeps every pin
    return crate / "Cargo.toml"


def main() -> None:
    ops = bundled_operators()
    manifest = write_crate(ops)
    print(f"building the bundle of {len(ops)} ports: {', '.join(op.name for op in ops)}",
          flush=True)
    env = {**cargo_env(), "CARGO_TARGET_DIR": str(BUNDLE_TARGET)}
    run_tool([cargo_path(), "build", "--release", "--manifest-path", str(manifest)],
             cwd=manifest.parent, env=env, text=True, timeout=BUILD_TIMEOUT_S)
    library = OUT / "libwb_bundle.so"
    run_tool(["strip", "-o", str(library), str(BUNDLE_TARGET / "release" / "libwb_bundle.so")])
    run_tool(["xz", "-9", "-T2", "-f", "-k", str(library)], timeout=600)
    codes = {op.name: code_hash(op) for op in ops}
    (OUT / "libwb_bundle.codes.json").write_text(json.dumps(codes, indent=1) + "\n")
    for path in (library, library.with_suffix(".so.xz"), OUT / "libwb_bundle.codes.json"):
        print(f"{path.stat().st_size:>10}  {path}")


if __name__ == "__main__":
    main()
