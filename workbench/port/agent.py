"""The Anthropic agent drafter: one conversation per stage, with tools to read files,
write the port's files, build, diff and check, and a `submit` tool whose input must match
the stage's output schema.

The key comes only from ANTHROPIC_API_KEY (the SDK reads it); it is never written to an
artifact, a log or the cache. Replies are cached by a content hash of the request, so a
rerun replays without calls. Limits: turns per stage, tokens per stage, and a cost cap.
"""
from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path

from ..operators import REPO_ROOT
from ..errors import WorkbenchError
from .drafters import Diagnostic, Draft
from .stages import stage_build, stage_gpu_check, stage_ir_diff

DEFAULT_MODEL = os.environ.get("WORKBENCH_AGENT_MODEL", "claude-sonnet-4-5")
# USD per million tokens (input, output) used for the cost cap; override with the env.
PRICE_PER_MTOK = (3.0, 15.0)

SUBMIT_SCHEMAS = {
    "write_kernel": {"type": "object", "required": ["files", "ok"], "properties": {
        "files": {"type": "object", "additionalProperties": {"type": "string"},
                  "description": "port-relative path (src/kernel.rs) -> full file text"},
        "ok": {"type": "boolean"},
        "diagnostics": {"type": "array", "items": {"type": "object", "required": [
            "line", "construct", "message"], "properties": {
            "line": {"type": "integer"}, "construct": {"type": "string"},
            "message": {"type": "string"}}}}}},
    "write_host": {"type": "object", "required": ["files"], "properties": {
        "files": {"type": "object", "additionalProperties": {"type": "string"}}}},
    "fix": {"type": "object", "required": ["fixed"], "properties": {
        "fixed": {"type": "boolean"}, "files": {"type": "object",
                                                "additionalProperties": {"type": "string"}}}},
}


class CapReached(Exception):
    pass


@dataclass
class Limits:
    max_turns: int = int(os.environ.get("WORKBENCH_AGENT_MAX_TURNS", 12))
    max_tokens_per_reply: int = 8000
    max_tokens_per_stage: int = 200_000
    max_cost_usd: float = float(os.environ.get("WORKBENCH_AGENT_MAX_COST", 5.0))


