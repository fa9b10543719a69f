"""cuda.tile functions the drafter knows and does not translate, each with what cutile-rs
(0.5.0) lacks or what a port would have to do by hand."""
from __future__ import annotations

from .registry import Family

# what a port writes for a cuTile print (cutile 0.5.0's macro), said wherever one is refused
PRINT_BY_HAND = ("cuda_tile_print!(\"..{}..\", values) (scalars or tiles; each {} becomes %f "
                 "or %i, so no width or precision, and no token orders the print): write it by "
                 "hand")

FAMILY = Family("refused")

FAMILY.refuse("printf", "not drafted; cutile 0.5.0 has " + PRINT_BY_HAND)
FAMILY.refuse("print", "not drafted; cutile 0.5.0 has " + PRINT_BY_HAND)
FAMILY.refuse("assert_", "a runtime assert; cutile's cuda_tile_assert! macro is not drafted")
FAMILY.refuse("grid_dependency_control_wait", "programmatic dependent launch (cutile "
              "gdc_wait_tko) is not drafted")
FAMILY.refuse("grid_dependency_control_launch_dependents", "programmatic dependent launch "
              "(cutile gdc_launch_dependents_tko) is not drafted")
FAMILY.refuse("static_eval", "ct.static_eval runs Python at compile time; not drafted")
FAMILY.refuse("static_iter", "ct.static_iter is drafted as the iterable of a `for` "
              "statement only (unrolled there)")
FAMILY.refuse("static_exception", "ct.static_exception; not drafted")
FAMILY.refuse("Tile.__divmod__", "divmod returns a pair; write `//` and `%`")
FAMILY.refuse("Tile.__rdivmod__", "divmod returns a pair; write `//` and `%`")
FAMILY.refuse("Tile.__index__", "a tile used as a Python index (list/tuple subscript) is "
              "compile-time only in cuTile; not drafted")
