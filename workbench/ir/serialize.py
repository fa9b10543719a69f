"""JSON form of a parsed module: the text plus its structure, reloadable with from_json."""
from __future__ import annotations

from .locations import SourceLoc, resolve_locations
from .model import Module, Operation
from .printer import op_header, print_module, print_nodes
from .parse import parse
from ..errors import WorkbenchError

SCHEMA = "workbench.tileir/1"


def to_json(module: Module) -> dict:
    resolved = resolve_locations(module)
    ops = list(module.walk())
    return {
        "schema": SCHEMA,
        "text": print_module(module),
        "symbols": dict(module.symbols),
        "entries": [{
            "symbol": e.symbol,
            "args": [{"name": a.name, "type": print_nodes(a.type)} for a in e.args],
            "ops": [_op_json(op, resolved) for op in e.block.ops],
        } for e in module.entries],
        "locations": {str(i): str(loc) for i, loc in module.locations.items()},
        "op_count": len(ops),
    }


def _op_json(op: Operation, resolved: dict[str, SourceLoc]) -> dict:
    source = resolved.get(op.loc) if op.loc else None
    item = {
        "name": op.name,
        "results": [str(r) for r in op.results],
        "operands": [t.text for t in op.operands()],
        "text": op_header(op),
        "source": str(source) if source else None,
    }
    if op.regions:
        item["regions"] = [[_op_json(o, resolved) for o in r.block.ops] for r in op.regions]
    return item


def from_json(data: dict) -> Module:
    if data.get("schema") != SCHEMA:
        raise WorkbenchError(f"not a Tile IR module JSON (schema {data.get('schema')!r})",
                             f"expected schema {SCHEMA}")
    module = parse(data["text"])
    module.symbols = dict(data.get("symbols", {}))
    module.locations = {int(k): _source_loc(v) for k, v in data.get("locations", {}).items()}
    return module


def _source_loc(text: str) -> SourceLoc:
    file, line, col = text.rsplit(":", 2)
    return SourceLoc(file, int(line), int(col))
