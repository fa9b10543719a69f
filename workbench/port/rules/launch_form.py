"""Which outputs a drafted port passes as partitions, and whether it takes its launch (grid
and hints) from the caller.

cutile launches an entry on the grid of its partitioned (`&mut Tensor`) outputs: each one
is partitioned by its tile on the host, and every partition's tile count must equal the
launch grid (tile_kernel.rs validate_grid_bounds; with no partition at all and no grid
given it fails "Launch grid required."). That grid is the kernel's own only where an
output is stored at the program's own tile: at `(bid(0), bid(1), ..)` (a 0 for an axis
the launch leaves at one block), outside any loop. An output stored anywhere else (at a
loop variable, a computed index, a gather/scatter) has a tile count that says nothing of
the grid, so it is passed as a plain tensor (written through its full view) and the port
takes the grid from its caller (port.toml `launch = true`: the C call carries grid x, y, z
and three hints after the constants, wb_ffi raw.rs `launch_at`), as it does whenever some
output is not stored at the program's own tile: the caller's grid is then checked against
the partitions that remain.
"""
from __future__ import annotations

from ...rust.ffi import LAUNCH_SLOTS  # noqa: F401  (grid x, y, z and three hints; render_lib)
from .values import is_zero


def note_store(t, arr, items: list) -> None:
    """Record one `ct.store` to output `arr` at index `items`: whether it is at the
    program's own tile, outside loops (ops_memory.store calls it for every store)."""
    own = not t.state.loop_stack and len(items) == arr.rank and \
        all(_own_axis(v, axis) for axis, v in enumerate(items))
    t.state.store_sites.setdefault(arr.name, []).append(own)


def _own_axis(value, axis: int) -> bool:
    return value.origin == f"bid{axis}" or is_zero(value)


def own_tile_only(t, name: str) -> bool:
    """Every store of `name` is at the program's own tile, outside loops."""
    sites = t.state.store_sites.get(name, [])
    return bool(sites) and all(sites)


def partitioned(t, name: str) -> bool:
    """Whether the entry takes output `name` as a partition of its stored tile (`&mut
    Tensor<E, {[tile]}>`, launched as `name.partition([..])`). A `static` store (the
    array's own `.store(tile)`) needs its partition whatever comes after it."""
    out = t.state.outputs.get(name)
    if out is None or out["form"] == "shared":
        return False
    return out["form"] == "static" or own_tile_only(t, name)


def takes_launch(translators) -> bool:
    """Whether the port takes its grid and hints from the caller: some entry has an output
    (or a scattered array) not stored only at the program's own tile, or no partition to
    take a grid from."""
    for t in translators:
        written = set(t.state.outputs) | set(t.state.scattered)
        if not any(partitioned(t, n) for n in t.state.outputs):
            return True
        if any(not own_tile_only(t, n) for n in written):
            return True
    return False


def partition_names(spec, translators) -> list[str] | None:
    """The arrays every entry takes as partitions, in parameter order (None: the entries
    differ)."""
    sets = {tuple(p.name for p in spec.arrays if partitioned(t, p.name)) for t in translators}
    return list(sets.pop()) if len(sets) == 1 else None
