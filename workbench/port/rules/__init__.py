"""The rule-based drafter: a cuTile Python kernel -> the four files of a cuTile Rust port
(`cutile` =0.5.0), offline, by translating the kernel's AST statement by statement.

    spec = analyze(source, filename, kernel_name, list(op.cases))
    draft = draft(spec, source, op.name)
    draft.files["src/kernel.rs"], draft.ok, draft.diagnostics

Each rule is chosen so that the port's Tile IR lines up with the Python kernel's under
`workbench diff` (the hand ports in kernels_src/<op>/port are the reference):
  values.py     what a name stands for (tile, scalar, literal, array, dtype), Rust statements
  branches.py   `if` on constants -> one entry per combination of the tested values
  core.py       the Translator: statements, names, attributes, calls through the rule table
  arith.py      operators (`a * b + c` -> fma), comparisons;  broadcast.py: implicit broadcasting
  loops.py      `for v in range(..)`: loop-carried values, hoisted invariants
  ops_*.py      one Family per group of `ct.*` functions, one decorated rule per function
  ops_slice.py  `Array.slice(axis, start, stop)`: a derived tensor view (attributes.py's
                array methods)
  table.py      every family's rules;  render_kernel.py, render_host.py: the files
  draft.py      draft(), translate(), store_shapes();  drafter.py: the pipeline's RulesDrafter
Anything not translated is a Diagnostic(line, construct, message); the draft then has `ok`
False. A refusal is never a silent wrong port.
"""
from .draft import check_spec, draft, store_shapes, translate, translate_entries  # noqa: F401
from .drafter import RulesDrafter  # noqa: F401
