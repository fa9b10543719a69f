"""How tilegym.ops.cutile.matmul launches its kernels (matmul, static_persistent False / True),
as launch rules. The launcher always autotunes (exhaustive_search); on the H200, capability
(9, 0), both config lists take their `else` branch (the sm100+ configs). A case's launch is
the first config; `candidates` are all of them, which the GPU run times on the TileGym side
(large case) and then uses on every side. a is [M, K] ([K, M] with trans_a), b is [K, N]
([N, K] with trans_b); _matmul_kernel takes no transposes (the launcher asserts)."""
from workbench.launchrules import Launch, cdiv, scalar

# _matmul_autotune_configs, else branch: TILE_SIZE_M, _N, _K, num_ctas, occupancy
MATMUL_CONFIGS = ((128, 128, 32, 1, 1), (256, 256, 64, 2, 1), (256, 256, 64, 4, 1),
                  (512, 256, 64, 2, 1))
# _static_persistent_matmul_autotune_configs, else branch: TILE_SIZE_M, _N, _K,
# GROUP_SIZE_M, num_ctas, occupancy, LOAD_LATENCY
PERSISTENT_CONFIGS = ((128, 512, 64, 8, 4, 1, -1), (256, 256, 64, 8, 2, 1, -1),
                      (256, 512, 64, 8, 2, 1, -1), (256, 256, 64, 8, 2, 1, 4),
                      (256, 256, 64, 8, 1, 1, -1), (256, 256, 128, 8, 2, 1, -1),
                      (256, 128, 32, 8, 2, 1, -1), (128, 128, 64, 8, 1, 1, -1))


def dims(p) -> tuple[int, int, int]:
    """M, N, K of the problem (the launcher's reading of the transposes)."""
    a, b = p["a"].shape, p["b"].shape
    m, k = (a[1], a[0]) if p.option("trans_a", False) else a
    n = b[0] if p.option("trans_b", False) else b[1]
    return m, n, k


def outputs(p):
    m, n, _ = dims(p)
    return {"c": p["a"].spec.__class__(p["a"].dtype, shape=(m, n))}


def launch(kernel, r, p, num_sm):
    m, n, k = dims(p)
    trans_a, trans_b = bool(p.option("trans_a", False)), bool(p.option("trans_b", False))
    arrays = [r.view("a"), r.view("b"), r.view("c")]
    if kernel == "_matmul_kernel":
        if trans_a or trans_b:
            return None
        tried = [Launch(arrays, {"TILE_SIZE_M": tm, "TILE_SIZE_N": tn, "TILE_SIZE_K": tk},
                        (cdiv(m, tm) * cdiv(n, tn), 1, 1), {"num_ctas": ctas, "occupancy": occ})
                 for tm, tn, tk, ctas, occ in MATMUL_CONFIGS]
        return _first(tried)
    if kernel == "_static_persistent_matmul_kernel":
        args = arrays + [scalar("i32", m), scalar("i32", n), scalar("i32", k)]
        tried = []
        for tm, tn, tk, group, ctas, occ, latency in PERSISTENT_CONFIGS:
            consts = {"TILE_SIZE_M": tm, "TILE_SIZE_N": tn, "TILE_SIZE_K": tk,
                      "TRANSPOSE_A": trans_a, "TRANSPOSE_B": trans_b, "GROUP_SIZE_M": group,
                      "LOAD_LATENCY": latency}
            grid = min(num_sm // ctas, cdiv(m, tm) * cdiv(n, tn)) * occ
            tried.append(Launch(args, consts, (grid, 1, 1), {"num_ctas": ctas, "occupancy": occ}))
        return _first(tried)
    return None


def _first(tried: list[Launch]) -> Launch:
    first = tried[0]
    return Launch(first.args, first.consts, first.grid, first.hints, candidates=tried)
