"""Tuning a port (`workbench tune OP`): its knobs (knobs.py), the sweep on the batch engine
and what it keeps (sweep.py, rust/tuned.py), the table and plot of a sweep (report.py)."""
