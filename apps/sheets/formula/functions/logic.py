"""Logic: IF, IFERROR and IFNA (lazy: they evaluate only the branch they take), AND, OR, NOT."""
from __future__ import annotations

from apps.sheets.formula.base import ErrorValue, Value
from apps.sheets.formula.coercion import Arg, _bool, _fail, _Fail, _Grid, _is_number, _scalar
from apps.sheets.formula.functions.base import Host, _fn


@_fn("IF", lo=2, hi=3, lazy=True)
def _if(wb: Host, args: tuple, tab: str) -> Arg:
    cond = _scalar(wb._eval_arg(args[0], tab))
    if isinstance(cond, ErrorValue):
        return cond
    if _bool(cond):
        return wb._eval_arg(args[1], tab)
    return wb._eval_arg(args[2], tab) if len(args) > 2 else False


@_fn("IFERROR", hi=2, lazy=True)
def _iferror(wb: Host, args: tuple, tab: str) -> Arg:
    v = wb._eval_arg(args[0], tab)
    if isinstance(_scalar(v), ErrorValue):
        return wb._eval_arg(args[1], tab) if len(args) > 1 else None
    return v


@_fn("IFNA", lo=2, hi=2, lazy=True)
def _ifna(wb: Host, args: tuple, tab: str) -> Arg:
    v = wb._eval_arg(args[0], tab)
    s = _scalar(v)
    if isinstance(s, ErrorValue) and s.code == "#N/A":
        return wb._eval_arg(args[1], tab)
    return v


def _logicals(args: tuple[Arg, ...], name: str) -> list[bool]:
    out = []
    for a in args:
        if isinstance(a, _Grid):
            for v in a.flat():
                if isinstance(v, ErrorValue):
                    raise _Fail(v)
                if isinstance(v, bool) or _is_number(v):
                    out.append(bool(v))
        elif a is not None:
            out.append(_bool(a))
    if not out:
        _fail("#VALUE!", f"{name} has no logical values to evaluate.")
    return out


@_fn("AND", hi=None)
def _and(*args: Arg) -> Value:
    return all(_logicals(args, "AND"))


@_fn("OR", hi=None)
def _or(*args: Arg) -> Value:
    return any(_logicals(args, "OR"))


@_fn("NOT")
def _not(x: Arg) -> Value:
    return not _bool(x)
