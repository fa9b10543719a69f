"""Child process: load a port library and print the bytecode its emitter makes.

    python -m workbench.rust.emit_worker OP LIBRARY < request.txt > kernel.tileirbc
"""
import sys

from .library import PortError, open_library
from pathlib import Path


def main() -> int:
    op, library = sys.argv[1], Path(sys.argv[2])
    try:
        bytecode = open_library(op, library).emit(sys.stdin.read())
    except PortError as e:
        print(str(e), file=sys.stderr)
        return 1
    sys.stdout.buffer.write(bytecode)
    return 0


if __name__ == "__main__":
    sys.exit(main())
