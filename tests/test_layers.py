"""The house rule as a check that fails (tools/layers.py): no room of workbench/ imports a
room above it, imports inside functions included; the breaches known today only shrink."""
import shutil
import subprocess
import sys

import pytest

from workbench.catalog import REPO_ROOT

sys.path.insert(0, str(REPO_ROOT / "tools"))
import layers  # noqa: E402


def test_the_tree_has_no_breach_but_the_known_ones():
    found = {(m, t) for m, t, _ in layers.breaches()}
    assert found - layers.KNOWN == set(), "a new import breaks the layer table"
    assert layers.KNOWN - found == set(), "a known breach is gone: take it off KNOWN"


@pytest.mark.parametrize("where, line", [
    ("sources/record.py", "from ..port.pipeline import run_pipeline\n"),          # at the top
    ("ir/parse.py", "def _later():\n    from ..rust import cargo\n    return cargo\n"),  # lazy
])
def test_a_planted_breach_fails_the_check(tmp_path, where, line):
    copy = tmp_path / "tree"
    shutil.copytree(REPO_ROOT / "workbench", copy / "workbench",
                    ignore=shutil.ignore_patterns("__pycache__", "static"))
    shutil.copytree(REPO_ROOT / "tools", copy / "tools",
                    ignore=shutil.ignore_patterns("__pycache__"))
    target = copy / "workbench" / where
    target.write_text(target.read_text() + "\n" + line)
    result = subprocess.run([sys.executable, str(copy / "tools" / "layers.py")],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 1
    module = "workbench." + where.removesuffix(".py").replace("/", ".")
    assert any(l.startswith(f"NEW   {module} (") for l in result.stdout.splitlines()), \
        result.stdout
