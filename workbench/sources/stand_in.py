"""The stand-in for a name the module reader dropped (sources/module.py) that only
annotations read."""
from __future__ import annotations


class Unavailable:
    """Stands in for a dropped import that only annotations read (`x: torch.Tensor`):
    any attribute of it is itself, so the annotation evaluates and means nothing."""

    def __init__(self, name: str):
        self._name = name

    def __getattr__(self, attr: str) -> "Unavailable":
        return Unavailable(f"{self._name}.{attr}")

    def __getitem__(self, item) -> "Unavailable":
        return self

    def __or__(self, other) -> "Unavailable":       # `torch.dtype | None`
        return self

    __ror__ = __or__

    def __repr__(self) -> str:
        return f"<{self._name}: not imported by the workbench>"
