"""silu_and_mul: out = silu(gate) * up, the gated MLP activation (SwiGLU's inner step).

The host passes gate and up as two column halves of one [rows, 2*cols] tensor, so both are
strided views (row stride 2*cols): the kernel never assumes a packed layout.
"""
import cuda.tile as ct


@ct.kernel(occupancy=8, num_worker_warps=8)
def silu_and_mul(gate, up, out, TILE_ROWS: ct.Constant[int], TILE_COLS: ct.Constant[int]):
    row_block = ct.bid(0)
    col_block = ct.bid(1)
    g = ct.load(gate, index=(row_block, col_block), shape=(TILE_ROWS, TILE_COLS),
                padding_mode=ct.PaddingMode.ZERO)
    u = ct.load(up, index=(row_block, col_block), shape=(TILE_ROWS, TILE_COLS),
                padding_mode=ct.PaddingMode.ZERO)
    g = ct.astype(g, ct.float32)
    u = ct.astype(u, ct.float32)
    silu = g / (1.0 + ct.exp(-g))
    ct.store(out, index=(row_block, col_block), tile=ct.astype(silu * u, out.dtype))


def grid(out, TILE_ROWS, TILE_COLS):
    rows, cols = out.shape
    return (_cdiv(rows, TILE_ROWS), _cdiv(cols, TILE_COLS), 1)


def _cdiv(a, b):
    return (a + b - 1) // b
