"""The one GPU target the workbench exports, compiles and diffs for, and the Tile IR
bytecode version both front ends write."""

# The H200 (Hopper). tileiras 13.4 drives `ptxas -arch sm_90a` for it; cutile's
# KernelCompiler defaults to sm_120, so the Rust side is told this explicitly.
TARGET = "sm_90"

# 13.3: the newest version cutile (Rust) writes. tileirdisasm 13.4 prints either; an
# explicit version also keeps cuda-tile from asking tileiras which versions it accepts.
BYTECODE_VERSION = "13.3"
