"""What `workbench tune` may change in a port's launch, and the candidates it tries.

A knob is a tile-size constant of the case (a ct.Constant whose name says TILE or BLOCK:
the port re-partitions, so cutile infers the new grid) or a compile hint the port takes
(occupancy, num_ctas, num_worker_warps; port.toml `hints = true`). Defaults: each tile
constant at half, its own value and double; occupancy 1, 2, 4, 8 and num_ctas 2 next to the
kernel's own (0). A port with other tile programs (port.toml `programs`) has the knob
`program`: 0 its entry, n the n-th of them. `--knob NAME=V1,V2` replaces a knob's values, or
adds a hint knob.

The candidates are every combination, less the untuned launch itself; past `limit` a fixed
sample of them (seeded: the same sweep picks the same sample).
"""
from __future__ import annotations

import itertools
import random
from dataclasses import dataclass, field

from ..errors import WorkbenchError
from ..operators import Case
from ..rust.manifest import PortManifest

HINTS = ("occupancy", "num_ctas", "num_worker_warps", "program")
DEFAULT_HINTS = {"occupancy": (0, 1, 2, 4, 8), "num_ctas": (0, 2)}     # 0: the kernel's own
TILE_WORDS = ("TILE", "BLOCK")
MIN_TILE = 8
MAX_CANDIDATES = 48


@dataclass(frozen=True)
class Knob:
    name: str
    kind: str                       # const or hint
    values: tuple[int, ...]


@dataclass(frozen=True)
class Candidate:
    consts: dict = field(default_factory=dict)    # the tile constants it sets
    hints: dict = field(default_factory=dict)     # the hints it sets (0s left out)

    @property
    def id(self) -> str:
        parts = [f"{k}={v}" for k, v in self.consts.items()]
        parts += [f"{k}={v}" for k, v in self.hints.items()]
        return " ".join(parts) or "as catalogued"


def takes_hints(manifest: PortManifest) -> bool:
    return manifest.hints or manifest.launch


def default_knobs(case: Case, manifest: PortManifest) -> list[Knob]:
    knobs = [Knob(name, "const", _around(value)) for name, value in case.consts.items()
             if _is_tile(name, value)]
    if takes_hints(manifest):
        knobs += [Knob(name, "hint", values) for name, values in DEFAULT_HINTS.items()]
        if manifest.programs:
            knobs.append(Knob("program", "hint", tuple(range(len(manifest.programs) + 1))))
    return knobs


def _is_tile(name: str, value) -> bool:
    return (any(w in name.upper() for w in TILE_WORDS) and isinstance(value, int)
            and not isinstance(value, bool) and value >= 2 and value & (value - 1) == 0)


def _around(value: int) -> tuple[int, ...]:
    return tuple(v for v in (value // 2, value, value * 2) if v >= MIN_TILE)


def knobs_for(case: Case, manifest: PortManifest, texts: list[str] = ()) -> list[Knob]:
    """The case's knobs with the user's `NAME=V1,V2` over the defaults."""
    knobs = {k.name: k for k in default_knobs(case, manifest)}
    for text in texts:
        knob = _parse(text, case, manifest)
        knobs[knob.name] = knob
    return list(knobs.values())


def _parse(text: str, case: Case, manifest: PortManifest) -> Knob:
    name, sep, values = text.partition("=")
    name = name.strip()
    known = sorted(case.consts) + (list(HINTS) if takes_hints(manifest) else [])
    if not sep or not values.strip():
        raise WorkbenchError(f"--knob {text!r}: not NAME=V1,V2,...",
                             "e.g. --knob TILE_COLS=2048,4096 or --knob occupancy=1,2,4")
    if name in HINTS and not takes_hints(manifest):
        raise WorkbenchError(f"--knob {name}: this port applies no compile hints (its "
                             "port.toml has no `hints = true`)",
                             "pass `.compile_options(call.options())` to the launch in lib.rs "
                             "and say `hints = true` in port.toml, or tune its constants: "
                             + (", ".join(sorted(case.consts)) or "it has none"))
    if name not in known:
        raise WorkbenchError(f"--knob {name}: no such knob for this port",
                             "its knobs: " + (", ".join(known) or "none"))
    try:
        numbers = tuple(int(v) for v in values.split(",") if v.strip())
    except ValueError:
        raise WorkbenchError(f"--knob {text!r}: the values must be whole numbers",
                             "e.g. --knob TILE_COLS=2048,4096") from None
    lowest = 0 if name in HINTS else 1
    if not numbers or min(numbers) < lowest:
        raise WorkbenchError(f"--knob {text!r}: values must be at least {lowest}",
                             "0 for a hint means the kernel's own" if name in HINTS
                             else "a tile size is a positive number")
    if name == "program" and max(numbers) > len(manifest.programs):
        raise WorkbenchError(f"--knob {text!r}: the port has {len(manifest.programs)} tile "
                             "programs besides its entry (port.toml `programs`: "
                             f"{', '.join(manifest.programs) or 'none'})",
                             "program 0 is its entry, n the n-th of `programs`")
    return Knob(name, "hint" if name in HINTS else "const", tuple(dict.fromkeys(numbers)))


def candidates(knobs: list[Knob], case: Case, limit: int = MAX_CANDIDATES,
               seed: int = 0) -> tuple[list[Candidate], int]:
    """(the candidates to try, how many the knobs make): every combination but the untuned
    launch, or past `limit` each knob's values alone (one change from the untuned launch:
    a second tile program is always tried by itself) and a seeded sample of the rest."""
    everything = []
    for values in itertools.product(*(k.values for k in knobs)):
        consts = {k.name: v for k, v in zip(knobs, values)
                  if k.kind == "const" and v != case.consts.get(k.name)}
        hints = {k.name: v for k, v in zip(knobs, values) if k.kind == "hint" and v}
        if consts or hints:
            everything.append(Candidate(consts, hints))
    unique = list({c.id: c for c in everything}.values())
    if len(unique) <= limit:
        return unique, len(unique)
    singles = [c for c in unique if len(c.consts) + len(c.hints) == 1][:limit]
    rest = [c for c in unique if len(c.consts) + len(c.hints) > 1]
    return singles + random.Random(seed).sample(rest, limit - len(singles)), len(unique)
