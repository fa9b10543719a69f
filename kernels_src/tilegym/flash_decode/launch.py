"""How tilegym.ops.cutile.flash_decode launches its two kernels (_AttentionDecodeFunction.
forward with kv_len_per_split None): NUM_KV_SPLITS from the SM count (max(1, NUM_SM //
(batch * kv_heads)) wanted, each split a power of two of at least TILE_N = 128 keys), q
viewed as [batch, kv_heads, group, head_dim], the partial outputs and lse written through
[batch, kv_heads, group, splits, ...] views of [batch, heads, splits, ...]; then
splitk_reduce (splitk_reduce/launch.py) into out."""
import math

from workbench.argspec import ArgSpec
from workbench.launchrules import TEMP, Launch, Tensor, cdiv, next_power_of_2, scalar
from workbench.tilegym_catalog import family_launch

TILE_N = 128


def splits(p, num_sm: int) -> tuple[int, int]:
    """(KV_LEN_PER_SPLIT, NUM_KV_SPLITS) as the launcher picks them."""
    batch, kv_heads, seq, _ = p["k"].shape
    wanted = max(1, num_sm // (batch * kv_heads))
    per_split = max(TILE_N, next_power_of_2(cdiv(seq, wanted)))
    return per_split, cdiv(seq, per_split)


def outputs(p, num_sm: int = 132):
    batch, heads, _, dim = p["q"].shape
    count = splits(p, num_sm)[1]
    return {"out": p["q"].spec,
            "mid": Tensor("mid", ArgSpec(p["q"].dtype, shape=(batch, heads, count, dim)), TEMP),
            "lse": Tensor("lse", ArgSpec("f32", shape=(batch, heads, count)), TEMP)}


def launch(kernel, r, p, num_sm):
    batch, heads, _, dim = p["q"].shape
    _, kv_heads, seq, _ = p["k"].shape
    per_split, count = splits(p, 132)       # the tensors' shapes fix the split count
    group = heads // kv_heads
    if kernel == "_splitk_reduce_kernel":
        return family_launch("splitk_reduce").reduce_launch(r, "mid", "lse", "out", seq)
    if kernel != "_attention_decode_kernel_grouped":
        return None
    scale = float(p.option("sm_scale", 1.0 / math.sqrt(dim)))
    ints = [heads * count * dim, count * dim, dim, heads * count, count, batch, heads, kv_heads, seq]
    args = [r.view("q", (batch, kv_heads, group, dim)), r.view("k"), r.view("v"),
            r.view("mid", (batch, kv_heads, group, count, dim)),
            r.view("lse", (batch, kv_heads, group, count)), scalar("f32", scale)]
    args += [scalar("i32", v) for v in ints]
    consts = {"HEAD_DIM": next_power_of_2(dim), "TILE_N": TILE_N, "KV_LEN_PER_SPLIT": per_split,
              "NUM_Q_HEAD_PER_KV": group, "QUERY_GROUP_TILE_SIZE": max(8, next_power_of_2(group)),
              "NUM_KV_SPLITS": count}
    return Launch(args, consts, (batch, kv_heads, count))
