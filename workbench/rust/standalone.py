"""A port that builds outside the cargo workspace (a draft with --out, a copy of a port, a
materialised fixture): its manifest and lock file (session.copy_port copies a port so)."""
from __future__ import annotations

import shutil
import tomllib
from pathlib import Path

from ..operators import KERNELS_DIR
from .cargo import folder_tag

WORKSPACE_FIELDS = ("edition.workspace = true", "version.workspace = true",
                    "publish.workspace = true")


def standalone_manifest(text: str, folder: Path) -> str:
    """A port's Cargo.toml made to build outside kernels_src/ in `folder`: its own workspace,
    the pinned versions spelled out, the shared FFI crate by absolute path. The shared target
    folder and a copy of Cargo.lock keep the cutile crates from being rebuilt. The package
    gets a name of its own: a cdylib's files in the target folder carry no hash, so a copy
    named like the catalog port would overwrite the catalog port's build there."""
    workspace = tomllib.loads((KERNELS_DIR / "Cargo.toml").read_text())["workspace"]
    deps = workspace["dependencies"]
    out, section = [], ""
    for line in text.splitlines():
        name, inherited, rest = line.partition(".workspace = true")
        if line.startswith("["):
            section = line.strip()
        if section == "[package]" and line.startswith("name = "):
            package = tomllib.loads(line)["name"]
            out.append(f'name = "{package}_{folder_tag(folder)}"')
        elif rest == "" and inherited and name.strip() in deps:
            value = deps[name.strip()]
            spec = (f'{{ path = "{(KERNELS_DIR / value["path"]).resolve()}" }}'
                    if isinstance(value, dict) else f'"{value}"')
            out.append(f"{name.strip()} = {spec}")
        elif line.strip() in WORKSPACE_FIELDS:
            key = line.strip().split(".")[0]
            value = workspace["package"][key]
            out.append(f"{key} = {str(value).lower() if isinstance(value, bool) else repr(value).replace(chr(39), chr(34))}")
        else:
            out.append(line)
    return "\n".join(out) + "\n\n[workspace]\n"


def make_standalone(port: Path) -> None:
    """Turn the port folder's workspace Cargo.toml into a standalone one, with a copy of the
    workspace's Cargo.lock (cargo then keeps every pin and adds only the port itself)."""
    manifest = port / "Cargo.toml"
    manifest.write_text(standalone_manifest(manifest.read_text(), port))
    lock = KERNELS_DIR / "Cargo.lock"
    if lock.exists():
        shutil.copy(lock, port / "Cargo.lock")
