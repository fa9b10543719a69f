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
