"""softmax in float64, the PyTorch operation it stands for, and what it moves."""


def reference(t, torch):
    x = t["x"].double()
    return {"y": torch.softmax(x, dim=-1)}


def torch_op(t, torch):
    return torch.softmax(t["x"], dim=-1)
