"""How tilegym.ops.cutile.mla_decoding_split_kv launches its two kernels
(_MlaDecodingSplitKvFunction.forward): TILE_H 16, TILE_N 128; kv_len_per_split as given, else
next_power_of_2(S_kv // max(1, NUM_SM // batch)), at least TILE_N; the latent cache kv is
both K and V; the partial outputs [batch, heads, splits, 512] and lse [batch, heads, splits]
then go through splitk_reduce into out."""
import math

from workbench.argspec import ArgSpec
from workbench.launchrules import TEMP, Launch, Tensor, cdiv, next_power_of_2, scalar
from workbench.tilegym_catalog import family_launch

TILE_H, TILE_N = 16, 128


def splits(p, num_sm: int = 132) -> tuple[int, int]:
    batch, s_kv = p["kv"].shape[0], p["kv"].shape[1]
    per_split = int(p.option("kv_len_per_split", 0)) or \
        max(next_power_of_2(s_kv // max(1, num_sm // batch)), TILE_N)
    return per_split, cdiv(s_kv, per_split)


def outputs(p):
    batch, heads, dim = p["q"].shape
    count = splits(p)[1]
    return {"out": p["q"].spec,
            "mid": Tensor("mid", ArgSpec(p["q"].dtype, shape=(batch, heads, count, dim)), TEMP),
            "lse": Tensor("lse", ArgSpec("f32", shape=(batch, heads, count)), TEMP)}


def launch(kernel, r, p, num_sm):
    batch, heads, dim = p["q"].shape
    d_pe, s_kv = p["qpe"].shape[2], p["kv"].shape[1]
    per_split, count = splits(p)            # the tensors' shapes fix the split count
    if kernel == "_splitk_reduce_kernel":
        return family_launch("splitk_reduce").reduce_launch(r, "mid", "lse", "out", s_kv)
    if kernel != "_naive_absorb_mla_transpose_kernel":
        return None
    scale = float(p.option("sm_scale", 1.0 / math.sqrt(dim + d_pe)))
    args = [r.view("q"), r.view("qpe"), r.view("kv"), r.view("kv"), r.view("kpe"), r.view("mid"),
            r.view("lse"), scalar("f32", scale), scalar("i32", batch), scalar("i32", heads),
            scalar("i32", s_kv)]
    consts = {"NUM_KV_SPLITS": count, "KV_LEN_PER_SPLIT": per_split, "TILE_D": dim, "TILE_H": TILE_H,
              "TILE_N": TILE_N, "TILE_KPE": d_pe, "EVEN_N": s_kv % TILE_N == 0}
    return Launch(args, consts, (cdiv(heads, TILE_H), batch, count))
