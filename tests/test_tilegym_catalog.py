"""TileGym's families in the catalog, checked without a GPU: the launch rules give the grids
and constants TileGym's launchers compute, every case fits its kernel's parameters, every
ported entry's IR diff passes on every case, `workbench ops` lists it all, and the bundle
carries every port."""
import json
import re
import subprocess
import sys

import pytest

from workbench.catalog import all_families, get_family, get_operator
from workbench.cli import main
from workbench.ir.export import check_call
from workbench.rust.cargo import has_port
from workbench.sources.kernel import load_operator_kernel
from workbench.tilegym_catalog import family_rules, kernel_params, load_tilegym

FAMILIES = load_tilegym()
ENTRIES = [op for f in FAMILIES.values() for op in f.entries]
# Known differences the diff finds and the port does not fix yet, each with its finding.
# strict: once the port is fixed the case passes, and this list must lose it.
KNOWN_FAIL: dict[tuple[str, int], str] = {}
PORTED = [pytest.param(op.name, c.index, id=f"{op.name}-{c.index}",
                       marks=[pytest.mark.xfail(reason=KNOWN_FAIL[op.name, c.index], strict=True)]
                       if (op.name, c.index) in KNOWN_FAIL else [])
          for op in ENTRIES if has_port(op) for c in op.cases]


def test_families_name_their_tilegym_module_and_every_non_experimental_kernel():
    from workbench.sources.locate import module_file
    from workbench.sources.module import kernel_entries
    for family in FAMILIES.values():
        path = module_file(family.source)
        kernels = {k.name for k in kernel_entries(path.read_text(), str(path)) if not k.experimental}
        assert {op.kernel_name for op in family.entries} == kernels, family.name
        assert all(op.provenance in ("drafted", "hand-finished", "hand-written")
                   for op in family.entries)


DRAFTED = [op for op in ENTRIES if op.provenance == "drafted" and has_port(op)]


@pytest.mark.parametrize("op", DRAFTED, ids=[op.name for op in DRAFTED])
def test_a_port_recorded_as_drafted_is_what_the_drafter_writes_today(op):
    """`drafted` claims the port is the drafter's output unchanged: a drafter fixed since (a
    host that now takes the caller's grid) must not leave an old draft standing in for it."""
    from workbench.port.analyze import analyze
    from workbench.port.rules.draft import draft
    source = op.kernel_file.read_text()
    spec = analyze(source, str(op.kernel_file), op.kernel_name, list(op.cases))
    files = draft(spec, source, op.name).files
    for name in ("src/kernel.rs", "src/lib.rs", "port.toml", "Cargo.toml"):
        assert (op.port_folder / name).read_text() == files[name], \
            f"{op.name}: {name} differs from today's draft; redraft it (workbench port " \
            f"{op.name} --into-catalog) or record it as hand-finished"


@pytest.mark.parametrize("op", ENTRIES, ids=[op.name for op in ENTRIES])
def test_every_case_matches_its_kernel_parameters(op):
    kernel = load_operator_kernel(op)
    assert op.cases, f"{op.name} takes none of its family's cases"
    assert set(op.outputs) <= set(kernel.params)
    assert kernel_params(op.kernel_file, op.kernel_name) == kernel.params
    for case in op.cases:
        check_call(kernel, list(case.args), case.consts)
        assert len(case.grid) == 3 and min(case.grid) >= 1


# Memory-bound families whose kernel cannot take a 256 MiB case, each with why.
SMALLER_LARGE_CASE = {
    "tilegym.moe_align_block": "stage 2 holds one tile of next_power_of_2(programs) counters: "
    "at 4M tokens x top 8 (262144 programs, ~400 MB moved) TileGym's own kernel fails to compile "
    "(tileiras exit 5, seen on the H200), as does the port",
}


def test_each_family_has_an_odd_case_and_ends_with_a_large_one():
    for name in FAMILIES:
        rules = family_rules(name)
        odd = [p for p in rules.problems
               if any(d % 16 for t in p.tensors.values() for d in t.shape)]
        assert odd, f"{name}: no case with a dimension that is not a multiple of 16"
        if FAMILIES[name].bound == "compute":      # judged by FLOP/s: the most FLOPs
            work = [_flops(rules, p) for p in rules.problems]
            assert work[-1] == max(work) and work[-1] >= 2 * 4096 ** 3, name
            continue
        moved = [sum(t.numel() * t.spec.itemsize for t in p.tensors.values())
                 for p in rules.problems]
        assert moved[-1] == max(moved), name
        assert moved[-1] >= 256 << 20 or name in SMALLER_LARGE_CASE, name


