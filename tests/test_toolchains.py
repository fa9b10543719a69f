"""tileiras versions side by side (workbench/toolchains.py) and one port compared under two of
them (workbench/ownership/toolchain.py), with the real compilers: the pinned 13.4.92 and the
13.5.37 that scripts/setup installs beside it."""
import json
import os

import pytest

from workbench.toolchains import installed, pinned_version, selected
from workbench.tools import nvidia_bin_dir

NEWER = "13.5.37"      # scripts/setup: workbench toolchain install 13.5.37


def _diff(cli, target, *extra):
    result = cli("diff", target, "--toolchain", pinned_version(), "--toolchain", NEWER,
                 "--json", *extra, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr
    return json.loads(result.stdout)


def test_the_newer_tileiras_is_installed_beside_the_pinned_one(cli):
    assert NEWER in installed() and pinned_version() in installed()
    listing = cli("toolchain", "list").stdout
    assert f"{pinned_version()} (pinned" in listing and f"{NEWER}:" in listing


def test_a_kernel_that_only_the_newer_tileiras_fails_to_compile_is_the_compilers(cli):
    # tileiras 13.5.37 rejects TileGym's _intra_chunk_prepare_kernel for sm_90 (both front
    # ends' bytecode; seen on the H200 too), 13.4.92 compiles it: not the port's fault
    report = _diff(cli, "tilegym.chunk_gated_delta_rule.intra")
    for side in report["sides"]:
        errors = {c["version"]: c["error"] for c in side["compiled"]}
        assert errors[pinned_version()] == "" and "failed to compile" in errors[NEWER]
        assert side["finding"].startswith(f"compiler-version effect: compiles under "
                                          f"{pinned_version()}, fails under {NEWER}")
    assert report["conclusion"].startswith("owner: compiler")
    assert f"a regression of tileiras {NEWER}" in report["conclusion"]


def test_machine_code_that_moves_between_versions_is_named_a_compiler_version_effect(cli):
    report = _diff(cli, "attention", "--case", "3")
    assert {s["side"] for s in report["sides"]} == {"python", "rust"}
    for side in report["sides"]:
        summaries = [c["summary"] for c in side["compiled"]]
        assert all(summaries), side
        assert summaries[0] != summaries[1]        # tileiras 13.5 schedules it differently
        assert side["finding"].startswith("compiler-version effect")
        assert side["changes"]
    assert report["conclusion"].startswith("compiler-version effects only")


def test_versions_that_are_not_there_get_one_line_saying_what_to_do(cli):
    result = cli("diff", "softmax", "--toolchain", "13.9.1", "--toolchain", NEWER)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "tileiras 13.9.1 is not installed here" in result.stderr
    assert "workbench toolchain install 13.9.1" in result.stderr
    result = cli("diff", "softmax", "--toolchain", "newest", "--toolchain", NEWER)
    assert result.returncode == 2 and "'newest' is not a tileiras version" in result.stderr
    result = cli("diff", "softmax", "--toolchain", NEWER)
    assert result.returncode == 2 and "under two versions" in result.stderr


def test_a_version_the_index_lacks_leaves_nothing_half_installed(cli, tmp_path):
    empty_index = tmp_path / "index"
    empty_index.mkdir()
    result = cli("toolchain", "install", "13.9.99",
                 env={"PIP_INDEX_URL": empty_index.as_uri(), "PIP_NO_INDEX": "",
                      "PIP_FIND_LINKS": ""}, timeout=300)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "tileiras 13.9.99 could not be installed" in result.stderr
    assert "13.9.99" not in installed()


def test_selected_points_every_tool_at_one_version_and_then_back():
    before = nvidia_bin_dir()
    with selected(NEWER) as tools:
        assert nvidia_bin_dir() == tools != before
        assert "WORKBENCH_NVIDIA_BIN" in os.environ
    assert nvidia_bin_dir() == before
    with pytest.raises(Exception, match="not installed"):
        with selected("13.0.1"):
            pass


def _compile_failure(sides):
    """A case result as the GPU worker reports tileiras rejecting a side (H200, 13.5.37)."""
    reasons = {"python": "CompilerExecutionError: Return code 5\nfailed to compile Tile IR "
                         "program\nUnknown location",
               "rust": "PortError: port (libwb_bundle.so): launch failed (launch): launch: "
                       "tileiras failed while compiling Tile IR bytecode.\nstatus: exit status: 5"
                       "\nstderr:\nerror: failed to compile Tile IR program"}
    return {"case": 0, "sides": {side: {"ok": side not in sides,
                                        "reason": reasons[side] if side in sides else ""}
                                 for side in ("python", "rust")}}


def test_a_rejected_compile_is_the_compilers_when_another_version_compiles_the_same_bytecode():
    from types import SimpleNamespace
    from workbench.catalog import get_operator
    from workbench.ownership.owner import COMPILE, classify, failed_cases
    result = _compile_failure({"python", "rust"})
    [(case, kind, _)] = failed_cases(SimpleNamespace(results=[result], status="fail",
                                                     reason=""), [0])
    assert kind == COMPILE          # not "refused": cutile's launcher did run the compiler
    op = get_operator("tilegym.chunk_gated_delta_rule.intra")
    with selected(NEWER):           # the H200's toolchain of that run
        owner = classify(op, case, kind, result)
    assert owner.owner == "compiler", owner.summary
    assert f"tileiras {NEWER} rejects the python side's and the rust side's bytecode, which " \
           f"tileiras {pinned_version()} compiles" in owner.summary
    assert f"--toolchain {NEWER} --toolchain {pinned_version()}" in owner.summary
    assert f"tileiras {pinned_version()} compiles it (rust side)" in owner.evidence


def test_a_port_only_compile_failure_no_version_explains_stays_undetermined(monkeypatch):
    from workbench.catalog import get_operator
    from workbench.ownership import owner as owner_module
    monkeypatch.setattr(owner_module, "compiled_elsewhere", lambda op, case, side: {})
    verdict = owner_module.classify(get_operator("softmax"), 0, owner_module.COMPILE,
                                    _compile_failure({"rust"}))
    assert verdict.owner == "undetermined"
    assert "no other tileiras is installed to compare" in verdict.summary
    verdict = owner_module.classify(get_operator("softmax"), 0, owner_module.COMPILE,
                                    _compile_failure({"python", "rust"}))
    assert verdict.owner == "compiler" and "rejects the Python kernel's bytecode too" in verdict.summary
