"""NumPy constants and dtypes inside a cuTile kernel (issue 35, part 3): cuTile Python reads
`np.inf`, `-np.inf`, `np.pi` as the Python floats they are and `np.float32` / `np.int32` as
its own dtypes; the drafter does the same (tests/fixtures/drafter/numpy_constants.py),
first as drafted Rust (no cargo), then drafted, built and diffed against the cuTile Python
kernel's Tile IR."""
from __future__ import annotations

import re
from pathlib import Path

from workbench.argspec import parse_arg
from workbench.catalog import Case
from workbench.port.analyze import analyze
from workbench.port.rules import draft

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "drafter" / "numpy_constants.py"
ARGS = ["f32[64,1000]", "f32[64,128]", "i32[64,1]"]
CONSTS = {"N": 1000, "TILE": 128}


def test_numpy_constants_and_dtypes_are_drafted_as_cutile_reads_them():
    source = FIXTURE.read_text()
    case = Case(index=0, args=tuple(parse_arg(a) for a in ARGS), consts=CONSTS)
    drafted = draft(analyze(source, "tests/fixtures/drafter/numpy_constants.py",
                            "np_constants", [case]), source, "np_constants")
    assert drafted.ok, [str(d) for d in drafted.diagnostics]
    rust = drafted.files["src/kernel.rs"]
    # -np.inf as the running maximum's start, np.float32 / np.int32 as the tiles' dtypes
    assert "let mut best: Tile<f32, { [1, TILE] }> = constant(f32::NEG_INFINITY, " in rust
    assert "let mut seen: Tile<i32, { [1, TILE] }> = constant(0i32, " in rust
    # np.inf and -np.inf in arithmetic, np.pi and a module constant made of it
    assert "constant(f32::INFINITY, shape![])" in rust
    assert re.search(r"scalar_to_tile\(3\.141592653589793f32\)", rust), rust
    assert re.search(r"scalar_to_tile\(1\.5707963267948966f32\)", rust), rust


def test_a_kernel_with_numpy_constants_is_ported_and_its_ir_matches(cli, tmp_path):
    command = ["port", "tests/fixtures/drafter/numpy_constants.py:np_constants",
               "--out", str(tmp_path / "port")]
    command += [x for a in ARGS for x in ("--arg", a)]
    command += [x for k, v in CONSTS.items() for x in ("--const", f"{k}={v}")]
    result = cli(*command, timeout=900)
    assert "build          #1 BUILT" in result.stdout, result.stdout + result.stderr
    assert "final verdict: PASS_WITH_NOTES\n" in result.stdout, result.stdout + result.stderr
