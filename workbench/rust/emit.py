"""The port's Tile IR for a case, with no GPU: the port's library compiles its entry for
the case's specialization (cutile's KernelCompiler, sm_90), in a child process so a crash
in the compiler cannot take the caller down; then the same tileirdisasm and parser as the
Python side."""
from __future__ import annotations

import os
import sys

from ..operators import REPO_ROOT, Operator
from ..errors import ToolError, WorkbenchError
from ..ir.disasm import disassemble
from ..operators import display_path
from ..sources.kernel import load_operator_kernel
from ..ir.stages import IRResult
from ..target import TARGET
from ..tools import run_tool
from .cargo import build
from .manifest import load_manifest
from .toolchain import runtime_env

EMITTER = "cutile KernelCompiler"    # the tool name of a port's failed Tile IR emission
EMIT_TIMEOUT_S = 300


def emit_request(op: Operator, case_index: int) -> str:
    """The text request wb_ffi's emitter reads (see kernels_src/wb_ffi/src/emit.rs)."""
    case = op.case(case_index)
    kernel = load_operator_kernel(op)
    manifest = load_manifest(op)
    lines = [f"target {TARGET}", f"entry {manifest.launched_entry(case, kernel.params)}",
             "generics " + " ".join(manifest.generic_values(kernel.params, case))]
    options = {k: v for k, v in case.hints.items() if k != "program"}
    if options:
        lines.append("options " + " ".join(f"{k}={v}" for k, v in sorted(options.items())))
    runtime = [p for p in kernel.params if p not in kernel.const_params]
    for name, spec in zip(runtime, case.args):
        if spec.is_list:
            lines += list_lines(name, spec)
        elif spec.is_array and name in manifest.raw:
            lines += raw_array_lines(name, spec)
        elif spec.is_array:
            shape = ",".join(map(str, spec.shape))
            strides = ",".join(map(str, spec.effective_strides()))
            lines.append(f"array {name} {spec.offset * spec.itemsize} {spec.itemsize} "
                         f"{shape} {strides}")
        else:
            lines.append(f"scalar {name} {spec.dtype} {spec.value if spec.value is not None else 0}")
    return "\n".join(lines) + "\n"


def raw_array_lines(name: str, spec) -> list[str]:
    """A raw array's entry parameters, as the launcher passes them: the pointer (its alignment
    a hint), then each extent and stride (integer scalars: divisibility hints)."""
    lines = [f"pointer {name} {spec.offset * spec.itemsize}"]
    lines += [f"scalar {name}_shape{i} i32 {d}" for i, d in enumerate(spec.shape)]
    lines += [f"scalar {name}_stride{i} i32 {s}" for i, s in enumerate(spec.effective_strides())]
    return lines


def list_lines(name: str, spec) -> list[str]:
    """A list's entry parameters, as the launcher passes them: the pointer to the device table
    wb_ffi allocates (aligned: a hint) and the item count (an integer scalar: a hint)."""
    return [f"pointer {name} 0", f"scalar {name}_len i32 {spec.length or 1}"]


def port_bytecode(op: Operator, case_index: int = 0) -> bytes:
    """The port's Tile IR bytecode for a case: built first if it changed. A failed build
    with a last good library emits from that one (saying so on stderr)."""
    result = build(op)
    if result.library is None:
        raise WorkbenchError(result.summary(), "fix the port at the lines above")
    if not result.ok:
        print(result.summary(), file=sys.stderr)
    return emit_in_child(op.name, str(result.library), emit_request(op, case_index))


def operator_rust_ir(op: Operator, case_index: int = 0) -> IRResult:
    bytecode = port_bytecode(op, case_index)
    entry = load_manifest(op).entry_for(op.case(case_index), load_operator_kernel(op).params)
    return IRResult(text=disassemble(bytecode), symbol=entry,
                    source=f"{display_path(op.port_folder)}:{entry}")


def emit_in_child(op_name: str, library: str, request: str) -> bytes:
    env = dict(os.environ, **runtime_env())
    proc = run_tool([sys.executable, "-m", "workbench.rust.emit_worker", op_name, library],
                    input=request.encode(), timeout=EMIT_TIMEOUT_S, cwd=REPO_ROOT, env=env,
                    check=False, name=EMITTER)
    if proc.returncode != 0:
        raise ToolError(EMITTER, f"failed for {op_name}",
                        proc.stderr.decode(errors="replace"))
    return proc.stdout
