"""Facts compared by direction: every weakening of a fact or hint is caught (a FAIL, or a
note that carries "same SASS" evidence), every strengthening that nobody checks fails, and
renamed copies still pass."""
import pytest

from workbench.catalog import load_catalog
from workbench.diff import diff_modules
from workbench.diff.facts import (CALL, GIVEN, INCOMPARABLE, PORT, STRONGER, UNKNOWN, WEAKER,
                                  FactContext, FactSet, MachineEvidence, compare_facts, in_units,
                                  judge)
from workbench.goldens import golden_path
from workbench.ir.disasm import disassemble
from workbench.ir.normalize import normalize
from workbench.ir.parse import parse

from fact_mutations import STRENGTHENINGS, WEAKENINGS
from mutations import rename_all_values

GOLDENS = [golden_path(op, "python", c.index) for op in load_catalog().values() for c in op.cases]
IDS = [f"{p.parent.parent.name}-{p.stem.split('.')[1]}" for p in GOLDENS]
SAME = MachineEvidence(True, True, "a vs b")
DIFFERENT = MachineEvidence(True, False, "a vs b", ["global loads: LDG.128 x1 -> LDG.32 x4"])


def diff_texts(left: str, right: str, context=None):
    return diff_modules(normalize(parse(left)), normalize(parse(right)), context=context)


# -- the model --------------------------------------------------------------------------------

@pytest.mark.parametrize("reference, port, expected", [
    (["div_by<16>"], ["div_by<8>"], {"div_by": WEAKER}),
    (["div_by<16>"], ["div_by<1>"], {"div_by": WEAKER}),
    (["div_by<4>"], ["div_by<8>"], {"div_by": STRONGER}),
    (["div_by<4>"], ["div_by<4>", "div_by<2>"], {}),
    (["div_by<4, every 4 along 0>"], ["div_by<4>"], {"div_by": STRONGER}),
    (["div_by<4, every 4 along 0>"], ["div_by<4, every 4 along 1>"], {"div_by": INCOMPARABLE}),
    (["bounded<0, ?>"], ["bounded<0, 100>"], {"bounded": STRONGER}),
    (["bounded<0, 100>"], ["bounded<10, 200>"], {"bounded": INCOMPARABLE}),
    (["same_elements<[1, 4]>"], ["same_elements<[1, 8]>"], {"same_elements": STRONGER}),
    (["same_elements<[1, 4]>"], [], {"same_elements": WEAKER}),
    (["same_elements<[2, 1]>"], ["same_elements<[1, 2]>"], {"same_elements": INCOMPARABLE}),
])
def test_each_kind_compares_by_direction(reference, port, expected):
    assert compare_facts(reference, port) == expected


def test_divisibility_is_shown_in_elements_and_bytes():
    assert in_units("div_by<4>", "stride", 4) == "div_by<4> (4 elements = 16 B)"
    assert in_units("div_by<8>", "stride", 2) == "div_by<8> (8 elements = 16 B)"
    assert in_units("div_by<16>", "base", 2) == "div_by<16> (16 B)"
    assert FactSet.of(["div_by<8>", "bounded<0, ?>"]).kinds() == {
        "div_by": "div_by<8>", "bounded": "bounded<0, ?>"}


def test_the_rules():
    same, different, none = (lambda: SAME), (lambda: DIFFERENT), (lambda: MachineEvidence(False))
    assert judge(WEAKER, PORT, None, same)[0] == "hint"
    assert judge(WEAKER, PORT, None, different)[0] == "perf"
    assert judge(WEAKER, UNKNOWN, None, none)[0] == "perf"
    assert judge(STRONGER, CALL, None, none)[0] == "hint"
    assert judge(STRONGER, GIVEN, None, none)[0] == "noise"
    assert judge(STRONGER, PORT, "the C ABI", none)[0] == "hint"
    assert judge(STRONGER, PORT, None, none)[0] == "critical"
    assert "unchecked promise" in judge(STRONGER, PORT, None, none)[1]
    assert "unchecked promise" in judge(STRONGER, UNKNOWN, None, none)[1]
    assert judge(INCOMPARABLE, CALL, None, same)[0] == "critical"


# -- the mutation suite, on real IR text ---------------------------------------------------------

