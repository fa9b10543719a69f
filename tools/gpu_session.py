"""Everything that needs the GPU, in one run on the device machine (see tools/gpu_run.sh).

Writes into $OUT: checks.json (correctness of every case, Python kernel and Rust port vs
the float64 torch reference), fault.json (the planted faulty port, then a good check from
the same process), bench.json/.html/.png (parity and bandwidth), specialize.json (the
explorer's predictions against what the JIT compiled), ffi_cost.json (host cost of one
call through the C ABI against one ct.launch), and a log of the tables.
"""
from __future__ import annotations

import json
import math
import os
import statistics
import sys
import time
from pathlib import Path

OUT = Path(os.environ.get("OUT", "gpu-out"))
OPS = ["silu_and_mul", "softmax", "rms_norm", "layer_norm", "matmul", "attention"]


def save(name: str, data) -> None:
    (OUT / name).write_text(json.dumps(data, indent=1, default=str))


def checks() -> None:
    from workbench.check.report import check_operator, format_check
    results = {}
    for op in OPS:
        response = check_operator(op)
        results[op] = response.to_json()
        print(format_check(op, response), flush=True)
    save("checks.json", results)


def fault() -> None:
    from workbench.check.report import check_operator, format_check
    from workbench.fixtures import fixture_operator
    # the planted fault: softmax with kernels_src/fixtures/oob_store's patch (the worker
    # finds it through WORKBENCH_EXTRA_CATALOG, which tools/gpu_run.sh sets)
    bad = check_operator(fixture_operator("oob_store"), sides=["rust"])
    print(format_check("oob_store (planted fault)", bad), flush=True)
    good = check_operator("softmax", cases=[0])
    print(format_check("softmax, next check from the same process", good), flush=True)
    save("fault.json", {"faulty": bad.to_json(), "next": good.to_json()})


def bench() -> None:
    from workbench.check.report import bench_operators, format_bench, write_bench_html
    report = bench_operators(OPS)
    print(format_bench(report), flush=True)
    save("bench.json", report)
    write_bench_html(report, str(OUT / "bench.html"))


