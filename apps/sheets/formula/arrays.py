"""Array evaluation: operators applied cell by cell inside the arguments of functions that take arrays
(SUMPRODUCT), and the scalar operators they are built from."""
from __future__ import annotations

from apps.sheets.formula.base import ErrorValue, Value
from apps.sheets.formula.coercion import _BINOPS, Arg, _clean, _Fail, _Grid, _num


ARRAY_ARGS = frozenset({"SUMPRODUCT"})       # functions whose arguments are evaluated as arrays


def _apply(op: str, a: Value, b: Value) -> Value:
    if isinstance(a, ErrorValue):
        return a
    if isinstance(b, ErrorValue):
        return b
    try:
        return _BINOPS[op](a, b)
    except _Fail as f:
        return f.error


def _unary(kind: str, v: Value) -> Value:
    if isinstance(v, ErrorValue):
        return v
    try:
        return _clean(-_num(v) if kind == "neg" else _num(v) / 100)
    except _Fail as f:
        return f.error


def _elementwise(op: str, a: Arg, b: Arg) -> Arg:
    """``a op b`` cell by cell; a 1x1 grid or a single value stretches over the other side."""
    if not isinstance(a, _Grid) and not isinstance(b, _Grid):
        return _apply(op, a, b)
    ga = a if isinstance(a, _Grid) else _Grid([[a]])
    gb = b if isinstance(b, _Grid) else _Grid([[b]])
    if (ga.height, ga.width) == (1, 1) and (gb.height, gb.width) != (1, 1):
        ga = _Grid([[ga.first()] * gb.width for _ in range(gb.height)])
    elif (gb.height, gb.width) == (1, 1) and (ga.height, ga.width) != (1, 1):
        gb = _Grid([[gb.first()] * ga.width for _ in range(ga.height)])
    if (ga.height, ga.width) != (gb.height, gb.width):
        return ErrorValue("#VALUE!", "Array arguments are of different size.")
    return _Grid([[_apply(op, x, y) for x, y in zip(ra, rb)] for ra, rb in zip(ga.rows, gb.rows)])
