"""IPython magics: `%load_ext workbench`, then

    %port softmax [--case N] [--out DIR]           the three-pane widget for an operator
    %port path/kernel.py:name --arg f32[..] ...    the same for any kernel file
    %port KERNEL                                   ... or for a kernel a %%cutile cell defined
    %%cutile [--arg ... --const ... --stage raw|normalized]
        (a cell defining @ct.kernel functions: defines them and prints the Tile IR)
    %%rust softmax [--out DIR] [--force]
        (a cell with the port's kernel.rs: saved, the old one kept, rebuilt, diffed)
    %%record [--out REC.json]
        (a cell of your own host code: every kernel launch it makes recorded, `_record` set)
    %port --record REC.json [--launch N]           the widget for a recorded kernel

`--out DIR` works on the port in DIR; for a catalog operator an empty DIR first gets a copy
of the catalog's port that builds on its own. A DIR that holds another kernel's port or files
that are no port is refused (one line saying what is there) unless --force is given.
%port prints the folders it uses.
A WorkbenchError or a usage error ends the cell with one line (message and what to do),
no traceback. Every magic is a thin shell over plain functions (workbench.session, ...).
"""
from __future__ import annotations

import argparse
import shlex
import sys
from pathlib import Path

from IPython.core.magic import Magics, cell_magic, line_magic, magics_class

from .operators import REPO_ROOT, display_path
from .errors import WorkbenchError
from .argspec import parse_arg, parse_const
from .catalog import all_operators
from .ir.printer import print_module
from .ir.stages import python_ir
from .port.folders import refuse_foreign, stamp
from .port.recorded import record_operator
from .resolve import resolve_target
from .rust.cargo import is_plain_copy
from .session import PortSession, copy_port
from .sources.kernel import load_kernel_source
from .sources.recorder import record
from .ui.widget import PortWidget, live_widgets

CELLS_DIR = REPO_ROOT / "runs" / "cells"      # %%cutile cells as files (ignored by git)
_CELL_KERNELS: dict[str, dict] = {}        # kernel name -> {"file", "args", "consts"}
USAGE = {
    "%port": "%port OP [--case N] [--out DIR] | FILE.py:KERNEL --arg SPEC ... --const N=V "
             "[--grid X[,Y[,Z]]] [--out DIR] | KERNEL (of a %%cutile cell)",
    "%%cutile": "%%cutile [--arg SPEC ...] [--const NAME=VALUE ...] [--name KERNEL] "
                "[--stage raw|normalized]",
    "%%rust": "%%rust OP [--out DIR] [--force]",
    "%%record": "%%record [--out REC.json] [--keep-data]",
}


class _Parser(argparse.ArgumentParser):
    def error(self, message):          # never sys.exit: a usage error is one line
        raise WorkbenchError(f"{self.prog}: {message}", f"usage: {USAGE[self.prog]}")


def _parser(prog: str) -> argparse.ArgumentParser:
    parser = _Parser(prog=prog, add_help=False, exit_on_error=False)
    parser.add_argument("target", nargs="?")
    parser.add_argument("--case", type=int, default=None)
    parser.add_argument("--arg", action="append", default=[])
    parser.add_argument("--const", action="append", default=[])
    parser.add_argument("--stage", choices=("raw", "normalized"), default="normalized")
    parser.add_argument("--name", default=None)
    parser.add_argument("--out", default=None)
    parser.add_argument("--force", action="store_true")
    parser.add_argument("--record", default=None)
    parser.add_argument("--launch", type=int, default=None)
    parser.add_argument("--keep-data", action="store_true")
    parser.add_argument("--grid", default=None)      # X[,Y[,Z]]: a kernel target's launch grid
    return parser


def _args(prog: str, line: str):
    try:
        words = shlex.split(line)
    except ValueError as e:
        raise WorkbenchError(f"{prog}: {e}", f"usage: {USAGE[prog]}")
    try:
        return _parser(prog).parse_args(words)
    except argparse.ArgumentError as e:
        raise WorkbenchError(f"{prog}: {e}", f"usage: {USAGE[prog]}")


def _one_line(magic):
    """Mark a WorkbenchError raised by a magic, so the shell shows it as one line."""
    def wrapper(self, *args, **kwargs):
        try:
            return magic(self, *args, **kwargs)
        except WorkbenchError as e:
            e.from_magic = True
            raise
    wrapper.__name__, wrapper.__doc__ = magic.__name__, magic.__doc__
    return wrapper


