"""One port for every call: a ct.Constant the kernel only computes with is a const generic of
the port (an integer as itself, a float as its f32 bits), not a literal of one call, so one
entry serves every value; entries split only where a value decides the Tile IR's structure.
The IR diff still matches each case: the normalizer folds what cutile computes from the
generics into the constants cuTile Python folded, printed as tileirdisasm prints them."""
from __future__ import annotations

import re
import struct

import numpy as np
import pytest

from workbench.argspec import parse_arg
from workbench.catalog import Case
from workbench.ir.floats import printed, rounded
from workbench.ir.stages import file_python_ir
from workbench.port.analyze import analyze
from workbench.port.rules import draft
from workbench.rust.manifest import f32_bits

NORM = '''import cuda.tile as ct


@ct.kernel
def my_norm(x, w, out, N: ct.Constant[int], eps: ct.Constant[float], TILE: ct.Constant[int]):
    row = ct.bid(0)
    t = ct.load(x, index=(row, 0), shape=(1, TILE), padding_mode=ct.PaddingMode.ZERO)
    t = ct.astype(t, ct.float32)
    mean = ct.sum(t, axis=1, keepdims=True) / N
    c = t - mean
    var = ct.sum(c * c, axis=1, keepdims=True) * (1.0 / N)
    y = c * ct.rsqrt(var + eps)
    wt = ct.astype(ct.load(w, index=(0,), shape=(TILE,), padding_mode=ct.PaddingMode.ZERO),
                   ct.float32)
    ct.store(out, index=(row, 0), tile=ct.astype(y * wt, out.dtype))
'''
CALLS = [("f32", 1000, 1e-5, 1024), ("f16", 4096, 1e-6, 4096)]


def norm_cases(calls=CALLS) -> list[Case]:
    return [Case(i, tuple(parse_arg(a) for a in (f"{d}[64,{n}]", f"{d}[{n}]", f"{d}[64,{n}]")),
                 {"N": n, "eps": eps, "TILE": tile}) for i, (d, n, eps, tile) in enumerate(calls)]


def drafted(source: str, cases: list[Case], kernel: str = "my_norm") -> dict[str, str]:
    result = draft(analyze(source, "my_norm.py", kernel, cases), source, kernel)
    assert result.ok, result.diagnostics
    return result.files


def test_constants_the_kernel_computes_with_are_generics_of_one_entry():
    files = drafted(NORM, norm_cases())
    kernel = files["src/kernel.rs"]
    assert kernel.count("#[cutile::entry") == 1
    assert "pub unsafe fn my_norm<E: ElementType, const N: i32, const TILE: i32, " \
        "const EPS_BITS: i32>(" in kernel
    assert not re.search(r"1000|4096|1e-0[56]", kernel)       # no call's value is baked in
    assert 'generics = ["dtype(x)", "N", "TILE", "bits(eps)"]' in files["port.toml"]
    assert "[entries]" not in files["port.toml"]


def test_a_constant_an_if_tests_still_splits_the_entries():
    source = NORM.replace("    y = c * ct.rsqrt(var + eps)\n",
                          "    y = c * ct.rsqrt(var + eps)\n    if N > 2048:\n        y = y * 2.0\n")
    files = drafted(source, norm_cases())
    assert re.findall(r"pub unsafe fn (\w+)<", files["src/kernel.rs"]) == \
        ["my_norm_n_1000", "my_norm_n_4096"]
    assert '"N=1000" = "my_norm_n_1000"' in files["port.toml"]


def test_a_float_constant_used_as_f64_is_split_by_value():
    """Its f32 bits would not hold an f64 value: the entry fixes it instead."""
    source = NORM.replace("t = ct.astype(t, ct.float32)", "t = ct.astype(t, ct.float64)")
    files = drafted(source, norm_cases([("f32", 1000, 1e-5, 1024), ("f32", 1000, 1e-6, 1024)]))
    assert files["src/kernel.rs"].count("#[cutile::entry") == 2
    assert "bits(eps)" not in files["port.toml"]


