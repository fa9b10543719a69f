"""How tilegym.ops.cutile.recurrent_gated_delta_rule launches its kernels
(_RecurrentGatedDeltaRuleCuTile.forward with autotuning off): BLOCK_K the key dim rounded up
to a power of two, scale 1 / sqrt(K), both TMA toggles on; one token with V >= 32 takes
decode_vstream (BLOCK_V 32, STREAM_V_TILE 16), else the standard kernel (BLOCK_V 64, grid
(B * HV, cdiv(V, 64))) or, when asked (persistent=True), the persistent one (grid min(NUM_SM,
B * HV * cdiv(V, 64))). Without a state both state arguments are 1-element f32 dummies. Each
entry takes the cases its launcher would send it; the large decode case is decode_vstream's."""
import math

from workbench.argspec import ArgSpec
from workbench.refmath import delta_rule_input
from workbench.launchrules import IN, OUT, Launch, Tensor, cdiv, next_power_of_2, scalar

KERNELS = {"standard": "_recurrent_gated_delta_rule_fwd_kernel",
           "persistent": "_recurrent_gated_delta_rule_fwd_kernel_persistent",
           "decode": "_recurrent_gated_delta_rule_fwd_kernel_decode_vstream"}


def outputs(p):
    batch, _, heads_v, dim_v = p["value"].shape
    dim_k = p["query"].shape[3]
    shape = (batch, heads_v, dim_k, dim_v) if p.option("state", True) else (1, 1, 1, 1)
    # without the kernel's own L2 norm, q and k come in unit-normed (as the delta rule's
    # users give them): a raw randn key has |k|^2 ~ K, and the state then grows without bound
    unit = {} if p.option("l2norm", False) else {
        n: Tensor(n, p[n].spec, IN, fill="unit_rows") for n in ("query", "key")}
    return {"out": p["value"].spec, **unit,
            "g": Tensor("g", p["g"].spec, IN, fill="log_decay"),
            "beta": Tensor("beta", p["beta"].spec, IN, fill="sigmoid"),
            "state_in": Tensor("state_in", ArgSpec("f32", shape=shape), IN, fill="small"),
            "state_out": Tensor("state_out", ArgSpec("f32", shape=shape),
                                OUT if p.option("state", True) else IN, fill="zeros")}


def fill(t, p, made, torch):
    return delta_rule_input(t, torch)       # workbench/refmath.py says how each is made


def launch(kernel, r, p, num_sm):
    batch, tokens, heads, dim_k = p["query"].shape
    heads_v, dim_v = p["value"].shape[2], p["value"].shape[3]
    decode = tokens == 1 and dim_v >= 32
    if kernel == KERNELS["decode"] and not decode or kernel != KERNELS["decode"] and decode:
        return None
    if kernel not in KERNELS.values():
        return None
    has_state = bool(p.option("state", True))
    args = [r.view("query"), r.view("key"), r.view("value"), r.view("g"), r.view("beta"),
            r.view("out"), r.view("state_in"), r.view("state_out"), scalar("f32", 1.0 / math.sqrt(dim_k))]
    block_v = 32 if decode else 64
    consts = {"HAS_INITIAL_STATE": has_state, "OUTPUT_FINAL_STATE": has_state,
              "USE_QK_L2NORM": bool(p.option("l2norm", False)), "BLOCK_K": next_power_of_2(dim_k),
              "BLOCK_V": block_v, "SMALL_TILE_USE_TMA": True, "LARGE_TILE_USE_TMA": True}
    if decode:
        consts["STREAM_V_TILE"] = 16
    else:
        consts["T"] = tokens
    blocks = cdiv(dim_v, block_v)
    if kernel == KERNELS["persistent"]:
        return Launch(args, consts, (min(num_sm, batch * heads_v * blocks), 1, 1))
    return Launch(args, consts, (batch * heads_v, blocks, 1))
