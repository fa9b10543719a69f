"""The diff-analysis stage names the owner of a failure, and the bounded fix loop goes back
to the stage that owns the fix (the kernel's files or the host's) and to no other."""
from workbench.catalog import load_catalog
from workbench.port import pipeline
from workbench.port.artifacts import Artifact, read_artifacts
from workbench.port.stages import RunContext, stage_diff_analysis


def context(tmp_path, *artifacts):
    port = tmp_path / "port"
    (port / "src").mkdir(parents=True)
    (port / "src" / "kernel.rs").write_text("// kernel\n")
    (port / "src" / "lib.rs").write_text("// host\n")
    (port / "port.toml").write_text("module = 'm'\n")
    ctx = RunContext(load_catalog()["softmax"], tmp_path / "run", port, drafter=None)
    ctx.folder.mkdir()
    for a in artifacts:
        ctx.record(a)
    return ctx


def diff_failing(*findings):
    return Artifact("ir_diff", "FAIL", "case 0: FAIL",
                    {"cases": [{"case": 0, "verdict": "FAIL", "counts": {},
                                "findings": list(findings)}]})


def finding(category, kind, detail, fact=None):
    return {"category": category, "kind": kind, "detail": detail, "left": None, "right": None,
            "fact": fact}


def check_failing(*owners):
    return Artifact("gpu_check", "FAIL", "case 0 failed", {"reason": "", "results": [],
                                                          "owners": list(owners)})


def owner(name, **extra):
    return {"case": 0, "failure": "wrong values", "owner": name, "summary": f"{name} did it",
            "evidence": [f"{name} evidence"], **extra}


BUILT = Artifact("build", "BUILT", "built", {"library": "x.so", "diagnostics": []})


def test_a_mistranslation_is_the_kernels(tmp_path):
    ctx = context(tmp_path, BUILT, diff_failing(finding("critical", "padding_value", "zero")))
    analysis = stage_diff_analysis(ctx)
    assert (analysis.verdict, analysis.data["owner"], analysis.data["fix_stage"]) == (
        "FIX_KERNEL", "kernel", "write_kernel")
    assert analysis.data["finding"]["kind"] == "padding_value"


def test_an_unchecked_promise_is_the_hosts_to_check(tmp_path):
    promise = finding("critical", "div_by", "x.shape[1]: 16 fixed by the port's code",
                      {"kind": "div_by", "direction": "fixed", "origin": "port",
                       "checked_by": None, "promise": True})
    analysis = stage_diff_analysis(context(tmp_path, BUILT, diff_failing(promise)))
    assert (analysis.verdict, analysis.data["fix_stage"]) == ("FIX_HOST", "write_host")
    assert any("port.toml" in line for line in analysis.data["evidence"])


def test_a_gpu_failure_goes_to_its_owner(tmp_path):
    passed = Artifact("ir_diff", "PASS_WITH_NOTES", "notes", {"cases": []})
    for name, verdict, stage in (("kernel", "FIX_KERNEL", "write_kernel"),
                                 ("host", "FIX_HOST", "write_host"),
                                 ("compiler", "COMPILER_PROBLEM", None),
                                 ("reference", "REFERENCE_PROBLEM", None)):
        ctx = context(tmp_path / name, BUILT, passed,
                      check_failing(owner(name, repro="runs/repro/x" if name == "compiler" else None)))
        analysis = stage_diff_analysis(ctx)
        assert (analysis.verdict, analysis.data["fix_stage"]) == (verdict, stage), name
        assert f"{name} did it" in " ".join(analysis.data["evidence"])


class EditsBoth:
    """A drafter whose fix rewrites the kernel and the host alike."""
    name = "edits-both"

    def fix(self, ctx, analysis):
        (ctx.port / "src" / "kernel.rs").write_text("// kernel, fixed\n")
        (ctx.port / "src" / "lib.rs").write_text("// host, changed too\n")
        (ctx.port / "src" / "extra.rs").write_text("// new host file\n")
        return True


def test_the_fix_loop_keeps_to_the_owning_stage(tmp_path, monkeypatch):
    ctx = context(tmp_path, BUILT, diff_failing(finding("critical", "padding_value", "zero")))
    ctx.drafter = EditsBoth()
    reran = []
    monkeypatch.setattr(pipeline, "STAGE_FUNCTIONS", {
        s: (lambda s: lambda c: reran.append(s) or Artifact(
            s, {"build": "BUILT", "ir_diff": "PASS", "gpu_check": "SKIPPED",
                "perf": "SKIPPED"}[s], "ok",
            {"build": {"library": None, "diagnostics": []}, "ir_diff": {"cases": []},
             "gpu_check": {"reason": "", "results": []},
             "perf": {"gate": 1.05, "reason": "", "cases": []}}[s]))(s)
        for s in ("build", "ir_diff", "gpu_check", "perf")})
    pipeline._fix_loop(ctx)
    assert (ctx.port / "src" / "kernel.rs").read_text() == "// kernel, fixed\n"
    assert (ctx.port / "src" / "lib.rs").read_text() == "// host\n"       # the host's: undone
    assert not (ctx.port / "src" / "extra.rs").exists()
    assert (ctx.folder / "undone-fix1" / "src" / "lib.rs").read_text() == "// host, changed too\n"
    fix = next(a for a in read_artifacts(ctx.folder) if a.stage == "fix")
    assert fix.data["fix_stage"] == "write_kernel" and fix.data["undone"] == ["src/extra.rs",
                                                                          "src/lib.rs"]
    assert reran == ["build", "ir_diff", "gpu_check", "perf"]


def test_a_failure_the_port_does_not_own_ends_the_run(tmp_path):
    passed = Artifact("ir_diff", "PASS", "pass", {"cases": []})
    ctx = context(tmp_path, BUILT, passed, check_failing(owner("compiler")))
    ctx.drafter = EditsBoth()
    assert pipeline._fix_loop(ctx) == "FAIL"
    assert (ctx.port / "src" / "kernel.rs").read_text() == "// kernel\n"   # nothing was asked
    fix = next(a for a in read_artifacts(ctx.folder) if a.stage == "fix")
    assert fix.verdict == "NOT_THE_PORT"


def test_runs_show_names_the_owner(tmp_path, cli):
    passed = Artifact("ir_diff", "PASS", "pass", {"cases": []})
    ctx = context(tmp_path, BUILT, passed, check_failing(owner("host")))
    stage_diff_analysis(ctx)
    shown = cli("runs", "show", str(ctx.folder))
    assert shown.returncode == 0, shown.stderr
    assert "owner of case 0 (wrong values): host: host did it" in shown.stdout
    assert "=> owner host, fixed in write_host" in shown.stdout
