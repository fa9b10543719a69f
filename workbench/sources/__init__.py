"""Where kernels come from: a catalog operator, FILE.py:KERNEL, or MODULE:KERNEL of an
installed package (read by AST and cuda.tile, without importing torch or the package).
Knows the catalog; knows nothing of IR, Rust or drafting."""
