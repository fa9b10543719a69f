"""What a cuTile Python kernel is made of, read from its source (no import, no GPU): the
facts the rule-based drafter (`rules/`) needs to write a cuTile Rust port.

    spec = analyze(source, "kernels_src/softmax/kernel.py", "softmax", list(op.cases))
    spec.to_json()   # schema "workbench.kernelspec/1"

From the AST: the parameters (arrays, runtime scalars, `ct.Constant`s), every tile access
(loads, stores, num_tiles) with its index and tile shape, the `ct.*` operations used (with
their source lines), `if` statements whose condition reads a constant, `for` loops, and the
outputs (arrays passed to `ct.store`). From the cases: each array's dtype and rank, each
scalar's dtype, and the specializations (dtypes, constant values) the cases need.
"""
from __future__ import annotations

import ast
import json
from dataclasses import asdict, dataclass, field

from ..operators import Case
from ..sources.module import call_argument

SCHEMA = "workbench.kernelspec/1"

ARRAY, SCALAR, CONSTANT = "array", "scalar", "constant"


@dataclass
class ParamSpec:
    name: str
    kind: str                           # "array" | "scalar" | "constant"
    dtypes: list[str] = field(default_factory=list)   # arrays/scalars: distinct dtypes, case order
    rank: int | None = None             # arrays
    values: list = field(default_factory=list)         # constants: the value per case
    line: int = 0


@dataclass
class TileAccess:
    line: int
    kind: str                           # "load" | "store" | "num_tiles"
    array: str
    index: list[str]                    # source text of each index expression
    shape: list[str]                    # loads, num_tiles: the tile shape (constant names or
                                        # integer literals); stores: [] (the stored value's
                                        # shape is the drafter's inference: rules.store_shapes)
    padding: str | None = None          # "ZERO", "NEG_INF", ... (loads); None when not given
    axis: int | None = None             # num_tiles


@dataclass
class OpUse:
    line: int
    name: str                           # "ct.load", "ct.exp", "+", "for", ...


@dataclass
class ConstBranch:
    line: int
    condition: str
    constants: list[str]


@dataclass
class LoopSpec:
    line: int
    var: str
    bound: str                          # source text of range(...)'s argument(s)


@dataclass
class Specialization:
    case: int
    dtypes: dict[str, str]              # array/scalar name -> dtype
    constants: dict[str, object]
    scalars: dict[str, object]          # runtime scalar values of the case
    # array name -> the dims but the last whose stride is 1 in the case (cutile makes each
    # such stride static in the tensor view: specialization.rs `stride_one`)
    unit_strides: dict[str, list[int]] = field(default_factory=dict)


