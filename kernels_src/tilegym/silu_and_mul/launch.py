"""How tilegym.ops.cutile.silu_and_mul launches _silu_and_mul_kernel_row_wise
(_silu_and_mul_forward): the input viewed as (rows, 2 * hidden), one block per row, the
tile the next power of two of hidden. With autotuning off it adds no hints; `candidates`
are its autotuner's occupancy configs with the launch hints _silu_autotune_settings adds."""
from workbench.launchrules import Launch, next_power_of_2

OCCUPANCY = (None, 1, 2, 4, 8, 12, 16)     # _SILU_OCCUPANCY_CONFIGS


def outputs(p):
    x = p["x"]
    return {"y": x.spec.__class__(x.dtype, shape=x.shape[:-1] + (x.shape[-1] // 2,))}


def launch(kernel, r, p, num_sm):
    if kernel != "_silu_and_mul_kernel_row_wise":
        return None
    x = p["x"]
    hidden = x.shape[-1] // 2
    rows = x.numel() // x.shape[-1]
    tile = next_power_of_2(hidden)
    args = [r.view("x", (rows, 2 * hidden)), r.view("y", (rows, hidden))]
    consts = {"TILE_SIZE": tile, "TOTAL_HIDDEN_SIZE": hidden}
    base = _launch_hints(tile * x.spec.itemsize)
    candidates = [Launch(args, consts, (rows, 1, 1),
                         {**base, **({"occupancy": o} if o else {})}) for o in OCCUPANCY]
    return Launch(args, consts, (rows, 1, 1), candidates=candidates)


def _launch_hints(tile_bytes: int) -> dict:
    """_silu_autotune_settings on sm_90."""
    if tile_bytes <= 2048:
        return {"num_ctas": 1, "num_worker_warps": 4}
    if tile_bytes <= 8192:
        return {"num_ctas": 1, "num_worker_warps": 8}
    return {"num_ctas": 2, "num_worker_warps": 8}
