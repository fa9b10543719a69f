"""Every port's Tile IR against its Python kernel's, for every case: no FAIL verdict, and
every fact the port states beyond the reference's is re-derived per call or checked."""
import pytest

from workbench.catalog import load_catalog
from workbench.ownership.pairs import operator_diff

CASES = [(op.name, c.index) for op in load_catalog().values() for c in op.cases]


@pytest.mark.parametrize("name, case", CASES, ids=[f"{n}-{c}" for n, c in CASES])
def test_port_matches_its_python_kernel(name, case):
    report = operator_diff(load_catalog()[name], case)
    assert report.verdict in ("PASS", "PASS_WITH_NOTES"), report.to_text()
    # what remains is facts the port may state and known noise, never a changed program
    assert {f.category for f in report.findings} <= {"hint", "noise"}
    for finding in report.findings:
        if finding.category == "hint":
            fact = finding.fact
            assert fact and fact["direction"] == "stronger", finding.detail
            assert fact["origin"] == "call" or fact["checked_by"], finding.detail
            assert not fact["subject"].startswith("view"), "arguments are named"


def test_each_ports_readme_says_what_its_facts_are():
    """The facts section of every port's README is what the diff says today (weaker,
    stronger and where it comes from, what the C ABI checks): tools/port_fact_notes.py."""
    import subprocess
    import sys
    from pathlib import Path
    tool = Path(__file__).resolve().parent.parent / "tools" / "port_fact_notes.py"
    result = subprocess.run([sys.executable, str(tool), "--check"], capture_output=True,
                            text=True, timeout=900)
    assert result.returncode == 0, result.stdout + result.stderr
