"""Checks and benchmarks of TileGym families as a user asks for them (the parent side: the
ports are built here, the worker only loads them), and their tables.

    check_family("tilegym.softmax")                 # every entry, every case, Rust and TileGym
    bench_families(["tilegym.softmax"])             # bench.json rows with three timings
                                                    # (four where TileGym ships a cutile-rs port)
"""
from __future__ import annotations

from ..catalog import Family, get_family
from ..errors import WorkbenchError
from ..rust.cargo import build, has_port
from .compare import geomean
from .report import check_headline, side_cells
from .runner import CheckResponse, has_cuda_driver, run_worker
from .tilegym_rs import SIDE as TILEGYM_RS, has_adapter

PARITY_TARGET = 0.95
COPY_TARGET = 0.90
FAMILY_TIMEOUT_S = 600


def _request(family: Family, cases, entries, mode: str, sides) -> dict:
    entries = [family.entry(e) for e in entries] if entries else list(family.entries)
    libraries = {}
    if "rust" in sides:
        # a chain's steps from other families are built too (their own ports)
        for op in entries + [s for s in family.steps if s not in entries]:
            if not has_port(op):
                continue
            result = build(op)
            if not result.ok:
                raise WorkbenchError(result.summary(), "fix the port, then check again")
            libraries[op.name] = str(result.library)
    all_cases = sorted({c.index for op in entries for c in op.cases})
    return {"family": family.name, "entries": [op.name for op in entries], "mode": mode,
            "cases": list(cases) if cases else all_cases, "sides": list(sides),
            "rust_libraries": libraries, "seed": 0}


def timed_sides(family: Family) -> tuple[str, ...]:
    """The sides a family is timed on: ours, TileGym's kernel, PyTorch, and TileGym's own
    cutile-rs port where it ships one (skipped with the reason when its library is absent)."""
    return ("rust", "tilegym", "torch") + ((TILEGYM_RS,) if has_adapter(family.name) else ())


def check_family(name: str, cases=None, entries=None, sides=("rust", "tilegym"),
                 timeout_s: float = FAMILY_TIMEOUT_S) -> CheckResponse:
    family = get_family(name)
    if not has_cuda_driver():
        return CheckResponse("skipped", "no CUDA device")
    return run_worker(_request(family, cases, entries, "check", sides), timeout_s)


def format_family_check(name: str, response: CheckResponse) -> str:
    if response.status == "skipped":
        return check_headline(name, response)
    lines = [check_headline(name, response)]
    for result in response.results:
        cells = side_cells(result)
        lines.append(f"  {result['entry']} {result['label']}: " + "; ".join(cells))
    return "\n".join(lines)


def bench_families(names: list[str]) -> dict:
    """bench.json's shape (rows, parity_geomean per operator, parity_overall), one row per
    entry and case with the Rust port's, TileGym's and PyTorch's device time."""
    if not has_cuda_driver():
        return {"status": "skipped", "reason": "no CUDA device"}
    rows, ceilings, device, status = [], {}, {}, "ok"
    for name in names:
        family = get_family(name)
        response = run_worker(_request(family, None, None, "bench", timed_sides(family)),
                              FAMILY_TIMEOUT_S)
        if response.status != "ok":
            status = "fail"
            rows.append({"op": name, "error": response.reason})
            continue
        ceilings, device = response.ceilings or ceilings, response.device or device
        rows += [bench_row(family, r, response.ceilings or {}) for r in response.results]
    return summarize(rows, ceilings, device, status)


def check_and_bench(name: str, progress: str | None = None,
                    timeout_s: float = FAMILY_TIMEOUT_S) -> tuple[CheckResponse, list[dict]]:
    """One worker for a family's checks and timings (each kernel compiles once): the check
    response and the bench rows. `progress`: a file that gets a JSON line per finished case;
    `timeout_s`: when the worker is stopped (its progress file keeps what it finished)."""
    family = get_family(name)
    if not has_cuda_driver():
        return CheckResponse("skipped", "no CUDA device"), []
    sides = timed_sides(family)
    response = _both(family, sides, progress, timeout_s)
    if TILEGYM_RS in sides and not response.results and "killed by signal" in response.reason:
        response = _without_other_rust(family, sides, progress, response.reason, timeout_s)
    rows = [bench_row(family, r, response.ceilings or {}) for r in response.benches]
    if response.status not in ("ok", "fail") or (not rows and response.reason):
        rows.append({"op": name, "error": response.reason})
    return response, rows


def _both(family: Family, sides, progress: str | None, timeout_s: float) -> CheckResponse:
    request = _request(family, None, None, "both", sides)
    return run_worker({**request, "progress": progress} if progress else request, timeout_s)


def _without_other_rust(family: Family, sides, progress, crash: str,
                        timeout_s: float) -> CheckResponse:
    """The family again without TileGym's cutile-rs port, whose every result is then the
    crash: a panic in their library aborts the worker (their C functions do not catch it)."""
    response = _both(family, tuple(s for s in sides if s != TILEGYM_RS), progress, timeout_s)
    failed = {"ok": False, "reason": f"the worker died with this side in it: {crash[:300]}"}
    for result in response.results + response.benches:
        result["sides"][TILEGYM_RS] = dict(failed)
    return response


def _us(side: dict) -> float | None:
    if not side.get("ok"):
        return None
    return side.get("cupti_us") or side.get("median_us")


