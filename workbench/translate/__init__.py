"""Triton kernels as a port source: `@triton.jit` kernels read by AST (reader.py, without
importing torch), translated into a derived cuTile Python kernel (translate.py and its
mixins, derive.py), and compiled to TTIR without a GPU (ttir.py)."""
