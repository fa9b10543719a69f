"""swiglu in float64: silu(a) * b (the kernel rounds silu(a) to a's dtype first), and the
PyTorch operation."""


def reference(t, torch):
    return {"c": torch.nn.functional.silu(t["a"].double()) * t["b"].double()}


def torch_op(t, torch):
    return torch.nn.functional.silu(t["a"]) * t["b"]
