"""The derived cuTile kernel addresses what the Triton kernel addresses, in every case:
a descriptor's block is the tile loaded in each case (not case 0's), an offset read from
memory indexes the dimension its stride names, and where the translator cannot prove an
access exact it refuses with the Triton construct named. No GPU: the derived kernel's text
and its Tile IR (exported by cuda-tile) are read."""
from __future__ import annotations

import re

from workbench.catalog import Case
from workbench.ir.stages import file_python_ir
from workbench.sources.triton.derive import derive
from workbench.sources.triton.targets import triton_catalog, triton_target

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
