"""Triton ports on the GPU, in one call (tools/gpu_run.sh triton). For every entry of
kernels_src/triton/catalog.toml: translate here, then check the derived cuTile kernel and,
where a Rust port was built, the Rust port against the Triton kernel itself (correctness on
the same inputs) and time all three (CUPTI; parity = Triton time / port time).

    .venv/bin/python tools/gpu_triton.py pack     # here: draft + build the ports, strip the
                                                  # libraries into .triton-gpu/ (git-ignored)
    python3 tools/gpu_triton.py run               # there: table on stdout, triton.json in $OUT

TRITON_TARGETS=FILE.json picks Triton kernels of files instead of the catalog, both here and
there: a list of {"target": "FILE.py:KERNEL", "args": [..], "consts": [..], "grid": "X,Y"};
TRITON_MODES=check leaves the timings out.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACK = ROOT / ".triton-gpu"
sys.path.insert(0, str(ROOT))


def targets() -> dict:
    """The catalog's Triton targets, or those TRITON_TARGETS lists."""
    from workbench.argspec import parse_grid
    from workbench.translate.targets import triton_catalog, triton_target
    listed = os.environ.get("TRITON_TARGETS")
    if not listed:
        return triton_catalog()
    out = {}
    for entry in json.loads(Path(listed).read_text()):
        target = triton_target(entry["target"], entry["args"], entry.get("consts", []),
                               parse_grid(entry.get("grid")))
        out[entry["target"].rsplit("/", 1)[-1].replace(".py:", ".")] = target
    return out


def pack() -> None:
    from workbench.port.pipeline import run_pipeline
    PACK.mkdir(exist_ok=True)
    manifest = {}
    for name, target in targets().items():
        port = PACK / "ports" / name / "port"
        result = run_pipeline(target.operator(port))
        built = next((a for a in result.artifacts if a.stage == "build"
                      and a.verdict == "BUILT"), None)
        translated = next((a for a in result.artifacts if a.stage == "translate"), None)
        hint = [n["message"] for n in (translated.data.get("notes") or [])
                if "occupancy" in n["message"]] if translated else []
        match = re.search(r"occupancy=(\d+)", hint[0]) if hint else None
        entry = {"verdict": result.verdict, "library": None,
                 "occupancy": [int(match[1]) if match else None, hint[0] if hint else ""],
                 "stages": [f"{a.stage}:{a.verdict}" for a in result.artifacts]}
        if built:
            lib = PACK / f"lib{name}.so"
            subprocess.run(["strip", "-o", str(lib), built.data["library"]], check=True)
            entry["library"] = lib.name
        for junk in ("target", ".history"):
            shutil.rmtree(port / junk, ignore_errors=True)
        manifest[name] = entry
        print(f"{name:32} {result.verdict:16} {entry['library'] or '-'}", flush=True)
    (PACK / "manifest.json").write_text(json.dumps(manifest, indent=1))


def run() -> None:
    from workbench.check.runner import parse_worker_output
    from workbench.check.triton_side import request, run_request
    from workbench.port.triton_stages import translate_target
    out = Path(os.environ.get("OUT", "gpu-out"))
    out.mkdir(parents=True, exist_ok=True)
    manifest = json.loads((PACK / "manifest.json").read_text())
    report = {}
    for name, target in targets().items():
        port = PACK / "ports" / name / "port"
        # the pack's occupancy hint, so that the derived kernel is the one the port followed
        derived, op, _, _ = translate_target(target, port, occupancy=tuple(
            (manifest.get(name) or {}).get("occupancy") or ()) or None)
        row = {"pack": manifest.get(name), "translated": derived.ok,
               "diagnostics": derived.translation.diagnostics}
        if derived.ok:
            lib = (manifest.get(name) or {}).get("library")
            library = str(PACK / lib) if lib else None
            for mode in os.environ.get("TRITON_MODES", "check,bench").split(","):
                response = run_request(request(target, op, library, mode), parse_worker_output)
                row[mode] = response.to_json()
        report[name] = row
        print_row(name, row)
    (out / "triton.json").write_text(json.dumps(report, indent=1, default=str))


def print_row(name: str, row: dict) -> None:
    if not row["translated"]:
        first = row["diagnostics"][0]
        print(f"{name:30} refused: line {first['line']}: {first['construct']}", flush=True)
        return
    check, bench = row.get("check", {}), row.get("bench", {})
    if check.get("status") not in ("ok", "fail"):
        print(f"{name:30} check {check.get('status')}: {check.get('reason', '')[:200]}")
        return
    for c, b in zip(check.get("results", []), bench.get("results", []) or [{}] * 99):
        cells = []
        for side in ("derived", "rust"):
            s, t = c["sides"].get(side), (b.get("sides") or {}).get(side, {})
            if s is None:
                continue
            err = s.get("rel_error")
            cells.append(f"{side} {'ok' if s.get('ok') else 'FAIL'}"
                         + (f" err {err:.1e}" if err is not None else f" [{s.get('reason','')[:80]}]")
                         + (f" parity {t['parity']:.2f}" if t.get("parity") else ""))
        tri = (b.get("sides") or {}).get("triton", {}).get("cupti_us")
        print(f"{name:30} {c['label'][:40]:40} triton {tri or 0:8.1f} us | " + " | ".join(cells),
              flush=True)


if __name__ == "__main__":
    {"pack": pack, "run": run}[sys.argv[1]]()
