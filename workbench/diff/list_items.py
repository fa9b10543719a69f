"""Names for the views of a list's items. cuTile Python (and a port that follows it) makes
item g of a list of arrays from the list's table: a row loaded from a partition of the
table's view, its words extracted, the first turned into the base pointer (`int_to_ptr`),
the others truncated to extents and strides; then `make_tensor_view`. Such a view's base,
extents and strides are named as the list's (`As.base`, `As.shape[0]`, `As.stride[0]`: the
facts a port's C ABI checks of every item), where the table's pointer argument is named
`As.table.base`."""
from __future__ import annotations

from ..ir.model import Module, Operation, split_value_ref
from .subjects import view_layout

TABLE_SUFFIX = ".table.base"
# ops a table row's word passes through on its way to an item's base, extent or stride
_THROUGH = ("assume", "reshape", "extract", "trunci", "int_to_ptr")


def list_item_names(module: Module, names: dict[str, str]) -> dict[str, str]:
    """value -> `LIST.base` / `LIST.shape[d]` / `LIST.stride[d]` for each item view's
    operands (and the values they come from), given the entry arguments' `names`."""
    defs = {split_value_ref(r)[0]: op for op in module.walk() for r in op.result_names()}
    out: dict[str, str] = {}
    for op in module.walk():
        layout = view_layout(op)
        if layout is None or not layout.base:
            continue
        listed = _table_of(layout.base, defs, names)
        if listed is None:
            continue
        for role, value in layout.operands():
            for name in _chain(value, defs):
                out.setdefault(name, f"{listed}.{role}")
    return out


def _chain(value: str, defs: dict[str, Operation]) -> list[str]:
    """`value` and the values it comes from through assumes (the roots facts are keyed by)."""
    chain = [value]
    op = defs.get(split_value_ref(value)[0])
    while op is not None and op.name == "assume" and op.operands():
        value = op.operands()[-1].text
        chain.append(value)
        op = defs.get(split_value_ref(value)[0])
    return chain


def _table_of(base: str, defs: dict[str, Operation], names: dict[str, str]) -> str | None:
    """The list whose table row `base` was read from, or None."""
    value, seen = base, 0
    while seen < 16:
        seen += 1
        op = defs.get(split_value_ref(value)[0])
        if op is None or not op.operands():
            return None
        if op.name in _THROUGH:
            value = op.operands()[-1].text if op.name == "assume" else op.operands()[0].text
            continue
        if op.name in ("load_view_tko", "make_partition_view"):
            value = op.operands()[0].text
            continue
        if op.name == "make_tensor_view":
            table = _chain(view_layout(op).base or "", defs)[-1]     # past the pointer's assumes
            label = names.get(table, "")
            return label[:-len(TABLE_SUFFIX)] if label.endswith(TABLE_SUFFIX) else None
        return None
    return None
