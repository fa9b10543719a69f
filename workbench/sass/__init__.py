"""Machine code without a GPU: Tile IR bytecode -> sm_90 cubin (tileiras) -> SASS model."""
