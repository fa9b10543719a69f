"""A port's `port.toml`: how a catalog case maps onto the Rust entry and what the C ABI
accepts. One place, read by the IR emitter and by the launcher's argument checks.

    module = "softmax_port"                # the #[cutile::module]
    entry = "softmax"                      # the #[cutile::entry] fn
    generics = ["dtype(x)", "TILE_COLS"]   # in declaration order: a tensor's dtype or a constant
                                           # (int(FLAG): a bool constant as an i32 generic, 0/1;
                                           # bits(EPS): a float constant as its f32 bits, i32;
                                           # divides(x.shape[0]): true where the JIT states
                                           # that divisibility of x, of every item of a list)
    [tensors.x]                            # one table per array parameter, Python names
    rank = 2
    dtypes = ["f32", "f16", "bf16"]
    unit_stride = [1]                      # dims whose stride must be 1
    [entries]                              # optional: one entry per constant specialization
    "DOUBLE=1" = "scale_rows_double_1"     # "NAME=V[,NAME=V]": the case's constants -> entry

A case's entry is `entry_for(case)`: the first [entries] key whose constants all equal the
case's, else `entry`; `{dtype(x)}` in it is the dtype of x (one entry per dtype, where
cutile 0.4 needs a concrete element type).

Ports of installed kernels (TileGym's) also say:

    raw = ["output", "input"]              # arrays the entry takes as cuTile Python's entry
                                           # does: pointer NAME, then NAME_shape0.., NAME_stride0..
    launch = true                          # the C call carries grid and hints (wb_ffi raw.rs)

A port whose launch applies the caller's compile options (`.compile_options(call.options())`,
wb_ffi call.rs) says so; the C call may then carry four hint words after its constants
(occupancy, num_ctas, num_worker_warps, program), which is what `workbench tune` sweeps:

    hints = true
    programs = ["softmax_row_gather"]      # optional: other tile programs of the operator,
                                           # entries of the module; program n > 0 runs the
                                           # n-th (lib.rs matches `Call::program`), 0 `entry`

A list of arrays (a kernel parameter cuTile Python takes as a list, TileGym's group GEMM) is
a tensor table with `list = true`; its other keys hold for every item:

    [tensors.As]
    list = true                            # the entry takes `As: *mut i64, As_len: i32`: the
    rank = 2                               # device table of the items (one row of
    dtypes = ["f16", "bf16"]               # 1 + 2 * rank i64 words each: base address,
    unit_stride = [1]                      # extents, strides in elements, the layout cuTile
    div_by = ["base 16", "shape[0] 16"]    # Python's list view reads) and its length.

The C call passes a list as its items' descriptors, in order, after the plain tensors and
lists before it, and its length as a scalar (rust/ffi.py); wb_ffi checks every item against
the table (naming `As[2]`) and builds the device table itself (kernels_src/wb_ffi/src/lists.rs).

Drafted ports that take their launch say it too (workbench/port/rules/launch_form.py). A
drafted port also says which outputs it takes as partitions (the others are plain tensors);
the IR diff names the entry's arguments by it:

    launch = true
    partitions = ["Rstd"]
"""
from __future__ import annotations

import re
import struct
import tomllib
from dataclasses import dataclass

from ..operators import Case, Operator
from ..errors import WorkbenchError
from ..ir.signature import divisibility


@dataclass(frozen=True)
class TensorRule:
    rank: int
    dtypes: tuple[str, ...]
    unit_stride: tuple[int, ...]
    is_list: bool = False             # a list of arrays, each as the rule says


