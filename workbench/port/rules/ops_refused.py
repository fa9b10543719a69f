"""cuda.tile functions the drafter knows and does not translate, each with what cutile-rs
(0.4.0) lacks or what a port would have to do by hand."""
from __future__ import annotations

from .registry import Family

FAMILY = Family("refused")

FAMILY.refuse("atomic_cas", "ct.atomic_cas: compare-and-swap on pointers (cutile "
              "atomic_cas_tko); not drafted")
FAMILY.refuse("printf", "cutile 0.4.0 has print_tko (one tile, a C format) and no "
              "multi-argument printf")
FAMILY.refuse("print", "cutile 0.4.0 has print_tko (one tile, a C format) and no print of "
              "several values")
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
