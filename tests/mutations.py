"""Classic mistranslations, applied to real Tile IR text: each takes a golden text and
returns the mutated text, or None where the kernel has nothing to mutate that way.
Facts and hints are in fact_mutations.py."""
from __future__ import annotations

import re


def change_padding(text: str) -> str | None:
    match = re.search(r"padding_value = (\w+)", text)
    if not match:
        return None
    new = "zero" if match[1] != "zero" else "nan"
    return re.sub(r"padding_value = " + match[1], f"padding_value = {new}", text)


def change_reduction_identity(text: str) -> str | None:
    match = re.search(r"identities=\[([^\]:]+) :", text)
    if not match:
        return None
    new = "1.000000e+00" if match[1].strip() != "1.000000e+00" else "0.000000e+00"
    return text.replace(match[0], f"identities=[{new} :", 1)


def change_reduction_kind(text: str) -> str | None:
    for old, new in (("addf %reduce_lhs", "mulf %reduce_lhs"), ("maxf %reduce_lhs", "minf %reduce_lhs")):
        if old in text:
            return text.replace(old, new, 1)
    return None


def swap_mma_operands(text: str) -> str | None:
    match = re.search(r"mmaf (%[\w#]+), (%[\w#]+), ", text)
    if not match:
        return None
    return text.replace(match[0], f"mmaf {match[2]}, {match[1]}, ", 1)


def change_tile_shape(text: str) -> str | None:
    match = re.search(r"tile=\((\d+)(x\d+)*\)", text)
    if not match:
        return None
    first = int(match[1])
    new = match[0].replace(f"({first}", f"({first * 2}", 1)
    return text.replace(match[0], new, 1)


def drop_store(text: str) -> str | None:
    match = re.search(r"^\s*%\w+ = store_view_tko .*\n", text, re.M)
    return text[:match.start()] + text[match.end():] if match else None


def loop_bound_off_by_one(text: str) -> str | None:
    match = re.search(r"^(\s*)(%[\w:]+ = for %\w+ in \((%[\w#]+) to (%[\w#]+), step (%[\w#]+)\))",
                      text, re.M)
    if not match:
        return None
    indent, head, _, upper, step = match.groups()
    bumped = f"{indent}%wb_bumped = addi {upper}, {step} : tile<i32>\n"
    return (text[:match.start()] + bumped + indent
            + head.replace(f"to {upper}", "to %wb_bumped") + text[match.end():])


MISTRANSLATIONS = {
    "change_padding": (change_padding, "critical"),
    "change_reduction_identity": (change_reduction_identity, "critical"),
    "change_reduction_kind": (change_reduction_kind, "critical"),
    "swap_mma_operands": (swap_mma_operands, "critical"),
    "change_tile_shape": (change_tile_shape, "critical"),
    "drop_store": (drop_store, "critical"),
    "loop_bound_off_by_one": (loop_bound_off_by_one, "critical"),
}


def rename_all_values(text: str) -> str:
    return re.sub(r"%([A-Za-z_]\w*)", r"%renamed_\1", text)


def reorder_independent_ops(text: str) -> str | None:
    """Swap the first two adjacent `assume` lines on entry arguments (independent ops)."""
    lines = text.splitlines(keepends=True)
    for i in range(len(lines) - 1):
        a, b = lines[i], lines[i + 1]
        if re.match(r"\s*%\w+ = assume div_by<\d+>, %arg", a) and \
                re.match(r"\s*%\w+ = assume div_by<\d+>, %arg", b):
            lines[i], lines[i + 1] = b, a
            return "".join(lines)
    return None
