"""How tilegym.ops.cutile.attention_sink_decode launches its two kernels
(_AttentionSinkDecodeFunction.forward with kv_len_per_split None): NUM_SM // (batch *
kv_heads) splits wanted (no lower bound of 1 here), each a power of two of at least BLOCK_N =
128 keys; q viewed as [batch, kv_heads, group, head_dim]; the sinks gathered per query head;
start_q a one-element i32 tensor; then splitk_reduce into out."""
import math

from workbench.argspec import ArgSpec
from workbench.launchrules import IN, TEMP, Launch, Tensor, cdiv, next_power_of_2, scalar
from workbench.tilegym_catalog import family_launch

BLOCK_N = 128


def splits(p, num_sm: int = 132) -> tuple[int, int]:
    batch, kv_heads, seq, _ = p["k"].shape
    wanted = num_sm // (batch * kv_heads)
    per_split = max(BLOCK_N, next_power_of_2(cdiv(seq, wanted)))
    return per_split, cdiv(seq, per_split)


def outputs(p):
    batch, heads, dim = p["q"].shape
    count = splits(p)[1]
    return {"out": p["q"].spec,
            "start_q": Tensor("start_q", ArgSpec("i32", shape=(1,)), IN, fill="start_q"),
            "mid": Tensor("mid", ArgSpec(p["q"].dtype, shape=(batch, heads, count, dim)), TEMP),
            "lse": Tensor("lse", ArgSpec("f32", shape=(batch, heads, count)), TEMP)}


def fill(t, p, made, torch):
    """start_q: the query's position in the cache (the case's option, else the last key)."""
    start = int(p.option("start_q", p["k"].shape[2] - 1))
    return torch.full(t.shape, start, dtype=torch.int32, device="cuda")


def launch(kernel, r, p, num_sm):
    batch, heads, dim = p["q"].shape
    _, kv_heads, seq, _ = p["k"].shape
    per_split, count = splits(p)            # the tensors' shapes fix the split count
    group = heads // kv_heads
    if kernel == "_splitk_reduce_kernel":
        return family_launch("splitk_reduce").reduce_launch(r, "mid", "lse", "out", seq)
    if kernel != "_attention_sink_decode_kernel":
        return None
    scale = float(p.option("sm_scale", 1.0 / math.sqrt(dim)))
    ints = [heads * count * dim, count * dim, dim, heads * count, count, batch, heads, kv_heads, seq]
    args = [r.view("q", (batch, kv_heads, group, dim)), r.view("k"), r.view("v"), r.view("sinks"),
            r.view("mid", (batch, kv_heads, group, count, dim)),
            r.view("lse", (batch, kv_heads, group, count)), r.view("start_q"), scalar("f32", scale)]
    args += [scalar("i32", v) for v in ints]
    consts = {"KV_LEN_PER_SPLIT": per_split, "HEAD_DIM": next_power_of_2(dim), "BLOCK_N": BLOCK_N,
              "NUM_Q_HEAD_PER_KV": group, "QUERY_GROUP_BLOCK_SIZE": max(8, next_power_of_2(group)),
              "NUM_KV_SPLITS": count, "BANDWIDTH": int(p.option("window", 0)), "HAS_SINKS": True}
    return Launch(args, consts, (batch, kv_heads, count))