def test_the_bits_generic_is_the_f32_pattern_of_the_value():
    assert f32_bits(1e-5) == struct.unpack("<i", np.float32(1e-5).tobytes())[0] == 925353388
    assert f32_bits(-2.5) == struct.unpack("<i", np.float32(-2.5).tobytes())[0]


SCALE = '''import cuda.tile as ct


@ct.kernel
def scale(x, out, C: ct.Constant[float], TILE: ct.Constant[int]):
    t = ct.load(x, index=(ct.bid(0),), shape=(TILE,))
    ct.store(out, index=(ct.bid(0),), tile=t * C)
'''
VALUES = [1e-5, 1e-3, 0.1, 1 / 3, 1000.0, 3.14159265, -2.5, 6.02e23, 1 / 768]


@pytest.mark.parametrize("dtype", ["f32", "f16"])
def test_folded_constants_print_as_tileirdisasm_prints_them(tmp_path, dtype):
    """The real tools' text of a float constant of each value, against floats.printed: a
    folded constant must read as the other side's does (f32 1e-05 is `9.99999974E-6`,
    f32 0.001 is `1.000000e-03`)."""
    path = tmp_path / "scale.py"
    path.write_text(SCALE)
    for value in VALUES:
        ir = file_python_ir(str(path), "scale", [parse_arg(f"{dtype}[256]")] * 2,
                            {"C": value, "TILE": 64})
        (text,) = re.findall(rf"constant <{dtype}: ([^>]+)>", ir.text)
        exact = rounded(value, dtype)
        assert printed(exact, dtype) == text, (value, dtype, text)   # an infinity in hex


def test_one_drafted_port_matches_the_jit_at_values_it_was_not_drafted_for(tmp_path, cli):
    """Drafted from one call (N=1000, eps=1e-5), built once; its Tile IR matches what the
    JIT compiles for other values of N and eps, each folded by cutile at that call's
    compile."""
    path = tmp_path / "my_norm.py"
    path.write_text(NORM)
    out = tmp_path / "port"

    def call(n, eps, tile):
        return [f"{path}:my_norm", "--arg", f"f32[64,{n}]", "--arg", f"f32[{n}]",
                "--arg", f"f32[64,{n}]", "--const", f"N={n}", "--const", f"eps={eps}",
                "--const", f"TILE={tile}", "--out", str(out)]
    drafted = cli("port", *call(1000, 1e-5, 1024), timeout=1800)
    assert "ir_diff        #1 PASS_WITH_NOTES" in drafted.stdout, drafted.stdout + drafted.stderr
    for n, eps, tile in [(3000, 1e-6, 4096), (100, 0.5, 128)]:
        other = cli("diff", *call(n, eps, tile), timeout=600)
        assert other.returncode == 0 and other.stdout.startswith("verdict: PASS"), other.stdout
        assert "critical" not in other.stdout.split("\n", 1)[1]
    # a wrong literal in the port is still a failure: 2.0 / N where the kernel has 1.0 / N
    kernel = out / "src" / "kernel.rs"
    kernel.write_text(kernel.read_text().replace("scalar_to_tile(1.0f32)",
                                                 "scalar_to_tile(2.0f32)", 1))
    wrong = cli("diff", *call(3000, 1e-6, 4096), timeout=600)
    assert wrong.returncode == 1, wrong.stdout
    was, now = (printed(rounded(v / 3000, "f32"), "f32") for v in (1.0, 2.0))
    assert f"constant_value: `constant` (f32): {was} -> {now}" in wrong.stdout


