"""Which arrays a port's entry takes partitioned, and with what tile: a `&mut Tensor<E, { [1,
TILE_COLS] }>` parameter of kernel.rs is partitioned by the host (`out.partition([1,
tile_cols])`), and cutile passes the partition's tile and strides after the array's own
parameters. Read from the entry's signature in kernel.rs, its generics bound to a case's values
(port.toml's `generics`), for anything that lays out the entry's arguments without the host
code: the CPU interpreter's Rust side.
"""
from __future__ import annotations

import re

from ..operators import Case, Operator
from ..errors import WorkbenchError
from ..sources.kernel import load_operator_kernel
from .manifest import load_manifest

_GENERIC = re.compile(r"(?:const\s+)?(\w+)\s*:")
_PARTITIONED = re.compile(r"(\w+)\s*:\s*&\s*mut\s+Tensor\s*<\s*\w+\s*,\s*\{\s*\[([^\]]*)\]\s*\}\s*>")


def _signature(source: str, entry: str) -> tuple[list[str], str]:
    """(generic names in order, the parameter list's text) of `fn entry<...>(...)`."""
    found = re.search(rf"\bfn\s+{re.escape(entry)}\s*(<)?", source)
    if found is None:
        raise WorkbenchError(f"kernel.rs has no fn {entry}", "check port.toml's `entry`")
    at, generics = found.end(), []
    if found.group(1):
        depth, start = 1, at
        while depth:
            depth += {"<": 1, ">": -1}.get(source[at], 0)
            at += 1
        generics = [m[1] for part in source[start:at - 1].split(",")
                    if (m := _GENERIC.match(part.strip()))]
    open_at = source.index("(", at)
    depth, end = 0, open_at
    for end in range(open_at, len(source)):
        depth += {"(": 1, ")": -1}.get(source[end], 0)
        if depth == 0:
            break
    return generics, source[open_at + 1:end]


def partition_tiles(op: Operator, case: Case) -> dict[str, tuple[int, ...]]:
    """Each partitioned parameter of the case's entry -> its tile shape, for `case`."""
    manifest = load_manifest(op)
    kernel = load_operator_kernel(op)
    entry = manifest.entry_for(case, kernel.params)
    source = "\n".join((op.port_folder / "src" / name).read_text()
                       for name in ("kernel.rs", "lib.rs")
                       if (op.port_folder / "src" / name).exists())
    generics, params = _signature(source, entry)
    values = dict(zip(generics, manifest.generic_values(kernel.params, case)))
    tiles = {}
    for name, dims in _PARTITIONED.findall(params):
        try:
            tiles[name] = tuple(int(values.get(d.strip(), d.strip())) for d in dims.split(","))
        except ValueError:
            raise WorkbenchError(f"{op.port_folder}/src/kernel.rs: the tile of {name} "
                                 f"({dims}) is not made of numbers and constant generics",
                                 "give the partition's tile as const generics") from None
    return tiles
