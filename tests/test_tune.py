"""Tuning a port (workbench/tune, rust/tuned.py, issue 36 part 3): the knobs a port exposes,
the candidates a sweep tries, which one is kept (never a failed one, never one slower than
the untuned port), how it is kept (tuned.toml, the file it replaces kept beside it, the
port's build untouched), the hint words that cross the C ABI into the Tile IR, and the
command's answers without a GPU. The sweep's timing itself runs on the GPU only
(tools/gpu_session.py tune, bench/tune_bench.py)."""
import dataclasses
import json
import re

import pytest

from port_copies import COLD_BUILD
from workbench.catalog import get_operator
from workbench.errors import WorkbenchError
from workbench.rust.cargo import source_hash
from workbench.rust.ffi import CallPlan, ArgumentError
from workbench.rust.manifest import load_manifest
from workbench.rust.tuned import PREVIOUS, case_arrays, load_tuned, tuned_path
from workbench.session import copy_port
from workbench.tune.knobs import candidates, knobs_for
from workbench.tune.sweep import CaseSweep, Trial, _keep, plan_sweeps

SOFTMAX = get_operator("softmax")
LARGE = SOFTMAX.case(3)                  # f16[16384,4096], TILE_COLS=4096


def test_a_port_s_knobs_are_its_tile_constants_and_the_hints_it_takes():
    knobs = {k.name: k for k in knobs_for(LARGE, load_manifest(SOFTMAX))}
    assert knobs["TILE_COLS"].values == (2048, 4096, 8192)
    assert knobs["occupancy"].values == (0, 1, 2, 4, 8) and knobs["num_ctas"].values == (0, 2)
    assert knobs["program"].values == (0, 1)               # the entry, softmax_row_gather
    found, total = candidates(list(knobs.values()), LARGE)
    assert total == 3 * 5 * 2 * 2 - 1 and len(found) == 48  # all but the untuned, sampled
    assert "as catalogued" not in {c.id for c in found}
    assert {"program=1", "occupancy=2", "TILE_COLS=8192"} <= {c.id for c in found}  # alone
    whole, _ = candidates(list(knobs.values()), LARGE, limit=100)
    assert {"TILE_COLS=8192 occupancy=2", "num_ctas=2", "program=1"} <= {c.id for c in whole}
    matmul = get_operator("matmul")
    names = {k.name for k in knobs_for(matmul.case(3), load_manifest(matmul))}
    assert {"TILE_M", "TILE_N", "TILE_K"} <= names
    attention = get_operator("attention")
    assert "HEAD_DIM" not in {k.name for k in knobs_for(attention.case(0),
                                                        load_manifest(attention))}


def test_the_user_s_knobs_replace_the_defaults_and_a_big_grid_is_sampled_the_same_way():
    manifest = load_manifest(SOFTMAX)
    knobs = knobs_for(LARGE, manifest, ["occupancy=1,2", "num_worker_warps=4,8"])
    assert {k.name: k.values for k in knobs}["occupancy"] == (1, 2)
    matmul = get_operator("matmul")
    wide = knobs_for(matmul.case(3), load_manifest(matmul))
    first, total = candidates(wide, matmul.case(3), limit=20)
    again, _ = candidates(wide, matmul.case(3), limit=20)
    assert total == 27 * 10 * 2 - 1 and len(first) == 20     # x program (matmul_persistent)
    assert [c.id for c in first] == [c.id for c in again]


@pytest.mark.parametrize("text, says", [
    ("TILEX=1", "no such knob for this port"),
    ("occupancy=two", "the values must be whole numbers"),
    ("TILE_COLS=0", "values must be at least 1"),
    ("occupancy", "not NAME=V1,V2"),
    ("program=0,2", "1 tile programs besides its entry"),
])
def test_a_knob_that_does_not_exist_or_a_bad_value_is_refused_with_what_to_do(text, says):
    with pytest.raises(WorkbenchError) as refused:
        knobs_for(LARGE, load_manifest(SOFTMAX), [text])
    assert says in str(refused.value)
    assert refused.value.hint