@dataclass
class KernelSpec:
    kernel_name: str
    filename: str
    params: list[ParamSpec]
    tile_accesses: list[TileAccess]
    operations: list[OpUse]
    const_branches: list[ConstBranch]
    loops: list[LoopSpec]
    outputs: list[str]
    specializations: list[Specialization]
    line: int = 0                       # the `def` line
    problems: list[dict] = field(default_factory=list)   # {"line", "construct", "message"}
    hints: dict[str, int] = field(default_factory=dict)  # @ct.kernel(...) as Tile IR hints
    target_hints: dict[str, dict] = field(default_factory=dict)  # ct.ByTarget: gpu -> hints
    schema: str = SCHEMA

    # ---- views
    def param(self, name: str) -> ParamSpec | None:
        return next((p for p in self.params if p.name == name), None)

    @property
    def arrays(self) -> list[ParamSpec]:
        return [p for p in self.params if p.kind == ARRAY]

    @property
    def scalars(self) -> list[ParamSpec]:
        return [p for p in self.params if p.kind == SCALAR]

    @property
    def constants(self) -> list[ParamSpec]:
        return [p for p in self.params if p.kind == CONSTANT]

    @property
    def tile_shapes(self) -> list[list[str]]:
        seen = []
        for access in self.tile_accesses:
            if access.shape not in seen:
                seen.append(access.shape)
        return seen

    def operation_names(self) -> set[str]:
        return {o.name for o in self.operations}

    # ---- JSON
    def to_json(self) -> dict:
        data = asdict(self)
        return {"schema": data.pop("schema"), **data}

    def dumps(self) -> str:
        return json.dumps(self.to_json(), indent=2)

    @classmethod
    def from_json(cls, data: dict | str) -> "KernelSpec":
        if isinstance(data, str):
            data = json.loads(data)
        if data.get("schema") != SCHEMA:
            raise ValueError(f"not a {SCHEMA} document: schema {data.get('schema')!r}")
        return cls(
            kernel_name=data["kernel_name"], filename=data["filename"],
            params=[ParamSpec(**p) for p in data["params"]],
            tile_accesses=[TileAccess(**t) for t in data["tile_accesses"]],
            operations=[OpUse(**o) for o in data["operations"]],
            const_branches=[ConstBranch(**b) for b in data["const_branches"]],
            loops=[LoopSpec(**lp) for lp in data["loops"]],
            outputs=list(data["outputs"]),
            specializations=[Specialization(**s) for s in data["specializations"]],
            line=data.get("line", 0), problems=list(data.get("problems", [])),
            hints=dict(data.get("hints", {})),
            target_hints=dict(data.get("target_hints", {})),
            schema=data["schema"])


# ------------------------------------------------------------------------------ analysis

