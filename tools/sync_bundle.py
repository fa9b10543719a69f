"""Write the cargo workspace's members (kernels_src/Cargo.toml) from the catalogs: every port
in kernels_src/ (own, TileGym entries). Run after adding a port; tests/test_tilegym_catalog.py
checks it is current. (The GPU host's bundle is written by tools/make_bundle.py.)

    .venv/bin/python tools/sync_bundle.py [--check]
"""
from __future__ import annotations

import re
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from workbench.catalog import KERNELS_DIR, all_operators  # noqa: E402
from workbench.rust.cargo import has_port  # noqa: E402


def ports() -> list:
    """The ports that live in kernels_src/ (a fixture's is materialised under .build/ and
    builds on its own)."""
    return sorted((op for op in all_operators().values() if has_port(op)
                   and op.port_folder.resolve().is_relative_to(KERNELS_DIR.resolve())
                   and ".build" not in op.port_folder.relative_to(KERNELS_DIR).parts),
                  key=lambda o: o.name)


def workspace(ops) -> str:
    text = (KERNELS_DIR / "Cargo.toml").read_text()
    members = ["wb_ffi"] + [str(op.port_folder.relative_to(KERNELS_DIR)) for op in ops]
    body = ",\n           ".join(f'"{m}"' for m in members)
    return re.sub(r"members = \[[^\]]*\]", f"members = [{body}]", text, count=1)


def main() -> int:
    ops = ports()
    files = {KERNELS_DIR / "Cargo.toml": workspace(ops)}
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
