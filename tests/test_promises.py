"""Each port's C ABI rejects an input that breaks one of its promises (port.toml): a clear
message naming the argument and the fact, before any CUDA call, so nothing is launched.
Here there is no CUDA driver at all: a call that got past the check would fail opening the
device instead, which is how these tests see that the check comes first."""
import ctypes
import tomllib

import pytest

from workbench.catalog import load_catalog
from workbench.ownership.evidence import manifest_promises
from workbench.catalog import get_operator
from workbench.rust.ffi import ArrayView, CallPlan, const_word, tensor_array
from workbench.rust.library import PortError, load

OPS = ["silu_and_mul", "softmax", "rms_norm", "layer_norm", "matmul", "attention"]
FAKE_BASE = 0x7F00_0000_0000          # never dereferenced: the call stops before any launch


def call(op, edit=None):
    """The port's C symbol on case 0's descriptors (fake device pointers), one edited."""
    library, _ = load(op)
    plan = CallPlan(op)
    case = op.cases[0]                   # an entry of a family may start at a later case
    runtime = dict(zip([p for p in _params(op) if p not in case.consts], case.args))
    views = [ArrayView(FAKE_BASE + (i << 30), tuple(runtime[name].shape),
                       tuple(runtime[name].effective_strides()), runtime[name].dtype, 0)
             for i, (name, _) in enumerate(plan.tensors)]
    if edit:
        views = edit(views)
    scalars = (ctypes.c_double * max(1, len(plan.scalars)))(*[1e-5] * len(plan.scalars))
    words = [const_word(case.consts[c]) for c in plan.consts] + \
        ([1, 1, 1, 0, 0, 0] if plan.launch_slots else [])      # a TileGym port's launch
    consts = (ctypes.c_int64 * max(1, len(words)))(*words)
    library.call(tensor_array(views), len(views), scalars, len(plan.scalars), consts,
                 len(words), 0)


def _raw_ports() -> list[str]:
    """Every TileGym port whose port.toml passes arrays raw (pointer, extents, strides)."""
    from workbench.catalog import all_operators
    from workbench.rust.cargo import has_port
    return sorted(name for name, op in all_operators().items() if has_port(op)
                  and tomllib.loads((op.port_folder / "port.toml").read_text()).get("raw"))


RAW_PORTS = _raw_ports()


@pytest.mark.parametrize("name", RAW_PORTS)
def test_a_raw_arrays_base_alignment_is_a_promise_the_c_abi_checks(name):
    """cutile assumes a raw pointer 16-byte aligned; each TileGym port that takes raw arrays
    declares it (port.toml div_by) and its C ABI refuses a base that is not."""
    op = get_operator(name)
    raw = tomllib.loads((op.port_folder / "port.toml").read_text())["raw"]
    for index, (tensor, _) in enumerate(CallPlan(op).tensors):
        if tensor not in raw:
            continue
        assert f"{tensor}.base" in manifest_promises(op)
        with pytest.raises(PortError, match=rf"{tensor}: base = \d+ breaks the port's promise "
                                            r"`base div_by<16>` \(bytes\)"):
            call(op, lambda views: _replaced(views, index, ptr=views[index].ptr + 8))


def _params(op):
    from workbench.sources.kernel import load_operator_kernel
    return load_operator_kernel(op).params


def _no_unit_stride(views, index, dim):
    view = views[index]
    strides = list(view.strides)
    strides[dim] = 2
    views[index] = view._replace(strides=tuple(strides))
    return views


@pytest.mark.parametrize("name", OPS)
def test_the_manifest_lists_tensors_in_the_c_abi_order(name):
    op = load_catalog()[name]
    raw = tomllib.loads((op.port_folder / "port.toml").read_text())
    assert list(raw["tensors"]) == [n for n, _ in CallPlan(op).tensors]


