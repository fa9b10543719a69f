"""How tilegym.ops.cutile.gemma_attention_decode launches its two kernels
(_GemmaAttentionDecodeFunction.forward with kv_len_per_split None): the same splits as
flash_decode (BLOCK_N 128, from the SM count), every size a constant, SOFT_CAP 0.0 and
HAS_SOFT_CAP false without a cap; then splitk_reduce into out."""
import math

from workbench.argspec import ArgSpec
from workbench.launchrules import TEMP, Launch, Tensor, cdiv, next_power_of_2, scalar
from workbench.tilegym_catalog import family_launch

BLOCK_N = 128


def splits(p, num_sm: int = 132) -> tuple[int, int]:
    """(KV_LEN_PER_SPLIT, NUM_KV_SPLITS) as the launcher picks them."""
    batch, kv_heads, seq, _ = p["k"].shape
    wanted = max(1, num_sm // (batch * kv_heads))
    per_split = max(BLOCK_N, next_power_of_2(cdiv(seq, wanted)))
    return per_split, cdiv(seq, per_split)


def outputs(p):
    batch, heads, _, dim = p["q"].shape
    count = splits(p)[1]
    return {"out": p["q"].spec,
            "mid": Tensor("mid", ArgSpec(p["q"].dtype, shape=(batch, heads, count, dim)), TEMP),
            "lse": Tensor("lse", ArgSpec("f32", shape=(batch, heads, count)), TEMP)}


def launch(kernel, r, p, num_sm):
    batch, heads, _, dim = p["q"].shape
    _, kv_heads, seq, _ = p["k"].shape
    per_split, count = splits(p)           # the tensors' shapes fix the split count
    group = heads // kv_heads
    if kernel == "_splitk_reduce_kernel":
        return family_launch("splitk_reduce").reduce_launch(r, "mid", "lse", "out", seq)
    if kernel != "_gemma_attention_decode_kernel_grouped":
        return None
    scale = float(p.option("sm_scale", 1.0 / math.sqrt(dim)))
    cap = float(p.option("soft_cap", 0.0))
    args = [r.view("q", (batch, kv_heads, group, dim)), r.view("k"), r.view("v"),
            r.view("mid", (batch, kv_heads, group, count, dim)),
            r.view("lse", (batch, kv_heads, group, count)), scalar("f32", scale)]
    consts = {"B": batch, "H_QO": heads, "H_KV": kv_heads, "S_KV": seq, "KV_LEN_PER_SPLIT": per_split,
              "HEAD_DIM": next_power_of_2(dim), "BLOCK_N": BLOCK_N, "NUM_Q_HEAD_PER_KV": group,
              "QUERY_GROUP_BLOCK_SIZE": max(8, next_power_of_2(group)), "NUM_KV_SPLITS": count,
              "WINDOW_SIZE": int(p.option("window", 0)), "SOFT_CAP": cap, "HAS_SOFT_CAP": cap != 0.0}
    return Launch(args, consts, (batch, kv_heads, count))
