"""The house: every verb says how it is used, and the suite's own guard against tests that
write into the checkout."""
import pytest

import tracked_files
from workbench.cli import VERBS
from workbench.tools import run_tool


def test_workbench_alone_lists_every_verb(cli):
    result = cli()
    assert result.returncode == 0, result.stderr
    listed = {line.split()[0] for line in result.stdout.splitlines() if line.startswith("  ")}
    assert listed == {verb.name for verb in VERBS}
    for verb in VERBS:
        assert verb.summary in result.stdout


@pytest.mark.parametrize("verb", [v.name for v in VERBS])
def test_every_verb_has_help(cli, verb):
    result = cli(verb, "--help")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith(f"usage: workbench {verb}")
    summary = next(v.summary for v in VERBS if v.name == verb)
    assert " ".join(summary.split()) in " ".join(result.stdout.split())


def git(repo, *args):
    run_tool(["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t", *args])


def test_the_tracked_files_check_names_what_a_run_changed(tmp_path):
    repo = tmp_path / "checkout"
    repo.mkdir()
    git(repo, "init", "-q")
    (repo / "kept.txt").write_text("committed\n")
    (repo / "edited.txt").write_text("committed\n")
    (repo / ".gitignore").write_text("runs/\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "start")
    (repo / "edited.txt").write_text("the user's own edit\n")       # dirty before the run
    before = tracked_files.snapshot(repo)
    assert tracked_files.changed(before, tracked_files.snapshot(repo)) == []
    (repo / "kept.txt").write_text("written by a test\n")
    (repo / "edited.txt").write_text("the user's edit, then a test's\n")
    (repo / "stray.txt").write_text("x\n")
    (repo / "runs").mkdir()
    (repo / "runs" / "scratch.txt").write_text("ignored\n")
    assert tracked_files.changed(before, tracked_files.snapshot(repo)) == [
        "edited.txt (changed)", "kept.txt (changed)", "stray.txt (new untracked file)"]


def test_the_tracked_files_check_says_why_it_cannot_check(tmp_path):
    reason = tracked_files.snapshot(tmp_path)
    assert isinstance(reason, str) and reason.startswith("not a git checkout")
