import torch


def reference(x, out):
    return torch.softmax(x.double(), dim=-1)
