"""Conditional aggregates: SUMIF(S), COUNTIF(S), AVERAGEIF."""
from __future__ import annotations

import math
from typing import Iterable, Iterator

from apps.sheets.formula.base import ErrorValue, Value
from apps.sheets.formula.coercion import Arg, _clean, _exact, _fail, _Fail, _grid, _Grid, _is_number
from apps.sheets.formula.functions.base import _fn
from apps.sheets.formula.matching import _criterion


def _at(g: _Grid, i: int, j: int) -> Value:
    return g.rows[i][j] if i < g.height and j < g.width else None


def _matches(pairs: list[tuple[Arg, Arg]], height: int, width: int) -> Iterator[tuple[int, int]]:
    """Positions where every (range, criterion) pair matches; ranges must share the shape."""
    tests = []
    for rng, crit in pairs:
        g = _grid(rng)
        if (g.height, g.width) != (height, width):
            _fail("#VALUE!", "Array arguments are of different size.")
        tests.append((g.rows, _criterion(crit)))
    for i in range(height):
        for j in range(width):
            if all(test(rows[i][j]) for rows, test in tests):
                yield i, j


def _summed(g: _Grid, cells: Iterable[tuple[int, int]]) -> list[int | float]:
    out = []
    for i, j in cells:
        v = _at(g, i, j)
        if isinstance(v, ErrorValue):
            raise _Fail(v)
        if _is_number(v):
            out.append(v)
    return out  # type: ignore[return-value]


@_fn("SUMIF", lo=2, hi=3)
def _sumif(rng: Arg, crit: Arg, sum_range: Arg = None) -> Value:
    g = _grid(rng)
    target = _grid(sum_range) if sum_range is not None else g
    return _clean(math.fsum(_summed(target, _matches([(g, crit)], g.height, g.width))))


@_fn("SUMIFS", lo=3, hi=None)
def _sumifs(sum_range: Arg, *pairs: Arg) -> Value:
    if len(pairs) % 2:
        _fail("#N/A", "Wrong number of arguments to SUMIFS.")
    g = _grid(sum_range)
    cells = _matches(list(zip(pairs[::2], pairs[1::2])), g.height, g.width)
    return _clean(math.fsum(_summed(g, cells)))


@_fn("COUNTIF", lo=2, hi=2)
def _countif(rng: Arg, crit: Arg) -> Value:
    g = _grid(rng)
    return sum(1 for _ in _matches([(g, crit)], g.height, g.width))


@_fn("COUNTIFS", lo=2, hi=None)
def _countifs(*pairs: Arg) -> Value:
    if len(pairs) % 2:
        _fail("#N/A", "Wrong number of arguments to COUNTIFS.")
    g = _grid(pairs[0])
    return sum(1 for _ in _matches(list(zip(pairs[::2], pairs[1::2])), g.height, g.width))


@_fn("AVERAGEIF", lo=2, hi=3)
def _averageif(rng: Arg, crit: Arg, avg_range: Arg = None) -> Value:
    g = _grid(rng)
    target = _grid(avg_range) if avg_range is not None else g
    nums = _summed(target, _matches([(g, crit)], g.height, g.width))
    if not nums:
        _fail("#DIV/0!", "Evaluation of function AVERAGEIF caused a divide by zero error.")
    return _exact(math.fsum(nums) / len(nums))
