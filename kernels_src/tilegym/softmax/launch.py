"""How tilegym.ops.cutile.softmax launches its kernels (_Softmax.forward and the
_launch_softmax_kernel* functions), as launch rules. Hints are those of
TILEGYM_DISABLE_AUTOTUNE=1 (the first candidate); `candidates` are the ones its autotuner
tries, which the GPU run times on the TileGym side and then uses on every side."""
from workbench.launchrules import Launch, next_power_of_2

GATHER_WARPS = (None, 4, 8)          # _GATHER_WORKER_WARP_CANDIDATES
TMA_OCCUPANCY = (2, 4, 6, 8)         # _TMA_FWD_OCCUPANCY_CANDIDATES


def outputs(p):
    return {"y": p["x"].spec}


def launch(kernel, r, p, num_sm):
    rows, cols = p["x"].shape
    tile = next_power_of_2(cols)      # _Softmax.forward: TILE_SIZE = next_power_of_2(n_cols)
    args = [r.view("y"), r.view("x")]
    if kernel == "_softmax_kernel":
        consts = {"N_ROWS": rows, "TILE_SIZE": tile, "DIM_COLS": cols}
        grid = (min(num_sm * 4, rows), 1, 1)
        return Launch(args, consts, grid, candidates=[
            Launch(args, consts, grid, {"num_worker_warps": w} if w else {})
            for w in GATHER_WARPS])
    if kernel == "_softmax_kernel_multi_wave_full_row_reg_cached_ldg":
        return Launch(args, {"N": cols, "TILE_SIZE": tile}, (rows, 1, 1))
    if kernel == "_softmax_kernel_tma":
        consts = {"N_ROWS": rows, "N_COLS": cols, "TILE_SIZE": tile}
        tried = [Launch(args, consts, (min(num_sm * o, rows), 1, 1), {"occupancy": o})
                 for o in TMA_OCCUPANCY]
        return Launch(tried[0].args, consts, tried[0].grid, tried[0].hints, candidates=tried)
    return None
