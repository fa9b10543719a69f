"""Decode attention in float64: one query per head, softmax(q k^T * scale) v with k and v
shared by each group of query heads; the PyTorch operation is scaled_dot_product_attention
with enable_gqa, as TileGym's test uses it."""
import math


def _scale(t, options):
    return float(options.get("sm_scale", 1.0 / math.sqrt(t["q"].shape[-1])))


def reference(t, torch, options):
    q, k, v = (t[n].double() for n in ("q", "k", "v"))
    groups = q.shape[1] // k.shape[1]
    k, v = k.repeat_interleave(groups, 1), v.repeat_interleave(groups, 1)
    weights = torch.softmax(torch.einsum("bhqd,bhkd->bhqk", q, k) * _scale(t, options), -1)
    return {"out": torch.einsum("bhqk,bhkd->bhqd", weights, v)}


def torch_op(t, torch, options):
    return torch.nn.functional.scaled_dot_product_attention(
        t["q"], t["k"], t["v"], scale=_scale(t, options), enable_gqa=True)
