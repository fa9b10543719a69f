"""Which tile program moves a row kernel to the copy bandwidth? One GPU run, printed as a table.

    python bench/row_programs.py [--json FILE]

The catalog's softmax, rms_norm and layer_norm (kernels_src/OP/kernel.py) process one row
per block with a TMA tile load, and on the H200 they move 63-81% of the copy bandwidth
(bench/tune.md); no tile size or hint of that program moved them. This bench times, on the
tuning's shape (16384 rows of 4096), the catalog kernel itself and other tile programs of
the same operator, each checked against PyTorch first:

- `catalog`: the kernel as the catalog launches it (one row per block, TMA);
- `no_tma`: the same program with `allow_tma=False` on its loads and stores (plain LDG/STG);
- `rows_R`: R rows per block in one (R, TILE_COLS) tile;
- `persistent`: a grid of SMs x occupancy blocks, each looping over rows (grid stride);
- softmax only: `approx` (the catalog program with approximate exp and a flush-to-zero
  approximate division), `approx_ldg` (the same arithmetic with a 1-D gather/scatter of the
  row: plain loads, one block per row), `approx_persistent`.

Every time is the median of alternating rounds of CUDA-event timed batches, beside a plain
device copy of the same bytes (`x -> out`, the ceiling). Ratios are against `catalog`.
Without a GPU it says so and exits 3.
"""

import argparse
import json
import statistics
import sys

import cuda.tile as ct

ROWS, COLS = 16384, 4096
OCCUPANCY = 8


def _softmax_body(t):
    t = ct.astype(t, ct.float32)
    e = ct.exp(t - ct.max(t, axis=1, keepdims=True))
    return e / ct.sum(e, axis=1, keepdims=True)


def _rms_body(t, w, eps, cols):
    t = ct.astype(t, ct.float32)
    inv = ct.rsqrt(ct.sum(t * t, axis=1, keepdims=True) / cols + eps)
    return t * inv * ct.astype(w, ct.float32)


def _layer_body(t, w, b, eps, cols, tile_cols):
    t = ct.astype(t, ct.float32)
    mean = ct.sum(t, axis=1, keepdims=True) / cols
    centred = ct.where(ct.arange(tile_cols, dtype=ct.int32) < cols, t - mean, 0.0)
    inv = ct.rsqrt(ct.sum(centred * centred, axis=1, keepdims=True) / cols + eps)
    return centred * inv * ct.astype(w, ct.float32) + ct.astype(b, ct.float32)


# --- softmax -------------------------------------------------------------------------------
@ct.kernel(occupancy=OCCUPANCY, num_worker_warps=8)
def softmax_no_tma(x, out, TILE_COLS: ct.Constant[int]):
    row = ct.bid(0)
    t = ct.load(x, index=(row, 0), shape=(1, TILE_COLS), padding_mode=ct.PaddingMode.NEG_INF,
                allow_tma=False)
    ct.store(out, index=(row, 0), tile=ct.astype(_softmax_body(t), out.dtype), allow_tma=False)


@ct.kernel(occupancy=OCCUPANCY, num_worker_warps=8)
def softmax_rows(x, out, TILE_ROWS: ct.Constant[int], TILE_COLS: ct.Constant[int]):
    block = ct.bid(0)
    t = ct.load(x, index=(block, 0), shape=(TILE_ROWS, TILE_COLS),
                padding_mode=ct.PaddingMode.NEG_INF)
    ct.store(out, index=(block, 0), tile=ct.astype(_softmax_body(t), out.dtype))


@ct.kernel(occupancy=OCCUPANCY, num_worker_warps=8)
def softmax_persistent(x, out, TILE_COLS: ct.Constant[int]):
    for row in range(ct.bid(0), x.shape[0], ct.num_blocks(0)):
        t = ct.load(x, index=(row, 0), shape=(1, TILE_COLS),
                    padding_mode=ct.PaddingMode.NEG_INF)
        ct.store(out, index=(row, 0), tile=ct.astype(_softmax_body(t), out.dtype))


