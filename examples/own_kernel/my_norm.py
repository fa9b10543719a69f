"""An example of "your own kernel": an RMS norm written in cuTile Python, with the host
function a model would call. Nothing here knows about the workbench.

    python examples/own_kernel/my_norm.py            (on a GPU: runs it)
    workbench record examples/own_kernel/my_norm.py   (anywhere: records its launches)
"""
import torch
import cuda.tile as ct


@ct.kernel
def rms_norm_kernel(x, weight, out, eps, N: ct.Constant[int], TILE: ct.Constant[int]):
    row = ct.bid(0)
    t = ct.astype(ct.load(x, index=(row, 0), shape=(1, TILE), padding_mode=ct.PaddingMode.ZERO),
                  ct.float32)
    mean_square = ct.sum(t * t, axis=1, keepdims=True) / N
    w = ct.astype(ct.load(weight, index=(0,), shape=(TILE,), padding_mode=ct.PaddingMode.ZERO),
                  ct.float32)
    y = t * ct.rsqrt(mean_square + eps) * w
    ct.store(out, index=(row, 0), tile=ct.astype(y, out.dtype))


def rms_norm(x: torch.Tensor, weight: torch.Tensor, eps: float = 1e-6) -> torch.Tensor:
    rows = x.reshape(-1, x.shape[-1])
    out = torch.empty_like(rows)
    n = rows.shape[1]
    tile = 1 << (n - 1).bit_length()
    ct.launch(torch.cuda.current_stream(), (rows.shape[0],), rms_norm_kernel,
              (rows, weight, out, eps, n, tile))
    return out.view_as(x)


if __name__ == "__main__":
    device = "cuda" if torch.cuda.is_available() else "cpu"
    for shape, dtype in [((512, 1000), torch.float16), ((64, 4096), torch.float32)]:
        x = torch.randn(shape, dtype=dtype, device=device)
        rms_norm(x, torch.randn(shape[1], dtype=dtype, device=device))
