"""Myers' O(ND) difference algorithm over hashable items, as difflib-style opcodes.

difflib.SequenceMatcher is quadratic when few distinct keys repeat many times (a long run
of addf/mulf ops); Myers' algorithm costs O((N+M)·D) for D edits, which is what an
alignment with a handful of differences needs.
"""
from __future__ import annotations

from typing import Hashable, Sequence


def opcodes(a: Sequence[Hashable], b: Sequence[Hashable], max_edits: int = 2000):
    """[(tag, a0, a1, b0, b1)], tags: equal, replace, delete, insert."""
    script = _edit_script(a, b, max_edits)
    if script is None:          # too different: one replace block
        return _merge([("replace" if a and b else "delete" if a else "insert",
                        0, len(a), 0, len(b))]) if (a or b) else []
    return _merge(script)


def _edit_script(a, b, max_edits):
    n, m = len(a), len(b)
    offset = max_edits + 1
    v = [0] * (2 * offset + 1)
    trace = []
    for d in range(max_edits + 1):
        trace.append(v[:])
        for k in range(-d, d + 1, 2):
            if k == -d or (k != d and v[offset + k - 1] < v[offset + k + 1]):
                x = v[offset + k + 1]
            else:
                x = v[offset + k - 1] + 1
            y = x - k
            while x < n and y < m and a[x] == b[y]:
                x, y = x + 1, y + 1
            v[offset + k] = x
            if x >= n and y >= m:
                return _backtrack(trace, a, b, offset, d)
    return None


def _backtrack(trace, a, b, offset, d_final):
    x, y = len(a), len(b)
    steps = []
    for d in range(d_final, 0, -1):
        v = trace[d]
        k = x - y
        if k == -d or (k != d and v[offset + k - 1] < v[offset + k + 1]):
            prev_k = k + 1
        else:
            prev_k = k - 1
        prev_x = v[offset + prev_k]
        prev_y = prev_x - prev_k
        while x > prev_x and y > prev_y:
            steps.append(("equal", x - 1, y - 1))
            x, y = x - 1, y - 1
        steps.append(("insert", x, y - 1) if x == prev_x else ("delete", x - 1, y))
        x, y = prev_x, prev_y
    while x > 0 and y > 0:
        steps.append(("equal", x - 1, y - 1))
        x, y = x - 1, y - 1
    steps.reverse()
    codes = []
    for tag, i, j in steps:
        if tag == "equal":
            codes.append(("equal", i, i + 1, j, j + 1))
        elif tag == "delete":
            codes.append(("delete", i, i + 1, j, j))
        else:
            codes.append(("insert", i, i, j, j + 1))
    return codes


def _merge(codes):
    """Join neighbouring codes of one kind; a delete next to an insert becomes a replace."""
    merged = []
    for tag, a0, a1, b0, b1 in codes:
        if merged:
            ptag, pa0, pa1, pb0, pb1 = merged[-1]
            if ptag == tag or (ptag in ("delete", "insert", "replace")
                               and tag in ("delete", "insert", "replace")):
                new_tag = tag if ptag == tag else "replace"
                merged[-1] = (new_tag, pa0, a1, pb0, b1)
                continue
        merged.append((tag, a0, a1, b0, b1))
    return merged
