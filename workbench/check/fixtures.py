"""What the ownership fixtures need besides their patch (kernels_src/fixtures/<name>):
the compiler fixture's planted miscompile is a tileiras wrapper that compiles another
program in place of the port's kernel; this sets it up, for the launch (cutile reads
CUTILE_TILEIRAS_PATH) and for the workbench's own SASS (WORKBENCH_TILEIRAS) alike, so that
the machine code the evidence shows is the machine code that ran."""
from __future__ import annotations

import os
import stat
from pathlib import Path

from ..catalog import Operator

# fixture -> the owner its failed check must name (tools/gpu_session.py ownership)
OWNERSHIP_FIXTURES = {"zero_padding": "kernel", "miscompiled": "compiler", "half_grid": "host",
                      "oob_store": "host"}
PLANTED = "planted/tileiras"


def planted_compiler(op: Operator, case_index: int = 0) -> dict[str, str]:
    """The environment under which `op`'s port is miscompiled: its kernel, specialized for half
    its tile (the first constant halved), is compiled in place of the kernel it was given."""
    from ..rust.cargo import build
    from ..rust.emit import emit_in_child, emit_request
    from ..sass.compile import tileiras
    wrapper = op.port_folder / PLANTED
    wrapper.chmod(wrapper.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    request = emit_request(op, case_index).splitlines()
    generics = next(i for i, line in enumerate(request) if line.startswith("generics "))
    words = request[generics].split()
    words[-1] = str(int(words[-1]) // 2)
    request[generics] = " ".join(words)
    # beside the port, not in it: a file in the port folder is one of its sources
    planted = op.port_folder.parent / f"planted-case{case_index}.tileirbc"
    planted.write_bytes(emit_in_child(op.name, str(build(op).library), "\n".join(request) + "\n"))
    return {"CUTILE_TILEIRAS_PATH": str(wrapper), "WORKBENCH_TILEIRAS": str(wrapper),
            "WB_REAL_TILEIRAS": str(tileiras()), "WB_PLANTED_BYTECODE": str(planted)}


class environment:
    """`with environment(env):` sets variables for the block (the check worker inherits them)."""

    def __init__(self, env: dict[str, str]):
        self.env, self.saved = env, {}

    def __enter__(self):
        self.saved = {k: os.environ.get(k) for k in self.env}
        os.environ.update(self.env)
        return self

    def __exit__(self, *exc):
        for key, value in self.saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
