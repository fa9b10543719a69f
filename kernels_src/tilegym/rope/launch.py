"""How tilegym.ops.cutile.rope launches _rope_kernel (_rope_forward): q [B, Hq, S, D] and
k [B, Hk, S, D] rotated in place, cos/sin [COS_BS, S, rope_dim]; one block per (batch, row),
TILE_QH / TILE_KH the next powers of two of the head counts, TILE_RD that of rope_dim // 2
(only the first rope_dim of head_dim turn). With autotuning off the launcher sets occupancy
9; its autotuner tries occupancy 1, 7, 9 and 12 (_ROPE_OCCUPANCY_CONFIGS).
cos and sin are filled the way a rotary embedding makes them (both halves of rope_dim the
same frequencies), the form the kernel relies on: it reads only the first half."""
from workbench.launchrules import INOUT, Launch, Tensor, next_power_of_2

OCCUPANCY = (1, 7, 9, 12)
UNTUNED_OCCUPANCY = 9
ROTARY = "rotary"


def outputs(p):
    q, k = p["q"], p["k"]
    return {"q": Tensor("q", q.spec, INOUT), "k": Tensor("k", k.spec, INOUT),
            "cos": Tensor("cos", p["cos"].spec, fill=ROTARY),
            "sin": Tensor("sin", p["sin"].spec, fill=ROTARY)}


def fill(t, problem, made, torch):
    """cos or sin of position * inv_freq (base 10000), repeated over both halves of rope_dim,
    as LlamaRotaryEmbedding makes them; every batch of COS_BS gets the same positions."""
    cos_bs, seq, rope_dim = t.shape
    inv_freq = 1.0 / (10000.0 ** (torch.arange(0, rope_dim, 2, dtype=torch.float32,
                                                device="cuda") / rope_dim))
    positions = torch.arange(seq, dtype=torch.float32, device="cuda")
    freqs = torch.outer(positions, inv_freq)
    emb = torch.cat([freqs, freqs], dim=-1)
    table = emb.cos() if t.name == "cos" else emb.sin()
    dtype = getattr(torch, {"f32": "float32", "f16": "float16", "bf16": "bfloat16"}[t.dtype])
    return table.unsqueeze(0).expand(cos_bs, seq, rope_dim).contiguous().to(dtype)


def launch(kernel, r, p, num_sm):
    if kernel != "_rope_kernel":
        return None
    bsz, n_q_head, seq_len, _ = p["q"].shape
    n_kv_head = p["k"].shape[1]
    cos_bs, _, rope_dim = p["cos"].shape
    consts = {"COS_BS": cos_bs, "SEQ_LEN": seq_len, "TILE_QH": next_power_of_2(n_q_head),
              "TILE_KH": next_power_of_2(n_kv_head), "TILE_RD": next_power_of_2(rope_dim // 2)}
    args = [r.view("q"), r.view("k"), r.view("cos"), r.view("sin")]
    grid = (bsz * seq_len, 1, 1)
    tried = [Launch(args, consts, grid, {"occupancy": o}) for o in OCCUPANCY]
    return Launch(args, consts, grid, {"occupancy": UNTUNED_OCCUPANCY}, candidates=tried)
