"""Whose fault is a failed GPU check? Decided from evidence the workbench already has, in
this order:

  kernel    the Tile IR differs in a way that explains the failure (a critical or arithmetic
            finding of the diff, an unchecked promise included): the finding is named
  compiler  the Tile IR of both sides is equivalent (no failing finding: a hint or a weaker fact
            would explain a SASS difference too), their machine code differs (the reference
            against the port compiled for a call with the reference's per-call facts), and
            the results differ: a reproduction is saved (both bytecode files, the tileiras
            version, the command that shows the difference)
  host      the IR and the SASS match, so the launch differs: grid, strides, descriptors or
            stream; both sides' launch parameters are shown
  reference the port's side passed and the Python kernel's failed

A failure is `wrong values` (an output off the reference or never written), `fault` (a CUDA
error that killed the context), `timeout` (the worker was killed) or `refused` (the C ABI or
cutile's launcher refused the call before launching: a host problem by definition).
"""
from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

from ..catalog import REPO_ROOT, Operator

KERNEL, COMPILER, HOST, REFERENCE, UNDETERMINED = (
    "kernel", "compiler", "host", "reference", "undetermined")
WRONG_VALUES, FAULT, TIMEOUT, REFUSED = "wrong values", "fault", "timeout", "refused"
REPRO_DIR = REPO_ROOT / "runs" / "repro"
# where the fix goes for each owner (the drafting pipeline's stage)
FIX_STAGE = {KERNEL: "write_kernel", HOST: "write_host"}


@dataclass
class Ownership:
    op: str
    case: int
    failure: str
    owner: str
    summary: str                           # one line: why this owner
    evidence: list[str] = field(default_factory=list)
    finding: dict | None = None            # kernel: the diff finding that explains it
    machine: dict | None = None            # MachineEvidence.to_json()
    launches: dict | None = None           # host: both sides' launch parameters
    repro: str | None = None               # compiler: the folder of the reproduction

    def to_json(self) -> dict:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict) -> "Ownership":
        return cls(**{k: data.get(k) for k in cls.__dataclass_fields__})

    def line(self) -> str:
        return f"case {self.case}: {self.failure}: owner {self.owner}: {self.summary}"


def failed_cases(response, requested: list[int]) -> list[tuple[int, str, dict]]:
    """(case, failure kind, the case's result) for every failed case of a CheckResponse;
    a worker that died or was killed fails every case it was asked for."""
    out = []
    for result in response.results:
        sides = result.get("sides", {})
        rust, python = sides.get("rust", {}), sides.get("python", {})
        cross = result.get("cross") or {"ok": True}
        if rust.get("ok", True) and python.get("ok", True) and cross.get("ok", True):
            continue
        reason = " ".join(str(s.get("reason", "")) for s in (rust, python))
        if "CUDA" in reason or "illegal" in reason:
            kind = FAULT
        elif "failed (bad argument)" in reason or "failed (launch)" in reason:
            kind = REFUSED
        else:
            kind = WRONG_VALUES
        out.append((result["case"], kind, result))
    if not out and response.status == "fail":
        kind = TIMEOUT if "did not finish" in response.reason else FAULT
        out = [(index, kind, {}) for index in requested]
    return out


def classify(op: Operator, case: int, failure: str, result: dict) -> Ownership:
    sides = result.get("sides", {})
    if sides.get("rust", {}).get("ok") and not sides.get("python", {}).get("ok", True):
        return Ownership(op.name, case, failure, REFERENCE,
                         "the port's output matches the reference; the Python kernel's does not",
                         [sides["python"].get("reason", "")])
    if failure == REFUSED:
        reason = sides.get("rust", {}).get("reason", "")
        return Ownership(op.name, case, failure, HOST, "the call was refused before any launch: "
                         + reason.splitlines()[0] if reason else "the call was refused", [reason])
    from ..diff import diff_modules
    from ..evidence import case_context
    from ..pairs import operator_pair
    left, right = operator_pair(op, case)
    context = case_context(op, case, left, right)
    report = diff_modules(left, right, context=context)
    explaining = [f for f in report.findings if f.category in ("critical", "arithmetic")]
    if explaining:
        first = explaining[0]
        where = ", ".join(f"{label} L{side['ir_line']}" for label, side in
                          (("python", first.left), ("rust", first.right)) if side)
        return Ownership(op.name, case, failure, KERNEL,
                         f"the Tile IR differs: [{first.category}] {first.kind}: {first.detail}"
                         + (f" ({where})" if where else ""),
                         [f"[{f.category}] {f.kind}: {f.detail}" for f in explaining[:8]],
                         finding=first.to_json())
    machine = context.machine_evidence()
    evidence = [f"diff: {report.verdict} (no critical or arithmetic finding)",
                "machine code: " + machine.consequence()]
    if not machine.available:
        return Ownership(op.name, case, failure, UNDETERMINED,
                         "the Tile IR is equivalent, and without SASS compiler and host cannot "
                         "be told apart", evidence, machine=machine.to_json())
    launches = launch_parameters(result)
    perf = [f for f in report.findings if f.category == "perf"]
    if perf and not machine.same:
        # hints and weaker facts change no result, but they do change the machine code, so
        # a SASS difference says nothing about the compiler here
        differences = launch_differences(launches)
        return Ownership(op.name, case, failure, HOST if differences else UNDETERMINED,
                         "the Tile IR differs only in what changes no result ("
                         + ", ".join(sorted({f.kind for f in perf})) + "), and that explains "
                         "the SASS difference; "
                         + ("the launch differs: " + "; ".join(differences) if differences else
                            "compiler and host cannot be told apart"),
                         evidence + [f"[perf] {f.kind}: {f.detail}" for f in perf[:4]]
                         + launch_lines(launches), machine=machine.to_json(), launches=launches)
    if not machine.same:
        folder = save_repro(op, case, left_verdict=report.verdict, machine=machine)
        return Ownership(op.name, case, failure, COMPILER,
                         "the Tile IR of both sides is equivalent, their machine code differs, "
                         f"and so do the results: reproduction in {_shown(folder)}",
                         evidence, machine=machine.to_json(), launches=launches,
                         repro=str(folder))
    return Ownership(op.name, case, failure, HOST,
                     "the Tile IR and the SASS match, so the launch differs: "
                     + ("; ".join(launch_differences(launches)) or
                        "compare both sides' launch parameters below"),
                     evidence + launch_lines(launches), machine=machine.to_json(),
                     launches=launches)


