"""`while` loops, `break` / `continue` and runtime `and` / `or` in the rule-based drafter
(workbench/port/rules/while_loop.py, bool_ops.py), without cargo: the Rust each form is drafted
as, what the loop carries, and the refusals with their lines and what cutile 0.5.0 lacks.
(tests/test_rules_families.py builds the while_loops.py kernels and diffs their Tile IR.)"""
from __future__ import annotations

import ast
import re
from pathlib import Path

from workbench.argspec import parse_arg
from workbench.catalog import Case
from workbench.port.analyze import analyze
from workbench.port.rules import draft

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "drafter" / "while_loops.py"


def drafted(kernel: str, args: list[str], consts: dict, source: str | None = None):
    source = source if source is not None else FIXTURE.read_text()
    case = Case(index=0, args=tuple(parse_arg(a) for a in args), consts=consts)
    spec = analyze(source, "tests/fixtures/drafter/while_loops.py", kernel, [case])
    return draft(spec, source, kernel)


def line_of(kernel: str, text: str) -> int:
    """The line of `text` inside `kernel`'s body in the fixture."""
    tree = ast.parse(FIXTURE.read_text())
    fn = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == kernel)
    lines = FIXTURE.read_text().splitlines()
    return next(i + 1 for i in range(fn.lineno - 1, fn.end_lineno) if text in lines[i])


def body_of_while(rust: str) -> str:
    return rust[rust.index("while {"):]


def test_persistent_while_carries_its_tile_index_and_the_store_token():
    d = drafted("persistent_rows", ["f32[64,128]", "f32[64,128]"], {"TILE": 128})
    assert d.ok, d.diagnostics
    rust = d.files["src/kernel.rs"]
    # the carried index is a copy of the block id, so a later ct.bid(0) keeps its meaning
    assert re.search(r"let mut row: i32 = \w+;", rust) or \
        "let mut row: i32 = get_tile_block_id().0;" in rust
    loop = body_of_while(rust)
    assert re.search(r"lt_tile\(row_t, n\w*\)", loop)
    assert "row = row_next;" in loop and "zt00_y = unsafe { store_view_raw(" in loop
    assert "break" not in loop          # the test's exit is cutile's own (Expr::While)


def test_and_or_are_short_circuit_ifs_that_yield_an_operand():
    d = drafted("windowed", ["f32[1024]", "f32[1024]", "i32", "i32"], {"TILE": 128})
    assert d.ok, d.diagnostics
    rust = d.files["src/kernel.rs"]
    assert "&&" not in rust and "||" not in rust
    # `a and b`: if a { b } else { a }; `(..) or c`: if x { x } else { c }
    assert re.search(r"let (\w+): bool = if (\w+) \{\n.*lt_tile[^}]*\} else \{\n\s*\2\n", rust,
                     re.S)
    assert re.search(r"let \w+: bool = if (\w+) \{\n\s*\1\n\s*\} else \{\n.*eq_tile", rust, re.S)


def test_a_runtime_and_as_a_value_is_the_same_if():
    source = FIXTURE.read_text() + '''

@ct.kernel
def masked_flag(x, y, lo: int, hi: int, TILE: ConstInt):
    i = ct.bid(0)
    inside = i >= lo and i < hi
    ct.store(y, index=(i,), tile=ct.where(inside, ct.load(x, index=(i,), shape=(TILE,)), 0.0))
'''
    d = drafted("masked_flag", ["f32[1024]", "f32[1024]", "i32", "i32"], {"TILE": 128},
                source)
    assert d.ok, d.diagnostics
    assert re.search(r"let \w+: bool = if \w+ \{", d.files["src/kernel.rs"])


