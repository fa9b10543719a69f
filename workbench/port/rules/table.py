"""Every `ct.*` rule, collected from the family modules (a new family is one line here)."""
from __future__ import annotations

from . import ops_create, ops_grid, ops_math, ops_matmul, ops_memory, ops_reduce, ops_shape
from .registry import collect

FAMILIES = [m.FAMILY for m in (ops_grid, ops_memory, ops_create, ops_math, ops_reduce, ops_shape,
                               ops_matmul)]
RULES, TILE_METHODS, REFUSALS = collect(FAMILIES)