def _flops(rules, problem) -> int:
    """The family's FLOP count of a case, from the shapes alone (reference.flops)."""
    from workbench.check.family import _reference, case_options
    flops = _reference(rules).flops
    return flops(problem.tensors, **case_options(flops, problem))


def test_softmax_launch_rules_follow_tilegym_launchers():
    gather, multi, tma = (get_operator(f"tilegym.softmax.{v}")
                          for v in ("gather", "multi_wave", "tma"))
    large = gather.case(3)                      # f16 16384 x 4096
    assert large.grid == (132 * 4, 1, 1)        # min(NUM_SM * 4, rows)
    assert large.consts == {"N_ROWS": 16384, "TILE_SIZE": 4096, "DIM_COLS": 4096}
    assert multi.case(1).grid == (256, 1, 1)    # one block per row
    assert multi.case(1).consts == {"N": 1009, "TILE_SIZE": 1024}
    assert tma.case(3).grid == (132 * 2, 1, 1)  # min(NUM_SM * occupancy, rows), occupancy 2
    assert tma.case(3).hints == {"occupancy": 2}
    candidates = family_rules("tilegym.softmax").launch("tilegym.softmax.tma", 3).candidates
    assert [(c.grid[0], c.hints["occupancy"]) for c in candidates] == \
        [(264, 2), (528, 4), (792, 6), (1056, 8)]


def test_rms_norm_launch_rules_follow_tilegym_launcher():
    cached, gather, persistent = (get_operator(f"tilegym.rms_norm.{v}") for v in
                                  ("multi_wave_cached", "gather", "static_persistent"))
    assert cached.case(0).consts["TILE_SIZE"] == 1024 and cached.case(0).grid == (256, 1, 1)
    assert gather.cases[-1].consts["TILE_SIZE"] == 2048     # min(4096 // 2, 4096)
    assert persistent.cases[-1].consts["TILE_SIZE_M"] == 4  # TILE_SIZE_N = 4096
    assert persistent.case(0).consts["TILE_SIZE_M"] == 16    # TILE_SIZE_N <= 1024
    assert persistent.cases[-1].grid == (132, 1, 1)         # min(NUM_SMS, tiles)
    assert persistent.case(0).grid == (16, 1, 1)


def test_silu_and_swiglu_views_and_derived_constants():
    silu = get_operator("tilegym.silu_and_mul")
    case = silu.case(1)                          # (7, 100, 2 * 1000) f32
    assert [str(a) for a in case.args] == ["f32[700,2000]", "f32[700,1000]"]
    assert case.consts == {"TILE_SIZE": 1024, "TOTAL_HIDDEN_SIZE": 1000}
    swiglu = get_operator("tilegym.swiglu")
    assert swiglu.case(1).consts == {"TILE_SIZE": 1024, "check_bounds": True}
    assert swiglu.case(0).consts == {"TILE_SIZE": 1024, "check_bounds": False}


@pytest.mark.parametrize("name, case", PORTED)
def test_port_matches_the_tilegym_kernel(name, case):
    from workbench.ownership.pairs import operator_diff
    report = operator_diff(get_operator(name), case)
    assert report.verdict in ("PASS", "PASS_WITH_NOTES"), report.to_text()
    assert {f.category for f in report.findings} <= {"hint", "noise"}


def test_ops_lists_every_operator_with_source_and_entries(capsys):
    assert main(["ops", "--json"]) == 0
    rows = {row["name"]: row for row in json.loads(capsys.readouterr().out)}
    assert set(rows) == set(all_families())
    assert rows["softmax"]["source"] == "own"
    softmax = rows["tilegym.softmax"]
    assert softmax["source"] == "tilegym.ops.cutile.softmax"
    assert {e["kernel"] for e in softmax["entries"]} == {
        "_softmax_kernel", "_softmax_kernel_multi_wave_full_row_reg_cached_ldg",
        "_softmax_kernel_tma"}
    for entry in softmax["entries"]:
        assert set(entry) >= {"kernel", "provenance", "ir_verdicts"}


