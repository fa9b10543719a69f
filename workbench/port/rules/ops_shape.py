"""Shape changes: `ct.reshape`, `ct.transpose`, `ct.permute`, `ct.expand_dims` (and the
`tile[:, None]` sugar), `ct.broadcast_to`, `ct.cat`, `ct.extract`; the Tile methods of the
same names."""
from __future__ import annotations

import ast

from .registry import Family
from .values import Fail, Seq, Tile, Value, shape_text

FAMILY = Family("shape")


def tile_arg(t, node, value_node, what) -> Value:
    x = t.expr(value_node)
    if not isinstance(x.kind, Tile):
        raise Fail(node, what, f"{what} of a non-tile")
    return x


def shape_arg(t, node, args, name, what):
    """A shape given as a tuple or as separate ints (`t.reshape(a, b)`)."""
    return t.const_shape(args[name], what)


@FAMILY.rule("reshape", tile_method="reshape")
def reshape(t, node, hint):
    if len(node.args) > 2 and not node.keywords:     # t.reshape(a, b, c)
        shape_node = ast.Tuple(elts=list(node.args[1:]), ctx=ast.Load())
        ast.copy_location(shape_node, node)
        node = ast.Call(func=node.func, args=[node.args[0], shape_node], keywords=[])
    args = t.bind_args("reshape", node)
    x = tile_arg(t, node, args["x"], "ct.reshape")
    shape = shape_arg(t, node, args, "shape", "ct.reshape")
    if "-1" in shape:
        raise Fail(node, "ct.reshape", "a -1 (inferred) dimension is not ported")
    if tuple(shape) == tuple(x.kind.shape):      # cuTile emits no op for it
        return x
    return t.let(hint or f"{x.expr}_r", Tile(x.kind.dtype, shape),
                 f"{x.expr}.reshape(shape![{shape_text(shape)}])")


def permuted(t, node, hint, x: Value, axes: list[int]):
    rank = len(x.kind.shape)
    axes = [a % rank for a in axes]
    if sorted(axes) != list(range(rank)):
        raise Fail(node, "ct.permute", f"{axes} is not a permutation of {rank} axes")
    shape = tuple(x.kind.shape[a] for a in axes)
    if axes == list(range(rank)):
        return x
    # permute, not .transpose(): cutile types transpose()'s result with numbers, and a
    # binary op of it with a tile typed by the constants' names does not compile
    return t.let(hint or f"{x.expr}_p", Tile(x.kind.dtype, shape),
                 f"permute({x.expr}, const_array![{', '.join(map(str, axes))}])")


@FAMILY.rule("transpose", tile_method="transpose")
def transpose(t, node, hint):
    args = t.bind_args("transpose", node)
    x = tile_arg(t, node, args["x"], "ct.transpose")
    rank = len(x.kind.shape)
    a0 = args.get("axis0")
    a1 = args.get("axis1")
    if a0 is None and a1 is None:
        if rank != 2:
            raise Fail(node, "ct.transpose", "ct.transpose without axes takes a 2-D tile")
        i, j = 0, 1
    else:
        i = t.static_int(a0, node, "axis0") if a0 is not None else -2
        j = t.static_int(a1, node, "axis1") if a1 is not None else -1
    axes = list(range(rank))
    axes[i % rank], axes[j % rank] = axes[j % rank], axes[i % rank]
    return permuted(t, node, hint, x, axes)


@FAMILY.rule("permute", tile_method="permute")
def permute(t, node, hint):
    if len(node.args) > 2 and not node.keywords:      # t.permute(2, 0, 1)
        axes_node = ast.Tuple(elts=list(node.args[1:]), ctx=ast.Load())
        ast.copy_location(axes_node, node)
        node = ast.Call(func=node.func, args=[node.args[0], axes_node], keywords=[])
    args = t.bind_args("permute", node)
    x = tile_arg(t, node, args["x"], "ct.permute")
    axes = t.static_value(args["axes"], "axes")
    return permuted(t, node, hint, x, list(axes))


