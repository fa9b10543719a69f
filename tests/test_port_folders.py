"""Port folders as a user names them: a relative --out, a port copied with `cp -r` (detected,
with the command that fixes it), and build errors that point into the port's own folder with
rustc's whole message. Every folder is under runs/tests/."""
import shutil

from port_copies import COLD_BUILD, fresh_copy, fresh_folder
from workbench.catalog import REPO_ROOT, get_operator
from workbench.rust.cargo import build

pytestmark = COLD_BUILD


def relative(path) -> str:
    return str(path.relative_to(REPO_ROOT))


def test_port_drafts_into_a_relative_out(cli):
    folder = fresh_folder("cli-relative")
    result = cli("port", "softmax", "--out", relative(folder), timeout=3600)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "build          #1 BUILT" in result.stdout
    assert (folder / "src" / "kernel.rs").exists() and (folder / "Cargo.toml").exists()


def test_a_plain_copy_is_detected_with_the_command_that_fixes_it(cli):
    folder = fresh_folder("cli-plain")
    shutil.copytree(get_operator("softmax").port_folder, folder,
                    ignore=shutil.ignore_patterns(".history"))
    failed = cli("build", "softmax", "--out", relative(folder))
    assert failed.returncode == 2
    assert "a plain copy of a kernels_src port" in failed.stderr
    fix = f"workbench port softmax --copy --out {relative(folder)}"
    assert fix in failed.stderr
    fixed = cli(*fix.split()[1:])
    assert fixed.returncode == 0, fixed.stderr
    assert list((folder / ".history").glob("Cargo.toml.*.plain-copy"))
    built = cli("build", "softmax", "--out", relative(folder), timeout=3600)
    assert built.returncode == 0, built.stdout + built.stderr


def test_a_type_error_points_into_the_copy_with_rustcs_message():
    op = fresh_copy("cli-type-error")
    kernel = op.port_folder / "src" / "kernel.rs"
    lines = kernel.read_text().splitlines()
    number = next(i for i, line in enumerate(lines, 1) if "get_tile_block_id" in line)
    lines.insert(number, "        let wrong: i32 = 1.5f32;")
    kernel.write_text("\n".join(lines) + "\n")
    result = build(op)
    assert not result.ok
    error = next(d for d in result.diagnostics if d.level == "error")
    assert error.file == relative(kernel) and error.line == number + 1
    assert error.message == "mismatched types"
    assert "expected `i32`, found `f32`" in error.rendered and "src/kernel.rs" in error.rendered
