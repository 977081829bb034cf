"""The function table, the decorator that fills it, and argument helpers every family uses."""
from __future__ import annotations

from datetime import datetime
from typing import Callable, Iterable, Iterator, Protocol, Union

from apps.sheets.formula.base import ErrorValue, Value
from apps.sheets.formula.coercion import Arg, _Fail, _Grid, _num

FuncSpec = tuple[Callable[..., Arg], int, Union[int, None], bool]
FUNCTIONS: dict[str, FuncSpec] = {}     # NAME -> (function, least and most arguments (None: any), lazy)


class Host(Protocol):
    """What a lazy function is handed: the workbook evaluating it."""

    def _eval_arg(self, node: tuple, tab: str) -> Arg: ...

    def _now(self) -> datetime: ...


def _fn(*names: str, lo: int = 1, hi: int | None = 1,
        lazy: bool = False) -> Callable[[Callable[..., Arg]], Callable[..., Arg]]:
    """Register a function. Eager functions get evaluated arguments (references as grids);
    lazy ones get ``(workbook, arg_nodes, tab)`` and evaluate what they need."""
    def register(f: Callable[..., Arg]) -> Callable[..., Arg]:
        for name in names:
            FUNCTIONS[name] = (f, lo, hi, lazy)
        return f
    return register


def _numbers(args: Iterable[Arg]) -> list[int | float]:
    """Numbers of the arguments: inside ranges only real numbers count (errors propagate);
    direct arguments are coerced (TRUE is 1, "3" is 3, "abc" is #VALUE!); omitted ones skipped."""
    out: list[int | float] = []
    for a in args:
        if isinstance(a, _Grid):
            for v in a.flat():
                if type(v) is int or type(v) is float:
                    out.append(v)  # type: ignore[arg-type]
                elif isinstance(v, ErrorValue):
                    raise _Fail(v)
        elif a is not None:
            out.append(_num(a))
    return out


def _flat(args: Iterable[Arg]) -> Iterator[Value]:
    for a in args:
        if isinstance(a, _Grid):
            yield from a.flat()
        else:
            yield a
