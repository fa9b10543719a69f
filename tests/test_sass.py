"""SASS compiled here with the pinned tileiras (no GPU): what specializations cost."""
import json

from workbench.argspec import parse_arg
from workbench.ir.export import export_bytecode
from workbench.sources.kernel import load_kernel
from workbench.sass.diff import diff_sass
from workbench.sass.model import parse_sass
from workbench.sass.stages import attribute, sass_of

from conftest import FIXTURES


def vec_add(*args):
    kernel = load_kernel(FIXTURES / "vec_add.py", "vec_add")
    return sass_of(export_bytecode(kernel, [parse_arg(a) for a in args], {"TILE": 1024})[0])


def test_aligned_f32_uses_wide_loads_and_odd_f16_narrow_ones():
    wide = vec_add("f32[100000]", "f32[100000]", "f32[100000]").summary
    narrow = vec_add("f16[4099]", "f16[4099]", "f16[4099]").summary
    assert wide.global_loads.get("LDG.128", 0) > 0
    assert set(narrow.global_loads) <= {"LDG.U16", "LDG.U8"} and narrow.global_loads
    assert "STG.U16" in narrow.global_stores


def test_dropping_the_alignment_assumption_narrows_the_loads():
    aligned = vec_add("f32[100000]", "f32[100000]", "f32[100000]")
    shifted = vec_add("f32[100000]:offset=1", "f32[100000]", "f32[100000]")
    assert aligned.summary.global_loads != shifted.summary.global_loads
    changes = attribute("div_by", aligned.summary, shifted.summary)
    assert changes and changes[0].startswith("global_loads")
    text = diff_sass(aligned.instructions, shifted.instructions, aligned.summary,
                     shifted.summary).text()
    assert "<--" in text


def test_matmul_uses_hopper_matrix_instructions(cli):
    result = cli("sass", "matmul", "--summary")
    assert result.returncode == 0, result.stderr
    assert "HGMMA" in result.stdout            # warpgroup MMA, fed by TMA, on sm_90
    assert "UTMALDG" in result.stdout


def test_parser_reads_predicates_modifiers_and_operands():
    line = "        /*0040*/               @!P0 LDG.E.128 R4, desc[UR4][R2.64] ;   /* 0x0 */"
    (ins,) = parse_sass(line)
    assert ins.predicate == "@!P0" and ins.opcode == "LDG" and ins.modifiers == ("E", "128")
    assert ins.operands == ("R4", "desc[UR4][R2.64]")
    assert ins.normalized() == "@P LDG.E.128 R, desc[R][R.#]"


def test_sass_json_and_bad_input(cli, tmp_path):
    result = cli("sass", "softmax", "--json")
    data = json.loads(result.stdout)
    assert data["summary"]["registers"] > 0 and data["instructions"]
    bad = tmp_path / "bad.py"
    bad.write_text("import cuda.tile as ct\n\n@ct.kernel\ndef k(x):\n    ct.store(x, index=(0,), tile=ct.load(x, index=(0,), shape=(100,)))\n")
    result = cli("sass", f"{bad}:k", "--arg", "f32[100]")
    assert result.returncode == 2 and "Traceback" not in result.stderr
