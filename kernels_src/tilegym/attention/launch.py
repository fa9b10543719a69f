"""How tilegym.ops.cutile.attention launches _fmha_kernel (tile_fmha -> _tile_prefill_fmha ->
_cutile_autotune_fmha): q, k, v, out as [batch, heads, seq, head_dim]; input_pos = k_len -
q_len; EVEN_K when the keys are a multiple of the largest TILE_N (128). With autotuning off
it takes the first sm_90 configuration: TILE_M 256, TILE_N 128, num_ctas 1, occupancy 1
(cached_replace_hints). `candidates` are the autotuner's four configurations."""
import math

from workbench.launchrules import Launch, cdiv, scalar

# _fmha_autotune_configs on sm_90: (TILE_M, TILE_N, num_ctas, occupancy)
CONFIGS = ((256, 128, 1, 1), (128, 128, 1, 2), (256, 128, 1, 2), (256, 128, 2, 2))


def outputs(p):
    return {"out": p["q"].spec}


def launch(kernel, r, p, num_sm):
    if kernel != "_fmha_kernel":
        return None
    batch, heads, q_len, dim = p["q"].shape
    kv_heads, k_len = p["k"].shape[1], p["k"].shape[2]
    scale = float(p.option("sm_scale", 1.0 / math.sqrt(dim)))
    args = [r.view("q"), r.view("k"), r.view("v"), r.view("out"), scalar("f32", scale),
            scalar("i32", k_len - q_len)]
    even_k = k_len % max(c[1] for c in CONFIGS) == 0

    def config(tile_m, tile_n, ctas, occupancy):
        consts = {"TILE_D": dim, "H": heads, "TILE_M": tile_m, "TILE_N": tile_n,
                  "QUERY_GROUP_SIZE": heads // kv_heads, "CAUSAL": bool(p.option("causal")),
                  "EVEN_K": even_k}
        return Launch(args, consts, (cdiv(q_len, tile_m), batch * heads, 1),
                      {"num_ctas": ctas, "occupancy": occupancy})

    tried = [config(*c) for c in CONFIGS]
    first = tried[0]
    return Launch(first.args, first.consts, first.grid, first.hints, candidates=tried)
