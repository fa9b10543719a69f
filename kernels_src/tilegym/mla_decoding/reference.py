"""MLA decode in float64: per token and head, softmax((q kv^T + q_pe kpe^T) * scale) kv, and
the base-2 log-sum-exp of the scaled logits; the PyTorch operation is test_mla_decoding.py's
reference (half-precision matmuls, a float32 softmax)."""
import math


def _scale(t, options):
    return float(options.get("sm_scale", 1.0 / math.sqrt(t["q"].shape[-1] + t["qpe"].shape[-1])))


def _decode(t, torch, options, cast, soft_dtype):
    q, qpe, kv, kpe = (cast(t[n]) for n in ("q", "qpe", "kv", "kpe"))
    logits = (torch.matmul(q, kv.transpose(1, 2)).to(soft_dtype)
              + torch.matmul(qpe, kpe.transpose(1, 2)).to(soft_dtype)) * _scale(t, options)
    top = logits.amax(-1, keepdim=True)
    weights = torch.exp(logits - top)
    total = weights.sum(-1, keepdim=True)
    out = torch.matmul((weights / total).to(kv.dtype), kv)
    lse = (top / math.log(2) + torch.log2(total)).squeeze(-1)
    return out, lse


def reference(t, torch, options):
    out, lse = _decode(t, torch, options, lambda x: x.double(), torch.float64)
    return {"out": out, "lse": lse}


def torch_op(t, torch, options):
    return _decode(t, torch, options, lambda x: x.half(), torch.float32)
