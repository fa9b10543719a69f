"""silu_and_mul in float64: silu(x[..., :h]) * x[..., h:], and the PyTorch operation."""


def reference(t, torch):
    x = t["x"].double()
    h = x.shape[-1] // 2
    return {"y": torch.nn.functional.silu(x[..., :h]) * x[..., h:]}


def torch_op(t, torch):
    x = t["x"]
    h = x.shape[-1] // 2
    return torch.nn.functional.silu(x[..., :h]) * x[..., h:]
