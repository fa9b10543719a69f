"""How tilegym.ops.cutile.bmm launches its kernels (bmm, static_persistent False / True), as
launch rules. static_persistent=False launches _bmm_kernel with its default tiles 128 x 128
x 32 and no hints, grid (tiles of M, tiles of N, batch). The default, static_persistent=True,
autotunes _static_persistent_bmm_kernel; on the H200, capability (9, 0), over TILE_M and
TILE_N in 64/128/256, TILE_K 64, occupancy 1/2, num_ctas 2, LATENCY 3 (a config without the
field). A case's launch is the first config, `candidates` all of them. a is [Q, M, K]
([Q, K, M] with trans_a), b is [Q, K, N] ([Q, N, K] with trans_b)."""
from workbench.launchrules import Launch, cdiv, scalar

# _bmm_autotune_configs, the (9, 0) branch, in its loop order
PERSISTENT_CONFIGS = tuple((tm, tn, 64, occ) for tm in (64, 128, 256) for tn in (64, 128, 256)
                           for occ in (1, 2))
GROUP_SIZE_M, NUM_CTAS, LATENCY = 8, 2, 3


def dims(p) -> tuple[int, int, int, int]:
    """Q, M, N, K of the problem."""
    a, b = p["a"].shape, p["b"].shape
    q, m, k = (a[0], a[2], a[1]) if p.option("trans_a", False) else a
    n = b[1] if p.option("trans_b", False) else b[2]
    return q, m, n, k


def outputs(p):
    q, m, n, _ = dims(p)
    return {"c": p["a"].spec.__class__(p["a"].dtype, shape=(q, m, n))}


def launch(kernel, r, p, num_sm):
    q, m, n, k = dims(p)
    trans_a, trans_b = bool(p.option("trans_a", False)), bool(p.option("trans_b", False))
    arrays = [r.view("a"), r.view("b"), r.view("c")]
    if kernel == "_bmm_kernel":
        if trans_a or trans_b:
            return None
        tm, tn, tk = 128, 128, 32
        return Launch(arrays, {"TM": tm, "TN": tn, "TK": tk}, (cdiv(m, tm), cdiv(n, tn), q))
    if kernel == "_static_persistent_bmm_kernel":
        tried = []
        for tm, tn, tk, occ in PERSISTENT_CONFIGS:
            consts = {"M": m, "N": n, "K": k, "TILE_M": tm, "TILE_N": tn, "TILE_K": tk,
                      "GROUP_SIZE_M": GROUP_SIZE_M, "LATENCY": LATENCY,
                      "TRANSPOSE_A": trans_a, "TRANSPOSE_B": trans_b}
            grid = min(num_sm // NUM_CTAS, cdiv(m, tm) * cdiv(n, tn) * q) * occ
            tried.append(Launch(arrays + [scalar("i32", q)], consts, (grid, 1, 1),
                                {"num_ctas": NUM_CTAS, "occupancy": occ}))
        first = tried[0]
        return Launch(first.args, first.consts, first.grid, first.hints, candidates=tried)
    return None