@pytest.mark.parametrize("name", OPS)
def test_each_broken_unit_stride_promise_is_refused_before_any_cuda_call(name):
    op = load_catalog()[name]
    promised = [(i, tensor, dim) for i, (tensor, rule) in enumerate(CallPlan(op).tensors)
                for dim in rule.unit_stride]
    assert promised, f"{name} promises no unit stride"
    for index, tensor, dim in promised:
        with pytest.raises(PortError) as error:
            call(op, lambda views: _no_unit_stride(views, index, dim))
        message = str(error.value)
        assert "(bad argument)" in message, message
        assert (f"{name}: {tensor}: stride 2 in dim {dim} breaks the port's promise "
                f"`unit stride in dim {dim}` (port.toml [tensors.{tensor}] unit_stride); "
                "nothing was launched") in message
        assert f"{tensor}.stride[{dim}]" in manifest_promises(op)


def _strides_read() -> list[tuple[str, str]]:
    """(port, array) for every catalog port whose kernel reads an array's strides by position
    (the `tensor_strides_N` helper the drafter writes for a gather or scatter)."""
    import re
    from workbench.catalog import all_operators
    from workbench.rust.cargo import has_port
    return sorted((name, array) for name, op in all_operators().items() if has_port(op)
                  for array in set(re.findall(r"tensor_strides_\d\((\w+)\)",
                                              (op.port_folder / "src" / "kernel.rs").read_text())))


@pytest.mark.parametrize("name,array", _strides_read())
def test_a_port_reading_strides_refuses_a_unit_stride_before_the_last_dim(name, array):
    """cutile makes a unit stride static and drops it from the view's strides, so a port
    reading them by position would read another dim's: port.toml says `strides_read` and
    the C ABI refuses such a tensor (here [M, N] with stride 1 in dim 0) before any launch."""
    op = get_operator(name)
    manifest = tomllib.loads((op.port_folder / "port.toml").read_text())
    assert manifest["tensors"][array].get("strides_read") is True
    index = [n for n, _ in CallPlan(op).tensors].index(array)
    unit_rows = lambda views: _replaced(views, index, strides=(1,) * len(views[index].shape))
    with pytest.raises(PortError, match=rf"{array}: stride 1 in dim 0, not the last: the port "
                                        r"reads this tensor's strides by position"):
        call(op, unit_rows)


def _other_rank(view) -> dict:
    """One dim fewer, or (for a vector) one more."""
    if len(view.shape) > 1:
        return {"shape": view.shape[1:], "strides": view.strides[1:]}
    return {"shape": view.shape + (1,), "strides": view.strides + (1,)}


def _replaced(views, index, **fields):
    return views[:index] + [views[index]._replace(**fields)] + views[index + 1:]


@pytest.mark.parametrize("name", OPS)
def test_a_wrong_dtype_or_rank_of_any_tensor_is_refused_the_same_way(name):
    op = load_catalog()[name]
    for index, (tensor, _) in enumerate(CallPlan(op).tensors):
        with pytest.raises(PortError, match=rf"{name}: {tensor}: dtype f64 \(code 3\) breaks the port's "
                                            r"promise `dtype in"):
            call(op, lambda views: _replaced(views, index, dtype="f64"))
        with pytest.raises(PortError, match=rf"{name}: {tensor}: rank \d breaks the port's "
                                            r"promise `rank \d`"):
            call(op, lambda views: _replaced(views, index, **_other_rank(views[index])))


@pytest.mark.parametrize("name", OPS)
def test_a_negative_extent_or_stride_is_refused_as_the_port_assumes_none(name):
    """cutile's entry assumes every extent and stride >= 0; the C ABI checks it (and the
    diff counts it as checked: manifest_promises)."""
    op = load_catalog()[name]
    tensor = CallPlan(op).tensors[0][0]
    assert ("bounded<0, ?>", ) == tuple(f for f, _ in manifest_promises(op)[f"{tensor}.stride[0]"]
                                        if f.startswith("bounded"))
    flipped = lambda views: _replaced(views, 0, strides=(-views[0].strides[0],) + views[0].strides[1:])
    with pytest.raises(PortError, match=rf"{name}: {tensor}: negative extent or stride in dim 0"):
        call(op, flipped)


def test_a_call_that_keeps_every_promise_gets_as_far_as_the_device():
    from workbench.check.runner import has_cuda_driver
    if has_cuda_driver():
        pytest.skip("there is a GPU here: a call past the check would launch on fake pointers")
    with pytest.raises(PortError, match=r"\(device\)"):
        call(load_catalog()["softmax"])


