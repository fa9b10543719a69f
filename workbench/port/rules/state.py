"""What translating one entry builds up: the one object every rule reads and writes (the
Translator's `state`). The Translator's other attributes are its inputs (the kernel spec, the
function, the module scope, the entry's types and constant values), which no rule changes.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..drafters import Diagnostic
from .values import Stmt, Value


@dataclass
class DraftState:
    # -- names: the Python environment and the Rust names taken
    env: dict[str, Value] = field(default_factory=dict)      # Python name -> its value
    used: set[str] = field(default_factory=set)               # Rust names taken
    unported: set[str] = field(default_factory=set)           # names whose assignment failed
    evaluated: dict[int, Value] = field(default_factory=dict)  # id(ast node) -> value, used once

    # -- the Rust being written
    blocks: list[list[Stmt]] = field(default_factory=lambda: [[]])   # innermost last
    regions: list[int] = field(default_factory=list)          # per open loop/branch: its block
    prologue: list[Stmt] = field(default_factory=list)        # constants cuTile puts at the top
    generic_ints: dict[str, tuple] = field(default_factory=dict)  # let -> the int generics it holds
    scope_ids: list[int] = field(default_factory=lambda: [0])  # the open scopes, innermost last
    next_scope: int = 1
    cache: dict[tuple, tuple[int, Value]] = field(default_factory=dict)  # key -> (scope, value)
    tail: bool = True                                         # the statement ends the kernel

    # -- memory ordering (tokens.py)
    token_vars: dict[str, str] = field(default_factory=dict)   # array -> its last-op token
    stored_vars: dict[str, str] = field(default_factory=dict)  # array -> its last-store token
    inplace: set[str] = field(default_factory=set)            # arrays read and written
    token_order: dict[str, int] = field(default_factory=dict)  # array -> its first token's order

    # -- loops and inlined helpers
    loop_stack: list[dict] = field(default_factory=list)      # open loops, innermost last
    loops: int = 0                                            # loops written so far
    inline_stack: list[dict] = field(default_factory=list)    # helpers being inlined
    # the last acquiring atomic: {"line", "token" (its result token, or the `let mut` a loop
    # or branch carries)}; later accesses wait for it (tokens.wait_for_acquire)
    acquired: dict | None = None

    # -- what the host code (lib.rs, port.toml) needs to know
    outputs: dict[str, dict] = field(default_factory=dict)    # name -> {"form", "shape"}
    loaded: set[str] = field(default_factory=set)             # arrays read
    store_shapes: dict[int, list[str]] = field(default_factory=dict)  # line -> tile shape
    store_sites: dict[str, list[bool]] = field(default_factory=dict)  # output -> own tile?
    scattered: set[str] = field(default_factory=set)          # arrays written by ct.scatter
    slice_roots: dict[str, str] = field(default_factory=dict)  # a slice -> the array it views
    abi_promises: dict[str, set[str]] = field(default_factory=dict)  # array -> wb_ffi checks
    helpers: set[tuple] = field(default_factory=set)          # (helper kind, rank) declared

    # -- what the draft says about itself
    diagnostics: list[Diagnostic] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    unchecked: bool = False                                   # an access the launcher must bound
    data_index_line: int = 0                                  # the first load at an index from data