def _softmax_approx(t):
    t = ct.astype(t, ct.float32)
    e = ct.exp(t - ct.max(t, axis=-1, keepdims=True), rounding_mode=ct.RoundingMode.APPROX)
    return ct.truediv(e, ct.sum(e, axis=-1, keepdims=True),
                      rounding_mode=ct.RoundingMode.APPROX, flush_to_zero=True)


@ct.kernel(occupancy=OCCUPANCY, num_worker_warps=8)
def softmax_approx(x, out, TILE_COLS: ct.Constant[int]):
    row = ct.bid(0)
    t = ct.load(x, index=(row, 0), shape=(1, TILE_COLS), padding_mode=ct.PaddingMode.NEG_INF)
    ct.store(out, index=(row, 0), tile=ct.astype(_softmax_approx(t), out.dtype))


@ct.kernel(occupancy=OCCUPANCY, num_worker_warps=8)
def softmax_approx_ldg(x, out, TILE_COLS: ct.Constant[int]):
    row = ct.bid(0)
    cols = ct.arange(TILE_COLS, dtype=ct.int32)
    t = ct.gather(x, (row, cols), padding_value=-float("inf"))
    ct.scatter(out, (row, cols), ct.astype(_softmax_approx(t), out.dtype))


@ct.kernel(occupancy=OCCUPANCY, num_worker_warps=8)
def softmax_approx_persistent(x, out, TILE_COLS: ct.Constant[int]):
    for row in range(ct.bid(0), x.shape[0], ct.num_blocks(0)):
        t = ct.load(x, index=(row, 0), shape=(1, TILE_COLS),
                    padding_mode=ct.PaddingMode.NEG_INF)
        ct.store(out, index=(row, 0), tile=ct.astype(_softmax_approx(t), out.dtype))


# --- rms_norm ------------------------------------------------------------------------------
@ct.kernel(occupancy=OCCUPANCY, num_worker_warps=8)
def rms_no_tma(x, weight, out, eps, TILE_COLS: ct.Constant[int]):
    row = ct.bid(0)
    t = ct.load(x, index=(row, 0), shape=(1, TILE_COLS), padding_mode=ct.PaddingMode.ZERO,
                allow_tma=False)
    w = ct.load(weight, index=(0,), shape=(TILE_COLS,), padding_mode=ct.PaddingMode.ZERO,
                allow_tma=False)
    y = _rms_body(t, w, eps, x.shape[1])
    ct.store(out, index=(row, 0), tile=ct.astype(y, out.dtype), allow_tma=False)


@ct.kernel(occupancy=OCCUPANCY, num_worker_warps=8)
def rms_rows(x, weight, out, eps, TILE_ROWS: ct.Constant[int], TILE_COLS: ct.Constant[int]):
    block = ct.bid(0)
    t = ct.load(x, index=(block, 0), shape=(TILE_ROWS, TILE_COLS),
                padding_mode=ct.PaddingMode.ZERO)
    w = ct.load(weight, index=(0,), shape=(TILE_COLS,), padding_mode=ct.PaddingMode.ZERO)
    y = _rms_body(t, w, eps, x.shape[1])
    ct.store(out, index=(block, 0), tile=ct.astype(y, out.dtype))


@ct.kernel(occupancy=OCCUPANCY, num_worker_warps=8)
def rms_persistent(x, weight, out, eps, TILE_COLS: ct.Constant[int]):
    w = ct.load(weight, index=(0,), shape=(TILE_COLS,), padding_mode=ct.PaddingMode.ZERO)
    for row in range(ct.bid(0), x.shape[0], ct.num_blocks(0)):
        t = ct.load(x, index=(row, 0), shape=(1, TILE_COLS), padding_mode=ct.PaddingMode.ZERO)
        y = _rms_body(t, w, eps, x.shape[1])
        ct.store(out, index=(row, 0), tile=ct.astype(y, out.dtype))


