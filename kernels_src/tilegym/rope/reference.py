"""RoPE in float64 (HuggingFace's rotate-half form, partial when rope_dim < head_dim): the
first rope_dim of each head rotated by (cos, sin), the rest passed through; and the PyTorch
operation TileGym's test compares with."""


def _rotate(x, cos, sin, torch):
    rope_dim = cos.shape[-1]
    rot, rest = x[..., :rope_dim], x[..., rope_dim:]
    half = rope_dim // 2
    turned = torch.cat([-rot[..., half:], rot[..., :half]], dim=-1)
    cos, sin = cos.unsqueeze(1), sin.unsqueeze(1)          # [COS_BS, 1, S, rope_dim]
    return torch.cat([rot * cos + turned * sin, rest], dim=-1)


def reference(t, torch):
    cos, sin = t["cos"].double(), t["sin"].double()
    return {"q": _rotate(t["q"].double(), cos, sin, torch),
            "k": _rotate(t["k"].double(), cos, sin, torch)}


def torch_op(t, torch):
    return _rotate(t["q"], t["cos"], t["sin"], torch), _rotate(t["k"], t["cos"], t["sin"], torch)
