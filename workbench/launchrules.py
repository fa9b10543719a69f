"""The language of launch rules: how a launcher (TileGym's, say) turns an operator's problem
into one kernel launch. A family's kernels_src/tilegym/<op>/launch.py writes, for each of its
entries, what that launcher computes: which tensor each kernel argument is (a view of the
problem's tensors, a scratch array, a scalar), the derived constants, the grid (persistent
grids from the SM count) and the hints it picks. No torch and no GPU: the same rule gives the
IR diff its cases and the GPU worker its launches.

    def launch(kernel, p, num_sm):
        x = p["x"]
        tile = next_power_of_2(x.shape[1])
        return Launch([view("y"), view("x")], {"N_ROWS": x.shape[0], "TILE_SIZE": tile},
                      grid=(min(num_sm * 4, x.shape[0]), 1, 1))
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

from .argspec import ALIGN_BYTES, SHAPE_DIVISOR, ArgSpec, parse_arg
from .errors import WorkbenchError

IN, OUT, INOUT = "in", "out", "inout"
TEMP = "temp"          # written by one launch of a chain, read by the next, not returned
ROLES = (IN, OUT, INOUT, TEMP)


def next_power_of_2(n: int) -> int:
    """The smallest power of two >= n (1 for n <= 1)."""
    return 1 if n <= 1 else 1 << (int(n) - 1).bit_length()


def cdiv(a: int, b: int) -> int:
    return -(-int(a) // int(b))


@dataclass(frozen=True)
class Tensor:
    """One tensor of a problem: its shape and dtype, its role, and how the GPU side fills it
    (`randn`, or a name the family's launch.py `fill` function knows, e.g. index arrays).
    A list of arrays (a kernel parameter cuTile Python takes as a list) has its `items`, one
    spec per array, and as `spec` the one list spec the JIT compiles for them (list_spec)."""
    name: str
    spec: ArgSpec
    role: str = IN
    fill: str = "randn"
    items: tuple[ArgSpec, ...] = ()

    @property
    def is_list(self) -> bool:
        return bool(self.items)

    @property
    def shape(self) -> tuple[int, ...]:
        return self.spec.shape

    @property
    def dtype(self) -> str:
        return self.spec.dtype

    def numel(self) -> int:
        if self.items:
            return sum(math.prod(item.shape) for item in self.items)
        return math.prod(self.spec.shape)

    def label(self) -> str:
        return "[" + ", ".join(map(str, self.items)) + "]" if self.items else str(self.spec)


def list_tensor(name: str, items, role: str = IN, fill: str = "randn") -> Tensor:
    """A problem's list of arrays (`items`: ArgSpecs or their text), its spec the JIT's."""
    specs = tuple(parse_arg(i) if isinstance(i, str) else i for i in items)
    return Tensor(name, list_spec(specs, name), role, fill, specs)


def list_spec(items: tuple[ArgSpec, ...], name: str = "list") -> ArgSpec:
    """The one spec cuTile Python's JIT compiles a list of arrays for: a list carries one
    array constraint for every item (cuda.tile's ListConstraint), so a fact holds of the list
    only where it holds of each item. Per dim, the spec takes the first item whose extent (or
    stride, or base offset) breaks a divisibility fact, else the first item's value; a stride
    is the constant 1 only where every item's is."""
    if not items or any(not i.is_array or i.is_list for i in items):
        raise WorkbenchError(f"{name}: a list needs one or more arrays",
                             'write a TOML list of array specs: ["f16[256,128]", ...]')
    first = items[0]
    if any(i.dtype != first.dtype or len(i.shape) != len(first.shape) for i in items):
        raise WorkbenchError(f"{name}: the items of a list share one dtype and rank "
                             "(cuTile Python refuses a list whose arrays vary in either)",
                             "give every item the same dtype and rank")
    per_align = max(1, ALIGN_BYTES // first.itemsize)

    def weakest(values, divisor):
        return next((v for v in values if v % divisor), values[0])

    rank = len(first.shape)
    shape = tuple(weakest([i.shape[d] for i in items], SHAPE_DIVISOR) for d in range(rank))
    strides = []
    for d in range(rank):
        column = [i.effective_strides()[d] for i in items]
        if all(s == 1 for s in column):
            strides.append(1)
        else:
            strides.append(weakest([s for s in column if s != 1], per_align))
    offset = weakest([i.offset for i in items], per_align)
    return ArgSpec(first.dtype, shape=shape, strides=tuple(strides), offset=offset, is_list=True,
                   length=len(items))


@dataclass(frozen=True)
class Problem:
    """An operator's case: its named tensors and its options (eps, a tile choice, ...)."""
    tensors: dict[str, Tensor]
    options: dict = field(default_factory=dict)
    note: str = ""

    def __getitem__(self, name: str) -> Tensor:
        if name not in self.tensors:
            raise WorkbenchError(f"the problem has no tensor {name!r}",
                                 "tensors: " + ", ".join(self.tensors))
        return self.tensors[name]

    def option(self, name: str, default=None):
        return self.options.get(name, default)

    @property
    def dtype(self) -> str:
        """The dtype the tolerance is chosen by: the first input's."""
        return next(t.dtype for t in self.tensors.values() if t.role != OUT)

    def outputs(self) -> list[str]:
        return [n for n, t in self.tensors.items() if t.role in (OUT, INOUT)]


@dataclass(frozen=True)
class Bind:
    """One runtime argument of a kernel: a problem tensor (viewed with `shape`), a scratch
    array the launcher allocates, or a scalar."""
    spec: ArgSpec
    source: str | None = None      # the problem tensor; None: scratch or scalar

    @property
    def is_scratch(self) -> bool:
        return self.source is None and self.spec.is_array


@dataclass(frozen=True)
class Launch:
    args: tuple[Bind, ...]
    consts: dict
    grid: tuple[int, int, int]
    hints: dict = field(default_factory=dict)   # what the launcher replaces: occupancy, ...
    # what the launcher's autotuner tries (each a whole launch: the grid may follow a hint);
    # the GPU run times them on the TileGym side and launches every side with the fastest
    candidates: tuple["Launch", ...] = ()

    def __post_init__(self):
        object.__setattr__(self, "args", tuple(self.args))
        object.__setattr__(self, "candidates", tuple(self.candidates))
        grid = tuple(int(g) for g in self.grid) + (1,) * (3 - len(self.grid))
        if any(g < 1 for g in grid):
            raise WorkbenchError(f"launch grid {grid} has an empty dimension",
                                 "fix the family's launch rule")
        object.__setattr__(self, "grid", grid)


class Rules:
    """What launch.py hands out: `view`, `scratch` and `scalar` bound to one problem."""

    def __init__(self, problem: Problem):
        self.problem = problem

    def view(self, name: str, shape: tuple[int, ...] | None = None) -> Bind:
        """Problem tensor `name`, or a contiguous reshape of it (`x.view(-1, n)`)."""
        tensor = self.problem[name]
        if tensor.is_list:
            if shape is not None:
                raise WorkbenchError(f"{name} is a list of arrays: a view cannot reshape it",
                                     "bind the list as it is: r.view(name)")
            return Bind(tensor.spec, source=name)
        shape = tuple(shape) if shape is not None else tensor.shape
        if math.prod(shape) != tensor.numel():
            raise WorkbenchError(f"a view of {name} {tensor.shape} as {shape} changes its size",
                                 "fix the family's launch rule")
        return Bind(replace(tensor.spec, shape=shape, strides=None), source=name)


def scratch(dtype: str, shape: tuple[int, ...]) -> Bind:
    """An array the launcher allocates for the kernel and the operator does not return."""
    return Bind(ArgSpec(dtype, shape=tuple(shape)))


def scalar(dtype: str, value) -> Bind:
    return Bind(ArgSpec(dtype, value=value))


def problem_from_toml(raw: dict, outputs, where: str) -> Problem:
    """A catalog case `{inputs = {x = "f16[8,64]"}, options = {...}, note = ".."}` with the
    outputs the family's `outputs(problem)` derives. An input written as a TOML list of
    array specs (`As = ["f16[256,128]", "f16[128,128]"]`) is a list of arrays."""
    try:
        inputs = {name: list_tensor(name, text) if isinstance(text, list)
                  else Tensor(name, parse_arg(text)) for name, text in raw["inputs"].items()}
    except (KeyError, AttributeError) as e:
        raise WorkbenchError(f"{where}: a case needs `inputs = {{NAME = \"DTYPE[SHAPE]\"}}` ({e})",
                             "see the comment at the top of kernels_src/tilegym/catalog.toml")
    problem = Problem(inputs, dict(raw.get("options", {})), raw.get("note", ""))
    derived = outputs(problem) or {}
    tensors = dict(inputs)
    for name, value in derived.items():
        tensors[name] = value if isinstance(value, Tensor) else Tensor(name, value, OUT)
    return replace(problem, tensors=tensors)