# --- layer_norm ----------------------------------------------------------------------------
@ct.kernel(occupancy=OCCUPANCY, num_worker_warps=8)
def layer_no_tma(x, weight, bias, out, eps, TILE_COLS: ct.Constant[int]):
    row = ct.bid(0)
    t = ct.load(x, index=(row, 0), shape=(1, TILE_COLS), padding_mode=ct.PaddingMode.ZERO,
                allow_tma=False)
    w = ct.load(weight, index=(0,), shape=(TILE_COLS,), padding_mode=ct.PaddingMode.ZERO,
                allow_tma=False)
    b = ct.load(bias, index=(0,), shape=(TILE_COLS,), padding_mode=ct.PaddingMode.ZERO,
                allow_tma=False)
    y = _layer_body(t, w, b, eps, x.shape[1], TILE_COLS)
    ct.store(out, index=(row, 0), tile=ct.astype(y, out.dtype), allow_tma=False)


@ct.kernel(occupancy=OCCUPANCY, num_worker_warps=8)
def layer_rows(x, weight, bias, out, eps, TILE_ROWS: ct.Constant[int],
               TILE_COLS: ct.Constant[int]):
    block = ct.bid(0)
    t = ct.load(x, index=(block, 0), shape=(TILE_ROWS, TILE_COLS),
                padding_mode=ct.PaddingMode.ZERO)
    w = ct.load(weight, index=(0,), shape=(TILE_COLS,), padding_mode=ct.PaddingMode.ZERO)
    b = ct.load(bias, index=(0,), shape=(TILE_COLS,), padding_mode=ct.PaddingMode.ZERO)
    y = _layer_body(t, w, b, eps, x.shape[1], TILE_COLS)
    ct.store(out, index=(block, 0), tile=ct.astype(y, out.dtype))


@ct.kernel(occupancy=OCCUPANCY, num_worker_warps=8)
def layer_persistent(x, weight, bias, out, eps, TILE_COLS: ct.Constant[int]):
    w = ct.load(weight, index=(0,), shape=(TILE_COLS,), padding_mode=ct.PaddingMode.ZERO)
    b = ct.load(bias, index=(0,), shape=(TILE_COLS,), padding_mode=ct.PaddingMode.ZERO)
    for row in range(ct.bid(0), x.shape[0], ct.num_blocks(0)):
        t = ct.load(x, index=(row, 0), shape=(1, TILE_COLS), padding_mode=ct.PaddingMode.ZERO)
        y = _layer_body(t, w, b, eps, x.shape[1], TILE_COLS)
        ct.store(out, index=(row, 0), tile=ct.astype(y, out.dtype))


