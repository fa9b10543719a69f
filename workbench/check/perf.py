"""The perf gate: a port's device time against its reference's, case by case, both timed in
one worker (CUPTI, as `workbench bench` times them). The verdict is PERF_PASS when the
geometric mean of rust time / reference time is at most the gate (1.05 unless the user sets
another), PERF_FAIL otherwise, and SKIPPED, with the reason, when nothing was timed.

The reference is the Python kernel of a cuTile operator, the user's own kernel of a
recorded target, or the Triton kernel itself for a port whose source is Triton.
"""
from __future__ import annotations

import math
import os
from dataclasses import asdict, dataclass, field

from .compare import geomean
from ..errors import WorkbenchError
from .report import bench_operators
from .triton_side import check_triton_port

DEFAULT_GATE = 1.05
GATE_VARIABLE = "WORKBENCH_PERF_GATE"


@dataclass
class CaseTime:
    case: int
    label: str
    reference_us: float | None
    rust_us: float | None
    clock: str                       # cupti, or events where a side has no CUPTI time
    reason: str = ""                 # why a side has no time

    @property
    def ratio(self) -> float | None:
        """rust time / reference time: below 1 the port is faster."""
        if not (self.reference_us and self.rust_us):
            return None
        return self.rust_us / self.reference_us


@dataclass
class PerfResult:
    verdict: str                     # PERF_PASS, PERF_FAIL, SKIPPED
    summary: str
    gate: float
    geomean_ratio: float | None = None
    cases: list[CaseTime] = field(default_factory=list)

    def to_json(self) -> dict:
        return {"gate": self.gate, "geomean_ratio": self.geomean_ratio, "reason": self.summary,
                "cases": [dict(asdict(c), ratio=c.ratio) for c in self.cases]}

    def lines(self) -> list[str]:
        out = [f"case {c.case} {c.label}: ratio={c.ratio:.3f} (rust {c.rust_us:.2f} us, "
               f"reference {c.reference_us:.2f} us, {c.clock})" if c.ratio else
               f"case {c.case} {c.label}: no time ({c.reason})" for c in self.cases]
        return out + [self.summary]


def perf_gate() -> float:
    """The gate: WORKBENCH_PERF_GATE when set (a number above 0), else 1.05."""
    text = os.environ.get(GATE_VARIABLE, "")
    if not text:
        return DEFAULT_GATE
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not value > 0:
        raise WorkbenchError(f"{GATE_VARIABLE}={text!r} is not a ratio above 0",
                             f"set {GATE_VARIABLE} to e.g. 1.05 (rust time / reference time), "
                             "or unset it")
    return value


def judge(cases: list[CaseTime], gate: float) -> PerfResult:
    """The verdict over the timed cases: every case must have both times."""
    missing = [c for c in cases if c.ratio is None]
    if not cases or missing:
        why = ("no case was timed" if not cases else
               f"case {missing[0].case} has no time: {missing[0].reason or 'a side failed'}")
        return PerfResult("SKIPPED", why, gate, None, cases)
    mean = geomean([c.ratio for c in cases])
    verdict = "PERF_PASS" if mean <= gate else "PERF_FAIL"
    slowest = max(cases, key=lambda c: c.ratio)
    summary = (f"geomean_ratio={mean:.3f} (rust / reference; gate {gate:g}); slowest: case "
               f"{slowest.case} at {slowest.ratio:.3f}")
    return PerfResult(verdict, summary, gate, mean, cases)


def time_port(op, triton=None) -> tuple[str, list[CaseTime]]:
    """('ok' or why nothing ran, the cases' times) of the port against its reference."""
    if triton is not None:
        response = check_triton_port(triton, op, mode="bench")
        if response.status != "ok":
            return response.reason or response.status, []
        return "ok", [_case_time(r, r["sides"].get("triton", {}), r["sides"].get("rust", {}))
                      for r in response.results]
    report = bench_operators([op])
    if report["status"] == "skipped":
        return report["reason"], []
    errors = [row["error"] for row in report["rows"] if "error" in row]
    if errors:
        return errors[0], []
    return "ok", [_case_time({"case": row["index"], "label": row["case"]}, row["python"],
                             row["rust"]) for row in report["rows"]]


def _case_time(result: dict, reference: dict, rust: dict) -> CaseTime:
    both_cupti = reference.get("cupti_us") and rust.get("cupti_us")
    key = "cupti_us" if both_cupti else "median_us"
    reason = " ".join(str(s.get("reason", "")) for s in (reference, rust)
                      if not s.get("ok", True)).strip()
    return CaseTime(result["case"], result.get("label", ""),
                    reference.get(key) if reference.get("ok") else None,
                    rust.get(key) if rust.get("ok") else None,
                    "cupti" if both_cupti else "events", reason)
