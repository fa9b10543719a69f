"""`workbench ir` as a user runs it: text, JSON, the external-kernel form, and bad input."""
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from workbench.catalog import load_catalog
from workbench.goldens import golden_path

from conftest import FIXTURES


def test_operator_ir_matches_the_golden(cli):
    result = cli("ir", "softmax", "--case", "2")
    assert result.returncode == 0, result.stderr
    assert result.stdout == golden_path(load_catalog()["softmax"], "python", 2).read_text()


def test_normalized_stage_and_json(cli):
    result = cli("ir", "rms_norm", "--stage", "normalized", "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["schema"] == "workbench.tileir/1"
    assert data["entries"][0]["symbol"] == "kernel"
    assert data["symbols"]["kernel"].startswith("rms_norm_K")
    names = [op["name"] for op in data["entries"][0]["ops"]]
    assert "rsqrt" in names and "store_view_tko" in names


def test_external_kernel_with_args_and_consts(cli):
    result = cli("ir", f"{FIXTURES}/branchy.py:branchy", "--arg", "f32[4096]",
                 "--arg", "f32[4096]", "--arg", "i32", "--const", "FLAG=1")
    assert result.returncode == 0, result.stderr
    assert "entry @branchy_Kt1_A1f32_1i16t1_p16" in result.stdout
    assert "if " in result.stdout and "} else {" in result.stdout
    assert "latency = 3" in result.stdout


def test_constant_branch_disappears(cli):
    common = [f"{FIXTURES}/branchy.py:branchy", "--arg", "f32[4096]", "--arg", "f32[4096]",
              "--arg", "i32"]
    with_exp = cli("ir", *common, "--const", "FLAG=1").stdout
    without = cli("ir", *common, "--const", "FLAG=0").stdout
    assert " exp " in with_exp and " exp " not in without


def test_parse_a_text_file(cli, tmp_path):
    path = golden_path(load_catalog()["matmul"], "python", 1)
    result = cli("ir", "--parse", str(path), "--stage", "normalized")
    assert result.returncode == 0, result.stderr
    assert "entry @kernel(" in result.stdout and "mmaf" in result.stdout


@pytest.mark.parametrize("args, fragment", [
    (["ir", "no_such_op"], "no operator named 'no_such_op'"),
    (["ir", "softmax", "--case", "9"], "softmax has no case 9"),
    (["ir", f"{FIXTURES}/bad_import.py:k"], "bad_import.py:2: the kernel file does not import"),
    (["ir", f"{FIXTURES}/branchy.py:nope", "--arg", "f32[4]"], "no @ct.kernel named 'nope'"),
    (["ir", f"{FIXTURES}/branchy.py:branchy", "--arg", "f32[4096]"],
     "1 --arg given; branchy(x, y, n, FLAG) takes 3 --arg (x, y, n)"),
    (["ir", f"{FIXTURES}/branchy.py:branchy", "--arg", "f32[4096]", "--arg", "f32[4096]",
      "--arg", "i32"], "constants do not match: missing ['FLAG']"),
    (["ir", f"{FIXTURES}/branchy.py:branchy", "--arg", "f32[4096]", "--arg", "f32[4096]",
      "--arg", "i32", "--const", "FLAG=on"], "--const FLAG='on' is text"),
    (["ir", f"{FIXTURES}/rejected.py:not_pow2", "--arg", "f32[100]", "--arg", "f32[100]"],
     "cuda-tile rejected not_pow2"),
    (["ir", "--parse", "/nonexistent.tileir"], "cannot read"),
])
def test_bad_input_is_one_clear_message_and_exit_2(cli, args, fragment):
    result = cli(*args)
    assert result.returncode == 2
    assert fragment in result.stderr
    assert "Traceback" not in result.stderr


def test_unparsable_file_names_line_and_column(cli, tmp_path):
    bad = tmp_path / "bad.tileir"
    bad.write_text("entry @k() {\n  %0 = addf %a, %b : tile<f32\n}\n")
    result = cli("ir", "--parse", str(bad))
    assert result.returncode == 2
    assert f"{bad}:2:" in result.stderr and "tile<f32" in result.stderr


def test_pygmentize_knows_tileir(tmp_path):
    pygmentize = Path(sys.executable).parent / "pygmentize"
    path = golden_path(load_catalog()["softmax"], "python", 0)
    out = subprocess.run([str(pygmentize), "-l", "tileir", "-f", "html", str(path)],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert 'class="nv"' in out.stdout          # values highlighted as variables
    assert 'class="k"' in out.stdout           # `entry` / `reduce` as keywords


def test_ir_on_a_triton_kernel_prints_the_derived_kernels_ir_and_its_ttir(cli):
    """A Triton kernel (a catalog name, or FILE.py:KERNEL with its call) is read and translated
    without importing its module's dependencies: its derived cuTile kernel's Tile IR by default,
    Triton's own TTIR with --side triton."""
    derived = cli("ir", "triton_vec_add")
    assert derived.returncode == 0, derived.stderr
    assert derived.stdout.startswith("entry @vec_add") and "load_view_tko" in derived.stdout
    ttir = cli("ir", "triton_vec_add", "--side", "triton")
    assert ttir.returncode == 0 and "tt.load" in ttir.stdout and "tt.store" in ttir.stdout
    from_file = cli("ir", "tests/fixtures/triton_everyday.py:math_forms", "--arg", "f32[2048]",
                    "--arg", "f32[2048]", "--const", "BLOCK=512", "--stage", "normalized")
    assert from_file.returncode == 0, from_file.stderr
    assert "entry @kernel(" in from_file.stdout and "exp2" in from_file.stdout
    refused = cli("ir", "softmax", "--side", "triton")
    assert refused.returncode == 2 and "softmax is a cuTile kernel: it has no TTIR" in \
        refused.stderr