class AgentDrafter:
    name = "agent"

    def __init__(self, model: str | None = None, cache_dir: Path | None = None,
                 log_dir: Path | None = None, client=None, limits: Limits | None = None):
        self.model = model or DEFAULT_MODEL
        self.cache_dir = Path(cache_dir or REPO_ROOT / "runs" / ".agent-cache")
        self.log_dir = log_dir
        self.limits = limits or Limits()
        self.cost = 0.0
        self._client = client

    # -- the SDK ---------------------------------------------------------------------------
    def client(self):
        if self._client is None:
            if not os.environ.get("ANTHROPIC_API_KEY"):
                raise WorkbenchError("the agent drafter needs ANTHROPIC_API_KEY in the environment",
                                     "export ANTHROPIC_API_KEY=..., or use --drafter rules")
            import anthropic
            self._client = anthropic.Anthropic()
        return self._client

    def _create(self, **request):
        """messages.create, through the reply cache."""
        import anthropic
        key = hashlib.sha256(json.dumps(request, sort_keys=True, default=str).encode()).hexdigest()
        cached = self.cache_dir / f"{key[:2]}/{key}.json"
        if cached.exists():
            return anthropic.types.Message.model_validate_json(cached.read_text()), True
        message = self.client().messages.create(**request)
        cached.parent.mkdir(parents=True, exist_ok=True)
        cached.write_text(message.model_dump_json())
        return message, False

    # -- stages -------------------------------------------------------------------------------
    def write_kernel(self, ctx) -> Draft:
        try:
            out = self._converse(ctx, "write_kernel", _kernel_prompt(ctx))
        except CapReached as e:
            return Draft({}, [Diagnostic(0, "run cap", str(e))])
        diagnostics = [Diagnostic.from_json(d) for d in out.get("diagnostics", [])]
        if not out.get("ok") and not diagnostics:
            diagnostics.append(Diagnostic(0, "agent", "the agent submitted ok=false without "
                                                      "saying why"))
        return Draft(out.get("files", {}), diagnostics)

    def write_host(self, ctx) -> dict[str, str]:
        return self._converse(ctx, "write_host", _host_prompt(ctx)).get("files", {})

    def fix(self, ctx, analysis) -> bool:
        try:
            out = self._converse(ctx, "fix", _fix_prompt(ctx, analysis))
        except CapReached:
            return False
        for rel, text in out.get("files", {}).items():
            _safe_write(ctx.port, rel, text)
        return bool(out.get("fixed"))

    def _converse(self, ctx, stage: str, prompt: str) -> dict:
        import anthropic
        messages = [{"role": "user", "content": prompt}]
        tokens = 0
        for turn in range(self.limits.max_turns):
            try:
                message, from_cache = self._create(
                    model=self.model, max_tokens=self.limits.max_tokens_per_reply,
                    system=SYSTEM_PROMPT, tools=_tools(stage), messages=messages)
            except anthropic.APIConnectionError as e:
                raise WorkbenchError(f"agent ({stage}): network failure: {e}",
                                     "check the connection and rerun; replies so far are cached")
            except anthropic.APIStatusError as e:
                raise WorkbenchError(f"agent ({stage}): the API answered {e.status_code}: "
                                     f"{_safe_text(e)}", "see the status code")
            usage = message.usage
            tokens += usage.input_tokens + usage.output_tokens
            if not from_cache:
                self.cost += (usage.input_tokens * PRICE_PER_MTOK[0]
                              + usage.output_tokens * PRICE_PER_MTOK[1]) / 1e6
            self._log(stage, turn, message)
            if tokens > self.limits.max_tokens_per_stage or self.cost > self.limits.max_cost_usd:
                raise CapReached(f"{stage}: token or cost cap reached "
                                 f"({tokens} tokens, ${self.cost:.2f})")
            messages.append({"role": "assistant", "content": [b.model_dump() for b in message.content]})
            results, submitted = self._run_tools(ctx, stage, message.content)
            if submitted is not None:
                return submitted
            if not results:
                messages.append({"role": "user", "content": "Call `submit` with the stage result."})
            else:
                messages.append({"role": "user", "content": results})
        raise CapReached(f"{stage}: {self.limits.max_turns} turns without a valid submit")

    def _run_tools(self, ctx, stage: str, blocks):
        results, submitted = [], None
        for block in blocks:
            if getattr(block, "type", "") != "tool_use":
                continue
            try:
                if block.name == "submit":
                    _validate(block.input, SUBMIT_SCHEMAS[stage])
                    submitted = block.input
                    text = "accepted"
                else:
                    text = _TOOLS[block.name](ctx, **block.input)
                error = False
            except (WorkbenchError, KeyError, TypeError, ValueError, OSError) as e:
                text, error = f"error: {e}", True
            results.append({"type": "tool_result", "tool_use_id": block.id, "content": text[:20000],
                            "is_error": error})
        return results, submitted

    def _log(self, stage: str, turn: int, message) -> None:
        if self.log_dir is None:
            return
        with open(self.log_dir / "agent.log.jsonl", "a") as log:
            log.write(json.dumps({"stage": stage, "turn": turn, "model": message.model,
                                  "stop_reason": message.stop_reason,
                                  "usage": message.usage.model_dump(),
                                  "content": [b.model_dump() for b in message.content]}) + "\n")


def _safe_text(error) -> str:
    text = str(getattr(error, "message", "") or error)
    key = os.environ.get("ANTHROPIC_API_KEY")
    return text.replace(key, "[key]") if key else text


def _validate(value, schema: dict, path: str = "submit") -> None:
    """The subset of JSON Schema the submit schemas use."""
    kind = schema.get("type")
    types = {"object": dict, "array": list, "string": str, "boolean": bool, "integer": int}
    if kind and not isinstance(value, types[kind]):
        raise ValueError(f"schema violation at {path}: expected {kind}")
    if kind == "object":
        for name in schema.get("required", []):
            if name not in value:
                raise ValueError(f"schema violation at {path}: missing {name!r}")
        for name, sub in schema.get("properties", {}).items():
            if name in value:
                _validate(value[name], sub, f"{path}.{name}")
        extra = schema.get("additionalProperties")
        if isinstance(extra, dict):
            for name, item in value.items():
                if name not in schema.get("properties", {}):
                    _validate(item, extra, f"{path}.{name}")
    if kind == "array":
        for i, item in enumerate(value):
            _validate(item, schema.get("items", {}), f"{path}[{i}]")


