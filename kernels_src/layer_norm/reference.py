import torch


def reference(x, weight, bias, out, eps):
    x = x.double()
    return torch.nn.functional.layer_norm(x, x.shape[-1:], weight.double(), bias.double(), eps)


def peer(x, weight, bias, out, eps):
    """PyTorch's own kernel for the operation, in the case's dtype."""
    return torch.nn.functional.layer_norm(x, x.shape[-1:], weight, bias, eps)
