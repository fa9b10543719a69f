"""softmax: a numerically stable softmax over each row of a 2-D tensor.

One tile block per row; the row fits in one tile (TILE_COLS >= cols), padded with -inf so
that padding never wins the max and contributes exp(-inf) = 0 to the sum.
"""
import cuda.tile as ct


@ct.kernel(occupancy=8, num_worker_warps=8)
def softmax(x, out, TILE_COLS: ct.Constant[int]):
    row = ct.bid(0)
    t = ct.load(x, index=(row, 0), shape=(1, TILE_COLS), padding_mode=ct.PaddingMode.NEG_INF)
    t = ct.astype(t, ct.float32)
    row_max = ct.max(t, axis=1, keepdims=True)
    e = ct.exp(t - row_max)
    row_sum = ct.sum(e, axis=1, keepdims=True)
    ct.store(out, index=(row, 0), tile=ct.astype(e / row_sum, out.dtype))


def grid(out, TILE_COLS):
    return (out.shape[0], 1, 1)
