"""TileGym's group GEMM in the catalog: lists of matrices as problem inputs (one JIT list
spec for all items), the launcher's persistent grid and autotune candidates, the emitter's
list parameters, and the C ABI's checks of every list item (no GPU here: a call that got
past the checks would fail opening the device, so a refusal naming the item shows that the
check comes first)."""
import ctypes

import pytest

from workbench.argspec import ArgSpec, parse_arg
from workbench.catalog import get_family
from workbench.errors import WorkbenchError
from workbench.launchrules import list_spec, list_tensor
from workbench.rust.ffi import ArgumentError, CallPlan, const_word, launch_words
from workbench.tilegym_catalog import family_rules

FAMILY = "tilegym.group_gemm"
ENTRY = "tilegym.group_gemm.static_persistent"
FAKE_BASE = 0x7F00_0000_0000          # never dereferenced: the call stops before any launch


def test_a_list_spec_keeps_only_the_facts_every_item_has():
    items = (parse_arg("f16[256,128]"), parse_arg("f16[272,100]"), parse_arg("f16[48,64]"))
    spec = list_spec(items)
    assert spec.is_list and spec.length == 3
    assert spec.shape == (256, 100)          # dim 1: the item whose extent breaks div_by 16
    assert spec.strides == (100, 1)          # stride 100 is not a multiple of 8 f16 elements
    assert str(spec) == "list[f16[256,100]:strides=(100,1)]*3"
    assert parse_arg(str(spec)) == spec


def test_a_list_of_mixed_dtypes_or_ranks_is_refused():
    with pytest.raises(WorkbenchError, match="share one dtype and rank"):
        list_tensor("a", ["f16[16,16]", "bf16[16,16]"])
    with pytest.raises(WorkbenchError, match="share one dtype and rank"):
        list_tensor("a", ["f16[16,16]", "f16[16]"])


def test_the_launch_is_the_persistent_grid_of_the_first_config_and_both_are_candidates():
    rules = family_rules(FAMILY)
    for index in range(len(rules.problems)):
        launch = rules.launch(ENTRY, index, num_sm=132)
        assert launch.grid == (132, 1, 1) and launch.consts["NUM_SM"] == 132
        assert launch.hints == {"num_ctas": 1, "occupancy": 1}
        second = launch.candidates[1]
        assert (second.grid, second.consts["NUM_SM"], second.hints["num_ctas"]) == ((66, 1, 1), 66, 2)
        assert (second.consts["TILE_M"], second.consts["TILE_K"]) == (256, 64)
        assert launch.consts["TRANSPOSE_B"] == rules.problem(index).option("transpose_b")


def test_outputs_are_one_matrix_per_group_with_transpose_b():
    rules = family_rules(FAMILY)
    problem = next(p for p in rules.problems if p.option("transpose_b") and len(p["a"].items) == 3)
    c = problem["c"]
    assert c.is_list and c.role == "out"
    assert [i.shape for i in c.items] == [(a.shape[0], b.shape[0])
                                          for a, b in zip(problem["a"].items, problem["b"].items)]
    assert problem["c"].numel() == sum(m * n for m, n in (i.shape for i in c.items))


def test_cases_cover_both_transposes_both_dtypes_and_an_odd_group():
    problems = family_rules(FAMILY).problems
    assert {p.option("transpose_b") for p in problems} == {True, False}
    assert {p.dtype for p in problems} == {"f16", "bf16"}
    assert any(i.shape[0] % 128 for p in problems for i in p["a"].items)


def test_the_emitter_passes_each_list_as_its_table_pointer_and_length():
    from workbench.rust.emit import emit_request
    op = get_family(FAMILY).entry(ENTRY)
    request = emit_request(op, 3)
    for name in ("As", "Bs", "Cs"):
        assert f"pointer {name} 0\n" in request and f"scalar {name}_len i32 3\n" in request
    assert "generics bf16 128 128 128 132 true" in request
    assert "options num_ctas=1 occupancy=1" in request


