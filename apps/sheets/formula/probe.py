"""Evaluating a formula that lives in no cell: conditional formatting's custom formulas ("=$D2>1000000"),
each read as if it were written in the cell it formats. Nothing in the workbook changes."""
from __future__ import annotations

from apps.sheets.formula.base import ErrorValue, Value
from apps.sheets.formula.parser import _compile
from apps.sheets.formula.workbook import Workbook, _final


def evaluate(wb: Workbook, tab: str, raw: str) -> Value:
    """The value of formula ``raw`` ("=..." ) on ``tab`` of ``wb``, computed from the cells' current values."""
    src = raw[1:] if raw.startswith("=") else raw
    try:
        wb._grids = {}
        return _final(wb._eval(_compile(src).ast, wb._tab(tab)))
    except RecursionError:
        return ErrorValue("#ERROR!", "Formula is nested too deeply.")
    finally:
        wb._grids = {}
