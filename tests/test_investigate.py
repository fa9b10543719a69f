"""The residual-performance investigator (workbench/check/investigate.py): a slow port's
evidence on both sides of the launch, and its owner, with no GPU. Each planted slow port of
kernels_src/fixtures is named with the right owner."""
import json

import pytest

from workbench.check.investigate import investigate
from workbench.fixtures import materialise
from workbench.catalog import get_operator

pytest.importorskip("torch")


def fixture_op(name, tmp_path):
    import dataclasses
    folder = materialise(name, tmp_path / name)
    return dataclasses.replace(get_operator("softmax"), name=name, folder=folder,
                               kernel_path=None, port_path=None)


def test_a_host_side_that_waits_for_the_gpu_is_the_host_s(tmp_path):
    """slow_sync: the port's C ABI synchronizes the stream after every launch. Its host
    code, run through the recording driver, shows the synchronize; the owner is the host and
    the fix goes to write_host."""
    found = investigate(fixture_op("slow_sync", tmp_path), 0, 1.4)
    assert found.owner == "host" and found.fix_stage == "write_host", found.lines()
    assert found.summary.startswith("1.40x the reference's time: the port's host code waits "
                                    "for the GPU (stream or context synchronize) 1 time(s)")
    assert "port's driver calls in one call: synchronize x1, launch x1" in found.evidence


def test_a_kernel_that_drops_the_reference_s_hints_is_the_kernel_s(tmp_path):
    """no_hints: the Rust kernel drops occupancy 8 and 8 worker warps. The IR states less
    where speed is decided and the SASS shows it; the owner is the kernel."""
    found = investigate(fixture_op("no_hints", tmp_path), 0)
    assert found.owner == "kernel" and found.fix_stage == "write_kernel", found.lines()
    assert "states less where speed is decided: [" in found.summary
    assert "(SASS: " in found.summary and "hint" in found.summary
    assert "port's driver calls in one call: launch x1" in found.evidence
    assert json.loads(json.dumps(found.to_json()))["verdict"] == "FIX_KERNEL"


def test_the_command_line_investigates_a_catalog_port(cli):
    result = cli("investigate", "softmax", "--case", "2", "--json", timeout=600)
    assert result.returncode == 0, result.stderr
    (found,) = json.loads(result.stdout)
    assert found["case"] == 2 and found["owner"] in ("compiler", "undetermined")
    assert "reference launch: 1 kernel, grid (37, 1, 1)" in found["evidence"]
    refused = cli("investigate", "tilegym.softmax")
    assert refused.returncode != 0 and "investigate one entry of it" in refused.stderr
