"""Run the three notebooks top to bottom on the GPU machine, which has no Jupyter, no cargo
and no tileirdisasm: pack here what they need, run them there.

    .venv/bin/python tools/gpu_notebooks.py pack     # here: -> .gpu-notebooks/ (git-ignored)
    bash tools/gpu_run.sh notebooks                  # there (tools/gpu_run.sh unpacks it)

`pack` runs the notebooks here first, so the ports they draft and copy (under runs/) are
built; their libraries travel stripped, and are found there by the code hash of the
sources the notebooks recreate (workbench/rust/cargo.py, _prebuilt).
`run` writes each executed notebook and a summary of every cell to $OUT.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import tarfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
PACK = ROOT / ".gpu-notebooks"
CELL_TIMEOUT_S = 900
OUTPUT_CHARS = 1500         # of each cell's text output, in the summary
# the notebook stack the GPU image lacks (it has pygments, psutil, packaging, attrs...)
STACK = ["anywidget", "asttokens", "comm", "executing", "fastjsonschema", "ipykernel",
         "ipython", "ipython-pygments-lexers", "ipywidgets", "jsonschema",
         "jsonschema-specifications", "jupyter-client", "jupyter-core", "matplotlib-inline",
         "nbclient", "nbformat", "nest-asyncio2", "pexpect", "platformdirs", "prompt-toolkit",
         "psygnal", "ptyprocess", "pure-eval", "pyzmq", "referencing", "rpds-py", "stack-data",
         "tornado", "traitlets", "wcwidth"]
TOOLS = ["tileirdisasm", "cuobjdump", "nvdisasm"]    # the toolchain pack has tileiras, ptxas


def execute(path: Path, out: Path) -> list[dict]:
    """Run one notebook in a fresh kernel; the executed copy goes to `out`. Returns a
    record per code cell (its first line, seconds, status, and its text output)."""
    import nbformat
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError
    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(nb, timeout=CELL_TIMEOUT_S, kernel_name="python3",
                            resources={"metadata": {"path": str(path.parent)}})
    records, error = [], None
    with client.setup_kernel():
        for index, cell in enumerate(nb.cells):
            if cell.cell_type != "code":
                continue
            started = time.perf_counter()
            try:
                client.execute_cell(cell, index)
                status = "ok"
            except CellExecutionError as failure:
                status, error = "error", failure
            records.append({"cell": index, "first_line": cell.source.splitlines()[0],
                            "seconds": round(time.perf_counter() - started, 2),
                            "status": status, "output": _text_of(cell.outputs)[:OUTPUT_CHARS]})
            if error:
                break
    nbformat.write(nb, out)
    return records


def _text_of(outputs) -> str:
    parts = []
    for output in outputs:
        if output.get("output_type") == "stream":
            parts.append(output["text"])
        elif output.get("output_type") in ("execute_result", "display_data"):
            data = output.get("data", {})
            if "application/vnd.jupyter.widget-view+json" in data:
                parts.append("[widget " + data["application/vnd.jupyter.widget-view+json"]
                             ["model_id"][:8] + "]")
            elif "text/plain" in data:
                parts.append(data["text/plain"])
        elif output.get("output_type") == "error":
            parts.append(f"{output['ename']}: {output['evalue']}")
    return "\n".join(parts)


def cmd_run(args) -> int:
    out = Path(os.environ.get("OUT") or args.out)
    out.mkdir(parents=True, exist_ok=True)
    summary, failed = {}, False
    for path in NOTEBOOKS:
        print(f"== {path.name}", flush=True)
        records = execute(path, out / path.name)
        summary[path.name] = records
        for record in records:
            print(f"  cell {record['cell']:2} {record['status']:5} {record['seconds']:7.2f} s  "
                  f"{record['first_line'][:70]}", flush=True)
        failed |= any(r["status"] != "ok" for r in records)
    (out / "notebooks-summary.json").write_text(json.dumps(summary, indent=1))
    print("all notebooks ran top to bottom" if not failed else "a notebook FAILED")
    return 1 if failed else 0


# -- pack (here) ---------------------------------------------------------------------------

def _notebook_ports():
    """The operators of the ports the notebooks write under runs/ (a draft, a copy)."""
    from workbench.catalog import get_operator
    for port in sorted((ROOT / "runs").glob("notebook-*/*/port")):
        op = get_operator(port.parent.name)
        yield op.with_port(port)


def cmd_pack(args) -> int:
    from workbench.rust.cargo import build_folder
    from workbench.tools import run_tool
    from workbench.tools import nvidia_bin_dir
    PACK.mkdir(exist_ok=True)
    scratch = PACK / "executed-here"
    scratch.mkdir(exist_ok=True)
    for path in NOTEBOOKS:         # builds the drafted and copied ports
        records = execute(path, scratch / path.name)
        if any(r["status"] != "ok" for r in records):
            print(f"{path.name} failed here; fix that first", file=sys.stderr)
            return 1
    payload = PACK / "payload.tar.xz"
    with tarfile.open(payload, "w:xz", preset=9) as tar:
        for name in TOOLS:
            tar.add(nvidia_bin_dir() / name, arcname=f"bin/{name}")
        for op in _notebook_ports():
            folder = build_folder(op)
            for code in folder.glob("*.code"):
                stripped = PACK / code.with_suffix(".so").name
                run_tool(["strip", "-o", str(stripped), str(code.with_suffix(".so"))])
                where = f"prebuilt/{folder.relative_to(ROOT)}"
                tar.add(stripped, arcname=f"{where}/{stripped.name}")
                tar.add(code, arcname=f"{where}/{code.name}")
                stripped.unlink()
    wheels = PACK / "wheels"
    wheels.mkdir(exist_ok=True)
    for old in wheels.glob("*.whl"):
        old.unlink()
    pins = _installed_versions(STACK)
    run_tool([sys.executable, "-m", "pip", "download", "-q", "--no-deps",
                    "--only-binary=:all:", "--python-version", "3.12", "--implementation", "cp",
                    *[f"--platform={p}" for p in ("manylinux_2_28_x86_64", "manylinux_2_27_x86_64",
                                                  "manylinux_2_17_x86_64", "manylinux2014_x86_64",
                                                  "manylinux1_x86_64")],
                    "-d", str(wheels), *pins], timeout=900, name="pip download")
    size = sum(p.stat().st_size for p in PACK.rglob("*") if p.is_file()
               and scratch not in p.parents)
    print(f"packed {payload.name} and {len(pins)} wheels: {size / 2**20:.1f} MiB to carry")
    return 0


def _installed_versions(names: list[str]) -> list[str]:
    from importlib.metadata import version
    return [f"{name}=={version(name)}" for name in names]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("pack", help="here: run the notebooks, pack what the GPU machine lacks")
    run = sub.add_parser("run", help="there: run every notebook, executed copies to $OUT")
    run.add_argument("--out", default="gpu-out")
    args = parser.parse_args()
    return cmd_pack(args) if args.command == "pack" else cmd_run(args)


if __name__ == "__main__":
    sys.exit(main())
