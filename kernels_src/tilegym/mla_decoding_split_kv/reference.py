"""MLA decode in float64 (the same computation as mla_decoding, the splits being an
implementation detail): per token and head, softmax((q kv^T + q_pe kpe^T) * scale) kv; the
PyTorch operation is test_mla_decoding.py's reference (half-precision matmuls, a float32
softmax)."""
import math


def _decode(t, torch, options, cast, soft_dtype):
    q, qpe, kv, kpe = (cast(t[n]) for n in ("q", "qpe", "kv", "kpe"))
    scale = float(options.get("sm_scale", 1.0 / math.sqrt(q.shape[-1] + qpe.shape[-1])))
    logits = (torch.matmul(q, kv.transpose(1, 2)).to(soft_dtype)
              + torch.matmul(qpe, kpe.transpose(1, 2)).to(soft_dtype)) * scale
    return torch.matmul(torch.softmax(logits, -1).to(kv.dtype), kv)


def reference(t, torch, options):
    return {"out": _decode(t, torch, options, lambda x: x.double(), torch.float64)}


def torch_op(t, torch, options):
    return _decode(t, torch, options, lambda x: x.half(), torch.float32)