class FakeArray:
    """A device array by its __cuda_array_interface__ (the pointer is never dereferenced)."""

    def __init__(self, ptr, shape, typestr="<f2"):
        self.__cuda_array_interface__ = {"data": (ptr, False), "shape": tuple(shape),
                                         "typestr": typestr, "strides": None, "version": 3}


def _call(op, a_shapes, b_shapes, c_shapes, misalign=None, typestr=None, transposed=None):
    from workbench.rust.library import load
    library, _ = load(op)
    plan = CallPlan(op)
    case = op.cases[0]
    base = iter(range(FAKE_BASE, FAKE_BASE + (1 << 40), 1 << 30))
    values = {name: [FakeArray(next(base), s, (typestr or {}).get(name, "<f2")) for s in shapes]
              for name, shapes in (("As", a_shapes), ("Bs", b_shapes), ("Cs", c_shapes))}
    if transposed:
        iface = values[transposed][0].__cuda_array_interface__
        m, n = iface["shape"]
        iface["strides"] = (2, 2 * m)          # bytes: a column-major view
    if misalign:
        name, index = misalign
        item = values[name][index]
        ptr = item.__cuda_array_interface__["data"][0] + 2
        values[name][index] = FakeArray(ptr, item.__cuda_array_interface__["shape"])
    with plan._lock:
        args = plan.prepared(values, case.consts, case.grid, case.hints)
    library.call(*args, 0)


@pytest.fixture(scope="module")
def op():
    from workbench.rust.cargo import build
    operator = get_family(FAMILY).entry(ENTRY)
    if build(operator).library is None:
        pytest.skip("the group_gemm port does not build here")
    return operator


def test_an_item_over_i32_is_refused_by_its_index(op):
    from workbench.rust.library import PortError
    with pytest.raises(PortError, match=r"As\[1\]: extent 4294967296 or stride 32 in dim 0 is "
                                        r"over i32.*nothing was launched"):
        _call(op, [(32, 32), (1 << 32, 32)], [(32, 32), (32, 32)], [(32, 32), (32, 32)])


def test_odd_extents_and_a_misaligned_base_are_no_promise_but_generics(op):
    """The list's divisibility is the JIT's list spec, derived by the launcher: odd items
    pass every check (the call then fails opening the device, there being none here)."""
    from workbench.rust.library import PortError
    with pytest.raises(PortError) as refused:
        _call(op, [(32, 32), (33, 40)], [(32, 32), (40, 24)], [(32, 32), (33, 24)],
              misalign=("Bs", 0))
    assert "breaks the port's promise" not in str(refused.value)
    assert "nothing was launched" not in str(refused.value)


def test_the_generics_follow_the_jits_list_spec():
    from workbench.rust.emit import emit_request
    op = get_family(FAMILY).entry(ENTRY)
    odd = next(c.index for c in op.cases
               if any(i.shape[0] % 16 for i in family_rules(FAMILY).problem(c.index)["a"].items))
    generics = next(line for line in emit_request(op, odd).splitlines()
                    if line.startswith("generics")).split()[7:]
    # per list: base aligned, extent 0 and 1 divisible by 16, stride 0 by 8 f16 elements
    a_items = family_rules(FAMILY).problem(odd)["a"].items
    assert generics[:4] == ["true", str(all(i.shape[0] % 16 == 0 for i in a_items)).lower(),
                            str(all(i.shape[1] % 16 == 0 for i in a_items)).lower(),
                            str(all(i.shape[1] % 8 == 0 for i in a_items)).lower()]
    assert len(generics) == 12


def test_an_item_of_another_dtype_or_rank_is_refused_before_the_c_call(op):
    with pytest.raises(ArgumentError, match=r"Cs\[0\]: rank 1"):
        _call(op, [(32, 32)], [(32, 32)], [(32,)])
    with pytest.raises(ArgumentError, match=r"Bs\[0\]: dtype f32"):
        _call(op, [(32, 32)], [(32, 32)], [(32, 32)], typestr={"Bs": "<f4"})


