"""Write kernels_src/bundle/{Cargo.toml,src/lib.rs} and the workspace members from the
catalog: every port (own, TileGym entries, the planted fixture) in the one library the GPU
host loads. Run after adding a port; tests/test_tilegym_catalog.py checks it is current.

    .venv/bin/python tools/sync_bundle.py [--check]
"""
from __future__ import annotations

import os
import re
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
os.environ.setdefault("WORKBENCH_EXTRA_CATALOG", str(ROOT / "kernels_src/fixtures/catalog.toml"))
sys.path.insert(0, str(ROOT))

from workbench.catalog import KERNELS_DIR, all_operators  # noqa: E402
from workbench.rust.cargo import crate_name, has_port  # noqa: E402
from workbench.rust.library import symbol_stem  # noqa: E402

HEADER = """[package]
name = "wb_bundle"
description = "Every port in one shared library, for machines that take one small file (the GPU host)"
edition.workspace = true
version.workspace = true
publish.workspace = true

[lib]
crate-type = ["cdylib"]

[dependencies]
wb_ffi.workspace = true
"""


def ports() -> list:
    return sorted((op for op in all_operators().values() if has_port(op)), key=lambda o: o.name)


def cargo_toml(ops) -> str:
    lines = [HEADER]
    for op in ops:
        path = op.port_folder.relative_to(KERNELS_DIR)
        lines.append(f'{crate_name(op)} = {{ path = "../{path}" }}')
    return "\n".join(lines) + "\n"


def lib_rs(ops) -> str:
    lines = ["//! All ports (and the planted faulty fixture) in one cdylib, written by",
             "//! tools/sync_bundle.py. Naming each symbol keeps it in the link (a cdylib exports",
             "//! only what it reaches from its own crate).", ""]
    for op in ops:
        stem = symbol_stem(op.name)
        lines.append(f"pub use {crate_name(op)}::{{wb_{stem}, wb_{stem}_build_id, wb_{stem}_emit}};")
    lines.append("pub use wb_ffi::{wb_free, wb_last_error};")
    return "\n".join(lines) + "\n"


def workspace(ops) -> str:
    text = (KERNELS_DIR / "Cargo.toml").read_text()
    members = ["wb_ffi"] + [str(op.port_folder.relative_to(KERNELS_DIR)) for op in ops] + ["bundle"]
    body = ",\n           ".join(f'"{m}"' for m in members)
    return re.sub(r"members = \[[^\]]*\]", f"members = [{body}]", text, count=1)


def main() -> int:
    ops = ports()
    files = {KERNELS_DIR / "bundle" / "Cargo.toml": cargo_toml(ops),
             KERNELS_DIR / "bundle" / "src" / "lib.rs": lib_rs(ops),
             KERNELS_DIR / "Cargo.toml": workspace(ops)}
    stale = [p for p, text in files.items() if p.read_text() != text]
    if "--check" in sys.argv:
        for path in stale:
            print(f"{path.relative_to(ROOT)} is not current: run tools/sync_bundle.py")
        return 1 if stale else 0
    for path in stale:
        path.write_text(files[path])
        print(f"wrote {path.relative_to(ROOT)}")
    tomllib.loads(files[KERNELS_DIR / "Cargo.toml"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