def test_a_hint_knob_on_a_port_that_applies_no_hints_says_how_to_make_it_apply_them():
    no_hints = dataclasses.replace(load_manifest(SOFTMAX), hints=False)
    with pytest.raises(WorkbenchError) as refused:
        knobs_for(LARGE, no_hints, ["occupancy=2"])
    assert "applies no compile hints" in str(refused.value)
    assert "call.options()" in refused.value.hint
    assert [k.name for k in knobs_for(LARGE, no_hints)] == ["TILE_COLS"]


def _sweep(untuned, *trials):
    return CaseSweep(3, LARGE.label(), case_arrays(LARGE), len(trials), list(trials),
                     reference_us=100.0, untuned_us=untuned)


def test_the_kept_candidate_is_the_fastest_correct_one_and_only_past_the_margin():
    wrong = Trial("TILE_COLS=2048", {"TILE_COLS": 2048}, {}, False, "relative error 0.4", 50.0)
    good = Trial("occupancy=2", {}, {"occupancy": 2}, True, "", 90.0)
    close = Trial("occupancy=4", {}, {"occupancy": 4}, True, "", 99.5)
    assert _sweep(100.0, wrong, good, close).best(0.02) is good     # never the failed one
    assert _sweep(100.0, wrong, close).best(0.02) is None            # within the noise
    slower = Trial("num_ctas=2", {}, {"num_ctas": 2}, True, "", 130.0)
    assert _sweep(100.0, slower).best(0.0) is None                   # never slower
    untimed = Trial("occupancy=8", {}, {"occupancy": 8}, True, "not timed", None)
    assert _sweep(100.0, untimed).best(0.0) is None


def test_keeping_writes_tuned_toml_keeps_the_file_it_replaces_and_never_rebuilds(tmp_path):
    op = copy_port(SOFTMAX, tmp_path / "port")
    tuned_path(op).unlink(missing_ok=True)        # the catalog port's own entry: not this test's
    built_from = source_hash(op)
    first = _sweep(100.0, Trial("occupancy=2", {}, {"occupancy": 2}, True, "", 90.0))
    first.kept = first.best(0.02)
    written = _keep(op, [first], "NVIDIA H200")
    assert written == str(tuned_path(op)) and not (op.port_folder / PREVIOUS).exists()
    entry = load_tuned(op)[case_arrays(LARGE)]
    assert entry.hints == {"occupancy": 2} and entry.consts == {}
    assert entry.measured["tuned_us"] == 90.0 and entry.measured["device"] == "NVIDIA H200"
    assert source_hash(op) == built_from          # launch-time data: the build stands
    old_text = tuned_path(op).read_text()

    assert _keep(op, [first], "NVIDIA H200") is None     # nothing changed: untouched
    better = _sweep(90.0, Trial("TILE_COLS=8192", {"TILE_COLS": 8192}, {}, True, "", 80.0))
    better.kept = better.best(0.02)
    _keep(op, [better], "NVIDIA H200")
    assert load_tuned(op)[case_arrays(LARGE)].consts == {"TILE_COLS": 8192}
    assert (op.port_folder / PREVIOUS).read_text() == old_text

    nothing_better = _sweep(100.0, Trial("num_ctas=2", {}, {"num_ctas": 2}, True, "", 120.0))
    _keep(op, [nothing_better], "NVIDIA H200")
    assert load_tuned(op) == {}                   # untuned won: the entry is gone


def test_the_current_entry_competes_in_the_next_sweep_and_bad_knobs_stop_before_any_work(
        tmp_path):
    op = copy_port(SOFTMAX, tmp_path / "port")
    sweep = _sweep(100.0, Trial("occupancy=2", {}, {"occupancy": 2}, True, "", 90.0))
    sweep.kept = sweep.best(0.02)
    _keep(op, [sweep], "NVIDIA H200")
    (planned,) = plan_sweeps(op, [3], ["occupancy=1"])
    assert [t.id for t in planned.trials][-1] == "kept"
    assert planned.trials[-1].hints == {"occupancy": 2}
    with pytest.raises(WorkbenchError, match="no such knob"):
        plan_sweeps(op, [3], ["BLOCK=4"])


