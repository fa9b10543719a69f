"""moe_align_block_size, exactly (integers): each expert's tokens in token order, its segment
padded to a multiple of block_size (the padding slots keep the id numel), cumsum the padded
segments' starts, expert_ids the expert of each padded block (0 past the last block, as the
zero-filled output leaves it), the padded total and the largest pre-padding count. The
PyTorch operation is the same computation with a stable sort."""


def align(ids, experts: int, block: int, sorted_len: int, m_blocks: int, torch):
    numel = ids.numel()
    counts = torch.bincount(ids, minlength=experts)[:experts]
    padded = (counts + block - 1) // block * block
    cumsum = torch.zeros(experts + 1, dtype=torch.int64, device=ids.device)
    cumsum[1:] = torch.cumsum(padded, 0)
    order = torch.argsort(ids, stable=True)
    starts = torch.zeros(experts + 1, dtype=torch.int64, device=ids.device)
    starts[1:] = torch.cumsum(counts, 0)
    ranks = torch.arange(numel, device=ids.device) - starts[ids[order]]
    sorted_ids = torch.full((sorted_len,), numel, dtype=torch.int64, device=ids.device)
    sorted_ids[cumsum[ids[order]] + ranks] = order
    expert_ids = torch.zeros(m_blocks, dtype=torch.int64, device=ids.device)
    blocks = torch.repeat_interleave(torch.arange(experts, device=ids.device), padded // block)
    expert_ids[:blocks.numel()] = blocks
    return {"sorted_ids": sorted_ids, "expert_ids": expert_ids,
            "num_tokens_post_pad": cumsum[-1:].clone(), "cumsum": cumsum,
            "max_expert_cnt": counts.max().reshape(1)}


def _run(t, torch, options):
    experts, block = int(options["experts"]), int(options.get("block_size", 128))
    return align(t["topk_ids"], experts, block, t["sorted_ids"].numel(), t["expert_ids"].numel(), torch)


def reference(t, torch, options):
    return {name: value.double() for name, value in _run(t, torch, options).items()}


def torch_op(t, torch, options):
    return _run(t, torch, options)
