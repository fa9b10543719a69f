"""The offline drafter on a kernel it was not written for: whatever goes wrong inside it, the
user gets a verdict with the line and what to do, never a traceback that ends the run."""
from __future__ import annotations

from workbench.argspec import parse_arg
from workbench.catalog import Case
from workbench.port.analyze import analyze
from workbench.port.rules import draft


def test_a_drafter_bug_becomes_a_diagnostic_at_the_statement_instead_of_a_traceback(monkeypatch):
    """A held-out kernel that trips an unexpected error in a rule still gets a verdict: the
    line, what failed inside the drafter, and what to do."""
    import dataclasses

    from workbench.port.rules.table import RULES

    def broken(t, node, hint):
        raise KeyError("x")
    monkeypatch.setitem(RULES, "exp", dataclasses.replace(RULES["exp"], fn=broken))
    source = ("import cuda.tile as ct\n\n@ct.kernel\ndef k(x, y, T: ct.Constant[int]):\n"
              "    t = ct.load(x, (ct.bid(0),), shape=(T,))\n"
              "    ct.store(y, (ct.bid(0),), ct.exp(t))\n")
    case = Case(index=0, args=(parse_arg("f32[1024]"), parse_arg("f32[1024]")), consts={"T": 256})
    d = draft(analyze(source, "k.py", "k", [case]), source, "k")
    assert not d.ok
    [bug] = [x for x in d.diagnostics if x.construct == "drafter"]
    assert bug.line == 6
    assert "KeyError" in bug.message and "test_rules_robustness.py" in bug.message
    assert "port the statement by hand" in bug.message
