"""How tilegym.ops.cutile.mla launches _prefill_mla_kernel (tile_mla -> _cutile_autotune_mla):
q, qpe, k, kpe, v, out as [batch, heads, seq, dim]; H a runtime integer; QUERY_GROUP_SIZE 0
when the heads are not grouped, else heads / kv_heads; scale 1 / sqrt(d + d_pe). With
autotuning off it takes the first sm_90 configuration: TILE_M = TILE_N = 64, num_ctas 1,
occupancy 1. `candidates`: four of the autotuner's ten configurations (each is a compile of
the kernel on every side)."""
import math

from workbench.launchrules import Launch, cdiv, scalar

# (TILE_M, TILE_N, occupancy) from _mla_sm90_autotune_configs; the first is the default
CONFIGS = ((64, 64, 1), (128, 128, 1), (128, 64, 2), (128, 128, 2))


def outputs(p):
    return {"out": p["q"].spec}


def launch(kernel, r, p, num_sm):
    if kernel != "_prefill_mla_kernel":
        return None
    batch, heads, s_qo, dim = p["q"].shape
    kv_heads, d_pe = p["k"].shape[1], p["qpe"].shape[3]
    group = 0 if heads == kv_heads else heads // kv_heads
    scale = float(p.option("sm_scale", 1.0 / math.sqrt(dim + d_pe)))
    args = [r.view("q"), r.view("qpe"), r.view("k"), r.view("kpe"), r.view("v"), r.view("out"),
            scalar("f32", scale), scalar("i32", heads)]

    def config(tile_m, tile_n, occupancy):
        consts = {"TILE_D": dim, "TILE_KPE": d_pe, "TILE_M": tile_m, "TILE_N": tile_n,
                  "QUERY_GROUP_SIZE": group}
        return Launch(args, consts, (cdiv(s_qo, tile_m), batch * heads, 1),
                      {"num_ctas": 1, "occupancy": occupancy})

    tried = [config(*c) for c in CONFIGS]
    return Launch(tried[0].args, tried[0].consts, tried[0].grid, tried[0].hints, candidates=tried)
