"""A TileGym family's cases shrunk for the CPU check (shrink.py says what "the same
structure" means): the family's problem tensors shrink, and its launch rule recomputes the
launch (constants, grid) from them, with a smaller SM count where the grid is persistent."""
from __future__ import annotations

from dataclasses import dataclass, field, replace

from ..catalog import Family, Operator
from ..launchrules import IN, INOUT, Rules, problem_from_toml
from ..operators import Case
from ..tilegym_catalog import NUM_SM, FamilyRules, family_rules
from .cpu_common import SAMPLE_LIMIT, too_many
from .shrink import (BIG_SM, Launched, Shrunk, describe, extent_groups, fingerprint,
                     mapped_spec, runtime_params, shrink_values, spec_facts)

@dataclass
class ShrunkRules(FamilyRules):
    """A family's rules on shrunk problems, launched with a smaller SM count per problem."""
    num_sms: dict = field(default_factory=dict)

    def launch(self, entry: str, index: int, num_sm: int | None = None):
        return super().launch(entry, index, num_sm or self.num_sms.get(index, NUM_SM))


def _problem_raw(problem, mapping: dict[int, int]) -> dict:
    inputs = {}
    for name, tensor in problem.tensors.items():
        if tensor.role not in (IN, INOUT):
            continue
        inputs[name] = [str(mapped_spec(i, mapping)) for i in tensor.items] if tensor.is_list \
            else str(mapped_spec(tensor.spec, mapping))
    return {"inputs": inputs, "options": dict(problem.options), "note": problem.note}


def _problem_facts(problem) -> tuple:
    """What the problem's own tensors must keep: each item of a list as the JIT and the port
    see it (the list's spec is only the weakest item's), and which extents divide which
    (query heads a multiple of key heads)."""
    names = sorted(_input_names(problem))
    specs = [s for n in names for s in (problem[n].items or (problem[n].spec,))]
    extents = sorted({n for s in specs for n in s.shape})
    return (tuple(spec_facts(s) for s in specs),
            tuple(a % b == 0 for a in extents for b in extents if a > b))


def _input_names(problem) -> set[str]:
    """The tensors the catalog case gives (an in-out one too); the rest the rule derives."""
    return {n for n, t in problem.tensors.items() if t.role in (IN, INOUT)}


def shrink_family(family: Family) -> Shrunk:
    """A TileGym family with every problem shrunk (its tensors; the launch rule recomputes
    constants and grid, with a smaller SM count where the grid is persistent)."""
    rules = family_rules(family.name)
    ops = list(family.steps) if family.steps else list(family.entries)
    result = Shrunk()
    problems, num_sms, seen = [], {}, {}

    def launches(problem, num_sm):
        out = []
        for op in ops:
            launch = rules.module.launch(rules.entries[op.name], _rules_for(problem), problem,
                                         num_sm)
            if launch is None:
                out.append(None)
                continue
            wide = rules.module.launch(rules.entries[op.name], _rules_for(problem), problem,
                                       BIG_SM)
            out.append(Launched((op.kernel_file, op.kernel_name), runtime_params(op, launch.consts),
                                tuple(b.spec for b in launch.args), dict(launch.consts),
                                launch.grid, wide.grid if wide.grid != launch.grid else None,
                                dict(launch.hints)))
        return out

    for index, problem in enumerate(rules.problems):
        original = launches(problem, NUM_SM)
        groups = extent_groups([l for l in original if l is not None])

        def prints(launched, problem=problem):
            if [l is None for l in launched] != [l is None for l in original]:
                return None
            return (_problem_facts(problem),) + tuple(
                fingerprint(l, g) for l, g in zip([l for l in launched if l is not None], groups))

        def keeps(num_sm):
            try:
                return prints(launches(problem, num_sm)) == goal
            except Exception:            # the rule cannot launch with so few SMs
                return False

        goal = prints(original)
        num_sm = next((s for s in (1, 2, 4, 8, 16, 32, 64) if keeps(s)), NUM_SM)
        values = sorted({n for name in _input_names(problem) for spec in
                         (problem[name].items or (problem[name].spec,)) for n in spec.shape})

        def build(mapping):
            small = problem_from_toml(_problem_raw(problem, mapping), rules.module.outputs,
                                      f"{family.name} case {index} shrunk")
            return prints(launches(small, num_sm), small)

        mapping = shrink_values(values, build, goal)
        small = problem_from_toml(_problem_raw(problem, mapping), rules.module.outputs,
                                  f"{family.name} case {index} shrunk")
        problems.append(small)
        num_sms[index] = num_sm
        names = sorted(_input_names(problem))
        change = describe([problem[n].spec for n in names], [small[n].spec for n in names],
                          names)
        if num_sm != NUM_SM and any(l is not None and l.walked for l in original):
            change += f"{'; ' if change else ''}SMs {NUM_SM} -> {num_sm}"
        result.notes[index] = change or "kept as is: no smaller shape keeps its structure"
        budget = too_many(sum(t.numel() for t in small.tensors.values()), SAMPLE_LIMIT)
        key = (tuple(sorted((n, t.label()) for n, t in small.tensors.items())),
               tuple(sorted(small.options.items(), key=str)), num_sm)
        if budget:
            result.skipped[index] = f"{budget} (no smaller shape keeps its structure)"
        elif key in seen:
            result.same[index] = seen[key]
        else:
            seen[key] = index
    shrunk_rules = ShrunkRules(rules.name, rules.folder, rules.module, tuple(problems),
                               rules.entries, rules.tolerance, rules.chain, num_sms)
    result.rules = shrunk_rules
    result.family = _family_on(family, shrunk_rules)
    return result


def _rules_for(problem):
    return Rules(problem)


def _family_on(family: Family, rules: ShrunkRules) -> Family:
    """The family with every entry's (and chain step's) cases launched on the shrunk rules."""

    def op_on(op: Operator) -> Operator:
        cases = []
        for index in range(len(rules.problems)):
            launch = rules.launch(op.name, index)
            if launch is not None:
                cases.append(Case(index, tuple(b.spec for b in launch.args),
                                  dict(launch.consts), launch.grid, dict(launch.hints)))
        return replace(op, cases=tuple(cases))
    return replace(family, entries=tuple(op_on(op) for op in family.entries),
                   steps=tuple(op_on(op) for op in family.steps))


