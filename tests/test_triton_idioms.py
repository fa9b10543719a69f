"""The Triton idioms the translator follows, each derived without a GPU: @triton.jit helpers
(inlined), pointers and counters a loop advances (closed form), the grouped program order,
block pointers and tensor descriptors made in the kernel, transposed accesses, clamp/cumsum,
bitcasts and reductions as Triton defines them; what it does not follow is refused by name,
and a bug inside it is a diagnostic, not a traceback."""
from __future__ import annotations

from workbench.sources.module import TRITON, reduce_module
from workbench.translate.derive import derive
from workbench.translate.targets import triton_target


def _derived(target: str, args: list[str], consts: list[str]):
    t = triton_target(target, args, consts)
    return derive(t.source(), list(t.cases), t.label)


def test_helpers_are_inlined_with_their_own_names_and_constexpr_branches_folded(tmp_path):
    fixture = "tests/fixtures/triton_helpers.py"
    target = triton_target(f"{fixture}:gelu_rows", ["f16[64,1000]", "f16[64,1000]", "i32=1000",
                                                      "i32=1000"], ["BLOCK=1024"])
    derived = derive(target.source(), list(target.cases), target.label)
    assert derived.ok, derived.translation.diagnostics
    # the helper's locals are renamed per call, its default constexpr k is folded in
    assert "gelu_tanh2_inner = (0.7978845608 * (x + " in derived.text, derived.text
    assert "return" not in derived.text.split("def gelu_rows")[1]
    picked = triton_target(f"{fixture}:row_max_or_sum", ["f32[64,256]", "f32[64]", "i32=200"],
                           ["BLOCK=256"])
    derived = derive(picked.source(), list(picked.cases), picked.label)
    assert derived.ok, derived.translation.diagnostics
    assert "padding_mode=ct.PaddingMode.NEG_INF" in derived.text, derived.text
    assert "ct.max(" in derived.text and "ct.sum(" not in derived.text     # FIRST folded
    assert "SCALE" not in derived.text                                     # `is None` folded


def test_a_kernel_with_helpers_is_ported_and_its_ir_matches_the_derived_kernel(cli, tmp_path):
    result = cli("port", "tests/fixtures/triton_helpers.py:gelu_rows", "--arg", "f16[64,1000]",
                 "--arg", "f16[64,1000]", "--arg", "i32=1000", "--arg", "i32=1000", "--const",
                 "BLOCK=1024", "--grid", "64", "--out", str(tmp_path / "port"), timeout=900)
    assert "gpu_check      #1 PASS             on the CPU" in result.stdout, result.stdout
    assert "final verdict: PASS" in result.stdout, result.stdout + result.stderr


ADVANCING = ["f16[512,256]", "f16[256,384]", "f16[512,384]", "i32=512", "i32=384", "i32=256",
             "i32=256", "i32=1", "i32=384", "i32=1", "i32=384", "i32=1"]


def test_pointers_a_loop_advances_by_a_fixed_step_are_followed_in_closed_form():
    target = triton_target("tests/fixtures/triton_advancing.py:advancing_matmul", ADVANCING,
                           ["BM=64", "BN=64", "BK=32"])
    derived = derive(target.source(), list(target.cases), target.label)
    assert derived.ok, derived.translation.diagnostics
    # iteration k reads A's k-th and B's k-th block: the advance became the loop variable
    assert "ct.load(a_ptr, index=(pid_m, k), shape=(64, 32)" in derived.text, derived.text
    assert "ct.load(b_ptr, index=(k, pid_n), shape=(32, 64)" in derived.text, derived.text
    # the K-remainder masks keep the axis their arange has in the 2-D tile
    assert "ct.reshape(ct.arange(32, dtype=ct.int32), (1, 32))" in derived.text
    assert "ct.reshape(ct.arange(32, dtype=ct.int32), (32, 1))" in derived.text


