"""Facts and hints weakened (or strengthened) in real Tile IR text, one kind at a time.

Each mutation takes a golden text and returns (reference text, port text), or None where
the kernel states nothing of that kind. A weakening leaves the port knowing less than the
reference; a strengthening has the port assume more. On two text files neither can be
shown harmless: no machine code can be made from text.
"""
from __future__ import annotations

import re

_ARG_ASSUME = r"^(\s*)(%\w+) = assume div_by<{n}>, (%arg\d+) : tile<{t}>"


def _replace_first(text: str, pattern: str, make) -> str | None:
    match = re.search(pattern, text, re.M)
    return None if not match else text[:match.start()] + make(match) + text[match.end():]


def _drop_assume(text: str, pattern: str) -> str | None:
    """Delete the first assume matching `pattern` and use its operand directly."""
    match = re.search(pattern + r".*\n", text, re.M)
    if not match:
        return None
    name, arg = match[2], match[3]
    rest = text[:match.start()] + text[match.end():]
    return re.sub(re.escape(name) + r"\b", arg, rest)


def _pair(mutated: str | None, text: str, port_side: bool = True):
    if mutated is None or mutated == text:
        return None
    return (text, mutated) if port_side else (mutated, text)


def base_dropped(text):
    """The base pointer's `assume div_by<16>` gone from the port."""
    return _pair(_drop_assume(text, _ARG_ASSUME.format(n=16, t=r"ptr<\w+>")), text)


def base_div_by_8(text):
    return _pair(_replace_first(text, r"assume div_by<16>(, %arg\d+ : tile<ptr)",
                                lambda m: f"assume div_by<8>{m[1]}"), text)


def base_div_by_1(text):
    return _pair(_replace_first(text, r"assume div_by<16>(, %arg\d+ : tile<ptr)",
                                lambda m: f"assume div_by<1>{m[1]}"), text)


def _chain(text: str, first: str, old: str, new: str) -> str | None:
    """Every `assume` on the root of the first match of `first` (a chain restates facts),
    with `old` (a regex over its predicate) replaced by `new`."""
    match = re.search(first, text, re.M)
    if not match:
        return None
    names, lines = {match["arg"]}, text.splitlines(keepends=True)
    for i, line in enumerate(lines):
        m = re.match(r"\s*(%\w+) = assume (.*?), (%\w+) : ", line)
        if m and m[3] in names:
            names.add(m[1])
            lines[i] = line[:m.start(2)] + re.sub(old, new, m[2]) + line[m.end(2):]
    return "".join(lines)


def shape_weakened(text):
    """A dimension's `div_by<16>` lowered to div_by<2> in the port."""
    return _pair(_chain(text, r"assume div_by<16>, (?P<arg>%arg\d+) : tile<i32>",
                        r"div_by<16>", "div_by<2>"), text)


def stride_weakened(text):
    """A stride's 16-byte divisibility (div_by<4> f32, div_by<8> f16/bf16) lowered."""
    return _pair(_chain(text, r"assume div_by<[48]>, (?P<arg>%arg\d+) : tile<i32>",
                        r"div_by<[48]>", "div_by<2>"), text)


def bounded_dropped(text):
    """A stride's or dimension's `bounded<0, ?>` gone from the port."""
    match = re.search(r"^(\s*)(%\w+) = assume bounded<0, \?>, (%\w+) : tile<i32>.*\n", text, re.M)
    if not match:
        return None
    rest = text[:match.start()] + text[match.end():]
    return _pair(re.sub(re.escape(match[2]) + r"\b", match[3], rest), text)


def unit_stride_lost(text):
    """The port's first view (of %arg0) reads its innermost stride from the stride argument
    where the reference has the constant 1 (cuTile Python passes it either way)."""
    match = re.search(r"^(\s*%\w+ = make_tensor_view [^\n]*strides = \[)([^\]]*), 1\]"
                      r"([^\n]*strides=\[)([^\]]*),1\]", text, re.M)
    if not match:
        return None
    rank = match[2].count(",") + 2
    line = f"{match[1]}{match[2]}, %arg{2 * rank}]{match[3]}{match[4]},?]"
    return _pair(text[:match.start()] + line + text[match.end():], text)


