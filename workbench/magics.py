"""IPython magics: `%load_ext workbench`, then

    %port softmax [--case N]                       the three-pane widget for an operator
    %port path/kernel.py:name --arg f32[..] ...    the same for any kernel file
    %%cutile [--arg ... --const ... --stage raw|normalized]
        (a cell defining @ct.kernel functions: defines them and prints the Tile IR)
    %%rust softmax
        (a cell with the port's kernel.rs: saved, the old one kept, rebuilt, diffed)

Every magic is a thin shell over plain functions (workbench.session, workbench.ir.stages).
"""
from __future__ import annotations

import argparse
import shlex

from IPython.core.magic import Magics, cell_magic, line_magic, magics_class

from .errors import WorkbenchError

_CELL_COUNTER = [0]


def _parser(prog: str) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=prog, add_help=False, exit_on_error=False)
    parser.add_argument("target", nargs="?")
    parser.add_argument("--case", type=int, default=0)
    parser.add_argument("--arg", action="append", default=[])
    parser.add_argument("--const", action="append", default=[])
    parser.add_argument("--stage", choices=("raw", "normalized"), default="normalized")
    parser.add_argument("--name", default=None)
    parser.add_argument("--out", default=None)
    return parser


def _args(prog: str, line: str):
    try:
        return _parser(prog).parse_args(shlex.split(line))
    except (argparse.ArgumentError, SystemExit) as e:
        raise WorkbenchError(f"{prog}: {e}", f"usage: see `{prog}?`")


@magics_class
class WorkbenchMagics(Magics):
    @line_magic
    def port(self, line: str):
        """%port OP [--case N] | FILE.py:KERNEL --arg .. --const ..: open the widget."""
        from .session import PortSession
        from .sources.targets import resolve_target
        from .ui.widget import PortWidget
        args = _args("%port", line)
        if not args.target:
            raise WorkbenchError("%port needs an operator or FILE.py:KERNEL", "try %port softmax")
        op = resolve_target(args.target, args.arg, args.const, args.out)
        return PortWidget(PortSession(op, args.case))

    @cell_magic
    def cutile(self, line: str, cell: str):
        """%%cutile [--arg .. --const .. --name KERNEL]: define the cell's kernels, print IR."""
        import cuda.tile as ct
        from .argspec import parse_arg, parse_const
        from .ir.printer import print_module
        from .sources.kernel import load_kernel_source
        from .ir.stages import python_ir
        args = _args("%%cutile", line)
        _CELL_COUNTER[0] += 1
        filename = f"<cutile-cell-{_CELL_COUNTER[0]}>"
        namespace = {}
        exec(compile(cell, filename, "exec", dont_inherit=True), namespace)
        kernels = [n for n, v in namespace.items() if isinstance(v, ct.kernel)]
        if not kernels:
            raise WorkbenchError("the cell defines no @ct.kernel", "decorate a function with @ct.kernel")
        name = args.name or kernels[-1]
        self.shell.user_ns.update({n: namespace[n] for n in kernels})
        if not args.arg:
            print(f"defined {', '.join(kernels)}; add --arg ... to see the Tile IR")
            return None
        kernel = load_kernel_source(cell, filename, name)
        result = python_ir(kernel, [parse_arg(a) for a in args.arg],
                           dict(parse_const(c) for c in args.const))
        module = result.module(args.stage)
        print(print_module(module) if args.stage == "normalized" else result.text)
        return None

    @cell_magic
    def rust(self, line: str, cell: str):
        """%%rust OP: replace the port's kernel.rs with the cell, rebuild, diff."""
        from .session import PortSession
        args = _args("%%rust", line)
        if not args.target:
            raise WorkbenchError("%%rust needs an operator", "try %%rust softmax")
        session = PortSession(args.target, args.case)
        kept = session.save_rust(cell)
        result = session.rebuild()
        print(result.summary())
        if kept:
            print(f"previous kernel.rs kept as {kept}")
        if result.ok:
            view = session.diff()
            print(view.report.to_text())
        return None


def load_ipython_extension(ipython) -> None:
    ipython.register_magics(WorkbenchMagics)
