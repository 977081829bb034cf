"""Values in evaluation: ranges as grids, coercion between numbers, text and booleans, the operators.

Helpers raise :class:`_Fail`; operators and functions catch it at their boundary and return its
error value.
"""
from __future__ import annotations

import math
from typing import Callable, Iterator, NoReturn, Union

from apps.sheets.formula.base import MAX_TEXT, ErrorValue, Value
from apps.sheets.formula.inputs import _text_to_number, _tidy


class _Fail(Exception):
    """Raised by evaluation helpers; caught at operator and function boundaries."""

    def __init__(self, error: ErrorValue) -> None:
        super().__init__(error.code)
        self.error = error


def _fail(code: str, message: str) -> NoReturn:
    raise _Fail(ErrorValue(code, message))


class _Grid:
    """A rectangular block of values: a range reference or a function's array result."""

    __slots__ = ("rows",)

    def __init__(self, rows: list[list[Value]]) -> None:
        self.rows = rows

    @property
    def height(self) -> int:
        return len(self.rows)

    @property
    def width(self) -> int:
        return len(self.rows[0]) if self.rows else 0

    def first(self) -> Value:
        return self.rows[0][0] if self.rows and self.rows[0] else None

    def flat(self) -> Iterator[Value]:
        for row in self.rows:
            yield from row

    def vector(self) -> list[Value] | None:
        """The values of a single row or column, else None."""
        if self.width == 1:
            return [row[0] for row in self.rows]
        if self.height == 1:
            return list(self.rows[0])
        return None


Arg = Union[Value, _Grid]


def _scalar(v: Arg) -> Value:
    return v.first() if isinstance(v, _Grid) else v


def _is_number(v: object) -> bool:
    return type(v) is int or type(v) is float


def _clean(x: int | float) -> int | float:
    """Result of sums and differences: #NUM! if not finite, else 15 significant digits (so that
    0.1+0.2 is 0.3), whole -> int."""
    if type(x) is float and not math.isfinite(x):
        _fail("#NUM!", "Result is not a finite number.")
    return _tidy(x)


def _exact(x: int | float) -> int | float:
    """Result of * / ^ and friends: #NUM! if not finite, whole -> int, otherwise full precision
    (rounding products and quotients would make =1/3*3 come out as 0.999999999999999)."""
    if type(x) is float:
        if not math.isfinite(x):
            _fail("#NUM!", "Result is not a finite number.")
        if x.is_integer() and abs(x) < 1e15:
            return int(x)
    return x


def _num(v: Arg) -> int | float:
    v = _scalar(v)
    if v is None:
        return 0
    t = type(v)
    if t is int or t is float:
        return v  # type: ignore[return-value]
    if t is bool:
        return int(v)  # type: ignore[arg-type]
    if t is str:
        n = _text_to_number(v)  # type: ignore[arg-type]
        if n is None:
            _fail("#VALUE!", f"Expected a number but '{v}' is text and cannot be coerced to a number.")
        return n
    raise _Fail(v)  # type: ignore[arg-type]


def _int(v: Arg) -> int:
    return math.trunc(_num(v))


def _number_text(x: int | float) -> str:
    if type(x) is int:
        return str(x)
    s = f"{x:.15g}"
    if "e" in s:
        mantissa, exp = s.split("e")
        return f"{mantissa}E{int(exp):+03d}"
    return s


def _text(v: Arg) -> str:
    v = _scalar(v)
    if v is None:
        return ""
    if isinstance(v, str):
        return v
    if isinstance(v, bool):
        return "TRUE" if v else "FALSE"
    if isinstance(v, ErrorValue):
        raise _Fail(v)
    return _number_text(v)


def _bool(v: Arg) -> bool:
    v = _scalar(v)
    if v is None:
        return False
    if isinstance(v, bool):
        return v
    if isinstance(v, ErrorValue):
        raise _Fail(v)
    if isinstance(v, str):
        upper = v.strip().upper()
        if upper in ("TRUE", "FALSE"):
            return upper == "TRUE"
        _fail("#VALUE!", f"Expected a boolean but '{v}' is text and cannot be coerced to a boolean.")
    return v != 0


def _grid(v: Arg) -> _Grid:
    if isinstance(v, _Grid):
        return v
    if isinstance(v, ErrorValue):
        raise _Fail(v)
    return _Grid([[v]])


def _rank(v: Value) -> int:
    """Type order for comparisons and sorting: numbers < text < booleans."""
    if isinstance(v, bool):
        return 2
    return 1 if isinstance(v, str) else 0


def _compare(a: Value, b: Value) -> int:
    """-1/0/1 comparing two non-error scalars; empty acts as 0, "" or FALSE to match the other side."""
    if a is None:
        a = "" if isinstance(b, str) else (False if isinstance(b, bool) else 0)
    if b is None:
        b = "" if isinstance(a, str) else (False if isinstance(a, bool) else 0)
    ra, rb = _rank(a), _rank(b)
    if ra != rb:
        return -1 if ra < rb else 1
    if ra == 1:
        a, b = a.lower(), b.lower()  # type: ignore[union-attr]
    elif ra == 0:
        a, b = _tidy(a), _tidy(b)  # type: ignore[arg-type]       # equal to 15 significant digits
    return (a > b) - (a < b)  # type: ignore[operator]


def _divide(a: Value, b: Value) -> Value:
    x, y = _num(a), _num(b)
    if y == 0:
        _fail("#DIV/0!", "Division by zero.")
    return _exact(x / y)


def _power(a: Arg, b: Arg) -> int | float:
    x, y = _num(a), _num(b)
    if x == 0 and y < 0:
        _fail("#DIV/0!", "Division by zero.")
    if x < 0 and not float(y).is_integer():
        _fail("#NUM!", "A negative number has no fractional power.")
    try:
        return _exact(float(x) ** y)
    except OverflowError:
        _fail("#NUM!", "Result is too large.")


def _joined(parts: list[str], sep: str = "") -> str:
    """``sep.join(parts)``, or ``#VALUE!`` when the text would be longer than a cell holds
    (measured before it is built: a formula can't make a 100 MB string)."""
    if sum(map(len, parts)) + len(sep) * max(0, len(parts) - 1) > MAX_TEXT:
        _fail("#VALUE!", f"Text result is longer than {MAX_TEXT:,} characters.")
    return sep.join(parts)


_BINOPS: dict[str, Callable[[Value, Value], Value]] = {
    "+": lambda a, b: _clean(_num(a) + _num(b)),
    "-": lambda a, b: _clean(_num(a) - _num(b)),
    "*": lambda a, b: _exact(_num(a) * _num(b)),
    "/": _divide,
    "^": _power,
    "&": lambda a, b: _joined([_text(a), _text(b)]),
    "=": lambda a, b: _compare(a, b) == 0,
    "<>": lambda a, b: _compare(a, b) != 0,
    "<": lambda a, b: _compare(a, b) < 0,
    ">": lambda a, b: _compare(a, b) > 0,
    "<=": lambda a, b: _compare(a, b) <= 0,
    ">=": lambda a, b: _compare(a, b) >= 0,
}
