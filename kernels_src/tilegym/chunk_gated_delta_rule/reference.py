"""The gated delta rule in float64, token by token (what the chunked form computes exactly):
per head, S <- S * exp(g); S <- S + k (beta (v - S^T k))^T; o = S^T (q * scale), scale
1 / sqrt(K), with q and k L2-normalized first when asked (eps 1e-6 under the root). The
kernels leave o in their chunked layout [B, H, chunks, chunk_size, V] (f32, rows past T zero:
those tokens are zero-padded, so they neither answer nor change the state), and the final
state [B, H, K, V] when the case has one. The PyTorch operation is the same loop in float32,
laid out the same way."""
from workbench.refmath import delta_rule_queries_keys


def _run(t, torch, options, dtype):
    q, k, v = (t[n].to(dtype) for n in ("query", "key", "value"))
    g, beta = t["g"].to(dtype), t["beta"].to(dtype)
    batch, tokens, heads, dim_k = q.shape
    dim_v = v.shape[3]
    q, k = delta_rule_queries_keys(q, k, options, torch)
    has_state = options.get("state", True)
    state = t["state_in"].to(dtype).clone() if has_state else \
        torch.zeros((batch, heads, dim_k, dim_v), dtype=dtype, device=q.device)
    chunk = int(options.get("chunk_size", 64))
    padded = -(-tokens // chunk) * chunk
    out = torch.zeros((batch, heads, padded, dim_v), dtype=dtype, device=q.device)
    for i in range(tokens):
        state = state * torch.exp(g[:, i])[..., None, None]
        kv_mem = torch.einsum("bhkv,bhk->bhv", state, k[:, i])
        delta = (v[:, i] - kv_mem) * beta[:, i][..., None]
        state = state + k[:, i][..., :, None] * delta[..., None, :]
        out[:, :, i] = torch.einsum("bhkv,bhk->bhv", state, q[:, i])
    out = out.reshape(batch, heads, padded // chunk, chunk, dim_v)
    return {"out": out, "state_out": state} if has_state else {"out": out}


def reference(t, torch, options):
    return _run(t, torch, options, torch.float64)


def torch_op(t, torch, options):
    return _run(t, torch, options, torch.float32)
