"""A kernel a factory function made (`def make(n): @ct.kernel def k(...): ...; return k`),
lifted to the top of a module so the pipeline can read it like any kernel file: the
factory's module as it is, then the values the factory closed over bound as constants,
then the kernel's own source, dedented. cuTile Python reads closed-over values at compile
time as constants too, so the lifted kernel compiles to the same Tile IR.
"""
from __future__ import annotations

import ast
import json
import textwrap
from pathlib import Path

from ..errors import WorkbenchError

LIFTED_NAME = "kernel.py"


def lift_factory_kernel(kernel, folder: Path) -> Path:
    """Write the lifted module for `kernel` (a RecordedKernel) into `folder`; its path."""
    source = Path(kernel.file).read_text()
    node = _find_def(source, kernel)
    body = textwrap.dedent("\n".join(source.splitlines()[_first_line(node) - 1:node.end_lineno]))
    if not any("kernel" in ast.unparse(d) for d in node.decorator_list):
        body = "@__import__('cuda.tile', fromlist=['kernel']).kernel\n" + body
    bindings = [f"{name} = {_literal(kernel, name, value)}"
                for name, value in sorted(kernel.closure.items())]
    text = (f"{source.rstrip()}\n\n\n"
            f"# -- lifted by the workbench: {kernel.qualname} from {kernel.file}:{kernel.line},\n"
            f"#    with the values its factory closed over --\n" + "\n".join(bindings)
            + "\n\n" + body + "\n")
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / LIFTED_NAME
    if not path.exists() or path.read_text() != text:
        path.write_text(text)
    return path


def _find_def(source: str, kernel) -> ast.FunctionDef:
    try:
        tree = ast.parse(source)
    except SyntaxError as e:
        raise WorkbenchError(f"{kernel.file}:{e.lineno}: syntax error: {e.msg}",
                             "fix the source, then record again")
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.name == kernel.name and \
                kernel.line in (node.lineno, _first_line(node)):
            return node
    raise WorkbenchError(f"{kernel.file}:{kernel.line}: no function {kernel.name!r} there now",
                         "the file changed since the record was made: record again")


def _first_line(node: ast.FunctionDef) -> int:
    return min([node.lineno] + [d.lineno for d in node.decorator_list])


def _literal(kernel, name: str, value) -> str:
    if isinstance(value, dict) and set(value) == {"ct_dtype"}:
        return f"__import__('cuda.tile', fromlist=['{value['ct_dtype']}']).{value['ct_dtype']}"
    if value is None or isinstance(value, (bool, int, float, str)):
        return json.dumps(value) if isinstance(value, str) else repr(value)
    raise WorkbenchError(f"{kernel.label()}: its factory closed over {name} = {value!r}, "
                         "which the workbench cannot write back as a constant",
                         "close over numbers, booleans, strings or cuda.tile dtypes, or "
                         "define the kernel at the top of its module")
