"""The agent drafter with the real anthropic SDK; only its HTTP transport is scripted."""
import json
from pathlib import Path

import httpx2
import pytest

from workbench.catalog import get_operator
from workbench.port import pipeline
from workbench.port.agent import AgentDrafter, Limits

SOFTMAX = get_operator("softmax")
PORT = SOFTMAX.port_folder
KEY = "sk-ant-test-0123456789-never-written-anywhere"


def reply(*blocks, stop="tool_use"):
    return {"id": "msg_test", "type": "message", "role": "assistant", "model": "claude-test",
            "content": list(blocks), "stop_reason": stop, "stop_sequence": None,
            "usage": {"input_tokens": 100, "output_tokens": 50}}


def tool(name, args, ident="tu_1"):
    return {"type": "tool_use", "id": ident, "name": name, "input": args}


def text(words):
    return {"type": "text", "text": words}


KERNEL_FILES = {"src/kernel.rs": (PORT / "src" / "kernel.rs").read_text()}
HOST_FILES = {name: (PORT / name).read_text() for name in ("Cargo.toml", "port.toml", "src/lib.rs")}


class Script:
    """Answers each request with the next scripted reply and keeps what was sent."""

    def __init__(self, replies):
        self.replies, self.requests = list(replies), []

    def __call__(self, request: httpx2.Request) -> httpx2.Response:
        sent = request.headers.get("x-api-key") or request.headers.get("authorization", "")
        assert sent.endswith(KEY)                            # the SDK sent the env's key
        self.requests.append(json.loads(request.content))
        item = self.replies.pop(0)
        if isinstance(item, Exception):
            raise item
        return httpx2.Response(200, json=item)


@pytest.fixture
def runs(tmp_path, monkeypatch):
    monkeypatch.setattr(pipeline, "RUNS_DIR", tmp_path / "runs")
    monkeypatch.setenv("ANTHROPIC_API_KEY", KEY)
    return tmp_path


def drafter(script, runs, **limits):
    import anthropic
    client = anthropic.Anthropic(http_client=httpx2.Client(transport=httpx2.MockTransport(script)),
                                 max_retries=0)
    return AgentDrafter(model="claude-test", cache_dir=runs / "cache", client=client,
                        limits=Limits(**limits) if limits else None)


def all_text(root: Path) -> str:
    return "\n".join(p.read_text(errors="replace") for p in root.rglob("*") if p.is_file())


def test_clean_run_then_replay_from_the_cache(runs):
    script = Script([reply(tool("submit", {"files": KERNEL_FILES, "ok": True})),
                     reply(tool("submit", {"files": HOST_FILES}))])
    result = pipeline.run_pipeline(SOFTMAX, drafter(script, runs))
    assert result.verdict in ("PASS", "PASS_WITH_NOTES"), result.summary()
    assert [a.stage for a in result.artifacts][:5] == ["analyze", "write_kernel", "write_host",
                                                       "build", "ir_diff"]
    assert result.port == runs / "runs" / "ports" / "softmax" / "port"   # not the catalog's
    assert len(script.requests) == 2
    # a rerun sends nothing: every reply comes from the cache; the first draft is kept
    silent = Script([])
    again = pipeline.run_pipeline(SOFTMAX, drafter(silent, runs))
    assert again.verdict == result.verdict and silent.requests == []
    assert (again.folder / "previous_port" / "src" / "kernel.rs").exists()
    assert KEY not in all_text(runs)


def test_schema_violation_is_sent_back_and_corrected(runs):
    script = Script([reply(tool("submit", {"files": KERNEL_FILES})),          # no "ok"
                     reply(tool("submit", {"files": KERNEL_FILES, "ok": True}, "tu_2")),
                     reply(tool("submit", {"files": HOST_FILES}))])
    result = pipeline.run_pipeline(SOFTMAX, drafter(script, runs))
    assert result.verdict in ("PASS", "PASS_WITH_NOTES")
    sent_back = script.requests[1]["messages"][-1]["content"][0]
    assert sent_back["is_error"] and "schema violation" in sent_back["content"]


def test_tool_error_reaches_the_model(runs):
    script = Script([reply(tool("read_file", {"path": "../../etc/passwd"})),
                     reply(tool("submit", {"files": KERNEL_FILES, "ok": True}, "tu_2")),
                     reply(tool("submit", {"files": HOST_FILES}))])
    pipeline.run_pipeline(SOFTMAX, drafter(script, runs))
    result_block = script.requests[1]["messages"][-1]["content"][0]
    assert result_block["is_error"] and "not a readable repository file" in result_block["content"]


def test_run_cap_ends_the_run_with_a_verdict(runs):
    script = Script([reply(text("thinking"), stop="end_turn") for _ in range(3)])
    result = pipeline.run_pipeline(SOFTMAX, drafter(script, runs, max_turns=3))
    assert result.verdict == "CAP_REACHED"
    assert result.artifacts[-1].stage == "final"
    assert (PORT / "src" / "kernel.rs").read_text() == KERNEL_FILES["src/kernel.rs"]  # untouched


def test_network_failure_is_an_error_verdict(runs):
    script = Script([httpx2.ConnectError("connection refused")])
    result = pipeline.run_pipeline(SOFTMAX, drafter(script, runs))
    assert result.verdict == "ERROR"
    assert "network failure" in result.artifacts[1].summary
    assert KEY not in all_text(runs)


def test_missing_key_says_what_to_do(monkeypatch):
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    from workbench.errors import WorkbenchError
    with pytest.raises(WorkbenchError, match="ANTHROPIC_API_KEY"):
        AgentDrafter().client()
