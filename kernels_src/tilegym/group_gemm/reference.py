"""group GEMM in float64: c[g] = a[g] @ b[g] (b[g] transposed with transpose_b), the PyTorch
operation it stands for (one matmul per group, as TileGym's test reference does), and its
FLOPs."""


def _pairs(t, transpose_b):
    return [(a, b.t() if transpose_b else b) for a, b in zip(t["a"], t["b"])]


def reference(t, torch, transpose_b=False):
    return {"c": [a.double() @ b.double() for a, b in _pairs(t, transpose_b)]}


def torch_op(t, torch, transpose_b=False):
    return [a @ b for a, b in _pairs(t, transpose_b)]


def flops(t, transpose_b=False):
    """2 * M * N * K per group: a multiply and an add per term of every dot product. `t`
    holds lists of tensors, or the problem's list tensors (their `items` have the shapes)."""
    a, c = (getattr(t[n], "items", t[n]) for n in ("a", "c"))
    return sum(2 * ci.shape[0] * ci.shape[1] * ai.shape[1] for ai, ci in zip(a, c))
