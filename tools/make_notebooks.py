"""Write the notebooks (their cells are kept here, reviewable as code).

    .venv/bin/python tools/make_notebooks.py
"""
from pathlib import Path

import nbformat as nbf

HERE = Path(__file__).resolve().parent.parent / "notebooks"
KERNELSPEC = {"name": "python3", "display_name": "Python 3", "language": "python"}


def notebook(cells):
    nb = nbf.v4.new_notebook()
    nb.metadata["kernelspec"] = KERNELSPEC
    nb.metadata["language_info"] = {"name": "python"}
    nb.cells = [nbf.v4.new_markdown_cell(src) if kind == "md" else nbf.v4.new_code_cell(src)
                for kind, src in cells]
    for index, cell in enumerate(nb.cells):
        cell.id = f"cell-{index:02}"          # stable ids: a regenerated notebook diffs cleanly
    return nb


SETUP = ("code", """import os, sys
from pathlib import Path
ROOT = next(p for p in (Path.cwd(), *Path.cwd().parents) if (p / "kernels_src").is_dir())
os.chdir(ROOT)                      # paths in the catalog and in Tile IR locations are repo-relative
%load_ext workbench""")

PORT_SOFTMAX = [
    ("md", """# Porting one of TileGym's kernels from cuTile Python to cuTile Rust, stage by stage

Both front ends lower to CUDA Tile IR, so a faithful port emits the *same* Tile IR as its
reference kernel. The reference here is one of TileGym's own: `_softmax_kernel_tma` of
`tilegym.ops.cutile.softmax`, read from the installed package. This notebook walks it
through every stage: the launch rule that says how TileGym's launcher runs it, its Tile IR,
the analysis and the offline drafter, the hand-written port, its build and Tile IR, the
structural diff, what the diff costs in machine code, and (on a GPU) the checks and a
three-sided timing: the Rust port, TileGym's kernel and PyTorch.

The project's own six operators (`softmax`, `rms_norm`, ...) stay in the catalog as
teaching examples; `workbench ops` says where each operator comes from."""),
    SETUP,
    ("md", "## 1. The catalog: where the operators come from"),
    ("code", """from workbench.catalog import all_families
for family in all_families().values():
    print(f"{family.name:24} {family.source:34} " + ", ".join(op.name.rpartition('.')[2] for op in family.entries))"""),
    ("md", """## 2. The reference kernel, and how TileGym's launcher runs it

Its launcher computes `TILE_SIZE = next_power_of_2(n_cols)` and a persistent grid of
`min(NUM_SM * occupancy, rows)` blocks; its autotuner tries occupancy 2, 4, 6 and 8. The
launch rule (`kernels_src/tilegym/softmax/launch.py`) writes that down for every case."""),
    ("code", """from workbench.catalog import get_operator
op = get_operator("tilegym.softmax.tma")
source = op.kernel_file.read_text().splitlines()
start = next(i for i, line in enumerate(source) if "def _softmax_kernel_tma" in line)
print("\\n".join(source[start - 2:start + 32]))
for case in op.cases:
    print(case.label(), "grid", case.grid, "hints", case.hints)"""),
    ("md", """## 3. Its Tile IR, with no GPU

`export_kernel` compiles the case's specialization, with the launcher's hints, to bytecode.
`tileirdisasm -g` prints it, and the text is parsed into a model and normalized."""),
    ("code", """from workbench.ir.stages import operator_python_ir
from workbench.ir.printer import print_module
python_ir = operator_python_ir(op, 1)
print(python_ir.symbol)
print(print_module(python_ir.module("normalized")))"""),
    ("md", """## 4. Analysis and the offline drafter

The drafter writes a port where its rules cover the kernel. This kernel's persistent loop
(`ct.num_blocks`, `range(start, stop, step)`) is not covered yet, so it says what stops it,
line by line, and the port is written by hand (its provenance in `workbench ops`)."""),
    ("code", """from workbench.port.pipeline import run_pipeline
run = run_pipeline("tilegym.softmax.tma", drafter="rules",
                   out=ROOT / "runs" / "notebook-draft" / "softmax_tma" / "port")
print(run.summary())"""),
    ("md", """## 5. The hand-written port: build (lazy), its Tile IR, and the diff

`kernels_src/tilegym/softmax/tma/port/src/kernel.rs` is the same tile program: the same
persistent loop, one `(1, TILE_SIZE)` tile per row through a -inf padded view, approximate
exp and division, the kernel's occupancy hint. The C ABI (`src/lib.rs`) checks what the
kernel assumes, and takes the grid and hints of the launch rule."""),
    ("code", """print(op.port_folder.joinpath("src", "kernel.rs").read_text())"""),
    ("code", """from workbench.session import PortSession
session = PortSession("tilegym.softmax.tma", case=1)
print(session.rebuild().summary())
view = session.diff()
print(view.report.to_text())"""),
    ("md", """## 6. What the remaining differences cost in machine code

Both sides are compiled here to sm_90 SASS with the pinned `tileiras` (no GPU needed)."""),
    ("code", """sass = session.sass()
for label, left, right in sass["rows"]:
    print(f"{label:>18}: {left:<60} | {right}")"""),
    ("md", """## 7. On the GPU: correctness, and three sides timed

The check compares both the port and TileGym's kernel with a float64 reference. The bench
times the Rust port, TileGym's kernel (with its autotuner's fastest candidate, which then
runs every side) and `torch.softmax`, as CUPTI device time. Without a GPU both say
`skipped`."""),
    ("code", """from workbench.check.family_report import (bench_families, check_family,
                                           format_family_bench, format_family_check)
print(format_family_check("tilegym.softmax.tma", check_family("tilegym.softmax", entries=["tma"])))
report = bench_families(["tilegym.softmax"])
print(format_family_bench(report) if report["status"] != "skipped" else f"skipped: {report['reason']}")"""),
    ("md", """## 8. The three panes

Python kernel | Rust port (editable: Ctrl-S saves, keeps the old file in `port/.history/`,
rebuilds and re-diffs) | the structural Tile IR diff. Hover a line to see its links."""),
    ("code", """%port tilegym.softmax.tma"""),
]

