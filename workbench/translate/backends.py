"""Which Triton backends are installed, and whether one of them emits Tile IR
(Triton-TileIR). PyPI's triton has only `nvidia` and `amd`; TileGym calls the Tile IR
backend `nvt`. With one present the port's Tile IR could be diffed against the Triton
kernel's own Tile IR; with none the IR pane shows TTIR beside the port with no verdict."""
from __future__ import annotations

TILEIR_NAMES = ("nvt", "tileir", "tile_ir", "cutile")


def triton_backends() -> list[str] | None:
    """Backend names, or None when triton is not installed."""
    try:
        from triton.backends import backends
    except ImportError:
        return None
    return sorted(backends)


def tileir_backend() -> str | None:
    names = triton_backends() or []
    return next((n for n in names if n in TILEIR_NAMES or "tile" in n.lower()), None)
