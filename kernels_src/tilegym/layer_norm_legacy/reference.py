"""layer norm in float64: y = (x - mean) * rstd * (w + weight_shift) + b over the last dim,
with the biased variance, and the row means and rstds; the PyTorch operation (TileGym's
test adds the weight shift to the weight first)."""


def reference(t, torch, eps=1e-5, weight_shift=0.0):
    x = t["x"].double()
    mean = x.mean(dim=-1, keepdim=True)
    var = ((x - mean) ** 2).mean(dim=-1, keepdim=True)
    rstd = torch.rsqrt(var + eps)
    y = (x - mean) * rstd * (t["w"].double() + weight_shift) + t["b"].double()
    return {"y": y, "mean": mean.reshape(-1), "rstd": rstd.reshape(-1)}


def torch_op(t, torch, eps=1e-5, weight_shift=0.0):
    w = t["w"] + weight_shift if weight_shift else t["w"]
    return torch.nn.functional.layer_norm(t["x"], (t["x"].shape[-1],), w, t["b"], eps)
