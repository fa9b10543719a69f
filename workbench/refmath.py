"""What the TileGym families' float64 references share (kernels_src/tilegym/*/reference.py):
attention over blocks of queries, so that a long sequence's logits fit on the GPU (a
[2, 64, 10820, 10820] float64 logits tensor alone is 112 GiB)."""
from __future__ import annotations

LOGITS_BUDGET_BYTES = 2 << 30      # one block's logits; the softmax's temporaries add ~3x


def over_query_blocks(attend, q, k_len: int, torch, budget_bytes: int = LOGITS_BUDGET_BYTES):
    """attend(q_block, first) -> [batch, heads, rows, dim] for blocks of q's queries (axis 2,
    `first` the block's first query), joined along that axis. One block when it all fits."""
    batch, heads, q_len = q.shape[:3]
    rows = max(1, budget_bytes // max(batch * heads * k_len * 8, 1))
    if rows >= q_len:
        return attend(q, 0)
    return torch.cat([attend(q[:, :, first:first + rows], first)
                      for first in range(0, q_len, rows)], dim=2)


def delta_rule_input(t, torch):
    """An input of the gated delta rule's families, as the recurrence's users make them
    (t.fill): g = logsigmoid(randn), a decay <= 1 ("log_decay"); beta = sigmoid(randn);
    "unit_rows" q and k when the kernel does not L2-normalize them (raw randn keys have
    |k|^2 ~ K and grow the state without bound); a "small" initial state; else zeros."""
    dtype = getattr(torch, {"f32": "float32", "f16": "float16", "bf16": "bfloat16"}[t.dtype])
    x = torch.randn(t.shape, dtype=torch.float32, device="cuda")
    if t.fill == "log_decay":
        x = torch.nn.functional.logsigmoid(x)
    elif t.fill == "sigmoid":
        x = torch.sigmoid(x)
    elif t.fill == "unit_rows":
        x = torch.nn.functional.normalize(x, p=2.0, dim=-1)
    elif t.fill == "small":
        x = x * 0.1
    else:
        x = torch.zeros_like(x)
    return x.to(dtype)


def delta_rule_queries_keys(q, k, options, torch):
    """q and k as the recurrence reads them: L2-normalized when the case asks (eps 1e-6
    under the root), q scaled by 1 / sqrt(K)."""
    if options.get("l2norm"):
        q = q * torch.rsqrt((q * q).sum(-1, keepdim=True) + 1e-6)
        k = k * torch.rsqrt((k * k).sum(-1, keepdim=True) + 1e-6)
    return q / (q.shape[-1] ** 0.5), k
