"""How tilegym.ops.cutile.swiglu launches _swiglu_forward_kernel (_swiglu_forward): a and b
viewed as (rows, n), one block per row, TILE_SIZE = next_power_of_2(n), bounds checked only
when the tile overhangs the row. The kernel's own hints (occupancy 1, 8 worker warps) stand."""
from workbench.launchrules import Launch, next_power_of_2


def outputs(p):
    return {"c": p["a"].spec}


def launch(kernel, r, p, num_sm):
    if kernel != "_swiglu_forward_kernel":
        return None
    a = p["a"]
    n = a.shape[-1]
    rows = a.numel() // n
    tile = next_power_of_2(n)
    args = [r.view("a", (rows, n)), r.view("b", (rows, n)), r.view("c", (rows, n))]
    return Launch(args, {"TILE_SIZE": tile, "check_bounds": tile != n}, (rows, 1, 1))