def ct_name(node: ast.AST) -> str | None:
    """`ct.exp` / `ct.PaddingMode.ZERO` -> "exp" / "PaddingMode.ZERO"; None if not ct.*."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name) and node.id in ("ct", "cuda.tile") and parts:
        return ".".join(reversed(parts))
    return None


def is_constant_annotation(annotation: ast.AST | None, aliases: frozenset = frozenset()) -> bool:
    """`ct.Constant[int]`, `ct.Constant`, or a module-level alias of one (`ConstInt`)."""
    if annotation is None:
        return False
    if isinstance(annotation, ast.Name):
        return annotation.id in aliases
    target = annotation.value if isinstance(annotation, ast.Subscript) else annotation
    return ct_name(target) == "Constant"


def constant_aliases(tree: ast.Module) -> frozenset:
    """Module-level names bound to a constant annotation: `ConstInt = ct.Constant[int]`."""
    return frozenset(node.targets[0].id for node in tree.body
                     if isinstance(node, ast.Assign) and len(node.targets) == 1
                     and isinstance(node.targets[0], ast.Name)
                     and is_constant_annotation(node.value))


# `@ct.kernel(...)` options -> the Tile IR entry hints both front ends write
HINT_NAMES = {"occupancy": "occupancy", "num_worker_warps": "num_worker_warps_per_cta",
              "num_ctas": "num_cta_in_cga"}


def module_ints(tree: ast.Module) -> dict[str, int]:
    """Module-level names bound to an integer literal (`_DEFAULT_OCCUPANCY = 2`)."""
    out = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 \
                and isinstance(node.targets[0], ast.Name):
            value = node.value
            if isinstance(value, ast.Constant) and type(value.value) is int:
                out[node.targets[0].id] = value.value
            else:
                out.pop(node.targets[0].id, None)
    return out


def hint_value(node: ast.AST, ints: dict[str, int]) -> int | dict[str, int] | None:
    """An integer hint, a per-GPU `ct.ByTarget(sm_90=.., default=..)` as {gpu: value}, or
    None when it is neither."""
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    if isinstance(node, ast.Name) and node.id in ints:
        return ints[node.id]
    if isinstance(node, ast.Call) and ct_name(node.func) == "ByTarget" and not node.args:
        per_gpu = {kw.arg: hint_value(kw.value, ints) for kw in node.keywords}
        if all(isinstance(v, int) for v in per_gpu.values()) and None not in per_gpu:
            return per_gpu
    return None


def kernel_hints(fn: ast.FunctionDef, problems: list[dict],
                 ints: dict[str, int] | None = None) -> tuple[dict[str, int], dict[str, dict]]:
    """The optimization hints of the kernel's decorator: integers (also module constants)
    for every GPU, and per-GPU values from `ct.ByTarget` as {gpu or "default": {hint: v}}."""
    hints, targets = {}, {}
    for decorator in fn.decorator_list:
        if not (isinstance(decorator, ast.Call) and ct_name(decorator.func) == "kernel"):
            continue
        for kw in decorator.keywords:
            if kw.arg not in HINT_NAMES:
                continue              # opt_level is a tileiras flag, not in the Tile IR
            value = hint_value(kw.value, ints or {})
            if isinstance(value, int):
                hints[HINT_NAMES[kw.arg]] = value
            elif isinstance(value, dict):
                for gpu, v in value.items():
                    targets.setdefault(gpu, {})[HINT_NAMES[kw.arg]] = v
            else:
                problems.append({"line": decorator.lineno, "construct": f"ct.kernel({kw.arg}=..)",
                                 "message": f"`{ast.unparse(kw.value)}` is not an integer: "
                                            "write the hint per GPU in the port by hand"})
    return hints, targets


def find_kernel(tree: ast.Module, kernel_name: str) -> ast.FunctionDef | None:
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name == kernel_name:
            return node
    return None


def shape_items(node: ast.AST) -> list[str]:
    items = node.elts if isinstance(node, (ast.Tuple, ast.List)) else [node]
    return [ast.unparse(e) for e in items]


def analyze(source: str, filename: str, kernel_name: str, cases: list[Case]) -> KernelSpec:
    tree = ast.parse(source, filename)
    fn = find_kernel(tree, kernel_name)
    if fn is None:
        raise ValueError(f"{filename}: no function named {kernel_name!r}")
    problems = []

    # parameters: constants from the annotation; the rest are runtime, typed by the cases
    names = [a.arg for a in fn.args.args]
    aliases = constant_aliases(tree)
    const_names = [a.arg for a in fn.args.args if is_constant_annotation(a.annotation, aliases)]
    runtime = [n for n in names if n not in const_names]
    lines = {a.arg: a.lineno for a in fn.args.args}
    params: list[ParamSpec] = []
    specs: list[Specialization] = []
    kinds: dict[str, str] = {n: CONSTANT for n in const_names}
    for case in cases:
        if len(case.args) != len(runtime):
            problems.append({"line": fn.lineno, "construct": "case",
                             "message": f"case {case.index} gives {len(case.args)} args for "
                                        f"{len(runtime)} runtime parameters"})
            continue
        for name, arg in zip(runtime, case.args):
            kind = ARRAY if arg.is_array else SCALAR
            if kinds.setdefault(name, kind) != kind:
                problems.append({"line": lines[name], "construct": "parameter",
                                 "message": f"{name} is an array in one case, a scalar in another"})
    for name in names:
        kind = kinds.get(name, SCALAR)
        p = ParamSpec(name=name, kind=kind, line=lines[name])
        if kind == CONSTANT:
            p.values = [case.consts.get(name) for case in cases]
        params.append(p)
    by_name = {p.name: p for p in params}
    listed: set[str] = set()
    for case in cases:
        dtypes, scalars, units = {}, {}, {}
        if len(case.args) == len(runtime):
            for name, arg in zip(runtime, case.args):
                p = by_name[name]
                if arg.dtype not in p.dtypes:
                    p.dtypes.append(arg.dtype)
                dtypes[name] = arg.dtype
                if getattr(arg, "is_list", False) and name not in listed:
                    listed.add(name)
                    problems.append({"line": p.line, "construct": "parameter", "message":
                                     f"{name} is a list of arrays: a cutile 0.5.0 entry takes "
                                     "tensors, pointers and scalars only (cuda-async "
                                     "device_context.rs ValidParamType), no list of tensors"})
                if arg.is_array:
                    strides = arg.effective_strides()
                    units[name] = [d for d, st in enumerate(strides[:-1]) if st == 1]
                    if p.rank is None:
                        p.rank = len(arg.shape)
                    elif p.rank != len(arg.shape):
                        problems.append({"line": p.line, "construct": "parameter",
                                         "message": f"{name} has rank {p.rank} and "
                                                    f"{len(arg.shape)} in different cases"})
                else:
                    scalars[name] = arg.value
        specs.append(Specialization(case=case.index, dtypes=dtypes,
                                    constants={n: case.consts.get(n) for n in const_names},
                                    scalars=scalars, unit_strides=units))

    accesses, ops, branches, loops, outputs = [], [], [], [], []
    for node in ast.walk(fn):
        if isinstance(node, ast.Call):
            name = ct_name(node.func)
            if name is None:
                if isinstance(node.func, ast.Name):
                    ops.append(OpUse(node.lineno, node.func.id))
                continue
            ops.append(OpUse(node.lineno, f"ct.{name}"))
            if name in ("load", "store"):
                array = node.args[0] if node.args else call_argument(node, "array")
                index = call_argument(node, "index", 1)
                access = TileAccess(line=node.lineno, kind=name,
                                    array=ast.unparse(array) if array is not None else "?",
                                    index=shape_items(index) if index is not None else [],
                                    shape=[])
                if name == "load":
                    shape = call_argument(node, "shape", 2)
                    access.shape = shape_items(shape) if shape is not None else []
                    padding = call_argument(node, "padding_mode")
                    if padding is not None:
                        pname = ct_name(padding) or ast.unparse(padding)
                        access.padding = pname.split(".")[-1]
                else:
                    if isinstance(array, ast.Name) and array.id not in outputs:
                        outputs.append(array.id)
                accesses.append(access)
            elif name == "num_tiles":
                array = node.args[0] if node.args else call_argument(node, "array")
                axis = call_argument(node, "axis", 1)
                shape = call_argument(node, "shape", 2)
                accesses.append(TileAccess(
                    line=node.lineno, kind="num_tiles",
                    array=ast.unparse(array) if array is not None else "?", index=[],
                    shape=shape_items(shape) if shape is not None else [],
                    axis=axis.value if isinstance(axis, ast.Constant) else None))
        elif isinstance(node, ast.BinOp):
            ops.append(OpUse(node.lineno, type(node.op).__name__))
        elif isinstance(node, ast.UnaryOp):
            ops.append(OpUse(node.lineno, type(node.op).__name__))
        elif isinstance(node, ast.Compare):
            ops.extend(OpUse(node.lineno, type(o).__name__) for o in node.ops)
        elif isinstance(node, (ast.If, ast.IfExp)):
            used = sorted({n.id for n in ast.walk(node.test)
                           if isinstance(n, ast.Name) and n.id in const_names})
            ops.append(OpUse(node.lineno, "if"))
            if used:
                branches.append(ConstBranch(node.lineno, ast.unparse(node.test), used))
        elif isinstance(node, ast.For):
            ops.append(OpUse(node.lineno, "for"))
            bound = ""
            if isinstance(node.iter, ast.Call):
                bound = ", ".join(ast.unparse(a) for a in node.iter.args)
            loops.append(LoopSpec(node.lineno, ast.unparse(node.target), bound))
        elif isinstance(node, ast.While):
            ops.append(OpUse(node.lineno, "while"))
    ops.sort(key=lambda o: o.line)
    accesses.sort(key=lambda a: a.line)
    hints, target_hints = kernel_hints(fn, problems, module_ints(tree))
    return KernelSpec(kernel_name=kernel_name, filename=filename, params=params,
                      tile_accesses=accesses, operations=ops, const_branches=branches,
                      loops=loops, outputs=outputs, specializations=specs, line=fn.lineno,
                      problems=problems, hints=hints, target_hints=target_hints)
