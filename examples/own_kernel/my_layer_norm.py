"""An example of "your own kernel" whose calls differ in their compile-time constants: a layer
norm in cuTile Python that takes the row length N and eps as `ct.Constant`s, so cuTile
Python compiles it again for each (N, eps). A port drafted from its calls serves all of them
with one entry. Nothing here knows about the workbench.

    python examples/own_kernel/my_layer_norm.py            (on a GPU: runs it)
    workbench record examples/own_kernel/my_layer_norm.py   (anywhere: records its launches)
"""
import torch
import cuda.tile as ct


@ct.kernel
def layer_norm_kernel(x, weight, bias, out, N: ct.Constant[int], eps: ct.Constant[float],
                      TILE: ct.Constant[int]):
    row = ct.bid(0)
    t = ct.astype(ct.load(x, index=(row, 0), shape=(1, TILE), padding_mode=ct.PaddingMode.ZERO),
                  ct.float32)
    mean = ct.sum(t, axis=1, keepdims=True) * (1.0 / N)
    in_row = ct.arange(TILE, dtype=ct.int32) < N
    centred = ct.where(in_row, t - mean, 0.0)
    variance = ct.sum(centred * centred, axis=1, keepdims=True) / N
    w = ct.astype(ct.load(weight, index=(0,), shape=(TILE,), padding_mode=ct.PaddingMode.ZERO),
                  ct.float32)
    b = ct.astype(ct.load(bias, index=(0,), shape=(TILE,), padding_mode=ct.PaddingMode.ZERO),
                  ct.float32)
    y = centred * ct.rsqrt(variance + eps) * w + b
    ct.store(out, index=(row, 0), tile=ct.astype(y, out.dtype))


def layer_norm(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor,
               eps: float = 1e-5) -> torch.Tensor:
    rows = x.reshape(-1, x.shape[-1])
    out = torch.empty_like(rows)
    n = rows.shape[1]
    tile = 1 << (n - 1).bit_length()
    ct.launch(torch.cuda.current_stream(), (rows.shape[0],), layer_norm_kernel,
              (rows, weight, bias, out, n, eps, tile))
    return out.view_as(x)


if __name__ == "__main__":
    device = "cuda" if torch.cuda.is_available() else "cpu"
    for shape, dtype, eps in [((512, 1000), torch.float16, 1e-5), ((64, 4096), torch.float32, 1e-6)]:
        x = torch.randn(shape, dtype=dtype, device=device)
        w = torch.randn(shape[1], dtype=dtype, device=device)
        layer_norm(x, w, torch.randn(shape[1], dtype=dtype, device=device), eps)
