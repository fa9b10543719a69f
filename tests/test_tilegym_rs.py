"""The fourth side of the TileGym GPU run, TileGym's own cutile-rs ports
(workbench/check/tilegym_rs.py), held to what TileGym installs: the descriptor layout of its
ffi_util.rs, the C signatures of its wrappers' _FFI_CDEF text (read as text: importing tilegym
would import torch), and the reports with and without the side. No GPU needed."""
from __future__ import annotations

import ctypes
import importlib.util
import re
import sysconfig
from pathlib import Path

import pytest

from workbench.catalog import REPO_ROOT, get_family
from workbench.check import tilegym_rs
from workbench.tilegym_catalog import family_rules

TREE = Path(sysconfig.get_paths()["purelib"]) / "tilegym" / "ops" / "cutile_rs"
pytestmark = pytest.mark.skipif(not (TREE / "ffi_util.rs").exists(),
                                reason=f"TileGym 1.5.1 is not installed ({TREE}): scripts/setup")
LIBRARY = REPO_ROOT / "kernels_src" / ".build" / "tilegym-rs" / "libcutile_kernels.so"
WRAPPERS = {"cutile_matmul": "matmul.py", "cutile_bmm": "bmm.py",
            "cutile_silu_and_mul": "silu_and_mul.py", "cutile_swiglu": "swiglu.py",
            "cutile_attention_sink": "attention_sink.py"}
# their C parameter name -> the catalog's tensor where the two differ
CATALOG_NAMES = {"cutile_silu_and_mul": {"out": "y", "inp": "x"}}


# -- what TileGym installs, parsed -----------------------------------------------------------

RUST_SCALARS = {"u64": (8, ctypes.c_uint64), "i64": (8, ctypes.c_int64),
                "i32": (4, ctypes.c_int32)}


