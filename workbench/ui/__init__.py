"""The notebook widget: three linked panes (Python kernel, Rust port, Tile IR diff)."""