@pytest.mark.parametrize("name", list(WEAKENINGS))
@pytest.mark.parametrize("path", GOLDENS, ids=IDS)
def test_each_weakening_of_text_fails_for_want_of_sass(path, name):
    mutate, kind = WEAKENINGS[name]
    pair = mutate(path.read_text())
    if pair is None:
        pytest.skip(f"{name}: nothing of that kind in this kernel")
    report = diff_texts(*pair)
    assert report.verdict == "FAIL", report.to_text()
    found = [f for f in report.findings if f.category != "noise"]
    assert [(f.category, f.kind) for f in found] == [("perf", kind)], report.to_text()
    assert "no SASS" in found[0].detail and "text files" in found[0].detail
    # a renamed but otherwise identical copy of either side still passes
    assert diff_texts(pair[1], rename_all_values(pair[1])).verdict == "PASS"


@pytest.mark.parametrize("name", list(STRENGTHENINGS))
@pytest.mark.parametrize("path", GOLDENS, ids=IDS)
def test_each_strengthening_of_text_is_an_unchecked_promise(path, name):
    mutate, kind = STRENGTHENINGS[name]
    pair = mutate(path.read_text())
    if pair is None:
        pytest.skip(f"{name}: nothing of that kind in this kernel")
    report = diff_texts(*pair)
    found = [f for f in report.findings if f.category != "noise"]
    assert [(f.category, f.kind) for f in found] == [("critical", kind)], report.to_text()
    assert "unchecked promise" in found[0].detail
    assert found[0].fact["direction"] == STRONGER and found[0].fact["origin"] == UNKNOWN


def test_every_kind_of_weakening_applies_to_some_kernel():
    applied = {name for name, (mutate, _) in WEAKENINGS.items()
               if any(mutate(p.read_text()) for p in GOLDENS)}
    assert applied == set(WEAKENINGS)


def test_a_weaker_fact_with_the_same_sass_is_a_note_that_says_so():
    text = GOLDENS[0].read_text()
    reference, port = WEAKENINGS["base_dropped"][0](text)
    report = diff_texts(reference, port, FactContext(evidence=lambda: SAME))
    assert report.verdict == "PASS_WITH_NOTES"
    (finding,) = [f for f in report.findings if f.category != "noise"]
    assert "same SASS: no effect" in finding.detail
    assert report.to_json()["evidence"]["same"] is True
    report = diff_texts(reference, port, FactContext(evidence=lambda: DIFFERENT))
    assert report.verdict == "FAIL" and "LDG.128 x1 -> LDG.32 x4" in report.to_text()


def test_evidence_is_asked_for_only_when_a_finding_needs_it():
    calls = []
    text = GOLDENS[0].read_text()
    context = FactContext(evidence=lambda: calls.append(1) or SAME)
    assert diff_texts(text, rename_all_values(text), context).verdict == "PASS"
    assert calls == []


def test_a_fact_used_by_many_ops_is_one_finding():
    text = golden_path(load_catalog()["attention"], "python", 1).read_text()
    reference, port = STRENGTHENINGS["stride_strengthened"][0](text)
    found = [f for f in diff_texts(reference, port).findings if f.category != "noise"]
    assert len(found) == 1 and found[0].fact["uses"] >= 1


# -- the mutation suite with machine code: weakened at the source, exported for real -------------

OPS = ["silu_and_mul", "softmax", "rms_norm", "layer_norm", "matmul", "attention"]


@pytest.mark.parametrize("name", OPS)
def test_every_weakening_of_a_real_export_is_caught_with_sass_evidence(name, tmp_path):
    from export_mutations import mutations
    from workbench.ownership.evidence import compare_sass
    from workbench.sass.stages import sass_of
    applied = mutations(load_catalog()[name], 0, tmp_path)
    assert {"base", "shape", "stride", "unit_stride", "occupancy", "latency", "allow_tma"} <= \
        set(applied)
    for mutation, (reference, port, kind) in applied.items():
        context = FactContext(evidence=lambda: compare_sass(sass_of(reference), sass_of(port),
                                                            "reference vs weakened export"))
        left, right = (normalize(parse(disassemble(b))) for b in (reference, port))
        report = diff_modules(left, right, context=context)
        found = [f for f in report.findings if f.category != "noise"]
        assert [f.kind for f in found] == [kind], (mutation, report.to_text())
        (finding,) = found
        if finding.category == "hint":
            assert report.verdict == "PASS_WITH_NOTES" and "same SASS: no effect" in finding.detail
        else:
            assert (finding.category, report.verdict) == ("perf", "FAIL"), report.to_text()
            assert "SASS differs" in finding.detail
        assert finding.fact["evidence"]["available"] is True