def rust_tensor_desc() -> list[tuple[str, int, int]]:
    """(field, offset, size) of ffi_util.rs's #[repr(C)] TensorDesc, laid out by C's rules,
    and the struct's size as a last ("", size, 0)."""
    text = (TREE / "ffi_util.rs").read_text()
    dims = int(re.search(r"pub const MAX_DIMS: usize = (\d+);", text).group(1))
    body = re.search(r"#\[repr\(C\)\]\s*pub struct TensorDesc \{(.*?)\n\}", text, re.S).group(1)
    fields, offset, widest = [], 0, 1
    for name, kind in re.findall(r"pub (\w+): ([^,\n]+),", body):
        array = re.fullmatch(r"\[(\w+); MAX_DIMS\]", kind.strip())
        element = array.group(1) if array else kind.strip()
        size = RUST_SCALARS[element][0]
        offset = -(-offset // size) * size
        total = size * (dims if array else 1)
        fields.append((name, offset, total))
        offset, widest = offset + total, max(widest, size)
    return fields + [("", -(-offset // widest) * widest, 0)]


C_TYPES = {"const TensorDesc*": ctypes.POINTER(tilegym_rs.TensorDesc), "int32_t": ctypes.c_int32,
           "uint64_t": ctypes.c_uint64, "float": ctypes.c_float}


def cdef_parameters(wrapper: str) -> tuple[str, list[tuple[str, str]]]:
    """(symbol, [(C type, name), ...]) from the wrapper's _FFI_CDEF string."""
    text = (TREE / wrapper).read_text()
    cdef = re.search(r'_FFI_CDEF = """(.*?)"""', text, re.S).group(1)
    symbol, params = re.search(r"int32_t (\w+)\((.*?)\);", cdef, re.S).groups()
    parsed = []
    for param in params.split(","):
        kind, name = param.strip().rsplit(" ", 1) if "*" not in param else \
            (param.strip().rsplit("*", 1)[0].strip() + "*", param.strip().rsplit("*", 1)[1].strip())
        parsed.append((" ".join(kind.split()), name))
    return symbol, parsed


# -- a torch-shaped stand-in (no torch on this machine) ------------------------------------

class FakeTensor:
    NAMES = {"bf16": "bfloat16", "f16": "float16", "f32": "float32", "i32": "int32"}

    def __init__(self, name: str, shape, dtype: str, address: int = 0x10000):
        self.name, self.shape, self.address = name, tuple(shape), address
        self.dtype = f"torch.{self.NAMES.get(dtype, dtype)}"
        self.device = type("device", (), {"index": 0})()

    def dim(self) -> int:
        return len(self.shape)

    def stride(self) -> tuple[int, ...]:
        strides, step = [], 1
        for extent in reversed(self.shape):
            strides.append(step)
            step *= extent
        return tuple(reversed(strides))

    def data_ptr(self) -> int:
        return self.address

    def view(self, shape) -> "FakeTensor":
        return FakeTensor(self.name, shape, self.dtype.removeprefix("torch."), self.address)


def case_tensors(rules, index: int) -> dict:
    problem = rules.problem(index)
    return {name: FakeTensor(name, t.shape, t.dtype, 0x10000 * (i + 1))
            for i, (name, t) in enumerate(problem.tensors.items())}


def every_launch():
    """(symbol's family, entry, case index, launch, tensors) of every case of the five."""
    for family in tilegym_rs.ADAPTERS:
        rules = family_rules(family)
        for op in get_family(family).entries:
            for index in range(len(rules.problems)):
                launch = rules.launch(op.name, index, 132)
                if launch is not None:
                    yield family, op, index, launch, case_tensors(rules, index)


# -- the tests ----------------------------------------------------------------------------

def test_the_ctypes_descriptor_has_the_layout_of_tilegyms_rust_struct():
    parsed = rust_tensor_desc()
    assert [(name, getattr(tilegym_rs.TensorDesc, name).offset,
             getattr(tilegym_rs.TensorDesc, name).size) for name, _, _ in parsed[:-1]] \
        == parsed[:-1]
    assert ctypes.sizeof(tilegym_rs.TensorDesc) == parsed[-1][1]


def test_each_signature_is_the_one_tilegyms_wrapper_declares():
    for symbol, wrapper in WRAPPERS.items():
        declared, params = cdef_parameters(wrapper)
        assert declared == symbol
        assert tilegym_rs.SIGNATURES[symbol] == tuple(C_TYPES[kind] for kind, _ in params), symbol


def test_each_adapter_passes_the_declared_arguments_with_the_tensors_in_their_places():
    ran = set()
    for family, op, index, launch, tensors in every_launch():
        runner = tilegym_rs.TileGymRsLauncher(None, family, op.kernel_name)
        if runner.refusal(tensors, launch):
            continue
        symbol, args, _ = runner.plan(tensors, launch)
        _, params = cdef_parameters(WRAPPERS[symbol])
        full = (*args, 0, 0)                       # + device ordinal and stream
        assert len(full) == len(params), (op.name, index)
        names = CATALOG_NAMES.get(symbol, {})
        for (kind, name), value in zip(params, full):
            if kind == "const TensorDesc*":
                assert isinstance(value, FakeTensor) and value.name == names.get(name, name), \
                    (op.name, index, name)
            else:
                assert isinstance(value, (int, float)) and not isinstance(value, FakeTensor)
        values = tilegym_rs.c_arguments(symbol, args, 0, 0)
        assert values[0].contents.ptr == full[0].address
        ran.add(symbol)
    assert ran == set(WRAPPERS)


def test_a_launch_their_port_cannot_run_says_why():
    rules = family_rules("tilegym.matmul")
    transposed = next(i for i, p in enumerate(rules.problems) if p.options.get("trans_a"))
    launch = rules.launch("tilegym.matmul.static_persistent", transposed, 132)
    runner = tilegym_rs.TileGymRsLauncher(None, "tilegym.matmul", "_static_persistent_matmul_kernel")
    assert "no transposes" in runner.refusal(case_tensors(rules, transposed), launch)
    bmm = family_rules("tilegym.bmm")           # their persistent bmm does take transposes
    transposed = next(i for i, p in enumerate(bmm.problems) if p.options.get("trans_a"))
    runner = tilegym_rs.TileGymRsLauncher(None, "tilegym.bmm", "_static_persistent_bmm_kernel")
    launch = bmm.launch("tilegym.bmm.static_persistent", transposed, 132)
    assert runner.refusal(case_tensors(bmm, transposed), launch) is None
    assert runner.plan(case_tensors(bmm, transposed), launch)[1][7:9] == (1, 1)


def test_without_the_library_the_side_is_skipped_with_the_reason(monkeypatch):
    from workbench.check.family import _tilegym_rs_ready
    from workbench.check.report import side_cells
    from workbench.check.runner import all_passed
    monkeypatch.delenv(tilegym_rs.LIBRARY_VARIABLE, raising=False)
    reason = tilegym_rs.family_launcher("tilegym.swiglu", "_swiglu_forward_kernel")
    assert isinstance(reason, str) and tilegym_rs.LIBRARY_VARIABLE in reason
    result, notes = _tilegym_rs_ready(reason, {}, None)
    assert result == {"ok": False, "skipped": True, "reason": reason} and notes == []
    case = {"sides": {"rust": {"ok": True}, tilegym_rs.SIDE: result}}
    assert all_passed([case]) and f"{tilegym_rs.SIDE} skipped [{reason}]" in side_cells(case)
    assert not all_passed([{"sides": {tilegym_rs.SIDE: {"ok": False, "reason": "rc -3"}}}])
    assert "no cutile-rs port" in tilegym_rs.family_launcher("tilegym.softmax", "_softmax_kernel")


def _tool(name: str):
    spec = importlib.util.spec_from_file_location(name, REPO_ROOT / "tools" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _reply(with_side: bool) -> tuple[dict, dict]:
    """A family's checks and bench result, as a run before the fourth side wrote them or
    as one with it."""
    sides = {"rust": {"ok": True, "rel_error": 1e-3, "cupti_us": 10.0},
             "tilegym": {"ok": True, "rel_error": 1e-3, "cupti_us": 9.0},
             "torch": {"ok": True, "cupti_us": 20.0}}
    if with_side:
        sides[tilegym_rs.SIDE] = {"ok": True, "rel_error": 2e-3, "cupti_us": 12.5}
    result = {"case": 0, "entry": "tilegym.swiglu.forward", "label": "case 0: a=f32[2,512,1024]",
              "launch": {"grid": [1024, 1, 1], "hints": {}, "consts": {}}, "bytes": 1 << 22,
              "flops": None, "sides": sides}
    return result, {"tilegym.swiglu": {"status": "ok", "results": [result]}}


def test_old_results_without_the_side_still_render_and_new_ones_show_it():
    from workbench.check.family_report import bench_row, format_family_bench, summarize
    results = _tool("tilegym_results")
    family = get_family("tilegym.swiglu")
    for with_side in (False, True):
        result, checks = _reply(with_side)
        row = bench_row(family, result, {})
        if not with_side:          # a row as an old tilegym_bench.json holds it
            row = {k: v for k, v in row.items() if not k.startswith(tilegym_rs.SIDE)}
        report = summarize([row], {}, {"name": "H200"}, "ok")
        table = "\n".join(results.checks_table(checks) + results.bench_table(report))
        printed = format_family_bench(report)
        status = _tool("operator_status").gpu_cells("tilegym.swiglu", checks, report)
        if with_side:
            assert row["tilegym_rs_parity"] == 12.5 / 10.0
            assert "TileGym cutile-rs |" in table and "| 10.0 | 12.5 | 1.250 |" in table
            assert "12.5    1.250" in printed and status[-1] == "1/1, 1.250"
        else:
            assert "cutile-rs" not in table and "| ok (1.0e-03) | ok (1.0e-03) |" in table
            assert "parity geomean tilegym.swiglu: 0.900" in printed and status[-1] == "-"


@pytest.mark.skipif(not LIBRARY.exists(), reason=f"{LIBRARY} is not built: "
                    "bash tools/build_tilegym_rs.sh")
def test_the_built_library_loads_and_exports_the_five_symbols(monkeypatch):
    library = tilegym_rs.load_library(str(LIBRARY))
    lib_rs = (TREE / "cutile_kernels" / "src" / "lib.rs").read_text()
    ops = re.findall(r"^mod (\w+) \{", lib_rs, re.M)
    assert {f"cutile_{op}" for op in ops} == set(tilegym_rs.SIGNATURES) == set(WRAPPERS)
    for symbol in tilegym_rs.SIGNATURES:
        assert getattr(library, symbol).restype is ctypes.c_int32
    monkeypatch.setenv(tilegym_rs.LIBRARY_VARIABLE, str(LIBRARY))
    assert isinstance(tilegym_rs.family_launcher("tilegym.bmm", "_bmm_kernel"),
                      tilegym_rs.TileGymRsLauncher)


@pytest.mark.skipif(not LIBRARY.exists(), reason=f"{LIBRARY} is not built: "
                    "bash tools/build_tilegym_rs.sh")
def test_every_adapters_call_reaches_their_checks_with_no_gpu():
    """Their C functions check the descriptors' dtype codes, then the device ordinal, before
    touching CUDA: each adapter's real call with ordinal -1 comes back 'device init failed'
    (-4), and with a dtype code they do not know 'unsupported dtype' (-2), so the arguments
    land where their Rust reads them."""
    library, seen = tilegym_rs.load_library(str(LIBRARY)), set()
    for family, op, index, launch, tensors in every_launch():
        runner = tilegym_rs.TileGymRsLauncher(library, family, op.kernel_name)
        if runner.refusal(tensors, launch) or runner.plan(tensors, launch)[0] in seen:
            continue
        symbol, args, _ = runner.plan(tensors, launch)
        values = tilegym_rs.c_arguments(symbol, args, -1, 0)
        assert getattr(library, symbol)(*values) == -4, symbol
        with pytest.raises(RuntimeError, match=r"returned -4 \(device init failed\)"):
            tilegym_rs.check_code(symbol, getattr(library, symbol)(*values))
        for value in values:
            if isinstance(value, ctypes.POINTER(tilegym_rs.TensorDesc)):
                value.contents.dtype = 99
        assert getattr(library, symbol)(*values) == -2, symbol
        seen.add(symbol)
    assert seen == set(WRAPPERS)