JIT_VS_AOT = [
    ("md", """# JIT vs AOT: what cuTile Python specializes on at call time

cuTile Python compiles a kernel when it is called, for what it sees: dtypes, ranks, the
base address's alignment, which sizes and strides divide by 16, which strides are 1, and
the values of `ct.Constant` parameters. A Rust port is compiled ahead of time, so each of
those has to be declared. Here the same kernel is "called" with several arguments."""),
    SETUP,
    ("code", """print(Path("tests/fixtures/branchy.py").read_text())"""),
    ("code", """from workbench.argspec import parse_arg
from workbench.sources.kernel import load_kernel
from workbench.specialize import explore, format_exploration
kernel = load_kernel("tests/fixtures/branchy.py", "branchy")
calls = ["f32[4096] f32[4096] i32", "f32[8192] f32[8192] i32", "f32[4100] f32[4100] i32",
         "f32[4096]:offset=1 f32[4096] i32", "f16[4096] f16[4096] i32"]
results = explore(kernel, [[parse_arg(a) for a in c.split()] for c in calls], {"FLAG": 1}, calls)
print(format_exploration(kernel, results))"""),
    ("md", "## What one alignment guarantee changes in the program"),
    ("code", """from workbench.diff import diff_modules
from workbench.ir.stages import python_ir
aligned = python_ir(kernel, [parse_arg(a) for a in calls[0].split()], {"FLAG": 1}).module("normalized")
shifted = python_ir(kernel, [parse_arg(a) for a in calls[3].split()], {"FLAG": 1}).module("normalized")
print(diff_modules(aligned, shifted, "aligned", "offset by 1").to_text())"""),
    ("md", "## ...and what it buys in machine code (sm_90 SASS, compiled here)"),
    ("code", """from workbench.ir.export import export_bytecode
from workbench.sass.stages import sass_of
vec_add = load_kernel("tests/fixtures/vec_add.py", "vec_add")
for call in ["f32[100000] f32[100000] f32[100000]", "f32[100000]:offset=1 f32[100000] f32[100000]",
             "f16[4099] f16[4099] f16[4099]"]:
    summary = sass_of(export_bytecode(vec_add, [parse_arg(a) for a in call.split()], {"TILE": 1024})[0]).summary
    print(f"{call:48} loads {summary.global_loads}  stores {summary.global_stores}")"""),
    ("md", """## A constant-dependent branch disappears

`FLAG` is a `ct.Constant`: each value compiles its own program without the `if`. A Rust
port needs one entry per value (or a const generic)."""),
    ("code", """for flag in (0, 1):
    text = python_ir(kernel, [parse_arg(a) for a in calls[0].split()], {"FLAG": flag}).text
    print(f"FLAG={flag}: exp in the program: {' exp ' in text}")"""),
    ("md", "## On a GPU: the prediction against what the JIT really compiled"),
    ("code", """from workbench.check.runner import has_cuda_driver
if not has_cuda_driver():
    print("skipped: no CUDA device (tools/gpu_session.py specialize checks this on a GPU)")
else:
    import torch, cuda.tile as ct
    from cuda.tile.compilation import CallingConvention, KernelSignature
    x = torch.randn(4096, device="cuda"); y = torch.randn(4096, device="cuda")
    official = KernelSignature.from_kernel_args(kernel.kernel, [x, y, 1, 1], CallingConvention.cutile_python_v1())
    print(official.symbol == results[0].symbol, official.symbol)"""),
]

