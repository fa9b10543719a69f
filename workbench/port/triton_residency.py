"""How many programs of the Triton kernel an sm_90 SM holds at once, from the Triton
kernel's own compiled resources (registers per thread, shared memory, num_warps).

Triton runs `num_warps` warps per program and lets as many programs share an SM as their
registers and shared memory allow; a cuTile kernel with no `occupancy` hint lets tileiras
spend up to 255 registers a thread (and unroll TMA buffers into shared memory), so a kernel
of one row per program keeps 1-2 rows in flight per SM where Triton keeps 16. The derived
kernel asks for Triton's residency with `@ct.kernel(occupancy=K)`: a hint, not semantics
(the values computed are the same with or without it).
"""
from __future__ import annotations

import tempfile
from pathlib import Path

from ..errors import WorkbenchError
from ..sass.compile import resource_usage
from ..sass.model import summarize
from ..translate.ttir import compile_triton

# sm_90, per SM: 2048 threads, 32 resident blocks, 64K registers (allocated per warp in
# units of 256), 228 KB of shared memory with 1 KB reserved per block
THREADS, BLOCKS, REGISTERS, SHARED, RESERVED = 2048, 32, 65536, 233472, 1024


def programs_per_sm(registers: int, shared: int, warps: int) -> int:
    per_warp = -(-max(registers, 1) * 32 // 256) * 256
    by_threads = THREADS // (32 * warps)
    by_registers = REGISTERS // (per_warp * warps)
    by_shared = SHARED // (shared + RESERVED)
    return max(1, min(BLOCKS, by_threads, by_registers, by_shared))


def triton_residency(source, case, warps: int = 4) -> int:
    """Programs per SM of the Triton kernel compiled for one case (WorkbenchError when
    Triton or cuobjdump is not there, or Triton does not compile it)."""
    compiled = compile_triton(source, case, warps)
    with tempfile.TemporaryDirectory() as folder:
        cubin = Path(folder) / "triton.cubin"
        cubin.write_bytes(compiled.asm["cubin"])
        usage = summarize([], resource_usage(cubin))
    if usage.registers is None:
        raise WorkbenchError("cuobjdump gave no register count for the Triton kernel",
                             "check `workbench doctor`")
    return programs_per_sm(usage.registers, int(compiled.metadata.shared), warps)


def occupancy_hint(source, cases) -> tuple[int | None, str]:
    """(the derived kernel's occupancy, a note saying where it comes from)."""
    try:
        per_case = [triton_residency(source, c) for c in cases]
    except WorkbenchError as e:
        return None, f"no occupancy hint: {e.message.splitlines()[0]}"
    k = min(per_case)
    return k, (f"@ct.kernel(occupancy={k}): the Triton kernel (num_warps=4) keeps "
               f"{'/'.join(map(str, per_case))} programs per sm_90 SM in the cases; "
               "the fewest is asked for")