def _entry_hint(text, key, new):
    """Entry hint `key` set to `new` (None: dropped) in the port."""
    match = re.search(r"optimization_hints=<default = \{([^}]*)\}>", text)
    if not match or key not in match[1]:
        return None
    items = [i.strip() for i in match[1].split(",") if not i.strip().startswith(key)]
    if new is not None:
        items.append(f"{key} = {new}")
    return _pair(text.replace(match[0], "optimization_hints=<default = {"
                              + ", ".join(items) + "}>", 1), text)


def occupancy_dropped(text):
    return _entry_hint(text, "occupancy", None)


def occupancy_changed(text):
    return _entry_hint(text, "occupancy", 2)


def worker_warps_dropped(text):
    return _entry_hint(text, "num_worker_warps_per_cta", None)


def _load_hint(text, hint):
    match = re.search(r"(load_view_tko weak [^\n]*? token = %\w+) :", text)
    if not match:
        return None
    return text.replace(match[0], f"{match[1]} optimization_hints = <default = {{{hint}}}> :", 1)


def latency_lost(text):
    """The reference's load has `latency = 7`; the port's has no hint."""
    return _pair(_load_hint(text, "latency = 7"), text, port_side=False)


def latency_added(text):
    return _pair(_load_hint(text, "latency = 7"), text)


def allow_tma_lost(text):
    """The reference forbids TMA on a load (`allow_tma = false`); the port does not say so."""
    return _pair(_load_hint(text, "allow_tma = false"), text, port_side=False)


def allow_tma_added(text):
    return _pair(_load_hint(text, "allow_tma = false"), text)


# name -> (mutation, the fact kind whose finding must appear)
WEAKENINGS = {
    "base_dropped": (base_dropped, "div_by"),
    "base_div_by_8": (base_div_by_8, "div_by"),
    "base_div_by_1": (base_div_by_1, "div_by"),
    "shape_weakened": (shape_weakened, "div_by"),
    "stride_weakened": (stride_weakened, "div_by"),
    "bounded_dropped": (bounded_dropped, "bounded"),
    "unit_stride_lost": (unit_stride_lost, "layout"),
    "occupancy_dropped": (occupancy_dropped, "occupancy"),
    "occupancy_changed": (occupancy_changed, "occupancy"),
    "worker_warps_dropped": (worker_warps_dropped, "num_worker_warps_per_cta"),
    "latency_lost": (latency_lost, "latency"),
    "latency_added": (latency_added, "latency"),
    "allow_tma_lost": (allow_tma_lost, "allow_tma"),
    "allow_tma_added": (allow_tma_added, "allow_tma"),
}


def stride_strengthened(text):
    """The port assumes a stride divisible by 16 elements where the reference says 4 or 8."""
    return _pair(_chain(text, r"assume div_by<[48]>, (?P<arg>%arg\d+) : tile<i32>",
                        r"div_by<[48]>", "div_by<16>"), text)


def base_strengthened(text):
    """The port assumes a 32-byte aligned base where the reference assumes 16 bytes."""
    return _pair(_chain(text, r"assume div_by<16>, (?P<arg>%arg\d+) : tile<ptr",
                        r"div_by<16>", "div_by<32>"), text)


def shape_strengthened(text):
    """The port assumes a dimension divisible by 32 where the reference says 16."""
    return _pair(_chain(text, r"assume div_by<16>, (?P<arg>%arg\d+) : tile<i32>",
                        r"div_by<16>", "div_by<32>"), text)


STRENGTHENINGS = {
    "stride_strengthened": (stride_strengthened, "div_by"),
    "base_strengthened": (base_strengthened, "div_by"),
    "shape_strengthened": (shape_strengthened, "div_by"),
}
