"""How tilegym.ops.cutile.group_gemm launches _group_gemm_kernel: the launcher always
autotunes (exhaustive_search); on the H200, capability (9, 0), its config list takes the
`else` branch, two configs. Each config's grid is a persistent one, the SM count // num_ctas *
occupancy blocks, and that count is the kernel's NUM_SM too (the stride of its tile loop). A
case's launch is the first config; `candidates` are both, which the GPU run times on the
TileGym side (large case) and then uses on every side. a, b and c are lists of matrices, one
per group: a[g] is [M, K], b[g] is [K, N] ([N, K] with transpose_b), c[g] is [M, N]."""
from workbench.argspec import ArgSpec
from workbench.launchrules import OUT, Launch, list_tensor

# _group_gemm_autotune_configs, else branch: TILE_M, TILE_N, TILE_K, num_ctas, occupancy
CONFIGS = ((128, 128, 128, 1, 1), (256, 256, 64, 2, 1))


def group_dims(p) -> list[tuple[int, int, int]]:
    """M, N, K of each group (the launcher's reading of transpose_b)."""
    transpose_b = bool(p.option("transpose_b", False))
    dims = []
    for a, b in zip(p["a"].items, p["b"].items):
        m, k = a.shape
        dims.append((m, b.shape[0] if transpose_b else b.shape[1], k))
    return dims


def outputs(p):
    dtype = p["a"].dtype
    return {"c": list_tensor("c", [ArgSpec(dtype, shape=(m, n)) for m, n, _ in group_dims(p)],
                             OUT)}


def launch(kernel, r, p, num_sm):
    if kernel != "_group_gemm_kernel":
        return None
    args = [r.view("a"), r.view("b"), r.view("c")]
    transpose_b = bool(p.option("transpose_b", False))
    tried = []
    for tile_m, tile_n, tile_k, ctas, occupancy in CONFIGS:
        blocks = num_sm // ctas * occupancy
        consts = {"TILE_M": tile_m, "TILE_N": tile_n, "TILE_K": tile_k, "NUM_SM": blocks,
                  "TRANSPOSE_B": transpose_b}
        tried.append(Launch(args, consts, (blocks, 1, 1),
                            {"num_ctas": ctas, "occupancy": occupancy}))
    first = tried[0]
    return Launch(first.args, first.consts, first.grid, first.hints, candidates=tried)
