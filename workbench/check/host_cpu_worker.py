"""The worker of a host run (host_cpu.py): a process of its own, with the recording CUDA driver
loaded as libcuda.so.1 before the port's library, so that the port's host code (lib.rs, through
cutile's launcher) runs as it would on a GPU machine and every kernel it launches is run by the
Tile IR interpreter at the moment of the launch, on the caller's arrays (host memory, real
addresses).

    python -m workbench.check.host_cpu_worker REQUEST_FD REPLY_FD    (host_cpu.HostWorker)

A process of its own because a process holds one libcuda.so.1 (the recording one is preloaded:
LD_PRELOAD), never the real one torch loads on a GPU machine; and a crash in host code stays
here.
"""
from __future__ import annotations

import ctypes
import hashlib
import pickle
import re
import sys
import time

import numpy as np

from ..errors import WorkbenchError
from ..interp import (InterpError, Options, OverBudget, UnsupportedOp, compile_entry,
                      run_program)
from ..interp.memory import Memory
from ..ir.disasm import disassemble
from ..ir.parse import parse
from ..rust.ffi import CallPlan
from ..rust.library import PortError, open_library
from .host_transport import HostArray, pack, read_frame, unpack, write_frame

LAUNCH_CALLBACK = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_uint64,
                                   ctypes.c_char_p, ctypes.POINTER(ctypes.c_uint),
                                   ctypes.POINTER(ctypes.c_uint),
                                   ctypes.POINTER(ctypes.c_void_p))
MAX_BLOCKS = 4096


# wbstub_counts' order (cuda_stub.c): what the host code asked of the driver in a call
CALL_KINDS = ("synchronize", "copy", "allocate", "release", "memset", "host_callback",
              "launch")


class Launches:
    """What the driver hands over at each launch, run at once by the interpreter (`dry`:
    only recorded, for a profile of the host code)."""

    def __init__(self, stub: ctypes.CDLL, arrays: list, options: Options, dry: bool = False):
        self.stub, self.arrays, self.options, self.dry = stub, arrays, options, dry
        self.programs: dict = {}
        self.texts: dict = {}             # bytecode digest -> its Tile IR text
        self.runs: list[dict] = []
        self.failure: dict | None = None

    def __call__(self, image, nbytes, name, grid, block, params) -> int:
        entry = name.decode()
        run = {"entry": entry, "grid": [grid[i] for i in range(3)],
               "block": [block[i] for i in range(3)], "seconds": 0.0}
        self.runs.append(run)
        bytecode = ctypes.string_at(image, nbytes)
        try:
            run["hints"] = entry_hints(self.text(bytecode), entry)
        except WorkbenchError as e:         # no disassembler: the launch still runs
            run["hints"] = f"unknown ({str(e).splitlines()[0]})"
        if self.dry:
            return 0
        try:
            program = self.program(bytecode, entry)
            values = [_param(params[i], t) for i, t in enumerate(program.param_types)]
            start = time.perf_counter()
            run_program(program, self.memory(), values, tuple(run["grid"]), self.options)
            run["seconds"] = time.perf_counter() - start
            return 0
        except (UnsupportedOp, OverBudget) as e:
            self.failure = {"skipped": True, "reason": str(e).splitlines()[0]}
        except (InterpError, WorkbenchError) as e:
            self.failure = {"ok": False, "rel_error": None,
                            "reason": f"launch {len(self.runs)} (@{entry}): {e}"}
        except Exception as e:              # noqa: BLE001 - reported, never lost in ctypes
            self.failure = {"ok": False, "rel_error": None,
                            "reason": f"launch {len(self.runs)} (@{entry}): "
                                      f"{type(e).__name__}: {e}"}
        return 1

    def text(self, bytecode: bytes) -> str:
        digest = hashlib.sha256(bytecode).hexdigest()
        if digest not in self.texts:
            self.texts[digest] = disassemble(bytecode)
        return self.texts[digest]

    def program(self, bytecode: bytes, entry: str):
        key = (hashlib.sha256(bytecode).hexdigest(), entry)
        if key not in self.programs:
            module = parse(self.text(bytecode), source=f"the port's launch of @{entry}")
            self.programs[key] = compile_entry(module, entry)
        return self.programs[key]

    def memory(self) -> Memory:
        pairs = (ctypes.c_uint64 * (2 * MAX_BLOCKS))()
        count = min(self.stub.wbstub_allocations(pairs, MAX_BLOCKS), MAX_BLOCKS)
        blocks = [(pairs[2 * i], pairs[2 * i + 1], "memory the port's host code allocated")
                  for i in range(count)]
        return Memory.at_real_addresses(self.arrays, blocks)