def test_a_malformed_tuned_toml_names_the_file_and_how_to_get_back(tmp_path):
    op = copy_port(SOFTMAX, tmp_path / "port")
    tuned_path(op).write_text("[[entry]]\nconsts = {}\n")
    with pytest.raises(WorkbenchError) as refused:
        load_tuned(op)
    assert str(tuned_path(op)) in str(refused.value) and PREVIOUS in refused.value.hint


def test_hints_cross_the_c_abi_only_to_a_port_that_applies_them():
    import numpy as np
    x = np.zeros((4, 1000), np.float32)
    plan = CallPlan(SOFTMAX)
    assert plan.hint_slots == 4 and plan.programs == 1
    host = _host_arrays(x)
    *_, consts, count = plan.prepared(host, {"TILE_COLS": 1024}, hints={"occupancy": 2})
    assert count == 5 and list(consts)[:5] == [1024, 2, 0, 0, 0]
    *_, consts, count = plan.prepared(host, {"TILE_COLS": 1024}, hints={"program": 1})
    assert count == 5 and list(consts)[:5] == [1024, 0, 0, 0, 1]
    with pytest.raises(ArgumentError, match="1 tile programs besides its entry"):
        plan.prepared(host, {"TILE_COLS": 1024}, hints={"program": 2})
    *_, count = plan.prepared(host, {"TILE_COLS": 1024})
    assert count == 1
    plain = CallPlan(SOFTMAX, dataclasses.replace(load_manifest(SOFTMAX), hints=False))
    with pytest.raises(ArgumentError, match="applies none"):
        plain.prepared(host, {"TILE_COLS": 1024}, hints={"occupancy": 2})


def _host_arrays(x):
    from workbench.check.host_transport import HostArray
    return {"x": HostArray(x), "out": HostArray(x.copy())}


@COLD_BUILD
def test_the_hints_a_call_gives_are_what_the_launched_tile_ir_states():
    """Through the port's own C call on the CPU (the recording driver): the kernel it
    launches states the hints given, for sm_90, over the entry's own."""
    import numpy as np
    from workbench.check.cuda_stub import NoHostRun
    from workbench.check.host_cpu import profile_port_host
    x = np.random.rand(4, 1000).astype(np.float32)
    try:
        launches, _ = profile_port_host(SOFTMAX, {"x": x, "out": x.copy()}, {"TILE_COLS": 1024},
                                        None, {"occupancy": 2, "num_worker_warps": 4})
        untuned, _ = profile_port_host(SOFTMAX, {"x": x, "out": x.copy()}, {"TILE_COLS": 1024},
                                       None)
    except NoHostRun as e:
        pytest.skip(str(e))
    assert "sm_90 = {num_worker_warps_per_cta = 4, occupancy = 2}" in launches[0]["hints"]
    assert "sm_90 = {num_worker_warps_per_cta = 8, occupancy = 8}" in untuned[0]["hints"]


def test_every_port_that_says_it_takes_hints_hands_them_to_its_launch():
    from workbench.catalog import KERNELS_DIR
    for manifest in KERNELS_DIR.glob("*/port/port.toml"):
        if re.search(r"^hints\s*=\s*true", manifest.read_text(), re.M):
            sources = "".join(p.read_text() for p in (manifest.parent / "src").glob("*.rs"))
            assert ".compile_options(call.options())" in sources, manifest


def test_the_command_without_a_gpu_says_skipped_shows_the_plan_and_changes_nothing(cli):
    before = tuned_path(SOFTMAX).read_bytes() if tuned_path(SOFTMAX).exists() else None
    result = cli("tune", "softmax", "--case", "3", "--knob", "occupancy=1,2", "--json")
    assert result.returncode == 3, result.stderr
    report = json.loads(result.stdout)
    assert report["status"] == "skipped" and "no CUDA device" in report["reason"]
    # TILE_COLS x occupancy x num_ctas x program
    assert len(report["cases"][0]["trials"]) == 3 * 2 * 2 * 2 + (before is not None)
    after = tuned_path(SOFTMAX).read_bytes() if tuned_path(SOFTMAX).exists() else None
    assert after == before and report["written"] is None
    assert report["programs"] == ["softmax_row_gather"]
    shown = cli("tune", "softmax", "--case", "3", "--knob", "occupancy=1,2")
    assert "program=1 runs softmax_row_gather" in shown.stdout, shown.stdout
    refused = cli("tune", "tilegym.softmax")
    assert refused.returncode != 0 and "tune sweeps a cuTile operator's own port" in \
        refused.stderr
    bad = cli("tune", "softmax", "--knob", "TILEX=1")
    assert bad.returncode != 0 and "its knobs: TILE_COLS, occupancy" in bad.stderr


