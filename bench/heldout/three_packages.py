"""The third held-out run of bench/heldout.md: forward kernels of three small PyPI packages
this project never saw (lightning-attn 0.0.5, cut-cross-entropy 25.1.1, triton-kernels
0.1.0), called through each package's own host code (or, where a package has none but a GPU
script, the way that script launches them) on CPU tensors, for `workbench record`. The
packages are input only: install them outside this repository, e.g.

    pip download --no-deps lightning-attn==0.0.5 cut-cross-entropy==25.1.1 triton-kernels==0.1.0
    for w in *.whl; do unzip -q -o $w -d /tmp/three-site; done
    PYTHONPATH=/tmp/three-site workbench record bench/heldout/three_packages.py --out /tmp/three.json
    PYTHONPATH=/tmp/three-site workbench port --record /tmp/three.json --launch N
"""
import torch
from cut_cross_entropy.cce_lse_forward import cce_lse_forward_kernel
from cut_cross_entropy.indexed_dot import indexed_neg_dot_forward_kernel
from lightning_attn.ops.triton import srmsnorm
from lightning_attn.ops.triton.lightning_attn2 import LightningAttention2
from lightning_attn.ops.triton.lightning_attn2_no_decay import LightningAttention2NoDecay
from triton_kernels.add_vectors import add_vectors as add_one_block
from triton_kernels.add_vectors2 import add_vectors as add_two_blocks
from triton_kernels.rotary_embedding import rotary_embedding_kernel

torch.manual_seed(0)
b, h, n, d = 2, 4, 256, 64
q, k, v = (torch.randn(b, h, n, d) for _ in range(3))
e, c = torch.randn(256, 128), torch.randn(1000, 128)


def rotary(neox: bool):
    tokens, heads, kv_heads, dim = 16, 4, 2, 64
    query, key = torch.randn(tokens, heads, dim), torch.randn(tokens, kv_heads, dim)
    rotary_embedding_kernel[(tokens,)](
        torch.arange(tokens), query, key, torch.randn(64, dim), query.stride(0),
        key.stride(0), query.stride(1), heads, kv_heads, dim, dim, IS_NEOX=neox,
        DO_KEY_ROPE=True, BLOCK_SIZE_ROT=128)


x, y, out = torch.randn(4096), torch.randn(4096), torch.empty(4096)
OPS = {
    "srms_norm": lambda: srmsnorm._SrmsNorm.apply(torch.randn(128, 512), 1e-6),
    "lightning_attn2": lambda: LightningAttention2.apply(q, k, v, torch.rand(h, 1, 1)),
    "lightning_attn2_no_decay": lambda: LightningAttention2NoDecay.apply(q, k, v),
    "indexed_neg_dot": lambda: indexed_neg_dot_forward_kernel(e, c, torch.randint(0, 1000, (256,))),
    "cce_lse": lambda: cce_lse_forward_kernel(e, c),
    "add_one_block": lambda: add_one_block[(16,)](x, y, out, 4096, BLOCK_SIZE=256),
    "add_two_blocks": lambda: add_two_blocks[(22,)](x, y, out, 4096, BLOCK_SIZE=128,
                                                    BLOCK_SIZE2=64),
    "rotary_neox": lambda: rotary(True),
    "rotary_interleaved": lambda: rotary(False),
}
for name, op in OPS.items():
    try:
        op()
    except Exception as error:      # noqa: BLE001 (a launch the record refuses: say which)
        print(f"{name}: not recorded: {type(error).__name__}: {str(error)[:200]}")
