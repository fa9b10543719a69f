"""matmul in float64 (with the launcher's transposes), the PyTorch operation it stands for,
and its FLOPs."""


def _operands(t, torch, trans_a=False, trans_b=False):
    a, b = t["a"], t["b"]
    return (a.t() if trans_a else a), (b.t() if trans_b else b)


def reference(t, torch, trans_a=False, trans_b=False):
    a, b = _operands(t, torch, trans_a, trans_b)
    return {"c": a.double() @ b.double()}


def torch_op(t, torch, trans_a=False, trans_b=False):
    a, b = _operands(t, torch, trans_a, trans_b)
    return a @ b


def flops(t, trans_a=False, trans_b=False):
    """2 * M * N * K: a multiply and an add per term of every dot product."""
    m, n = t["c"].shape
    k = t["a"].shape[0 if trans_a else 1]
    return 2 * m * n * k
