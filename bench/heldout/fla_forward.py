"""The held-out run of bench/heldout.md: forward ops of fla-core 0.6.0 (flash-linear-attention's
kernels, PyPI) called through the package's own host functions on CPU tensors, for
`workbench record`. fla is input only: install it outside this repository, e.g.

    pip install --no-deps --target /tmp/fla-site fla-core==0.6.0 einops
    PYTHONPATH=/tmp/fla-site workbench record bench/heldout/fla_forward.py --out /tmp/fla.json
    PYTHONPATH=/tmp/fla-site workbench port --record /tmp/fla.json --launch N
"""
import sys

import torch
from fla.modules import token_shift as ts
from fla.modules.activations import ops as act
from fla.modules.fused_cross_entropy import ops as ce
from fla.modules.norm import fused_norm_gate as fng, l2norm as l2, layernorm as ln
from fla.modules.norm import layernorm_gated as lng
from fla.modules.rotary import ops as rot
from fla.ops.utils import cumsum as cs, logsumexp as lse, pooling as pool, softmax as sm

torch.manual_seed(0)
T, D = 512, 256
bf16 = torch.bfloat16
x3, y3 = torch.randn(4, T // 4, D, dtype=bf16), torch.randn(4, T // 4, D, dtype=bf16)
x2, g2 = torch.randn(T, D, dtype=bf16), torch.randn(T, D, dtype=bf16)
w, b = torch.randn(D), torch.randn(D)
xf = torch.randn(T, D)

OPS = {
    "sigmoid": lambda: act.sigmoid_fwd(x3),
    "elu_p1": lambda: act.elu_p1_fwd(x3),
    "logsigmoid": lambda: act.logsigmoid_fwd(x3, temperature=2.0),
    "swish": lambda: act.swish_fwd(x3),
    "swiglu": lambda: act.swiglu_fwd(x3, y3),
    "layer_norm": lambda: ln.layer_norm_fwd(x2, w, b, eps=1e-5),
    "rms_norm": lambda: ln.layer_norm_fwd(x2, w, None, eps=1e-6, is_rms_norm=True),
    "layer_norm_residual": lambda: ln.layer_norm_fwd(x2, w, b, residual=torch.randn(T, D, dtype=bf16)),
    "layer_norm_row": lambda: ln.layer_norm_fwd(torch.randn(64, 1024, dtype=bf16),
                                                torch.randn(1024), torch.randn(1024)),
    "group_norm": lambda: ln.layer_norm_fwd(x2, torch.randn(D), torch.randn(D), num_groups=1),
    "l2norm": lambda: l2.l2norm_fwd(x2),
    "l2norm_row": lambda: l2.l2norm_fwd(torch.randn(64, 1024)),
    "rotary": lambda: rot.rotary_embedding_fwdbwd(torch.randn(2, 128, 4, 64, dtype=bf16),
                                                  torch.randn(128, 32, dtype=bf16),
                                                  torch.randn(128, 32, dtype=bf16)),
    "local_cumsum": lambda: cs.chunk_local_cumsum(torch.randn(2, 256, 4), chunk_size=64),
    "local_cumsum_vector": lambda: cs.chunk_local_cumsum(torch.randn(2, 256, 4, 32), chunk_size=64),
    "global_cumsum": lambda: cs.chunk_global_cumsum(torch.randn(2, 256, 4)),
    "softmax": lambda: sm.softmax_fwd(xf),
    "logsumexp": lambda: lse.logsumexp_fwd(xf, scale=0.5),
    "norm_gate": lambda: fng.layer_norm_gated_fwd(x2, g2, w, b),
    "rms_gate": lambda: fng.layer_norm_gated_fwd(x2, g2, w, None, activation="sigmoid",
                                                 is_rms_norm=True),
    "layer_norm_gated": lambda: lng.layer_norm_fwd(x2, w, b, 1e-5, z=g2),
    "layer_norm_gated_groups": lambda: lng.layer_norm_fwd(x2, w, b, 1e-5, z=g2, group_size=64,
                                                          norm_before_gate=False),
    "token_shift": lambda: ts.token_shift_fwd(torch.randn(2, 64, D, dtype=bf16)),
    "cross_entropy": lambda: ce.cross_entropy_fwd(torch.randn(64, 1000),
                                                  torch.randint(0, 1000, (64,))),
    "mean_pooling": lambda: pool.mean_pooling_fwd(torch.randn(2, 128, 4, 64), chunk_size=32),
}

for name, op in OPS.items():
    if len(sys.argv) < 2 or name in sys.argv[1:]:
        op()