def test_a_sweep_read_back_from_the_h200_run_shows_what_was_kept(tmp_path):
    """The attention sweep of bench/results/2026-12-04-tune (a real GPU run), read back and
    shown: the table names the kept candidate and its ratio, the plot is drawn."""
    from workbench.catalog import REPO_ROOT
    from workbench.tune.report import format_tune, plot_tune
    from workbench.tune.sweep import report_from_json
    saved = REPO_ROOT / "bench" / "results" / "2026-12-04-tune" / "attention.json"
    report = report_from_json(json.loads(saved.read_text()))
    text = format_tune(report, 0.02)
    assert "32 candidates (a sample of 89)" in text
    assert "kept: TILE_Q=256 occupancy=2 num_ctas=2 (0.743x the untuned port)" in text
    assert json.loads(json.dumps(report.to_json()))["cases"][0]["kept"] == \
        "TILE_Q=256 occupancy=2 num_ctas=2"
    pytest.importorskip("matplotlib")
    png = plot_tune(report, tmp_path / "attention.png")
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_sampled_case_of_a_port_tuned_to_other_tiles_is_judged_where_each_side_wrote():
    import numpy as np
    from workbench.check.cpu_own import _sampled_where
    from workbench.rust.tuned import TunedEntry
    python = np.array([1.0, 2.0, np.nan, np.nan])     # the reference's sampled blocks
    rust = np.array([np.nan, 2.0, 3.0, np.nan])       # the tuned port's (other tiles)
    produced = {"python": {"out": python}, "rust": {"out": rust}}
    same_tiles = _sampled_where(produced, ["out"], TunedEntry("", {}, {"occupancy": 2}))
    assert same_tiles["rust"]["out"].tolist() == [True, True, False, False]
    other_tiles = _sampled_where(produced, ["out"], TunedEntry("", {"TILE_COLS": 8}, {}))
    assert other_tiles["python"]["out"].tolist() == [True, True, False, False]
    assert other_tiles["rust"]["out"].tolist() == [False, True, True, False]
    assert other_tiles["cross"]["out"].tolist() == [False, True, False, False]


@COLD_BUILD
def test_the_cpu_check_runs_the_port_as_its_tuned_entry_says_and_catches_a_bad_entry():
    """A tuned entry is part of the port: `check --cpu` launches the port's own C call with
    it (and says so), and an entry the port cannot run is a failed check."""
    from port_copies import fresh_copy
    from workbench.check.report import CPU, check_operator
    from workbench.rust.tuned import TunedEntry, write_tuned
    op = fresh_copy("tune_cpu_check")
    arrays = case_arrays(op.case(0))                      # f32[256,1000] twice
    write_tuned(op, {arrays: TunedEntry(arrays, {"TILE_COLS": 2048}, {"occupancy": 2})}, "test")
    response = check_operator(op, [0], on=CPU)
    assert response.status == "ok", response.reason
    assert response.results[0]["tuned"] == {"consts": {"TILE_COLS": 2048},
                                            "hints": {"occupancy": 2}}
    write_tuned(op, {arrays: TunedEntry(arrays, {"TILE_COLS": 512}, {})}, "test")
    response = check_operator(op, [0], on=CPU)
    assert response.status == "fail"
    assert "a row must fit one tile" in response.results[0]["sides"]["rust"]["reason"]


OTHER_PROGRAMS = [("softmax", 2, "softmax_row_gather"),       # bf16[37,777]: a partial tile
                  ("rms_norm", 1, "rms_norm_row_gather"),     # f16[100,4000]
                  ("layer_norm", 2, "layer_norm_row_gather"),  # bf16[33,513]
                  ("attention", 1, "attention_exp2")]          # bf16[8,1000,64]: a partial KV tile