def test_recorded_verdicts_are_current():
    """kernels_src/verdicts.json (`workbench ops --refresh`) was made from these ports."""
    from workbench.cli.catalog_verbs import listing, recorded_verdicts
    for row in listing(recorded_verdicts()):
        for entry in row["entries"]:
            assert "stale" not in entry["ir_verdicts"], entry["name"]
            assert "unknown" not in entry["ir_verdicts"], entry["name"]


def test_family_name_diffs_every_entry(capsys):
    assert main(["diff", "tilegym.softmax", "--case", "2"]) == 0
    out = capsys.readouterr().out
    assert out.count("verdict: PASS") == 3
    # each entry judged as `workbench diff ENTRY` judges it: its promises read from its port
    assert main(["diff", "tilegym.softmax"]) == 0
    out = capsys.readouterr().out
    assert out.count("verdict: PASS") == 3 and "unchecked promise" not in out
    entries = re.findall(r"^verdict: (\w+)", out, re.M)
    worst = "PASS_WITH_NOTES" if "PASS_WITH_NOTES" in entries else "PASS"
    assert out.rstrip().endswith(f"== tilegym.softmax: {worst} (the worst of its 3 entries' "
                                 "verdicts)")


def test_a_family_diff_refuses_what_it_cannot_do_before_diffing(capsys):
    assert main(["diff", "tilegym.softmax", "--case", "99"]) == 2
    assert "tilegym.softmax has no case 99" in capsys.readouterr().err
    assert main(["diff", "tilegym.softmax", "--sass"]) == 2
    err = capsys.readouterr().err
    assert "--html and --sass show one entry's diff" in err and "tilegym.softmax.tma" in err


def test_an_entry_without_case_0_is_diffed_on_its_first_case(capsys):
    entry = get_operator("tilegym.layer_norm_legacy.persistent")
    assert 0 not in [c.index for c in entry.cases]
    assert main(["diff", entry.name]) == 0
    assert "verdict: PASS" in capsys.readouterr().out


def test_gpu_verbs_skip_without_a_device(capsys):
    assert main(["check", "tilegym.softmax"]) == 3
    assert "skipped: no CUDA device" in capsys.readouterr().out
    assert main(["bench", "tilegym.softmax.tma"]) == 3


def test_family_with_several_entries_asks_which(capsys):
    assert main(["ir", "tilegym.softmax"]) == 2
    assert "tilegym.softmax.gather" in capsys.readouterr().err


