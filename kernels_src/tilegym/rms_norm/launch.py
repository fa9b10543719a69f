"""How tilegym.ops.cutile.rms_norm launches its kernels (_RMSNorm.forward, by `mode`): x
viewed as (rows, n), rstd a float32 output of one value per row, eps and offset baked in as
constants (the tests' eps 1e-5; offset 0.0 is Llama's, 1.0 Gemma3's)."""
from workbench.launchrules import Launch, next_power_of_2


def outputs(p):
    x = p["x"]
    rows = x.numel() // x.shape[-1]
    return {"y": x.spec, "rstd": x.spec.__class__("f32", shape=(rows,))}


def launch(kernel, r, p, num_sm):
    x = p["x"]
    n = x.shape[-1]
    rows = x.numel() // n
    eps, offset = float(p.option("eps", 1e-5)), float(p.option("offset", 0.0))
    xv, yv, w, rstd = r.view("x", (rows, n)), r.view("y", (rows, n)), r.view("w"), r.view("rstd")
    if kernel == "_rms_norm_kernel_multi_wave_cached":
        consts = {"N": n, "eps": eps, "offset": offset, "TILE_SIZE": next_power_of_2(n)}
        return Launch([xv, w, yv, rstd], consts, (rows, 1, 1))
    if kernel == "_rms_norm_kernel_gather":             # mode multi_wave_reload
        tile = min(4096 // x.spec.itemsize, next_power_of_2(n))
        consts = {"N": n, "EPS": eps, "OFFSET": offset, "TILE_SIZE": tile}
        return Launch([xv, w, yv, rstd], consts, (rows, 1, 1))
    if kernel == "_rms_norm_kernel_static_persistent":
        tile_n = next_power_of_2(n)
        tile_m = 16 if tile_n <= 1024 else 2 if tile_n >= 16384 else 4
        grid = min(num_sm, -(-rows // tile_m) * -(-n // tile_n))
        consts = {"TILE_SIZE_M": tile_m, "TILE_SIZE_N": tile_n, "EPS": eps, "OFFSET": offset}
        return Launch([xv, yv, w, rstd], consts, (grid, 1, 1))
    return None
