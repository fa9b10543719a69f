import torch


def reference(gate, up, out):
    gate = gate.double()
    return torch.nn.functional.silu(gate) * up.double()


def peer(gate, up, out):
    """PyTorch's own kernels for the operation, in the case's dtype."""
    return torch.mul(torch.nn.functional.silu(gate), up, out=out)