def open_target(args):
    """The Operator %port/%%rust name (a %%cutile kernel, a catalog operator, a file or a
    module kernel, a record's kernel) with its port in --out; an empty --out gets a copy of
    the catalog port. Everything is checked before anything is copied: the call, --case,
    and what --out holds (another kernel's port or other files: refused without --force)."""
    op, cell = _resolved(args)
    if args.case is not None:
        op.case(args.case)
    if args.out:
        _claim(op, args.force)
    if args.record:
        return op
    if is_plain_copy(op.port_folder):
        op = copy_port(op, op.port_folder)
        print(f"{_shown(op.port_folder)} was a plain copy of a kernels_src port: its Cargo.toml "
              "now builds on its own (the old one is in .history/)")
    elif args.out and not (op.port_folder / "Cargo.toml").exists():
        original = resolve_target(args.target, args.arg, args.const, grid=args.grid) \
            if not cell else None
        if original is not None and (original.port_folder / "Cargo.toml").exists():
            op = copy_port(original, op.port_folder)
            print(f"copied {_shown(original.port_folder)} to {_shown(op.port_folder)}")
    return op


def _resolved(args):
    """(the Operator the arguments name, the %%cutile cell it is from or None)."""
    if args.record:
        if args.target or args.arg or args.const or args.grid:
            raise WorkbenchError("--record names the kernel, its cases and grids itself",
                                 "drop the target, --arg, --const and --grid")
        return record_operator(args.record, args.launch, args.out), None
    cell = _CELL_KERNELS.get(args.target) if args.target not in all_operators() else None
    if cell:
        out = args.out or CELLS_DIR.parent / "ports" / f"cell.{args.target}" / "port"
        return resolve_target(f"{cell['file']}:{args.target}", args.arg or cell["args"],
                              args.const or cell["consts"], out, grid=args.grid), cell
    return resolve_target(args.target, args.arg, args.const, args.out, grid=args.grid), None


def _claim(op, force: bool) -> None:
    """--out holds something other than op's port: refused, or with --force marked as op's
    port from now on (nothing in it is changed; a Draft there keeps what it replaces)."""
    held = refuse_foreign(op.port_folder, op, force,
                          f"name an empty or new folder, or add --force to open it as "
                          f"{op.name}'s port")
    if held is not None:
        stamp(op.port_folder, op)
        print(f"{_shown(op.port_folder)} held {held}: opened as {op.name}'s port (--force)")


def _shown(path: Path) -> str:
    return display_path(path)


