"""How tilegym.ops.cutile.splitk_reduce launches _splitk_reduce_kernel: TILE_D = min(128,
next_power_of_2(head_dim)), the splits rounded up to a power of two, USE_DOT from 16 of them
(sm_90), grid (batch, heads, cdiv(head_dim, TILE_D)); the kernel's own hint (occupancy 4 on
sm_90). `reduce_launch` is the same rule for any problem's tensors: the split-KV decode
families call it for the second step of their chain."""
from workbench.argspec import ArgSpec
from workbench.launchrules import IN, Launch, Tensor, cdiv, next_power_of_2

DOT_FROM = 16          # _dot_threshold for capability >= 9


def outputs(p):
    batch, heads, _, dim = p["mid"].shape
    return {"lse": Tensor("lse", p["lse"].spec, IN, fill="lse"),
            "out": ArgSpec(p["mid"].dtype, shape=(batch, heads, dim))}


def fill(t, p, made, torch):
    """lse values in the range TileGym's test uses (randn * 2 + 5)."""
    return torch.randn(t.shape, dtype=torch.float32, device="cuda") * 2.0 + 5.0


def reduce_launch(r, mid: str, lse: str, out: str, s_kv: int, shape=None) -> Launch:
    """The launch of _splitk_reduce_kernel over problem tensors `mid` (viewed as `shape`, the
    [batch, heads, splits, head_dim] a decode kernel wrote), `lse` and `out`."""
    shape = tuple(shape or r.problem[mid].shape)
    batch, heads, splits, dim = shape
    tile_d = min(128, next_power_of_2(dim))
    pow2 = next_power_of_2(splits)
    args = [r.view(mid, shape), r.view(lse, (batch, heads, splits)), r.view(out, (batch, heads, dim))]
    consts = {"B": batch, "S_KV": s_kv, "NUM_HEADS": heads, "HEAD_DIM": dim,
              "NUM_KV_SPLITS": splits, "NUM_KV_SPLITS_POW2": pow2, "TILE_D": tile_d,
              "USE_DOT": pow2 >= DOT_FROM}
    return Launch(args, consts, (batch, heads, cdiv(dim, tile_d)))


def launch(kernel, r, p, num_sm):
    if kernel != "_splitk_reduce_kernel":
        return None
    return reduce_launch(r, "mid", "lse", "out", int(p.option("s_kv", 0)))
