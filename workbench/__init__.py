"""cuTile Port Workbench: port cuTile Python kernels to cuTile Rust, checked through Tile IR."""
from .sources.recorder import record as recording

__version__ = "0.1.0"


def load_ipython_extension(ipython) -> None:
    """`%load_ext workbench`: the %port, %%cutile and %%rust magics."""
    # imported here: `import workbench` (workbench.record in a user's script, the GPU host)
    # must not need IPython, the notebook's dependency
    from .magics import load_ipython_extension as load
    load(ipython)


def record(out=None, source: str = "a call", run: bool | None = None, keep_data: bool = False):
    """`with workbench.record() as rec: my_op(x)`: every kernel launch the block makes,
    recorded (workbench/sources/recorder.py); with no GPU the launches are not run.
    keep_data: the launches' input values (and, where they ran, outputs) are kept too."""
    return recording(out, source, run, keep_data)
