"""The derived cuTile kernel addresses what the Triton kernel addresses, in every case:
a descriptor's block is the tile loaded in each case (not case 0's), an offset read from
memory indexes the dimension its stride names, and where the translator cannot prove an
access exact it refuses with the Triton construct named. No GPU: the derived kernel's text
and its Tile IR (exported by cuda-tile) are read."""
from __future__ import annotations

import re

from workbench.catalog import Case
from workbench.ir.stages import file_python_ir
from workbench.translate.derive import derive
from workbench.translate.targets import triton_catalog, triton_target

PARTITION = re.compile(r"partition_view<tile=\(([0-9x]+)\)")


def _derived_ir(name, tmp_path):
    target = triton_catalog()[name]
    derived = derive(target.source(), list(target.cases), target.label)
    assert derived.ok, derived.translation.diagnostics
    path = tmp_path / f"{target.kernel_name}.py"
    path.write_text(derived.text)
    irs = [file_python_ir(str(path), target.kernel_name, list(c.args), c.consts).text
           for c in derived.cases]
    return target, derived, irs


def test_descriptor_block_is_each_cases_tile(tmp_path):
    # case 0 block=(8,1024), case 1 block=(2,4096): each case loads its own block
    target, derived, irs = _derived_ir("triton_layer_norm_persistent", tmp_path)
    assert "shape=(BLOCK_N, BLOCK_D)" in derived.text
    for case, ir in zip(target.cases, irs):
        tiles = set(PARTITION.findall(ir))
        for spec in case.args:
            if spec.block:
                assert "x".join(map(str, spec.block)) in tiles, (spec, tiles)
        other = {"x".join(map(str, s.block)) for c in target.cases if c is not case
                 for s in c.args if s.block} - {"x".join(map(str, s.block))
                                                 for s in case.args if s.block}
        assert not other & tiles, (other, tiles)




def test_descriptor_block_no_constexpr_names_is_refused(tmp_path):
    from workbench.argspec import parse_arg
    kernel = tmp_path / "k.py"
    kernel.write_text("import triton\nimport triton.language as tl\n\n\n@triton.jit\n"
                      "def copy(x_desc, y_desc):\n"
                      "    x = x_desc.load([tl.program_id(0) * 8, 0])\n"
                      "    y_desc.store([tl.program_id(0) * 8, 0], x)\n")
    target = triton_target(f"{kernel}:copy", ["f32[64,128]:block=(8,128)",
                                              "f32[64,128]:block=(8,128)"])
    second = Case(1, (parse_arg("f32[64,256]:block=(8,256)"),
                      parse_arg("f32[64,256]:block=(8,256)")), {})
    derived = derive(target.source(), [target.cases[0], second], target.label)
    assert not derived.ok
    assert "tensor descriptor block" in {d["construct"] for d in
                                         derived.translation.diagnostics}
    one = derive(target.source(), [target.cases[0]], target.label)
    assert one.ok and "shape=(8, 128)" in one.text


def _kernel_target(tmp_path, body, args, consts=()):
    kernel = tmp_path / "k.py"
    kernel.write_text("import triton\nimport triton.language as tl\n\n\n@triton.jit\n" + body)
    name = body.split("def ", 1)[1].split("(", 1)[0]
    target = triton_target(f"{kernel}:{name}", args, list(consts))
    return target, derive(target.source(), list(target.cases), target.label)


def test_row_index_read_from_memory_indexes_the_rows(tmp_path):
    # table + idx * D + cols: idx (an i32 read from memory) times the row stride is a row
    # index; before, it was taken as a column offset into row 0 (rel. error 0.986 on GPU)
    target, derived, irs = _derived_ir("triton_gather_rows", tmp_path)
    # (cast to int32 as any index read from memory is: a no-op on this i32 one, no IR op)
    assert "ct.load(table_ptr, index=(ct.astype(idx, ct.int32), 0), shape=(1, 128)" \
        in derived.text
    assert "(idx * 128)" not in derived.text
    assert all("tile=(1x128)" in ir for ir in irs)


