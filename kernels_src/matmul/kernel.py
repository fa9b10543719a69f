"""matmul: c = a @ b with an f32 accumulator, one output tile per block.

The K loop walks tiles of a's columns and b's rows; zero padding makes the partial last
K tile contribute nothing.
"""
import cuda.tile as ct


@ct.kernel
def matmul(a, b, c, TILE_M: ct.Constant[int], TILE_N: ct.Constant[int],
           TILE_K: ct.Constant[int]):
    m_block = ct.bid(0)
    n_block = ct.bid(1)
    k_tiles = ct.num_tiles(a, axis=1, shape=(TILE_M, TILE_K))
    acc = ct.full((TILE_M, TILE_N), 0.0, dtype=ct.float32)
    for k in range(k_tiles):
        a_tile = ct.load(a, index=(m_block, k), shape=(TILE_M, TILE_K),
                         padding_mode=ct.PaddingMode.ZERO)
        b_tile = ct.load(b, index=(k, n_block), shape=(TILE_K, TILE_N),
                         padding_mode=ct.PaddingMode.ZERO)
        acc = ct.mma(a_tile, b_tile, acc)
    ct.store(c, index=(m_block, n_block), tile=ct.astype(acc, c.dtype))


def grid(c, TILE_M, TILE_N, TILE_K):
    rows, cols = c.shape
    return (_cdiv(rows, TILE_M), _cdiv(cols, TILE_N), 1)


def _cdiv(a, b):
    return (a + b - 1) // b
