"""The structural diff: quiet on renames and reorders, loud on each classic mistranslation."""
import json

import pytest

from workbench.catalog import load_catalog
from workbench.diff import diff_modules
from workbench.diff.findings import _one_sided, noise_catalog  # noqa: F401
from workbench.goldens import golden_path
from workbench.ir.normalize import normalize
from workbench.ir.parse import parse

from mutations import MISTRANSLATIONS, rename_all_values, reorder_independent_ops

GOLDENS = [golden_path(op, "python", c.index) for op in load_catalog().values() for c in op.cases]
IDS = [f"{p.parent.parent.name}-{p.stem.split('.')[1]}" for p in GOLDENS]


def diff_texts(left: str, right: str):
    return diff_modules(normalize(parse(left)), normalize(parse(right)))


@pytest.mark.parametrize("path", GOLDENS, ids=IDS)
def test_identical_and_renamed_and_reordered_pass(path):
    text = path.read_text()
    assert diff_texts(text, text).verdict == "PASS"
    assert diff_texts(text, rename_all_values(text)).verdict == "PASS"
    reordered = reorder_independent_ops(text)
    assert reordered is not None and reordered != text
    report = diff_texts(text, reordered)
    assert report.verdict == "PASS", report.to_text()


@pytest.mark.parametrize("name", list(MISTRANSLATIONS))
@pytest.mark.parametrize("path", GOLDENS, ids=IDS)
def test_each_mistranslation_is_caught(path, name):
    mutate, category = MISTRANSLATIONS[name]
    text = path.read_text()
    mutated = mutate(text)
    if mutated is None:
        pytest.skip(f"{name} does not apply to this kernel")
    report = diff_texts(text, mutated)
    categories = {f.category for f in report.findings}
    assert category in categories, report.to_text()
    assert report.verdict == "FAIL"


def test_detection_rate_over_all_pairs():
    applied = caught = 0
    for path in GOLDENS:
        text = path.read_text()
        for mutate, category in MISTRANSLATIONS.values():
            mutated = mutate(text)
            if mutated is None:
                continue
            applied += 1
            caught += category in {f.category for f in diff_texts(text, mutated).findings}
    assert applied >= 80
    assert caught == applied, f"detected {caught}/{applied}"


def test_one_inserted_op_does_not_cascade():
    text = golden_path(load_catalog()["layer_norm"], "python", 0).read_text()
    line = next(l for l in text.splitlines() if " rsqrt " in l)
    name, rest = line.split(" = ", 1)
    operand, type_ = rest.split(" ")[1], rest.split(" : ")[1].split(" loc(")[0]
    # an unused extra op: exactly one finding
    unused = f"  %wb_extra = negf {operand} : {type_}"
    report = diff_texts(text, text.replace(line, unused + "\n" + line, 1))
    assert [f.category for f in report.findings] == ["arithmetic"]
    # an op spliced into the chain: the op itself and the one use it changes, nothing more
    spliced = text.replace(line, f"  %wb_neg = negf {operand} : {type_}\n"
                           + line.replace(f"rsqrt {operand}", "rsqrt %wb_neg"), 1)
    report = diff_texts(text, spliced)
    assert sorted(f.category for f in report.findings) == ["arithmetic", "critical"]


def test_findings_link_back_to_python_lines():
    op = load_catalog()["softmax"]
    text = golden_path(op, "python", 0).read_text()
    report = diff_texts(text, MISTRANSLATIONS["change_reduction_identity"][0](text))
    finding = next(f for f in report.findings if f.kind == "reduction_identity")
    source_line = op.kernel_file.read_text().splitlines()[finding.left["source_line"] - 1]
    assert "ct.max" in source_line or "ct.sum" in source_line
    assert report.left_text.splitlines()[finding.left["ir_line"] - 1].strip().startswith("%")


def test_a_report_reloads_from_its_json():
    """What `workbench diff --json` writes (and the widget reads) is the whole report."""
    from workbench.diff.verdict import DiffReport
    from workbench.errors import WorkbenchError
    text = golden_path(load_catalog()["softmax"], "python", 0).read_text()
    report = diff_texts(text, MISTRANSLATIONS["change_reduction_identity"][0](text))
    assert report.findings and report.left_sources
    saved = json.loads(json.dumps(report.to_json()))
    again = DiffReport.from_json(saved)
    assert again == report
    assert again.to_json() == saved and again.to_text() == report.to_text()
    with pytest.raises(WorkbenchError, match="schema"):
        DiffReport.from_json({"schema": "workbench.diff/0"})


def test_noise_entries_say_why():
    catalog = noise_catalog()
    assert {"extra_assume_bounded", "readonly_load_token", "reordered", "make_token"} <= set(catalog)
    for entry in catalog.values():
        assert len(entry["why"]) > 40


def test_extra_assume_bounded_is_noise():
    # cutile adds `assume bounded<0, ?>` on block ids; cuTile Python does not
    text = golden_path(load_catalog()["softmax"], "python", 0).read_text()
    bid_line = next(l for l in text.splitlines() if "get_tile_block_id" in l)
    load_line = next(l for l in text.splitlines() if "load_view_tko" in l)
    bounded = "  %wb_b = assume bounded<0, ?>, %blockId_x : tile<i32>"
    mutated = text.replace(bid_line, bid_line + "\n" + bounded, 1).replace(
        load_line, load_line.replace("[%blockId_x,", "[%wb_b,"), 1)
    report = diff_texts(text, mutated)
    assert report.verdict == "PASS", report.to_text()
    assert any(f.noise_id == "extra_assume_bounded" for f in report.findings)
    # a fact about the block id that is not true of every block id: a promise, and with two
    # text files nobody can be shown to check it
    promised = mutated.replace("bounded<0, ?>, %blockId_x", "div_by<2>, %blockId_x")
    report = diff_texts(text, promised)
    assert report.verdict == "FAIL"
    assert [f.kind for f in report.findings if f.category == "critical"] == ["div_by"]
    assert "unchecked promise" in report.to_text()


