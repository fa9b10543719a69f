"""cuTile Port Workbench: port cuTile Python kernels to cuTile Rust, checked through Tile IR."""

__version__ = "0.1.0"


def load_ipython_extension(ipython) -> None:
    """`%load_ext workbench`: the %port, %%cutile and %%rust magics."""
    from .magics import load_ipython_extension as load
    load(ipython)
