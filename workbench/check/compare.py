"""Comparing an output with its float64 reference: plain numpy, no GPU needed.

Outputs are poisoned with NaN before a run, so a NaN left in the output means an element
the kernel never wrote; NaN never passes.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass

import numpy as np

# Relative-error tolerances per dtype (||out - ref|| / ||ref||, reference in float64):
# a few units of the format's rounding error accumulated over a reduction. An operator's
# catalog entry may set its own (matmul and attention do).
# a recorded kernel's own side, judged against what it wrote on the GPU when recorded
AGAINST_RECORDED = "against what it wrote when the call was recorded"
DEFAULT_TOLERANCE = {"f64": 1e-12, "f32": 1e-5, "tf32": 2e-3, "f16": 2e-3, "bf16": 1.6e-2,
                     "f8e4m3": 1.25e-1, "f8e5m2": 2.5e-1}


@dataclass
class Comparison:
    ok: bool
    rel_error: float | None
    tolerance: float
    unwritten: int          # elements still NaN where the reference is finite
    nonfinite: int          # inf/NaN in the output where the reference is finite
    elements: int
    reason: str = ""

    def to_json(self) -> dict:
        return asdict(self)


def compare(out: np.ndarray, ref: np.ndarray, tolerance: float) -> Comparison:
    out = np.asarray(out, dtype=np.float64)
    ref = np.asarray(ref, dtype=np.float64)
    if out.shape != ref.shape:
        return Comparison(False, None, tolerance, 0, 0, out.size,
                          f"shape {out.shape} differs from the reference's {ref.shape}")
    if out.size == 0:
        return Comparison(True, 0.0, tolerance, 0, 0, 0, "empty output")
    finite_ref = np.isfinite(ref)
    unwritten = int(np.count_nonzero(np.isnan(out) & finite_ref))
    nonfinite = int(np.count_nonzero(~np.isfinite(out) & finite_ref))
    # where the reference itself is inf/nan the output must match it exactly
    special = ~finite_ref
    special_mismatch = int(np.count_nonzero(special & ~_same_special(out, ref)))
    if unwritten:
        return Comparison(False, None, tolerance, unwritten, nonfinite, out.size,
                          f"{unwritten} of {out.size} elements NaN where the reference has a "
                          "value (never written, or computed as NaN)")
    if nonfinite or special_mismatch:
        return Comparison(False, None, tolerance, 0, nonfinite, out.size,
                          f"{nonfinite + special_mismatch} non-finite values differ from "
                          "the reference")
    diff = out[finite_ref] - ref[finite_ref]
    ref_norm = float(np.linalg.norm(ref[finite_ref]))
    diff_norm = float(np.linalg.norm(diff))
    rel = diff_norm / ref_norm if ref_norm > 0 else diff_norm
    ok = bool(rel <= tolerance)
    return Comparison(ok, rel, tolerance, 0, 0, out.size,
                      "" if ok else f"relative error {rel:.3g} > tolerance {tolerance:.3g}")


def _same_special(out: np.ndarray, ref: np.ndarray) -> np.ndarray:
    both_nan = np.isnan(out) & np.isnan(ref)
    same_inf = np.isinf(out) & np.isinf(ref) & (np.sign(out) == np.sign(ref))
    return both_nan | same_inf


def geomean(values: list[float]) -> float | None:
    values = [v for v in values if v and v > 0]
    if not values:
        return None
    return float(np.exp(np.mean(np.log(values))))
