"""How tilegym.ops.cutile.moe launches _fused_moe_kernel (invoke_fused_moe_kernel, called
twice by fused_experts_impl with its cutile config: TILE_SIZE_M 128, TILE_SIZE_N 128,
TILE_SIZE_K 64, GROUP_SIZE_M 32, no hints). The gate/up GEMM multiplies the tokens A [T, K]
by the experts' B [E, N, K] into C [T * top_k, N] (TOP_K = top_k); the down GEMM (option
`down`) multiplies the intermediate rows A [T * top_k, K], one per (token, expert) pair, with
TOP_K = 1 and the routing weights applied. A is flattened, C viewed 2-D, absent scales are
empty tensors of A's / B's dtype.

The index inputs are made as TileGym's test and moe_align_block_size make them: topk_ids
uniform over the experts (torch.randint), topk_weights a softmax of normal draws in A's
dtype, then the routing: the (token, k) pairs sorted by expert (stable), each expert's run
padded to a multiple of TILE_SIZE_M with the pad id T * top_k, in a buffer of
numel + E * (TILE_SIZE_M - 1) ids; expert_ids names each block's expert; the count after
padding is num_tokens_post_padded. Every index the kernel reads is in range."""
from workbench.argspec import ArgSpec
from workbench.check.gpu import TORCH_DTYPES
from workbench.launchrules import IN, OUT, Launch, Tensor, cdiv, scalar, scratch

TILE_SIZE_M, TILE_SIZE_N, TILE_SIZE_K, GROUP_SIZE_M = 128, 128, 64, 32


def routing(p) -> tuple[int, int, int]:
    """T (tokens), top_k and the kernel's TOP_K of a case."""
    top_k = int(p.option("top_k"))
    rows = p["A"].shape[0]
    down = bool(p.option("down", False))
    return (rows // top_k if down else rows), top_k, (1 if down else top_k)


def outputs(p):
    tokens, top_k, _ = routing(p)
    experts, n = p["B"].shape[0], p["B"].shape[1]
    numel = tokens * top_k
    padded = numel + experts * (TILE_SIZE_M - 1)
    derived = {
        "topk_ids": Tensor("topk_ids", ArgSpec("i64", shape=(tokens, top_k)), IN, "topk_ids"),
        "topk_weights": Tensor("topk_weights", ArgSpec(p["A"].dtype, shape=(tokens, top_k)), IN,
                               "topk_weights"),
        "sorted_token_ids": Tensor("sorted_token_ids", ArgSpec("i32", shape=(padded,)), IN,
                                   "routing"),
        "expert_ids": Tensor("expert_ids", ArgSpec("i32", shape=(cdiv(padded, TILE_SIZE_M),)),
                             IN, "routing"),
        "num_tokens_post_padded": Tensor("num_tokens_post_padded", ArgSpec("i32", shape=(1,)),
                                         IN, "routing"),
    }
    derived["C"] = Tensor("C", ArgSpec(p["A"].dtype, shape=(numel, n)), OUT)
    return derived


def launch(kernel, r, p, num_sm):
    if kernel != "_fused_moe_kernel":
        return None
    _, _, kernel_top_k = routing(p)
    a, b = p["A"], p["B"]
    n, k = b.shape[1], b.shape[2]
    em = p["sorted_token_ids"].shape[0]
    args = [r.view("A", (a.numel(),)), r.view("B"), r.view("C"),
            scratch(a.dtype, (0,)), scratch(b.dtype, (0,)),
            r.view("topk_weights", (p["topk_weights"].numel(),)), r.view("sorted_token_ids"),
            r.view("expert_ids"), r.view("num_tokens_post_padded"),
            scalar("i32", em), scalar("i32", p["topk_ids"].numel())]
    consts = {"N": n, "K": k, "GROUP_N": 0, "GROUP_K": 0, "TILE_SIZE_M": TILE_SIZE_M,
              "TILE_SIZE_N": TILE_SIZE_N, "TILE_SIZE_K": TILE_SIZE_K,
              "GROUP_SIZE_M": GROUP_SIZE_M,
              "MUL_ROUTED_WEIGHT": int(bool(p.option("down", False))), "TOP_K": kernel_top_k,
              "USE_FP8_W8A8": 0, "USE_INT8_W8A16": 0, "EVEN_KS": int(k % TILE_SIZE_K == 0),
              "A_STRIDE_1": a.shape[1]}
    return Launch(args, consts, (cdiv(em, TILE_SIZE_M) * cdiv(n, TILE_SIZE_N), 1, 1))


def fill(t, p, made: dict, torch):
    """The index inputs and routing weights, as TileGym's test and moe_align_block_size
    make them (`made` holds the tensors made before this one, in the problem's order)."""
    tokens, top_k, _ = routing(p)
    experts = p["B"].shape[0]
    if t.fill == "topk_ids":
        return torch.randint(0, experts, (tokens, top_k), dtype=torch.int64, device="cuda")
    if t.fill == "topk_weights":
        weights = torch.softmax(torch.randn(tokens, top_k, device="cuda"), dim=-1)
        return weights.to(getattr(torch, TORCH_DTYPES[t.dtype]))
    if t.fill == "routing":
        return align(made["topk_ids"], experts, p["sorted_token_ids"].shape[0], torch)[t.name]
    raise ValueError(f"moe: no fill {t.fill!r}")


def align(topk_ids, experts: int, padded: int, torch) -> dict:
    """moe_align_block_size: sorted_token_ids, expert_ids, num_tokens_post_padded."""
    flat = topk_ids.reshape(-1).cpu()
    numel = flat.numel()
    order = torch.argsort(flat, stable=True)
    counts = torch.bincount(flat, minlength=experts)
    sorted_ids = torch.full((padded,), numel, dtype=torch.int32)
    expert_ids = torch.zeros((cdiv(padded, TILE_SIZE_M),), dtype=torch.int32)
    block, taken = 0, 0
    for e in range(experts):
        count = int(counts[e])
        blocks = cdiv(count, TILE_SIZE_M)
        sorted_ids[block * TILE_SIZE_M: block * TILE_SIZE_M + count] = order[taken: taken + count].to(torch.int32)
        expert_ids[block: block + blocks] = e
        block, taken = block + blocks, taken + count
    post_padded = torch.tensor([block * TILE_SIZE_M], dtype=torch.int32)
    return {"sorted_token_ids": sorted_ids.cuda(), "expert_ids": expert_ids.cuda(),
            "num_tokens_post_padded": post_padded.cuda()}