def test_break_and_continue_leave_the_while_with_its_carried_values():
    d = drafted("positive_prefix", ["f32[64,1024]", "f32[64,128]", "i32"], {"TILE": 128})
    assert d.ok, d.diagnostics
    loop = body_of_while(d.files["src/kernel.rs"])
    assert re.search(r"if \w+ \{\n\s*break;\n\s*\} else \{\n\s*\}", loop)
    assert re.search(r"if \w+ \{\n\s*continue;\n\s*\} else \{\n\s*\}", loop)
    # the accumulator and the counter are the loop's: assigned in place
    assert "acc = acc_next;" in loop and "k = k_next;" in loop
    assert "let mut acc:" in d.files["src/kernel.rs"] and "let mut k:" in d.files["src/kernel.rs"]


def test_while_true_is_a_rust_loop():
    d = drafted("first_negative", ["f32[1024]", "i32[1]", "i32"], {"TILE": 64})
    assert d.ok, d.diagnostics
    rust = d.files["src/kernel.rs"]
    assert "        loop {" in rust and not re.search(r"^\s*while\b", rust, re.M)
    assert rust.count("break;") == 2


def test_nested_while_and_for():
    inner = drafted("rows_of_runs", ["f32[8,1024]", "f32[8,128]", "i32[8]"],
                    {"ROWS": 8, "TILE": 128})
    assert inner.ok, inner.diagnostics
    rust = inner.files["src/kernel.rs"]
    assert rust.index("for r in") < rust.index("while {")
    grouped = drafted("grouped_rows", ["f32[64,128]", "f32[64,128]", "i32[4]"],
                      {"GROUPS": 4, "TILE": 128})
    assert grouped.ok, grouped.diagnostics
    rust = grouped.files["src/kernel.rs"]
    # the index is carried by both loops; the window's start (a Python 0) is an i32 tile
    assert "let mut row: i32" in rust and "let mut start: Tile<i32, { [] }>" in rust
    inner_loop = rust[rust.index("while {"):rust.index("start = start_next;")]
    assert "row = row_next;" in inner_loop and "start =" not in inner_loop
    outer = drafted("persistent_matmul", ["f16[256,128]", "f16[128,256]", "f16[256,256]"],
                    {"BM": 64, "BN": 64, "BK": 32})
    assert outer.ok, outer.diagnostics
    rust = outer.files["src/kernel.rs"]
    assert rust.index("while {") < rust.index("for kk in")


def test_refusals_name_the_line_and_what_cutile_lacks():
    cases = [
        ("break_in_split_for", ["f32[1024]", "f32[64]", "i32"], {"STEPS": 4, "TILE": 64},
         "break", "for i in range(STEPS):", "cuTile Python also splits"),
        ("break_assigns_local", ["f32[1024]", "f32[64]", "i32"], {"TILE": 64},
         "break/continue", "if ct.sum(t) < 0.0:",
         "assigns t, which the loop does not carry and reads after"),
        ("while_else", ["f32[1024]", "f32[64]", "i32"], {"TILE": 64}, "while-else",
         "while k < n:", "'while-else' is not supported"),
    ]
    for kernel, args, consts, construct, text, reason in cases:
        d = drafted(kernel, args, consts)
        assert not d.ok, kernel
        found = [x for x in d.diagnostics if x.construct == construct]
        assert found, (kernel, d.diagnostics)
        assert found[0].line == line_of(kernel, text), (kernel, found[0])
        assert reason in found[0].message, found[0].message


def test_a_while_that_never_runs_or_never_ends_is_refused():
    source = FIXTURE.read_text() + '''

@ct.kernel
def never(x, y, TILE: ConstInt):
    t = ct.load(x, index=(0,), shape=(TILE,))
    while TILE < 0:
        t = t * 2.0
    ct.store(y, index=(0,), tile=t)


@ct.kernel
def forever(x, y, TILE: ConstInt):
    t = ct.load(x, index=(0,), shape=(TILE,))
    while True:
        t = t * 2.0
    ct.store(y, index=(0,), tile=t)
'''
    for kernel, reason in (("never", "the loop never runs"), ("forever", "never ends")):
        d = drafted(kernel, ["f32[64]", "f32[64]"], {"TILE": 64}, source)
        messages = [x.message for x in d.diagnostics if x.construct == "while"]
        assert messages and reason in messages[0], d.diagnostics