def test_a_recorded_layer_norm_is_one_entry_for_calls_of_other_n_and_eps(tmp_path, cli):
    """examples/own_kernel/my_layer_norm.py launches with (N, eps) = (1000, 1e-5) on f16 and
    (4096, 1e-6) on f32, two programs for cuTile Python's JIT; its port is one entry, and
    each call's Tile IR and numbers (the CPU interpreter) match."""
    from workbench.catalog import REPO_ROOT
    record = tmp_path / "ln.json"
    recorded = cli("record", str(REPO_ROOT / "examples" / "own_kernel" / "my_layer_norm.py"),
                   "--out", str(record))
    assert recorded.returncode == 0, recorded.stdout + recorded.stderr
    out = tmp_path / "port"
    ported = cli("port", "--record", str(record), "--out", str(out), timeout=1800)
    assert "ir_diff        #1 PASS_WITH_NOTES  case 0: PASS_WITH_NOTES, case 1: PASS_WITH_NOTES" \
        in ported.stdout, ported.stdout + ported.stderr
    assert "gpu_check      #1 PASS             on the CPU (no CUDA device)" in ported.stdout
    kernel = (out / "src" / "kernel.rs").read_text()
    assert kernel.count("#[cutile::entry") == 1
    assert "const N: i32, const TILE: i32, const EPS_BITS: i32>" in kernel
    # the JIT -> AOT tab says what the port made of each constant
    from workbench.port.recorded import record_operator
    from workbench.session import PortSession
    rows = PortSession(record_operator(record, out=out)).specializations()
    assert [row["group"] for row in rows] == [0, 1]        # two programs for the JIT
    assert rows[0]["constants"] == [
        "N: const generic: one entry serves every value (cutile specializes it at each "
        "launch's compile, as the JIT does)",
        "eps: const generic of its f32 bits (const generics are integers): one entry serves "
        "every value",
        "TILE: const generic: one entry serves every value (cutile specializes it at each "
        "launch's compile, as the JIT does)"]


def test_a_constant_a_divisibility_fact_is_stated_from_splits_the_entries():
    """`k += STRIDE`, scattered each step: cuTile states `assume div_by` on k from STRIDE's
    value (8 for 24, 16 for 48), so the port needs an entry per value; STEPS, a loop bound
    only, stays a generic of both."""
    from pathlib import Path
    path = Path(__file__).resolve().parent / "fixtures" / "drafter" / "divisibility.py"
    cases = [Case(i, (parse_arg("i32[8]"),), {"STEPS": 8, "STRIDE": stride})
             for i, stride in enumerate([24, 48])]
    files = drafted(path.read_text(), cases, "strided_starts")
    kernel = files["src/kernel.rs"]
    assert re.findall(r"pub (?:unsafe )?fn (\w+)<", kernel) == \
        ["strided_starts_stride_24", "strided_starts_stride_48"]
    assert "assume_div_by::<_, 8>(k)" in kernel and "assume_div_by::<_, 16>(k)" in kernel
    assert kernel.count("const STEPS: i32") == 2


def test_tilegym_s_rms_norm_through_its_own_host_code(tmp_path, cli):
    """A kernel this project did not write, called by its package's own host function
    (tilegym.ops.cutile.rms_norm on CPU tensors): recorded, ported (EPS and OFFSET are
    f32-bits generics), and its Tile IR and numbers match on both calls (the interpreter once
    made a 0-d bitcast 1-d, and the port's 0-d Rstd store failed)."""
    script = tmp_path / "use_rms.py"
    script.write_text(
        "import torch\nfrom tilegym.ops.cutile.rms_norm import rms_norm\n"
        "for rows, n, dtype in [(64, 1000, torch.float16), (16, 4096, torch.float32)]:\n"
        "    rms_norm(torch.randn(rows, n, dtype=dtype), (n,), torch.randn(n, dtype=dtype), 1e-6)\n")
    record = tmp_path / "rms.json"
    recorded = cli("record", str(script), "--out", str(record))
    assert recorded.returncode == 0, recorded.stdout + recorded.stderr
    ported = cli("port", "--record", str(record), "--out", str(tmp_path / "port"), timeout=1800)
    assert "ir_diff        #1 PASS_WITH_NOTES  case 0: PASS_WITH_NOTES, case 1: PASS_WITH_NOTES" \
        in ported.stdout, ported.stdout + ported.stderr
    assert "gpu_check      #1 PASS             on the CPU (no CUDA device)" in ported.stdout
    kernel = (tmp_path / "port" / "src" / "kernel.rs").read_text()
    assert "const EPS_BITS: i32, const OFFSET_BITS: i32>" in kernel
