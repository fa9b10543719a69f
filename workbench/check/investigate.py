"""Why a port is slower than its reference (issue 36's residual-performance investigator): the
evidence on both sides of the launch, and who owns the fix.

- host side: the port's own C call run on the CPU through the recording CUDA driver, its
  kernels not run (host_cpu.profile_port_host): the launches it makes against the
  reference's (how many, the grid), and what else it asks of the driver in a call
  (synchronizations, copies, allocations);
- device side: the IR diff's findings that change speed and not results (weaker facts,
  hints), and the SASS of both sides for the case (registers, spills, load and store widths,
  TMA and matrix instructions).

The owner: `host` when the launch or the call differs, `kernel` when the Tile IR differs where
speed is decided, `compiler` when the Tile IR is equivalent and the machine code is not, and
`undetermined` when nothing differs (then the time difference is not the port's: measure
again). Nothing here needs a GPU; the perf stage's ratio, when given, heads the summary.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field

from ..catalog import Operator
from ..errors import WorkbenchError
from ..ownership.evidence import machine_evidence
from ..ownership.pairs import operator_diff
from ..rust.emit import port_bytecode
from ..sources.kernel import load_operator_kernel
from .cpu_common import SideFailed, case_args
from .cpu_own import python_grid
from .host_cpu import profile_port_host

FIX_STAGES = {"kernel": "write_kernel", "host": "write_host"}
VERDICTS = {"kernel": "FIX_KERNEL", "host": "FIX_HOST", "compiler": "COMPILER_PROBLEM",
            "undetermined": "UNDETERMINED"}
# driver calls a launch needs none of: each one in a call is host time the reference spends not
HOST_COSTS = {"synchronize": "waits for the GPU (stream or context synchronize)",
              "copy": "copies memory", "allocate": "allocates device memory",
              "memset": "clears memory"}


@dataclass
class Investigation:
    op: str
    case: int
    owner: str                       # kernel, host, compiler, undetermined
    summary: str
    evidence: list[str] = field(default_factory=list)
    ratio: float | None = None       # rust time / reference time, when it was measured

    @property
    def fix_stage(self) -> str | None:
        return FIX_STAGES.get(self.owner)

    @property
    def verdict(self) -> str:
        return VERDICTS[self.owner]

    def to_json(self) -> dict:
        return dict(asdict(self), fix_stage=self.fix_stage, verdict=self.verdict)

    def lines(self) -> list[str]:
        return [f"{self.op} case {self.case}: {self.owner}: {self.summary}"] + \
            [f"    {line}" for line in self.evidence]


def investigate(op: Operator, case_index: int = 0, ratio: float | None = None) -> Investigation:
    """The evidence for one case of a port, and its owner."""
    host_findings, host_lines = host_evidence(op, case_index)
    device = device_evidence(op, case_index)
    slower = f"{ratio:.2f}x the reference's time: " if ratio else ""
    telling = [c for c in device.changes if not c.startswith("instructions:")] or device.changes
    sass = f" (SASS: {telling[0]})" if telling else ""
    if host_findings:
        owner, why = "host", host_findings[0]
    elif device.weaker:
        owner, why = "kernel", device.weaker[0] + (
            sass or " (the machine code is the same: measure again)")
    elif device.changes and device.stronger:
        owner, why = "compiler", ("the machine code differs only where the port states more "
                                  f"than the reference ({device.stronger[0]}): the compiler's "
                                  f"use of the stronger fact{sass}")
    elif device.changes:
        owner, why = "compiler", ("the Tile IR is equivalent and the launch the same, yet the "
                                  f"machine code differs{sass}")
    else:
        owner, why = "undetermined", ("the launch, the Tile IR and the machine code are the "
                                      "same: the time difference is not the port's (measure "
                                      "again)")
    return Investigation(op.name, case_index, owner, slower + why,
                         host_lines + device.lines, ratio)


# -- the host side ------------------------------------------------------------------------------

def host_evidence(op: Operator, case_index: int) -> tuple[list[str], list[str]]:
    """(findings that make the host side the owner, every line of evidence)."""
    case = op.case(case_index)
    values = _zeroed_arguments(op, case)
    try:
        grid = python_grid(op, case, values)
    except WorkbenchError as e:
        grid, lines = None, [f"reference launch: unknown ({str(e).splitlines()[0]})"]
    else:
        lines = [f"reference launch: 1 kernel, grid {tuple(grid)}"]
    try:
        launches, calls = profile_port_host(op, values, case.consts, grid)
    except SideFailed as failed:
        return [f"the port's host code refuses the case: {failed.outcome.get('reason', '')}"], \
            lines
    lines.append("port launch: " + ", ".join(f"@{run['entry']} grid {tuple(run['grid'])}"
                                             for run in launches))
    lines.append("port's driver calls in one call: " + ", ".join(
        f"{kind} x{n}" for kind, n in calls.items() if n) or "none")
    return _host_findings(grid, launches, calls), lines


def _host_findings(grid, launches: list[dict], calls: dict) -> list[str]:
    findings = []
    if len(launches) > 1:
        findings.append(f"the port's host code launches {len(launches)} kernels where the "
                        "reference launches one")
    padded = tuple(grid) + (1,) * (3 - len(grid)) if grid is not None else None
    if padded is not None and launches and tuple(launches[0]["grid"]) != padded:
        findings.append(f"the port launches grid {tuple(launches[0]['grid'])} where the "
                        f"reference launches {padded}")
    for kind, what in HOST_COSTS.items():
        if calls.get(kind):
            findings.append(f"the port's host code {what} {calls[kind]} time(s) in every call "
                            f"(cu*{kind.capitalize()}): the reference's launch does not")
    return findings


def _zeroed_arguments(op: Operator, case) -> dict:
    """The case's arguments, zero-filled (the kernels do not run: only the layout counts)."""
    kernel = load_operator_kernel(op)
    names = [p for p in kernel.params if p not in kernel.const_params]
    return dict(zip(names, case_args(case.args, fill_all="zeros")))


# -- the device side ----------------------------------------------------------------------------

@dataclass
class DeviceEvidence:
    weaker: list[str]        # what the port states less of, where the machine code shows it
    stronger: list[str]      # what the port states more of (re-derived on every call)
    changes: list[str]       # the SASS summary lines that differ (empty: the same code)
    lines: list[str]


def device_evidence(op: Operator, case_index: int) -> DeviceEvidence:
    report = operator_diff(op, case_index, sass=True)
    weaker = [f for f in report.findings if f.category == "perf"]
    stronger = [f for f in report.findings if f.category == "hint"]
    machine = machine_evidence(op, case_index, port_bytecode(op, case_index))
    changes = machine.changes if machine.available and not machine.same else []
    lines = ([f"IR diff: {report.verdict}"]
             + [f"[{f.category}] {f.kind}: {f.detail}" for f in (weaker + stronger)[:6]]
             + ["machine code: " + machine.consequence()])
    return DeviceEvidence(
        [f"the port's Tile IR states less where speed is decided: [{f.kind}] "
         f"{f.detail.split(': SASS differs')[0]}" for f in weaker],
        [f"[{f.kind}] {f.detail.split(':')[0]}: {_fact_change(f.detail)}" for f in stronger],
        changes, lines)


def _fact_change(detail: str) -> str:
    """`x.stride[0]: div_by<4> (...) -> div_by<8> (...): stronger ...` -> `div_by<4> -> div_by<8>`."""
    parts = detail.split(": ", 1)[-1].split(" -> ")
    if len(parts) < 2:
        return detail
    return f"{parts[0].split(' (')[0]} -> {parts[1].split(' (')[0].split(':')[0]}"
