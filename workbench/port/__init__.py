"""Ports: their Tile IR, the drafting pipeline and its drafters."""