def test_a_pointer_advanced_by_an_amount_the_loop_changes_stays_refused(tmp_path):
    kernel = tmp_path / "k.py"
    kernel.write_text("import triton\nimport triton.language as tl\n\n\n@triton.jit\n"
                      "def walk(x_ptr, y_ptr, B: tl.constexpr):\n"
                      "    p = x_ptr + tl.arange(0, B)\n"
                      "    acc = tl.zeros([B], dtype=tl.float32)\n"
                      "    for i in range(4):\n"
                      "        acc += tl.load(p)\n"
                      "        step = B * (i + 1)\n"
                      "        p += step\n"
                      "    tl.store(y_ptr + tl.arange(0, B), acc)\n")
    target = triton_target(f"{kernel}:walk", ["f32[8192]", "f32[512]"], ["B=512"])
    derived = derive(target.source(), list(target.cases), target.label)
    assert not derived.ok
    assert "loop-carried pointer" in {d["construct"] for d in derived.translation.diagnostics}


def test_a_grouped_program_order_is_a_block_position_and_gives_tile_loads():
    target = triton_target("tests/fixtures/triton_advancing.py:grouped_matmul", ADVANCING,
                           ["BM=64", "BN=64", "BK=32", "GROUP_M=8"])
    derived = derive(target.source(), list(target.cases), target.label)
    assert derived.ok, derived.translation.diagnostics
    # pid_m = first_pid_m + pid % group_size_m, computed from the program id: a tile index
    assert "ct.load(a_ptr, index=(group_id * 8 + (pid % group_size_m), k)" in derived.text, \
        derived.text
    assert "ct.gather" not in derived.text


ATTENTION = ["f16[1024,64]"] * 4 + ["f32=0.125", "i32=1024"] + ["i32=64", "i32=1"] * 4


def test_block_pointers_become_tile_accesses_and_a_transposed_one_a_permuted_tile():
    fixture = "tests/fixtures/triton_block_ptrs.py"
    copy = triton_target(f"{fixture}:block_ptr_copy", ["f16[256,1000]", "f16[256,1000]", "i32=256",
                                                      "i32=1000", "i32=1000", "i32=1"],
                         ["BM=64", "BN=128"])
    derived = derive(copy.source(), list(copy.cases), copy.label)
    assert derived.ok, derived.translation.diagnostics
    assert "ct.load(x_ptr, index=(pid, j), shape=(64, 128), padding_mode=ct.PaddingMode.ZERO)" \
        in derived.text, derived.text
    assert "ct.store(y_ptr, index=(pid, j)" in derived.text
    attention = triton_target(f"{fixture}:attn_fwd_bp", ATTENTION,
                              ["BLOCK_M=64", "BLOCK_N=64", "HEAD_DIM=64"])
    derived = derive(attention.source(), list(attention.cases), attention.label)
    assert derived.ok, derived.translation.diagnostics
    # K's view is (HEAD_DIM, N_CTX) over a (N_CTX, HEAD_DIM) tensor: the tile is read in
    # K's order at the advanced sequence block, then permuted
    assert ("k = ct.permute(ct.load(K, index=(start_n_tile, 0), shape=(64, 64), "
            "padding_mode=ct.PaddingMode.ZERO), (1, 0))") in derived.text, derived.text
    assert "v = ct.load(V, index=(start_n_tile, 0)" in derived.text
    assert "ct.store(Out, index=(start_m, 0), tile=ct.astype(acc, Out.dtype))" in derived.text


def test_a_block_pointer_with_strides_that_are_not_its_tensors_is_refused():
    target = triton_target("tests/fixtures/triton_block_ptrs.py:strided_view",
                           ["f32[64,256]", "f32[64]", "i32=64", "i32=128", "i32=256"],
                           ["BM=64", "BN=64"])
    derived = derive(target.source(), list(target.cases), target.label)
    assert not derived.ok
    [reason] = [d for d in derived.translation.diagnostics if d["construct"] == "tl.make_block_ptr"]
    assert "strided or partial view" in reason["message"]


def test_a_flash_attention_with_block_pointers_is_ported(cli, tmp_path):
    result = cli("port", "tests/fixtures/triton_block_ptrs.py:attn_fwd_bp",
                 *[x for a in ATTENTION for x in ("--arg", a)], "--const", "BLOCK_M=64",
                 "--const", "BLOCK_N=64", "--const", "HEAD_DIM=64", "--grid", "16", "--out",
                 str(tmp_path / "port"), timeout=900)
    assert "gpu_check      #1 PASS             on the CPU" in result.stdout, result.stdout
    assert "final verdict: PASS" in result.stdout, result.stdout + result.stderr





