"""The toolchain versions the workbench uses, and whether the package indexes it can reach
have newer ones (for `workbench doctor`): cuda-tile and nvidia-cuda-tileiras from PyPI's JSON
API, the cutile crate from crates.io's sparse index (what cargo itself reads).

    found = toolchain_versions()      # [Version("cutile", "0.4.0", "crates.io", "0.5.0"), ...]

The indexes are asked in parallel, each with a short timeout; an index that does not answer
(an offline machine, a proxy) is named, never waited on. WORKBENCH_PYPI_URL and
WORKBENCH_CRATES_INDEX point elsewhere (a mirror); WORKBENCH_OFFLINE=1 asks none.
"""
from __future__ import annotations

import json
import os
import re
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from importlib import metadata

from .operators import KERNELS_DIR

PYPI = "https://pypi.org/pypi"
CRATES_INDEX = "https://index.crates.io"
TIMEOUT_S = 5.0
PYTHON_PACKAGES = ("cuda-tile", "nvidia-cuda-tileiras")
CRATES = ("cutile",)


@dataclass(frozen=True)
class Version:
    name: str
    used: str | None          # None: not installed / not in the lock file
    index: str                # PyPI or crates.io
    newest: str | None        # the index's newest stable release; None: no answer
    error: str = ""           # why the index gave none

    @property
    def newer(self) -> bool:
        return bool(self.used and self.newest and _key(self.newest) > _key(self.used))

    def describe(self) -> str:
        used = self.used or "not installed"
        if self.newest is None:
            return f"{self.name} {used} ({self.index}: {self.error or 'no answer'})"
        if self.newer:
            return f"{self.name} {used} ({self.index} has {self.newest})"
        return f"{self.name} {used} (the newest on {self.index})"


def toolchain_versions() -> list[Version]:
    asks = [(name, _python_version(name), "PyPI", _pypi_newest) for name in PYTHON_PACKAGES]
    asks += [(name, _locked_version(name), "crates.io", _crate_newest) for name in CRATES]
    if os.environ.get("WORKBENCH_OFFLINE") == "1":
        return [Version(n, used, index, None, "not asked: WORKBENCH_OFFLINE=1")
                for n, used, index, _ in asks]
    with ThreadPoolExecutor(max_workers=len(asks)) as pool:
        answers = list(pool.map(lambda a: _ask(a[3], a[0]), asks))
    return [Version(n, used, index, newest, error)
            for (n, used, index, _), (newest, error) in zip(asks, answers)]


def _ask(lookup, name: str) -> tuple[str | None, str]:
    try:
        return lookup(name), ""
    except (urllib.error.URLError, OSError, ValueError, KeyError) as e:
        reason = getattr(e, "reason", None) or e
        return None, f"no answer ({str(reason).splitlines()[0][:120]})"


def _python_version(name: str) -> str | None:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return None


def _locked_version(name: str) -> str | None:
    """The crate's version in kernels_src/Cargo.lock (what every port builds against)."""
    lock = KERNELS_DIR / "Cargo.lock"
    if not lock.is_file():
        return None
    found = re.search(rf'name = "{re.escape(name)}"\nversion = "([^"]+)"', lock.read_text())
    return found[1] if found else None


def _pypi_newest(name: str) -> str:
    base = os.environ.get("WORKBENCH_PYPI_URL", PYPI).rstrip("/")
    return json.loads(_get(f"{base}/{name}/json"))["info"]["version"]


def _crate_newest(name: str) -> str:
    """The newest release that is neither yanked nor a pre-release, from the sparse index."""
    base = os.environ.get("WORKBENCH_CRATES_INDEX", CRATES_INDEX).rstrip("/")
    lines = _get(f"{base}/{_index_path(name)}").splitlines()
    stable = [v["vers"] for v in map(json.loads, filter(None, lines))
              if not v.get("yanked") and "-" not in v["vers"]]
    if not stable:
        raise ValueError(f"no stable release of {name}")
    return max(stable, key=_key)


def _index_path(name: str) -> str:
    """The sparse index's path of a crate (cargo's rule: by the length of its name)."""
    name = name.lower()
    if len(name) <= 2:
        return f"{len(name)}/{name}"
    if len(name) == 3:
        return f"3/{name[0]}/{name}"
    return f"{name[:2]}/{name[2:4]}/{name}"


def _get(url: str) -> str:
    request = urllib.request.Request(url, headers={"User-Agent": "cutile-port-workbench doctor"})
    with urllib.request.urlopen(request, timeout=TIMEOUT_S) as response:
        return response.read().decode()


def _key(version: str) -> tuple:
    return tuple(int(p) if p.isdigit() else 0 for p in re.split(r"[.+-]", version))
