"""How tilegym.ops.cutile.splitk_reduce launches _splitk_reduce_kernel (splitk_reduce): the
decode kernels' partial results [B, H, SPLITS, D] and log2-sum-exps [B, H, SPLITS] reduced
to [B, H, D]; one block per (batch, head, TILE_D columns), TILE_D = min(128, pow2(D)), and
USE_DOT (the mma path) once pow2(SPLITS) >= 16 (the threshold on sm_90 and newer). S_KV is
the sequence length the launcher passes along (the kernel does not read it). The kernel's
own hint stands: occupancy 4 (ByTarget default; 2 on sm_80)."""
from workbench.launchrules import Launch, cdiv, next_power_of_2

DOT_THRESHOLD = 16          # _dot_threshold on compute capability >= 9


def outputs(p):
    attn = p["attn_splitk_out"]
    b, h, _, d = attn.shape
    return {"attn_out": attn.spec.__class__(attn.dtype, shape=(b, h, d))}


def launch(kernel, r, p, num_sm):
    if kernel != "_splitk_reduce_kernel":
        return None
    b, h, splits, d = p["attn_splitk_out"].shape
    tile_d = min(128, next_power_of_2(d))
    splits_pow2 = next_power_of_2(splits)
    consts = {"B": b, "S_KV": int(p.option("S_kv")), "NUM_HEADS": h, "HEAD_DIM": d,
              "NUM_KV_SPLITS": splits, "NUM_KV_SPLITS_POW2": splits_pow2, "TILE_D": tile_d,
              "USE_DOT": splits_pow2 >= DOT_THRESHOLD}
    args = [r.view("attn_splitk_out"), r.view("lse_splitk_out"), r.view("attn_out")]
    return Launch(args, consts, (b, h, cdiv(d, tile_d)))