def test_the_c_abi_refuses_a_unit_stride_broken_item_by_its_index(op):
    """The Python side packs what wb_ffi checks again: a transposed item's descriptor reaches
    the C symbol only through check(), which refuses it first."""
    with pytest.raises(ArgumentError, match=r"As\[0\]: stride 32 in dim 1"):
        _call(op, [(32, 32)], [(32, 32)], [(32, 32)], transposed="As")
    plan = CallPlan(op)
    with pytest.raises(ArgumentError, match="non-empty list"):
        plan.prepared({"As": [], "Bs": [], "Cs": []}, op.cases[0].consts, (132,), {})


def test_the_list_lengths_are_the_first_scalars(op):
    plan = CallPlan(op)
    values = {n: [FakeArray(FAKE_BASE + (i << 20), (16, 16)) for i in range(k)]
              for n, k in (("As", 3), ("Bs", 3), ("Cs", 3))}
    tensors, n_tensors, scalars, n_scalars, consts, n_consts = plan.prepared(
        values, op.cases[0].consts, (132,), {})
    assert n_tensors == 9 and n_scalars == 3 and list(scalars[:3]) == [3.0, 3.0, 3.0]
    assert [tensors[i].ptr for i in (0, 3, 6)] == [FAKE_BASE, FAKE_BASE, FAKE_BASE]
    assert list(consts[:n_consts])[-6:] == launch_words((132,), {})
    assert const_word(True) == 1


class _Dtype:
    def __init__(self, np_type):
        self.np_type, self.is_floating_point = np_type, True


class _Tensor:
    """Just enough of a torch tensor, on numpy, for the worker's list handling."""

    def __init__(self, array):
        self.array = array
        self.shape = array.shape

    def to(self, dtype):
        return _Tensor(self.array.astype(dtype.np_type))

    def clone(self):
        return _Tensor(self.array.copy())

    def double(self):
        return _Tensor(self.array.astype("float64"))

    def flatten(self):
        return _Tensor(self.array.reshape(-1))

    def numel(self):
        return self.array.size

    def element_size(self):
        return self.array.itemsize

    def t(self):
        return _Tensor(self.array.T)

    def __matmul__(self, other):
        return _Tensor(self.array @ other.array)

    def __add__(self, number):
        return _Tensor(self.array + number)


class _FakeTorch:
    import numpy as _np
    float16 = _Dtype("float16")
    bfloat16 = _Dtype("float32")           # numpy has no bfloat16: a float stands in
    float32 = _Dtype("float32")

    def full(self, shape, value, dtype, device):
        return _Tensor(self._np.full(shape, value, dtype=dtype.np_type))

    def randn(self, shape, dtype, device):
        return _Tensor(self._np.random.default_rng(0).standard_normal(shape).astype(dtype.np_type))

    def cat(self, tensors):
        return _Tensor(self._np.concatenate([t.array for t in tensors]))


def test_the_gpu_worker_makes_binds_and_compares_lists_item_by_item():
    """The worker's side of a list (check/family.py), on a numpy stand-in for torch: one
    tensor per item, bound as the list, the reference per group, outputs flattened in order."""
    from workbench.check.family import _reference, bind_args, clone, flat, make_tensors, nbytes
    torch = _FakeTorch()
    rules = family_rules(FAMILY)
    problem = rules.problem(3)
    tensors = make_tensors(rules, problem, torch)
    assert [t.shape for t in tensors["a"]] == [i.shape for i in problem["a"].items]
    assert all(torch._np.isnan(t.array).all() for t in tensors["c"])
    launch = rules.launch(ENTRY, 3)
    values = bind_args(launch, {n: clone(t) for n, t in tensors.items()}, ["As", "Bs", "Cs", "TILE_M", "TILE_N", "TILE_K",
                                                "NUM_SM", "TRANSPOSE_B"], torch)
    assert [v.shape for v in values["Cs"]] == [i.shape for i in problem["c"].items]
    expected = _reference(rules).reference(tensors, torch, transpose_b=True)["c"]
    a, b = tensors["a"][1].array.astype("float64"), tensors["b"][1].array.astype("float64")
    assert torch._np.allclose(expected[1].array, a @ b.T)
    assert flat(expected, torch).numel() == problem["c"].numel()
    assert nbytes(tensors["a"]) == problem["a"].numel() * 4       # the bf16 stand-in is f32
