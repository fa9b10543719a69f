"""splitk_reduce in float64: each split weighted by exp2(lse - max lse) over the splits, the
weighted sum divided by the sum of the weights; and the PyTorch operation TileGym's test
compares with (float32, the same formula)."""


def reference(t, torch):
    attn, lse = t["attn_splitk_out"].double(), t["lse_splitk_out"].double()
    weight = torch.exp2(lse - lse.amax(dim=-1, keepdim=True))
    out = (attn * weight.unsqueeze(-1)).sum(dim=2) / weight.sum(dim=-1, keepdim=True)
    return {"attn_out": out}


def torch_op(t, torch):
    attn, lse = t["attn_splitk_out"].float(), t["lse_splitk_out"]
    weight = torch.exp2(lse - lse.amax(dim=-1, keepdim=True))
    out = (attn * weight.unsqueeze(-1)).sum(dim=2) / weight.sum(dim=-1, keepdim=True)
    return out.to(t["attn_splitk_out"].dtype)
