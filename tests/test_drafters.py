"""The one Draft and Diagnostic type every drafter returns, and the Drafter protocol."""
from workbench.port.agent import AgentDrafter
from workbench.port.drafters import Diagnostic, Draft, Drafter
from workbench.port.rules import RulesDrafter


def test_diagnostic_and_draft_json_round_trip():
    d = Diagnostic(12, "ct.scan", "no rule", file="k.py")
    assert Diagnostic.from_json(d.to_json()) == d
    assert str(d) == "k.py:12: ct.scan: no rule"
    plain = Diagnostic(3, "if", "runtime branch")
    assert plain.to_json() == {"line": 3, "construct": "if", "message": "runtime branch"}
    assert str(plain) == "line 3: if: runtime branch"
    draft = Draft({"src/kernel.rs": "//"}, [d, plain], ["a note"])
    again = Draft.from_json(draft.to_json())
    assert again == draft and not again.ok
    assert Draft({"a": "b"}).ok


def test_both_drafters_follow_the_protocol():
    assert isinstance(RulesDrafter(), Drafter)
    assert isinstance(AgentDrafter(model="m"), Drafter)
