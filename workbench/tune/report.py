"""A sweep as a table (one row per candidate, fastest first) and as a plot (each case's
candidates' time over the untuned port's, the reference's as a line)."""
from __future__ import annotations

from pathlib import Path

from ..errors import WorkbenchError
from .sweep import CaseSweep, TuneReport


def format_tune(report: TuneReport, margin: float) -> str:
    lines = [f"tune {report.op}: {report.status}" + (f" ({report.reason})" if report.reason
                                                     else "")]
    lines += [f"  program={n} runs {name}" for n, name in enumerate(report.programs, start=1)]
    for sweep in report.cases:
        lines += _case_lines(sweep, margin)
    if report.status == "ok":
        lines.append(f"kept in {report.written}" if report.written else
                     "the port is unchanged (no candidate beat it, or --dry-run)")
    return "\n".join(lines)


def _case_lines(sweep: CaseSweep, margin: float) -> list[str]:
    tried = len(sweep.trials)
    head = (f"{sweep.label}: {tried} candidates"
            + (f" (a sample of {sweep.combinations})" if sweep.combinations > tried else ""))
    out = [head]
    if sweep.untuned_us:
        reference = f"{sweep.reference_us:.2f} us" if sweep.reference_us else "no time"
        out.append(f"  reference {reference}; untuned port {sweep.untuned_us:.2f} us")
    order = ordered(sweep)
    if all(t.correct is None for t in order):
        return out + ["  would try: " + "; ".join(t.id for t in order)]
    for trial in order:
        out.append("  " + _trial_line(trial, sweep))
    if sweep.note:
        out.append(f"  {sweep.note}")
    if sweep.untuned_us:
        out.append(f"  {kept_line(sweep, margin)}")
    return out


def ordered(sweep: CaseSweep) -> list:
    """The candidates fastest first, then the untimed ones (failed, not checked)."""
    return sorted(sweep.trials, key=lambda t: (t.rust_us is None, t.rust_us or 0.0))


def kept_line(sweep: CaseSweep, margin: float) -> str:
    if sweep.kept:
        return (f"kept: {sweep.kept.id} ({sweep.kept.rust_us / sweep.untuned_us:.3f}x the "
                "untuned port)")
    return f"kept: nothing (no correct candidate {margin:.0%} faster than untuned)"


def _trial_line(trial, sweep: CaseSweep) -> str:
    if trial.correct is None:
        return f"{trial.id:<40} not checked"
    if not trial.correct:
        return f"{trial.id:<40} FAIL {trial.reason}"
    if trial.rust_us is None:
        return f"{trial.id:<40} correct, {trial.reason or 'not timed'}"
    ratio = f"{trial.rust_us / sweep.untuned_us:.3f}x untuned" if sweep.untuned_us else ""
    return f"{trial.id:<40} {trial.rust_us:9.2f} us  {ratio}"


def plot_tune(report: TuneReport, path: Path) -> Path:
    """A PNG of the sweep: per case, every timed candidate's time over the untuned port's
    (log scale, fastest on top; the kept one green, the failed ones left out)."""
    try:
        import matplotlib
    except ImportError:
        raise WorkbenchError("--plot needs matplotlib, which is not installed here",
                             "pip install matplotlib (the notebook extra has it), or leave "
                             "--plot out: the table says the same") from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    timed = [s for s in report.cases if s.untuned_us]
    heights = [1.2 + 0.22 * len(s.trials) for s in timed] or [2.0]
    figure, axes = plt.subplots(len(heights), 1, figsize=(9, sum(heights)), squeeze=False,
                                gridspec_kw={"height_ratios": heights})
    for axis, sweep in zip(axes[:, 0], timed):
        _plot_case(axis, report.op, sweep)
    figure.tight_layout()
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, dpi=110)
    plt.close(figure)
    return path


def _plot_case(axis, op: str, sweep: CaseSweep) -> None:
    trials = sorted((t for t in sweep.trials if t.correct and t.rust_us),
                    key=lambda t: t.rust_us, reverse=True)
    ratios = [t.rust_us / sweep.untuned_us for t in trials]
    colours = ["tab:green" if t is sweep.kept else "tab:blue" for t in trials]
    axis.barh(range(len(ratios)), ratios, color=colours)
    axis.set_xscale("log")
    axis.axvline(1.0, color="black", linewidth=0.8, label="untuned port")
    if sweep.reference_us:
        axis.axvline(sweep.reference_us / sweep.untuned_us, color="tab:red", linestyle="--",
                     linewidth=0.8, label="reference")
    axis.set_yticks(range(len(trials)), [t.id for t in trials], fontsize=6)
    failed = sum(1 for t in sweep.trials if t.correct is False)
    axis.set_title(f"{op} {sweep.label}" + (f" ({failed} failed their check, not shown)"
                                              if failed else ""), fontsize=9)
    axis.set_xlabel("device time / untuned port (log)", fontsize=8)
    axis.legend(fontsize=7, loc="lower right")