def _shown(path: Path) -> str:
    return str(path.relative_to(REPO_ROOT)) if path.is_relative_to(REPO_ROOT) else str(path)


# -- launch parameters --------------------------------------------------------------------------

def launch_parameters(result: dict) -> dict | None:
    """Both sides' launches as the worker recorded them (kernels from CUPTI: grid, block,
    stream; arguments as each side was given them)."""
    return result.get("launches")


def launch_differences(launches: dict | None) -> list[str]:
    if not launches or not {"python", "rust"} <= set(launches):
        return []
    python, rust = launches["python"], launches["rust"]
    out = []
    for key in ("grid", "block", "stream"):
        a, b = _kernel_value(python, key), _kernel_value(rust, key)
        if a is not None and b is not None and a != b:
            out.append(f"{key} {tuple(a) if isinstance(a, list) else a} (python) vs "
                       f"{tuple(b) if isinstance(b, list) else b} (rust)")
    return out


def _kernel_value(side: dict, key: str):
    kernels = side.get("kernels") or []
    return kernels[0].get(key) if kernels else None


def launch_lines(launches: dict | None) -> list[str]:
    if not launches:
        return ["launch parameters: not recorded (the failure left no launch to record)"]
    lines = []
    for side in ("python", "rust"):
        record = launches.get(side) or {}
        for k in record.get("kernels", []):
            lines.append(f"{side} kernel {k.get('name')}: grid {k.get('grid')}, block "
                         f"{k.get('block')}, stream {k.get('stream')}")
        for arg in record.get("arguments", []):
            lines.append(f"{side} argument {arg}")
    return lines


# -- the compiler's reproduction ----------------------------------------------------------------

def save_repro(op: Operator, case: int, left_verdict: str, machine) -> Path:
    """Both sides' bytecode, the tileiras version and a script that shows the difference."""
    from ..evidence import matched_request
    from ..pairs import side_bytecode
    from ..rust.cargo import build
    from ..rust.emit import emit_in_child, emit_request
    from ..sass.compile import tileiras
    from ..tools import run_tool
    folder = REPRO_DIR / f"{op.name}-case{case}-{time.strftime('%Y%m%d-%H%M%S')}"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "python.tileirbc").write_bytes(side_bytecode(op, "python", case))
    (folder / "rust.tileirbc").write_bytes(side_bytecode(op, "rust", case))
    matched = emit_in_child(op.name, str(build(op).library), matched_request(emit_request(op, case)))
    (folder / "rust_matched.tileirbc").write_bytes(matched)
    tool = tileiras()
    version = run_tool([str(tool), "--version"], timeout=60, check=False).stdout
    (folder / "tileiras-version.txt").write_text(
        f"{tool}\n{version.decode(errors='replace') if isinstance(version, bytes) else version}")
    (folder / "repro.sh").write_text(REPRO_SCRIPT.format(op=op.name, case=case, tool=tool,
                                                         verdict=left_verdict,
                                                         what=machine.what))
    (folder / "repro.sh").chmod(0o755)
    return folder


REPRO_SCRIPT = """#!/bin/sh
# {op} case {case}: the Tile IR of both sides is equivalent (`workbench diff {op} --case {case}`:
# {verdict}), their machine code differs, and so do their results on the GPU.
# python.tileirbc: the reference; rust_matched.tileirbc: the port compiled for a call with the
# reference's per-call facts ({what}); rust.tileirbc: the port as emitted for the case.
# Run here: it compiles both with the tileiras named below and prints the SASS difference.
set -e
cd "$(dirname "$0")"
TILEIRAS=${{TILEIRAS:-{tool}}}
for side in python rust_matched; do
  "$TILEIRAS" --gpu-name=sm_90 -O3 -o "$side.cubin" "$side.tileirbc"
  cuobjdump -sass "$side.cubin" | sed -e 's@/\\*[0-9a-f]*\\*/@@' -e 's/R[0-9]*/R/g' > "$side.sass"
done
diff python.sass rust_matched.sass && echo "no difference" || true
"""
