"""Recorded targets on the GPU, in one call (tools/gpu_run.sh record): every kernel of the
given records, ported here, checked and timed there against the user's own kernel on the
recorded launches (workbench/check/recorded.py), and the host scripts recorded again there
with their launches running (the recorder's GPU path; CuPy host code too).

    .venv/bin/python tools/gpu_record.py pack REC.json [...] [--script S.py] [--check-script S.py]
        here: port every recorded kernel, and put the records, the kernels' source files,
        the ports and their stripped, xz'd libraries into .gpu-record/ (git-ignored); a
        script is recorded again there (--check-script: and its kernels checked with the
        ports packed for the same kernels)
    python3 tools/gpu_record.py run
        there: a table on stdout, record.json in $OUT
    python3 tools/gpu_record.py table OUT/record.json
        here: that run as a markdown table (bench/record.md)
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACK = ROOT / ".gpu-record"
sys.path.insert(0, str(ROOT))


def pack(records: list[str], scripts: list[str], check_scripts: list[str]) -> None:
    from workbench.port.pipeline import run_pipeline
    from workbench.port.recorded import record_operator
    from workbench.sources.record import Record
    shutil.rmtree(PACK, ignore_errors=True)
    (PACK / "src").mkdir(parents=True)
    entries = []
    for rec_path in records:
        record = Record.load(rec_path)
        sources = _copy_sources(record, rec_path)
        for launches in record.kernels().values():
            op = record_operator(record, launches[0].index)
            result = run_pipeline(op)
            built = next((a for a in result.artifacts if a.stage == "build"
                          and a.verdict in ("BUILT", "UP_TO_DATE")), None)
            name = f"{Path(rec_path).stem}.{op.name}.{launches[0].index}"
            entry = {"name": name, "record": Path(rec_path).name, "kernel": op.name,
                     "verdict": result.verdict, "record_ref": op.record, "library": None}
            if built:
                port = PACK / "ports" / name
                shutil.copytree(op.port_folder, port / "port",
                                ignore=shutil.ignore_patterns("target", ".history"))
                lib = PACK / f"lib{name}.so"
                subprocess.run(["strip", "-o", str(lib), built.data["library"]], check=True,
                               timeout=120)
                subprocess.run(["xz", "-9", "-f", str(lib)], check=True, timeout=600)
                entry["library"] = lib.name + ".xz"
            entries.append(entry)
            print(f"{name:48} {result.verdict:16} {entry['library'] or '-'}", flush=True)
        relative = record.to_json()
        for launch in relative["launches"]:
            launch["kernel"]["file"] = sources[launch["kernel"]["file"]]
        (PACK / Path(rec_path).name).write_text(json.dumps(relative, indent=1))
        data = Path(rec_path).with_name(f"{Path(rec_path).stem}.data")
        if data.is_dir():                      # the values the record kept
            shutil.copytree(data, PACK / data.name)
    for script in scripts + check_scripts:
        shutil.copy(script, PACK / "src" / Path(script).name)
    names = lambda paths: [Path(p).name for p in paths]  # noqa: E731
    (PACK / "manifest.json").write_text(json.dumps(
        {"entries": entries, "scripts": names(scripts), "check_scripts": names(check_scripts)},
        indent=1))


def _copy_sources(record, rec_path: str) -> dict[str, str]:
    """Each kernel's source file into .gpu-record/src/; its new, relative name."""
    out = {}
    for launch in record.launches:
        source = Path(launch.kernel.file)
        if str(source) not in out:
            target = PACK / "src" / source.name
            shutil.copy(source, target)
            out[str(source)] = f"src/{source.name}"
    return out


def run() -> None:
    from workbench.check.runner import run_worker
    out = Path(os.environ.get("OUT", "gpu-out"))
    out.mkdir(parents=True, exist_ok=True)
    manifest = json.loads((PACK / "manifest.json").read_text())
    work = Path(tempfile.mkdtemp(prefix="gpu-record-"))
    records = {}
    report = {"entries": [], "recorded_here": []}
    for entry in manifest["entries"]:
        if not entry["library"]:
            report["entries"].append({**entry, "check": None, "bench": None})
            continue
        rec = records.setdefault(entry["record"], _absolute_record(entry["record"], work))
        library = PACK / entry["library"].removesuffix(".xz")
        if not library.exists():
            subprocess.run(["xz", "-dkf", str(PACK / entry["library"])], check=True)
        request = {"record": {**entry["record_ref"], "path": str(rec)},
                   "port": str(PACK / "ports" / entry["name"] / "port"),
                   "folder": str(work / entry["name"]), "rust_library": str(library),
                   "seed": 0, "sides": ["python", "rust"], "cases": [], "op": entry["kernel"]}
        check = run_worker({**request, "mode": "check"})
        bench = run_worker({**request, "mode": "bench"})
        row = {**entry, "check": check.to_json(), "bench": bench.to_json()}
        report["entries"].append(row)
        _print_entry(row)
    for script in manifest.get("scripts", []) + manifest.get("check_scripts", []):
        rec = _record_here(PACK / "src" / script, work, out)
        checks = _check_recorded_here(rec, manifest, work) \
            if script in manifest.get("check_scripts", []) else []
        report["recorded_here"].append({"script": script, "record": rec.to_json(),
                                        "checks": checks})
    (out / "record.json").write_text(json.dumps(report, indent=1, default=str))