def _copy_port(tmp_path, name, kernel_edit, promises=None):
    """A copy of a catalog port (own package) with kernel.rs edited and, optionally, a
    `div_by` promise added to x's table in port.toml."""
    from workbench.session import copy_port
    op = copy_port(load_catalog()[name], tmp_path / name / "port")
    port = op.port_folder
    kernel = port / "src" / "kernel.rs"
    kernel.write_text(kernel_edit(kernel.read_text()))
    if promises:
        toml = port / "port.toml"
        toml.write_text(toml.read_text().replace("[tensors.x]\nrank = 2\n",
                                                 f"[tensors.x]\nrank = 2\ndiv_by = {promises}\n", 1))
    return op


def _assume_cols(text):
    return text.replace("let cols: i32 = x.shape()[1];",
                        "let cols: i32 = unsafe { assume_div_by::<i32, 16>(x.shape()[1]) };")


def test_an_assume_in_the_port_is_an_unchecked_promise_until_the_c_abi_checks_it(tmp_path):
    from workbench.ownership.pairs import operator_diff
    unchecked = _copy_port(tmp_path / "a", "rms_norm", _assume_cols)
    for case in (0, 2):          # 1024 columns: the reference agrees for this case; 513: not
        report = operator_diff(unchecked, case)
        assert report.verdict == "FAIL", report.to_text()
        (finding,) = [f for f in report.findings if f.category == "critical"]
        assert finding.fact["subject"] == "x.shape[1]" and finding.fact["origin"] == "port"
        assert "unchecked promise" in finding.detail
    checked = _copy_port(tmp_path / "b", "rms_norm", _assume_cols, '["shape[1] 16"]')
    report = operator_diff(checked, 2)
    assert report.verdict == "PASS_WITH_NOTES", report.to_text()
    (finding,) = [f for f in report.findings if f.fact and f.fact["origin"] == "port"]
    assert "checked on every call by the C ABI (port.toml div_by" in finding.detail
    # ... and the C ABI does check it: 513 columns are refused, nothing launched
    with pytest.raises(PortError, match=r"rms_norm: x: shape\[1\] = 1023 breaks the port's "
                                         r"promise `shape\[1\] div_by<16>` \(elements\)"):
        call(checked, lambda views: [views[0]._replace(shape=(256, 1023), strides=(1023, 1))]
             + views[1:])


def test_a_static_dim_in_the_entry_is_checked_by_cutiles_launcher(tmp_path):
    from workbench.ownership.pairs import operator_diff
    static = _copy_port(tmp_path, "softmax", lambda t: t.replace(
        "x: &Tensor<E, { [-1, -1] }>", "x: &Tensor<E, { [-1, TILE_COLS] }>", 1))   # the entry
    report = operator_diff(static, 1)            # 4096 columns, TILE_COLS 4096
    assert report.verdict == "PASS_WITH_NOTES", report.to_text()
    (finding,) = [f for f in report.findings if f.kind == "layout"]
    assert finding.fact["direction"] == "stronger" and finding.fact["origin"] == "port"
    assert "cutile's generated launcher" in finding.detail


def test_the_dtype_codes_are_the_same_on_both_sides_of_the_c_abi():
    """wb_ffi's DTYPE_* numbers and names (launch.rs), the Python side's codes (ffi.py) and
    the exported loader's (loader_template.py): an array of one dtype is that dtype in Rust."""
    import re
    from pathlib import Path
    from workbench.rust import ffi, loader_template
    launch = (Path(__file__).parent.parent / "kernels_src/wb_ffi/src/launch.rs").read_text()
    numbers = {name: int(n) for name, n in re.findall(r"pub const DTYPE_(\w+): i32 = (\d+);", launch)}
    names = dict(re.findall(r"DTYPE_(\w+) => \"(\w+)\"", launch))
    rust = {names[c]: n for c, n in numbers.items() if c != "COUNT"}
    assert rust == ffi.DTYPE_CODES == loader_template.DTYPES
    assert numbers["COUNT"] == len(rust) and {"u16", "u32", "u64"} <= set(rust)