@dataclass(frozen=True)
class PortManifest:
    module: str
    entry: str
    generics: tuple[str, ...]
    tensors: dict[str, TensorRule]
    entries: tuple[tuple[tuple[tuple[str, str], ...], str], ...] = ()   # ((NAME, V)..), entry
    raw: tuple[str, ...] = ()         # arrays passed as pointer, extents, strides
    launch: bool = False              # the call carries the launch rule's grid and hints
    hints: bool = False               # the call may carry hints after its constants
    programs: tuple[str, ...] = ()    # other tile programs of the op (entries) tune may choose

    def launched_entry(self, case: Case, params: list[str] | tuple = ()) -> str:
        """The entry a launch of `case` runs: its `program` hint's (1 = `programs[0]`), else
        `entry_for(case)`."""
        program = int(case.hints.get("program", 0))
        if not 0 <= program <= len(self.programs):
            raise WorkbenchError(
                f"{self.module} (port.toml): program {program}: the port has "
                f"{len(self.programs)} other tile program(s) ({', '.join(self.programs) or 'none'})",
                "choose 0 (the entry) or one of port.toml's `programs` (1 is the first); a "
                "tuned.toml entry that names another was written for another version of the port")
        return self.programs[program - 1] if program else self.entry_for(case, params)

    def entry_for(self, case: Case, params: list[str] | tuple = ()) -> str:
        """The entry compiled for `case`: its [entries] match, else `entry`. A key may name
        an array's dtype, `dtype(x)=f16` (an entry per dtype); it needs the kernel's
        parameter names, `params`, to find the array among the case's arguments. In the
        chosen name, `{dtype(x)}` is replaced by x's dtype."""
        runtime = _runtime_args(list(params), case) if params else {}
        chosen = self.entry
        for assignment, entry in self.entries:
            if all(_matches(name, value, case, runtime) for name, value in assignment):
                chosen = entry
                break
        if "{dtype(" in chosen and runtime:
            chosen = re.sub(r"\{dtype\((\w+)\)\}", lambda m: runtime[m[1]].dtype, chosen)
        return chosen

    def constant_roles(self, constants: list[str], branches: list[str] = ()) -> list[str]:
        """How the port takes each ct.Constant, and why (the JIT -> AOT view): cuTile
        Python compiles each value on demand; a port declares what it serves."""
        split = {name for assignment, _ in self.entries for name, _ in assignment}
        roles = []
        for name in constants:
            if name in split:
                why = "an `if` tests it" if name in branches else \
                    "a use needs its value when the port is drafted"
                roles.append(f"{name}: one entry per value ({why})")
            elif name in self.generics:
                roles.append(f"{name}: const generic: one entry serves every value (cutile "
                             "specializes it at each launch's compile, as the JIT does)")
            elif f"bits({name})" in self.generics:
                roles.append(f"{name}: const generic of its f32 bits (const generics are "
                             "integers): one entry serves every value")
            elif f"int({name})" in self.generics:
                roles.append(f"{name}: const generic 0/1: one entry serves both values")
            else:
                roles.append(f"{name}: not taken by the port")
        return roles

    def lists(self) -> tuple[str, ...]:
        """The parameters the entry takes as lists of arrays, in order."""
        return tuple(name for name, rule in self.tensors.items() if rule.is_list)

    def generic_values(self, params: list[str], case: Case) -> list[str]:
        runtime = _runtime_args(params, case)
        values = []
        for item in self.generics:
            match = re.fullmatch(r"dtype\((\w+)\)", item)
            as_int = re.fullmatch(r"int\((\w+)\)", item)
            as_bits = re.fullmatch(r"bits\((\w+)\)", item)
            divides = DIVIDES.fullmatch(item)
            if divides:
                values.append(str(divisible(runtime[divides[1]], divides[2])).lower())
            elif match:          # cutile's element type names differ from argspec's for fp8
                dtype = runtime[match[1]].dtype
                values.append(CUTILE_NAMES.get(dtype, dtype))
            elif as_bits and as_bits[1] in case.consts:
                values.append(str(f32_bits(case.consts[as_bits[1]])))
            elif as_int and as_int[1] in case.consts:
                values.append(str(int(case.consts[as_int[1]])))
            elif item in case.consts:
                value = case.consts[item]
                values.append(str(value).lower() if isinstance(value, bool) else str(value))
            else:
                raise WorkbenchError(f"port.toml: generic {item!r} is neither dtype(param) nor "
                                     "a constant of the case", "fix the port's port.toml")
        return values


def f32_bits(value: float) -> int:
    """A float constant's f32 bit pattern as the i32 a `bits(NAME)` generic takes."""
    return struct.unpack("<i", struct.pack("<f", float(value)))[0]


CUTILE_NAMES = {"f8e4m3": "f8e4m3fn"}
# `divides(As.shape[0])`: a bool generic, true where the JIT states the subject's divisibility
# for the case's argument (a list: of every item); the port's launcher derives the same
DIVIDES = re.compile(r"divides\((\w+)\.(base|shape\[\d\]|stride\[\d\])\)")


def divisible(spec, subject: str) -> bool:
    return divisibility(spec)[subject] > 1


def _matches(name: str, value: str, case: Case, runtime: dict) -> bool:
    dtype_of = re.fullmatch(r"dtype\((\w+)\)", name)
    if dtype_of:
        arg = runtime.get(dtype_of[1])
        return arg is not None and arg.dtype == value
    return name in case.consts and str(case.consts[name]) == value


def _runtime_args(params: list[str], case: Case) -> dict:
    names = [p for p in params if p not in case.consts]
    return dict(zip(names, case.args))


def _assignment(key: str) -> tuple[tuple[str, str], ...]:
    """`"A=1,B=2"` -> (("A", "1"), ("B", "2"))."""
    out = []
    for part in key.split(","):
        name, sep, value = part.partition("=")
        if not sep or not name.strip() or not value.strip():
            raise ValueError(f"[entries] key {key!r} is not NAME=VALUE[,NAME=VALUE]")
        out.append((name.strip(), value.strip()))
    return tuple(out)


def load_manifest(op: Operator) -> PortManifest:
    path = op.port_folder / "port.toml"
    try:
        raw = tomllib.loads(path.read_text())
        tensors = {name: TensorRule(int(t["rank"]), tuple(t["dtypes"]),
                                    tuple(t.get("unit_stride", ())), bool(t.get("list", False)))
                   for name, t in raw.get("tensors", {}).items()}
        entries = tuple((_assignment(key), str(entry))
                        for key, entry in raw.get("entries", {}).items())
        manifest = PortManifest(raw["module"], raw["entry"], tuple(raw["generics"]), tensors,
                                entries, tuple(raw.get("raw", ())),
                                bool(raw.get("launch", False)), bool(raw.get("hints", False)),
                                tuple(str(p) for p in raw.get("programs", ())))
        if manifest.programs and not manifest.hints:
            raise ValueError("`programs` are chosen by the hint words: say `hints = true`")
        return manifest
    except FileNotFoundError:
        raise WorkbenchError(f"{path}: missing", "every port has a port.toml (see manifest.py)")
    except (KeyError, ValueError, tomllib.TOMLDecodeError) as e:
        raise WorkbenchError(f"{path}: malformed: {e}", "see workbench/rust/manifest.py")
