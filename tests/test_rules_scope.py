"""The drafter on what a kernel's module and decorator give it: literals cutile-rs cannot spell
directly, constants through module-level aliases, and `@ct.kernel` hints."""
from __future__ import annotations

import re

from test_rules import fixture, spec_for
from workbench.argspec import parse_arg
from workbench.catalog import Case, load_catalog
from workbench.port.analyze import analyze
from workbench.port.rules import draft


def test_f16_literal_operand_is_an_f32_constant_converted():
    """cutile-rs spells no f16 literal 2.0: the value cuTile's f16 constant holds is written
    as an f32 constant and converted (the IR diff folds the exact conversion)."""
    source = '''import cuda.tile as ct


@ct.kernel
def bad(x, out, T: ct.Constant[int]):
    b = ct.bid(0)
    t = ct.load(x, index=(b,), shape=(T,), padding_mode=ct.PaddingMode.ZERO)
    ct.store(out, index=(b,), tile=t * 2.0)
'''
    case = Case(index=0, args=(parse_arg("f16[64]"), parse_arg("f16[64]")), consts={"T": 64})
    d = draft(analyze(source, "bad.py", "bad", [case]), source, "bad")
    assert d.ok, [str(u) for u in d.diagnostics]
    rust = d.files["src/kernel.rs"]
    assert "constant(2.0f32, shape![]);" in rust
    assert "Tile<f16, { [] }> = convert_tile(wide);" in rust


def test_constant_through_a_module_level_alias():
    spec, source = fixture("const_alias.py", "double_rows", ["f32[8,128]", "f32[8,128]"],
                           {"TILE": 128})
    assert spec.param("TILE").kind == "constant" and spec.param("TILE").values == [128]
    assert [p.name for p in spec.constants] == ["TILE"]
    d = draft(spec, source, "double_rows")
    assert d.ok, [str(u) for u in d.diagnostics]
    assert "const TILE: i32" in d.files["src/kernel.rs"]


def test_constant_alias_port_end_to_end(tmp_path, cli):
    """The alias-declared constant is a const generic in the port, which builds and emits the
    Python kernel's Tile IR."""
    out = tmp_path / "double_rows"
    result = cli("port", "tests/fixtures/drafter/const_alias.py:double_rows", "--arg", "f32[8,128]",
                 "--arg", "f32[8,128]", "--const", "TILE=128", "--out", str(out), timeout=900)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "build          #1 BUILT" in result.stdout
    assert re.search(r"ir_diff +#1 PASS", result.stdout), result.stdout


def test_kernel_hints_become_the_entry_hints(tmp_path):
    """`@ct.kernel(occupancy=8, num_worker_warps=8)` -> the port's entry names the same Tile IR
    hints for each GPU; a per-GPU ct.ByTarget value is that GPU's own dict (cuTile's replaces
    the default one); a hint that is no integer is a diagnostic, not a guess."""
    spec, source = spec_for("softmax")
    assert spec.hints == {"occupancy": 8, "num_worker_warps_per_cta": 8}
    kernel_rs = draft(spec, source, "softmax").files["src/kernel.rs"]
    assert ("optimization_hints = (sm_90 = (num_worker_warps_per_cta = 8, occupancy = 8,), "
            "sm_100 = (num_worker_warps_per_cta = 8, occupancy = 8,),)") in kernel_rs
    by_target = source.replace("occupancy=8", "occupancy=ct.ByTarget(sm_90=4)")
    op = load_catalog()["softmax"]
    spec = analyze(by_target, "softmax.py", op.kernel_name, list(op.cases))
    assert spec.target_hints == {"sm_90": {"occupancy": 4}}
    d = draft(spec, by_target, "softmax")
    assert d.ok and ("optimization_hints = (sm_90 = (occupancy = 4,), sm_100 = "
                     "(num_worker_warps_per_cta = 8,),)") in d.files["src/kernel.rs"]
    computed = source.replace("occupancy=8", "occupancy=pick_occupancy()")
    spec = analyze(computed, "softmax.py", op.kernel_name, list(op.cases))
    d = draft(spec, computed, "softmax")
    assert not d.ok and [u.construct for u in d.diagnostics] == ["ct.kernel(occupancy=..)"]


def test_an_fp8_array_is_named_by_the_host_code_with_its_import():
    """cutile's prelude has no fp8 element type: the launcher that takes an fp8 array imports
    it from cutile::core (a drafted port without it failed rustc: `f8e4m3fn` not found)."""
    source = '''import cuda.tile as ct


@ct.kernel
def widen(x, out, T: ct.Constant[int]):
    b = ct.bid(0)
    t = ct.load(x, index=(b,), shape=(T,))
    ct.store(out, index=(b,), tile=ct.astype(t, ct.float32))
'''
    case = Case(index=0, args=(parse_arg("f8e4m3[256]"), parse_arg("f32[256]")), consts={"T": 64})
    d = draft(analyze(source, "widen.py", "widen", [case]), source, "widen")
    assert d.ok, [str(u) for u in d.diagnostics]
    lib = d.files["src/lib.rs"]
    assert "call.input::<f8e4m3fn>(0)" in lib and "use cutile::core::{f8e4m3fn};" in lib
    assert "f8e5m2" not in lib
