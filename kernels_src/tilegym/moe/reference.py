"""fused MoE GEMM in float64: every (token, k) pair s of the routing gets
C[s] = A[s // TOP_K] @ B[topk_ids.flat[s]].T, times topk_weights.flat[s] for the down GEMM;
the PyTorch operation it stands for (one matmul per expert over its gathered rows), and its
FLOPs (2 * pairs * N * K: the padding rows the kernel skips are not counted)."""


def _pairs(t, down):
    """The routing's experts, one per pair, and the kernel's TOP_K (pairs per row of A)."""
    ids = t["topk_ids"].reshape(-1)
    return ids, 1 if down else ids.numel() // t["A"].shape[0]


def _grouped(t, torch, dtype, down):
    ids, top_k = _pairs(t, down)
    a, b = t["A"].to(dtype), t["B"].to(dtype)
    out = torch.zeros((ids.numel(), b.shape[1]), dtype=dtype, device=a.device)
    source = torch.arange(ids.numel(), device=a.device) // top_k
    for e in range(b.shape[0]):
        pairs = (ids == e).nonzero().reshape(-1)
        if pairs.numel():
            out[pairs] = a[source[pairs]] @ b[e].t()
    if down:
        out = out * t["topk_weights"].reshape(-1, 1).to(dtype)
    return out


def reference(t, torch, down=False):
    return {"C": _grouped(t, torch, torch.float64, down)}


def torch_op(t, torch, down=False):
    return _grouped(t, torch, t["A"].dtype, down)


def flops(t, down=False):
    pairs = t["topk_ids"].numel()
    n, k = t["B"].shape[1], t["B"].shape[2]
    return 2 * pairs * n * k