DEBUG = [
    ("md", """# Debugging a failed conversion

A port that builds, looks right, and is wrong: the fixture `kernels_src/fixtures/mistranslated`
is a patch to softmax's port that loads rows with `x.partition(..)`, which pads with **zero**,
where the Python kernel pads with **-inf**. We work on a copy (softmax with the patch applied,
under `runs/`), so nothing in the repository changes."""),
    SETUP,
    ("code", """from workbench.fixtures import materialise
from workbench.session import PortSession
work = materialise("mistranslated", ROOT / "runs" / "notebook-debug" / "softmax") / "port"
session = PortSession("softmax", case=0, port=work)
print(session.rebuild().summary())"""),
    ("md", "## The diff finds it before anything runs"),
    ("code", """view = session.diff()
print(view.report.to_text())
critical = [f for f in view.findings if f["category"] == "critical"]
assert view.verdict == "FAIL" and any(f["kind"] == "padding_value" for f in critical)"""),
    ("md", """The check agrees: case 0's rows are 1000 wide in a 1024-wide tile, so 24 padded zeros
join every row's sum. It runs on a GPU where there is one; without one, both sides' Tile IR
run on the CPU through the workbench's interpreter, and the report says which ran."""),
    ("code", """from workbench.check.report import format_check
before = session.check()
print(format_check("softmax, mistranslated port", before))
assert before.status == "fail" and not before.results[0]["sides"]["rust"]["ok"]"""),
    ("code", """from workbench.ui.widget import PortWidget
widget = PortWidget(session)
widget"""),
    ("md", """## Fix it in the Rust pane

In the widget: replace the `x.partition(..)` line with a `-inf`-padded view and press
Ctrl-S. The cell below does exactly what the Save button does."""),
    ("code", """fixed = session.rust_source().replace(
    "x.partition(const_shape![1, TILE_COLS])",
    "unsafe { make_partition_view(x, const_shape![1, TILE_COLS], padding::NegInf, dim_map::Identity, x.token()) }")
print(widget.save(fixed))
print("verdict:", widget.verdict)
assert widget.verdict in ("PASS", "PASS_WITH_NOTES")"""),
    ("code", """after = session.check()
print(format_check("softmax, fixed port", after))
assert after.status == "ok" and all(r["sides"]["rust"]["ok"] for r in after.results)"""),
    ("md", "The previous version is kept:"),
    ("code", """sorted(p.name for p in (work / ".history").iterdir())"""),
]

