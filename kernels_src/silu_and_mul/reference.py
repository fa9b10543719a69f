import torch


def reference(gate, up, out):
    gate = gate.double()
    return torch.nn.functional.silu(gate) * up.double()
