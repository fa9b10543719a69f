"""Every rule, collected from the family modules (a new family is one line here), and the
Python dunder methods of Tile with the operator each stands for."""
from __future__ import annotations

import ast

from . import (ops_atomic, ops_builtins, ops_create, ops_gather, ops_grid, ops_math,
               ops_matmul, ops_memory, ops_reduce, ops_refused, ops_shape)
from .registry import collect

FAMILIES = [m.FAMILY for m in (ops_grid, ops_memory, ops_gather, ops_atomic, ops_create, ops_math,
                               ops_reduce, ops_shape, ops_matmul, ops_builtins, ops_refused)]
RULES, TILE_METHODS, REFUSALS, BUILTINS = collect(FAMILIES)

# Tile.__add__ .. -> (the operator, reflected?)
_BIN = {"add": ast.Add, "sub": ast.Sub, "mul": ast.Mult, "truediv": ast.Div,
        "floordiv": ast.FloorDiv, "mod": ast.Mod, "pow": ast.Pow, "and": ast.BitAnd,
        "or": ast.BitOr, "xor": ast.BitXor, "lshift": ast.LShift, "rshift": ast.RShift,
        "matmul": ast.MatMult}
DUNDER = {f"__{k}__": (v, False) for k, v in _BIN.items()}
DUNDER.update({f"__r{k}__": (v, True) for k, v in _BIN.items()})
DUNDER.update({"__lt__": (ast.Lt, False), "__le__": (ast.LtE, False), "__gt__": (ast.Gt, False),
               "__ge__": (ast.GtE, False), "__eq__": (ast.Eq, False), "__ne__": (ast.NotEq, False),
               "__neg__": (ast.USub, False), "__invert__": (ast.Invert, False)})
