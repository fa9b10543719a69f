"""Normalization rule `hoist_invariant`: pure ops inside a loop body whose operands are all
defined outside the loop move to just before the loop (loop-invariant code motion).

cuTile Python hoists such ops itself (the padding tile of a gather, the extents of a
bounds check); cutile emits them where the source line is, inside the loop. tileiras hoists
them in either case, so where an op sits changes nothing the GPU runs; only the comparison
would see them as missing on one side and extra on the other. A weak load whose operands
(its token too) come from outside a loop that writes no memory reads the same values on every
trip: cuTile Python reads it once, before the loop (an index read through another load,
`x[idx[pid]]` in a loop); a port reads it where the source line is, so it moves too.

Rule `hoist_branch_constants` (after fold_splat, so splats count): constants at the top of
an `if` branch move to just before the `if`: a constant has no
operands and no effect, so it is the same value wherever it is written. cutile defines the
constants of const-generic arithmetic (a loop bound `cdiv(K, TILE_SIZE_K)`) at the entry's
top, where cuTile Python writes them in the branch that uses them.
"""
from __future__ import annotations

from .model import Block, Module, Operation, Token, split_value_ref

LOOP_OPS = {"for", "loop"}
BRANCH_OPS = {"if"}
# ops with no memory effect and no token whose value depends only on their operands
INVARIANT_OPS = {"constant", "iota", "reshape", "broadcast", "exti", "trunci", "ftof",
                 "itof", "ftoi", "bitcast", "offset", "int_to_ptr", "ptr_to_int", "addi",
                 "subi", "muli", "andi", "ori", "xori", "cmpi", "cmpf", "addf", "subf",
                 "mulf", "select", "negf", "negi", "maxi", "mini",
                 # a view of a tensor view: no token in Tile IR (cutile's Rust call takes one,
                 # so an in-place array's view is made inside the loop that threads it)
                 "make_partition_view"}
LOAD_OPS = {"load_view_tko", "load_ptr_tko"}
WRITE_OP_PREFIXES = ("store_", "atomic_")


def rule_hoist_invariant(module: Module) -> None:
    for entry in module.entries:
        _hoist_block(entry.block)


def _hoist_block(block: Block) -> None:
    ops: list[Operation] = []
    for op in block.ops:
        for region in op.regions:
            _hoist_block(region.block)
        if op.name in LOOP_OPS and len(op.regions) == 1:
            ops += _take_invariants(op)
        ops.append(op)
    block.ops = ops


def _take_invariants(loop: Operation) -> list[Operation]:
    """Remove and return, in order, the loop body's top-level ops that depend on nothing the
    loop defines (repeated until none is left, so chains of them move together)."""
    body = loop.regions[0].block
    inside = {t.text for t in loop.definitions()} | _defined_in(body)
    movable = INVARIANT_OPS if _writes_memory(loop) else INVARIANT_OPS | LOAD_OPS
    moved: list[Operation] = []
    changed = True
    while changed:
        changed, kept = False, []
        for op in body.ops:
            if op.name in movable and not op.regions and _weak(op) and all(
                    split_value_ref(t.text)[0] not in inside for t in op.operands()):
                moved.append(op)
                inside -= set(op.result_names()) | {r.name for r in op.results}
                changed = True
            else:
                kept.append(op)
        body.ops = kept
    return moved


def _writes_memory(loop: Operation) -> bool:
    return any(op.name.startswith(WRITE_OP_PREFIXES) for op in loop.walk())


def _weak(op: Operation) -> bool:
    """Not a load that orders memory (acquire, relaxed): those stay where they are."""
    return op.name not in LOAD_OPS or any(
        isinstance(n, Token) and n.text == "weak" for n in op.body)


def rule_hoist_branch_constants(module: Module) -> None:
    for entry in module.entries:
        _hoist_constants(entry.block)


def _hoist_constants(block: Block) -> None:
    ops: list[Operation] = []
    for op in block.ops:
        for region in op.regions:
            _hoist_constants(region.block)
        if op.name in BRANCH_OPS:
            ops += _take_constants(op)
        ops.append(op)
    block.ops = ops


def _take_constants(branch: Operation) -> list[Operation]:
    """Remove and return, in order, the `constant` ops at the top level of the branch's regions
    (each region's own; names are already unique across regions)."""
    moved: list[Operation] = []
    for region in branch.regions:
        body = region.block
        moved += [op for op in body.ops if _is_constant(op)]
        body.ops = [op for op in body.ops if not _is_constant(op)]
    return moved


def _is_constant(op: Operation) -> bool:
    return op.name == "constant" and not op.regions and not op.operands()


def _defined_in(block: Block) -> set[str]:
    names = {a.name for a in block.args or ()}
    for op in block.ops:
        for inner in op.walk():
            names |= set(inner.result_names()) | {r.name for r in inner.results}
            names |= {t.text for t in inner.definitions()}
            for region in inner.regions:
                names |= {a.name for a in region.block.args or ()}
    return names
