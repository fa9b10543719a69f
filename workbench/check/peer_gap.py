"""Why a port that matches its reference is still slower than the fastest peer kernel for the
operation (PyTorch's: cuBLAS, cuDNN's sm90 attention): the port's main loop as the SASS
shows it for the shape, with its tuned.toml entry applied (sass/schedule.py), and, where a
bench run's JSON is given (bench/tune_bench.py --json), the times measured on its GPU.

The owner of the gap: `compiler` when the loop waits for every matrix product before the
float work that follows (a tile program states products and softmax, not how they overlap:
tileiras schedules them), `undetermined` when the loop overlaps them or has no products.
What the tile program itself could change (the accurate exp) is listed as the kernel's part.
"""
from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass, field
from pathlib import Path

from ..catalog import Operator
from ..errors import WorkbenchError
from ..rust.emit import port_bytecode
from ..rust.tuned import tuned_case
from ..sass.schedule import loop_schedule
from ..sass.stages import sass_of


@dataclass
class PeerGap:
    owner: str                           # compiler, undetermined
    summary: str
    evidence: list[str] = field(default_factory=list)
    kernel_part: list[str] = field(default_factory=list)   # what the tile program could change
    ratio: float | None = None           # port time / peer time, when measured

    def to_json(self) -> dict:
        return dataclasses.asdict(self)

    def lines(self) -> list[str]:
        out = [f"  against the fastest peer: {self.owner}: {self.summary}"]
        out += [f"    {line}" for line in self.evidence]
        out += [f"    kernel's part: {line}" for line in self.kernel_part]
        return out


def peer_gap(op: Operator, case_index: int, bench_json: Path | None = None) -> PeerGap:
    """The SASS reading of the port's main loop for a case, and the measured gap if given."""
    timed = _bench_row(op, case_index, bench_json) if bench_json else None
    as_run = _as_tuned(op, case_index)
    schedule = loop_schedule(sass_of(port_bytecode(as_run, case_index)).instructions)
    measured, ratio = _measured(timed, bench_json)
    if schedule is None:
        return PeerGap("undetermined", "the port's SASS has no loop of matrix products: the "
                       "schedule reading is for HGMMA kernels (a memory-bound port is read "
                       "against the copy bandwidth instead, bench/tune_bench.py)",
                       measured, [], ratio)
    evidence = measured + schedule.lines()
    kernel_part = []
    if schedule.exp.get("FFMA.RM"):
        kernel_part.append("its exp is the accurate one (a range reduction per MUFU.EX2); "
                           "exp2 of a pre-scaled value with approximate rounding would shorten "
                           "the float work between the products, in the reference's kernel too")
    if schedule.serialized:
        summary = (schedule.reading() + "; no Tile IR op or hint states that overlap, so "
                   "tileiras owns it (no knob of the port reaches it: `workbench tune`)")
        return PeerGap("compiler", summary, evidence, kernel_part, ratio)
    return PeerGap("undetermined", schedule.reading(), evidence, kernel_part, ratio)


def _as_tuned(op: Operator, case_index: int) -> Operator:
    """The operator with the case's tuned.toml entry applied: the program that runs."""
    case = op.case(case_index)
    consts, hints, entry = tuned_case(op, case)
    if entry is None:
        return op
    tuned = dataclasses.replace(case, consts=consts, hints=hints)
    return dataclasses.replace(op, cases=tuple(tuned if c.index == case_index else c
                                               for c in op.cases))


def _bench_row(op: Operator, case_index: int, path: Path) -> dict:
    try:
        rows = json.loads(Path(path).read_text())
    except (OSError, ValueError) as e:
        raise WorkbenchError(f"{path}: not a bench JSON ({e})",
                             "give the --json file of bench/tune_bench.py") from e
    label = f"case {case_index}:"
    for row in rows if isinstance(rows, list) else []:
        if row.get("op") == op.name and str(row.get("case", "")).startswith(label):
            return row
    raise WorkbenchError(f"{path}: no row for {op.name} {label.rstrip(':')}",
                         "bench that case first: bench/tune_bench.py OP --json FILE on a GPU")


def _measured(row: dict | None, path: Path | None) -> tuple[list[str], float | None]:
    if not row or not row.get("pytorch"):
        return [], None
    port = row.get("tuned") or row.get("untuned")
    ratio = port / row["pytorch"]
    return [f"measured ({path}, {row.get('device', 'GPU')}): the port {port:.1f} us"
            f"{' (tuned)' if row.get('tuned') else ''}, PyTorch {row['pytorch']:.1f} us: "
            f"{ratio:.2f}x"], ratio
