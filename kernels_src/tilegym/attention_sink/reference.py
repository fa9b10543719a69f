"""attention_sink in float64 (test_attention_sink.py's reference, in the kernel's layout): each
head's softmax over its visible keys and its sink logit, which takes probability but adds no
value. Keys after the query's position (start_q + i) or older than the window are hidden.
`options` are the case's (sm_scale, start_q, window)."""
from workbench.refmath import over_query_blocks


def mask(s_q, s_kv, start, window, device, torch):
    keys = torch.arange(s_kv, device=device)
    queries = torch.arange(s_q, device=device) + start
    hidden = keys[None, :] > queries[:, None]
    if window:
        hidden |= keys[None, :] < (queries[:, None] - window + 1)
    return hidden


def attend_all(q, k, v, sinks, hidden, scale, torch):
    groups = q.shape[1] // k.shape[1]
    k, v = k.repeat_interleave(groups, 1), v.repeat_interleave(groups, 1)
    logits = torch.einsum("bhqd,bhkd->bhqk", q, k) * scale
    logits = logits.masked_fill(hidden, float("-inf"))
    sink = sinks.view(1, -1, 1, 1)
    top = torch.maximum(logits.amax(-1, keepdim=True), sink)
    weights = torch.exp(logits - top)
    weights = weights / (weights.sum(-1, keepdim=True) + torch.exp(sink - top))
    return torch.einsum("bhqk,bhkd->bhqd", weights, v)


def _run(t, torch, options, cast):
    q, k, v = (cast(t[n]) for n in ("q", "k", "v"))
    start, window = int(options.get("start_q", 0)), int(options.get("window", 0))
    scale, sinks = float(options.get("sm_scale", 0.125)), cast(t["sinks"])

    def attend(block, first):
        hidden = mask(block.shape[2], k.shape[2], start + first, window, q.device, torch)
        return attend_all(block, k, v, sinks, hidden, scale, torch)
    return over_query_blocks(attend, q, k.shape[2], torch)


def reference(t, torch, options):
    return {"out": _run(t, torch, options, lambda x: x.double())}


def torch_op(t, torch, options):
    """What TileGym's perf test times as the PyTorch backend: its reference, in float32."""
    return _run(t, torch, options, lambda x: x.float())


def flops(t, options):
    """4 * head_dim multiply-adds per visible (query, key) pair and head."""
    batch, heads, s_q, dim = t["q"].shape
    s_kv, start, window = t["k"].shape[2], int(options.get("start_q", 0)), int(options.get("window", 0))
    pairs = 0
    for i in range(s_q):
        last = min(s_kv - 1, start + i)
        first = max(0, start + i - window + 1) if window else 0
        pairs += max(0, last - first + 1)
    return 4 * batch * heads * dim * pairs
