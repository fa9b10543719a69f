"""Write bench/RESULTS.md from the GPU session's outputs in bench/results/ (see tools/gpu_run.sh)."""
import json
from pathlib import Path

from workbench.check.report import format_bench, format_check
from workbench.check.runner import CheckResponse

RESULTS = Path(__file__).resolve().parent.parent / "bench" / "results"
FIELDS = ("status", "reason", "results", "device", "ceilings")


def response(raw: dict) -> CheckResponse:
    return CheckResponse(**{k: raw.get(k) or ({} if k in ("device", "ceilings") else
                                              [] if k == "results" else "") for k in FIELDS})


GPU_CALLS = ("check()", "bench()", "has_cuda_driver", "run_pipeline")   # cells that use the GPU


def format_notebooks(summary: dict) -> str:
    lines = []
    for name, cells in summary.items():
        notebook = json.loads((RESULTS.parent.parent / "notebooks" / name).read_text())
        lines.append(f"{name}: {sum(c['status'] == 'ok' for c in cells)} of {len(cells)} "
                     f"code cells ran")
        lines += [f"  cell {c['cell']:2} {c['status']:5} {c['seconds']:6.2f} s  "
                  f"{c['first_line'][:72]}" for c in cells]
        for cell in cells:
            source = "".join(notebook["cells"][cell["cell"]]["source"])
            if any(call in source for call in GPU_CALLS):
                output = [l for l in cell["output"].splitlines()
                          if l.strip() and not l.startswith("bench:")]     # no progress bars
                lines += [f"  -- cell {cell['cell']}:"] + ["     " + l for l in output[:10]]
        lines.append("")
    return "\n".join(lines).rstrip()


def format_hints(sweep: dict) -> str:
    lines = [f"copy ceiling {sweep['copy_gbps']:.0f} GB/s",
             f"{'operator':14} {'occupancy':>9} {'warps':>5} {'us':>8} {'GB/s':>6} {'%copy':>6}"]
    for row in sweep["rows"]:
        setting = f"{row['occupancy'] or '-':>9} {row['warps'] or '-':>5}"
        lines.append(f"{row['op']:14} {setting} " + (
            f"{row['us']:8.1f} {row['gbps']:6.0f} {row['copy_pct']:5.0f}%" if "us" in row
            else row["error"].split(". ")[0][:80]))
    return "\n".join(lines)


SESSIONS = "\n## Session of "     # the sections each later GPU session adds by hand


def later_sessions(page: str) -> str:
    """The page's session sections, kept when the generated part is written again."""
    start = page.find(SESSIONS)
    return "\n" + page[start:].lstrip("\n") if start >= 0 else ""


def main() -> None:
    load = lambda name: json.loads((RESULTS / name).read_text())
    bench, checks, ffi = load("bench.json"), load("checks.json"), load("ffi_cost.json")
    spec, fault = load("specialize.json"), load("fault.json")
    text = (Path(__file__).with_name("results_template.md").read_text()
            .replace("{{checks}}", "\n".join(format_check(op, response(r)) for op, r in checks.items()))
            .replace("{{fault}}", format_check("oob_store (planted fault)", response(fault["faulty"]))
                     + "\n" + format_check("softmax (next check, same process)", response(fault["next"])))
            .replace("{{bench}}", format_bench(bench))
            .replace("{{ffi}}", "\n".join(f"{k:34} {v:8.2f} us" for k, v in ffi.items()))
            .replace("{{specialize}}", "\n".join(
                f"{r['call']:32} predicted == cuda-tile: {r['predicted'] == r['cuda_tile']}; "
                f"JIT compiled it: {bool(r['jit_dumped'])}   {r['predicted']}" for r in spec)))
    text = text.replace("{{notebooks}}", format_notebooks(load("notebooks.json")))
    text = text.replace("{{hints}}", format_hints(load("hints.json")))
    page = RESULTS.parent / "RESULTS.md"
    page.write_text(text + later_sessions(page.read_text() if page.exists() else ""))
    print("wrote", RESULTS.parent / "RESULTS.md")


if __name__ == "__main__":
    main()
