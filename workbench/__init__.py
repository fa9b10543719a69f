"""cuTile Port Workbench: port cuTile Python kernels to cuTile Rust, checked through Tile IR."""

__version__ = "0.1.0"