def test_cli_diff_files_json_html_and_errors(cli, tmp_path):
    a = golden_path(load_catalog()["matmul"], "python", 0)
    b = tmp_path / "b.tileir"
    b.write_text(MISTRANSLATIONS["swap_mma_operands"][0](a.read_text()))
    page = tmp_path / "diff.html"
    result = cli("diff", "--left", str(a), "--right", str(b), "--json", "--html", str(page))
    assert result.returncode == 1
    data = json.loads(result.stdout)
    assert data["schema"] == "workbench.diff/1" and data["verdict"] == "FAIL"
    assert any(f["kind"] == "mma_operands" for f in data["findings"])
    html = page.read_text()
    assert "FAIL" in html and "mmaf" in html and "http" not in html.split("<body>")[1]
    assert cli("diff", "--left", str(a), "--right", str(a)).returncode == 0
    bad = tmp_path / "bad.tileir"
    bad.write_text("entry @k() {\n  %0 = addf %a : tile<f32\n}\n")
    result = cli("diff", "--left", str(a), "--right", str(bad))
    assert result.returncode == 2
    assert "right side" in result.stderr and f"{bad}:2:" in result.stderr


def test_constants_in_another_order_pass():
    text = golden_path(load_catalog()["matmul"], "python", 0).read_text()
    lines = text.splitlines()
    zero = next(i for i, l in enumerate(lines) if "constant <i32: 0>" in l)
    one = next(i for i, l in enumerate(lines) if "constant <i32: 1>" in l and i < zero)
    lines.insert(zero + 1, lines.pop(one))        # the 1 now comes after the 0
    report = diff_texts(text, "\n".join(lines) + "\n")
    assert report.verdict == "PASS", report.to_text()


def test_hints_compare_as_they_apply_on_the_target():
    """cuTile Python writes `default = {..}`; a Rust port names each GPU. The same hints for
    sm_90 are equal; other values for sm_90 are a finding; no hints at all is no attribute."""
    text = golden_path(load_catalog()["softmax"], "python", 0).read_text()
    python_hints = "optimization_hints=<default = {num_worker_warps_per_cta = 8, occupancy = 8}>"
    assert python_hints in text
    per_gpu = text.replace(python_hints, "optimization_hints=<sm_100 = {occupancy = 2}, "
                                         "sm_90 = {occupancy = 8, num_worker_warps_per_cta = 8}>")
    assert diff_texts(text, per_gpu).verdict == "PASS"
    other = per_gpu.replace("sm_90 = {occupancy = 8", "sm_90 = {occupancy = 4")
    report = diff_texts(text, other)
    # a changed hint with no machine code to show it has no effect fails (perf)
    assert report.verdict == "FAIL"
    assert [(f.category, f.kind) for f in report.findings if "occupancy" in f.detail] == [
        ("perf", "occupancy")]
    assert "no SASS" in report.findings[-1].detail
    none = text.replace(python_hints, "optimization_hints=<default = {}>")
    assert diff_texts(none, none.replace(" optimization_hints=<default = {}>", "")).verdict == "PASS"


def test_a_changed_constant_names_both_values():
    """Two specializations of one kernel (real exports) that differ only in a constant the
    kernel divides by: one finding with both values, not one missing and one extra."""
    from pathlib import Path
    from workbench.ir.stages import operator_python_ir
    from workbench.resolve import resolve_target
    kernel = Path(__file__).resolve().parent.parent / "examples" / "own_kernel" / "my_norm.py"
    args = ["bf16[64,768]", "bf16[768]", "bf16[64,768]", "f32"]
    left, right = (normalize(operator_python_ir(resolve_target(
        f"{kernel}:rms_norm_kernel", args, [f"N={n}", "TILE=1024"]), 0).module())
        for n in (768, 512))
    report = diff_modules(left, right)
    changed = [f for f in report.findings if f.kind == "constant_value"]
    assert [f.detail for f in changed] == ["`constant` (f32): 7.680000e+02 -> 5.120000e+02"]
    assert changed[0].category == "arithmetic" and report.verdict == "FAIL"
    assert not [f for f in report.findings if "missing in the port" in f.detail
                or "extra in the port" in f.detail]


def test_a_changed_use_of_a_shared_constant_names_both_values():
    """Python divides by one constant N twice (one `constant`, one reshape, two uses); the
    port changed one use to 512 (its own constant and reshape): one finding with both
    values (the real IR of a drafted layer norm with a planted fault), not an extra constant
    in the port and a divf reading other values."""
    from pathlib import Path
    folder = Path(__file__).resolve().parent / "fixtures" / "diff"
    report = diff_texts((folder / "shared_constant.python.tileir").read_text(),
                        (folder / "shared_constant.port.tileir").read_text())
    changed = [f for f in report.findings if f.kind == "constant_value"]
    assert [f.detail for f in changed] == ["`constant` (f32): 7.680000e+02 -> 5.120000e+02"]
    assert "7.680000e+02" in changed[0].left["text"] and "5.120000e+02" in changed[0].right["text"]
    assert not [f for f in report.findings if f.kind in ("dataflow", "op")], report.to_text()
    assert report.verdict == "FAIL"
