"""How tilegym.ops.cutile.gemma_attention launches _gemma_fmha_kernel (gemma_attention_cutile,
use_autotune=False, its default): q, k, v, out as [batch, heads, seq, head_dim]; BLOCK_D the
head dim rounded up to a power of two; the first configuration of _gemma_fmha_configs (128 x
128 for BLOCK_D <= 128, 64 x 32 above); STAGE 3 for causal (off-diagonal, then diagonal
tiles), 1 otherwise or for one query; EVEN_K when the keys fill whole BLOCK_N tiles; the
kernel's own hint (occupancy 2)."""
import math

from workbench.launchrules import Launch, cdiv, next_power_of_2, scalar


def outputs(p):
    return {"out": p["q"].spec}


def launch(kernel, r, p, num_sm):
    if kernel != "_gemma_fmha_kernel":
        return None
    batch, heads, s_qo, dim = p["q"].shape
    kv_heads, s_kv = p["k"].shape[1], p["k"].shape[2]
    block_d = next_power_of_2(dim)
    block_m, block_n = (128, 128) if block_d <= 128 else (64, 32)
    stage = 1 if s_qo == 1 else 3 if p.option("causal") else 1
    soft_cap = float(p.option("soft_cap", 0.0))
    args = [r.view("q"), r.view("k"), r.view("v"), r.view("out"),
            scalar("f32", float(p.option("sm_scale", 1.0 / math.sqrt(dim))))]
    consts = {"B": batch, "H": heads, "S_QO": s_qo, "S_KV": s_kv, "BLOCK_D": block_d,
              "BLOCK_M": block_m, "BLOCK_N": block_n, "QUERY_GROUP_SIZE": heads // kv_heads,
              "STAGE": stage, "WINDOW_SIZE": int(p.option("window", 0)), "SOFT_CAP": soft_cap,
              "HAS_SOFT_CAP": soft_cap != 0.0, "EVEN_K": s_kv % block_n == 0}
    return Launch(args, consts, (cdiv(s_qo, block_m), batch * heads, 1))
