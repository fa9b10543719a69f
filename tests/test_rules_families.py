"""One small kernel per construct family (tests/fixtures/drafter/): drafted, built with cargo
and diffed against the cuTile Python kernel's Tile IR; the verdict must be PASS or
PASS_WITH_NOTES. Each works on a copy in tmp_path (`--out`), never on tracked files."""
from __future__ import annotations

import re

import pytest

FAMILIES = {
    # id: (FILE:KERNEL, args, consts)
    "math_unary": ("math_unary.py:unary_math", ["f16[256]", "f16[256]"], ["TILE=64"]),
    "int_ops": ("int_ops.py:int_ops", ["i32[256]", "f32[256]", "i32[256]", "f32[256]"],
                ["TILE=64"]),
    "gather_scatter": ("gather_scatter.py:gather_rows", ["f32[64,100]", "f32[100]", "f32[64,100]"],
                       ["N=100", "TILE=128"]),
    "persistent_gather": ("persistent.py:row_softmax", ["f16[64,100]", "f16[64,100]"],
                          ["ROWS=64", "TILE=128", "COLS=100"]),
    "persistent_load_store": ("persistent.py:row_scale", ["f32[64,128]", "f32[64,128]"],
                              ["ROWS=64", "TILE=128"]),
    "mixed_dtypes": ("mixed_dtypes.py:masked_pick", ["f16[256]", "i8[256]", "i32[256]", "f16[256]"],
                     ["TILE=64"]),
    "constants": ("constants.py:gated", ["f16[64,100]", "f16[64,100]"],
                  ["N=100", "TILE=128", "APPROX=True", "ALPHA=1.5"]),
    "mma_tf32": ("mma_tf32.py:mm_tf32", ["f32[128,256]", "f32[256,128]", "f32[128,128]"],
                 ["BM=64", "BN=64", "BK=32"]),
    "mma_batched": ("mma_tf32.py:batch_products", ["f16[4,16,64]", "f16[4,64,32]",
                    "f32[4,16,32]"], ["G=2", "BM=16", "BN=32", "BK=32"]),
    "scan_reduce": ("scan_reduce.py:scans", ["f32[64,128]", "f32[64,128]"], ["TILE=128"]),
    "inplace": ("inplace.py:rotate_halves", ["bf16[8,128]", "i32[64]"], ["H=8", "D=64"]),
    "shapes": ("shapes.py:shapes", ["f32[64,32]", "f32[32,64]", "f32[64,32]"], ["M=16", "N=32"]),
    "runtime_if": ("branches.py:clamp_rows", ["f32[64,128]"] * 3 + ["i32", "f32"],
                   ["TILE=128", "SCALE=True"]),
    "loop_split": ("branches.py:causal_sum", ["f32[64,128]", "f32[64,128]", "i32"], ["TILE=128"]),
    "loop_counter_and_tokens": ("loop_carry.py:walk_blocks", ["f32[1024]", "f32[64]", "f32[64]"],
                                ["STEPS=8", "TILE=64"]),
    "loop_parallel_store_folded": ("loop_carry.py:copy_rows", ["f32[64,64]"] * 3,
                                   ["ROWS=8", "TILE=64", "TWICE=True"]),
    "loop_parallel_store_nested": ("loop_carry.py:nested_rows",
                                   ["f32[64,512]", "f32[64,512]", "f32[64,64]"],
                                   ["ROWS=64", "COLS=8", "TILE=64"]),
    "if_unused_token": ("loop_carry.py:guarded_scatter", ["f32[256]", "f32[256]", "i32"],
                        ["TILE=64"]),
    "if_in_loop": ("loop_carry.py:damped_sum", ["f32[64,128]", "f32[64,128]", "i32"],
                   ["STEPS=8", "TILE=128"]),
    "loop_retyped_not_carried": ("loop_carry.py:retyped_in_loop",
                                 ["f16[1024]", "f32[64]", "i32"], ["STEPS=8", "TILE=64"]),
    "early_return": ("early_return.py:guarded_rows", ["f32[64,128]", "f32[64,128]", "i32[4]"],
                     ["TILE=128"]),
    "early_return_chain": ("early_return.py:clipped_copy", ["f32[1024]", "f32[1024]", "i32[4]"],
                           ["TILE=64"]),
    "while_persistent": ("while_loops.py:persistent_rows", ["f32[64,128]", "f32[64,128]"],
                         ["TILE=128"]),
    "while_carried_load": ("while_loops.py:row_sum", ["f32[64,1024]", "f32[8192]", "i32"],
                           ["TILE=128"]),
    "while_and_or": ("while_loops.py:windowed", ["f32[1024]", "f32[1024]", "i32", "i32"],
                     ["TILE=128"]),
    "while_break_continue": ("while_loops.py:positive_prefix",
                             ["f32[64,1024]", "f32[64,128]", "i32"], ["TILE=128"]),
    "while_in_for": ("while_loops.py:grouped_rows", ["f32[64,128]", "f32[64,128]", "i32[4]"],
                     ["GROUPS=4", "TILE=128"]),
    "for_in_while": ("while_loops.py:persistent_matmul",
                     ["f16[256,128]", "f16[128,256]", "f16[256,256]"], ["BM=64", "BN=64", "BK=32"]),
    "for_continue": ("while_loops.py:skip_negative", ["f32[1024]", "f32[64]"],
                     ["STEPS=8", "TILE=64"]),
    "while_not_flag": ("while_loops.py:halve_until_small", ["f32[64]", "f32[64]"], ["TILE=64"]),
    "for_break": ("while_loops.py:break_in_for", ["f32[1024]", "f32[64]", "f32[1024]"],
                  ["STEPS=8", "TILE=64"]),
    "while_true_break": ("while_loops.py:first_negative", ["f32[1024]", "i32[1]", "i32"],
                         ["TILE=64"]),
    "atomic_int": ("atomics.py:histogram", ["i32[64]", "i32[4]", "i32[1000]"], ["TILE=128"]),
    "atomic_float": ("atomics.py:row_sums", ["f32[8]", "f32[100]", "f16[100,256]"],
                     ["TILE=256"]),
    "atomic_release": ("atomics.py:default_order", ["i32[64]", "i32[1000]"], ["TILE=128"]),
    # a scatter after an acquiring atomic waits for it: its token joined with the atomic's
    "after_acquire": ("atomics.py:count_then_copy", ["i32[64]", "i32[128]", "i32[1000]"],
                      ["TILE=128"]),
    # an ACQ_REL atomic in a loop: the gather before it waits for the previous trip's acquire
    "acquire_in_loop": ("atomics.py:count_in_loop", ["i32[64]", "i32[1000]"],
                        ["STEPS=4", "TILE=64"]),
    "assume_divisible": ("atomics.py:offset_rows", ["f32[1000]", "f32[2000]", "i32=32"],
                         ["TILE=128"]),
}


def port(cli, tmp_path, target, args, consts):
    out = tmp_path / "port"
    command = ["port", f"tests/fixtures/drafter/{target}", "--out", str(out)]
    for a in args:
        command += ["--arg", a]
    for c in consts:
        command += ["--const", c]
    return cli(*command, timeout=900), out


@pytest.mark.parametrize("family", list(FAMILIES))
def test_family_drafts_builds_and_matches(family, cli, tmp_path):
    target, args, consts = FAMILIES[family]
    result, out = port(cli, tmp_path, target, args, consts)
    assert "build          #1 BUILT" in result.stdout, result.stdout + result.stderr
    assert re.search(r"final verdict: (PASS|PASS_WITH_NOTES)\b", result.stdout), \
        result.stdout + result.stderr + (out / "src" / "kernel.rs").read_text()
