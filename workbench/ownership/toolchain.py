"""One port under two tileiras versions. Each side's bytecode is made once (the front ends,
cuda-tile and cutile, do not change with tileiras), then every version disassembles and
compiles that same bytecode. Whatever differs between the versions is therefore the
compiler's: a compile that fails under one version only, or other machine code."""
from __future__ import annotations

import difflib
from dataclasses import asdict, dataclass, field, fields

from ..errors import ToolError
from ..ir.disasm import disassemble
from ..operators import Operator
from ..sass.model import SassSummary
from ..sass.stages import sass_of
from ..toolchains import current_version, installed, selected
from .pairs import side_bytecode

SIDES = ("python", "rust")


@dataclass
class Compiled:
    """One side's bytecode as one tileiras version reads it."""
    version: str
    ir: str
    summary: SassSummary | None
    instructions: list[str] = field(default_factory=list)     # normalized SASS
    error: str = ""


@dataclass
class SideAcross:
    side: str
    compiled: list[Compiled]
    finding: str
    changes: list[str] = field(default_factory=list)

    def failed_under(self) -> list[str]:
        return [c.version for c in self.compiled if c.summary is None]


@dataclass
class ToolchainDiff:
    target: str
    case: int
    versions: list[str]
    sides: list[SideAcross]
    headline: str              # `owner: compiler`, `compiler-version effects only`, ...
    conclusion: str            # the headline and why

    def lines(self) -> list[str]:
        out = [f"{self.target} case {self.case}: tileiras {' vs '.join(self.versions)} "
               "(the same bytecode compiled by each)"]
        for side in self.sides:
            out.append(f"  {side.side}: {side.finding}")
            out += [f"    {change}" for change in side.changes]
            out += [f"    under {c.version}: {c.error}" for c in side.compiled if c.error]
        out.append(self.conclusion)
        return out

    def to_json(self) -> dict:
        return {"schema": "workbench.toolchain_diff/1", "target": self.target,
                "case": self.case, "versions": self.versions, "conclusion": self.conclusion,
                "sides": [{"side": s.side, "finding": s.finding, "changes": s.changes,
                           "compiled": [{"version": c.version, "error": c.error,
                                         "summary": asdict(c.summary) if c.summary else None}
                                        for c in s.compiled]}
                          for s in self.sides]}


def toolchain_diff(op: Operator, case: int, versions: list[str],
                   sides: tuple[str, ...] = SIDES) -> ToolchainDiff:
    across = [_side_across(side, side_bytecode(op, side, case), versions) for side in sides]
    return ToolchainDiff(op.name, case, list(versions), across, *_conclusion(across, versions))


def compiled_elsewhere(op: Operator, case: int, side: str) -> dict[str, str]:
    """Each installed tileiras version other than the one in use, with "" where it compiles
    this side's bytecode and the first lines of its error where it does not."""
    current = current_version()
    others = [version for version in installed() if version != current]
    if not others:
        return {}
    bytecode = side_bytecode(op, side, case)
    return {version: _compile_under(version, bytecode).error for version in others}


def _side_across(side: str, bytecode: bytes, versions: list[str]) -> SideAcross:
    compiled = [_compile_under(version, bytecode) for version in versions]
    first, second = compiled[0], compiled[1]
    ir_note = ("" if first.ir == second.ir else
               f"; tileirdisasm {first.version} and {second.version} print the IR differently")
    failed = [c.version for c in compiled if c.summary is None]
    if len(failed) == len(compiled):
        return SideAcross(side, compiled, f"fails to compile under every version{ir_note}")
    if failed:
        ok = next(c.version for c in compiled if c.summary is not None)
        return SideAcross(side, compiled,
                          f"compiler-version effect: compiles under {ok}, fails under "
                          f"{', '.join(failed)} from the same bytecode{ir_note}")
    changes = _summary_changes(first.summary, second.summary)
    if not changes and first.instructions == second.instructions:
        return SideAcross(side, compiled, f"the same machine code under both{ir_note}")
    if not changes:
        return SideAcross(side, compiled, "compiler-version effect: the same machine code "
                          "summary, other instructions or order "
                          f"({_differing(first.instructions, second.instructions)}){ir_note}")
    return SideAcross(side, compiled, f"compiler-version effect: the machine code differs "
                      f"({len(changes)} part(s) of the summary){ir_note}", changes)


def _compile_under(version: str, bytecode: bytes) -> Compiled:
    with selected(version):
        ir = disassemble(bytecode, debug_info=False)
        try:
            result = sass_of(bytecode)
        except ToolError as e:
            return Compiled(version, ir, None, error=_first_lines(e.message))
    return Compiled(version, ir, result.summary, [i.normalized() for i in result.instructions])


def _differing(a: list[str], b: list[str]) -> str:
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    same = sum(block.size for block in matcher.get_matching_blocks())
    return f"{len(b) - same} of {len(b)} instructions not in the other, aligned"


def _summary_changes(a: SassSummary, b: SassSummary) -> list[str]:
    return [f"{f.name}: {getattr(a, f.name)} -> {getattr(b, f.name)}"
            for f in fields(SassSummary) if getattr(a, f.name) != getattr(b, f.name)]


def _conclusion(sides: list[SideAcross], versions: list[str]) -> tuple[str, str]:
    """(headline, the headline and why)."""
    failed = {side.side: side.failed_under() for side in sides}
    only = {v for fails in failed.values() for v in fails if len(fails) < len(versions)}
    if only and all(failed.get(s) == sorted(only) for s in SIDES if s in failed):
        return _said("owner: compiler", f" - every side compiles under {_others(versions, only)} "
                     f"and fails under {', '.join(sorted(only))} from the same bytecode: a "
                     f"regression of tileiras {', '.join(sorted(only))}, not of the port (stay "
                     "on the version that compiles)")
    if only:
        return _said("owner: compiler", f" - a side fails under {', '.join(sorted(only))} only, "
                     "from the bytecode that compiles under the other version: a "
                     "compiler-version effect")
    if any(fails for fails in failed.values()):
        return _said("no version compiles a side", ": not a version effect (see the build and "
                     "IR diff)")
    if any(side.finding.startswith("compiler-version") for side in sides):
        return _said("compiler-version effects only", ": the bytecode is the same, the machine "
                     "code differs as listed")
    return _said("no difference between the versions on this case", "")


def _said(headline: str, why: str) -> tuple[str, str]:
    return headline, headline + why


def _others(versions: list[str], excluded: set[str]) -> str:
    return ", ".join(v for v in versions if v not in excluded)


def _first_lines(text: str, count: int = 3) -> str:
    return " / ".join(line.strip(" |") for line in text.strip().splitlines()[:count])
