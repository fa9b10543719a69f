"""Structural Tile IR diff: align two normalized modules, classify findings, give a verdict."""
from .align import Alignment, OpPair, align_modules
from .findings import Finding, classify
from .verdict import DiffReport, diff_modules

__all__ = ["Alignment", "OpPair", "align_modules", "Finding", "classify", "DiffReport",
           "diff_modules"]