def bench_row(family: Family, result: dict, ceilings: dict) -> dict:
    sides = result["sides"]
    rust, tilegym, torch = (sides.get(s, {}) for s in ("rust", "tilegym", "torch"))
    rust_us, tilegym_us, torch_us = _us(rust), _us(tilegym), _us(torch)
    parity = tilegym_us / rust_us if rust_us and tilegym_us else None
    other_rust = sides.get(TILEGYM_RS)          # absent in rows of runs before the fourth side
    other_us = _us(other_rust or {})
    row = {"op": family.name, "entry": result["entry"], "case": result["label"],
           "source": family.source, "bound": family.bound,
           "python": tilegym, "rust": rust, "torch": torch, "launch": result.get("launch"),
           "tuned": result.get("tuned"), "rust_us": rust_us, "tilegym_us": tilegym_us,
           "torch_us": torch_us, "parity": parity, "clock": "cupti",
           TILEGYM_RS: other_rust, "tilegym_rs_us": other_us,
           # TileGym's cutile-rs port's time over ours, as parity is TileGym's kernel's
           "tilegym_rs_parity": other_us / rust_us if other_us and rust_us else None,
           "bytes": result.get("bytes"), "flops": result.get("flops")}
    row.update(ceiling_shares(row, ceilings, rust_us))
    return row


def ceiling_shares(row: dict, ceilings: dict, us: float | None) -> dict:
    """GB/s and TFLOP/s of the Rust port, and their share of the copy / bf16 ceiling."""
    if not us:
        return {"gbps": None, "copy_pct": None, "tflops": None, "bf16_pct": None}
    gbps = row["bytes"] / (us * 1e-6) / 1e9 if row.get("bytes") else None
    tflops = row["flops"] / (us * 1e-6) / 1e12 if row.get("flops") else None
    copy, bf16 = ceilings.get("copy_gbps"), ceilings.get("bf16_tflops")
    return {"gbps": gbps, "copy_pct": 100 * gbps / copy if gbps and copy else None,
            "tflops": tflops, "bf16_pct": 100 * tflops / bf16 if tflops and bf16 else None}


def summarize(rows: list[dict], ceilings: dict, device: dict, status: str) -> dict:
    geomeans = _geomeans(rows, "parity")
    overall = geomean([r["parity"] for r in rows if r.get("parity")]) if geomeans else None
    return {"status": status, "device": device, "ceilings": ceilings, "rows": rows,
            "parity_geomean": geomeans, "parity_overall": overall,
            "tilegym_rs_parity_geomean": _geomeans(rows, "tilegym_rs_parity")}


def _geomeans(rows: list[dict], key: str) -> dict[str, float]:
    per_op: dict[str, list[float]] = {}
    for row in rows:
        if row.get(key):
            per_op.setdefault(row["op"], []).append(row[key])
    return {op: geomean(v) for op, v in per_op.items()}


def format_family_bench(report: dict) -> str:
    c = report.get("ceilings", {})
    lines = [f"device: {report.get('device', {}).get('name')}   copy {c.get('copy_gbps', 0):.0f} GB/s"
             f"   bf16 {c.get('bf16_tflops', 0):.0f} TFLOP/s",
             f"{'entry / case':62} {'rust us':>9} {'tilegym':>9} {'torch':>9} {'parity':>7} "
             f"{'GB/s':>6} {'%copy':>6} {'TF/s':>6} {'%bf16':>6} {'tg-rs us':>9} {'tg-rs/us':>8}"]
    for row in report["rows"]:
        if "error" in row:
            lines.append(f"{row['op']:62} ERROR {row['error'][:200]}")
            continue
        name = f"{row['entry']} {row['case']}"
        lines.append(f"{name[:62]:62} {_f(row['rust_us'], 9, 1)} {_f(row['tilegym_us'], 9, 1)} "
                     f"{_f(row['torch_us'], 9, 1)} {_f(row['parity'], 7, 3)} "
                     f"{_f(row['gbps'], 6, 0)} {_f(row['copy_pct'], 6, 0)} "
                     f"{_f(row['tflops'], 6, 1)} {_f(row['bf16_pct'], 6, 0)} "
                     f"{_other_rust_cell(row)}")
    for op, value in report.get("parity_geomean", {}).items():
        lines.append(f"parity geomean {op}: {value:.3f}"
                     + ("" if value >= PARITY_TARGET else f"  (below {PARITY_TARGET})"))
    if report.get("parity_overall"):
        lines.append(f"parity geomean overall: {report['parity_overall']:.3f}")
    for op, value in report.get("tilegym_rs_parity_geomean", {}).items():
        lines.append(f"TileGym's cutile-rs port over ours, geomean {op}: {value:.3f}")
    return "\n".join(lines)


def _other_rust_cell(row: dict) -> str:
    """TileGym's cutile-rs port's time and its parity against ours; `skipped` or `-`."""
    side = row.get(TILEGYM_RS) or {}
    if side.get("skipped"):
        return f"{'skipped':>9} {'':>8}"
    return f"{_f(row.get('tilegym_rs_us'), 9, 1)} {_f(row.get('tilegym_rs_parity'), 8, 3)}"


def _f(value, width: int, digits: int) -> str:
    return f"{value:{width}.{digits}f}" if isinstance(value, (int, float)) else f"{'-':>{width}}"
