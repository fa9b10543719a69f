"""A record is a launch rule the user did not have to write: TileGym's own rms_norm host
function, called with each catalog case's tensors and recorded (no GPU), gives the cases the
catalog's hand-written launch rule gives (kernels_src/tilegym/rms_norm/launch.py): the same
arguments, constants and grid, for each of its three modes."""
import warnings

import pytest
import torch

from workbench.argspec import DTYPES
from workbench.catalog import get_operator
from workbench.port.recorded import record_operator
from workbench.sources.recorder import record

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from tilegym.ops.cutile.rms_norm import rms_norm

# TileGym's mode -> the catalog entry its kernel is
MODES = {"multi_wave_cached": "multi_wave_cached", "multi_wave_reload": "gather",
         "static_persistent": "static_persistent"}


@pytest.mark.parametrize("mode", MODES)
def test_tilegym_s_rms_norm_recorded_gives_the_catalog_s_cases(mode, tmp_path):
    entry = get_operator(f"tilegym.rms_norm.{MODES[mode]}")
    for case in entry.cases:
        x_spec = case.args[0]
        dtype = getattr(torch, DTYPES[x_spec.dtype][0])
        x = torch.zeros(x_spec.shape, dtype=dtype)
        w = torch.zeros(x_spec.shape[-1], dtype=dtype)
        with record(tmp_path / f"case{case.index}.json", run=False) as rec:
            rms_norm(x, (x_spec.shape[-1],), w, case.consts.get("eps", case.consts.get("EPS")),
                     mode=mode)
        (recorded,) = record_operator(rec, out=tmp_path / "port").cases
        assert rec.launches[0].kernel.name == entry.kernel_name
        assert [str(a) for a in recorded.args] == [str(a) for a in case.args], case.index
        assert recorded.consts == case.consts, case.index
        assert tuple(recorded.grid) == tuple(case.grid), case.index