@magics_class
class WorkbenchMagics(Magics):
    @line_magic
    @_one_line
    def port(self, line: str):
        """%port OP [--case N] [--out DIR] | FILE.py:KERNEL --arg .. --const .. [--grid X,Y,Z]:
        the widget (--grid: the launch grid its check runs the kernel on, as the CLI's)."""
        args = _args("%port", line)
        if not args.target and not args.record:
            raise WorkbenchError("%port needs an operator, FILE.py:KERNEL or --record REC.json",
                                 "try %port softmax")
        session = PortSession(open_target(args), args.case)
        print(session.where())
        return PortWidget(session)

    @cell_magic
    @_one_line
    def cutile(self, line: str, cell: str):
        """%%cutile [--arg .. --const .. --name KERNEL]: define the cell's kernels, print IR."""
        import cuda.tile as ct
        args = _args("%%cutile", line)
        specs = [parse_arg(a) for a in args.arg], dict(parse_const(c) for c in args.const)
        names = _defined_kernels(cell)
        file = CELLS_DIR / f"{'.'.join(names) or 'cell'}.py"
        file.parent.mkdir(parents=True, exist_ok=True)
        file.write_text(cell)                # a real file: Tile IR locations and %port use it
        namespace = {}
        exec(compile(cell, str(file), "exec", dont_inherit=True), namespace)
        kernels = [n for n, v in namespace.items() if isinstance(v, ct.kernel)]
        if not kernels:
            raise WorkbenchError("the cell defines no @ct.kernel", "decorate a function with @ct.kernel")
        name = args.name or kernels[-1]
        self.shell.user_ns.update({n: namespace[n] for n in kernels})
        for kernel in kernels:
            _CELL_KERNELS[kernel] = {"file": str(file), "args": args.arg, "consts": args.const}
        if not args.arg:
            print(f"defined {', '.join(kernels)}; add --arg ... to see the Tile IR, "
                  f"`%port {name} --arg ...` to port it")
            return None
        kernel = load_kernel_source(cell, _shown(file), name)
        result = python_ir(kernel, specs[0], specs[1])
        module = result.module(args.stage)
        print(print_module(module) if args.stage == "normalized" else result.text)
        print(f"# `%port {name}` opens it in the widget (port folder "
              f"runs/ports/cell.{name}/port)")
        return None

    @cell_magic
    @_one_line
    def record(self, line: str, cell: str):
        """%%record [--out REC.json] [--keep-data]: run the cell, record every kernel launch
        it makes (--keep-data: and the values it launched them on)."""
        return _record_cell(self.shell, line, cell)

    @cell_magic
    @_one_line
    def rust(self, line: str, cell: str):
        """%%rust OP [--out DIR] [--force]: replace the port's kernel.rs with the cell (the
        old one and any widget's unsaved edits kept in .history/), rebuild, diff."""
        args = _args("%%rust", line)
        if not args.target:
            raise WorkbenchError("%%rust needs an operator", "try %%rust softmax")
        session = PortSession(open_target(args), args.case)
        widgets = live_widgets(session.rust_file)
        dirty = [w for w in widgets if w.unsaved and w.unsaved != w.rust_source]
        if dirty and not args.force:
            raise WorkbenchError(
                f"the widget on {_shown(session.rust_file)} has unsaved edits in its Rust pane",
                f"save them (Ctrl-S), or run `%%rust {line.strip()} --force`: they are kept "
                "in .history/ first")
        kept = [session.keep(w.unsaved, "unsaved") for w in dirty]
        kept.append(session.save_rust(cell))
        kept = [k for k in kept if k]
        for widget in widgets:
            widget.session.op = session.op
            widget.replace_rust(cell, kept)
        result = session.rebuild()
        print(result.summary())
        for path in kept:
            print(f"kept {_shown(path)}")
        if result.ok:
            view = session.diff()
            for widget in widgets:
                widget.show_diff(view)
            print(view.report.to_text())
        return None


RECORDS_DIR_NAME = "records"


def _record_cell(shell, line: str, cell: str):
    """Run a cell under workbench.record(); the record is saved, printed and bound to
    `_record`. The cell's own error ends it with one line; what it recorded is kept."""
    import time
    args = _args("%%record", line)
    out = Path(args.out) if args.out else \
        CELLS_DIR.parent / RECORDS_DIR_NAME / f"cell-{time.strftime('%Y%m%d-%H%M%S')}.json"
    with record(out, source="a notebook cell", keep_data=args.keep_data) as rec:
        result = shell.run_cell(cell)
    shell.user_ns["_record"] = rec
    print(rec.summary())
    print(f"record: {_shown(rec.path)}" + (f"  (next: %port --record {_shown(rec.path)})"
                                          if rec.launches else ""))
    if result.error_in_exec is not None and not rec.launches:
        raise WorkbenchError("the cell raised before any kernel launch was recorded",
                             "fix the cell (its error is above) and run it again")
    return None


def _defined_kernels(cell: str) -> list[str]:
    """Names of the functions a cell decorates with @ct.kernel (read, not run)."""
    import ast
    try:
        tree = ast.parse(cell)
    except SyntaxError:
        return []
    return [node.name for node in tree.body if isinstance(node, ast.FunctionDef)
            and any("kernel" in ast.unparse(d) for d in node.decorator_list)]


def _show_one_line(shell, etype, value, tb, tb_offset=None):
    """A WorkbenchError from a magic: its message and hint on one line, no traceback."""
    if not getattr(value, "from_magic", False):
        return shell.showtraceback((etype, value, tb), tb_offset=tb_offset)
    hint = f" \u2014 {value.hint}" if value.hint else ""
    print(f"\u2717 {value.message}{hint}", file=sys.stderr)
    return None


def load_ipython_extension(ipython) -> None:
    ipython.register_magics(WorkbenchMagics)
    ipython.set_custom_exc((WorkbenchError,), _show_one_line)
