"""dropout as the kernel defines it: the keep mask is the kernel's own hash of (offset, seed),
recomputed here exactly (int32 wrap-around, arithmetic shifts, float32 division as the kernel
does them, since a mask bit is not a rounding question); the kept values, x / (1 - p), in
float64. The PyTorch operation (its own random mask) is only timed."""

LCG = 1103515245


def _wrap32(v):
    return ((v + (1 << 31)) % (1 << 32)) - (1 << 31)


def mix_seed(seed: int) -> int:
    mixed = (int(seed) * 2654435761) & 0xFFFFFFFF
    return mixed - (1 << 32) if mixed >= 1 << 31 else mixed


def keep_mask(n: int, p: float, seed: int, torch, device):
    offsets = torch.arange(n, dtype=torch.int64, device=device)
    combined = _wrap32(offsets * LCG + mix_seed(seed))
    h = combined ^ (combined >> 16)
    h = _wrap32(h ^ _wrap32(h << 8))
    h = h ^ (h >> 4)
    hash_float = (h & 0x7FFFFFFF).to(torch.float32) / torch.tensor(2147483647.0, dtype=torch.float32)
    return hash_float > torch.tensor(p, dtype=torch.float32)


def reference(t, torch, p=0.5, seed=0):
    x = t["x"].double()
    keep = keep_mask(x.numel(), p, seed, torch, x.device).reshape(x.shape)
    return {"output": torch.where(keep, x * (1.0 / (1.0 - p)), torch.zeros_like(x))}


def torch_op(t, torch, p=0.5):
    return torch.nn.functional.dropout(t["x"], p, training=True)