def test_bundle_members_are_current():
    proc = subprocess.run([sys.executable, "tools/sync_bundle.py", "--check"],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout


def test_family_lookup_by_entry():
    assert get_family("tilegym.softmax.tma").name == "tilegym.softmax"


def test_bench_rows_and_table_from_a_worker_reply():
    """What the GPU run prints and saves, from a reply shaped like the worker's."""
    from workbench.check.family_report import bench_row, format_family_bench, summarize
    family = get_family("tilegym.softmax")
    ceilings = {"copy_gbps": 4000.0, "bf16_tflops": 780.0}
    result = {"entry": "tilegym.softmax.tma", "label": "case 3: x=f16[16384,4096]",
              "launch": {"grid": [264, 1, 1], "hints": {"occupancy": 2}, "consts": {}},
              "bytes": 2 * 16384 * 4096 * 2, "flops": None,
              "sides": {"rust": {"ok": True, "cupti_us": 70.0, "median_us": 75.0},
                        "tilegym": {"ok": True, "cupti_us": 69.0, "median_us": 74.0},
                        "torch": {"ok": True, "cupti_us": 278.0, "median_us": 280.0}}}
    row = bench_row(family, result, ceilings)
    assert row["parity"] == 69.0 / 70.0 and row["torch_us"] == 278.0
    assert round(row["copy_pct"]) == round(100 * row["bytes"] / 70e-6 / 1e9 / 4000)
    report = summarize([row], ceilings, {"name": "H200"}, "ok")
    assert set(report) >= {"rows", "parity_geomean", "parity_overall", "ceilings", "device"}
    assert report["parity_geomean"]["tilegym.softmax"] == row["parity"]
    table = format_family_bench(report)
    assert "tilegym.softmax.tma" in table and "parity geomean tilegym.softmax" in table
    json.dumps(report)


def test_call_plan_packs_float_constants_and_the_launch():
    from workbench.rust.ffi import CallPlan, const_word, launch_words
    plan = CallPlan(get_operator("tilegym.rms_norm.multi_wave_cached"))
    assert plan.consts == ["N", "eps", "offset", "TILE_SIZE"] and plan.launch_slots == 6
    assert [name for name, _ in plan.tensors] == ["x", "w", "out", "Rstd"]
    import struct
    assert const_word(1e-5) == struct.unpack("<q", struct.pack("<d", 1e-5))[0]
    assert const_word(True) == 1 and const_word(0.0) == 0
    assert launch_words((264, 1, 1), {"occupancy": 4}) == [264, 1, 1, 4, 0, 0]
    with pytest.raises(Exception):
        launch_words(None, {})


def test_launch_rules_agree_with_the_corpus_manifest():
    """The corpus manifest (kernels_src/corpus/tilegym.toml) writes each launcher's derived
    constants and grid as data; the catalog's launch rules (code, which also binds views,
    scratch arrays and autotune candidates) must give the same values on every case."""
    from workbench.sources.corpus_expr import ArrayView, evaluate
    from workbench.sources.corpus_manifest import corpus_entry
    from workbench.tilegym_catalog import runtime_params
    checked = 0
    for op in ENTRIES:
        entry = corpus_entry(op.source, op.kernel_name)
        if entry is None:
            continue
        params = kernel_params(op.kernel_file, op.kernel_name)
        for case in op.cases:
            names = {"NUM_SM": 132, **entry.hints, **case.hints, **case.consts}
            runtime = [p for p in params if p not in case.consts]
            names.update({p: ArrayView.of(a) if a.is_array else a.value
                          for p, a in zip(runtime, case.args)})
            unknown = {name for c in entry.cases for name in c.sizes}   # no argument shows them
            for name, rule in entry.derive.items():
                if unknown & _names(rule):                                   # S_kv, seed
                    unknown.add(name)
                    continue
                names[name] = evaluate(rule, names)
                if name in case.consts:          # else an intermediate (splits_wanted)
                    assert names[name] == case.consts[name], (op.name, case.index, name)
            if entry.grid and not unknown & set().union(*map(_names, entry.grid)):
                grid = tuple(int(evaluate(r, names)) for r in entry.grid)
                assert grid + (1,) * (3 - len(grid)) == case.grid, (op.name, case.index)
            checked += 1
    assert checked >= 20


def _names(rule: str) -> set[str]:
    """The names a corpus manifest rule reads."""
    return set(re.findall(r"[A-Za-z_]\w*", rule))


def test_every_integer_input_is_filled_by_its_family_not_by_randn():
    """randn cast to an integer dtype gives negative indices and counts: a GPU check on it
    fails in the reference (bincount) or faults in the kernel, never testing the port."""
    for name in FAMILIES:
        rules = family_rules(name)
        for index in range(len(rules.problems)):
            problem = rules.problem(index)
            for tensor in problem.tensors.values():
                if tensor.role in ("in", "inout") and tensor.dtype.startswith(("i", "u", "b")) \
                        and tensor.dtype != "bf16":
                    assert tensor.fill != "randn" and hasattr(rules.module, "fill"), \
                        f"{name} case {index}: {tensor.name} ({tensor.dtype}) is randn"


def test_raw_arrays_scalars_carry_the_names_the_emitter_hints():
    """cutile's launcher derives a divisibility hint for every integer scalar and raw pointer
    parameter by its name on every call; the emitter hints `<array>`, `<array>_shape<d>` and
    `<array>_stride<d>` (workbench/rust/emit.py). A port whose parameters are named otherwise
    is diffed without facts the GPU runs with."""
    from workbench.rust.manifest import load_manifest
    checked = 0
    for op in ENTRIES:
        if not has_port(op):
            continue
        manifest = load_manifest(op)
        kernel = (op.port_folder / "src" / "kernel.rs").read_text()
        for name in manifest.raw:
            params = [name] + [f"{name}_{kind}{d}" for kind in ("shape", "stride")
                               for d in range(manifest.tensors[name].rank)]
            missing = [p for p in params if not re.search(rf"\b{p}\s*:", kernel)]
            assert not missing, f"{op.name}: no entry parameter named {missing}"
            checked += 1
    assert checked >= 10