def test_a_counter_the_loop_steps_is_the_iteration_and_one_it_sets_otherwise_a_variable():
    """A compile-time value the loop changes must not be read as its value before the loop
    in every iteration (the derived kernel would load block 0 four times): a counter stepped
    by a fixed amount is the iteration, one set otherwise a variable the loop carries."""
    fixture = "tests/fixtures/triton_advancing.py"
    counted = _derived(f"{fixture}:counter_loop", ["f32[4096]", "f32[1024]"], ["B=1024"])
    assert counted.ok, counted.translation.diagnostics
    assert "ct.load(x_ptr, index=(i,), shape=(1024,)" in counted.text, counted.text
    carried = _derived(f"{fixture}:carried_static", ["f32[4096]", "f32[1024]"], ["B=1024"])
    assert carried.ok, carried.translation.diagnostics
    assert ("    prev = 0\n    for i in range(4):\n        acc = (acc + ct.load(x_ptr, "
            "index=(prev,), shape=(1024,), padding_mode=ct.PaddingMode.ZERO))\n"
            "        prev = i\n") in carried.text, carried.text


def test_a_parameter_a_helpers_loop_carries_is_a_variable_of_the_helper():
    derived = _derived("tests/fixtures/triton_helpers.py:helper_carry", ["f32[4096]", "f32[1024]"],
                       ["B=1024"])
    assert derived.ok, derived.translation.diagnostics
    body = derived.text.split("def helper_carry")[1]
    assert "accumulate1_acc = acc\n" in body, body
    assert "accumulate1_acc = (accumulate1_acc + ct.load(x_ptr, index=(accumulate1_i,)" in body


def test_clamp_cumsum_and_pow_map_onto_cutile_and_erf_is_refused_with_what_to_write(tmp_path):
    kernel = tmp_path / "k.py"
    kernel.write_text("import triton\nimport triton.language as tl\n\n\n@triton.jit\n"
                      "def mix(x_ptr, y_ptr, lo, hi, B: tl.constexpr):\n"
                      "    o = tl.arange(0, B)\n"
                      "    x = tl.clamp(tl.load(x_ptr + o), lo, hi)\n"
                      "    tl.store(y_ptr + o, tl.cumsum(tl.math.pow(x, 2.0), axis=0))\n\n\n"
                      "@triton.jit\n"
                      "def gelu(x_ptr, y_ptr, B: tl.constexpr):\n"
                      "    x = tl.load(x_ptr + tl.arange(0, B))\n"
                      "    tl.store(y_ptr + tl.arange(0, B), 0.5 * x * (1 + tl.erf(x * 0.7071)))\n")
    mixed = _derived(f"{kernel}:mix", ["f32[512]", "f32[512]", "f32=-1.0", "f32=1.0"], ["B=512"])
    assert mixed.ok, mixed.translation.diagnostics
    assert "ct.minimum(ct.maximum(" in mixed.text and ", lo), hi)" in mixed.text, mixed.text
    assert "ct.cumsum(ct.pow(x, 2.0), axis=0, reverse=False)" in mixed.text, mixed.text
    refused = _derived(f"{kernel}:gelu", ["f32[512]", "f32[512]"], ["B=512"])
    assert not refused.ok
    [reason] = refused.translation.diagnostics
    assert reason["construct"] == "tl.erf" and "tanh form" in reason["message"]


