"""Rewrite the golden Tile IR texts from the real tools (cuda-tile export + tileirdisasm -g).

    .venv/bin/python tools/update_goldens.py [OP ...]

A golden changes only in a commit that says why (a kernel edit, a toolchain bump).
"""
import sys

from workbench.catalog import load_catalog
from workbench.goldens import golden_path, python_golden_text


def main(names: list[str]) -> None:
    for op in load_catalog().values():
        if names and op.name not in names:
            continue
        for case in op.cases:
            path = golden_path(op, "python", case.index)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(python_golden_text(op, case.index))
            print(f"wrote {path}")


if __name__ == "__main__":
    main(sys.argv[1:])
