"""Information: ISBLANK, ISNUMBER, ISTEXT, ISERROR, NA."""
from __future__ import annotations

from apps.sheets.formula.base import ErrorValue, Value
from apps.sheets.formula.coercion import Arg, _is_number, _scalar
from apps.sheets.formula.functions.base import _fn


@_fn("ISBLANK")
def _isblank(v: Arg) -> Value:
    return _scalar(v) is None


@_fn("ISNUMBER")
def _isnumber(v: Arg) -> Value:
    return _is_number(_scalar(v))


@_fn("ISTEXT")
def _istext(v: Arg) -> Value:
    return isinstance(_scalar(v), str)


@_fn("ISERROR")
def _iserror(v: Arg) -> Value:
    return isinstance(_scalar(v), ErrorValue)


@_fn("NA", lo=0, hi=0)
def _na() -> Value:
    return ErrorValue("#N/A", "Value not available.")