def _programs(torch, catalog):
    """Per operator: (arrays and scalars, the PyTorch result, {variant: (kernel, grid, args)})."""
    dev, sms = "cuda", torch.cuda.get_device_properties(0).multi_processor_count
    persistent = (sms * OCCUPANCY, 1, 1)
    one_row = (ROWS, 1, 1)
    ops = {}
    x = torch.randn(ROWS, COLS, device=dev, dtype=torch.float16)
    out = torch.empty_like(x)
    ops["softmax"] = (x, out, torch.softmax(x.float(), dim=1), {
        "catalog": (catalog["softmax"].softmax, one_row, (x, out, COLS)),
        "no_tma": (softmax_no_tma, one_row, (x, out, COLS)),
        **{f"rows_{r}": (softmax_rows, (ROWS // r, 1, 1), (x, out, r, COLS)) for r in (2, 4)},
        "persistent": (softmax_persistent, persistent, (x, out, COLS)),
        "approx": (softmax_approx, one_row, (x, out, COLS)),
        "approx_ldg": (softmax_approx_ldg, one_row, (x, out, COLS)),
        "approx_persistent": (softmax_approx_persistent, persistent, (x, out, COLS))})
    eps = 1e-6
    x = torch.randn(ROWS, COLS, device=dev, dtype=torch.bfloat16)
    w = torch.randn(COLS, device=dev, dtype=torch.bfloat16)
    b = torch.randn(COLS, device=dev, dtype=torch.bfloat16)
    out = torch.empty_like(x)
    xf = x.float()
    ops["rms_norm"] = (x, out, xf * torch.rsqrt((xf * xf).mean(1, keepdim=True) + eps) * w.float(), {
        "catalog": (catalog["rms_norm"].rms_norm, one_row, (x, w, out, eps, COLS)),
        "no_tma": (rms_no_tma, one_row, (x, w, out, eps, COLS)),
        **{f"rows_{r}": (rms_rows, (ROWS // r, 1, 1), (x, w, out, eps, r, COLS))
           for r in (2, 4)},
        "persistent": (rms_persistent, persistent, (x, w, out, eps, COLS))})
    ops["layer_norm"] = (x, out, torch.nn.functional.layer_norm(xf, (COLS,), w.float(),
                                                                b.float(), eps), {
        "catalog": (catalog["layer_norm"].layer_norm, one_row, (x, w, b, out, eps, COLS)),
        "no_tma": (layer_no_tma, one_row, (x, w, b, out, eps, COLS)),
        **{f"rows_{r}": (layer_rows, (ROWS // r, 1, 1), (x, w, b, out, eps, r, COLS))
           for r in (2, 4)},
        "persistent": (layer_persistent, persistent, (x, w, b, out, eps, COLS))})
    return ops


def _time(torch, run, rounds=5, batch=50) -> float:
    """Median microseconds per launch over `rounds` event-timed batches (after a warm-up)."""
    for _ in range(5):
        run()
    times = []
    for _ in range(rounds):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        for _ in range(batch):
            run()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end) * 1e3 / batch)
    return statistics.median(times)


def measure(torch, catalog) -> list[dict]:
    stream = torch.cuda.current_stream()
    rows = []
    for op, (x, out, expected, variants) in _programs(torch, catalog).items():
        moved = 2 * x.numel() * x.element_size()
        copy_us = _time(torch, lambda: out.copy_(x))
        launches = {}
        for name, (kernel, grid, args) in variants.items():
            out.zero_()
            ct.launch(stream, grid, kernel, args)
            torch.cuda.synchronize()
            error = ((out.float() - expected).abs().max() / expected.abs().max()).item()
            ok = error < 2e-2
            launches[name] = (ok, error, lambda k=kernel, g=grid, a=args: ct.launch(stream, g, k, a))
        times = {name: [] for name, (ok, _, _) in launches.items() if ok}
        for _ in range(3):                   # alternating rounds: no side carries another's clock
            for name in times:
                times[name].append(_time(torch, launches[name][2]))
        catalog_us = statistics.median(times["catalog"]) if "catalog" in times else None
        for name, (ok, error, _) in launches.items():
            us = statistics.median(times[name]) if ok else None
            rows.append({"op": op, "program": name, "ok": ok, "rel_error": error, "us": us,
                         "copy_us": copy_us,
                         "pct_copy": None if us is None else 100 * copy_us / us,
                         "vs_catalog": None if us is None or not catalog_us else us / catalog_us,
                         "GBps": None if us is None else moved / us / 1e3})
    return rows


def print_table(rows: list[dict], device: str) -> None:
    print(f"device: {device}   shape [{ROWS}, {COLS}]")
    print(f"{'op':12s} {'program':18s} {'check':>14s} {'us':>8s} {'copy us':>8s} "
          f"{'% copy':>7s} {'/catalog':>8s}")
    for r in rows:
        check = f"ok {r['rel_error']:.1e}" if r["ok"] else f"FAIL {r['rel_error']:.1e}"
        us = "-" if r["us"] is None else f"{r['us']:.1f}"
        pct = "-" if r["pct_copy"] is None else f"{r['pct_copy']:.0f}%"
        ratio = "-" if r["vs_catalog"] is None else f"{r['vs_catalog']:.3f}"
        print(f"{r['op']:12s} {r['program']:18s} {check:>14s} {us:>8s} {r['copy_us']:>8.1f} "
              f"{pct:>7s} {ratio:>8s}")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--json", help="also write the rows here")
    args = parser.parse_args(argv)
    import torch
    if not torch.cuda.is_available():
        print("skipped: no CUDA GPU here (this bench times kernels on one)")
        return 3
    sys.path.insert(0, "kernels_src")
    import importlib
    catalog = {op: importlib.import_module(f"{op}.kernel")
               for op in ("softmax", "rms_norm", "layer_norm")}
    rows = measure(torch, catalog)
    device = torch.cuda.get_device_name(0)
    print_table(rows, device)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"device": device, "rows": rows}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
