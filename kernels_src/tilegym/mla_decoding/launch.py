"""How tilegym.ops.cutile.mla_decoding launches _naive_absorb_mla_transpose_kernel
(mla_decoding -> _MlaDecodingFunction.forward): K and V are both the latent cache kv; TILE_H
16 and TILE_N 64 (_select_tile_config below sm_100); grid (cdiv(heads, TILE_H), batch);
EVEN_N when the keys fill whole TILE_N tiles; scale 1 / sqrt(512 + 64)."""
import math

from workbench.argspec import ArgSpec
from workbench.launchrules import Launch, cdiv, scalar

TILE_H, TILE_N = 16, 64


def outputs(p):
    batch, heads, _ = p["q"].shape
    return {"out": p["q"].spec, "lse": ArgSpec("f32", shape=(batch, heads))}


def launch(kernel, r, p, num_sm):
    if kernel != "_naive_absorb_mla_transpose_kernel":
        return None
    batch, heads, dim = p["q"].shape
    d_pe, s_kv = p["qpe"].shape[2], p["kv"].shape[1]
    scale = float(p.option("sm_scale", 1.0 / math.sqrt(dim + d_pe)))
    args = [r.view("q"), r.view("qpe"), r.view("kv"), r.view("kv"), r.view("kpe"), r.view("out"),
            r.view("lse"), scalar("f32", scale)]
    consts = {"TILE_D": dim, "TILE_H": TILE_H, "TILE_N": TILE_N, "TILE_KPE": d_pe, "S_KV": s_kv,
              "EVEN_N": s_kv % TILE_N == 0}
    return Launch(args, consts, (cdiv(heads, TILE_H), batch, 1))
