"""bmm in float64 (with the launcher's transposes), the PyTorch operation it stands for, and
its FLOPs."""


def _operands(t, trans_a=False, trans_b=False):
    a, b = t["a"], t["b"]
    return (a.transpose(1, 2) if trans_a else a), (b.transpose(1, 2) if trans_b else b)


def reference(t, torch, trans_a=False, trans_b=False):
    a, b = _operands(t, trans_a, trans_b)
    return {"c": torch.bmm(a.double(), b.double())}


def torch_op(t, torch, trans_a=False, trans_b=False):
    return torch.bmm(*_operands(t, trans_a, trans_b))


def flops(t, trans_a=False, trans_b=False):
    """2 * Q * M * N * K."""
    q, m, n = t["c"].shape
    k = t["a"].shape[1 if trans_a else 2]
    return 2 * q * m * n * k
