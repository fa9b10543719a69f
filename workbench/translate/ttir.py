"""The Triton kernel's own TTIR, compiled here with no GPU:
`triton.compile(ASTSource(fn, signature, constexprs), target=GPUTarget("cuda", 90, 32))`.

TTIR is Triton's dialect, not Tile IR: it is shown beside the port's Tile IR with no
structural verdict between them (see NO_VERDICT). Only a Triton build with a Tile IR backend
(Triton-TileIR) could give a verdict, and `workbench doctor` says whether one is present.
"""
from __future__ import annotations

import re

from ..errors import WorkbenchError

NO_VERDICT = ("no structural verdict: the original is Triton. Its TTIR (Triton's own IR) and "
              "the port's Tile IR are different dialects, so they are shown side by side and "
              "not diffed; the structural diff is against the derived cuTile kernel, and the "
              "Triton kernel itself is checked on the GPU (correctness and CUPTI time).")
TRITON_TYPES = {"f32": "fp32", "f16": "fp16", "bf16": "bf16", "f64": "fp64", "i64": "i64",
                "i32": "i32", "i16": "i16", "i8": "i8", "u8": "u8", "u16": "u16", "u32": "u32",
                "u64": "u64", "bool": "i1",
                "f8e4m3": "fp8e4nv", "f8e5m2": "fp8e5"}


def signature(source, case) -> tuple[dict, dict]:
    """(triton signature, constexprs) of one case."""
    sig, consts = {}, {}
    runtime = iter(case.args)
    for p in source.params:
        if p.constexpr:
            sig[p.name] = "constexpr"
            consts[p.name] = case.consts.get(p.name, p.default if p.has_default else None)
            continue
        spec = next(runtime, None)
        if spec is None:
            raise WorkbenchError(f"{source.filename}:{source.line}: the case gives no argument "
                                 f"for {p.name}", "give one --arg per runtime parameter")
        if spec.is_none:                # as Triton's JIT specializes an argument of None
            sig[p.name], consts[p.name] = "constexpr", None
            continue
        kind = TRITON_TYPES[spec.dtype]
        if spec.is_array and spec.block:
            sig[p.name] = f"tensordesc<{kind}[{', '.join(map(str, spec.block))}]>"
        else:
            sig[p.name] = f"*{kind}" if spec.is_array else kind
    return sig, consts


def triton_version() -> str | None:
    try:
        import triton
    except ImportError:
        return None
    return triton.__version__


def compile_ttir(source, case) -> str:
    """TTIR text of one case (sm_90); WorkbenchError with Triton's own message if it fails."""
    return compile_triton(source, case).asm["ttir"]


def compile_triton(source, case, warps: int = 4):
    """Triton's compiled kernel of one case for sm_90 (TTIR .. cubin, metadata)."""
    if triton_version() is None:
        raise WorkbenchError("triton is not installed, so there is no TTIR",
                             "install the triton extra: pip install -e '.[triton]'")
    import triton
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource
    fn = source.jit_function()
    sig, consts = signature(source, case)
    try:
        compiled = triton.compile(ASTSource(fn, signature=sig, constexprs=consts),
                                  target=GPUTarget("cuda", 90, 32),
                                  options={"num_warps": warps})
    except Exception as e:
        raise WorkbenchError(f"{source.filename}:{source.line}: Triton {triton.__version__} "
                             f"did not compile {source.kernel_name}: {_reason(e, source)}",
                             "check the case's arguments against the kernel's parameters")
    return compiled


def _reason(error: Exception, source) -> str:
    """Triton's compile error in one line: its message is `at L:C:` (L counting from the
    `def`), the source lines and a caret, then the error itself on the last line."""
    lines = [line.strip() for line in str(error).strip().splitlines() if line.strip()]
    if not lines:
        return type(error).__name__
    where = re.match(r"at (\d+):(\d+):$", lines[0])
    if len(lines) > 1 and where:
        line = source.line + int(where[1]) - 1
        return f"{lines[-1]} ({source.filename}:{line}, column {int(where[2]) + 1})"
    return lines[0]
