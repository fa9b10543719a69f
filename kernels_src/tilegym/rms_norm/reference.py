"""rms_norm in float64: y = x * rsqrt(mean(x^2) + eps) * (offset + w), rstd per row; the
PyTorch operation (torch.nn.functional.rms_norm)."""


def reference(t, torch, eps=1e-5, offset=0.0):
    x = t["x"].double()
    rstd = torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps)
    return {"y": x * rstd * (offset + t["w"].double()), "rstd": rstd.reshape(-1)}


def torch_op(t, torch):
    return torch.nn.functional.rms_norm(t["x"], (t["x"].shape[-1],), t["w"], 1e-5)
