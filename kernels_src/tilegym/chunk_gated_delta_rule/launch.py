"""How tilegym.ops.cutile.chunk_gated_delta_rule launches its two kernels
(_ChunkGatedDeltaRuleCuTile.forward): chunks of chunk_size (64) tokens, num_chunks =
cdiv(T, chunk_size), BLOCK_K the key dim rounded up to a power of two, SOLVE_STEPS =
max(1, bit_length(chunk_size - 1)), scale 1 / sqrt(K). The intra-chunk kernel runs one program
per (batch * head, chunk) and writes the chunked q, k, corrected v, k cumdecay (bf16 when the
input is 16-bit, else f32) and the cumulative log decay (f32); the inter-chunk kernel runs one
program per (batch * head, value tile of BLOCK_V = min(128, next_power_of_2(V))) and walks the
chunks, writing the f32 output [B, H, chunks, chunk_size, V] and the final state. Without a
state both state arguments are 1-element f32 dummies."""
import math

from workbench.argspec import ArgSpec
from workbench.refmath import delta_rule_input
from workbench.launchrules import IN, OUT, TEMP, Launch, Tensor, cdiv, next_power_of_2, scalar

INTRA, INTER = "_intra_chunk_prepare_kernel", "_chunk_inter_recurrence_kernel"


def sizes(p) -> dict:
    batch, tokens, heads, dim_k = p["query"].shape
    dim_v = p["value"].shape[3]
    chunk = int(p.option("chunk_size", 64))
    return {"B": batch, "T": tokens, "H": heads, "K": dim_k, "V": dim_v, "CS": chunk,
            "NC": cdiv(tokens, chunk), "BLOCK_K": next_power_of_2(dim_k),
            "BLOCK_V": min(128, next_power_of_2(dim_v)),
            "inter": "bf16" if p["query"].dtype in ("bf16", "f16") else "f32"}


def outputs(p):
    s = sizes(p)
    chunked = lambda dim, dtype: ArgSpec(dtype, shape=(s["B"], s["H"], s["NC"], s["CS"], dim))
    state = (s["B"], s["H"], s["K"], s["V"]) if p.option("state", True) else (1, 1, 1, 1)
    has_state = bool(p.option("state", True))
    key_fill = "randn" if p.option("l2norm", False) else "unit_rows"
    return {"key": Tensor("key", p["key"].spec, IN, fill=key_fill),
            "g": Tensor("g", p["g"].spec, IN, fill="log_decay"),
            "beta": Tensor("beta", p["beta"].spec, IN, fill="sigmoid"),
            "q_chunked": Tensor("q_chunked", chunked(s["K"], s["inter"]), TEMP),
            "k_chunked": Tensor("k_chunked", chunked(s["K"], s["inter"]), TEMP),
            "v_corrected": Tensor("v_corrected", chunked(s["V"], s["inter"]), TEMP),
            "k_cumdecay": Tensor("k_cumdecay", chunked(s["K"], s["inter"]), TEMP),
            "g_cum": Tensor("g_cum", ArgSpec("f32", shape=(s["B"], s["H"], s["NC"], s["CS"])), TEMP),
            "out": Tensor("out", chunked(s["V"], "f32"), OUT),
            "state_in": Tensor("state_in", ArgSpec("f32", shape=state), IN,
                               fill="small" if has_state else "zeros"),
            "state_out": Tensor("state_out", ArgSpec("f32", shape=state), OUT if has_state else IN,
                                fill="zeros")}


def fill(t, p, made, torch):
    return delta_rule_input(t, torch)       # workbench/refmath.py says how each is made


def launch(kernel, r, p, num_sm):
    s = sizes(p)
    if kernel == INTRA:
        args = [r.view("query"), r.view("key"), r.view("value"), r.view("beta"), r.view("g"),
                r.view("q_chunked"), r.view("k_chunked"), r.view("v_corrected"),
                r.view("k_cumdecay"), r.view("g_cum"), scalar("i32", s["T"]),
                scalar("i32", s["K"]), scalar("i32", s["V"]),
                scalar("f32", 1.0 / math.sqrt(s["K"]))]
        consts = {"NUM_HEADS": s["H"], "USE_QK_L2NORM": bool(p.option("l2norm", False)),
                  "CHUNK_SIZE": s["CS"], "BLOCK_K": s["BLOCK_K"],
                  "SOLVE_STEPS": max(1, (s["CS"] - 1).bit_length()),
                  "INTER_BF16": s["inter"] == "bf16"}
        return Launch(args, consts, (s["B"] * s["H"], s["NC"], 1))
    if kernel == INTER:
        has_state = bool(p.option("state", True))
        args = [r.view("q_chunked"), r.view("k_chunked"), r.view("v_corrected"),
                r.view("k_cumdecay"), r.view("g_cum"), r.view("out"), r.view("state_in"),
                r.view("state_out"), scalar("i32", s["NC"]), scalar("i32", s["K"]),
                scalar("i32", s["V"])]
        consts = {"NUM_HEADS": s["H"], "HAS_INITIAL_STATE": has_state,
                  "OUTPUT_FINAL_STATE": has_state, "CHUNK_SIZE": s["CS"],
                  "BLOCK_K": s["BLOCK_K"], "BLOCK_V": s["BLOCK_V"]}
        return Launch(args, consts, (s["B"] * s["H"], cdiv(s["V"], s["BLOCK_V"]), 1))
    return None
