"""Math and statistics: SUM, AVERAGE, COUNT, ROUND, MOD, SQRT, SUMPRODUCT, MEDIAN, LARGE and friends."""
from __future__ import annotations

import math
import statistics
from decimal import ROUND_DOWN, ROUND_HALF_UP, ROUND_UP, Decimal

from apps.sheets.formula.base import _DECIMALS, ErrorValue, Value
from apps.sheets.formula.coercion import (Arg, _clean, _exact, _fail, _Fail, _grid, _Grid, _int, _is_number, _num,
                                          _power)
from apps.sheets.formula.functions.base import _flat, _fn, _numbers
from apps.sheets.formula.inputs import _text_to_number


@_fn("SUM", hi=None)
def _sum(*args: Arg) -> Value:
    return _clean(math.fsum(_numbers(args)))


@_fn("AVERAGE", hi=None)
def _average(*args: Arg) -> Value:
    nums = _numbers(args)
    if not nums:
        _fail("#DIV/0!", "Evaluation of function AVERAGE caused a divide by zero error.")
    return _exact(math.fsum(nums) / len(nums))


@_fn("MIN", hi=None)
def _min(*args: Arg) -> Value:
    return min(_numbers(args), default=0)


@_fn("MAX", hi=None)
def _max(*args: Arg) -> Value:
    return max(_numbers(args), default=0)


@_fn("COUNT", hi=None)
def _count(*args: Arg) -> Value:
    n = 0
    for a in args:
        if isinstance(a, _Grid):
            n += sum(1 for v in a.flat() if _is_number(v))
        elif _is_number(a) or isinstance(a, bool) or (isinstance(a, str) and a.strip()
                                                       and _text_to_number(a) is not None):
            n += 1
    return n


@_fn("COUNTA", hi=None)
def _counta(*args: Arg) -> Value:
    return sum(1 for v in _flat(args) if v is not None)


@_fn("COUNTBLANK")
def _countblank(rng: Arg) -> Value:
    return sum(1 for v in _grid(rng).flat() if v is None or v == "")


def _round_to(x: Arg, digits: Arg, mode: str) -> Value:
    n, d = _num(x), _int(digits)
    if d >= 15 or n == 0:
        return n
    q = Decimal(repr(n)) if type(n) is float else Decimal(n)
    if d < -308:
        return 0
    r = q.quantize(Decimal(1).scaleb(-d), rounding=mode, context=_DECIMALS)
    return _clean(float(r))


@_fn("ROUND", hi=2)
def _round(x: Arg, digits: Arg = 0) -> Value:
    return _round_to(x, digits, ROUND_HALF_UP)


@_fn("ROUNDUP", hi=2)
def _roundup(x: Arg, digits: Arg = 0) -> Value:
    return _round_to(x, digits, ROUND_UP)


@_fn("ROUNDDOWN", hi=2)
def _rounddown(x: Arg, digits: Arg = 0) -> Value:
    return _round_to(x, digits, ROUND_DOWN)


@_fn("ABS")
def _abs(x: Arg) -> Value:
    return abs(_num(x))


@_fn("INT")
def _int_fn(x: Arg) -> Value:
    return math.floor(_num(x))


@_fn("MOD", lo=2, hi=2)
def _mod(a: Arg, b: Arg) -> Value:
    x, y = _num(a), _num(b)
    if y == 0:
        _fail("#DIV/0!", "Function MOD parameter 2 cannot be zero.")
    return _clean(x % y)


_fn("POWER", lo=2, hi=2)(_power)


@_fn("SQRT")
def _sqrt(x: Arg) -> Value:
    n = _num(x)
    if n < 0:
        _fail("#NUM!", "Function SQRT parameter 1 value is negative. It should be positive or zero.")
    return _exact(math.sqrt(n))


@_fn("SUMPRODUCT", hi=None)
def _sumproduct(*arrays: Arg) -> Value:
    """Sum of the cell-by-cell products; its arguments are arrays (``(D2:D9="North")*B2:B9``, where the
    comparison's TRUE counts 1 once multiplied); text and empty cells count 0."""
    for a in arrays:
        if isinstance(a, ErrorValue):
            raise _Fail(a)
    grids = [_grid(a) for a in arrays]
    shape = (grids[0].height, grids[0].width)
    if any((g.height, g.width) != shape for g in grids):
        _fail("#VALUE!", "SUMPRODUCT has mismatched range sizes.")
    total = []
    for cells in zip(*(g.flat() for g in grids)):
        product: int | float = 1
        for v in cells:
            if isinstance(v, ErrorValue):
                raise _Fail(v)
            product *= v if _is_number(v) else 0  # type: ignore[operator]
        total.append(product)
    return _clean(math.fsum(total))


@_fn("PRODUCT", hi=None)
def _product(*args: Arg) -> Value:
    nums = _numbers(args)
    return _exact(math.prod(nums)) if nums else 0


@_fn("MEDIAN", hi=None)
def _median(*args: Arg) -> Value:
    nums = _numbers(args)
    if not nums:
        _fail("#NUM!", "MEDIAN has no numbers to evaluate.")
    return _exact(statistics.median(nums))


def _kth(name: str, rng: Arg, k: Arg, largest: bool) -> Value:
    nums = sorted(_numbers([rng]), reverse=largest)
    i = _int(k)
    if not 1 <= i <= len(nums):
        _fail("#NUM!", f"Function {name} parameter 2 value {i} is out of range.")
    return nums[i - 1]


@_fn("LARGE", lo=2, hi=2)
def _large(rng: Arg, k: Arg) -> Value:
    return _kth("LARGE", rng, k, largest=True)


@_fn("SMALL", lo=2, hi=2)
def _small(rng: Arg, k: Arg) -> Value:
    return _kth("SMALL", rng, k, largest=False)
