"""The sweep: every candidate of a case checked against the reference, in parallel on the
batch engine (GPU workers that share the device: each check compiles its candidate, and
compiling is CPU work; the JIT's disk cache keeps the result for the timing), then the
candidates that passed timed on the GPU one case at a time, in one worker with the reference
and the untuned port (CUPTI device time, as `workbench bench`). The fastest correct
candidate is kept as the port's entry for that case's shapes when it beats the untuned
port by more than `margin`; a failed candidate is never kept, and without a better one the
port is left as it was.

    report = tune(get_operator("softmax"), cases=[3], knob_texts=["occupancy=1,2"])
    print("\\n".join(report.lines()))
"""
from __future__ import annotations

import datetime
from dataclasses import dataclass, field

from ..check.report import worker_request
from ..check.runner import has_cuda_driver, run_worker
from ..engine import EngineOptions, open_engine
from ..errors import WorkbenchError
from ..operators import Operator
from ..rust.cargo import has_port
from ..rust.manifest import load_manifest
from ..rust.tuned import TunedEntry, case_arrays, load_tuned, write_tuned
from .knobs import MAX_CANDIDATES, Candidate, candidates, knobs_for

MARGIN = 0.02                        # a kept candidate is this much faster than the untuned
TIMING = {"warmup": 5, "batches": 10, "per_batch": 10}
CHECK_TIMEOUT_S = 600.0
KEPT = "kept"                        # the candidate id of the port's current tuned entry


@dataclass
class Trial:
    id: str
    consts: dict
    hints: dict
    correct: bool | None = None      # None: not checked (the sweep stopped first)
    reason: str = ""
    rust_us: float | None = None

    def to_json(self) -> dict:
        return dict(self.__dict__)


@dataclass
class CaseSweep:
    case: int
    label: str
    arrays: str
    combinations: int                # how many the knobs make (trials: those tried)
    trials: list[Trial] = field(default_factory=list)
    reference_us: float | None = None
    untuned_us: float | None = None
    kept: Trial | None = None
    note: str = ""

    def best(self, margin: float) -> Trial | None:
        """The fastest correct, timed candidate if it beats the untuned port by `margin`."""
        timed = [t for t in self.trials if t.correct and t.rust_us]
        if not timed or not self.untuned_us:
            return None
        fastest = min(timed, key=lambda t: t.rust_us)
        return fastest if fastest.rust_us < self.untuned_us * (1 - margin) else None

    def to_json(self) -> dict:
        return {"case": self.case, "label": self.label, "arrays": self.arrays,
                "combinations": self.combinations, "reference_us": self.reference_us,
                "untuned_us": self.untuned_us, "note": self.note,
                "kept": self.kept.id if self.kept else None,
                "trials": [t.to_json() for t in self.trials]}


@dataclass
class TuneReport:
    op: str
    status: str                      # ok, skipped (no GPU), fail
    reason: str = ""
    cases: list[CaseSweep] = field(default_factory=list)
    written: str | None = None       # the tuned.toml written (None: the port is untouched)
    device: str = ""
    programs: tuple = ()             # the port's other tile programs (program=1 is the first)

    def to_json(self) -> dict:
        return {"op": self.op, "status": self.status, "reason": self.reason,
                "written": self.written, "device": self.device, "programs": list(self.programs),
                "cases": [c.to_json() for c in self.cases]}


def report_from_json(data: dict) -> TuneReport:
    """A report read back from its JSON (to_json), e.g. to draw it again."""
    cases = []
    for case in data["cases"]:
        trials = [Trial(**t) for t in case["trials"]]
        sweep = CaseSweep(case["case"], case["label"], case["arrays"], case["combinations"],
                          trials, case["reference_us"], case["untuned_us"],
                          note=case.get("note", ""))
        sweep.kept = next((t for t in trials if t.id == case["kept"]), None)
        cases.append(sweep)
    return TuneReport(data["op"], data["status"], data.get("reason", ""), cases,
                      data.get("written"), data.get("device", ""),
                      tuple(data.get("programs", ())))


def tunable(op: Operator) -> None:
    """Refuse, with what to do, an operator tune cannot sweep."""
    if op.family or op.record is not None or op.language != "cutile":
        raise WorkbenchError(f"{op.name}: tune sweeps a catalog cuTile operator's port (this "
                             "is " + ("a TileGym entry" if op.family else "a recorded target"
                                      if op.record is not None else "a Triton port") + ")",
                             "tune one of: softmax, rms_norm, layer_norm, matmul, attention, "
                             "silu_and_mul, or a catalog operator of your own")
    if not has_port(op):
        raise WorkbenchError(f"{op.name}: no port to tune", "draft one first: "
                             f"`workbench port {op.name}`")


def plan_sweeps(op: Operator, cases: list[int], knob_texts: list[str],
                limit: int = MAX_CANDIDATES) -> list[CaseSweep]:
    """Each case's candidates (bad knobs refused here, before any GPU work); the port's
    current tuned entry for a case competes as one more."""
    tunable(op)
    manifest, kept = load_manifest(op), load_tuned(op)
    sweeps = []
    for index in cases:
        case = op.case(index)
        found, total = candidates(knobs_for(case, manifest, knob_texts), case, limit)
        trials = [Trial(c.id, c.consts, c.hints) for c in found]
        arrays = case_arrays(case)
        if arrays in kept:
            trials.append(Trial(KEPT, kept[arrays].consts, kept[arrays].hints))
        sweeps.append(CaseSweep(index, case.label(), arrays, total, trials))
    return sweeps


