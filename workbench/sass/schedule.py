"""How a kernel's main loop shares the SM between its matrix products and the rest, read from
its sm_90 SASS: the evidence for what keeps a tile program from a Hopper kernel that overlaps
them (flash attention 3, cuDNN's sm90 attention).

On sm_90 a warp group issues a group of HGMMAs (`WARPGROUP.ARRIVE`, then HGMMAs, the last one
marked `gsb0`) and later waits for it: `WARPGROUP.DEPBAR.LE gsb0, N` returns once at most N
groups are still running. A wait with N = 0 right after the issue means the warps stop until
the tensor cores finish, so the floating-point work that follows (an online softmax's max, exp
and sums) and the products take turns instead of overlapping. Whether a kernel splits its warps
into producer and consumer roles shows as `USETMAXREG` (setmaxnreg: the roles trade registers).
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from .model import Instruction

MATRIX = ("HGMMA", "QGMMA", "IGMMA", "BGMMA")
# the work an online softmax (or any epilogue) does between the products
FLOAT_WORK = ("FFMA", "FMUL", "FADD", "FMNMX", "FSEL", "MUFU", "F2FP", "FSETP", "SHFL")


@dataclass
class LoopSchedule:
    start: int                        # the loop's first address (a backward branch's target)
    end: int                          # the backward branch
    instructions: int
    groups: list[int]                 # HGMMAs in each group the loop issues
    waits: list[int]                  # N of each `WARPGROUP.DEPBAR.LE gsb0, N` in the loop
    exposed: Counter = field(default_factory=Counter)   # float work with no group in flight
    overlapped: Counter = field(default_factory=Counter)  # float work while a group runs
    role_split: list[str] = field(default_factory=list)  # USETMAXREG.* in the kernel
    exp: Counter = field(default_factory=Counter)         # MUFU.EX2 and the accurate exp's FFMAs

    @property
    def serialized(self) -> bool:
        """Every wait in the loop waits for every group issued: no product overlaps other work."""
        return bool(self.waits) and all(n == 0 for n in self.waits)

    def lines(self) -> list[str]:
        exposed, overlapped = sum(self.exposed.values()), sum(self.overlapped.values())
        top = ", ".join(f"{op} x{n}" for op, n in self.exposed.most_common(5))
        roles = (", ".join(sorted(set(self.role_split))) + " (producer and consumer warps)"
                 if self.role_split else "no USETMAXREG: every warp does every step")
        out = [f"main loop 0x{self.start:x}-0x{self.end:x}: {self.instructions} instructions, "
               f"{len(self.groups)} matrix groups {_sizes(self.groups)}",
               "waits: " + ", ".join(f"WARPGROUP.DEPBAR.LE gsb0, {n}" + (f" x{c}" if c > 1 else "")
                                     for n, c in sorted(Counter(self.waits).items())),
               f"float work with no product in flight: {exposed} instructions ({top}); "
               f"while a product runs: {overlapped}",
               f"warp roles: {roles}"]
        if self.exp.get("FFMA.RM"):
            out.append(f"exp: MUFU.EX2 x{self.exp['MUFU.EX2']} with FFMA.RM x{self.exp['FFMA.RM']}"
                       f" and FFMA.SAT x{self.exp['FFMA.SAT']} (the accurate exp's range "
                       "reduction; exp2 of a pre-scaled value needs none)")
        elif self.exp.get("MUFU.EX2"):
            out.append(f"exp: MUFU.EX2 x{self.exp['MUFU.EX2']}, no range reduction around it")
        return out

    def reading(self) -> str:
        """One sentence: what the SASS says about overlap."""
        if self.serialized:
            return (f"the main loop waits for each of its {len(self.groups)} matrix groups to "
                    f"finish (WARPGROUP.DEPBAR.LE gsb0, 0) before the "
                    f"{sum(self.exposed.values())} float instructions that follow: the tensor "
                    "cores and the other units take turns, where a Hopper flash kernel overlaps "
                    "them across warp groups")
        return (f"the main loop keeps up to {max(self.waits, default=0)} matrix group(s) in "
                f"flight across {sum(self.overlapped.values())} float instructions")


def _sizes(groups: list[int]) -> str:
    """`of 1/7/8 HGMMA`, or for an unrolled loop's many groups `(HGMMAs per group: 1 x128)`."""
    if len(groups) <= 4:
        return f"of {'/'.join(map(str, groups))} HGMMA"
    return "(HGMMAs per group: " + ", ".join(f"{n} x{c}" for n, c in
                                            sorted(Counter(groups).items())) + ")"


def loop_schedule(instructions: list[Instruction]) -> LoopSchedule | None:
    """The schedule of the loop that issues the most matrix instructions (None: no loop does)."""
    best = None
    for ins in instructions:
        target = _branch_target(ins)
        if target is None or target >= ins.address:
            continue
        body = [i for i in instructions if target <= i.address <= ins.address]
        matrix = sum(i.opcode in MATRIX for i in body)
        if matrix and (best is None or matrix > best[0]):
            best = (matrix, target, ins.address, body)
    if best is None:
        return None
    _, start, end, body = best
    schedule = LoopSchedule(start, end, len(body), [], [])
    _walk(body, schedule)
    schedule.role_split = [i.full_opcode for i in instructions if i.opcode == "USETMAXREG"]
    schedule.exp = Counter(i.full_opcode for i in body
                           if i.full_opcode in ("MUFU.EX2", "FFMA.RM", "FFMA.SAT"))
    return schedule


def _walk(body: list[Instruction], schedule: LoopSchedule) -> None:
    """Issue and wait order through one pass of the loop body. A group still in flight at the
    loop's end is in flight at its start (the next iteration), so the pass starts from there:
    a first pass, recording nothing, finds it."""
    _pass(body, _pass(body, 0, LoopSchedule(0, 0, 0, [], [])), schedule)


def _pass(body: list[Instruction], in_flight: int, schedule: LoopSchedule) -> int:
    """One pass, recorded into `schedule`; the groups still in flight at its end."""
    current = 0
    for ins in body:
        if ins.opcode in MATRIX:
            current += 1
            if "gsb0" in ins.operands:
                schedule.groups.append(current)
                current, in_flight = 0, in_flight + 1
        elif ins.full_opcode == "WARPGROUP.DEPBAR.LE":
            n = _wait_count(ins)
            schedule.waits.append(n)
            in_flight = min(in_flight, n)
        elif ins.opcode.startswith(FLOAT_WORK):
            (schedule.overlapped if in_flight else schedule.exposed)[ins.full_opcode] += 1
    return in_flight


def _wait_count(ins: Instruction) -> int:
    try:
        return int(ins.operands[-1], 0)
    except (IndexError, ValueError):
        return 0


def _branch_target(ins: Instruction) -> int | None:
    if ins.opcode != "BRA" or not ins.operands:
        return None
    try:
        return int(ins.operands[-1], 16)
    except ValueError:
        return None