def entry_hints(text: str, entry: str) -> str:
    """The launched entry's optimization hints as the Tile IR states them ("" for none): what
    the compile options the port's host code passed became."""
    for line in text.splitlines():
        if f"entry @{entry}(" in line:
            found = re.search(r"optimization_hints=<(.*)>\s*\{?\s*$", line)
            return found.group(1) if found else ""
    return ""


def _param(address: int, t) -> np.ndarray:
    """One kernel parameter as the interpreter takes it, read where the driver was given it."""
    if t.is_pointer:
        return np.array(ctypes.c_uint64.from_address(address).value, np.int64)
    return np.frombuffer(ctypes.string_at(address, t.dtype.itemsize), t.dtype).reshape(())


_CALLBACK = None
_PLANS: dict = {}


def _plan(op, library: str) -> CallPlan:
    key = (op.name, library)
    if key not in _PLANS:
        _PLANS[key] = CallPlan(op)
    return _PLANS[key]


def serve(request: dict) -> dict:
    stub = ctypes.CDLL("libcuda.so.1")          # host_cpu.py preloads the recording driver
    if not hasattr(stub, "wbstub_set_launch_callback"):
        raise WorkbenchError("the host run's libcuda.so.1 is the real CUDA driver, not the "
                             "recording one", "run it through workbench.check.host_cpu")
    values = {name: unpack(v) for name, v in request["values"].items()}
    arrays = [(a, name) for name, v in values.items()
              for a in (v if isinstance(v, list) else [v]) if isinstance(a, np.ndarray)]
    launches = Launches(stub, arrays, Options(**request["options"]), request.get("dry", False))
    stub.wbstub_reset_counts()
    global _CALLBACK                    # the driver holds it until the next request's
    _CALLBACK = LAUNCH_CALLBACK(launches)
    stub.wbstub_set_launch_callback(_CALLBACK)
    library = open_library(request["op"].name, request["library"])
    plan = _plan(request["op"], request["library"])
    given = {name: ([HostArray(a) for a in v] if isinstance(v, list) else
                    HostArray(v) if isinstance(v, np.ndarray) else v)
             for name, v in values.items()}
    reply = {"launches": launches.runs, "failure": None}
    try:
        plan.launch(library, given, request["consts"], 0, request["grid"], request["hints"])
    except PortError as e:
        reply["failure"] = launches.failure or {"ok": False, "rel_error": None,
                                                "reason": f"the port's host code: {e}"}
    except WorkbenchError as e:             # an argument the port's manifest refuses
        reply["failure"] = {"ok": False, "rel_error": None, "reason": str(e)}
    counts = (ctypes.c_int * len(CALL_KINDS))()
    stub.wbstub_counts(counts, len(CALL_KINDS))
    reply["calls"] = dict(zip(CALL_KINDS, counts))
    if reply["failure"] is None and not launches.runs:
        reply["failure"] = {"ok": False, "rel_error": None,
                            "reason": "the port's host code returned without launching a kernel"}
    return {**reply, "values": values}


def main() -> int:
    """Serve requests from the pipe named by argv[1], replies to argv[2], until it closes."""
    requests, replies = int(sys.argv[1]), int(sys.argv[2])
    while True:
        try:
            request = pickle.loads(read_frame(requests))
        except EOFError:
            return 0
        reply = serve(request)
        reply["values"] = {name: pack(v) for name, v in reply["values"].items()}
        write_frame(replies, pickle.dumps(reply))


if __name__ == "__main__":
    sys.exit(main())