def test_tile_of_row_indices_is_a_gather_by_rows(tmp_path):
    _, derived = _kernel_target(tmp_path, (
        "def gather_block(table_ptr, index_ptr, out_ptr, D: tl.constexpr, B: tl.constexpr):\n"
        "    pid = tl.program_id(0)\n"
        "    rows = tl.load(index_ptr + pid * B + tl.arange(0, B))\n"
        "    cols = tl.arange(0, D)\n"
        "    x = tl.load(table_ptr + rows[:, None] * D + cols[None, :])\n"
        "    out = (pid * B + tl.arange(0, B))[:, None] * D + cols[None, :]\n"
        "    tl.store(out_ptr + out, x)\n"),
        ["f32[512,64]", "i32[256]", "f32[256,64]"], ["D=64", "B=16"])
    assert derived.ok, derived.translation.diagnostics
    # dimension 0 is indexed by the rows read from memory, dimension 1 by the columns
    assert ("ct.gather(table_ptr, (ct.reshape(rows, (16, 1)), "
            "ct.reshape(ct.arange(64, dtype=ct.int32), (1, 64)))") in derived.text


def test_flat_offset_from_memory_on_a_2d_tensor_is_refused(tmp_path):
    # idx + cols with idx read from memory: which row it lands in is not known
    _, derived = _kernel_target(tmp_path, (
        "def flat(table_ptr, index_ptr, out_ptr, D: tl.constexpr):\n"
        "    pid = tl.program_id(0)\n"
        "    idx = tl.load(index_ptr + pid)\n"
        "    row = tl.load(table_ptr + idx + tl.arange(0, D))\n"
        "    tl.store(out_ptr + pid * D + tl.arange(0, D), row)\n"),
        ["f32[512,128]", "i32[64]", "f32[64,128]"], ["D=128"])
    assert not derived.ok
    diagnostics = derived.translation.diagnostics
    assert [d["construct"] for d in diagnostics] == ["pointer arithmetic"]
    assert diagnostics[0]["line"] == 9 and "idx" in diagnostics[0]["message"]


def test_flat_offset_from_memory_on_a_1d_tensor_is_exact(tmp_path):
    _, derived = _kernel_target(tmp_path, (
        "def flat(table_ptr, index_ptr, out_ptr, D: tl.constexpr):\n"
        "    pid = tl.program_id(0)\n"
        "    idx = tl.load(index_ptr + pid)\n"
        "    row = tl.load(table_ptr + idx + tl.arange(0, D))\n"
        "    tl.store(out_ptr + pid * D + tl.arange(0, D), row)\n"),
        ["f32[65536]", "i32[64]", "f32[8192]"], ["D=128"])
    assert derived.ok, derived.translation.diagnostics
    assert "ct.gather(table_ptr, idx + ct.arange(128" in derived.text


def test_programs_per_sm_from_triton_resources():
    from workbench.port.triton_residency import programs_per_sm
    assert programs_per_sm(32, 1024, 4) == 16          # bounded by 2048 threads
    assert programs_per_sm(255, 0, 4) == 2             # 64 K registers / (256 x 128)
    assert programs_per_sm(32, 70000, 4) == 3          # 228 KB / (70000 + 1 KB)
    assert programs_per_sm(255, 300000, 8) == 1


def test_derived_kernel_asks_for_tritons_residency(tmp_path):
    import pytest
    pytest.importorskip("triton")
    from workbench.port.triton_stages import translate_target
    from workbench.port.analyze import analyze
    from workbench.port.rules import draft
    target = triton_catalog()["triton_rms_norm"]
    derived, op, _, _ = translate_target(target, tmp_path / "work" / "port")
    # Triton's kernel: 32 registers, 1 KB shared, 4 warps -> 16 programs per SM
    assert "@ct.kernel(occupancy=16)\n" in derived.text
    assert op.kernel_file.read_text() == derived.text
    spec = analyze(derived.text, "derived.py", target.kernel_name, list(derived.cases))
    kernel = draft(spec, derived.text, "triton_rms_norm").files["src/kernel.rs"]
    assert "occupancy = 16" in kernel