PORT_TRITON = [
    ("md", """# Porting a Triton kernel: TileGym's RMSNorm

The original is a `@triton.jit` kernel, `tilegym.ops.triton.rms_norm:_rms_norm_kernel`, read
from the installed package without importing torch. The workbench translates it into a
**derived** cuTile Python kernel (a reference it wrote, not the original), drafts the Rust port
from that, diffs the port's Tile IR against the derived kernel (and against TileGym's own cuTile
RMSNorm), and on a GPU checks the port against the Triton kernel itself."""),
    SETUP,
    ("md", "## 1. The Triton kernel and its case (kernels_src/triton/catalog.toml)"),
    ("code", """from workbench.translate.targets import triton_catalog
target = triton_catalog()["triton_rms_norm"]
source = target.source()
print(target.label, "line", source.line)
print("runtime:", [p.name for p in source.runtime_params])
print("constexpr:", [p.name for p in source.constexpr_params])
print("case 0:", [str(a) for a in target.cases[0].args], target.cases[0].consts)"""),
    ("md", "## 2. Translation: pointer-and-mask code onto tiles"),
    ("code", """from pathlib import Path
from workbench.port.triton_stages import translate_target
work = Path("runs/notebooks/04/port")
derived, op, ttir, why = translate_target(target, work)
print(derived.text)
for note in derived.notes:
    print("note:", note)
assert derived.ok and "ct.load(X, index=(row, j_tile)" in derived.text"""),
    ("md", """`X += row * stride` and `X + cols` became one 2-D tile index `(row, j_tile)`: the row
stride is X's own stride, so `stride` is no longer a parameter. The masks `cols < N` are X's
bounds (N equals X.shape[1] in every case), which cuTile's tile accesses already respect."""),
    ("md", "## 3. The Triton kernel's TTIR (compiled here, no GPU): shown, not diffed"),
    ("code", """from workbench.translate.ttir import NO_VERDICT
print(NO_VERDICT)
print((ttir or why)[:1500])"""),
    ("md", "## 4. Tile IR of the derived kernel (what the port is diffed against)"),
    ("code", """from workbench.ir.stages import operator_python_ir
ir = operator_python_ir(op, 0)
for line in ir.text.splitlines()[:25]:
    print(line)"""),
    ("md", """## 5. The drafting pipeline

`workbench port triton_rms_norm` runs translate, then the usual stages on the derived kernel.
Where the drafter cannot yet write a construct the run stops and names it (file:line). The
workbench's own `triton_vec_add` goes all the way: draft, build, IR diff, GPU check."""),
    ("code", """from workbench.port.pipeline import run_pipeline
rms = run_pipeline(target.operator(Path("runs/notebooks/04/rms/port")))
print(rms.summary())"""),
    ("code", """vec = run_pipeline(triton_catalog()["triton_vec_add"].operator(Path("runs/notebooks/04/vec/port")))
print(vec.summary())
assert vec.verdict in ("PASS", "PASS_WITH_NOTES")"""),
    ("md", "## 6. On the GPU: the port against the Triton kernel (skipped without one)"),
    ("code", """from workbench.check.triton_side import check_triton_port
vec_target = triton_catalog()["triton_vec_add"]
vec_op = translate_target(vec_target, Path("runs/notebooks/04/vec/port"))[1]
response = check_triton_port(vec_target, vec_op)
print(response.status, response.reason)
for r in response.results:
    print(r["label"], {s: (v.get("ok"), v.get("rel_error")) for s, v in r["sides"].items()})"""),
    ("md", """## 7. Without a GPU: the port against Triton's own interpreter

The IR diff compares the port with the derived kernel, and both come from one translation: it
cannot see a wrong translation. So a Triton port is PASS only once it ran against the Triton
kernel itself. With no GPU, Triton's interpreter (`TRITON_INTERPRET=1`) runs the Triton kernel
on NumPy, and the Tile IR interpreter runs the derived kernel and the port on the same inputs
and grid; the pipeline's check stage did this above. A case too large for the CPU is skipped
with the reason."""),
    ("code", """from workbench.check.report import format_check
from workbench.check.triton_cpu import check_translation_on_cpu
on_cpu = check_translation_on_cpu(vec_target, vec_op)
print(format_check("triton_vec_add", on_cpu))
assert on_cpu.status == "ok", on_cpu.reason"""),
]

