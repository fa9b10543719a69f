"""Whose fault is a failure, and where its fix goes: the one decision the GPU check, the
drafting pipeline (stage diff_analysis, `decide`) and the corpus use.

A failed build is the kernel's, or the host's when every error is in lib.rs or port.toml. A
failed IR diff is the kernel's (a mistranslation), or the host's when every explaining
finding is an unchecked promise (the C ABI can check it) or the entry's signature. A failed
GPU check is decided per case from evidence the workbench already has, in this order (a
failed CPU check, where no machine or host code ran, only by the first):

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
error that killed the context), `timeout` (the worker was killed), `refused` (the C ABI or
cutile's launcher refused the call before launching: a host problem by definition) or
`compile` (tileiras rejected a side's bytecode: the compiler's when another installed tileiras
compiles the same bytecode, or when it rejects the Python kernel too).
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path

from ..diff.findings import EXPLAINING
from ..operators import REPO_ROOT, Operator
from ..diff import diff_modules
from .evidence import case_context
from .pairs import operator_pair
from .repro import save_repro
from .toolchain import compiled_elsewhere
from ..toolchains import current_version, installed

KERNEL, COMPILER, HOST, REFERENCE, UNDETERMINED = (
    "kernel", "compiler", "host", "reference", "undetermined")
WRONG_VALUES, FAULT, TIMEOUT, REFUSED, COMPILE = (
    "wrong values", "fault", "timeout", "refused", "compile")
# what tileiras prints when it rejects a program (in a side's reason, from either front end)
COMPILE_FAILED = "failed to compile Tile IR program"
# where the fix goes for each owner (the drafting pipeline's stage); other owners' faults
# are not the port's to fix
FIX_STAGE = {KERNEL: "write_kernel", HOST: "write_host"}
VERDICT = {KERNEL: "FIX_KERNEL", HOST: "FIX_HOST", COMPILER: "COMPILER_PROBLEM",
           REFERENCE: "REFERENCE_PROBLEM", UNDETERMINED: "UNDETERMINED"}


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
        if COMPILE_FAILED in reason:
            kind = COMPILE
        elif "CUDA" in reason or "illegal" in reason:
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


def classify(op: Operator, case: int, failure: str, result: dict,
             on_cpu: bool = False) -> Ownership:
    """on_cpu: the results came from the Tile IR interpreter, which runs each side's IR as
    it is (no machine code, no host code): only the IR can explain a difference there."""
    sides = result.get("sides", {})
    if sides.get("rust", {}).get("ok") and not sides.get("python", {}).get("ok", True):
        return Ownership(op.name, case, failure, REFERENCE,
                         "the port's output matches the reference; the Python kernel's does not",
                         [sides["python"].get("reason", "")])
    if failure == COMPILE:
        return _compile_owner(op, case, sides)
    if failure == REFUSED:
        reason = sides.get("rust", {}).get("reason", "")
        return Ownership(op.name, case, failure, HOST, "the call was refused before any launch: "
                         + reason.splitlines()[0] if reason else "the call was refused", [reason])
    left, right = operator_pair(op, case)
    context = case_context(op, case, left, right)
    report = diff_modules(left, right, context=context)
    explaining = [f for f in report.findings if f.category in EXPLAINING]
    if explaining:
        first = explaining[0]
        where = ", ".join(f"{label} L{side['ir_line']}" for label, side in
                          (("python", first.left), ("rust", first.right)) if side)
        return Ownership(op.name, case, failure, KERNEL,
                         f"the Tile IR differs: [{first.category}] {first.kind}: {first.detail}"
                         + (f" ({where})" if where else ""),
                         [f"[{f.category}] {f.kind}: {f.detail}" for f in explaining[:8]],
                         finding=first.to_json())
    if on_cpu:
        return _owner_on_cpu(op, case, failure, result, report)
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


# -- a drafting run's failure --------------------------------------------------------------------

@dataclass
class Decision:
    """Who owns a drafting run's failure: the diff_analysis stage's content."""
    owner: str
    kind: str                              # build error, mistranslation, or the GPU failure
    summary: str
    evidence: list[str]
    finding: dict | None = None
    extra: dict = field(default_factory=dict)   # repro, launches (from the GPU check's owner)

    @property
    def fix_stage(self) -> str | None:
        return FIX_STAGE.get(self.owner)

    @property
    def verdict(self) -> str:
        return VERDICT[self.owner]

    def lead(self) -> str:
        stage = self.fix_stage
        return (f"owner: {self.owner}; the fix goes to {stage} and no other stage" if stage else
                f"owner: {self.owner}; nothing in the port to fix")


def decide(build_diagnostics: list[dict] | None, diff_cases: list[dict] | None,
           check: dict | None) -> Decision | None:
    """The owner of the first failure of a run: a failed build (its diagnostics), else a
    failed IR diff (its cases' findings as JSON), else a failed GPU check (its summary and
    per-case owners); None when nothing failed."""
    if build_diagnostics is not None:
        return build_owner(build_diagnostics)
    if diff_cases is not None:
        return diff_owner(diff_cases)
    if check is not None:
        return check_owner(check.get("summary", ""), check.get("owners") or [])
    return None


def build_owner(diagnostics: list[dict]) -> Decision:
    files = {d.get("file") or "" for d in diagnostics}
    owner = HOST if all(f.endswith("lib.rs") or f.endswith(".toml") for f in files if f) \
        else KERNEL
    evidence = [f"{d.get('file')}:{d.get('line')}: {d['message']}" for d in diagnostics[:10]]
    return Decision(owner, "build error", f"the build fails in the {owner} code", evidence)


def is_promise(finding: dict) -> bool:
    """An unchecked promise of the port (diff/facts.py unchecked_promise), from its JSON."""
    return bool((finding.get("fact") or {}).get("promise"))


def diff_owner(cases: list[dict]) -> Decision:
    """An unchecked promise is the host's to check (port.toml, checked by wb_ffi) or the
    kernel's to drop; a signature is the host's; anything else the kernel's."""
    findings = [f for c in cases for f in c["findings"]
                if f["category"] in EXPLAINING or f["category"] == "perf"]
    critical = [f for f in findings if f["category"] != "perf"] or findings
    host = bool(critical) and all(f["kind"] == "signature" or is_promise(f) for f in critical)
    evidence = [f"[{f['category']}] {f['kind']}: {f['detail']}" for f in critical[:10]]
    if critical and all(map(is_promise, critical)):
        evidence.append("declare each promise in port.toml (`div_by = [\"shape[1] 16\"]`: the C "
                        "ABI then checks it on every call), or drop the assume from kernel.rs")
    what = "unchecked promises" if host and any(map(is_promise, critical)) else \
        "entry signature" if host else "a mistranslated kernel"
    return Decision(HOST if host else KERNEL, "mistranslation", f"the Tile IR differs: {what}",
                    evidence, finding=critical[0] if critical else None)


