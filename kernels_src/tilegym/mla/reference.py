"""MLA prefill in float64: causal softmax((q k^T + q_pe k_pe^T) * scale) v per head, k and v
shared by each group of query heads, k_pe by every head; the PyTorch operation is
test_mla.py's reference (half-precision matmuls, a float32 softmax)."""
import math


def _scale(t, options):
    return float(options.get("sm_scale", 1.0 / math.sqrt(t["q"].shape[-1] + t["qpe"].shape[-1])))


def _attend(t, torch, options, cast, soft_dtype):
    q, qpe, k, kpe, v = (cast(t[n]) for n in ("q", "qpe", "k", "kpe", "v"))
    groups = q.shape[1] // k.shape[1]
    k, v = k.repeat_interleave(groups, 1), v.repeat_interleave(groups, 1)
    logits = (torch.matmul(q, k.transpose(2, 3)) + torch.matmul(qpe, kpe.transpose(2, 3))).to(soft_dtype)
    logits = logits * _scale(t, options)
    s = logits.shape[-1]
    hidden = torch.ones((s, s), dtype=torch.bool, device=q.device).triu(1)
    weights = torch.softmax(logits.masked_fill(hidden, float("-inf")), dim=-1)
    return torch.matmul(weights.to(v.dtype), v)


def reference(t, torch, options):
    return {"out": _attend(t, torch, options, lambda x: x.double(), torch.float64)}


def torch_op(t, torch, options):
    return _attend(t, torch, options, lambda x: x.half(), torch.float32)


def flops(t, options):
    """(4 * d + 2 * d_pe) per visible (query, key) pair and head: q k^T, q_pe k_pe^T, p v."""
    batch, heads, s, dim = t["q"].shape
    d_pe = t["qpe"].shape[-1]
    return (4 * dim + 2 * d_pe) * batch * heads * s * (s + 1) // 2