def test_a_transposed_access_is_a_tile_access_and_a_permute(tmp_path):
    """y[n, m] = x[m, n] with pointer tiles rm[:, None] and rn[None, :]: the store's tile axes
    run through y's dimensions the other way round, so the tile is permuted into y's order."""
    kernel = tmp_path / "k.py"
    kernel.write_text("import triton\nimport triton.language as tl\n\n\n@triton.jit\n"
                      "def transpose(x_ptr, y_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):\n"
                      "    rm = tl.program_id(0) * BM + tl.arange(0, BM)\n"
                      "    rn = tl.program_id(1) * BN + tl.arange(0, BN)\n"
                      "    x = tl.load(x_ptr + rm[:, None] * N + rn[None, :])\n"
                      "    tl.store(y_ptr + rn[None, :] * M + rm[:, None], x)\n"
                      "    t = tl.load(y_ptr + rn[None, :] * M + rm[:, None])\n"
                      "    tl.store(x_ptr + rm[:, None] * N + rn[None, :], t * 2)\n")
    derived = _derived(f"{kernel}:transpose", ["f32[256,384]", "f32[384,256]", "i32=256",
                                                "i32=384"], ["BM=64", "BN=32"])
    assert derived.ok, derived.translation.diagnostics
    assert "ct.store(y_ptr, index=(ct.bid(1), ct.bid(0)), tile=ct.permute(" in derived.text, \
        derived.text
    # the load through the transposed tile reads y's (32, 64) tile and permutes it to (64, 32)
    assert ("ct.permute(ct.load(y_ptr, index=(ct.bid(1), ct.bid(0)), shape=(32, 64), "
            "padding_mode=ct.PaddingMode.ZERO), (1, 0))") in derived.text, derived.text


def test_a_tensor_descriptor_made_in_the_kernel_is_a_descriptor_over_its_tensor(tmp_path):
    kernel = tmp_path / "k.py"
    kernel.write_text("import triton\nimport triton.language as tl\n\n\n@triton.jit\n"
                      "def scale(x_ptr, y_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):\n"
                      "    xd = tl.make_tensor_descriptor(x_ptr, shape=[M, N], strides=[N, 1],\n"
                      "                                   block_shape=[BM, BN])\n"
                      "    yd = tl.make_tensor_descriptor(y_ptr, shape=[N, M], strides=[M, 1],\n"
                      "                                   block_shape=[BM, BN])\n"
                      "    t = xd.load([tl.program_id(0) * BM, 0])\n"
                      "    yd.store([tl.program_id(0) * BM, 0], t * 2.0)\n")
    args = ["f32[256,1000]", "f32[256,1000]", "i32=256", "i32=1000"]
    derived = _derived(f"{kernel}:scale", args, ["BM=64", "BN=128"])
    # x's descriptor is x itself; y's names the extents the other way round: refused
    assert "ct.load(x_ptr, index=(ct.bid(0), 0), shape=(64, 128)" in derived.text, derived.text
    assert [d["construct"] for d in derived.translation.diagnostics] == ["tl.make_tensor_descriptor"]


def test_a_bitcast_reinterprets_the_bits_and_is_never_a_conversion(tmp_path):
    """x.to(tl.int32, bitcast=True) was once translated as ct.astype: the value converted,
    not its bits reinterpreted, a wrong derived kernel and port."""
    kernel = tmp_path / "k.py"
    kernel.write_text("import triton\nimport triton.language as tl\n\n\n@triton.jit\n"
                      "def bits(x_ptr, y_ptr, z_ptr, B: tl.constexpr):\n"
                      "    o = tl.arange(0, B)\n"
                      "    x = tl.load(x_ptr + o)\n"
                      "    tl.store(y_ptr + o, x.to(tl.int32, bitcast=True) & 0x7FFFFFFF)\n"
                      "    tl.store(z_ptr + o, tl.cast(x, tl.int32, bitcast=True) + "
                      "tl.zeros_like(x).to(tl.int32))\n\n\n"
                      "@triton.jit\n"
                      "def pick(x_ptr, y_ptr, B: tl.constexpr):\n"
                      "    tl.store(y_ptr + tl.program_id(0), tl.argmax(tl.load(x_ptr + "
                      "tl.program_id(0) * B + tl.arange(0, B)), axis=0))\n")
    derived = _derived(f"{kernel}:bits", ["f32[512]", "i32[512]", "i32[512]"], ["B=512"])
    assert derived.ok, derived.translation.diagnostics
    assert derived.text.count("ct.bitcast(x, ct.int32)") == 2, derived.text
    assert "ct.astype(x, ct.int32)" not in derived.text
    assert "ct.zeros((512,), dtype=x.dtype)" in derived.text
    picked = _derived(f"{kernel}:pick", ["f32[64,512]", "i32[64]"], ["B=512"])
    assert picked.ok, picked.translation.diagnostics
    # the first index of the maximum, in reductions cutile has (it has no argmax)
    assert "ct.min(ct.where(argmax_of1 == ct.max(argmax_of1, axis=0, keepdims=True), " \
        "ct.arange(512, dtype=ct.int32), 512), axis=0)" in picked.text, picked.text


