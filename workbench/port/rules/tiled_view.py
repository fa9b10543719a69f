"""`Array.tiled_view(tile_shape, padding_mode=..)`: a name for "this array in tiles of this
shape". cuTile Python emits nothing for the view itself: each access makes the partition view
that `ct.load` / `ct.store` / `ct.num_tiles` of the same array, shape and padding would make
(the Tile IR of the two spellings is the same, op for op). So the drafter rewrites the kernel's
AST before translating it:

    v = x.tiled_view((TM, TN), padding_mode=P)     (the statement goes)
    v.load(i, ..)           -> ct.load(x, i, shape=(TM, TN), padding_mode=P, ..)
    v.store(i, t, ..)       -> ct.store(x, i, t, ..)   (t broadcast to the tile shape first)
    v.num_tiles(a)          -> ct.num_tiles(x, a, (TM, TN))
    v.tile_shape, v.dtype   -> (TM, TN), x.dtype
    v.atomic_store_add(i, u) (and _max/_min/_and/_or/_xor) -> cuTile's atomic_red_view_tko
                               (relaxed, device scope): cutile's atomic_red_view_raw

and every pass that scans for memory accesses (token order, loop-parallel stores) sees them.
A view the rewrite cannot follow keeps its `tiled_view` call, which then fails with the reason:
one bound to a name more than once, passed to a helper, or one with `traversal_steps` other
than its tile shape (a strided view)."""
from __future__ import annotations

import ast
import copy
import inspect
from dataclasses import dataclass

import cuda.tile as ct

from .ops_atomic import mode_of, update_of
from .ops_memory import full_view
from .tokens import after_write, last_op_token
from .values import ArrayRef, Fail, Tile, refuse_write_through_slice

ATOMIC_STORES = {f"atomic_store_{op}": op for op in ("add", "max", "min", "and", "or", "xor")}
ACCESS_METHODS = {"load", "store", "num_tiles", *ATOMIC_STORES}
VIEW_ATTRIBUTES = ("dtype", "tile_shape", "traversal_steps")
SIGNATURES = {name: inspect.signature(getattr(ct.TiledView, name)) for name in ACCESS_METHODS}
VIEW_SIGNATURE = inspect.signature(ct.Array.tiled_view)
MARK = "wb_tiled_view"           # on a rewritten call: (method, the view's tile shape node)


@dataclass
class ViewDef:
    """What a tiled view stands for: an array name, a tile shape, a padding mode."""
    array: str
    shape: ast.expr
    padding: ast.expr | None


def view_of(call: ast.AST, reassigned: set[str]) -> ViewDef | None:
    """The view a `NAME.tiled_view(..)` call makes, or None where the rewrite does not follow
    it (the call's own rule then says why)."""
    if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
            and call.func.attr == "tiled_view" and isinstance(call.func.value, ast.Name)
            and call.func.value.id not in reassigned):
        return None
    try:
        bound = VIEW_SIGNATURE.bind(None, *call.args, **{k.arg: k.value for k in call.keywords
                                                        if k.arg is not None})
    except TypeError:
        return None
    args = bound.arguments
    steps = args.get("traversal_steps")
    if any(k.arg is None for k in call.keywords) or any(isinstance(a, ast.Starred) for a in call.args) \
            or (steps is not None and ast.dump(steps) != ast.dump(args["tile_shape"])
                and not (isinstance(steps, ast.Constant) and steps.value is None)):
        return None
    return ViewDef(call.func.value.id, args["tile_shape"], args.get("padding_mode"))


def desugar(tree: ast.Module) -> ast.Module:
    """Rewrite every function of the module (kernels and helpers) in place."""
    for fn in [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)]:
        _desugar_function(fn)
    ast.fix_missing_locations(tree)
    return tree


