"""A recorded call: the kernel launches a user's own host code made, as data.

    rec = Record.load("runs/records/my_layer_norm/record.json")
    rec.launches[0].grid            # (4096, 1, 1)
    rec.launches[0].args[0].spec    # "bf16[4096,768]"

A Record is a launch rule the user did not have to write: every launch names its kernel
(module, file:line, name, and the values a factory closed over), its grid, each argument
(an ArgSpec text, its role, integer value ranges) and its constants, in launch order; an
array's `buffer` names the memory it is, so a launch that reads what an earlier one wrote
shows as a chain. It is a stage artifact (to_json / from_json) and plain JSON a user may
edit: drop a launch, change a shape, add `"range": [0, 7]` to an index input or
`"tolerance": 1e-3` to an output. recorder.py makes one; port/recorded.py turns one into an
Operator with cases; check/recorded.py runs one on the GPU.
"""
from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path

from ..argspec import parse_arg
from ..operators import REPO_ROOT, Operator, display_path
from ..errors import WorkbenchError
from .factory import lift_factory_kernel
from .record_data import load_launch_data

RECORDS_DIR = REPO_ROOT / "runs" / "records"
SCHEMA = "workbench.record/1"
IN, OUT, INOUT = "in", "out", "inout"
NONE = "none"                         # a runtime argument given as None (Triton)


@dataclass
class RecordedArg:
    name: str                         # the kernel's parameter
    spec: str                         # argspec text: f32[64,128]:strides=(..), i32=7, ...
    role: str = IN                    # in | out | inout (what the kernel's source writes)
    constant: bool = False            # a ct.Constant / tl.constexpr parameter
    value: object = None              # a constant's value
    range: list | None = None         # an integer/bool array's recorded [min, max]
    buffer: str | None = None         # which memory: equal across launches = the same array
    tolerance: float | None = None    # an output's own tolerance (else the dtype's)

    def arg_spec(self):
        return parse_arg(self.spec)


@dataclass
class RecordedKernel:
    name: str
    language: str                     # cutile | triton
    file: str                         # absolute path of the defining source file
    line: int                         # the `def` line
    module: str = ""                  # the defining module's __name__
    qualname: str = ""                # `make.<locals>.kernel` for one a factory made
    closure: dict = field(default_factory=dict)    # a factory kernel's closed-over values

    @property
    def key(self) -> str:
        return f"{self.file}:{self.line}:{self.name}:{json.dumps(self.closure, sort_keys=True)}"

    @property
    def from_factory(self) -> bool:
        return "<locals>" in self.qualname

    def label(self) -> str:
        return f"{display_path(Path(self.file))}:{self.line} {self.qualname or self.name}"


@dataclass
class RecordedLaunch:
    index: int
    kernel: RecordedKernel
    grid: tuple
    args: list[RecordedArg]
    ran: bool = False                 # it also ran (on a GPU), not only intercepted
    options: dict = field(default_factory=dict)    # Triton's num_warps, ...; candidates
    caller: str = ""                  # file:line of the host code that launched it
    data: str = ""                    # its kept values, relative to the record (record_data.py)

    @property
    def runtime(self) -> list[RecordedArg]:
        return [a for a in self.args if not a.constant]

    @property
    def consts(self) -> dict:
        return {a.name: a.value for a in self.args if a.constant}

    @property
    def hints(self) -> dict:
        """The hints the launched kernel object carried (occupancy, num_ctas, ...)."""
        return dict(self.options.get("hints", {}))

    @property
    def writes(self) -> list[str]:
        return [a.name for a in self.args if a.role in (OUT, INOUT)]

    def label(self) -> str:
        arrays = ", ".join(f"{a.name}={a.spec}" for a in self.runtime if "[" in a.spec)
        return f"launch {self.index}: {self.kernel.name} grid {tuple(self.grid)} {arrays}"


