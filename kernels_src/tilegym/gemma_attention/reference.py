"""Gemma attention in float64 (test_gemma_attention.py's einsum_reference): logits scaled,
soft-capped (cap * tanh(x / cap)) before masking, hidden where causal (key after query) or
outside the two-sided window |key - query| > window; the PyTorch operation is that
reference in the inputs' dtype, as TileGym's perf test times it."""
import math

from workbench.refmath import over_query_blocks


def _attend(q, k, v, options, torch, float_dtype):
    groups = q.shape[1] // k.shape[1]
    k, v = k.repeat_interleave(groups, 1), v.repeat_interleave(groups, 1)
    return over_query_blocks(lambda block, first: _attend_block(block, first, k, v, options, torch,
                                                                float_dtype), q, k.shape[2], torch)


def _attend_block(q, first, k, v, options, torch, float_dtype):
    """Queries first.. of the sequence against every key (k, v already one per query head)."""
    scale = float(options.get("sm_scale", 1.0 / math.sqrt(q.shape[-1])))
    logits = torch.einsum("bhqd,bhkd->bhqk", q, k) * scale
    cap = float(options.get("soft_cap", 0.0))
    if cap:
        logits = torch.tanh(logits / cap) * cap
    s_q, s_kv = q.shape[2], k.shape[2]
    rows = torch.arange(s_q, device=q.device)[:, None] + first
    cols = torch.arange(s_kv, device=q.device)[None, :]
    hidden = torch.zeros((s_q, s_kv), dtype=torch.bool, device=q.device)
    if options.get("causal"):
        hidden |= cols > rows
    if options.get("window", 0):
        hidden |= (cols - rows).abs() > int(options["window"])
    logits = logits.masked_fill(hidden, float("-inf"))
    weights = torch.softmax(logits, dim=-1, dtype=float_dtype).to(v.dtype)
    return torch.einsum("bhqk,bhkd->bhqd", weights, v)


def reference(t, torch, options):
    q, k, v = (t[n].double() for n in ("q", "k", "v"))
    return {"out": _attend(q, k, v, options, torch, torch.float64)}


def torch_op(t, torch, options):
    return _attend(t["q"], t["k"], t["v"], options, torch, torch.float32)


def flops(t, options):
    """4 * head_dim per visible (query, key) pair and head."""
    batch, heads, s_q, dim = t["q"].shape
    s_kv, window = t["k"].shape[2], int(options.get("window", 0))
    pairs = 0
    for i in range(s_q):
        last = min(s_kv - 1, i) if options.get("causal") else s_kv - 1
        first = max(0, i - window) if window else 0
        if window and not options.get("causal"):
            last = min(s_kv - 1, i + window)
        pairs += max(0, last - first + 1)
    return 4 * batch * heads * dim * pairs