def test_a_reduction_takes_keep_dims_by_position_and_casts_to_its_dtype_first(tmp_path):
    """tl.sum(x, 1, True, dtype=tl.float32): keep_dims given by position and the f16 input
    summed in f32, as Triton does (both were once ignored: a 1-D f16 sum)."""
    kernel = tmp_path / "k.py"
    kernel.write_text("import triton\nimport triton.language as tl\n\n\n@triton.jit\n"
                      "def sums(x_ptr, y_ptr, B: tl.constexpr):\n"
                      "    x = tl.load(x_ptr + tl.program_id(0) * B + tl.arange(0, B)[None, :])\n"
                      "    s = tl.sum(x, 1, True, dtype=tl.float32)\n"
                      "    m = tl.max(x, 1, keep_dims=True)\n"
                      "    tl.store(y_ptr + tl.program_id(0) + tl.arange(0, 1)[:, None], "
                      "s + m.to(tl.float32))\n")
    derived = _derived(f"{kernel}:sums", ["f16[64,512]", "f32[64,1]"], ["B=512"])
    assert derived.ok, derived.translation.diagnostics
    assert "s = ct.sum(ct.astype(x, ct.float32), axis=1, keepdims=True)" in derived.text
    assert "m = ct.max(x, axis=1, keepdims=True)" in derived.text


def test_a_translator_bug_is_a_diagnostic_at_the_statement_not_a_traceback(tmp_path, monkeypatch):
    from workbench.translate import calls

    def broken(t, call):
        raise IndexError("list index out of range")
    monkeypatch.setitem(calls.TL, "sigmoid", broken)
    kernel = tmp_path / "k.py"
    kernel.write_text("import triton\nimport triton.language as tl\n\n\n@triton.jit\n"
                      "def k(x_ptr, B: tl.constexpr):\n"
                      "    o = tl.arange(0, B)\n"
                      "    tl.store(x_ptr + o, tl.sigmoid(tl.load(x_ptr + o)))\n")
    derived = _derived(f"{kernel}:k", ["f32[512]"], ["B=512"])
    assert not derived.ok
    [bug] = derived.translation.diagnostics
    assert bug["construct"] == "translator" and bug["line"] == 8
    assert "IndexError" in bug["message"] and "test_triton_idioms.py" in bug["message"]


def test_an_early_return_puts_the_rest_of_the_kernel_under_else(tmp_path):
    """`if row >= n or pid >= m: return` (a bounds check, `or` of two comparisons), and a
    `return` under a runtime `if` inside a folded constexpr one: the rest of the kernel is the
    `else` branch (cuTile has no early return); one under a loop is refused."""
    kernel = tmp_path / "early.py"
    kernel.write_text(
        "import triton\nimport triton.language as tl\n\n\n@triton.jit\n"
        "def guarded(x_ptr, flag_ptr, y_ptr, n, HAS_FLAG: tl.constexpr, BLOCK: tl.constexpr):\n"
        "    row = tl.program_id(0)\n"
        "    if row >= n or row < 0:\n"
        "        return\n"
        "    if HAS_FLAG:\n"
        "        flag = tl.load(flag_ptr + row)\n"
        "        if flag == 0:\n"
        "            return\n"
        "    offs = tl.arange(0, BLOCK)\n"
        "    tl.store(y_ptr + row * BLOCK + offs, tl.load(x_ptr + row * BLOCK + offs) * 2.0)\n"
        "    return\n")
    derived = _derived(f"{kernel}:guarded", ["f32[8,64]", "i32[8]", "f32[8,64]", "i32=8"],
                       ["HAS_FLAG=true", "BLOCK=64"])
    assert derived.ok, derived.translation.diagnostics
    body = derived.text.split("def guarded(", 1)[1]
    assert "if ((row >= n) | (row < 0)):\n        pass\n    else:\n" in body, body
    assert "        if (flag == 0):\n            pass\n        else:\n            ct.store(" in body
    looped = tmp_path / "looped.py"
    looped.write_text(
        "import triton\nimport triton.language as tl\n\n\n@triton.jit\n"
        "def stops(x_ptr, n, BLOCK: tl.constexpr):\n"
        "    for i in range(n):\n"
        "        if tl.load(x_ptr + i) == 0:\n"
        "            return\n")
    [refused] = _derived(f"{looped}:stops", ["f32[8]", "i32=8"],
                         ["BLOCK=64"]).translation.diagnostics
    assert refused["construct"] == "early return" and refused["line"] == 9, refused


