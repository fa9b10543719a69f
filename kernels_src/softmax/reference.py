import torch


def reference(x, out):
    return torch.softmax(x.double(), dim=-1)


def peer(x, out):
    """PyTorch's own kernel for the operation, in the case's dtype."""
    return torch.softmax(x, dim=-1)