@dataclass
class Record:
    launches: list[RecordedLaunch] = field(default_factory=list)
    source: str = ""                  # what ran: `python script.py args`, a cell, a call
    device: str = "cpu"               # where the host code's arrays lived
    problems: list[str] = field(default_factory=list)   # what stopped the recording
    path: Path | None = field(default=None, compare=False)

    def to_json(self) -> dict:
        data = {"schema": SCHEMA, "source": self.source, "device": self.device,
                "problems": self.problems, "launches": []}
        for launch in self.launches:
            item = asdict(launch)
            item["grid"] = list(launch.grid)
            item["args"] = [_without_defaults(a) for a in item["args"]]
            if not item["data"]:
                del item["data"]
            data["launches"].append(item)
        return data

    @classmethod
    def from_json(cls, data: dict, where: str = "the record") -> "Record":
        if data.get("schema") != SCHEMA:
            raise WorkbenchError(f"{where}: not a workbench record (schema "
                                 f"{data.get('schema')!r}, expected {SCHEMA!r})",
                                 "make one with `workbench record SCRIPT.py`")
        try:
            launches = [_launch(i, item) for i, item in enumerate(data["launches"])]
        except (KeyError, TypeError, ValueError) as e:
            raise WorkbenchError(f"{where}: a launch is malformed ({type(e).__name__}: {e})",
                                 "compare it with a freshly recorded launch")
        for launch in launches:
            for arg in launch.runtime:
                if arg.spec == NONE:
                    continue
                try:
                    arg.arg_spec()
                except WorkbenchError as e:
                    raise WorkbenchError(f"{where}: launch {launch.index}, argument "
                                         f"{arg.name}: {e.message}", e.hint) from None
        return cls(launches, data.get("source", ""), data.get("device", "cpu"),
                   list(data.get("problems", [])))

    def save(self, path: str | Path) -> Path:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_name(path.name + ".tmp")
        temporary.write_text(json.dumps(self.to_json(), indent=1) + "\n")
        temporary.replace(path)          # a reader never sees half a record
        self.path = path.resolve()
        return self.path

    @classmethod
    def load(cls, path: str | Path) -> "Record":
        path = Path(path)
        if not path.is_file():
            raise WorkbenchError(f"{path}: no such record",
                                 "make one with `workbench record SCRIPT.py --out REC.json`")
        try:
            data = json.loads(path.read_text())
        except json.JSONDecodeError as e:
            raise WorkbenchError(f"{path}:{e.lineno}: not JSON: {e.msg}", "fix the file")
        record = cls.from_json(data, str(path))
        record.path = path.resolve()
        return record

    def kept_values(self, launch: RecordedLaunch) -> tuple[dict, dict] | None:
        """(inputs, outputs) a launch kept (record_data.py), or None where it kept none."""
        if not launch.data:
            return None
        base = self.path.parent if self.path is not None else Path.cwd()
        return load_launch_data(base / launch.data)

    def kernels(self) -> dict[str, list[RecordedLaunch]]:
        """The launches of each kernel, by kernel key, in first-launch order."""
        out: dict[str, list[RecordedLaunch]] = {}
        for launch in self.launches:
            out.setdefault(launch.kernel.key, []).append(launch)
        return out

    def launches_of(self, launch: int | None) -> list[RecordedLaunch]:
        """Every launch of the kernel that launch `launch` ran (default: the only kernel)."""
        where = str(self.path or "the record")
        if not self.launches:
            raise WorkbenchError(f"{where}: no kernel launch was recorded",
                                 "the host code ran without calling ct.launch or a Triton "
                                 "kernel: call the function that launches it under record")
        kernels = self.kernels()
        if launch is None:
            if len(kernels) == 1:
                return next(iter(kernels.values()))
            listing = "; ".join(f"--launch {ls[0].index}: {ls[0].kernel.label()}"
                                for ls in kernels.values())
            raise WorkbenchError(f"{where} holds {len(kernels)} kernels", "pick one: " + listing)
        if not 0 <= launch < len(self.launches):
            raise WorkbenchError(f"{where} has no launch {launch}",
                                 f"launches are 0..{len(self.launches) - 1}")
        return kernels[self.launches[launch].kernel.key]

    def chains(self) -> list[tuple[int, int, str]]:
        """(earlier launch, later launch, buffer) where a launch reads what one before wrote."""
        written: dict[str, int] = {}
        out = []
        for launch in self.launches:
            for arg in launch.args:
                if arg.buffer and arg.role in (IN, INOUT) and arg.buffer in written:
                    out.append((written[arg.buffer], launch.index, arg.buffer))
            for arg in launch.args:
                if arg.buffer and arg.role in (OUT, INOUT):
                    written[arg.buffer] = launch.index
        return out

    def summary(self) -> str:
        lines = [f"{len(self.launches)} launch(es) of {len(self.kernels())} kernel(s), "
                 f"arrays on {self.device}" + (f", from {self.source}" if self.source else "")]
        lines += [f"  {launch.label()}" + ("" if launch.ran else "  (intercepted, not run)")
                  + (f"  values kept: {launch.data}" if launch.data else "")
                  for launch in self.launches]
        lines += [f"  launch {a} wrote {buf}, launch {b} reads it" for a, b, buf in self.chains()]
        lines += [f"  stopped: {p}" for p in self.problems]
        return "\n".join(lines)


_ARG_DEFAULTS = {"role": IN, "constant": False, "value": None, "range": None, "buffer": None,
                 "tolerance": None}


def _without_defaults(arg: dict) -> dict:
    """An argument as a user reads it in the JSON: only what is not the default."""
    return {k: v for k, v in arg.items() if k not in _ARG_DEFAULTS or v != _ARG_DEFAULTS[k]}


def _launch(index: int, item: dict) -> RecordedLaunch:
    kernel = RecordedKernel(**item["kernel"])
    args = [RecordedArg(**a) for a in item["args"]]
    return RecordedLaunch(index, kernel, tuple(int(g) for g in item["grid"]), args,
                          bool(item.get("ran", False)), dict(item.get("options", {})),
                          item.get("caller", ""), str(item.get("data", "")))


def kernel_source_file(kernel: RecordedKernel, folder: Path) -> Path:
    """The file the pipeline reads the kernel from: its own file for a kernel defined at the
    top of a module, else (one a factory made) a file written into `folder` that defines it
    at the top, with the values the factory closed over bound as module constants."""
    path = Path(kernel.file)
    if not path.is_file():
        raise WorkbenchError(f"{kernel.label()}: the kernel's source file is gone",
                             "record again where the source is")
    if not kernel.from_factory:
        return path
    return lift_factory_kernel(kernel, folder)


def recorded_stub(kernel: RecordedKernel, folder: Path, port: Path) -> Operator:
    """The Operator a check worker launches a port of `kernel` through (no cases: the
    record's launches are the cases there)."""
    path = kernel_source_file(kernel, folder)
    return Operator(name=kernel.name, summary=f"{kernel.label()} (recorded)",
                    kernel_name=kernel.name, outputs=(), tolerance={}, cases=(),
                    folder=folder, kernel_path=path, port_path=Path(port))