def _absolute_record(name: str, work: Path) -> Path:
    data = json.loads((PACK / name).read_text())
    for launch in data["launches"]:
        launch["kernel"]["file"] = str((PACK / launch["kernel"]["file"]).resolve())
        if launch.get("data"):
            launch["data"] = str((PACK / launch["data"]).resolve())
    path = work / name
    path.write_text(json.dumps(data))
    return path


def _print_entry(row: dict) -> None:
    print(f"== {row['name']} (drafted: {row['verdict']})", flush=True)
    bench = {r["launch"]: r for r in row["bench"].get("results", [])}
    for result in row["check"].get("results", []):
        rust = result["sides"].get("rust", {})
        timed = bench.get(result["launch"], {}).get("sides", {})
        py, rs = (timed.get(s, {}).get("cupti_us") for s in ("python", "rust"))
        parity = f"{py / rs:.3f}" if py and rs else "-"
        print(f"  {result['label'][:90]:90} rust {'ok' if rust.get('ok') else 'FAIL'} "
              f"err {rust.get('rel_error')} {rust.get('reason', '')[:80]} | py {py} us "
              f"rs {rs} us parity {parity}", flush=True)
    if row["check"].get("status") not in ("ok",):
        print(f"  check: {row['check'].get('status')}: {row['check'].get('reason')}")


def _record_here(script: Path, work: Path, out: Path):
    """The script recorded on this GPU, its launches running (the recorder's GPU path), with
    their values kept (what the kernels wrote: the expected result); the record and its
    values are copied to $OUT/recorded_here/, so that the CPU check can use them too."""
    from workbench.sources.recorder import record_script
    rec = record_script(script, [], out=work / f"{script.stem}.gpu.json", keep_data=True)
    print(f"== recorded on the GPU: {script.name}\n{rec.summary()}", flush=True)
    kept = out / "recorded_here"
    kept.mkdir(parents=True, exist_ok=True)
    shutil.copy(rec.path, kept / rec.path.name)
    data = rec.path.with_name(f"{rec.path.stem}.data")
    if data.is_dir():
        shutil.copytree(data, kept / data.name, dirs_exist_ok=True)
    return rec


def _check_recorded_here(rec, manifest: dict, work: Path) -> list[dict]:
    """Each kernel of a record made on this GPU, checked with the port packed for the same
    kernel (same name and closed-over values) from a record made elsewhere."""
    from workbench.check.runner import run_worker
    out = []
    for launches in rec.kernels().values():
        kernel = launches[0].kernel
        entry = next((e for e in manifest["entries"] if e["library"] and e["kernel"] ==
                      kernel.name and _closure(e) == kernel.closure), None)
        if entry is None:
            continue
        request = {"record": {"path": str(rec.path), "launches": [ln.index for ln in launches]},
                   "port": str(PACK / "ports" / entry["name"] / "port"),
                   "folder": str(work / f"here-{entry['name']}"), "mode": "check", "seed": 0,
                   "rust_library": str(PACK / entry["library"].removesuffix(".xz")),
                   "sides": ["python", "rust"], "cases": [], "op": kernel.name}
        check = run_worker(request).to_json()
        print(f"  {kernel.name} (recorded here) against {entry['name']}'s port: "
              f"{check['status']} {check['reason']}", flush=True)
        for result in check.get("results", []):
            print(f"    {result['label'][:90]} {result['sides'].get('rust')}", flush=True)
        out.append({"entry": entry["name"], "check": check})
    return out


def _closure(entry: dict) -> dict:
    data = json.loads((PACK / entry["record"]).read_text())
    return data["launches"][entry["record_ref"]["launches"][0]]["kernel"]["closure"]


def table(path: str) -> str:
    """record.json (from `run`) as a markdown table: every recorded launch of every ported
    kernel, its correctness against the user's own kernel, and both sides' CUPTI time."""
    import math
    report = json.loads(Path(path).read_text())
    lines = ["| kernel (record) | launch | drafted | check | Python us | Rust us | parity |",
             "| --- | --- | --- | --- | ---: | ---: | ---: |"]
    parities = []
    for row in report["entries"]:
        bench = {r["launch"]: r["sides"] for r in (row.get("bench") or {}).get("results", [])}
        for result in (row.get("check") or {}).get("results", []):
            rust = result["sides"].get("rust", {})
            py, rs = (bench.get(result["launch"], {}).get(s, {}).get("cupti_us")
                      for s in ("python", "rust"))
            parity = py / rs if py and rs else None
            if parity and rust.get("ok") and "planted" not in row["name"]:
                parities.append(parity)
            check = "correct" if rust.get("ok") else f"FAIL: {rust.get('reason', '')[:60]}"
            lines.append(f"| {row['name']} | {result['label'].split(':')[0]} | {row['verdict']} "
                         f"| {check} | {py or 0:.2f} | {rs or 0:.2f} | "
                         f"{parity or 0:.3f} |")
    geomean = math.exp(sum(map(math.log, parities)) / len(parities)) if parities else 0
    lines.append(f"\nparity (Python time / Rust time, CUPTI) geomean over the {len(parities)} "
                 f"correct launches: {geomean:.3f}")
    return "\n".join(lines)


if __name__ == "__main__":
    if sys.argv[1:2] == ["pack"]:
        args = sys.argv[2:]
        scripts = [a for i, a in enumerate(args) if i and args[i - 1] == "--script"]
        checked = [a for i, a in enumerate(args) if i and args[i - 1] == "--check-script"]
        pack([a for a in args if a.endswith(".json")], scripts, checked)
    elif sys.argv[1:2] == ["run"]:
        run()
    elif sys.argv[1:2] == ["table"]:
        print(table(sys.argv[2]))
    else:
        sys.exit(__doc__)
