"""How tilegym.ops.cutile.moe_align_block launches its four kernels (_moe_align_block_size):
programs = max(experts, cdiv(numel, 128)) token ranges of cdiv(numel, programs) tokens, in
sub-chunks of min(next_power_of_2(tokens per program), 256); tokens_cnts [(programs + 1) *
experts] and cumsum [experts + 1] start at zero, sorted_ids at numel (moe_align_block_size).
Stage 1 one program per token range, stage 2 one per expert (over programs rounded up to a
power of two), stage 3 a single program, stage 4 one per token range."""
from workbench.argspec import ArgSpec
from workbench.launchrules import IN, INOUT, OUT, TEMP, Launch, Tensor, cdiv, next_power_of_2

TARGET_TOKENS_PER_PROGRAM, SUB_CHUNK_CAP = 128, 256


def sizes(p) -> dict:
    numel = p["topk_ids"].shape[0]
    experts, block = int(p.option("experts")), int(p.option("block_size", 128))
    programs = max(experts, cdiv(numel, TARGET_TOKENS_PER_PROGRAM))
    per_program = cdiv(numel, programs)
    padded = numel + experts * (block - 1)
    return {"numel": numel, "experts": experts, "block": block, "programs": programs,
            "per_program": per_program, "sub_chunk": min(next_power_of_2(per_program), SUB_CHUNK_CAP),
            "padded": padded, "m_blocks": cdiv(padded, block)}


def outputs(p):
    s = sizes(p)
    i32 = lambda *shape: ArgSpec("i32", shape=shape)
    return {"topk_ids": Tensor("topk_ids", p["topk_ids"].spec, IN, fill="expert_ids"),
            "sorted_ids": Tensor("sorted_ids", i32(s["padded"]), INOUT, fill="numel"),
            "expert_ids": Tensor("expert_ids", i32(s["m_blocks"]), OUT),
            "num_tokens_post_pad": Tensor("num_tokens_post_pad", i32(1), OUT),
            "cumsum": Tensor("cumsum", i32(s["experts"] + 1), OUT),
            "max_expert_cnt": Tensor("max_expert_cnt", i32(1), OUT),
            "tokens_cnts": Tensor("tokens_cnts", i32((s["programs"] + 1) * s["experts"]), TEMP)}


def fill(t, p, made, torch):
    """topk_ids: expert ids drawn uniformly (randint); sorted_ids: numel, the padding id."""
    if t.name == "topk_ids":
        return torch.randint(0, int(p.option("experts")), t.shape, dtype=torch.int64, device="cuda")
    return torch.full(t.shape, sizes(p)["numel"], dtype=torch.int32, device="cuda")


def launch(kernel, r, p, num_sm):
    s = sizes(p)
    tokens = {"NUM_EXPERTS": s["experts"], "NUMEL": s["numel"], "TOKENS_PER_THREAD": s["per_program"],
              "SUB_CHUNK": s["sub_chunk"], "NUM_EXPERTS_POW2": next_power_of_2(s["experts"])}
    if kernel == "_moe_align_block_size_stage1_kernel":
        return Launch([r.view("topk_ids"), r.view("tokens_cnts")], tokens, (s["programs"], 1, 1))
    if kernel == "_moe_align_block_size_stage2_kernel":
        return Launch([r.view("tokens_cnts")], {"NUM_EXPERTS": s["experts"],
                      "NUM_EXPERTS_POW2": next_power_of_2(s["programs"])}, (s["experts"], 1, 1))
    if kernel == "_moe_align_block_size_stage3_kernel":
        args = [r.view("num_tokens_post_pad"), r.view("max_expert_cnt"), r.view("tokens_cnts"),
                r.view("cumsum")]
        return Launch(args, {"NUM_EXPERTS": s["experts"], "BLOCK_SIZE": s["block"],
                             "NUM_PROGRAMS": s["programs"]}, (1, 1, 1))
    if kernel == "_moe_align_block_size_stage4b_scatter_kernel":
        args = [r.view("topk_ids"), r.view("sorted_ids"), r.view("expert_ids"), r.view("tokens_cnts"),
                r.view("cumsum")]
        consts = {"NUM_EXPERTS": s["experts"], "BLOCK_SIZE": s["block"], "NUMEL": s["numel"],
                  "TOKENS_PER_THREAD": s["per_program"], "SUB_CHUNK": s["sub_chunk"],
                  "NUM_EXPERTS_POW2": next_power_of_2(s["experts"])}
        return Launch(args, consts, (s["programs"], 1, 1))
    return None
