"""How tilegym.ops.cutile.attention_sink launches _attention_sink_kernel (attention_sink with
autotuning off): q, k, v and out as [batch, heads, seq, head_dim], start_q a one-element i32
tensor, TILE_M = TILE_N = 128, grid (cdiv(seq, TILE_M), batch * heads), the kernel's own
hint (occupancy 2). The autotuner's configurations are not tried: each is another compile
of a large kernel on every side."""
from workbench.launchrules import IN, Launch, Tensor, cdiv, scalar
from workbench.argspec import ArgSpec

TILE_M = TILE_N = 128


def outputs(p):
    return {"out": p["q"].spec,
            "start_q": Tensor("start_q", ArgSpec("i32", shape=(1,)), IN, fill="start_q")}


def fill(t, p, made, torch):
    """start_q: the position of the first query (the case's option)."""
    return torch.full(t.shape, int(p.option("start_q", 0)), dtype=torch.int32, device="cuda")


def launch(kernel, r, p, num_sm):
    if kernel != "_attention_sink_kernel":
        return None
    batch, heads, seq, dim = p["q"].shape
    kv_heads, kv_seq = p["k"].shape[1], p["k"].shape[2]
    args = [r.view("q"), r.view("k"), r.view("v"), r.view("sinks"), r.view("out"),
            r.view("start_q"), scalar("f32", float(p.option("sm_scale", 0.125)))]
    consts = {"TILE_D": dim, "H": heads, "N_KV_CTX": kv_seq, "TILE_M": TILE_M, "TILE_N": TILE_N,
              "QUERY_GROUP_SIZE": heads // kv_heads, "BANDWIDTH": int(p.option("window", 0))}
    return Launch(args, consts, (cdiv(seq, TILE_M), batch * heads, 1))
