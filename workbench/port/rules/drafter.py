"""The offline drafter as pipeline stages (the Drafter protocol of workbench/port/drafters.py)."""
from __future__ import annotations

from ..drafters import Draft
from ..analyze import KernelSpec
from .draft import draft


class RulesDrafter:
    """Deterministic: the same kernel always gives the same port, so it has no fix loop."""
    name = "rules"

    def __init__(self):
        self._draft: Draft | None = None

    def _drafted(self, ctx) -> Draft:
        if self._draft is None:
            spec = KernelSpec.from_json(ctx.last("analyze").data["spec"])
            self._draft = draft(spec, ctx.op.kernel_file.read_text(), ctx.op.name)
        return self._draft

    def write_kernel(self, ctx) -> Draft:
        return self._drafted(ctx)

    def write_host(self, ctx) -> dict[str, str]:
        return {k: v for k, v in self._drafted(ctx).files.items() if not k.startswith("src/kernel")}

    def fix(self, ctx, analysis) -> bool:
        return False
