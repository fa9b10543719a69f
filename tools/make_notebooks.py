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
    ("md", """# Porting softmax from cuTile Python to cuTile Rust, stage by stage

Both front ends lower to CUDA Tile IR, so a faithful port emits the *same* Tile IR as its
reference kernel. This notebook walks one operator through every stage the workbench has:
the reference, its Tile IR, the analysis, the draft, the build, the Rust side's Tile IR,
the structural diff, what it costs in machine code, and (on a GPU) the checks."""),
    SETUP,
    ("md", "## 1. The reference kernel and its cases"),
    ("code", """from workbench.catalog import get_operator
op = get_operator("softmax")
print(op.kernel_file.read_text())
for case in op.cases:
    print(case.label())"""),
    ("md", """## 2. Its Tile IR, with no GPU

`export_kernel` compiles the case's specialization to bytecode and `tileirdisasm -g` prints
it; the text is parsed into a model and normalized (names, dead constants, assume chains,
operand order of commutative ops...)."""),
    ("code", """from workbench.ir.stages import operator_python_ir
from workbench.ir.printer import print_module
python_ir = operator_python_ir(op, 0)
print(python_ir.symbol)
print(print_module(python_ir.module("normalized")))"""),
    ("md", "## 3. Analysis: what the port has to declare"),
    ("code", """from workbench.port.analyze import analyze
spec = analyze(op.kernel_file.read_text(), str(op.kernel_file), op.kernel_name, list(op.cases))
spec.to_json()["params"]"""),
    ("md", """## 4. Draft the port (offline rule-based drafter) into a scratch folder

The bundled port in `kernels_src/softmax/port` is left alone; the draft goes to `runs/`."""),
    ("code", """from workbench.port.pipeline import run_pipeline
run = run_pipeline("softmax", drafter="rules", out=ROOT / "runs" / "notebook-draft" / "softmax" / "port")
print(run.summary())
print((run.port / "src" / "kernel.rs").read_text())"""),
    ("md", "## 5. The bundled port: build (lazy), its Tile IR, and the diff"),
    ("code", """from workbench.session import PortSession
session = PortSession("softmax", case=0)
print(session.rebuild().summary())
view = session.diff()
print(view.report.to_text())"""),
    ("md", """## 6. What the remaining differences cost in machine code

Both sides compiled to sm_90 SASS here, with the pinned `tileiras` (no GPU needed)."""),
    ("code", """sass = session.sass()
for label, left, right in sass["rows"]:
    print(f"{label:>18}: {left:<60} | {right}")"""),
    ("md", "## 7. On the GPU: correctness against the float64 PyTorch reference"),
    ("code", """from workbench.check.report import format_check
print(format_check("softmax", session.check()))   # says `skipped: no CUDA device` without one"""),
    ("md", """## 8. On the GPU: how fast, against the Python kernel

Parity is the Python kernel's time over the port's (kernel time from CUPTI), per case."""),
    ("code", """from workbench.check.report import format_bench
report = session.bench()
print(format_bench(report) if report["status"] != "skipped" else f"skipped: {report['reason']}")"""),
    ("md", """## 9. The three panes

Python kernel | Rust port (editable: Ctrl-S saves, keeps the old file in `port/.history/`,
rebuilds and re-diffs) | the structural Tile IR diff. Hover a line to see its links."""),
    ("code", """%port softmax"""),
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

A port that builds, looks right, and is wrong: `kernels_src/fixtures/mistranslated/
softmax_kernel.rs` loads rows with `x.partition(..)`, which pads with **zero**, where the
Python kernel pads with **-inf**. We work on a copy, so nothing in the repository changes."""),
    SETUP,
    ("code", """import shutil
from workbench.session import PortSession
work = ROOT / "runs" / "notebook-debug" / "softmax" / "port"
if work.exists():
    shutil.rmtree(work)
shutil.copytree(ROOT / "kernels_src" / "softmax" / "port", work, ignore=shutil.ignore_patterns(".history"))
from workbench.rust.cargo import standalone_manifest
(work / "Cargo.toml").write_text(standalone_manifest((work / "Cargo.toml").read_text(), work))
shutil.copy(ROOT / "kernels_src" / "Cargo.lock", work / "Cargo.lock")
shutil.copy(ROOT / "kernels_src" / "fixtures" / "mistranslated" / "softmax_kernel.rs", work / "src" / "kernel.rs")
session = PortSession("softmax", case=0, port=work)
print(session.rebuild().summary())"""),
    ("md", "## The diff finds it before anything runs"),
    ("code", """view = session.diff()
print(view.report.to_text())
critical = [f for f in view.findings if f["category"] == "critical"]
assert view.verdict == "FAIL" and any(f["kind"] == "padding_value" for f in critical)"""),
    ("md", """On a GPU the check agrees: case 0's rows are 1000 wide in a 1024-wide tile, so 24 padded
zeros join every row's sum. (Without a GPU the cell says it is skipped; the diff above
needed none.)"""),
    ("code", """from workbench.check.report import format_check
before = session.check()
print(format_check("softmax, mistranslated port", before))
assert before.status == "skipped" or not all(r["sides"]["rust"]["ok"] for r in before.results)"""),
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
assert after.status == "skipped" or all(r["sides"]["rust"]["ok"] for r in after.results)"""),
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
    ("code", """from workbench.sources.triton.targets import triton_catalog
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
    ("code", """from workbench.sources.triton.ttir import NO_VERDICT
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
]

if __name__ == "__main__":
    HERE.mkdir(exist_ok=True)
    for name, cells in [("01_port_softmax.ipynb", PORT_SOFTMAX), ("02_jit_vs_aot.ipynb", JIT_VS_AOT),
                        ("03_debug_failed_conversion.ipynb", DEBUG),
                        ("04_port_triton_kernel.ipynb", PORT_TRITON)]:
        nbf.write(notebook(cells), HERE / name)
        print("wrote", HERE / name)
