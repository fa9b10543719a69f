"""Small Triton kernels of the workbench's own (written here, not copied): each exercises
one part of the translator. Their cases are in catalog.toml beside this file."""
import triton
import triton.language as tl


@triton.jit
def vec_add(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    """A masked 1-D block: the mask is the tensor's bounds, so the port is a tile access."""
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x + y, mask=mask)


@triton.jit
def row_scale(x_ptr, out_ptr, stride_x, stride_out, n_cols, scale, BLOCK: tl.constexpr):
    """One row per program through a row stride; `other=` padding and a reduction."""
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride_x + cols, mask=mask, other=0.0).to(tl.float32)
    peak = tl.max(tl.abs(x), axis=0)
    y = x * scale / (peak + 1e-6)
    tl.store(out_ptr + row * stride_out + cols, y.to(out_ptr.dtype.element_ty), mask=mask)


@triton.jit
def tile_copy_2d(x_ptr, out_ptr, M, N, stride_m, BM: tl.constexpr, BN: tl.constexpr):
    """A 2-D block from two program ids and broadcast aranges, masked on both axes."""
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rows = pid_m * BM + tl.arange(0, BM)
    cols = pid_n * BN + tl.arange(0, BN)
    offs = rows[:, None] * stride_m + cols[None, :]
    mask = (rows[:, None] < M) & (cols[None, :] < N)
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    tl.store(out_ptr + offs, x * 2.0, mask=mask)


@triton.jit
def gather_rows(table_ptr, index_ptr, out_ptr, D: tl.constexpr, BLOCK: tl.constexpr):
    """A row index read from memory times the row stride: a block at a data-dependent row."""
    pid = tl.program_id(0)
    idx = tl.load(index_ptr + pid)
    cols = tl.arange(0, BLOCK)
    row = tl.load(table_ptr + idx * D + cols)
    tl.store(out_ptr + pid * D + cols, row)


@triton.jit
def advancing_pointer(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    """A pointer advanced inside the loop by a fixed step: followed in closed form (the
    translator's advancing.py), so iteration i reads block i."""
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    ptrs = x_ptr + tl.arange(0, BLOCK)
    for i in range(0, n, BLOCK):
        acc += tl.load(ptrs)
        ptrs += BLOCK
    tl.store(out_ptr + tl.arange(0, BLOCK), acc)
