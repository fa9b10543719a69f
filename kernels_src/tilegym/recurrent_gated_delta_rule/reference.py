"""The gated delta rule in float64, token by token (TileGym's torch_recurrent_gated_delta_rule):
per value head, S <- S * exp(g); S <- S + k (beta (v - S^T k))^T; o = S^T (q * scale), with q
and k L2-normalized first when asked (eps 1e-6 under the root); the query/key head is shared
by HV / H value heads. Returns o and the final state (when the case has one). The PyTorch
operation is the same loop in float32."""
from workbench.refmath import delta_rule_queries_keys


def _run(t, torch, options, dtype):
    q, k, v = (t[n].to(dtype) for n in ("query", "key", "value"))
    g, beta = t["g"].to(dtype), t["beta"].to(dtype)
    batch, tokens, heads, dim_k = q.shape
    heads_v, dim_v = v.shape[2], v.shape[3]
    group = heads_v // heads
    q, k = q.repeat_interleave(group, 2), k.repeat_interleave(group, 2)
    q, k = delta_rule_queries_keys(q, k, options, torch)
    has_state = options.get("state", True)
    state = t["state_in"].to(dtype).clone() if has_state else \
        torch.zeros((batch, heads_v, dim_k, dim_v), dtype=dtype, device=q.device)
    out = torch.empty((batch, tokens, heads_v, dim_v), dtype=dtype, device=q.device)
    for i in range(tokens):
        state = state * torch.exp(g[:, i])[..., None, None]
        kv_mem = torch.einsum("bhkv,bhk->bhv", state, k[:, i])
        delta = (v[:, i] - kv_mem) * beta[:, i][..., None]
        state = state + k[:, i][..., :, None] * delta[..., None, :]
        out[:, i] = torch.einsum("bhkv,bhk->bhv", state, q[:, i])
    return out, state


def reference(t, torch, options):
    out, state = _run(t, torch, options, torch.float64)
    return {"out": out, "state_out": state} if options.get("state", True) else {"out": out}


def torch_op(t, torch, options):
    return _run(t, torch, options, torch.float32)
