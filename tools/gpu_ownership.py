"""The GPU session's ownership steps (tools/gpu_session.py ownership, promises), and the
classification of their saved results on a machine with the disassembly tools:

    python3 tools/gpu_ownership.py classify gpu-out/ownership.json

(the owner needs the Tile IR and SASS of both sides, so tileirdisasm, cuobjdump and nvdisasm;
where the GPU machine has none, its table says `undetermined: no evidence: ...` and this
command, run here on the saved check results and their recorded launches, names the owners).

ownership  each planted fixture (workbench/fixtures.py: OWNERSHIP_FIXTURES) checked on
           the GPU, and the owner its failed check names against the owner it plants, as a
           short table; ownership.json keeps every response. The compiler fixture runs under
           its planted miscompile. Without a GPU each row says `skipped: no CUDA device`.
promises   each port's C ABI handed a real tensor that breaks its unit-stride promise, straight
           through the C symbol (past the Python-side check): it must refuse it with a message
           naming the argument and the fact, and leave the output as it was (nothing launched).
"""
from __future__ import annotations

OPS = ["silu_and_mul", "softmax", "rms_norm", "layer_norm", "matmul", "attention"]


def ownership(save) -> None:
    from workbench.fixtures import OWNERSHIP_FIXTURES, environment, planted_compiler
    from workbench.check.report import check_operator, format_check
    responses = {}
    for name in OWNERSHIP_FIXTURES:
        op = _fixture(name)
        env = planted_compiler(op) if name == "miscompiled" else {}
        with environment(env):
            response = check_operator(op)
        responses[name] = response.to_json()
        print(format_check(name, response), flush=True)
    save("ownership.json", {"rows": table(responses), "responses": responses})


def table(responses: dict) -> list[dict]:
    """Print and return the fixture | owner planted | owner named table."""
    from workbench.fixtures import OWNERSHIP_FIXTURES
    rows = []
    for name, raw in responses.items():
        expected = OWNERSHIP_FIXTURES.get(name, "?")
        owners = raw.get("owners") or []
        owner = owners[0] if owners else None
        status = raw.get("status")
        got = owner["owner"] if owner else ("skipped" if status == "skipped" else f"none ({status})")
        rows.append((name, expected, status, owner["failure"] if owner else "-", got,
                     "yes" if got == expected else ("-" if got == "skipped" else "NO"),
                     (owner["summary"] if owner else raw.get("reason", ""))[:90]))
    header = ("fixture", "plants", "check", "failure", "owner named", "right?", "why")
    widths = [max(len(str(r[i])) for r in rows + [header]) for i in range(len(header) - 1)]
    for row in [header] + rows:
        print("  ".join(str(v).ljust(w) for v, w in zip(row, widths)) + "  " + str(row[-1]),
              flush=True)
    return [dict(zip(header, r)) for r in rows]


def classify_saved(path: str) -> int:
    """Name the owners of the saved failed checks again, here, and print the table."""
    import json
    from pathlib import Path
    from workbench.fixtures import environment, planted_compiler
    from workbench.check.report import owners_of
    from workbench.check.runner import CheckResponse
    data = json.loads(Path(path).read_text())
    responses = {}
    for name, raw in data["responses"].items():
        response = CheckResponse(**{k: raw.get(k) or ([] if k in ("results", "owners") else
                                                       {} if k in ("device", "ceilings") else "")
                                    for k in CheckResponse.__dataclass_fields__})
        if response.status == "fail":
            op = _fixture(name)
            env = planted_compiler(op) if name == "miscompiled" else {}
            with environment(env):
                response.owners = owners_of(op, response, [c.index for c in op.cases])
        responses[name] = response.to_json()
    rows = table(responses)
    return 0 if all(r["right?"] in ("yes", "-") for r in rows) else 1


def _fixture(name: str):
    from workbench.fixtures import fixture_operator
    return fixture_operator(name)


def promises(save) -> None:
    from workbench.check.runner import has_cuda_driver
    if not has_cuda_driver():
        print("promises: skipped: no CUDA device", flush=True)
        save("promises.json", {"status": "skipped", "reason": "no CUDA device"})
        return
    import torch
    from workbench.catalog import get_operator
    from workbench.check.worker import make_values
    from workbench.rust.ffi import CallPlan, describe, pack_into
    from workbench.rust.library import PortError, load
    rows = []
    stream = torch.cuda.current_stream()
    for name in OPS:
        op = get_operator(name)
        case = op.case(0)
        values = make_values(op, case, torch)
        plan = CallPlan(op)
        tensor, rule = next(t for t in plan.tensors if t[1].unit_stride)
        dim = rule.unit_stride[0]
        shape = list(values[tensor].shape)
        shape[dim] *= 2
        wide = torch.randn(shape, device="cuda").to(values[tensor].dtype)
        every_other = tuple(slice(None, None, 2) if d == dim else slice(None)
                            for d in range(len(shape)))
        values[tensor] = wide[every_other]          # stride 2 in `dim`: the promise broken
        output = op.outputs[0]
        before = values[output].clone()
        # packed by hand: the Python-side check (CallPlan.prepared) would refuse it first
        args = _prepared_past_the_check(plan, values, case.consts, describe, pack_into)
        try:
            library, _ = load(op)
            library.call(*args, stream.cuda_stream)
            torch.cuda.synchronize()
            message, refused = "launched", False
        except PortError as e:
            message, refused = str(e), True
        untouched = bool(torch.equal(before.nan_to_num(7.0), values[output].nan_to_num(7.0)))
        ok = refused and untouched and f"{tensor}: stride 2 in dim {dim}" in message
        rows.append({"op": name, "tensor": tensor, "dim": dim, "refused": refused,
                     "output untouched": untouched, "message": message, "ok": ok})
        print(f"{name:14} {tensor}.stride[{dim}] = 2: {'refused' if refused else 'LAUNCHED'}, "
              f"output {'untouched' if untouched else 'WRITTEN'}: {message[-140:]}", flush=True)
    save("promises.json", {"status": "ok", "rows": rows})


def _prepared_past_the_check(plan, values, consts, describe, pack_into):
    with plan._lock:
        for index, (name, _) in enumerate(plan.tensors):
            pack_into(plan._tensor_bytes, index, describe(name, values[name]))
        for index, name in enumerate(plan.scalars):
            plan._scalar_array[index] = float(values[name])
        for index, name in enumerate(plan.consts):
            plan._const_array[index] = int(consts[name])
        return (plan._tensor_array, len(plan.tensors), plan._scalar_array, len(plan.scalars),
                plan._const_array, len(plan.consts))


if __name__ == "__main__":
    import sys
    sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parent.parent))
    if sys.argv[1:2] != ["classify"] or len(sys.argv) != 3:
        sys.exit("usage: python3 tools/gpu_ownership.py classify gpu-out/ownership.json")
    sys.exit(classify_saved(sys.argv[2]))
