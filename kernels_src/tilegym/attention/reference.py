"""fmha in float64: softmax(q k^T * scale) v per head (k, v shared by each group of query
heads), causal with the queries at the end of the keys (input_pos = k_len - q_len); the
PyTorch operation is scaled_dot_product_attention, as TileGym's tests time it."""
import math

from workbench.refmath import over_query_blocks


def _scale(t, options):
    return float(options.get("sm_scale", 1.0 / math.sqrt(t["q"].shape[-1])))


def reference(t, torch, options):
    q, k, v = (t[n].double() for n in ("q", "k", "v"))
    groups = q.shape[1] // k.shape[1]
    k, v = k.repeat_interleave(groups, 1), v.repeat_interleave(groups, 1)
    q_len, k_len = q.shape[2], k.shape[2]

    def attend(block, first):
        logits = torch.einsum("bhqd,bhkd->bhqk", block, k) * _scale(t, options)
        if options.get("causal"):
            pos = torch.arange(block.shape[2], device=q.device)[:, None] + first + (k_len - q_len)
            logits = logits.masked_fill(torch.arange(k_len, device=q.device)[None, :] > pos,
                                        float("-inf"))
        return torch.einsum("bhqk,bhkd->bhqd", torch.softmax(logits, -1), v)
    return {"out": over_query_blocks(attend, q, k_len, torch)}


def torch_op(t, torch, options):
    q, k, v = t["q"], t["k"], t["v"]
    return torch.nn.functional.scaled_dot_product_attention(
        q, k, v, is_causal=bool(options.get("causal")), scale=_scale(t, options),
        enable_gqa=q.shape[1] != k.shape[1])


def flops(t, options):
    """4 * head_dim per visible (query, key) pair and head (causal: the lower triangle)."""
    batch, heads, q_len, dim = t["q"].shape
    k_len = t["k"].shape[2]
    if not options.get("causal"):
        return 4 * batch * heads * dim * q_len * k_len
    pairs = sum(min(k_len, i + (k_len - q_len) + 1) for i in range(q_len))
    return 4 * batch * heads * dim * pairs
