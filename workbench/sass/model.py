"""SASS as data: instructions (predicate, opcode, modifiers, operands), a summary of what
matters for performance, and a normalized form in which two kernels can be compared."""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import asdict, dataclass, field

_LINE = re.compile(r"^\s*/\*(?P<addr>[0-9a-f]+)\*/\s+(?P<pred>@!?U?P[0-9T]\s+)?"
                   r"(?P<op>[A-Z][A-Z0-9_.]*)(?P<rest>[^;]*);")
_RES = re.compile(r"REG:(?P<reg>\d+)\s+STACK:(?P<stack>\d+)\s+SHARED:(?P<shared>\d+)\s+"
                  r"LOCAL:(?P<local>\d+)")


@dataclass
class Instruction:
    address: int
    predicate: str
    opcode: str          # base name, e.g. LDG
    modifiers: tuple[str, ...]
    operands: tuple[str, ...]

    @property
    def full_opcode(self) -> str:
        return ".".join((self.opcode,) + self.modifiers)

    def normalized(self) -> str:
        """Registers, addresses and immediates erased: what the instruction does."""
        operands = [re.sub(r"\bU?R\d+\b", "R", op) for op in self.operands]
        operands = [re.sub(r"\bU?P\d\b", "P", op) for op in operands]
        operands = [re.sub(r"0x[0-9a-f]+|\b\d+\b", "#", op) for op in operands]
        pred = "@P " if self.predicate else ""
        return f"{pred}{self.full_opcode} {', '.join(operands)}".strip()


@dataclass
class SassSummary:
    instructions: int
    global_loads: dict[str, int] = field(default_factory=dict)    # by width/kind
    global_stores: dict[str, int] = field(default_factory=dict)
    tma: dict[str, int] = field(default_factory=dict)
    shared: dict[str, int] = field(default_factory=dict)
    matrix: dict[str, int] = field(default_factory=dict)
    ffma: int = 0
    barriers: int = 0
    registers: int | None = None
    shared_bytes: int | None = None
    local_bytes: int | None = None     # spills
    stack_bytes: int | None = None

    def to_json(self) -> dict:
        return asdict(self)

    def lines(self) -> list[str]:
        def fmt(d):
            return ", ".join(f"{k} x{v}" for k, v in sorted(d.items())) or "none"
        return [f"instructions: {self.instructions}",
                f"global loads: {fmt(self.global_loads)}",
                f"global stores: {fmt(self.global_stores)}",
                f"TMA / bulk copies: {fmt(self.tma)}",
                f"shared memory: {fmt(self.shared)}",
                f"matrix: {fmt(self.matrix)}; FFMA x{self.ffma}",
                f"barriers: {self.barriers}",
                f"registers: {self.registers}, shared: {self.shared_bytes} B, "
                f"local (spills): {self.local_bytes} B, stack: {self.stack_bytes} B"]


def parse_sass(text: str) -> list[Instruction]:
    out = []
    for line in text.splitlines():
        match = _LINE.match(line)
        if not match:
            continue
        name, *mods = match["op"].split(".")
        rest = match["rest"].strip()
        operands = tuple(o.strip() for o in rest.split(",")) if rest else ()
        out.append(Instruction(int(match["addr"], 16), (match["pred"] or "").strip(), name,
                               tuple(mods), operands))
    return out


def _width(ins: Instruction) -> str:
    widths = [m for m in ins.modifiers if m in ("U8", "S8", "U16", "S16", "64", "128")]
    return ins.opcode + "." + (widths[-1] if widths else "32")


def summarize(instructions: list[Instruction], resources: str = "") -> SassSummary:
    s = SassSummary(instructions=len(instructions))
    loads, stores, tma, shared, matrix = Counter(), Counter(), Counter(), Counter(), Counter()
    for ins in instructions:
        op = ins.opcode
        if op in ("LDG", "LD"):
            loads[_width(ins)] += 1
        elif op in ("STG", "ST", "RED", "ATOMG"):
            stores[_width(ins)] += 1
        elif op.startswith(("UTMA", "UBLKCP", "UBLKRED")):
            tma[op] += 1
        elif op in ("LDS", "STS", "LDSM", "STSM", "ATOMS"):
            shared[op] += 1
        elif op in ("HGMMA", "HMMA", "IMMA", "QGMMA", "IGMMA", "DMMA", "BGMMA"):
            matrix[op] += 1
        elif op == "FFMA":
            s.ffma += 1
        elif op in ("BAR", "SYNCS", "WARPSYNC", "MEMBAR"):
            s.barriers += 1
    s.global_loads, s.global_stores = dict(loads), dict(stores)
    s.tma, s.shared, s.matrix = dict(tma), dict(shared), dict(matrix)
    match = _RES.search(resources)
    if match:
        s.registers, s.stack_bytes = int(match["reg"]), int(match["stack"])
        s.shared_bytes, s.local_bytes = int(match["shared"]), int(match["local"])
    return s
