"""The compiler's reproduction: when the Tile IR of both sides is equivalent and their
machine code and results differ, both sides' bytecode, the tileiras version and a script
that shows the SASS difference are saved under runs/repro/."""
from __future__ import annotations

import time
from pathlib import Path

from ..operators import REPO_ROOT, Operator
from ..rust.cargo import build
from ..rust.emit import emit_in_child, emit_request
from ..sass.compile import tileiras
from ..tools import run_tool
from .evidence import matched_request
from .pairs import side_bytecode

REPRO_DIR = REPO_ROOT / "runs" / "repro"


def save_repro(op: Operator, case: int, left_verdict: str, machine) -> Path:
    """Both sides' bytecode, the tileiras version and a script that shows the difference."""
    folder = REPRO_DIR / f"{op.name}-case{case}-{time.strftime('%Y%m%d-%H%M%S')}"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "python.tileirbc").write_bytes(side_bytecode(op, "python", case))
    (folder / "rust.tileirbc").write_bytes(side_bytecode(op, "rust", case))
    matched = emit_in_child(op.name, str(build(op).library), matched_request(emit_request(op, case)))
    (folder / "rust_matched.tileirbc").write_bytes(matched)
    tool = tileiras()
    version = run_tool([str(tool), "--version"], timeout=60, check=False).stdout
    (folder / "tileiras-version.txt").write_text(
        f"{tool}\n{version.decode(errors='replace') if isinstance(version, bytes) else version}")
    (folder / "repro.sh").write_text(REPRO_SCRIPT.format(op=op.name, case=case, tool=tool,
                                                         verdict=left_verdict,
                                                         what=machine.what))
    (folder / "repro.sh").chmod(0o755)
    return folder


REPRO_SCRIPT = """#!/bin/sh
# {op} case {case}: the Tile IR of both sides is equivalent (`workbench diff {op} --case {case}`:
# {verdict}), their machine code differs, and so do their results on the GPU.
# python.tileirbc: the reference; rust_matched.tileirbc: the port compiled for a call with the
# reference's per-call facts ({what}); rust.tileirbc: the port as emitted for the case.
# Run here: it compiles both with the tileiras named below and prints the SASS difference.
set -e
cd "$(dirname "$0")"
TILEIRAS=${{TILEIRAS:-{tool}}}
for side in python rust_matched; do
  "$TILEIRAS" --gpu-name=sm_90 -O3 -o "$side.cubin" "$side.tileirbc"
  cuobjdump -sass "$side.cubin" | sed -e 's@/\\*[0-9a-f]*\\*/@@' -e 's/R[0-9]*/R/g' > "$side.sass"
done
diff python.sass rust_matched.sass && echo "no difference" || true
"""