def tune(op: Operator, cases: list[int] | None = None, knob_texts: list[str] = (),
         jobs: int = 4, limit: int = MAX_CANDIDATES, keep: bool = True,
         margin: float = MARGIN, progress=None) -> TuneReport:
    say = progress or (lambda text: None)
    sweeps = plan_sweeps(op, cases if cases else [c.index for c in op.cases], list(knob_texts),
                         limit)
    report = TuneReport(op.name, "ok", cases=sweeps, programs=load_manifest(op).programs)
    if not has_cuda_driver():
        report.status, report.reason = "skipped", "no CUDA device: a sweep times candidates " \
                                                  "on a GPU (nothing was changed)"
        return report
    base = worker_request(op, [], ["rust"], 0)
    with open_engine(EngineOptions(jobs=0, gpus=max(1, jobs), per_gpu=max(1, jobs))) as engine:
        say(f"checking {sum(len(s.trials) for s in sweeps)} candidates on {max(1, jobs)} "
            "workers")
        _check_all(engine, base, sweeps)
        for sweep in sweeps:
            say(f"timing case {sweep.case}: "
                f"{sum(1 for t in sweep.trials if t.correct)} correct candidates")
            report.device = _time_case(engine, base, sweep) or report.device
    for sweep in sweeps:
        sweep.kept = sweep.best(margin)
    if keep:
        report.written = _keep(op, sweeps, report.device)
    return report


# -- on the engine ---------------------------------------------------------------------------

def check_candidate(request: dict) -> dict:
    """On a GPU worker: one candidate's check (its own worker process, so a fault in it
    is only its own result)."""
    response = run_worker(request, timeout=CHECK_TIMEOUT_S)
    side = next(iter(response.results[0]["sides"].values()), None) if response.results \
        else None
    if side is None:                 # the worker itself failed (its reason says how)
        return {"ok": False, "reason": response.reason or response.status}
    return {"ok": bool(side.get("ok")), "reason": side.get("reason", "") or
            ("" if side.get("ok") else f"relative error {side.get('rel_error')}")}


def time_candidates(request: dict) -> dict:
    response = run_worker(request, timeout=CHECK_TIMEOUT_S)
    return {"status": response.status, "reason": response.reason,
            "results": response.results, "device": response.device}


def _check_all(engine, base: dict, sweeps: list[CaseSweep]) -> None:
    by_key = {}
    for sweep in sweeps:
        for number, trial in enumerate(sweep.trials):
            key = f"check-{sweep.case}-{number}"
            by_key[key] = trial
            request = {**base, "cases": [sweep.case], "sides": [], "mode": "check",
                       "candidates": [_candidate(trial)]}
            engine.submit(key, check_candidate, (request,), gpu=True)
    for done in engine.finished():
        trial = by_key[done.key]
        result = done.result or {"ok": False, "reason": done.error}
        trial.correct, trial.reason = result["ok"], result["reason"]


def _time_case(engine, base: dict, sweep: CaseSweep) -> str:
    passed = [t for t in sweep.trials if t.correct]
    request = {**base, "cases": [sweep.case], "sides": ["python", "rust"], "mode": "bench",
               "tuned": False, "bench": TIMING, "candidates": [_candidate(t) for t in passed]}
    engine.submit(f"time-{sweep.case}", time_candidates, (request,), gpu=True)
    done = next(iter(engine.finished()))
    response = done.result or {"status": "fail", "reason": done.error, "results": []}
    if response["status"] != "ok" or not response["results"]:
        sweep.note = f"timing failed: {response['reason'] or response['status']}"
        return ""
    sides = response["results"][0]["sides"]
    sweep.reference_us = _device_us(sides.get("python", {}))
    sweep.untuned_us = _device_us(sides.get("rust", {}))
    for trial in passed:
        side = sides.get(f"candidate:{trial.id}")
        if side is None:             # the worker stopped (a fault) before this one
            trial.reason = f"not timed: {response['reason'] or 'the timing stopped'}"
            continue
        trial.rust_us = _device_us(side)
        if not side.get("ok"):
            trial.correct, trial.reason = False, side.get("reason", "no time")
    if sweep.untuned_us is None:
        sweep.note = "the untuned port has no time: " + sides.get("rust", {}).get("reason", "")
    return response["device"].get("name", "")


def _candidate(trial: Trial) -> dict:
    return {"id": trial.id, "consts": trial.consts, "hints": trial.hints}


def _device_us(side: dict) -> float | None:
    if not side.get("ok"):
        return None
    return side.get("cupti_us") or side.get("median_us")


# -- keeping -------------------------------------------------------------------------------

def _keep(op: Operator, sweeps: list[CaseSweep], device: str) -> str | None:
    """Write the kept entries (the port's others stay); untouched when nothing changed. An
    entry whose shapes a sweep found no better candidate for is dropped: untuned wins."""
    entries = load_tuned(op)
    before = dict(entries)
    for sweep in sweeps:
        if sweep.untuned_us is None:
            continue                 # not timed: leave that shape's entry as it is
        if sweep.kept is None:
            entries.pop(sweep.arrays, None)
        elif sweep.kept.id != KEPT:
            entries[sweep.arrays] = _entry(sweep, device)
    if entries == before:
        return None
    stamp = datetime.date.today().isoformat()
    return str(write_tuned(op, entries, f"written by `workbench tune {op.name}` on {stamp} "
                                        f"({device or 'a GPU'}); the file it replaced is "
                                        "tuned.toml.previous"))


def _entry(sweep: CaseSweep, device: str) -> TunedEntry:
    kept = sweep.kept
    measured = {"untuned_us": round(sweep.untuned_us, 3), "tuned_us": round(kept.rust_us, 3),
                "device": device}
    if sweep.reference_us:
        measured["reference_us"] = round(sweep.reference_us, 3)
    return TunedEntry(sweep.arrays, dict(kept.consts), dict(kept.hints), measured)