def _desugar_function(fn: ast.FunctionDef) -> None:
    assigned = _assigned_names(fn)
    reassigned = {name for name, count in assigned.items() if count > 1}
    views, defining = {}, []
    for node in ast.walk(fn):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 \
                and isinstance(node.targets[0], ast.Name) and assigned[node.targets[0].id] == 1:
            view = view_of(node.value, reassigned)
            if view is not None:
                views[node.targets[0].id] = view
                defining.append(node)
    if not views and not any(view_of(n, reassigned) for n in ast.walk(fn)):
        return
    _Rewrite(views, reassigned).visit(fn)
    still_read = {n.id for n in ast.walk(fn) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
    gone = {id(d) for d in defining if d.targets[0].id not in still_read}
    for node in ast.walk(fn):
        for field in ("body", "orelse"):
            block = getattr(node, field, None)
            if isinstance(block, list) and any(id(s) in gone for s in block):
                kept = [s for s in block if id(s) not in gone]
                setattr(node, field, kept or [ast.copy_location(ast.Pass(), block[0])])


def _assigned_names(fn: ast.FunctionDef) -> dict[str, int]:
    """How often each name is bound in the function (parameters count once)."""
    counts: dict[str, int] = {a.arg: 1 for a in fn.args.args + fn.args.kwonlyargs}
    for node in ast.walk(fn):
        targets = node.targets if isinstance(node, ast.Assign) else \
            [node.target] if isinstance(node, (ast.AugAssign, ast.AnnAssign, ast.For)) else []
        for target in targets:
            for name in ast.walk(target):
                if isinstance(name, ast.Name):
                    counts[name.id] = counts.get(name.id, 0) + 1
    return counts


class _Rewrite(ast.NodeTransformer):
    def __init__(self, views: dict[str, ViewDef], reassigned: set[str]):
        self.views, self.reassigned = views, reassigned

    def view(self, node) -> ViewDef | None:
        if isinstance(node, ast.Name):
            return self.views.get(node.id)
        return view_of(node, self.reassigned)

    def visit_Call(self, node: ast.Call):
        self.generic_visit(node)
        func = node.func
        if not (isinstance(func, ast.Attribute) and func.attr in ACCESS_METHODS):
            return node
        view = self.view(func.value)
        if view is None:
            return node
        try:
            bound = SIGNATURES[func.attr].bind(None, *node.args,
                                               **{k.arg: k.value for k in node.keywords})
        except TypeError:
            return node          # the translation names the mismatch
        return ast.copy_location(_access(func.attr, view, dict(bound.arguments)), node)

    def visit_Attribute(self, node: ast.Attribute):
        self.generic_visit(node)
        view = self.view(node.value) if isinstance(node.ctx, ast.Load) else None
        if view is None:
            return node
        if node.attr in ("tile_shape", "traversal_steps"):
            return ast.copy_location(copy.deepcopy(view.shape), node)
        if node.attr == "dtype":
            return ast.copy_location(ast.Attribute(ast.Name(view.array, ast.Load()), "dtype",
                                                   ast.Load()), node)
        return node


def _access(method: str, view: ViewDef, args: dict) -> ast.Call:
    """The ct call a view access stands for, marked with the method and the tile shape."""
    args.pop("self", None)
    array, shape = ast.Name(view.array, ast.Load()), copy.deepcopy(view.shape)
    extra = [ast.keyword(k, v) for k, v in args.items() if k not in ("index", "tile", "axis", "update")]
    if method == "load":
        keywords = [ast.keyword("shape", shape)]
        if view.padding is not None:
            keywords.append(ast.keyword("padding_mode", copy.deepcopy(view.padding)))
        call = _ct_call("load", [array, args["index"]], keywords + extra)
    elif method == "store":
        call = _ct_call("store", [array, args["index"], args["tile"]], extra)
    elif method == "num_tiles":
        call = _ct_call("num_tiles", [array, args["axis"], shape], extra)
    else:
        call = _ct_call(method, [array, args["index"], args["update"]], extra)
    setattr(call, MARK, (method, copy.deepcopy(view.shape)))
    return call


def _ct_call(name: str, args: list, keywords: list) -> ast.Call:
    # the func is never evaluated (the mark dispatches); `ct.NAME` is what the scans read
    return ast.Call(ast.Attribute(ast.Name("ct", ast.Load()), name, ast.Load()), args, keywords)


# ---- translation of the rewritten calls (attributes.call dispatches marked calls here)

def view_call(t, node: ast.Call, hint, statement: bool):
    method, shape_node = getattr(node, MARK)
    if method in ("load", "num_tiles"):
        return t.ct_call(method, node, hint, statement)
    shape = t.const_shape(shape_node, f".{method}()")
    if method == "store":
        return view_store(t, node, shape, hint, statement)
    return atomic_store(t, node, ATOMIC_STORES[method], shape)


def view_store(t, node: ast.Call, shape, hint, statement: bool):
    """A store of a tile broadcast to the view's tile shape (cuTile broadcasts first)."""
    array, index, tile = node.args
    target = t.expr(array)
    if not isinstance(target.kind, ArrayRef):
        raise Fail(node, ".store()", f"`{ast.unparse(array)}` is not an array")
    t.state.evaluated[id(index)] = t.expr(index)           # cuTile evaluates the index first
    value = t.expr(tile, hint="result")
    if isinstance(value.kind, Tile) and tuple(value.kind.shape) != tuple(shape):
        value = t.fit(value, shape, node)
    elif not isinstance(value.kind, Tile):
        value = t.as_tile(value, target.kind.dtype, shape, node)
    t.state.evaluated[id(array)] = target
    t.state.evaluated[id(tile)] = value
    return t.ct_call("store", node, hint, statement)


def atomic_store(t, node: ast.Call, op: str, shape) -> None:
    """`atomic_red_view_tko` on the view's partition at `index`: relaxed, device scope, the
    update cast to the array's dtype and broadcast to the tile shape; ordered as a store of
    the array (it takes the last-op token and becomes it)."""
    what = f".atomic_store_{op}()"
    array, index, update = node.args
    arr: ArrayRef = t.array_arg(array, what)
    refuse_write_through_slice(t, arr, node, what)
    mode = mode_of(op, arr.dtype, node)
    idx = t.index_values(index, arr.rank, what)
    value = update_of(t, t.expr(update), arr, shape, op, node)
    t.state.outputs.setdefault(arr.name, {"form": "shared", "shape": shape})
    t.state.scattered.add(arr.name)
    token = last_op_token(t, arr)
    part = full_view(t, arr, shape)       # hoisted out of loops, as cuTile hoists the view
    t.raw(f"{token} = unsafe {{ atomic_red_view_raw(&{part}, {value.expr}, "
          f"[{', '.join(v.expr for v in idx)}], {mode}, ordering::Relaxed, scope::Device, "
          f"Some({token})) }};")
    after_write(t, arr)


def unfollowed_view(t, node: ast.Call, receiver: Value, hint):
    """A `tiled_view` the rewrite left alone: say why."""
    view = view_of(node, set())
    if view is None and any(k.arg == "traversal_steps" for k in node.keywords):
        reason = ("traversal_steps other than the tile shape make a strided view "
                  "(make_strided_view); the drafter does not draft strided views")
    elif view is None:
        reason = "its arguments do not match Array.tiled_view(tile_shape, *, padding_mode=..)"
    else:
        reason = ("the drafter follows a tiled view bound once to a name (or used in place) "
                  "and accessed by .load / .store / .num_tiles / .atomic_store_*; this one is "
                  "reassigned, passed on, or its array is reassigned")
    raise Fail(node, ".tiled_view()", reason)