def check_owner(summary: str, owners: list[dict]) -> Decision:
    """The GPU check's per-case owners (Ownership.to_json): the first whose fix is the
    port's leads."""
    if not owners:
        return Decision(UNDETERMINED, "gpu failure", "the GPU check failed: " + summary,
                        [summary])
    first = next((o for o in owners if o["owner"] in FIX_STAGE), owners[0])
    evidence = [f"case {o['case']} ({o['failure']}): owner {o['owner']}: {o['summary']}"
                for o in owners] + list(first.get("evidence") or [])[:8]
    return Decision(first["owner"], first["failure"], f"the GPU check failed "
                    f"({first['failure']}): owner {first['owner']}", evidence,
                    finding=first.get("finding"),
                    extra={"repro": first.get("repro"), "launches": first.get("launches")})


def _compile_owner(op: Operator, case: int, sides: dict) -> Ownership:
    """tileiras rejected a side: try the same bytecode with every other installed version."""
    failed = [s for s in ("python", "rust") if COMPILE_FAILED in str(sides.get(s, {}).get("reason"))]
    current = current_version()
    elsewhere = {side: compiled_elsewhere(op, case, side) for side in failed}
    evidence = [f"tileiras {current} rejects the {side} side's bytecode" for side in failed]
    evidence += [f"tileiras {version} {'compiles it' if not error else 'rejects it too: ' + error}"
                 f" ({side} side)" for side, found in elsewhere.items()
                 for version, error in found.items()]
    compiling = [v for v in installed() if v != current
                 and all(elsewhere[side].get(v) == "" for side in failed)]
    what = " and ".join(f"the {side} side's" for side in failed)
    if compiling:
        return Ownership(op.name, case, COMPILE, COMPILER,
                         f"tileiras {current} rejects {what} bytecode, which tileiras "
                         f"{', '.join(compiling)} compiles: a compiler-version effect (`workbench "
                         f"diff {op.name} --case {case} --toolchain {current} --toolchain "
                         f"{compiling[0]}`)", evidence)
    compared = ("no other installed tileiras compiles it" if any(elsewhere.values()) else
                "no other tileiras is installed to compare (`workbench toolchain install "
                "VERSION`)")
    if "python" in failed:
        return Ownership(op.name, case, COMPILE, COMPILER,
                         f"tileiras {current} rejects the Python kernel's bytecode too, so not "
                         f"the port's; {compared}", evidence)
    return Ownership(op.name, case, COMPILE, UNDETERMINED,
                     f"tileiras {current} rejects the port's bytecode and compiles the Python "
                     f"kernel's; {compared}: the IR diff shows what the port writes differently",
                     evidence)


def _shown(path: Path) -> str:
    return str(path.relative_to(REPO_ROOT)) if path.is_relative_to(REPO_ROOT) else str(path)


def _owner_on_cpu(op: Operator, case: int, failure: str, result: dict, report) -> Ownership:
    """Equivalent Tile IR and different results on the CPU: no compiler ran there (the
    interpreter runs the IR), so where the port's host code ran the launch it made is the
    difference; where only its kernel ran, nothing here can say."""
    evidence = [f"diff: {report.verdict} (no critical or arithmetic finding)"]
    rust = result.get("sides", {}).get("rust", {})
    if not rust.get("host", "").startswith("the port's host code"):
        return Ownership(op.name, case, failure, UNDETERMINED,
                         "the Tile IR is equivalent, yet the interpreter's results differ; the "
                         "port's host code (lib.rs) did not run here: check on a GPU", evidence)
    launches = launch_parameters(result)
    differences = launch_differences(launches)
    return Ownership(op.name, case, failure, HOST,
                     "the Tile IR is equivalent and no compiler ran (the interpreter runs the "
                     "IR), so the port's host code launched it differently: "
                     + ("; ".join(differences) or "the grid is the same: compare the views and "
                        "strides lib.rs makes"),
                     evidence + [f"rust: {rust.get('reason', '')}".splitlines()[0]]
                     + launch_lines(launches), launches=launches)


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
