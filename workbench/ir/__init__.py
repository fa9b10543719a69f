"""Tile IR: export (Python side), disassembly, the model, its parser, printer and normalizer."""