def test_continue_in_a_for_and_a_while_in_a_helper_are_drafted():
    d = drafted("skip_negative", ["f32[1024]", "f32[64]"], {"STEPS": 8, "TILE": 64})
    assert d.ok, d.diagnostics
    loop = d.files["src/kernel.rs"].split("for i in", 1)[1]
    assert re.search(r"if \w+ \{\n\s*continue;\n\s*\} else \{\n\s*\}\n\s*let acc_next", loop)
    helper = drafted("find_tile", ["f32[1024]", "i32[1]", "i32"], {"TILE": 64})
    assert helper.ok, helper.diagnostics
    assert "break;" in body_of_while(helper.files["src/kernel.rs"])


def test_a_split_loop_whose_branch_continues_keeps_nothing_after_the_jump():
    d = drafted("prefix_sum", ["f32[1024]", "f32[64]", "i32"], {"STEPS": 8, "TILE": 64})
    assert d.ok, d.diagnostics
    rust = d.files["src/kernel.rs"]
    first, second = rust.split("for i in split_start..STEPS {", 1)
    assert "acc = acc_next;" in first.split("for i in 0i32..split_stop {", 1)[1]
    # cuTile's second loop only continues, carrying the accumulator (loop_split.py)
    assert re.match(r"\n\s*acc = acc;\n\s*continue;\n\s*\}", second), second[:200]


def test_loads_at_an_index_the_while_carries_make_the_entry_unchecked():
    d = drafted("row_sum", ["f32[64,1024]", "f32[8192]", "i32"], {"TILE": 128})
    assert d.ok, d.diagnostics
    rust = d.files["src/kernel.rs"]
    line = line_of("row_sum", "while k < n:")
    assert f"// NOTE line {line}: loads indexed by values the `while` loop carries" in rust
    assert "#[cutile::entry(unchecked_accesses = true)]" in rust and "pub unsafe fn" in rust


def test_a_name_bound_and_read_only_in_the_jumping_branch_is_no_refusal():
    source = FIXTURE.read_text() + '''

@ct.kernel
def scaled_exit(x, y, n: int, TILE: ConstInt):
    acc = ct.zeros((TILE,), dtype=ct.float32)
    k = 0
    while k < n:
        t = ct.load(x, index=(k,), shape=(TILE,))
        if ct.sum(t) < 0.0:
            half = t * 0.5
            acc = acc + half
            break
        acc = acc + t
        k += 1
    ct.store(y, index=(0,), tile=acc)
'''
    d = drafted("scaled_exit", ["f32[1024]", "f32[64]", "i32"], {"TILE": 64}, source)
    assert d.ok, d.diagnostics
    branch = re.search(r"if \w+ \{\n(.*?)\n\s*break;", d.files["src/kernel.rs"], re.S).group(1)
    assert "acc = acc_next;" in branch        # the branch assigns only the carried acc


def test_not_on_a_carried_flag_is_an_xori_with_true():
    d = drafted("halve_until_small", ["f32[64]", "f32[64]"], {"TILE": 64})
    assert d.ok, d.diagnostics
    rust = d.files["src/kernel.rs"]
    assert "let mut done: Tile<bool, { [] }>" in rust            # False, carried strictly
    test = rust[rust.index("while {"):rust.index("} {")]
    assert re.search(r"xori\(\w+, ones\w*\)", test) and "!" not in test


def test_break_in_a_for_is_cuTiles_done_flag():
    d = drafted("break_in_for", ["f32[1024]", "f32[64]", "f32[1024]"], {"STEPS": 8, "TILE": 64})
    assert d.ok, d.diagnostics
    rust = d.files["src/kernel.rs"]
    assert re.search(r"let flag_false: bool = false;\n\s*let flag_true: bool = true;", rust)
    assert "let mut zs_done: bool = flag_false;" in rust
    body = rust.split("for i in", 1)[1]
    assert re.match(r"[^{]*\{\n\s*if zs_done \{\n\s*continue;", body)      # skip once done
    assert re.search(r"zs_done = flag_true;\n\s*continue;", body) and "break" not in body