OWN_KERNEL = [
    ("md", """# Your own kernel, end to end

The kernel and the host function are yours: here `examples/own_kernel/my_norm.py`, an RMS
norm in cuTile Python and the `rms_norm(x, weight)` a model calls. Nothing in it knows about
the workbench. Run the host function once under `workbench.record()` and every launch it
makes is captured: the kernel, its grid, each argument's dtype, shape and strides, and the
constants. With no GPU the host code runs on CPU tensors and the launches are captured, not
run. The record then stands in for `--arg` typing and for a hand-written reference: the
port is drafted from it, diffed, and (on a GPU) checked and timed against your own kernel."""),
    SETUP,
    ("md", "## 1. The kernel and its host function, imported as your code would"),
    ("code", """sys.path.insert(0, str(ROOT / "examples" / "own_kernel"))
import my_norm
print((ROOT / "examples" / "own_kernel" / "my_norm.py").read_text().split("if __name__")[0])"""),
    ("md", "## 2. Record one call (two shapes: the JIT compiles a kernel for each)"),
    ("code", """import torch
import workbench
with workbench.record("runs/records/notebook05.json") as rec:
    my_norm.rms_norm(torch.randn(512, 1000, dtype=torch.float16), torch.randn(1000, dtype=torch.float16))
    my_norm.rms_norm(torch.randn(64, 4096), torch.randn(4096))
print(rec.summary())
assert len(rec.launches) == 2 and rec.launches[0].grid == (512, 1, 1)"""),
    ("md", """The same from a cell of host code: `%%record` runs the cell and binds `_record`. On the
command line: `workbench record SCRIPT.py ARGS --out REC.json` runs a script as `python` would."""),
    ("code", """%%record --out runs/records/notebook05-cell.json
y = my_norm.rms_norm(torch.randn(8, 300), torch.randn(300))"""),
    ("md", "## 3. Port from the record: no argument typed by hand"),
    ("code", """from pathlib import Path
from workbench.port.recorded import record_operator, specializations
from workbench.port.pipeline import run_pipeline
op = record_operator(rec.path, out="runs/notebooks/05/port")
for row in specializations(op):
    print(f"{row['label']}  -> case {row['case']}")
result = run_pipeline(op)
print(result.summary())
assert result.verdict in ("PASS", "PASS_WITH_NOTES")"""),
    ("md", "## 4. The Tile IR diff of one case"),
    ("code", """from workbench.ownership.pairs import operator_diff
print(operator_diff(op, 1).to_text())"""),
    ("md", """## 5. On a GPU: the port against your own kernel (skipped without one)

Each recorded launch is made again with inputs generated from the record (a seed per
launch; integer inputs in their recorded range), outputs poisoned with NaN, and run by your
kernel and by the port; every array is compared. No reference needs writing."""),
    ("code", """from workbench.check.report import bench_operators, check_operator, format_bench, format_check
response = check_operator(op)
print(format_check(op.summary, response))
assert response.status in ("ok", "skipped")
report = bench_operators([op])
print(format_bench(report) if report["status"] == "ok" else f"bench skipped: {report['reason']}")"""),
]

if __name__ == "__main__":
    HERE.mkdir(exist_ok=True)
    for name, cells in [("01_port_softmax.ipynb", PORT_SOFTMAX), ("02_jit_vs_aot.ipynb", JIT_VS_AOT),
                        ("03_debug_failed_conversion.ipynb", DEBUG),
                        ("04_port_triton_kernel.ipynb", PORT_TRITON),
                        ("05_port_your_own_kernel.ipynb", OWN_KERNEL)]:
        nbf.write(notebook(cells), HERE / name)
        print("wrote", HERE / name)