def specialize() -> None:
    """For real tensors: the explorer's predicted kernel vs cuda-tile's own signature and
    the kernel the JIT compiled (read back from CUDA_TILE_DUMP_BYTECODE)."""
    import torch
    import cuda.tile as ct
    from cuda.tile.compilation import CallingConvention, KernelSignature
    from workbench.argspec import ArgSpec
    from workbench.sources.kernel import load_kernel
    from workbench.ir.signature import kernel_signature

    kernel = load_kernel(Path("tests/fixtures/vec_add.py"), "vec_add")
    dump = Path(os.environ["CUDA_TILE_DUMP_BYTECODE"])
    rows = []
    base = torch.randn(1 << 20, device="cuda")
    half = base.half()
    calls = {
        "f32[4096] aligned": [base[:4096], base[8192:12288], torch.empty(4096, device="cuda")],
        "f32[4100] odd length": [base[:4100], base[8192:12292], torch.empty(4100, device="cuda")],
        "f32[4096] offset by 1": [base[1:4097], base[8192:12288], torch.empty(4096, device="cuda")],
        "f16[4099]": [half[:4099], half[8192:12291], torch.empty(4099, device="cuda", dtype=torch.half)],
        "f32[4096] strided (every 2nd)": [base[:8192:2], base[8192:12288], torch.empty(4096, device="cuda")],
    }
    names = {torch.float32: "f32", torch.float16: "f16"}
    for label, tensors in calls.items():
        specs = [ArgSpec(names[t.dtype], tuple(t.shape), tuple(t.stride()),
                         t.storage_offset() - (t.storage_offset() // 4) * 4 if t.dtype == torch.float32
                         else t.storage_offset() % 8)
                 for t in tensors]
        predicted = kernel_signature(kernel.name, kernel.params, kernel.const_params, specs,
                                     {"TILE": 1024}).symbol
        official = KernelSignature.from_kernel_args(kernel.kernel, tensors + [1024],
                                                    CallingConvention.cutile_python_v1()).symbol
        before = set(dump.iterdir()) if dump.exists() else set()
        ct.launch(torch.cuda.current_stream(), ((tensors[0].shape[0] + 1023) // 1024, 1, 1),
                  kernel.kernel, tuple(tensors) + (1024,))
        torch.cuda.synchronize()
        new = sorted(set(dump.iterdir()) - before) if dump.exists() else []
        # the dumped bytecode names its entry: find the predicted symbol in it
        compiled = [p.name for p in new if predicted.encode() in p.read_bytes()]
        rows.append({"call": label, "predicted": predicted, "cuda_tile": official,
                     "jit_dumped": compiled, "match": predicted == official and bool(compiled)})
        print(f"{label:32} predicted == cuda-tile: {predicted == official}; "
              f"JIT compiled it: {bool(compiled)}  ({predicted})", flush=True)
    save("specialize.json", rows)


def ffi_cost() -> None:
    """Host-side cost of one launch: the C ABI call vs ct.launch, same kernel sizes."""
    import torch
    from workbench.catalog import get_operator
    from workbench.check.worker import _python_launcher, make_values
    from workbench.rust.ffi import rust_launcher
    torch.cuda.set_stream(torch.cuda.Stream())
    stream = torch.cuda.current_stream()
    rows = {}
    for name in ("softmax", "silu_and_mul"):
        op = get_operator(name)
        case = op.case(0)
        values = make_values(op, case, torch)
        rust = rust_launcher(op, None, torch)
        prepared = rust.plan.prepared(values, case.consts)
        sides = {"python ct.launch": _python_launcher(op, torch),
                 "rust C ABI": rust,
                 "rust C symbol only": lambda v, c, s: rust.library.call(*prepared, s.cuda_stream)}
        for label, launch in sides.items():
            for _ in range(20):
                launch(values, case.consts, stream)
            torch.cuda.synchronize()
            samples = []
            for _ in range(15):
                start = time.perf_counter()
                for _ in range(200):
                    launch(values, case.consts, stream)
                samples.append((time.perf_counter() - start) / 200 * 1e6)
                torch.cuda.synchronize()
            rows[f"{name} {label}"] = statistics.median(samples)
            print(f"{name:14} {label:18} {statistics.median(samples):8.2f} us per call (host)", flush=True)
    save("ffi_cost.json", rows)


MEMORY_BOUND = ["silu_and_mul", "softmax", "rms_norm", "layer_norm"]


def hints() -> None:
    """The large case of each memory-bound Python kernel under cuda-tile's occupancy and
    worker-warp hints: GB/s against a device copy measured in the same run (how far is the
    70%-of-copy target from a hint both front ends can state?)."""
    import torch
    from workbench.catalog import get_operator
    from workbench.check.worker import _call_by_name, _grid_function, make_values, measure_ceilings
    from workbench.sources.kernel import load_operator_kernel
    import cuda.tile as ct
    copy = measure_ceilings(torch)["copy_gbps"]
    stream = torch.cuda.current_stream()
    rows = []
    for name in MEMORY_BOUND:
        op = get_operator(name)
        case = op.cases[-1]
        kernel = load_operator_kernel(op)
        values = make_values(op, case, torch)
        grid = _call_by_name(_grid_function(op), {**values, **case.consts})
        args = tuple(case.consts[p] if p in kernel.const_params else values[p]
                     for p in kernel.params)
        moved = sum(v.numel() * v.element_size() for v in values.values() if torch.is_tensor(v))
        for occupancy in (None, 1, 2, 4, 8, 16):
            for warps in (None, 4, 8, 16):
                # None is the compiler's default, whatever the kernel's decorator says
                variant = kernel.kernel.replace_hints(occupancy=occupancy, num_worker_warps=warps)
                row = {"op": name, "case": case.label(), "occupancy": occupancy, "warps": warps}
                try:
                    us = _launch_time_us(lambda: ct.launch(stream, grid, variant, args), torch)
                    row.update(us=us, gbps=moved / (us * 1e-6) / 1e9)
                    row["copy_pct"] = 100 * row["gbps"] / copy
                    print(f"{name:14} occupancy {str(occupancy):4} warps {str(warps):4} "
                          f"{us:9.1f} us {row['gbps']:7.0f} GB/s {row['copy_pct']:4.0f}% of copy",
                          flush=True)
                except Exception as e:       # a hint the compiler refuses is a result too
                    row["error"] = f"{type(e).__name__}: {e}"[:300]
                    print(f"{name:14} occupancy {occupancy} warps {warps}: {row['error']}", flush=True)
                rows.append(row)
    save("hints.json", {"copy_gbps": copy, "rows": rows})


def _launch_time_us(launch, torch, warmup: int = 3, repeats: int = 20) -> float:
    for _ in range(warmup):
        launch()
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(repeats):
        launch()
    end.record()
    end.synchronize()
    return start.elapsed_time(end) / repeats * 1e3


def ownership() -> None:
    from gpu_ownership import ownership as run
    run(save)


def promises() -> None:
    from gpu_ownership import promises as run
    run(save)


def batch() -> None:
    """`workbench batch` over the catalog with GPU checks and benches, against a plain bench
    (tools/gpu_batch.py; needs .gpu-batch carried)."""
    from gpu_batch import batch as run_batch_step
    run_batch_step(OUT)


def _tilegym_names() -> list[str]:
    from workbench.catalog import tilegym_families
    return [n for n in os.environ.get("TILEGYM_FAMILIES", "").split(",") if n] \
        or list(tilegym_families())


WARM_WORKERS = int(os.environ.get("TILEGYM_WARM_WORKERS", 6))  # 16 CPU cores for tileiras


def _warm_family(name: str, deadline: float) -> str:
    from workbench.check.family_report import check_family, timed_sides
    from workbench.catalog import get_family
    left = deadline - time.time()
    if left < 20:
        return "not started: the warm-up's time was up"
    sides = [s for s in timed_sides(get_family(name)) if s != "torch"]   # torch compiles nothing
    start = time.time()
    response = check_family(name, sides=sides, timeout_s=left)
    return f"{response.status} {response.reason[:160]} ({time.time() - start:.0f} s)"


def tilegym_warm() -> None:
    """Compile ahead of the timed run: every family's checks (no timing) on a dask local
    cluster of WARM_WORKERS GPU workers that share the one GPU, which fills both sides' disk
    caches (tools/gpu_run.sh); a family's time is mostly tileiras, on the CPU. `tilegym` then
    runs each family alone and loads the kernels compiled here. TILEGYM_WARM_S (default 480)
    bounds the step: a family still compiling then is stopped. Families start in
    TILEGYM_FAMILIES's order, so name the slow ones first. Needs .gpu-batch (dask) carried."""
    from workbench.engine import EngineOptions, open_engine
    deadline = time.time() + float(os.environ.get("TILEGYM_WARM_S", 480))
    options = EngineOptions(jobs=0, gpus=WARM_WORKERS, per_gpu=WARM_WORKERS)
    with open_engine(options) as engine:
        for name in _tilegym_names():
            engine.submit(name, _warm_family, (name, deadline), gpu=True)
        for done in engine.finished():
            print(f"  warm {done.key}: {done.error or done.result}", flush=True)


def tilegym() -> None:
    """TileGym's families: every entry checked (Rust port and TileGym's kernel against the
    float64 reference) and timed (Rust, TileGym, PyTorch; CUPTI) in one worker per family,
    so each kernel compiles once. TILEGYM_FAMILIES=a,b picks some (default: all);
    TILEGYM_FAMILY_TIMEOUT_S stops a family's worker sooner than FAMILY_TIMEOUT_S, so one
    family that runs long cannot take a whole call from the ones after it."""
    from workbench.check.family_report import (FAMILY_TIMEOUT_S, check_and_bench,
                                               format_family_bench, format_family_check,
                                               summarize)
    names = _tilegym_names()
    timeout_s = float(os.environ.get("TILEGYM_FAMILY_TIMEOUT_S", FAMILY_TIMEOUT_S))
    checks, rows, ceilings, device, status = {}, [], {}, {}, "ok"
    for name in names:
        start = time.time()
        # one file for every family, a line per step of a case: a call brings back 8 files
        progress = (OUT / "progress.jsonl").resolve()
        response, family_rows = check_and_bench(name, str(progress), timeout_s)
        checks[name] = response.to_json()
        checks[name].pop("benches", None)
        rows += family_rows
        ceilings, device = response.ceilings or ceilings, response.device or device
        status = status if response.status == "ok" else "fail"
        print(format_family_check(name, response), flush=True)
        print(f"  ({time.time() - start:.0f} s)", flush=True)
        save("tilegym_checks.json", checks)
        report = summarize(rows, ceilings, device, status)   # saved as it grows: a run cut
        save("tilegym_bench.json", report)                   # short keeps what it timed
    print(format_family_bench(report), flush=True)


def perf_gate() -> None:
    """The pipeline's perf gate (workbench/check/perf.py) on the own operators: rust time /
    Python time per case (CUPTI), judged against the gate."""
    from workbench.catalog import get_operator
    from workbench.check.perf import judge, perf_gate as gate, time_port
    verdicts = {}
    for name in OPS:
        why, cases = time_port(get_operator(name))
        result = judge(cases, gate())
        verdicts[name] = {"verdict": result.verdict, "why": why, **result.to_json()}
        print(f"{name}: {result.verdict}", flush=True)
        for line in result.lines():
            print(f"  {line}", flush=True)
    save("perf_gate.json", verdicts)


def slow_ports() -> None:
    """The planted slow ports (kernels_src/fixtures: slow_sync, no_hints) and softmax's own:
    the perf gate's device-time ratio (CUPTI), the host time of a call against ct.launch's
    (a call that waits for the GPU shows there, not in device time), and the owner the
    investigator names (workbench/check/investigate.py)."""
    import torch
    from workbench.catalog import get_operator
    from workbench.check.investigate import investigate
    from workbench.check.perf import judge, perf_gate as gate, time_port
    from workbench.check.worker import _python_launcher, make_values
    from workbench.fixtures import fixture_operator
    from workbench.rust.ffi import rust_launcher
    stream = torch.cuda.current_stream()
    rows = {}
    for name in ("softmax", "slow_sync", "no_hints"):
        op = get_operator(name) if name == "softmax" else fixture_operator(name)
        why, cases = time_port(op)
        result = judge(cases, gate())
        case = op.case(0)
        values = make_values(op, case, torch)
        host = {}
        for label, launch in (("python", _python_launcher(op, torch)),
                              ("rust", rust_launcher(op, None, torch))):
            for _ in range(20):
                launch(values, case.consts, stream)
            torch.cuda.synchronize()
            start = time.perf_counter()
            for _ in range(500):
                launch(values, case.consts, stream)
            host[label] = (time.perf_counter() - start) / 500 * 1e6
            torch.cuda.synchronize()
        found = investigate(op, 0, result.geomean_ratio)
        rows[name] = {"perf": result.verdict, "why": why, **result.to_json(),
                      "host_us_per_call": host, "host_ratio": host["rust"] / host["python"],
                      "investigation": found.to_json()}
        print(f"{name}: {result.verdict} {result.summary}; host per call: rust "
              f"{host['rust']:.1f} us, python {host['python']:.1f} us", flush=True)
        print("\n".join(f"  {line}" for line in found.lines()), flush=True)
    save("slow_ports.json", rows)


def tune() -> None:
    """`workbench tune` on each own operator's largest case (TUNE_OPS=a,b picks some,
    TUNE_KNOBS_<OP> that one's knobs; the sweep's candidates checked on TUNE_JOBS workers
    sharing the GPU), then bench/tune_bench.py (TUNE_BENCH=0: not now):
    reference, untuned, tuned and PyTorch in one worker per operator. Writes tune/<op>.json,
    tune/<op>.png, tune/<op>.tuned.toml (what was kept) and tune_bench.json/.md."""
    import shutil
    from workbench.catalog import get_operator
    from workbench.errors import WorkbenchError
    from workbench.rust.tuned import tuned_path
    from workbench.tune.report import format_tune, plot_tune
    from workbench.tune.sweep import MARGIN, tune as sweep
    names = [n for n in os.environ.get("TUNE_OPS", ",".join(OPS)).split(",") if n]
    (OUT / "tune").mkdir(exist_ok=True)
    for name in names:
        op = get_operator(name)
        largest = max(op.cases, key=lambda c: sum(math.prod(a.shape) for a in c.args
                                                  if a.is_array))
        start = time.time()
        # TUNE_KNOBS_<OP>="program=0,1;occupancy=0,2": that operator's --knob values
        knobs = [k for k in os.environ.get(f"TUNE_KNOBS_{name.upper()}", "").split(";") if k]
        report = sweep(op, [largest.index], knobs, jobs=int(os.environ.get("TUNE_JOBS", "8")),
                       limit=int(os.environ.get("TUNE_LIMIT", "32")),
                       progress=lambda text: print(f"  {text}", flush=True))
        print(format_tune(report, MARGIN), f"({time.time() - start:.0f} s)", flush=True)
        save(f"tune/{name}.json", report.to_json())
        if report.status == "ok":
            try:
                plot_tune(report, OUT / "tune" / f"{name}.png")
            except WorkbenchError as e:          # no matplotlib there: the JSON has it all
                print(f"  no plot: {e}", flush=True)
        if tuned_path(op).is_file():
            shutil.copy2(tuned_path(op), OUT / "tune" / f"{name}.tuned.toml")
    if os.environ.get("TUNE_BENCH", "1") != "0":     # 0: a later step benches them all
        tune_bench(names)


def tune_bench(names: list[str] | None = None) -> None:
    """bench/tune_bench.py over the own operators (or `names`), the ports' tuned.toml as
    carried: tune_bench.json/.md."""
    import subprocess
    bench = subprocess.run([sys.executable, "bench/tune_bench.py", *(names or OPS), "--json",
                            str(OUT / "tune_bench.json")], capture_output=True, text=True,
                           timeout=900, check=False)
    print(bench.stdout, bench.stderr[-3000:], flush=True)
    (OUT / "tune_bench.md").write_text(bench.stdout)


def attention_gap() -> None:
    """What PyTorch's SDPA runs for the attention operator's largest case (each backend this
    torch has, timed alone with CUPTI, and its kernels' names), beside the port as tune.toml
    serves it: attention_gap.json."""
    import torch
    from torch.nn.attention import SDPBackend, sdpa_kernel
    from workbench.catalog import get_operator
    from workbench.check.gpu import cupti_per_call
    from workbench.check.worker import make_values
    op = get_operator("attention")
    case = op.case(3)
    values = make_values(op, case, torch)
    q, k, v = (values[n].unsqueeze(0) for n in ("q", "k", "v"))
    rows = {}
    for backend in (SDPBackend.FLASH_ATTENTION, SDPBackend.CUDNN_ATTENTION,
                    SDPBackend.EFFICIENT_ATTENTION, None):
        label = backend.name if backend is not None else "default"
        run = (lambda b=backend: _sdpa(torch, q, k, v, values["scale"], b, sdpa_kernel))
        try:
            us = cupti_per_call(run, torch, calls=20)
            names = _kernel_names(run, torch)
        except Exception as e:  # a backend this build or this shape does not take
            rows[label] = {"error": f"{type(e).__name__}: {str(e)[:300]}"}
            continue
        rows[label] = {"us": us, "kernels": names}
        print(f"{label}: {us:.1f} us: {names}", flush=True)
    save("attention_gap.json", {"case": case.label(), "sdpa": rows})


def _sdpa(torch, q, k, v, scale, backend, sdpa_kernel):
    if backend is None:
        return torch.nn.functional.scaled_dot_product_attention(q, k, v, scale=scale)
    with sdpa_kernel(backend):
        return torch.nn.functional.scaled_dot_product_attention(q, k, v, scale=scale)


def _kernel_names(run, torch) -> list[str]:
    from torch.autograd import DeviceType
    from torch.profiler import ProfilerActivity, profile
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        run()
        torch.cuda.synchronize()
    return sorted({e.name[:200] for e in prof.events()
                   if getattr(e, "device_type", None) == DeviceType.CUDA and e.device_time > 0
                   and "memcpy" not in e.name.lower()})


STEPS = {"tilegym": tilegym, "checks": checks, "fault": fault, "bench": bench, "specialize": specialize,
         "ffi_cost": ffi_cost, "hints": hints, "ownership": ownership, "promises": promises}
ON_REQUEST = {"batch": batch, "tilegym_warm": tilegym_warm, "perf_gate": perf_gate,
              "slow_ports": slow_ports, "tune": tune,
              "tune_bench": tune_bench, "attention_gap": attention_gap}   # only when named: need more carried

if __name__ == "__main__":
    OUT.mkdir(parents=True, exist_ok=True)
    failed = []
    for step in sys.argv[1:] or list(STEPS):
        start = time.time()
        print(f"===== {step}", flush=True)
        try:
            {**STEPS, **ON_REQUEST}[step]()
        except Exception as e:  # one broken step must not hide the others' results
            import traceback
            traceback.print_exc()
            save(f"{step}.error.txt", f"{type(e).__name__}: {e}")
            failed.append(step)
        print(f"===== {step} took {time.time() - start:.0f} s", flush=True)
    if failed:
        sys.exit(f"steps that failed: {', '.join(failed)} (their tracebacks are above)")
