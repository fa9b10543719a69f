"""Facts compared by direction: is what the port assumes weaker, stronger or incomparable
with what the reference assumes, in one unit, and what follows from that.

A fact is an `assume` predicate about a value (`div_by<N>`, `bounded<lo, hi>`,
`same_elements<[..]>`), or the static layout of a view (a dimension or stride that is a
constant in `tensor_view<..>`). Both front ends write `div_by` on the integer itself, so
two facts about one stride are both in elements, and on a base pointer both in bytes. They
get there by different rules, which is why their numbers differ for the same call:
cuTile Python states a stride's divisibility in 16-byte units (div_by<16 / itemsize>
elements, or nothing) and a dimension as a multiple of 16 or nothing; cutile states the
largest power of two up to 16 that divides the value in elements (`compute_spec`). The
findings print both units.

Where each of the port's facts comes from decides what a stronger one means (`Origin`):
  call     re-derived from every call's tensors (cutile's `compute_spec` at launch, and the
           same rule in the emitter): it holds on every call by construction
  port     fixed by the port's code (an `assume_*` in kernel.rs, a static dimension in the
           entry's types): it holds only while callers honour it, so the port's C ABI has
           to check it (`FactContext.checked`)
  given    true of every value of its kind (`bounded<0, ?>` on a size, a stride or a block id)
  unknown  no port to ask (two text files)

Verdict rules (`judge`):
  weaker        FAIL (perf), unless the machine code shows no consequence: then a note
                carrying that evidence ("same SASS: no effect"); with no SASS, a FAIL that
                says why
  stronger      a note when the fact is re-derived per call, given, or checked by the C ABI
                on every call; otherwise FAIL (critical): an unchecked promise
  incomparable  FAIL (critical): the two sides state facts neither of which implies the other
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Callable

WEAKER, STRONGER, INCOMPARABLE, EQUAL = "weaker", "stronger", "incomparable", "equal"
CALL, PORT, GIVEN, UNKNOWN = "call", "port", "given", "unknown"

_DIV = re.compile(r"^div_by<\s*(\d+)\s*(?:,\s*every\s+(\d+)\s+along\s+(\d+)\s*)?>$")
_BOUNDED = re.compile(r"^bounded<\s*(-?\d+|\?)\s*,\s*(-?\d+|\?)\s*>$")
_SAME = re.compile(r"^same_elements<\s*\[([^\]]*)\]\s*>$")


KERNEL_ITSELF = "the kernel itself"   # whose promise a fact is when its own source states it
OWN_ARITHMETIC = "the port's own arithmetic"   # who proves a fact its Tile IR computes anyway


def vouched(checked_by: str) -> str:
    """How a fact's guarantor is named: the kernel's own promise, a proof from the port's
    arithmetic, or a check on every call."""
    how = "promised by" if checked_by.startswith(KERNEL_ITSELF) else \
        "proved by" if checked_by.startswith(OWN_ARITHMETIC) else "checked on every call by"
    return f"{how} {checked_by}"


@dataclass(frozen=True)
class FactSet:
    """What the predicates of one value say, kind by kind. `div_by` is the divisor every
    element has (1: nothing known); `every` holds `every N along D` forms."""
    div_by: int = 1
    every: tuple[tuple[int, int, int], ...] = ()      # (divisor, every, along)
    lower: int | None = None
    upper: int | None = None
    same_elements: tuple[int, ...] = ()
    other: tuple[str, ...] = ()                        # predicates this module cannot read

    @classmethod
    def of(cls, predicates) -> "FactSet":
        div, every, lower, upper, same, other = 1, [], None, None, (), []
        for text in predicates:
            text = text.strip()
            if m := _DIV.match(text):
                if m[2]:
                    every.append((int(m[1]), int(m[2]), int(m[3])))
                else:
                    div = math.lcm(div, int(m[1]))
            elif m := _BOUNDED.match(text):
                lo, hi = (None if v == "?" else int(v) for v in (m[1], m[2]))
                lower = lo if lower is None else (lower if lo is None else max(lower, lo))
                upper = hi if upper is None else (upper if hi is None else min(upper, hi))
            elif m := _SAME.match(text):
                same = tuple(int(v) for v in m[1].split(",") if v.strip())
            else:
                other.append(text)
        return cls(div, tuple(sorted(every)), lower, upper, same, tuple(sorted(other)))

    def kinds(self) -> dict[str, str]:
        """Each kind of fact this set states, printed (div_by, bounded, same_elements)."""
        out = {}
        if self.div_by > 1 or self.every:
            parts = [f"div_by<{self.div_by}>"] if self.div_by > 1 else []
            parts += [f"div_by<{d}, every {e} along {a}>" for d, e, a in self.every]
            out["div_by"] = ", ".join(parts)
        if self.lower is not None or self.upper is not None:
            out["bounded"] = f"bounded<{_bound(self.lower)}, {_bound(self.upper)}>"
        if self.same_elements:
            out["same_elements"] = f"same_elements<[{', '.join(map(str, self.same_elements))}]>"
        if self.other:
            out["other"] = ", ".join(self.other)
        return out


def _bound(value: int | None) -> str:
    return "?" if value is None else str(value)


# -- implication, kind by kind --------------------------------------------------------------

def _div_implies(a: FactSet, b: FactSet) -> bool:
    """Does everything `a` says about divisibility imply what `b` says?"""
    if a.div_by % b.div_by:
        return False
    for d, e, along in b.every:
        if a.div_by % d == 0:
            continue
        if not any(ad % d == 0 and aa == along and e % ae == 0 for ad, ae, aa in a.every):
            return False
    return True


def _bounded_implies(a: FactSet, b: FactSet) -> bool:
    lower_ok = b.lower is None or (a.lower is not None and a.lower >= b.lower)
    upper_ok = b.upper is None or (a.upper is not None and a.upper <= b.upper)
    return lower_ok and upper_ok


def _same_implies(a: FactSet, b: FactSet) -> bool:
    if not b.same_elements:
        return True
    if len(a.same_elements) != len(b.same_elements):
        return False
    return all(x % y == 0 for x, y in zip(a.same_elements, b.same_elements))


def _other_implies(a: FactSet, b: FactSet) -> bool:
    return set(b.other) <= set(a.other)


IMPLIES = {"div_by": _div_implies, "bounded": _bounded_implies,
           "same_elements": _same_implies, "other": _other_implies}


def direction(reference: FactSet, port: FactSet, kind: str) -> str:
    """How the port's facts of `kind` relate to the reference's."""
    port_implies, reference_implies = IMPLIES[kind](port, reference), IMPLIES[kind](reference, port)
    if port_implies and reference_implies:
        return EQUAL
    if port_implies:
        return STRONGER
    if reference_implies:
        return WEAKER
    return INCOMPARABLE


def compare_facts(reference, port) -> dict[str, str]:
    """kind -> direction for every kind where the two predicate lists differ."""
    ref, prt = FactSet.of(reference), FactSet.of(port)
    out = {}
    for kind in IMPLIES:
        d = direction(ref, prt, kind)
        if d != EQUAL:
            out[kind] = d
    return out


def restricted(facts: FactSet, kind: str) -> str:
    return facts.kinds().get(kind, "(none)")


# -- units ----------------------------------------------------------------------------------

def in_units(text: str, role: str, itemsize: int | None) -> str:
    """`div_by<8>` on a stride of 4-byte elements -> `div_by<8> (8 elements = 32 B)`."""
    m = re.match(r"div_by<(\d+)>", text)
    if not m:
        return text
    n = int(m[1])
    if role == "base":
        return f"{text} ({n} B)"
    if role in ("shape", "stride") and itemsize:
        return f"{text} ({n} elements = {n * itemsize} B)"
    return text


UNIT_RULES = ("cuTile Python states a stride's divisibility in 16-byte units (16 / itemsize "
              "elements) and a dimension as a multiple of 16 or nothing; cutile states the "
              "largest power of two up to 16 that divides the value, in elements")


# -- what the diff is told from outside ---------------------------------------------------------

@dataclass
class MachineEvidence:
    """What the machine code of both sides says, handed to the diff by whoever could compile
    them (the diff never compiles anything itself)."""
    available: bool
    same: bool = False
    what: str = ""                 # which two programs were compared
    changes: list[str] = field(default_factory=list)   # SASS summary lines that differ
    reason: str = ""               # why there is no SASS, when there is none

    def to_json(self) -> dict:
        return {"available": self.available, "same": self.same, "what": self.what,
                "changes": self.changes, "reason": self.reason}

    def consequence(self) -> str:
        if not self.available:
            return f"no SASS: {self.reason}"
        if self.same:
            return f"same SASS: no effect ({self.what})"
        return f"SASS differs ({self.what}): " + "; ".join(self.changes[:4])


NO_SASS = MachineEvidence(False, reason="two text files: nothing to compile (tileiras takes "
                                        "bytecode only), so no machine code can show the "
                                        "difference has no effect")


@dataclass
class FactContext:
    """What the diff knows beyond the two IR texts (all optional).

    names      side ("left" | "right") -> {entry argument: "x.stride[0]"}
    port_fixed right root value -> the predicates the port's code fixes for it (what is
               left when the port is compiled for a call with no divisibility at all); None:
               not known, every port fact counts as `unknown`
    fixed_layout  per right view (in order): {"shape": {dim: v}, "strides": {dim: v}}, the
               static entries the port's code fixes
    checked    subject ("x.shape[1]") -> [(fact text, who checks it)] checked on every call
    evidence   called at most once, only when a finding needs machine-code evidence
    """
    names: dict[str, dict[str, str]] = field(default_factory=dict)
    port_fixed: dict[str, tuple[str, ...]] | None = None
    fixed_layout: list[dict] | None = None
    checked: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    evidence: Callable[[], MachineEvidence] | None = None
    _evidence: MachineEvidence | None = None

    def machine_evidence(self) -> MachineEvidence:
        if self._evidence is None:
            self._evidence = self.evidence() if self.evidence else NO_SASS
        return self._evidence


# -- the rules ----------------------------------------------------------------------------------

def unchecked_promise(fact: dict) -> bool:
    """A fact the port's code states for every call (stronger than the reference's, or fixed
    by the port where the reference derives it per call) that nothing checks: a caller who
    breaks it gets wrong results. The finding carries it as `fact["promise"]`."""
    return (fact.get("direction") in (STRONGER, "fixed") and fact.get("origin") in (PORT, UNKNOWN)
            and not fact.get("checked_by"))


def judge(direction_: str, origin: str, checked_by: str | None,
          evidence: Callable[[], MachineEvidence]) -> tuple[str, str, MachineEvidence | None]:
    """(category, reason, evidence used) for one fact of the port that differs."""
    if direction_ == INCOMPARABLE:
        return "critical", "incomparable: neither side's fact implies the other's", None
    if direction_ == WEAKER:
        ev = evidence()
        if ev.available and ev.same:
            return "hint", f"weaker in the port; {ev.consequence()}", ev
        return "perf", f"weaker in the port; {ev.consequence()}", ev
    if origin == CALL:
        return "hint", ("stronger in the port, re-derived from every call's tensors "
                        "(cutile compute_spec at launch): holds on every call"), None
    if origin == GIVEN:
        return "noise", "stronger in the port, but true of every value of its kind", None
    if checked_by:
        return "hint", f"stronger in the port, {vouched(checked_by)}", None
    if origin == UNKNOWN:
        return "critical", ("unchecked promise: stronger in the port, and with no port to "
                            "read (two text files) nothing shows a check"), None
    return "critical", ("unchecked promise: stronger in the port, fixed by the port's code "
                        "and checked by nobody; a caller breaking it gets wrong results"), None
