"""How tilegym.ops.cutile.layer_norm_legacy launches its two kernels.

_layer_norm_fwd_kernel (_LayerNorm.forward): x viewed as (M, N), one block per row,
BLOCK_SIZE the largest power of two <= N (at most 64 KiB of x), loops over the row in
BLOCK_SIZE steps; mean and rstd are float32 outputs; EPS and WEIGHT_SHIFT float constants.

_persistent_layer_norm_fwd_kernel (_cutile_persistent_layer_norm_fwd, autotuning off):
BLOCK_D = pow2(D), BLOCK_N 8, hints num_ctas 1 / num_worker_warps 8 (sm_90's defaults), a
persistent grid min(NUM_SMS, cdiv(N, BLOCK_N)) that is also the loop's step; IS_SWISH 0,
TRAINING 1, COMPUTE_MEAN_AND_RSTD 1 as the launcher passes them. Its output is bfloat16
(the kernel casts to it), so it takes bf16 cases only. Its autotuner tries BLOCK_N 1..32
with 4 or 8 worker warps, pruned where BLOCK_N * BLOCK_D / 256 > 256."""
from workbench.launchrules import Launch, cdiv, next_power_of_2

BLOCK_N = (1, 2, 4, 8, 16, 32)
WORKER_WARPS = (4, 8)
DEFAULT = {"BLOCK_N": 8, "num_ctas": 1, "num_worker_warps": 8}


def outputs(p):
    x = p["x"]
    rows = x.numel() // x.shape[-1]
    row_stat = x.spec.__class__("f32", shape=(rows,))
    return {"y": x.spec, "mean": row_stat, "rstd": row_stat}


def launch(kernel, r, p, num_sm):
    x = p["x"]
    n = x.shape[-1]
    m = x.numel() // n
    eps = float(p.option("eps", 1e-5))
    args = [r.view("x", (m, n)), r.view("y", (m, n)), r.view("w"), r.view("b"),
            r.view("mean"), r.view("rstd")]
    if kernel == "_layer_norm_fwd_kernel":
        block = min(65536 // x.spec.itemsize, 1 << (n.bit_length() - 1))
        consts = {"N": n, "EPS": eps, "WEIGHT_SHIFT": float(p.option("weight_shift", 0.0)),
                  "BLOCK_SIZE": block}
        return Launch(args, consts, (m, 1, 1))
    if kernel == "_persistent_layer_norm_fwd_kernel":
        if x.dtype != "bf16" or p.option("weight_shift", 0.0):
            return None
        block_d = next_power_of_2(n)

        def at(block_n, warps):
            grid = min(num_sm, cdiv(m, block_n))
            consts = {"N": m, "D": n, "EPS": eps, "STRIDE_X": n, "STRIDE_Y": n, "IS_SWISH": 0,
                      "TRAINING": 1, "BLOCK_N": block_n, "BLOCK_D": block_d,
                      "COMPUTE_MEAN_AND_RSTD": 1, "NUM_SMS": grid}
            return Launch(args, consts, (grid, 1, 1), {"num_ctas": 1, "num_worker_warps": warps})
        tried = [at(bn, w) for bn in BLOCK_N for w in WORKER_WARPS
                 if bn * block_d / (8 * 32) <= 256]
        untuned = at(DEFAULT["BLOCK_N"], DEFAULT["num_worker_warps"])
        return Launch(untuned.args, untuned.consts, untuned.grid, untuned.hints, candidates=tried)
    return None
