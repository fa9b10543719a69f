"""Every port's Tile IR against its Python kernel's, for every case: no FAIL verdict."""
import pytest

from workbench.catalog import load_catalog
from workbench.pairs import operator_pair
from workbench.diff import diff_modules

CASES = [(op.name, c.index) for op in load_catalog().values() for c in op.cases]


@pytest.mark.parametrize("name, case", CASES, ids=[f"{n}-{c}" for n, c in CASES])
def test_port_matches_its_python_kernel(name, case):
    left, right = operator_pair(load_catalog()[name], case)
    report = diff_modules(left, right)
    assert report.verdict in ("PASS", "PASS_WITH_NOTES"), report.to_text()
    # what remains is specialization hints and known noise, never a changed program
    assert {f.category for f in report.findings} <= {"hint", "noise"}
