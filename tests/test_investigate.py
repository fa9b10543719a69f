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


def test_a_port_launched_with_a_smaller_grid_is_the_host_s(tmp_path):
    """half_grid: the port's C ABI launches half the reference's blocks. Its launch, recorded
    on the CPU, names both grids; the owner is the host and the fix goes to write_host."""
    found = investigate(fixture_op("half_grid", tmp_path), 0, 0.6)
    assert found.owner == "host" and found.fix_stage == "write_host", found.lines()
    assert found.summary == ("0.60x the reference's time: the port launches grid (128, 1, 1) "
                             "where the reference launches (256, 1, 1)")


def test_the_command_line_investigates_a_catalog_port(cli):
    result = cli("investigate", "softmax", "--case", "2", "--json", timeout=600)
    assert result.returncode == 0, result.stderr
    (found,) = json.loads(result.stdout)
    assert found["case"] == 2 and found["owner"] in ("compiler", "undetermined")
    assert "reference launch: 1 kernel, grid (37, 1, 1)" in found["evidence"]
    refused = cli("investigate", "tilegym.softmax")
    assert refused.returncode != 0 and "investigate one entry of it" in refused.stderr


def _sass(lines):
    return "\n".join(f"        /*{16 * i:04x}*/                   {text} ;" for i, text in
                     enumerate(lines))


LOOP_HEAD = ["MOV R1, c[0x0][0x28]", "WARPGROUP.ARRIVE",
             "HGMMA.64x64x16.F32.BF16 R24, gdesc[UR4], R24, gsb0"]


@pytest.mark.parametrize("wait,serialized,exposed", [(0, True, 3), (1, False, 0)])
def test_the_sass_schedule_tells_a_loop_that_waits_for_its_products_from_one_that_overlaps(
        wait, serialized, exposed):
    """Issue, wait, float work, branch back: with `gsb0, 0` the float work runs with no
    product in flight (the tensor cores and the other units take turns); with `gsb0, 1` it
    runs beside the group just issued."""
    from workbench.sass.model import parse_sass
    from workbench.sass.schedule import loop_schedule
    text = _sass(LOOP_HEAD + [f"WARPGROUP.DEPBAR.LE gsb0, 0x{wait}", "FMNMX R2, R24, R2, !PT",
                              "MUFU.EX2 R3, R2", "FADD R4, R3, R4", "@P0 BRA 0x10", "EXIT"])
    schedule = loop_schedule(parse_sass(text))
    assert (schedule.start, schedule.end, schedule.groups) == (0x10, 0x70, [1])
    assert schedule.serialized is serialized
    assert sum(schedule.exposed.values()) == exposed
    assert sum(schedule.overlapped.values()) == 3 - exposed
    assert loop_schedule(parse_sass(_sass(["FADD R4, R3, R4", "@P0 BRA 0x0"]))) is None


def test_an_unrolled_loop_s_many_groups_and_waits_are_counted_not_listed():
    from workbench.sass.model import parse_sass
    from workbench.sass.schedule import loop_schedule
    step = ["HGMMA.64x64x16.F32.BF16 R24, gdesc[UR4], R24, gsb0", "WARPGROUP.DEPBAR.LE gsb0, 0x0",
            "FADD R4, R24, R4"]
    schedule = loop_schedule(parse_sass(_sass(["MOV R1, R2"] + step * 6 + ["@P0 BRA 0x10"])))
    lines = schedule.lines()
    assert lines[0].endswith("6 matrix groups (HGMMAs per group: 1 x6)"), lines
    assert lines[1] == "waits: WARPGROUP.DEPBAR.LE gsb0, 0 x6" and schedule.serialized


def test_the_attention_port_s_gap_to_sdpa_is_read_from_its_sass(cli):
    """The attention port is the reference's machine code (owner `undetermined` against
    it), yet 1.27x PyTorch's SDPA on an H100 (the committed bench run); --peer reads why
    from the SASS of the program that runs the shape (its tuned.toml entry: attention_exp2):
    each matrix group is waited for before the online softmax's float work, an overlap no
    Tile IR states. On a case without an entry (the catalog's program) it also names the
    kernel's part: the accurate exp's range reduction."""
    from workbench.catalog import REPO_ROOT
    bench = REPO_ROOT / "bench" / "results" / "2026-12-06-h100-attention-ffma" / "tune_bench.json"
    result = cli("investigate", "attention", "--case", "3", "--peer", str(bench), "--json",
                 timeout=900)
    assert result.returncode == 0, result.stderr
    (found,) = json.loads(result.stdout)
    peer = found["peer"]
    assert peer["owner"] == "compiler" and round(peer["ratio"], 2) == 1.27, peer
    assert "WARPGROUP.DEPBAR.LE gsb0, 0" in peer["summary"]
    assert any(line.startswith("float work with no product in flight: ")
               and line.endswith("while a product runs: 0") for line in peer["evidence"])
    assert "exp: MUFU.EX2 x68, no range reduction around it" in peer["evidence"]
    assert peer["kernel_part"] == []
    catalog = cli("investigate", "attention", "--case", "0", "--peer", timeout=900)
    assert catalog.returncode == 0, catalog.stderr
    assert "against the fastest peer: compiler: the main loop waits" in catalog.stdout
    assert "kernel's part: its exp is the accurate one" in catalog.stdout
    memory_bound = cli("investigate", "softmax", "--case", "2", "--peer", timeout=600)
    assert memory_bound.returncode == 0, memory_bound.stderr
    assert "against the fastest peer: undetermined: the port's SASS has no loop of matrix " \
           "products" in memory_bound.stdout
