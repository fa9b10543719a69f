"""attention: flash-style forward attention with an online softmax (no causal mask).

q, k, v and out are [batch*heads, seq, head_dim]. One block computes TILE_Q query rows of
one head, walking the keys in TILE_KV tiles and keeping a running max and sum so that the
full score matrix is never stored. Keys past the sequence end are masked to -inf.
"""
import cuda.tile as ct


@ct.kernel
def attention(q, k, v, out, scale, TILE_Q: ct.Constant[int], TILE_KV: ct.Constant[int],
              HEAD_DIM: ct.Constant[int]):
    head = ct.bid(0)
    q_block = ct.bid(1)
    seq_kv = k.shape[1]
    q_tile = ct.load(q, index=(head, q_block, 0), shape=(1, TILE_Q, HEAD_DIM),
                     padding_mode=ct.PaddingMode.ZERO)
    q_tile = ct.reshape(q_tile, (TILE_Q, HEAD_DIM))
    row_max = ct.full((TILE_Q, 1), -float("inf"), dtype=ct.float32)
    row_sum = ct.full((TILE_Q, 1), 0.0, dtype=ct.float32)
    acc = ct.full((TILE_Q, HEAD_DIM), 0.0, dtype=ct.float32)
    kv_tiles = ct.cdiv(seq_kv, TILE_KV)
    for j in range(kv_tiles):
        k_tile = ct.load(k, index=(head, j, 0), shape=(1, TILE_KV, HEAD_DIM),
                         padding_mode=ct.PaddingMode.ZERO)
        k_tile = ct.reshape(k_tile, (TILE_KV, HEAD_DIM))
        scores = ct.mma(q_tile, ct.transpose(k_tile),
                        ct.full((TILE_Q, TILE_KV), 0.0, dtype=ct.float32))
        scores = scores * scale
        key_index = j * TILE_KV + ct.arange(TILE_KV, dtype=ct.int32)
        scores = ct.where(key_index < seq_kv, scores, -float("inf"))
        new_max = ct.maximum(row_max, ct.max(scores, axis=1, keepdims=True))
        p = ct.exp(scores - new_max)
        correction = ct.exp(row_max - new_max)
        row_sum = row_sum * correction + ct.sum(p, axis=1, keepdims=True)
        v_tile = ct.load(v, index=(head, j, 0), shape=(1, TILE_KV, HEAD_DIM),
                         padding_mode=ct.PaddingMode.ZERO)
        v_tile = ct.reshape(v_tile, (TILE_KV, HEAD_DIM))
        acc = ct.mma(ct.astype(p, v.dtype), v_tile, acc * correction)
        row_max = new_max
    result = ct.reshape(acc / row_sum, (1, TILE_Q, HEAD_DIM))
    ct.store(out, index=(head, q_block, 0), tile=ct.astype(result, out.dtype))


def grid(out, TILE_Q, TILE_KV, HEAD_DIM):
    heads, seq_q, _ = out.shape
    return (heads, _cdiv(seq_q, TILE_Q), 1)


def _cdiv(a, b):
    return (a + b - 1) // b