@FAMILY.rule("expand_dims")
def expand_dims(t, node, hint, subscript=False):
    if subscript:                  # tile[None, :] / tile[:, None]
        x = tile_arg(t, node, node.value, "indexing")
        items = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        shape, src = [], list(x.kind.shape)
        for item in items:
            if isinstance(item, ast.Constant) and item.value is None:
                shape.append("1")
            elif isinstance(item, ast.Slice) and item.lower is item.upper is item.step is None:
                if not src:
                    raise Fail(node, "indexing", "more `:` than tile dimensions")
                shape.append(src.pop(0))
            else:
                raise Fail(node, "indexing", "only `None` and `:` index a tile (expand_dims)")
        shape += src
    else:
        args = t.bind_args("expand_dims", node)
        x = tile_arg(t, node, args["x"], "ct.expand_dims")
        axis = t.static_int(args["axis"], node, "axis")
        shape = list(x.kind.shape)
        rank = len(shape) + 1
        shape.insert(axis % rank, "1")
    return t.let(hint or f"{x.expr}_e", Tile(x.kind.dtype, tuple(shape)),
                 f"{x.expr}.reshape(shape![{shape_text(shape)}])")


@FAMILY.rule("broadcast_to")
def broadcast_to(t, node, hint):
    args = t.bind_args("broadcast_to", node)
    x = t.expr(args["x"])
    shape = t.const_shape(args["shape"], "ct.broadcast_to")
    if not isinstance(x.kind, Tile):
        x = t.as_tile(x, t.common_dtype([x], node, "ct.broadcast_to"), (), node)
    return t.fit(x, shape, node)


@FAMILY.rule("cat")
def cat(t, node, hint):
    args = t.bind_args("cat", node)
    tiles = t.expr(args["tiles"])
    if not isinstance(tiles.kind, Seq) or len(tiles.kind.items) != 2:
        raise Fail(node, "ct.cat", "ct.cat of two tiles is ported (cutile cat takes two)")
    a, b = tiles.kind.items
    if not all(isinstance(v.kind, Tile) for v in (a, b)) or a.kind.dtype != b.kind.dtype:
        raise Fail(node, "ct.cat", "two tiles of one dtype")
    axis = t.static_int(args["axis"], node, "axis") % len(a.kind.shape)
    shape = list(a.kind.shape)
    da, db = a.kind.shape[axis], b.kind.shape[axis]
    if not (da.isdigit() and db.isdigit()):
        if da != db:
            raise Fail(node, "ct.cat", "concatenated sizes must be integers or the same constant")
        shape[axis] = str(2 * int(t.static_int(t.dim_value(da), node, "size"))) \
            if not da.isdigit() else str(2 * int(da))
    else:
        shape[axis] = str(int(da) + int(db))
    return t.let(hint or "cat", Tile(a.kind.dtype, tuple(shape)),
                 f"cat({a.expr}, {b.expr}, {axis}i32)")


@FAMILY.rule("extract", tile_method="extract")
def extract(t, node, hint):
    args = t.bind_args("extract", node)
    x = tile_arg(t, node, args["x"], "ct.extract")
    shape = t.const_shape(args["shape"], "ct.extract")
    if len(shape) != len(x.kind.shape):
        raise Fail(node, "ct.extract", "the extracted shape has another rank")
    index = t.index_values(args["index"], len(x.kind.shape), "ct.extract")
    tiles = [f"scalar_to_tile({v.expr})" for v in index]
    return t.let(hint or f"{x.expr}_x", Tile(x.kind.dtype, shape),
                 f"extract({x.expr}, [{', '.join(tiles)}])")


@FAMILY.rule("Tile.item", tile_method="item")
def item(t, node, hint):
    """`t.item()` of a one-element tile: the 0-d tile (a reshape)."""
    x = tile_arg(t, node, node.args[0], "item()")
    if any(d != "1" for d in x.kind.shape):
        raise Fail(node, "item()", "item() of a tile with more than one element")
    if not x.kind.shape:
        return x
    return t.let(hint or f"{x.expr}_item", Tile(x.kind.dtype, ()), f"{x.expr}.reshape(shape![])")


FAMILY.refuse("insert", "ct.insert writes into a tile; cutile 0.5.0's insert is unsafe and "
              "not drafted")
