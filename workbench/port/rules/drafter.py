"""The offline drafter as pipeline stages (the Drafter protocol of workbench/port/drafters.py)."""
from __future__ import annotations

from ..drafters import Draft
from ..analyze import KernelSpec
from .draft import draft

BOUNDS_ASSERT = "partition access out of bounds"     # cutile's checks/placement.rs


class RulesDrafter:
    """Deterministic: the same kernel always gives the same port. Its one fix: an entry made
    unchecked where cutile added a bounds assert that cuTile Python does not make."""
    name = "rules"

    def __init__(self):
        self._draft: Draft | None = None
        self._unchecked = False

    def _drafted(self, ctx) -> Draft:
        if self._draft is None:
            spec = KernelSpec.from_json(ctx.last("analyze").data["spec"])
            self._draft = draft(spec, ctx.op.kernel_file.read_text(), ctx.op.name,
                                self._unchecked)
        return self._draft

    def write_kernel(self, ctx) -> Draft:
        return self._drafted(ctx)

    def write_host(self, ctx) -> dict[str, str]:
        return {k: v for k, v in self._drafted(ctx).files.items() if not k.startswith("src/kernel")}

    def fix(self, ctx, analysis) -> bool:
        if self._unchecked or analysis.data.get("fix_stage") != "write_kernel" or \
                not _bounds_asserts(ctx):
            return False
        self._unchecked, self._draft = True, None
        for rel, text in self._drafted(ctx).files.items():
            if rel.startswith("src/kernel"):
                (ctx.port / rel).write_text(text)
        return True


def _bounds_asserts(ctx) -> bool:
    """Whether the IR diff found an `assert` of cutile's partition bounds in the port only."""
    diffed = ctx.last("ir_diff")
    cases = diffed.data.get("cases", []) if diffed is not None else []
    return any(f.get("kind") == "op" and BOUNDS_ASSERT in ((f.get("right") or {}).get("text") or "")
               for case in cases for f in case.get("findings", []))
