import torch


def reference(a, b, c):
    return a.double() @ b.double()


def flops(a, b, c):
    """2 * M * N * K: one multiply and one add per term of every dot product."""
    return 2 * a.shape[0] * b.shape[1] * a.shape[1]


def peer(a, b, c):
    """PyTorch's own kernel for the operation (cuBLAS), in the case's dtype."""
    return torch.matmul(a, b, out=c)
