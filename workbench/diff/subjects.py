"""What a value is, for the facts stated about it: the base, a dimension or a stride of a
view, a block id, or an entry scalar; and the static layout of each view.

    %5 = make_tensor_view %1, shape = [%3, 4096], strides = [%4, 1]
           : tile<i32> -> tensor_view<?x4096xf16, strides=[?,1]>

has the base %1, shape entries (%3, 4096) and stride entries (%4, 1), element type f16.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ..ir.model import Entry, Group, Operation, Token, split_commas

ITEMSIZE = {"f64": 8, "i64": 8, "f32": 4, "i32": 4, "tf32": 4, "f16": 2, "bf16": 2, "i16": 2,
            "i8": 1, "i1": 1, "f8e4m3fn": 1, "f8e5m2": 1, "f8e4m3": 1}
_POINTER = re.compile(r":\s*tile<(?:[\dx]*x)?ptr<(\w+)>>")
_INT_CONSTANT = re.compile(r"^\s*<\s*i\d+\s*:\s*(-?\d+)\s*>")
_VIEW_TYPE = re.compile(r"tensor_view<([^<>]*?)(?:,\s*strides=\[[^\]]*\])?>")


@dataclass(frozen=True)
class ViewEntry:
    """One shape or stride entry of a view: a value (`%3`) or a constant (`4096`)."""
    value: str | None
    constant: int | None


@dataclass
class ViewLayout:
    base: str | None
    shape: list[ViewEntry]
    strides: list[ViewEntry]
    dtype: str

    @property
    def itemsize(self) -> int | None:
        return ITEMSIZE.get(self.dtype)

    def static(self) -> dict[str, dict[int, int]]:
        return {"shape": {d: e.constant for d, e in enumerate(self.shape) if e.value is None},
                "strides": {d: e.constant for d, e in enumerate(self.strides) if e.value is None}}

    def operands(self) -> list[tuple[str, str]]:
        """(role, value) for each value operand: ("base", ..), ("shape[1]", ..), ..."""
        out = [("base", self.base)] if self.base else []
        for name, entries in (("shape", self.shape), ("stride", self.strides)):
            out += [(f"{name}[{d}]", e.value) for d, e in enumerate(entries) if e.value]
        return out


def view_layout(op: Operation) -> ViewLayout | None:
    if op.name != "make_tensor_view":
        return None
    lists: dict[str, list[ViewEntry]] = {}
    base = None
    body = op.body
    for i, node in enumerate(body):
        if isinstance(node, Token) and node.kind == "value" and base is None and not lists:
            base = node.text
        if isinstance(node, Token) and node.text in ("shape", "strides") and i + 2 < len(body) \
                and isinstance(body[i + 2], Group):
            lists[node.text] = [_entry(items) for items in _split(body[i + 2].items)]
    dtype = ""
    header = _flat(body)
    if m := _VIEW_TYPE.search(header):
        dtype = m[1].split("x")[-1].strip()
    return ViewLayout(base, lists.get("shape", []), lists.get("strides", []), dtype)


def _split(items) -> list[list]:
    return [item for item in split_commas(items) if item]


def _entry(items) -> ViewEntry:
    token = items[0] if items else None
    if isinstance(token, Token) and token.kind == "value":
        return ViewEntry(token.text, None)
    text = "".join(t.text for t in items if isinstance(t, Token))
    try:
        return ViewEntry(None, int(text))
    except ValueError:
        return ViewEntry(text or "?", None)


def _flat(nodes) -> str:
    out = []
    for node in nodes:
        if isinstance(node, Group):
            out.append(node.open.text + _flat(node.items) + node.close.text)
        else:
            out.append((" " if node.space_before else "") + node.text)
    return "".join(out)


@dataclass(frozen=True)
class Subject:
    """What a root value is: role base|pointer|shape|stride|block_id|block_count|loop_iv|value, in
    view `view`; `lower`..`upper` is the range every value of its kind lies in (a size is
    >= 0, a block count >= 1, a loop index within its loop's bounds)."""
    role: str
    view: int | None = None
    dim: int | None = None
    itemsize: int | None = None
    lower: int | None = None
    upper: int | None = None

    def label(self) -> str:
        if self.role == "base":
            return f"view{self.view}.base"
        if self.role in ("shape", "stride"):
            return f"view{self.view}.{self.role}[{self.dim}]"
        if self.role == "loop_iv":
            return "a loop index"
        if self.role == "pointer":
            return "a pointer"
        if self.role == "block_count":
            return f"block count {'xyz'[self.dim] if self.dim is not None and self.dim < 3 else ''}"
        if self.role == "block_id":
            return f"block id {'xyz'[self.dim] if self.dim is not None and self.dim < 3 else ''}"
        return "a value"


def subjects(entries: list[Entry], facts: dict) -> tuple[dict[str, Subject], list[ViewLayout]]:
    """root value -> Subject, and the views in order, for one side."""
    roles: dict[str, Subject] = {}
    views: list[ViewLayout] = []
    root = lambda text: facts.get(text, (text, ()))[0]     # noqa: E731
    constants = {}
    for entry in entries:
        for op in entry.walk():
            if op.name == "constant" and len(op.results) == 1 and (m := _INT_CONSTANT.search(_flat(op.body))):
                constants[op.results[0].name] = int(m[1])
            if op.name == "assume" and op.operands() and (m := _POINTER.search(_flat(op.body))):
                roles.setdefault(root(op.operands()[0].text),
                                 Subject("pointer", itemsize=ITEMSIZE.get(m[1])))
            if op.name == "for" and op.definitions() and len(op.operands()) >= 2:
                roles.setdefault(op.definitions()[0].text,
                                 _loop_index(op, root, constants, roles))
            if op.name in ("get_tile_block_id", "get_num_tile_blocks"):
                role, lower = ("block_id", 0) if op.name == "get_tile_block_id" else ("block_count", 1)
                for dim, name in enumerate(op.result_names()):
                    roles.setdefault(name, Subject(role, dim=dim, lower=lower))
            layout = view_layout(op)
            if layout is None:
                continue
            index = len(views)
            views.append(layout)
            if layout.base:
                base = root(layout.base)
                if base not in roles or roles[base].role == "pointer":    # a view's base says more
                    roles[base] = Subject("base", index, None, layout.itemsize)
            for role, entries_ in (("shape", layout.shape), ("stride", layout.strides)):
                for dim, e in enumerate(entries_):
                    if e.value:
                        roles.setdefault(root(e.value), Subject(role, index, dim, layout.itemsize,
                                                                lower=0))
    return roles, views


_ONE_POINTER = re.compile(r"tile<(1x)*ptr<")      # a source type of a single address


def zero_offset_aliases(entries: list[Entry], facts: dict) -> dict[str, str]:
    """pointer -> the root it equals: `offset %p, %z` with %z zero (a gather or scatter at
    index 0 of every axis points at the array's base: `0 * stride0 + 0` is zero whatever
    the stride), and a reshape or broadcast of one pointer (every lane is that address)."""
    root = lambda text: facts.get(text, (text, ()))[0]     # noqa: E731
    zeros, out = set(), {}
    for entry in entries:
        for op in entry.walk():
            operands = [root(t.text) for t in op.operands()]
            if len(op.results) != 1:
                continue
            if _is_zero(op, [o in zeros for o in operands]):
                zeros.add(op.results[0].name)
            elif op.name == "offset" and len(operands) == 2 and operands[1] in zeros:
                out[op.results[0].name] = out.get(operands[0], operands[0])
            elif op.name in ("reshape", "broadcast") and len(operands) == 1 \
                    and _ONE_POINTER.match(_flat(op.body).partition(":")[2].strip()):
                out[op.results[0].name] = out.get(operands[0], operands[0])
    return out


def _is_zero(op: Operation, zero_operands: list[bool]) -> bool:
    if op.name == "constant":
        return bool((m := _INT_CONSTANT.search(_flat(op.body)))) and int(m[1]) == 0
    if op.name == "muli":
        return any(zero_operands)
    if op.name in ("addi", "exti", "reshape", "broadcast"):
        return bool(zero_operands) and all(zero_operands)
    return False


def _loop_index(op: Operation, root, constants: dict, roles: dict) -> Subject:
    """A `for` index counts up from its lower bound to below its upper bound (Tile IR loops
    step forward): its range, where the bounds are constants or values of a known range."""
    low, high = (root(t.text) for t in op.operands()[:2])
    lower = constants.get(low, roles[low].lower if low in roles else None)
    upper = constants.get(high)
    return Subject("loop_iv", lower=lower, upper=None if upper is None else upper - 1)


def name_of(root: str, subject: Subject | None, names: dict[str, str]) -> str:
    """`x.stride[0]` where the caller named the entry arguments, else `view0.stride[0]`."""
    if root in names:
        return names[root]
    return subject.label() if subject else f"value {root}"


_ANY_VIEW = re.compile(r"tensor_view<([^<>]*)>")
_VIEW_LISTS = re.compile(r"\b(shape|strides) = \[([^\]]*)\]")


def mask_layout(text: str) -> str:
    """Static dims and strides of views erased (`tensor_view<?x4096xf16, strides=[?,1]>` ->
    `tensor_view<?x?xf16, strides=[?,?]>`, `strides = [%, 1]` -> `strides = [%, %]`)."""
    def view(m):
        dims, _, strides = m[1].partition(", strides=")
        *shape, dtype = dims.split("x")
        masked = "x".join(["?"] * len(shape) + [dtype])
        if strides:
            masked += ", strides=[" + ",".join("?" for _ in strides.strip("[]").split(",")) + "]"
        return f"tensor_view<{masked}>"
    text = _ANY_VIEW.sub(view, text)
    return _VIEW_LISTS.sub(lambda m: f"{m[1]} = [" + ", ".join(
        "%" for _ in m[2].split(",")) + "]", text)


def operand_pairs(left: Operation, right: Operation) -> list[tuple[int, str, str]] | None:
    """(left operand position, left operand, right operand) of two paired ops; None when
    they cannot correspond. Views pair their operands by role (base, shape[d], stride[d]):
    an entry static on one side only is a layout fact, not a missing operand."""
    l_ops, r_ops = left.operands(), right.operands()
    if left.name == "make_tensor_view" and right.name == "make_tensor_view":
        lv, rv = view_layout(left), view_layout(right)
        if lv and rv and (len(lv.shape), len(lv.strides)) == (len(rv.shape), len(rv.strides)):
            r_roles = dict(rv.operands())
            position = {tok.text: i for i, tok in reversed(list(enumerate(l_ops)))}
            return [(position.get(value, 0), value, r_roles[role])
                    for role, value in lv.operands() if role in r_roles]
    if len(l_ops) != len(r_ops):
        return None
    return [(i, lo.text, ro.text) for i, (lo, ro) in enumerate(zip(l_ops, r_ops))]