def test_a_conditional_expression_on_a_runtime_value_is_a_where(tmp_path):
    """`1.0 if best > y else 0.0` (both sides values: nothing to skip) is ct.where."""
    kernel = tmp_path / "hits.py"
    kernel.write_text("import triton\nimport triton.language as tl\n\n\n@triton.jit\n"
                      "def hit_rate(x_ptr, y_ptr, out_ptr, BLOCK: tl.constexpr):\n"
                      "    row = tl.program_id(0)\n"
                      "    best = tl.max(tl.load(x_ptr + row * BLOCK + tl.arange(0, BLOCK)), 0)\n"
                      "    hit = 1.0 if best > tl.load(y_ptr + row) else 0.0\n"
                      "    tl.store(out_ptr + row, hit)\n")
    derived = _derived(f"{kernel}:hit_rate", ["f32[16,128]", "f32[16]", "f32[16]"],
                       ["BLOCK=128"])
    assert derived.ok, derived.translation.diagnostics
    assert "hit = ct.where((best > " in derived.text and ", 1.0, 0.0)" in derived.text, \
        derived.text


def test_a_module_value_computed_by_a_function_that_needs_the_package_is_dropped():
    """`NAME = helper()` runs helper's body when the module is read: a body that needs a
    dropped import (the package's runtime) drops the assignment, not the whole module."""
    source = ("import triton\nfrom pkg.runtime import device\n\n\ndef name():\n"
              "    return device()\n\n\nNAME = name()\nLIMIT = 4\n")
    reduced = reduce_module(source, "m.py", TRITON)
    assert "NAME = name()" not in reduced.text and "LIMIT = 4" in reduced.text
    assert "needs `device`" in reduced.dropped["NAME"][1], reduced.dropped
    namespace: dict = {}
    exec(compile(reduced.text, "m.py", "exec"), namespace)
    assert namespace["LIMIT"] == 4


ENV_CHOSEN = ("import os\nimport triton\nimport triton.language as tl\nfrom pkg import FLAG\n\n"
              "if os.environ.get('WB_TEST_FAST', '0') == '1':\n"
              "    @triton.jit\n    def exp(x): return tl.exp2(x * 1.4426950408889634)\n"
              "elif os.environ.get('WB_TEST_FAST') == 'libdevice':\n"
              "    LIMIT = 8\n"
              "else:\n"
              "    @triton.jit\n    def exp(x):\n        return tl.exp(x)\n"
              "\nif FLAG:\n    @triton.jit\n    def other(x): return x\n")


def test_a_helper_chosen_by_the_environment_at_import_is_read_from_the_branch_it_takes(
        monkeypatch):
    """A module-level `if` that reads only the environment (os.environ, sys) is decided as
    the module would decide it, its branch read as top-level code; one that reads the package
    (`if FLAG:`) is dropped, as before."""
    monkeypatch.delenv("WB_TEST_FAST", raising=False)
    reduced = reduce_module(ENV_CHOSEN, "m.py", TRITON)
    compile(reduced.text, "m.py", "exec")        # the branch, unindented, is valid Python
    assert "tl.exp(x)" in reduced.text and "exp2" not in reduced.text
    assert [k.name for k in reduced.kernels] == ["exp"] and "other" in reduced.dropped
    monkeypatch.setenv("WB_TEST_FAST", "libdevice")
    reduced = reduce_module(ENV_CHOSEN, "m.py", TRITON)
    assert not reduced.kernels and "LIMIT = 8" in reduced.text, reduced.text
    namespace = {}
    exec(compile(reduced.text, "m.py", "exec"), namespace)
    assert namespace["LIMIT"] == 8
