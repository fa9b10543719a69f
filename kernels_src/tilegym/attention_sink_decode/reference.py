"""Decode attention with sinks in float64: one query per head at position start_q, keys after
it hidden (and, with a window, those older than start_q - window + 1); the head's sink logit
takes probability but adds no value. The PyTorch operation is the same computation in
float32."""
import math


def _attend(t, torch, options, cast):
    q, k, v, sinks = (cast(t[n]) for n in ("q", "k", "v", "sinks"))
    groups = q.shape[1] // k.shape[1]
    k, v = k.repeat_interleave(groups, 1), v.repeat_interleave(groups, 1)
    seq = k.shape[2]
    start, window = int(options.get("start_q", seq - 1)), int(options.get("window", 0))
    logits = torch.einsum("bhd,bhkd->bhk", q, k) * float(options.get("sm_scale", 1.0 / math.sqrt(q.shape[-1])))
    keys = torch.arange(seq, device=q.device)
    hidden = keys > start
    if window:
        hidden |= keys < start - window + 1
    logits = logits.masked_fill(hidden, float("-inf"))
    sink = sinks.view(1, -1, 1)
    top = torch.maximum(logits.amax(-1, keepdim=True), sink)
    weights = torch.exp(logits - top)
    weights = weights / (weights.sum(-1, keepdim=True) + torch.exp(sink - top))
    return torch.einsum("bhk,bhkd->bhd", weights, v)


def reference(t, torch, options):
    return {"out": _attend(t, torch, options, lambda x: x.double())}


def torch_op(t, torch, options):
    return _attend(t, torch, options, lambda x: x.float()).to(t["q"].dtype)
