"""Build and call costs of a port.

    .venv/bin/python bench/build_bench.py [OP]      (default softmax)

Rows (each with its reference measured in the same run):
- no-op check: `build()` with nothing changed, against hashing the port's sources alone;
- one-kernel-edit rebuild (a comment added to kernel.rs, warm target folder), against the
  no-op check; the edit is undone afterwards;
- host cost of one call through the C ABI against one `ct.launch` of the Python kernel,
  same sizes: only on a machine with a GPU (tools/gpu_session.py measures it there).
Targets: rebuild after a one-file edit < 30 s; C ABI call no slower than ct.launch.
"""
from __future__ import annotations

import sys
import time
import uuid

from workbench.rust.cargo import build, source_hash
from timing import median_time
from workbench.catalog import get_operator
from workbench.check.runner import has_cuda_driver



def main() -> None:
    op = get_operator(sys.argv[1] if len(sys.argv) > 1 else "softmax")
    build(op)
    t_hash = median_time(lambda: source_hash(op), 9)[0]
    t_noop = median_time(lambda: build(op), 9)[0]
    kernel = op.port_folder / "src" / "kernel.rs"
    original = kernel.read_text()
    try:
        kernel.write_text(f"// benchmark edit {uuid.uuid4().hex}\n" + original)
        start = time.perf_counter()
        result = build(op)
        t_edit = time.perf_counter() - start
    finally:
        kernel.write_text(original)
    build(op)
    print(f"{'measurement':42} {'seconds':>10} {'reference':>10} {'ratio':>8}")
    print(f"{'no-op check (' + op.name + ')':42} {t_noop:10.4f} {t_hash:10.4f} {t_noop / t_hash:8.2f}"
          "   (reference: hashing the sources)")
    print(f"{'rebuild after a one-file edit':42} {t_edit:10.2f} {t_noop:10.4f} "
          f"{t_edit / t_noop:8.0f}   ({result.status}; target < 30 s: "
          f"{'met' if t_edit < 30 and result.ok else 'MISSED'})")
    if has_cuda_driver():
        print("C ABI call vs ct.launch: run tools/gpu_session.py ffi_cost")
    else:
        print("C ABI call vs ct.launch: skipped: no CUDA device (measured by "
              "tools/gpu_session.py ffi_cost on the GPU)")


if __name__ == "__main__":
    main()