def _safe_write(port: Path, rel: str, text: str) -> None:
    path = (port / rel).resolve()
    if not path.is_relative_to(port.resolve()):
        raise ValueError(f"{rel}: outside the port folder")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def _tool_read_file(ctx, path: str) -> str:
    full = (REPO_ROOT / path).resolve()
    if not full.is_relative_to(REPO_ROOT) or ".venv" in full.parts or not full.is_file():
        raise ValueError(f"{path}: not a readable repository file")
    return full.read_text()


def _tool_write_port_file(ctx, path: str, content: str) -> str:
    _safe_write(ctx.port, path, content)
    return f"wrote {path} ({len(content)} chars)"


def _tool_build(ctx) -> str:
    artifact = stage_build(ctx)
    return json.dumps({"verdict": artifact.verdict, "diagnostics": artifact.data["diagnostics"]})


def _tool_diff(ctx) -> str:
    artifact = stage_ir_diff(ctx)
    return json.dumps({"verdict": artifact.verdict, "cases": artifact.data["cases"]})[:20000]


def _tool_check(ctx) -> str:
    artifact = stage_gpu_check(ctx)
    return json.dumps({"verdict": artifact.verdict, "reason": artifact.data["reason"]})


_TOOLS = {"read_file": _tool_read_file, "write_port_file": _tool_write_port_file,
          "build": _tool_build, "diff": _tool_diff, "check": _tool_check}


def _tools(stage: str) -> list[dict]:
    empty = {"type": "object", "properties": {}}
    return [
        {"name": "read_file", "description": "Read a repository file (path relative to the repo).",
         "input_schema": {"type": "object", "required": ["path"],
                          "properties": {"path": {"type": "string"}}}},
        {"name": "write_port_file", "description": "Write a file of the port (path relative to the port folder).",
         "input_schema": {"type": "object", "required": ["path", "content"], "properties": {
             "path": {"type": "string"}, "content": {"type": "string"}}}},
        {"name": "build", "description": "cargo build the port; returns the verdict and errors as file:line.",
         "input_schema": empty},
        {"name": "diff", "description": "Structural Tile IR diff of the port against the Python kernel, every case.",
         "input_schema": empty},
        {"name": "check", "description": "On-GPU correctness check (skipped without a GPU).",
         "input_schema": empty},
        {"name": "submit", "description": f"Finish the {stage} stage with its result.",
         "input_schema": SUBMIT_SCHEMAS[stage]},
    ]


SYSTEM_PROMPT = """You port cuTile Python GPU kernels to cuTile Rust (crate cutile =0.5.0) so that
both emit the same CUDA Tile IR. The repository's hand-written ports under kernels_src/*/port/
show the idioms (padding via make_partition_view, explicit reshape/broadcast, stores at an
explicit index through partition_mut, one shared ordering token, the wb_ffi C ABI). Use the
tools to read files, write the port's files, build and diff; finish every stage with `submit`,
whose input must match its schema exactly."""


def _kernel_prompt(ctx) -> str:
    spec = ctx.last("analyze").data["spec"]
    return (f"Stage write_kernel for operator {ctx.op.name}.\nPython kernel "
            f"({ctx.op.kernel_file.relative_to(REPO_ROOT) if ctx.op.kernel_file.is_relative_to(REPO_ROOT) else ctx.op.kernel_file}):\n"
            f"```python\n{ctx.op.kernel_file.read_text()}\n```\nAnalysis:\n```json\n"
            f"{json.dumps(spec, indent=1)}\n```\nWrite src/kernel.rs (module {ctx.op.name}_port, "
            f"entry {ctx.op.kernel_name}); submit the files, ok=false with diagnostics for any "
            "construct you cannot translate.")


def _host_prompt(ctx) -> str:
    return (f"Stage write_host for operator {ctx.op.name}: write Cargo.toml (package "
            f"port_{ctx.op.name}), port.toml and src/lib.rs (wb_{ctx.op.name}, "
            f"wb_{ctx.op.name}_emit, wb_{ctx.op.name}_build_id) for the kernel in "
            f"{ctx.port}/src/kernel.rs, following kernels_src/softmax/port. Submit the files.")


def _fix_prompt(ctx, analysis) -> str:
    return (f"Stage fix for operator {ctx.op.name}. The analysis says {analysis.verdict} "
            f"({analysis.data['kind']}):\n" + "\n".join(analysis.data["evidence"]) +
            "\nRewrite the files that need it, build and diff, then submit fixed=true with "
            "the files, or fixed=false.")
