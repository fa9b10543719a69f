"""What a name on the command line resolves to (workbench/resolve.py): a file's draft goes to
a folder that names the file's place, and a call that does not fit the kernel is refused
before anything is copied or drafted."""
import re
import shutil

import pytest

from conftest import FIXTURES
from workbench.errors import WorkbenchError
from workbench.operators import draft_home
from workbench.resolve import resolve_target

FLAT_ROWS = FIXTURES / "triton_flat_rows.py"

KERNEL = '''import cuda.tile as ct
ConstInt = ct.Constant[int]


@ct.kernel
def scale(x, out, factor, TILE: ConstInt):
    block = ct.bid(0)
    ct.store(out, index=(block,), tile=ct.load(x, index=(block,), shape=(TILE,)) * factor)
'''


def write(folder, text=KERNEL):
    folder.mkdir(parents=True)
    (folder / "layernorm.py").write_text(text)
    return folder / "layernorm.py"


def test_two_projects_files_of_one_name_get_two_draft_folders(tmp_path):
    args = ["f32[256]", "f32[256]", "f32"]
    one = resolve_target(f"{write(tmp_path / 'a')}:scale", args, ["TILE=128"])
    two = resolve_target(f"{write(tmp_path / 'b')}:scale", args, ["TILE=128"])
    assert one.port_folder != two.port_folder
    assert re.fullmatch(r"layernorm\.scale-[0-9a-f]{8}", one.port_folder.parent.name)
    # as a recorded kernel's (runs/ports/my_norm.rms_norm_kernel-<hash>): one helper names both
    assert one.port_folder.parent == draft_home("layernorm", "scale", str(tmp_path / "a" /
                                                                         "layernorm.py"))


def test_two_projects_triton_files_of_one_name_get_two_draft_folders(tmp_path):
    for name in ("a", "b"):
        (tmp_path / name).mkdir()
        shutil.copy(FLAT_ROWS, tmp_path / name / "rows.py")
    args = ["f32[3,8,32]", "f32[3,8,32]", "i32=32"]
    one, two = (resolve_target(f"{tmp_path / n / 'rows.py'}:double_rows", args, ["D=32"])
                for n in ("a", "b"))
    assert one.language == "triton" and one.port_folder != two.port_folder
    assert one.port_folder.parent == draft_home("rows", "double_rows",
                                                str(tmp_path / "a" / "rows.py"))


def test_a_triton_call_that_does_not_fit_is_refused_by_name():
    with pytest.raises(WorkbenchError, match=r"2 --arg given; double_rows\(x_ptr, y_ptr, "
                                             r"stride_t, D\) takes 3 --arg"):
        resolve_target(f"{FLAT_ROWS}:double_rows", ["f32[3,8,32]", "i32=32"], ["D=32"])
    with pytest.raises(WorkbenchError, match=r"missing \['D'\], unknown \['E'\]"):
        resolve_target(f"{FLAT_ROWS}:double_rows", ["f32[3,8,32]", "f32[3,8,32]", "i32=32"],
                       ["E=32"])


def test_a_call_that_does_not_fit_is_refused_by_name(tmp_path):
    path = write(tmp_path / "a")
    with pytest.raises(WorkbenchError, match=r"2 --arg given; scale\(x, out, factor, TILE\) "
                                             r"takes 3 --arg \(x, out, factor\)"):
        resolve_target(f"{path}:scale", ["f32[256]", "f32[256]"], ["TILE=128"])
    with pytest.raises(WorkbenchError, match=r"missing \['TILE'\]"):
        resolve_target(f"{path}:scale", ["f32[256]", "f32[256]", "f32"], [])


def test_an_alias_from_elsewhere_is_left_to_the_loaded_kernel(tmp_path):
    text = KERNEL.replace("ConstInt = ct.Constant[int]\n", "from mylib import ConstInt\n")
    path = write(tmp_path / "a", text)
    op = resolve_target(f"{path}:scale", ["f32[256]", "f32[256]", "f32"], ["TILE=128"])
    assert op.kernel_name == "scale"
