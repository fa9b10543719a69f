"""Gemma decode attention in float64: one query per head at position S_kv - 1, logits scaled,
soft-capped (cap * tanh(x / cap)), keys older than query - window hidden; the PyTorch
operation is the same computation in float32 (TileGym's test reference is an eager one)."""
import math


def _attend(t, torch, options, cast):
    q, k, v = (cast(t[n]) for n in ("q", "k", "v"))
    groups = q.shape[1] // k.shape[1]
    k, v = k.repeat_interleave(groups, 1), v.repeat_interleave(groups, 1)
    logits = torch.einsum("bhqd,bhkd->bhqk", q, k) * float(options.get("sm_scale", 1.0 / math.sqrt(q.shape[-1])))
    cap = float(options.get("soft_cap", 0.0))
    if cap:
        logits = torch.tanh(logits / cap) * cap
    window, seq = int(options.get("window", 0)), k.shape[2]
    if window:
        keys = torch.arange(seq, device=q.device)
        logits = logits.masked_fill(keys < (seq - 1 - window), float("-inf"))
    return torch.einsum("bhqk,bhkd->bhqd", torch.softmax(logits, -1), v)


def reference(t, torch, options):
    return {"out": _attend(t, torch, options, lambda x: x.double())}


def torch_op(t, torch, options):
    return _attend(t, torch, options, lambda x: x.float()).to(t["q"].dtype)
