import torch


def reference(x, weight, out, eps):
    x = x.double()
    return x * torch.rsqrt(x.pow(2).mean(dim=-1, keepdim=True) + eps) * weight.double()


def peer(x, weight, out, eps):
    """PyTorch's own kernel for the operation, in the case's dtype."""
    return torch.nn.functional.rms_norm(x, x.shape[-1:], weight, eps)