@COLD_BUILD
@pytest.mark.parametrize("name,case_index,program", OTHER_PROGRAMS)
def test_a_tuned_entry_may_run_another_tile_program_of_the_port_and_its_numbers_are_checked(
        name, case_index, program):
    """A port.toml may list other programs (the row operators': the row as a 1-D gather and
    scatter, softmax's with approximate exp and division; attention's: the online softmax in
    base 2); an entry that chooses one runs that entry of the module through the port's own
    C call, and its numbers are checked like any candidate's."""
    from port_copies import fresh_copy
    from workbench.check.report import CPU, check_operator
    from workbench.rust.emit import emit_request
    from workbench.rust.tuned import TunedEntry, write_tuned
    op = fresh_copy(f"tune_program_{name}", name)
    arrays = case_arrays(op.case(case_index))
    write_tuned(op, {arrays: TunedEntry(arrays, {}, {"program": 1})}, "test")
    response = check_operator(op, [case_index], on=CPU)
    assert response.status == "ok", response.reason
    assert response.results[0]["tuned"]["hints"] == {"program": 1}
    assert response.results[0]["sides"]["rust"]["ok"]
    tuned_case = dataclasses.replace(op.case(case_index), hints={"program": 1})
    tuned_op = dataclasses.replace(op, cases=(tuned_case,))
    assert f"entry {program}\n" in emit_request(tuned_op, case_index)
    assert "options" not in emit_request(tuned_op, case_index)   # a program is no compile option


def test_a_program_past_the_port_s_list_is_refused_with_the_programs_it_has():
    from workbench.rust.emit import emit_request
    op = get_operator("softmax")
    bad = dataclasses.replace(op, cases=(dataclasses.replace(op.case(0), hints={"program": 2}),))
    with pytest.raises(WorkbenchError, match=r"program 2: the port has 1 other tile program"
                                             r"\(s\) \(softmax_row_gather\)"):
        emit_request(bad, 0)


@COLD_BUILD
def test_matmul_s_persistent_program_computes_every_tile_of_a_partial_grid():
    """matmul's second program walks the output tiles persistently, grouped by rows of
    tiles: on 1000 x 777 x 500 (partial tiles on every side), with more tiles than blocks
    (32 x 16 tiles of 32 x 32 on the recording driver's 132 SMs), every tile is written."""
    from port_copies import fresh_copy
    from workbench.check.report import CPU, check_operator
    from workbench.rust.tuned import TunedEntry, write_tuned
    op = fresh_copy("tune_persistent", "matmul")
    arrays = case_arrays(op.case(1))
    write_tuned(op, {arrays: TunedEntry(arrays, {"TILE_M": 32, "TILE_N": 32},
                                        {"program": 1})}, "test")
    response = check_operator(op, [1], on=CPU)
    assert response.status == "ok", response.reason
    assert response.results[0]["sides"]["rust"]["ok"]
    assert response.results[0]["tuned"]["hints"] == {"program": 1}


def test_the_widget_shows_a_sweep_fastest_first_with_what_was_kept():
    from workbench.catalog import REPO_ROOT
    from workbench.tune.sweep import report_from_json
    from workbench.ui.results import tune_result
    saved = REPO_ROOT / "bench" / "results" / "2026-12-04-tune" / "attention.json"
    shown = tune_result(report_from_json(json.loads(saved.read_text())))
    assert shown["title"] == "tune: kept TILE_Q=256 occupancy=2 num_ctas=2" and shown["ok"]
    (table,) = shown["tables"]
    assert table["rows"][0][0] == "TILE_Q=256 occupancy=2 num_ctas=2"
    assert table["rows"][0][2] == "0.743" and table["rows"][0][3] == "ok"
    assert "kept: TILE_Q=256 occupancy=2 num_ctas=2 (0.743x the untuned port)" in table["title"]
    times = [float(r[1]) for r in table["rows"] if r[1] != "-"]
    assert times == sorted(times)
