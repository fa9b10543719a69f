"""Rewrite the golden Tile IR files next to each catalog operator from the real tools
(cuda-tile's export, printed by tileirdisasm -g). Run it when the toolchain changes, and
commit the result with a message that says why the goldens changed.

    .venv/bin/python tools/update_goldens.py [OP ...]
"""
from __future__ import annotations

import sys

from workbench.catalog import load_catalog
from workbench.goldens import golden_path, python_golden_text


def main(names: list[str]) -> int:
    catalog = load_catalog()
    for name in names or list(catalog):
        op = catalog[name]
        for case in op.cases:
            path = golden_path(op, "python", case.index)
            text = python_golden_text(op, case.index)
            changed = not path.exists() or path.read_text() != text
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
            print(f"{'updated' if changed else 'same   '} {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
