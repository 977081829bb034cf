"""Formula engine for the Sheets clone: parsing, evaluation, dependency tracking, reference rewriting.

Pure standard library. The pipeline is

    raw text --tokenizer--> tokens --Pratt parser--> AST (nested tuples) --evaluator--> value

* **Tokens** keep their source spans. A reference is one token (``'Q1 Plan'!$B$2:D9``, ``A:C``,
  ``2:3``, ``B2:B``), so structural edits (insert/delete rows and columns, tab renames, copy/paste,
  sorting) rewrite formula text token by token and leave spacing, casing and everything else alone.
* **ASTs** are tuples: ``("lit", v)``, ``("ref", sheet, row, col)``, ``("range", sheet, top, left,
  bottom, right)`` (``None`` bottom/right = open-ended, bounded at evaluation by the tab's used
  extent), ``("neg", x)``, ``("pct", x)``, ``("bin", op, a, b)``, ``("call", NAME, args)``,
  ``("empty",)``. Compilation is cached by formula text; ASTs never depend on the host cell, because
  A1 references in stored text are positions, not offsets.
* **Dependency graph.** Each formula registers its single-cell precedents in a reverse map
  (cell -> dependents) and its ranges per target tab (dependent -> boxes, scanned on change).
  Formulas with open-ended ranges are also listed per tab so that growing the used extent
  re-evaluates them. An edit computes the transitive dependents, orders them with Tarjan's
  strongly-connected-components algorithm (iterative: no recursion limit on long chains) and
  evaluates each once, precedents first. Every cell of a cycle becomes ``#REF!`` ("Circular
  dependency detected."); cells downstream of a cycle see that error and propagate it.
  Structural operations rewrite the text and rebuild everything (a full rebuild of a few
  thousand cells takes milliseconds).

Semantics follow Google Sheets where it matters to users:

* Precedence: unary ``-``/``+`` binds tighter than ``^`` (``=-2^2`` is 4), then postfix ``%``
  (tighter still), ``^`` (left-associative: ``=2^3^2`` is 64), ``* /``, ``+ -``, ``&``,
  comparisons.
* Empty is 0 in arithmetic, "" in text, FALSE in logic. Numeric text coerces in arithmetic
  (``="3"+1`` is 4); other text gives ``#VALUE!``. Sums and differences are rounded to 15
  significant digits (``=0.1+0.2`` is 0.3) and number comparisons are made at 15 digits
  (``=0.1*3=0.3`` is TRUE); products and quotients keep full precision so that ``=1/3*3`` is 1.
  Whole results are returned as ``int``.
* Comparisons: numbers < text < booleans; text compares case-insensitively.
* SUM/AVERAGE/MIN/MAX/... skip text, booleans and empties inside ranges but coerce direct
  arguments; errors inside ranges propagate (first error wins).
* A formula that evaluates to a range yields its top-left value (no array spill). A formula
  that points at an empty cell (``=A1``) is itself empty.
* Unknown functions give ``#NAME?``, wrong argument counts ``#N/A``, syntax errors ``#ERROR!``,
  references to missing tabs (or deleted cells, written ``#REF!``) ``#REF!``.
* Criteria (SUMIF & co.): a number or "=5" matches that number (and the text "5"); "text" matches
  case-insensitively with ``*``/``?`` wildcards (``~`` escapes); "<>x" matches everything else,
  empties included; ">100" compares numbers only; "" matches empty cells.
* Lookups: exact matches (VLOOKUP/HLOOKUP FALSE, MATCH 0) are case-insensitive and honour
  wildcards; approximate ones assume sorted data and take the last value <= key (MATCH -1: >= key)
  before the first larger one. XLOOKUP matches exactly (wildcards only with match_mode 2).
* Dates are serial numbers (days since 1899-12-30), as in Sheets.
* Structural edits rewrite references like Sheets does: ``$``-absolute references shift too,
  ranges spanning an insertion grow, ranges lose deleted rows (``#REF!`` only when wholly
  deleted), references to deleted cells or tabs become the literal ``#REF!``.
"""
from __future__ import annotations

import calendar
import math
import re
import statistics
import time
from bisect import bisect_left, bisect_right
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from decimal import ROUND_DOWN, ROUND_HALF_UP, ROUND_UP, Context, Decimal
from functools import lru_cache
from typing import Callable, Iterable, Iterator, NamedTuple, NoReturn, Union

__all__ = [
    "ErrorValue", "Workbook", "col_letter", "col_index", "parse_ref", "ref_name", "parse_range",
    "parse_input", "format_value",
]


@dataclass(frozen=True)
class ErrorValue:
    """A spreadsheet error such as ``#DIV/0!``. Equality and hashing use the code only."""

    code: str
    message: str = field(default="", compare=False)

    def __str__(self) -> str:
        return self.code


Value = Union[int, float, str, bool, ErrorValue, None]
Key = tuple[str, int, int]

_INF = 1 << 40                        # "no bound" for open-ended ranges in dependency boxes
_EPOCH = date(1899, 12, 30)           # serial day 0
_EPOCH_DT = datetime(1899, 12, 30)
_DECIMALS = Context(prec=60)          # enough digits to quantize any finite float


def _circular() -> ErrorValue:
    return ErrorValue("#REF!", "Circular dependency detected.")


# --------------------------------------------------------------------------- A1 helpers

def col_letter(i: int) -> str:
    """0 -> "A", 25 -> "Z", 26 -> "AA"."""
    if i < 0:
        raise ValueError(f"Column index must be >= 0, got {i}")
    out = ""
    i += 1
    while i:
        i, rem = divmod(i - 1, 26)
        out = chr(65 + rem) + out
    return out


def col_index(s: str) -> int:
    """"A" -> 0, "aa" -> 26. Raises ValueError on anything but ASCII letters."""
    if not s or not s.isascii() or not s.isalpha():
        raise ValueError(f"Bad column letters: {s!r}")
    n = 0
    for ch in s.upper():
        n = n * 26 + ord(ch) - 64
    return n - 1


_CELL_RE = re.compile(r"\$?([A-Za-z]+)\$?([0-9]+)")


def parse_ref(s: str) -> tuple[int, int]:
    """"B7" (or "$B$7") -> (6, 1), i.e. 0-based (row, col)."""
    m = _CELL_RE.fullmatch(s.strip())
    if m is None or int(m[2]) < 1:
        raise ValueError(f"Bad cell reference: {s!r}")
    return int(m[2]) - 1, col_index(m[1])


def ref_name(row: int, col: int) -> str:
    """(6, 1) -> "B7"."""
    return f"{col_letter(col)}{row + 1}"


def parse_range(s: str) -> tuple[int, int, int, int]:
    """"B2:D9" -> (top, left, bottom, right), 0-based inclusive; a single cell is a 1x1 range."""
    parts = s.split(":")
    if len(parts) > 2:
        raise ValueError(f"Bad range: {s!r}")
    r1, c1 = parse_ref(parts[0])
    r2, c2 = parse_ref(parts[-1])
    return min(r1, r2), min(c1, c2), max(r1, r2), max(c1, c2)


# --------------------------------------------------------------------------- input parsing

_NUM_BODY = re.compile(r"(?:[0-9]{1,3}(?:,[0-9]{3})+|[0-9]+)(?:\.[0-9]*)?(?:[eE][+-]?[0-9]+)?"
                       r"|\.[0-9]+(?:[eE][+-]?[0-9]+)?")
_ISO_DATE = re.compile(r"([0-9]{4})-([0-9]{1,2})-([0-9]{1,2})")
_US_DATE = re.compile(r"([0-9]{1,2})/([0-9]{1,2})/([0-9]{4})")


def _tidy(x: int | float) -> int | float:
    """Round a float to 15 significant digits; whole values (below 1e15) become int."""
    if type(x) is float and math.isfinite(x):
        x = float(f"{x:.15g}")
        if x.is_integer() and abs(x) < 1e15:
            return int(x)
    return x


def _parse_number(s: str) -> int | float | None:
    """Numbers as users type them: "1,234.5", "-3", "12%", "$1,200", "(1,200)", "1e3"."""
    t = s.strip()
    neg = False
    if len(t) > 2 and t[0] == "(" and t[-1] == ")":
        neg, t = True, t[1:-1].strip()
    signed = t[:1] in ("+", "-")
    if signed:
        neg, t = neg ^ (t[0] == "-"), t[1:].lstrip()
    pct = t.endswith("%")
    if pct:
        t = t[:-1].rstrip()
    if t.startswith("$"):
        t = t[1:].lstrip()
        if not signed and t[:1] in ("+", "-"):
            neg, t = neg ^ (t[0] == "-"), t[1:]
    if not _NUM_BODY.fullmatch(t):
        return None
    digits = t.replace(",", "")
    x: int | float
    if pct or "." in digits or "e" in digits or "E" in digits:
        x = float(digits)
        if not math.isfinite(x):
            return None
        if pct:
            x /= 100
    else:
        x = int(digits)
    return _tidy(-x if neg else x)


def _parse_date(s: str) -> int | None:
    """"2026-03-24" or "3/24/2026" -> serial day number; None if not a valid date."""
    t = s.strip()
    m = _ISO_DATE.fullmatch(t)
    if m:
        y, mo, d = int(m[1]), int(m[2]), int(m[3])
    else:
        m = _US_DATE.fullmatch(t)
        if m is None:
            return None
        mo, d, y = int(m[1]), int(m[2]), int(m[3])
    try:
        return (date(y, mo, d) - _EPOCH).days
    except ValueError:
        return None


def _text_to_number(s: str) -> int | float | None:
    """Coercion of text in arithmetic: blank is 0, numbers and dates parse, anything else is None."""
    if not s.strip():
        return 0
    n = _parse_number(s)
    return n if n is not None else _parse_date(s)


@lru_cache(maxsize=65536)
def _constant(raw: str) -> Value:
    """Cached :func:`parse_input` for the workbook's non-formula cells (values are immutable)."""
    return parse_input(raw)


def parse_input(raw: str | None) -> Value:
    """Value of what a user typed (not a formula): number, boolean, date serial, text or None.

    A leading apostrophe forces text ("'00123" -> "00123"). Formula text ("=...") is returned as is;
    formulas are evaluated by :class:`Workbook`.
    """
    if raw is None or raw == "":
        return None
    if raw[0] == "'":
        return raw[1:]
    s = raw.strip()
    if not s or raw[0] == "=":
        return raw
    upper = s.upper()
    if upper in ("TRUE", "FALSE"):
        return upper == "TRUE"
    n = _parse_number(s)
    if n is not None:
        return n
    d = _parse_date(s)
    return d if d is not None else raw


# --------------------------------------------------------------------------- tokenizer

_TOKEN_RE = re.compile(r"""
     (?P<ws>\s+)
    |(?P<str>"(?:[^"]|"")*")
    |(?P<err>\#(?:REF!|DIV/0!|N/A|NAME\?|VALUE!|NUM!|ERROR!|NULL!))
    |(?P<ref>(?:(?P<sheet>'(?:[^']|'')+'|[A-Za-z_][A-Za-z0-9_.]*)!)?
        (?P<body>\$?[A-Za-z]{1,3}\$?[0-9]+(?::(?:\$?[A-Za-z]{1,3}\$?[0-9]+|\$?[A-Za-z]{1,3}(?![0-9$])))?
                |\$?[A-Za-z]{1,3}:\$?[A-Za-z]{1,3}(?![0-9$])
                |\$?[0-9]+:\$?[0-9]+)
        (?![A-Za-z0-9_.(!'$]))
    |(?P<num>(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?)
    |(?P<ident>[A-Za-z_][A-Za-z0-9_.]*)
    |(?P<op><>|<=|>=|[-+*/^&=<>%(),:;{}])
""", re.VERBOSE)

class _Tok(NamedTuple):
    kind: str          # a group name of _TOKEN_RE, or "bad" for a character no token starts with
    text: str
    start: int
    end: int
    match: re.Match[str] | None


def _tokenize(src: str) -> list[_Tok]:
    out: list[_Tok] = []
    pos, n = 0, len(src)
    while pos < n:
        m = _TOKEN_RE.match(src, pos)
        if m is None:
            out.append(_Tok("bad", src[pos], pos, pos + 1, None))
            pos += 1
            continue
        out.append(_Tok(m.lastgroup, m.group(), pos, m.end(), m))  # type: ignore[arg-type]
        pos = m.end()
    return out


@dataclass
class _RefParts:
    """A reference token taken apart. Each end is ``[row, col, row_abs, col_abs]``; a missing
    row or column (``A:A``, ``2:3``, the open end of ``B2:B``) is None."""

    sheet: str | None
    prefix: str                      # the original ``Sheet!`` text, or ""
    ends: list[list]

    def text(self) -> str:
        return self.prefix + ":".join(_end_text(e) for e in self.ends)


_END_RE = re.compile(r"(\$?)([A-Za-z]*)(\$?)([0-9]*)")


def _ref_parts(m: re.Match[str]) -> _RefParts:
    sheet_text = m.group("sheet")
    sheet = None
    if sheet_text:
        sheet = sheet_text[1:-1].replace("''", "'") if sheet_text[0] == "'" else sheet_text
    ends = []
    for part in m.group("body").split(":"):
        cabs, letters, rabs, digits = _END_RE.fullmatch(part).groups()  # type: ignore[union-attr]
        if not letters:
            cabs, rabs = "", cabs or rabs
        ends.append([int(digits) - 1 if digits else None, col_index(letters) if letters else None,
                     bool(rabs), bool(cabs)])
    return _RefParts(sheet, sheet_text + "!" if sheet_text else "", ends)


def _end_text(e: list) -> str:
    row, col, rabs, cabs = e
    s = ""
    if col is not None:
        s += ("$" if cabs else "") + col_letter(col)
    if row is not None:
        s += ("$" if rabs else "") + str(row + 1)
    return s


def _quote_sheet(name: str) -> str:
    """Tab name as written before ``!``: bare when unambiguous, else single-quoted."""
    bare = (re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name) and not re.fullmatch(r"[A-Za-z]{1,3}[0-9]+", name)
            and name.upper() not in ("TRUE", "FALSE"))
    return name if bare else "'" + name.replace("'", "''") + "'"


def _rewrite_refs(src: str, fix: Callable[[_RefParts], str | None]) -> str:
    """Replace each reference token of ``src`` by ``fix(parts)`` unless it returns None."""
    out, last = [], 0
    for tok in _tokenize(src):
        if tok.kind == "ref":
            new = fix(_ref_parts(tok.match))  # type: ignore[arg-type]
            if new is not None:
                out.append(src[last:tok.start])
                out.append(new)
                last = tok.end
    out.append(src[last:])
    return "".join(out)


def _adjust(raw: str, drow: int, dcol: int) -> str:
    """Shift the relative parts of a formula's references (copy/paste); off-grid ones become #REF!."""
    if not raw.startswith("="):
        return raw

    def fix(p: _RefParts) -> str | None:
        moved = False
        for e in p.ends:
            if e[0] is not None and not e[2] and drow:
                e[0] += drow
                moved = True
            if e[1] is not None and not e[3] and dcol:
                e[1] += dcol
                moved = True
            if (e[0] is not None and e[0] < 0) or (e[1] is not None and e[1] < 0):
                return "#REF!"
        return p.text() if moved else None

    return "=" + _rewrite_refs(raw[1:], fix)


# --------------------------------------------------------------------------- parser

class _ParseError(Exception):
    pass


_BIN_BP = {"=": 1, "<>": 1, "<": 1, ">": 1, "<=": 1, ">=": 1, "&": 2, "+": 3, "-": 3, "*": 4, "/": 4, "^": 5}
_PREFIX_BP = 6      # unary minus/plus: tighter than ^ (Sheets: =-2^2 is 4)
_POSTFIX_BP = 7     # percent
_EMPTY = ("empty",)
_ERROR_MESSAGES = {
    "#REF!": "Reference does not exist.", "#DIV/0!": "Division by zero.", "#N/A": "Value not available.",
    "#NAME?": "Unknown name.", "#VALUE!": "Wrong type of value.", "#NUM!": "Invalid number.",
    "#ERROR!": "Formula parse error.", "#NULL!": "Empty intersection.",
}


class _Parser:
    """Pratt parser over the non-whitespace tokens of one formula (text after the ``=``)."""

    def __init__(self, toks: list[_Tok]) -> None:
        self.toks = [t for t in toks if t.kind != "ws"]
        self.i = 0

    def parse(self) -> tuple:
        if not self.toks:
            raise _ParseError
        node = self.expr(0)
        if self.i != len(self.toks):
            raise _ParseError
        return node

    def _peek_op(self, text: str) -> bool:
        if self.i >= len(self.toks):
            return False
        t = self.toks[self.i]
        return t.kind == "op" and t.text == text

    def _take(self) -> _Tok:
        if self.i >= len(self.toks):
            raise _ParseError
        self.i += 1
        return self.toks[self.i - 1]

    def expr(self, min_bp: int) -> tuple:
        left = self._prefix()
        while self.i < len(self.toks):
            t = self.toks[self.i]
            if t.kind != "op":
                break
            if t.text == "%":
                if _POSTFIX_BP <= min_bp:
                    break
                self.i += 1
                left = ("pct", left)
                continue
            bp = _BIN_BP.get(t.text)
            if bp is None or bp <= min_bp:
                break
            self.i += 1
            left = ("bin", t.text, left, self.expr(bp))
        return left

    def _prefix(self) -> tuple:
        t = self._take()
        kind = t.kind
        if kind == "num":
            return ("lit", _tidy(float(t.text)) if any(ch in t.text for ch in ".eE") else int(t.text))
        if kind == "str":
            return ("lit", t.text[1:-1].replace('""', '"'))
        if kind == "err":
            return ("lit", ErrorValue(t.text.upper(), _ERROR_MESSAGES[t.text.upper()]))
        if kind == "ref":
            return _ref_node(_ref_parts(t.match))  # type: ignore[arg-type]
        if kind == "ident":
            if self._peek_op("("):
                self.i += 1
                return ("call", t.text.upper(), self._args())
            upper = t.text.upper()
            if upper in ("TRUE", "FALSE"):
                return ("lit", upper == "TRUE")
            return ("lit", ErrorValue("#NAME?", f"Unknown range name: '{t.text}'."))
        if kind == "op":
            if t.text == "(":
                node = self.expr(0)
                if not self._peek_op(")"):
                    raise _ParseError
                self.i += 1
                return node
            if t.text == "-":
                return ("neg", self.expr(_PREFIX_BP))
            if t.text == "+":
                return self.expr(_PREFIX_BP)
        raise _ParseError

    def _args(self) -> tuple:
        if self._peek_op(")"):
            self.i += 1
            return ()
        args = []
        while True:
            args.append(_EMPTY if self._peek_op(",") or self._peek_op(")") else self.expr(0))
            t = self._take()
            if t.kind == "op" and t.text == ")":
                return tuple(args)
            if not (t.kind == "op" and t.text == ","):
                raise _ParseError


def _ref_node(p: _RefParts) -> tuple:
    sheet = p.sheet.casefold() if p.sheet is not None else None
    if any((e[0] is not None and e[0] < 0) or (e[1] is not None and e[1] < 0) for e in p.ends):
        return ("lit", ErrorValue("#REF!", "Reference does not exist."))
    if len(p.ends) == 1:
        return ("ref", sheet, p.ends[0][0], p.ends[0][1])
    bounds = []
    for axis in (0, 1):
        a, b = p.ends[0][axis], p.ends[1][axis]
        if a is None or b is None:                   # open-ended: A:A, 2:3, B2:B
            bounds.append((a if a is not None else 0, None))
        else:
            bounds.append((min(a, b), max(a, b)))
    (top, bottom), (left, right) = bounds
    return ("range", sheet, top, left, bottom, right)


@dataclass(frozen=True)
class _Compiled:
    """A parsed formula plus its references: cells ``(sheet, row, col)`` and boxes
    ``(sheet, top, left, bottom, right, open)`` with open bounds as ``_INF``."""

    ast: tuple
    cells: tuple[tuple[str | None, int, int], ...]
    boxes: tuple[tuple[str | None, int, int, int, int, bool], ...]


_PARSE_ERROR = ("lit", ErrorValue("#ERROR!", "Formula parse error."))


@lru_cache(maxsize=8192)
def _compile(src: str) -> _Compiled:
    """Parse the text after ``=``. Host-independent, so cached by text."""
    try:
        ast = _Parser(_tokenize(src)).parse()
    except (_ParseError, RecursionError):
        ast = _PARSE_ERROR
    cells: list[tuple[str | None, int, int]] = []
    boxes: list[tuple[str | None, int, int, int, int, bool]] = []
    stack = [ast]
    while stack:
        node = stack.pop()
        kind = node[0]
        if kind == "ref":
            cells.append(node[1:4])
        elif kind == "range":
            _, sheet, top, left, bottom, right = node
            boxes.append((sheet, top, left, _INF if bottom is None else bottom, _INF if right is None else right,
                          bottom is None or right is None))
        elif kind in ("neg", "pct"):
            stack.append(node[1])
        elif kind == "bin":
            stack.extend(node[2:])
        elif kind == "call":
            stack.extend(node[2])
    return _Compiled(ast, tuple(cells), tuple(boxes))


# --------------------------------------------------------------------------- values and coercion

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


# --------------------------------------------------------------------------- matching helpers

@lru_cache(maxsize=512)
def _wild_re(pattern: str) -> re.Pattern[str]:
    """``*`` any run, ``?`` one character, ``~`` escapes; case-insensitive."""
    out, i = [], 0
    while i < len(pattern):
        ch = pattern[i]
        if ch == "~" and i + 1 < len(pattern) and pattern[i + 1] in "*?~":
            out.append(re.escape(pattern[i + 1]))
            i += 2
            continue
        out.append(".*" if ch == "*" else "." if ch == "?" else re.escape(ch))
        i += 1
    return re.compile("".join(out), re.IGNORECASE | re.DOTALL)


def _text_matcher(pattern: str) -> Callable[[str], bool]:
    if any(ch in pattern for ch in "*?~"):
        rx = _wild_re(pattern)
        return lambda s: rx.fullmatch(s) is not None
    low = pattern.lower()
    return lambda s: s.lower() == low


_ORDER: dict[str, Callable[[object, object], bool]] = {
    ">": lambda a, b: a > b, "<": lambda a, b: a < b,  # type: ignore[operator]
    ">=": lambda a, b: a >= b, "<=": lambda a, b: a <= b,  # type: ignore[operator]
}


def _criterion(c: Arg) -> Callable[[Value], bool]:
    """Predicate for SUMIF-style criteria: values, "text" (wildcards), ">100", "<>x", "=5", ""."""
    c = _scalar(c)
    if isinstance(c, ErrorValue):
        raise _Fail(c)
    if c is None:
        return lambda v: v is None or v == ""
    if isinstance(c, bool):
        return lambda v: isinstance(v, bool) and v == c
    if not isinstance(c, str):
        return lambda v: _is_number(v) and v == c
    op = next((o for o in ("<>", ">=", "<=", "=", ">", "<") if c.startswith(o)), "")
    operand = c[len(op):]
    num = _text_to_number(operand) if operand.strip() else None
    if op in ("", "=", "<>"):
        eq: Callable[[Value], bool]
        if operand == "":
            eq = lambda v: v is None or v == ""  # noqa: E731
        elif num is not None:
            low = operand.strip().lower()
            eq = lambda v: ((_is_number(v) and v == num)  # noqa: E731
                            or (isinstance(v, str) and v.strip().lower() == low))
        elif operand.strip().upper() in ("TRUE", "FALSE"):
            flag = operand.strip().upper() == "TRUE"
            eq = lambda v: isinstance(v, bool) and v == flag  # noqa: E731
        else:
            match = _text_matcher(operand)
            eq = lambda v: isinstance(v, str) and match(v)  # noqa: E731
        return eq if op != "<>" else (lambda v: not eq(v))
    cmp = _ORDER[op]
    if num is not None:
        return lambda v: _is_number(v) and cmp(v, num)
    low = operand.lower()
    return lambda v: isinstance(v, str) and cmp(v.lower(), low)


def _find(key: Value, values: list[Value], mode: int, wildcards: bool = True) -> int | None:
    """Index of ``key`` in ``values``: mode 0 exact (text case-insensitive, wildcards optional),
    1 last value <= key in ascending data, -1 last value >= key in descending data."""
    if key is None or isinstance(key, ErrorValue):
        return None
    if mode == 0:
        if isinstance(key, str):
            match = _text_matcher(key) if wildcards else (lambda s, low=key.lower(): s.lower() == low)
            return next((i for i, v in enumerate(values) if isinstance(v, str) and match(v)), None)
        rk = _rank(key)
        return next((i for i, v in enumerate(values)
                     if v is not None and not isinstance(v, ErrorValue) and _rank(v) == rk and v == key), None)
    best, rk = None, _rank(key)
    for i, v in enumerate(values):
        if v is None or isinstance(v, ErrorValue) or _rank(v) != rk:
            continue
        c = _compare(v, key)
        if (c <= 0) if mode == 1 else (c >= 0):
            best = i
        else:
            break
    return best


# --------------------------------------------------------------------------- functions

FuncSpec = tuple[Callable[..., Arg], int, Union[int, None], bool]
_FUNCS: dict[str, FuncSpec] = {}


def _fn(*names: str, lo: int = 1, hi: int | None = 1,
        lazy: bool = False) -> Callable[[Callable[..., Arg]], Callable[..., Arg]]:
    """Register a function. Eager functions get evaluated arguments (references as grids);
    lazy ones get ``(workbook, arg_nodes, tab)`` and evaluate what they need."""
    def register(f: Callable[..., Arg]) -> Callable[..., Arg]:
        for name in names:
            _FUNCS[name] = (f, lo, hi, lazy)
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


@_fn("IF", lo=2, hi=3, lazy=True)
def _if(wb: Workbook, args: tuple, tab: str) -> Arg:
    cond = _scalar(wb._eval_arg(args[0], tab))
    if isinstance(cond, ErrorValue):
        return cond
    if _bool(cond):
        return wb._eval_arg(args[1], tab)
    return wb._eval_arg(args[2], tab) if len(args) > 2 else False


@_fn("IFERROR", hi=2, lazy=True)
def _iferror(wb: Workbook, args: tuple, tab: str) -> Arg:
    v = wb._eval_arg(args[0], tab)
    if isinstance(_scalar(v), ErrorValue):
        return wb._eval_arg(args[1], tab) if len(args) > 1 else None
    return v


@_fn("IFNA", lo=2, hi=2, lazy=True)
def _ifna(wb: Workbook, args: tuple, tab: str) -> Arg:
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


def _lookup_key(key: Arg) -> Value:
    key = _scalar(key)
    if isinstance(key, ErrorValue):
        raise _Fail(key)
    return key


def _not_found(name: str, key: Value) -> NoReturn:
    _fail("#N/A", f"Did not find value '{_text(key)}' in {name} evaluation.")


@_fn("VLOOKUP", lo=3, hi=4)
def _vlookup(key: Arg, rng: Arg, index: Arg, is_sorted: Arg = True) -> Arg:
    return _xlookup_table("VLOOKUP", key, _grid(rng), index, is_sorted, by_rows=True)


@_fn("HLOOKUP", lo=3, hi=4)
def _hlookup(key: Arg, rng: Arg, index: Arg, is_sorted: Arg = True) -> Arg:
    return _xlookup_table("HLOOKUP", key, _grid(rng), index, is_sorted, by_rows=False)


def _xlookup_table(name: str, key: Arg, g: _Grid, index: Arg, is_sorted: Arg, by_rows: bool) -> Value:
    k, idx = _lookup_key(key), _int(index)
    size = g.width if by_rows else g.height
    if idx < 1:
        _fail("#VALUE!", f"Function {name} parameter 3 value is {idx}. It should be greater than or equal to 1.")
    if idx > size:
        _fail("#REF!", f"{name} evaluates to an out of bounds range.")
    keys = [row[0] for row in g.rows] if by_rows else list(g.rows[0] if g.rows else [])
    i = _find(k, keys, 1 if is_sorted is None or _bool(is_sorted) else 0)
    if i is None:
        _not_found(name, k)
    return g.rows[i][idx - 1] if by_rows else g.rows[idx - 1][i]


@_fn("INDEX", hi=3)
def _index(rng: Arg, row: Arg = None, col: Arg = None) -> Arg:
    g = _grid(rng)
    r = _int(row) if row is not None else 0
    c = _int(col) if col is not None else 0
    if col is None and g.height == 1 and g.width > 1:
        r, c = 0, r
    if r < 0 or c < 0:
        _fail("#VALUE!", "INDEX row and column must be >= 0.")
    if r > g.height or c > g.width:
        _fail("#REF!", "INDEX evaluates to an out of bounds range.")
    if r and c:
        return g.rows[r - 1][c - 1]
    if r:
        return g.rows[r - 1][0] if g.width == 1 else _Grid([g.rows[r - 1]])
    if c:
        return g.rows[0][c - 1] if g.height == 1 else _Grid([[row_[c - 1]] for row_ in g.rows])
    return g


@_fn("MATCH", lo=2, hi=3)
def _match(key: Arg, rng: Arg, kind: Arg = 1) -> Value:
    k = _lookup_key(key)
    values = _grid(rng).vector()
    if values is None:
        _fail("#N/A", "MATCH range must be a single row or a single column.")
    mode = _int(kind) if kind is not None else 1
    i = _find(k, values, 0 if mode == 0 else (1 if mode > 0 else -1))
    if i is None:
        _not_found("MATCH", k)
    return i + 1


@_fn("XLOOKUP", lo=3, hi=6)
def _xlookup(key: Arg, lookup: Arg, result: Arg, missing: Arg = None, match_mode: Arg = 0,
             search_mode: Arg = 1) -> Arg:
    k = _lookup_key(key)
    lg, rg = _grid(lookup), _grid(result)
    keys = lg.vector()
    if keys is None:
        _fail("#VALUE!", "XLOOKUP lookup range must be a single row or a single column.")
    mm = _int(match_mode) if match_mode is not None else 0
    order = list(range(len(keys)))
    if search_mode is not None and _int(search_mode) < 0:
        order.reverse()
    found = None
    if k is not None:
        exact = _text_matcher(k) if isinstance(k, str) and mm == 2 else None
        for i in order:
            v = keys[i]
            if v is None or isinstance(v, ErrorValue) or _rank(v) != _rank(k):
                continue
            if (exact(v) if exact else _compare(v, k) == 0):  # type: ignore[arg-type]
                found = i
                break
        if found is None and mm in (-1, 1):
            for i in order:
                v = keys[i]
                if v is None or isinstance(v, ErrorValue) or _rank(v) != _rank(k):
                    continue
                c = _compare(v, k)
                if c == mm and (found is None or _compare(v, keys[found]) == -mm):
                    found = i
    if found is None:
        if missing is not None:
            return missing
        _not_found("XLOOKUP", k)
    if lg.width == 1:                                  # vertical lookup: return that row
        if rg.height != lg.height:
            _fail("#VALUE!", "XLOOKUP result range must match the lookup range.")
        return rg.rows[found][0] if rg.width == 1 else _Grid([rg.rows[found]])
    if rg.width != lg.width:
        _fail("#VALUE!", "XLOOKUP result range must match the lookup range.")
    return rg.rows[0][found] if rg.height == 1 else _Grid([[row[found]] for row in rg.rows])


MAX_TEXT = 50_000                 # characters of a text result (a cell holds as many, as in Google Sheets)
MAX_RANGE_CELLS = 1_000_000       # cells of one range (the largest sheet here: 5,000 rows x 200 columns)
MAX_PASS_CELLS = 5_000_000        # cells all the ranges of one recalculation may read


def _joined(parts: list[str], sep: str = "") -> str:
    """``sep.join(parts)``, or ``#VALUE!`` when the text would be longer than a cell holds
    (measured before it is built: a formula can't make a 100 MB string)."""
    if sum(map(len, parts)) + len(sep) * max(0, len(parts) - 1) > MAX_TEXT:
        _fail("#VALUE!", f"Text result is longer than {MAX_TEXT:,} characters.")
    return sep.join(parts)


@_fn("CONCATENATE", "CONCAT", hi=None)
def _concatenate(*args: Arg) -> Value:
    return _joined([_text(v) for v in _flat(args)])


@_fn("TEXTJOIN", lo=3, hi=None)
def _textjoin(delim: Arg, ignore_empty: Arg, *args: Arg) -> Value:
    skip = _bool(ignore_empty)
    parts = [_text(v) for v in _flat(args)]
    return _joined([p for p in parts if not (skip and p == "")], _text(delim))


@_fn("LEN")
def _len(s: Arg) -> Value:
    return len(_text(s))


@_fn("LEFT", hi=2)
def _left(s: Arg, n: Arg = 1) -> Value:
    k = _int(n) if n is not None else 1
    if k < 0:
        _fail("#VALUE!", "Function LEFT parameter 2 value is negative.")
    return _text(s)[:k]


@_fn("RIGHT", hi=2)
def _right(s: Arg, n: Arg = 1) -> Value:
    k = _int(n) if n is not None else 1
    if k < 0:
        _fail("#VALUE!", "Function RIGHT parameter 2 value is negative.")
    return _text(s)[-k:] if k else ""


@_fn("MID", lo=3, hi=3)
def _mid(s: Arg, start: Arg, n: Arg) -> Value:
    i, k = _int(start), _int(n)
    if i < 1:
        _fail("#VALUE!", "Function MID parameter 2 value should be greater than or equal to 1.")
    if k < 0:
        _fail("#VALUE!", "Function MID parameter 3 value is negative.")
    return _text(s)[i - 1:i - 1 + k]


@_fn("UPPER")
def _upper(s: Arg) -> Value:
    return _text(s).upper()


@_fn("LOWER")
def _lower(s: Arg) -> Value:
    return _text(s).lower()


@_fn("TRIM")
def _trim(s: Arg) -> Value:
    return " ".join(_text(s).split())


@_fn("SUBSTITUTE", lo=3, hi=4)
def _substitute(s: Arg, old: Arg, new: Arg, instance: Arg = None) -> Value:
    text, a, b = _text(s), _text(old), _text(new)
    if not a:
        return text
    if instance is None:
        if len(text) + text.count(a) * (len(b) - len(a)) > MAX_TEXT:
            _fail("#VALUE!", f"Text result is longer than {MAX_TEXT:,} characters.")
        return text.replace(a, b)
    n = _int(instance)
    if n < 1:
        _fail("#VALUE!", "Function SUBSTITUTE parameter 4 should be greater than or equal to 1.")
    pos = -1
    for _ in range(n):
        pos = text.find(a, pos + 1)
        if pos < 0:
            return text
    return text[:pos] + b + text[pos + len(a):]


def _find_text(name: str, needle: Arg, hay: Arg, start: Arg, insensitive: bool) -> Value:
    n, h = _text(needle), _text(hay)
    i = _int(start) if start is not None else 1
    if i < 1 or i > len(h) + 1:
        _fail("#VALUE!", f"Function {name} parameter 3 is out of range.")
    if insensitive:
        m = _wild_re(n).search(h, i - 1)
        pos = m.start() if m else -1
    else:
        pos = h.find(n, i - 1)
    if pos < 0:
        _fail("#VALUE!", f"{name} cannot find '{n}' within '{h}'.")
    return pos + 1


@_fn("FIND", lo=2, hi=3)
def _find_fn(needle: Arg, hay: Arg, start: Arg = 1) -> Value:
    return _find_text("FIND", needle, hay, start, insensitive=False)


@_fn("SEARCH", lo=2, hi=3)
def _search(needle: Arg, hay: Arg, start: Arg = 1) -> Value:
    return _find_text("SEARCH", needle, hay, start, insensitive=True)


@_fn("TEXT", lo=2, hi=2)
def _text_fn(v: Arg, fmt: Arg) -> Value:
    x = _scalar(v)
    if isinstance(x, ErrorValue):
        raise _Fail(x)
    if isinstance(x, str):
        n = _text_to_number(x)
        if n is None or not x.strip():
            return x
        x = n
    if isinstance(x, bool):
        return _text(x)
    return _format_pattern(x or 0, _text(fmt))


@_fn("VALUE")
def _value(v: Arg) -> Value:
    x = _scalar(v)
    if isinstance(x, ErrorValue):
        raise _Fail(x)
    if isinstance(x, bool):
        _fail("#VALUE!", "VALUE parameter 1 expects text, got a boolean.")
    if isinstance(x, str):
        n = _text_to_number(x)
        if n is None:
            _fail("#VALUE!", f"VALUE parameter '{x}' cannot be parsed to number.")
        return n
    return x or 0


@_fn("TODAY", lo=0, hi=0, lazy=True)
def _today(wb: Workbook, args: tuple, tab: str) -> Value:
    return (wb._now().date() - _EPOCH).days


@_fn("NOW", lo=0, hi=0, lazy=True)
def _now_fn(wb: Workbook, args: tuple, tab: str) -> Value:
    return _clean((wb._now() - _EPOCH_DT).total_seconds() / 86400)


def _to_date(v: Arg) -> date:
    n = _num(v)
    try:
        return _EPOCH + timedelta(days=math.floor(n))
    except OverflowError:
        _fail("#NUM!", f"{n} is not a valid date serial number.")


def _serial(d: date) -> int:
    return (d - _EPOCH).days


def _add_months(d: date, months: int) -> date:
    y, m = divmod(d.year * 12 + d.month - 1 + months, 12)
    if not 1 <= y <= 9999:
        _fail("#NUM!", "Date is out of range.")
    return date(y, m + 1, min(d.day, calendar.monthrange(y, m + 1)[1]))


@_fn("DATE", lo=3, hi=3)
def _date(y: Arg, m: Arg, d: Arg) -> Value:
    year, month, day = _int(y), _int(m), _int(d)
    if 0 <= year < 1900:
        year += 1900
    try:
        first = _add_months(date(year, 1, 1), month - 1)
        return _serial(first + timedelta(days=day - 1))
    except (ValueError, OverflowError):
        _fail("#NUM!", "DATE evaluates to an out of range date.")


@_fn("YEAR")
def _year(v: Arg) -> Value:
    return _to_date(v).year


@_fn("MONTH")
def _month(v: Arg) -> Value:
    return _to_date(v).month


@_fn("DAY")
def _day(v: Arg) -> Value:
    return _to_date(v).day


@_fn("DAYS", lo=2, hi=2)
def _days(end: Arg, start: Arg) -> Value:
    return _serial(_to_date(end)) - _serial(_to_date(start))


@_fn("EDATE", lo=2, hi=2)
def _edate(start: Arg, months: Arg) -> Value:
    return _serial(_add_months(_to_date(start), _int(months)))


@_fn("EOMONTH", lo=2, hi=2)
def _eomonth(start: Arg, months: Arg) -> Value:
    d = _add_months(_to_date(start).replace(day=1), _int(months))
    return _serial(d.replace(day=calendar.monthrange(d.year, d.month)[1]))


@_fn("SUMPRODUCT", hi=None)
def _sumproduct(*arrays: Arg) -> Value:
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


# --------------------------------------------------------------------------- workbook

def _same(a: Value, b: Value) -> bool:
    return type(a) is type(b) and a == b


def _final(v: Arg) -> Value:
    """A formula's stored value: top-left of a range, whole floats as int."""
    v = _scalar(v)
    if type(v) is float:
        try:
            return _exact(v)
        except _Fail as f:
            return f.error
    return v


def _strongly_connected(succ: dict[Key, list[Key]]) -> list[list[Key]]:
    """Tarjan's SCCs (iterative). Components come out successors first, i.e. precedents
    before the formulas that use them."""
    index: dict[Key, int] = {}
    low: dict[Key, int] = {}
    on_stack: set[Key] = set()
    stack: list[Key] = []
    out: list[list[Key]] = []
    for root in succ:
        if root in index:
            continue
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        work = [(root, iter(succ[root]))]
        while work:
            v, it = work[-1]
            for w in it:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(succ[w])))
                    break
                if w in on_stack:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    u = work[-1][0]
                    low[u] = min(low[u], low[v])
                if low[v] == index[v]:
                    comp = []
                    while True:
                        w = stack.pop()
                        on_stack.discard(w)
                        comp.append(w)
                        if w == v:
                            break
                    out.append(comp)
    return out


class Workbook:
    """Tabs of raw cell inputs, their computed values and the dependency graph between them.

    Positions are 0-based ``(row, col)``. Tab names are matched case-insensitively in formulas and
    in this API. A workbook created without tabs has one empty tab, "Sheet1".
    """

    def __init__(self, tabs: dict[str, dict[tuple[int, int], str]] | None = None,
                 now: Callable[[], datetime] | None = None) -> None:
        self._now = now or (lambda: datetime(2026, 1, 1))
        self._raws: dict[str, dict[tuple[int, int], str]] = {
            name: {rc: raw for rc, raw in cells.items() if raw} for name, cells in (tabs or {"Sheet1": {}}).items()}
        self._rebuild()

    # ----------------------------------------------------------------- reading

    def tabs(self) -> list[str]:
        return list(self._raws)

    def raw(self, tab: str, row: int, col: int) -> str | None:
        return self._raws[self._tab(tab)].get((row, col))

    def value(self, tab: str, row: int, col: int) -> Value:
        return self._vals[self._tab(tab)].get((row, col))

    def values(self, tab: str) -> dict[tuple[int, int], Value]:
        return dict(self._vals[self._tab(tab)])

    def cells(self, tab: str) -> dict[tuple[int, int], str]:
        return dict(self._raws[self._tab(tab)])

    def precedents(self, tab: str, row: int, col: int) -> set[Key]:
        """Cells a formula reads directly (ranges expanded; open-ended ones up to the used extent)."""
        key = (self._tab(tab), row, col)
        comp = self._forms.get(key)
        out: set[Key] = set()
        if comp is None:
            return out
        for sheet, r, c in comp.cells:
            t = self._target(sheet, key[0])
            if t is not None:
                out.add((t, r, c))
        for sheet, top, left, bottom, right, _ in comp.boxes:
            t = self._target(sheet, key[0])
            if t is None:
                continue
            max_row, max_col = self._extent(t)
            bottom = max_row if bottom == _INF else bottom
            right = max_col if right == _INF else right
            out.update((t, r, c) for r in range(top, bottom + 1) for c in range(left, right + 1))
        return out

    # ----------------------------------------------------------------- editing

    def set(self, tab: str, row: int, col: int, raw: str | None) -> set[Key]:
        """Set (or clear, with None/"") one cell; returns it plus every cell whose value changed."""
        return self.set_many(tab, {(row, col): raw})

    def set_many(self, tab: str, cells: dict[tuple[int, int], str | None]) -> set[Key]:
        """Set several cells of one tab with a single recalculation. Returns the cells written
        plus every other cell whose value changed."""
        tab = self._tab(tab)
        raws, vals = self._raws[tab], self._vals[tab]
        old_extent = self._extent(tab)
        written: set[Key] = set()
        seeds: list[Key] = []
        for (r, c), raw in cells.items():
            if r < 0 or c < 0:
                raise ValueError(f"Bad cell position {(r, c)}")
            key = (tab, r, c)
            written.add(key)
            raw = raw or None
            if raws.get((r, c)) == raw:
                continue
            self._unregister(key)
            if raw is None:
                raws.pop((r, c), None)
                vals.pop((r, c), None)
            else:
                raws[(r, c)] = raw
                if raw.startswith("="):
                    self._register(key, raw)
                else:
                    self._store(key, _constant(raw))
            seeds.append(key)
        if not seeds:
            return written
        self._update_extent(tab, old_extent, seeds)
        if self._extent(tab) != old_extent:
            seeds.extend(self._open.get(tab, ()))
        return written | self._recompute(self._closure(seeds))

    def recalc(self) -> None:
        """Re-parse and re-evaluate everything (also picks up a changed clock for TODAY/NOW)."""
        self._rebuild()

    # ----------------------------------------------------------------- tabs

    def add_tab(self, name: str) -> None:
        if not name or name.casefold() in self._lookup:
            raise ValueError(f"Tab name {name!r} is empty or already used")
        self._raws[name] = {}
        self._rebuild()                       # formulas that named it now resolve

    def rename_tab(self, old: str, new: str) -> None:
        """Rename a tab and rewrite ``'Old'!A1`` to ``'New'!A1`` in every formula."""
        old = self._tab(old)
        if not new or (new.casefold() in self._lookup and new.casefold() != old.casefold()):
            raise ValueError(f"Tab name {new!r} is empty or already used")
        prefix = _quote_sheet(new) + "!"

        def fix(p: _RefParts, target: str | None, own: str) -> str | None:
            if p.sheet is None or target != old:
                return None
            p.prefix = prefix
            return p.text()

        self._rewrite_all(fix)
        self._raws = {(new if name == old else name): cells for name, cells in self._raws.items()}
        self._rebuild()

    def delete_tab(self, name: str) -> None:
        """Delete a tab; references to it become ``#REF!`` in formula text. The last tab stays."""
        name = self._tab(name)
        if len(self._raws) == 1:
            raise ValueError("Cannot delete the only tab")
        self._rewrite_all(lambda p, target, own: "#REF!" if p.sheet is not None and target == name else None)
        del self._raws[name]
        self._rebuild()

    # ----------------------------------------------------------------- rows and columns

    def insert_rows(self, tab: str, at: int, n: int = 1) -> None:
        self._insert(tab, 0, at, n)

    def insert_cols(self, tab: str, at: int, n: int = 1) -> None:
        self._insert(tab, 1, at, n)

    def delete_rows(self, tab: str, at: int, n: int = 1) -> None:
        self._delete(tab, 0, at, n)

    def delete_cols(self, tab: str, at: int, n: int = 1) -> None:
        self._delete(tab, 1, at, n)

    def _insert(self, tab: str, axis: int, at: int, n: int) -> None:
        """Insert ``n`` empty rows (axis 0) or columns (axis 1) before index ``at``. References at or
        after ``at`` move; a range spanning the insertion point grows."""
        tab = self._tab(tab)
        if at < 0 or n < 0:
            raise ValueError("Insertion point and count must be >= 0")

        def fix(p: _RefParts, target: str | None, own: str) -> str | None:
            if target != tab:
                return None
            moved = False
            for e in p.ends:
                if e[axis] is not None and e[axis] >= at:
                    e[axis] += n
                    moved = True
            return p.text() if moved else None

        self._rewrite_all(fix)
        self._shift(tab, axis, lambda i: i + n if i >= at else i)

    def _delete(self, tab: str, axis: int, at: int, n: int) -> None:
        """Delete ``n`` rows/columns from ``at``. A reference to a deleted cell, or a range entirely
        inside the deleted block, becomes ``#REF!``; other ranges shrink or move."""
        tab = self._tab(tab)
        if at < 0 or n < 0:
            raise ValueError("Deletion point and count must be >= 0")
        end = at + n

        def fix(p: _RefParts, target: str | None, own: str) -> str | None:
            vals = [e[axis] for e in p.ends]
            if target != tab or vals[0] is None:
                return None
            if len(vals) == 1:
                v = vals[0]
                if v < at:
                    return None
                if v < end:
                    return "#REF!"
                p.ends[0][axis] = v - n
                return p.text()
            lo_i = 0 if vals[1] is None or vals[0] <= vals[1] else 1
            lo, hi = vals[lo_i], vals[1 - lo_i]
            if lo >= at and hi is not None and hi < end:
                return "#REF!"
            new_lo = lo if lo < at else (at if lo < end else lo - n)
            new_hi = hi if hi is None or hi < at else (at - 1 if hi < end else hi - n)
            if (new_lo, new_hi) == (lo, hi):
                return None
            p.ends[lo_i][axis] = new_lo
            p.ends[1 - lo_i][axis] = new_hi
            return p.text()

        self._rewrite_all(fix)
        self._shift(tab, axis, lambda i: i if i < at else (None if i < end else i - n))

    def _shift(self, tab: str, axis: int, move: Callable[[int], int | None]) -> None:
        """Move the raw cells of ``tab`` along ``axis`` (None drops the cell), then rebuild."""
        moved: dict[tuple[int, int], str] = {}
        for rc, raw in self._raws[tab].items():
            pos = list(rc)
            i = move(pos[axis])
            if i is not None:
                pos[axis] = i
                moved[(pos[0], pos[1])] = raw
        self._raws[tab] = moved
        self._rebuild()

    # ----------------------------------------------------------------- copy and sort

    def adjust_formula(self, raw: str, drow: int, dcol: int) -> str:
        """Formula text as pasted ``drow`` rows and ``dcol`` columns away: relative parts of
        references move, ``$``-absolute parts stay, references pushed off the grid become #REF!.
        Non-formula text is returned unchanged."""
        return _adjust(raw, drow, dcol)

    def copy_range(self, src_tab: str, top: int, left: int, bottom: int, right: int,
                   dst_row: int, dst_col: int) -> dict[tuple[int, int], str]:
        """Raw inputs to paste with the block's top-left at ``(dst_row, dst_col)`` (Ctrl+C/Ctrl+V).
        Only non-empty source cells appear. Nothing is written."""
        raws = self._raws[self._tab(src_tab)]
        top, bottom = min(top, bottom), max(top, bottom)
        left, right = min(left, right), max(left, right)
        drow, dcol = dst_row - top, dst_col - left
        return {(r + drow, c + dcol): _adjust(raw, drow, dcol) for (r, c), raw in raws.items()
                if top <= r <= bottom and left <= c <= right}

    def sort_range(self, tab: str, top: int, left: int, bottom: int, right: int, by_col: int,
                   ascending: bool = True) -> None:
        """Reorder the rows of a block by the values in absolute column ``by_col``.

        Order: numbers < text (case-insensitive) < booleans < errors, reversed when descending;
        empty keys (blank cells and formulas giving "") always go last; the sort is stable. Each
        row's cells (within the block's columns) move together. A moved formula behaves as if its
        row were cut and pasted: relative references to cells of its own row inside the block follow
        it (``=B2*C2`` moved to row 5 reads ``=B5*C5``); every other reference, here or elsewhere,
        keeps pointing at the same cells.
        """
        tab = self._tab(tab)
        top, bottom = min(top, bottom), max(top, bottom)
        left, right = min(left, right), max(left, right)
        if not left <= by_col <= right:
            raise ValueError("Sort column must lie inside the range")
        vals, raws = self._vals[tab], self._raws[tab]
        rows = range(top, bottom + 1)
        filled = [r for r in rows if vals.get((r, by_col)) not in (None, "")]
        filled.sort(key=lambda r: _sort_key(vals[(r, by_col)]), reverse=not ascending)   # stable
        order = filled + [r for r in rows if vals.get((r, by_col)) in (None, "")]
        block: dict[int, list[tuple[int, str]]] = {}
        for (r, c), raw in list(raws.items()):
            if top <= r <= bottom and left <= c <= right:
                block.setdefault(r, []).append((c, raw))
                del raws[(r, c)]
        for dst, src in enumerate(order, start=top):
            for c, raw in block.get(src, ()):
                raws[(dst, c)] = self._follow_row(raw, tab, src, dst, left, right) if dst != src else raw
        self._rebuild()

    def _follow_row(self, raw: str, tab: str, src: int, dst: int, left: int, right: int) -> str:
        """Point a moved formula's relative references to its own row (within columns left..right)
        at the row it moved to."""
        if not raw.startswith("="):
            return raw

        def fix(p: _RefParts) -> str | None:
            if self._target(p.sheet.casefold() if p.sheet else None, tab) != tab:
                return None
            if not all(e[0] == src and not e[2] and e[1] is not None and left <= e[1] <= right for e in p.ends):
                return None
            for e in p.ends:
                e[0] = dst
            return p.text()

        return "=" + _rewrite_refs(raw[1:], fix)

    # ----------------------------------------------------------------- internals: graph

    def _tab(self, name: str) -> str:
        if name in self._raws:
            return name
        found = self._lookup.get(name.casefold())
        if found is None:
            raise KeyError(f"No tab named {name!r}")
        return found

    def _target(self, sheet: str | None, own: str) -> str | None:
        """Tab a reference points at: its own tab, or the named one (None if missing)."""
        return own if sheet is None else self._lookup.get(sheet)

    def _extent(self, tab: str) -> tuple[int, int]:
        """(last used row, last used column) of a tab, -1 when empty; bounds open-ended ranges."""
        ext = self._ext.get(tab)
        if ext is None:
            cells = self._raws[tab]
            ext = (max((r for r, _ in cells), default=-1), max((c for _, c in cells), default=-1))
            self._ext[tab] = ext
        return ext

    def _update_extent(self, tab: str, old: tuple[int, int], written: list[Key]) -> None:
        """Grow the cached extent for new cells; forget it if a cell on its edge was cleared."""
        raws = self._raws[tab]
        max_row, max_col = old
        for _, r, c in written:
            if (r, c) in raws:
                max_row, max_col = max(max_row, r), max(max_col, c)
            elif r == old[0] or c == old[1]:
                self._ext.pop(tab, None)
                return
        self._ext[tab] = (max_row, max_col)

    def _rewrite_all(self, fix: Callable[[_RefParts, str | None, str], str | None]) -> None:
        """Apply ``fix(parts, target_tab, own_tab)`` to every reference of every formula."""
        for own, raws in self._raws.items():
            for rc, raw in raws.items():
                if raw.startswith("="):
                    raws[rc] = "=" + _rewrite_refs(
                        raw[1:], lambda p: fix(p, self._target(p.sheet.casefold() if p.sheet else None, own), own))

    def _rebuild(self) -> None:
        self._lookup = {name.casefold(): name for name in self._raws}
        self._vals: dict[str, dict[tuple[int, int], Value]] = {name: {} for name in self._raws}
        self._forms: dict[Key, _Compiled] = {}
        self._deps: dict[Key, set[Key]] = {}                       # cell -> formulas naming it
        self._rdeps: dict[str, dict[Key, list[tuple[int, int, int, int]]]] = {}  # tab -> formula -> boxes
        self._open: dict[str, set[Key]] = {}                      # tab -> formulas with open ranges on it
        self._ext: dict[str, tuple[int, int]] = {}
        self._grids: dict[tuple[str, int, int, int, int], _Grid] = {}   # per-recalculation cache
        for tab, raws in self._raws.items():
            vals = self._vals[tab]
            for (r, c), raw in raws.items():
                if raw.startswith("="):
                    self._register((tab, r, c), raw)
                else:
                    v = _constant(raw)
                    if v is not None:
                        vals[(r, c)] = v
        self._recompute(set(self._forms))

    def _register(self, key: Key, raw: str) -> None:
        comp = _compile(raw[1:])
        self._forms[key] = comp
        for sheet, r, c in comp.cells:
            t = self._target(sheet, key[0])
            if t is not None:
                self._deps.setdefault((t, r, c), set()).add(key)
        for sheet, top, left, bottom, right, is_open in comp.boxes:
            t = self._target(sheet, key[0])
            if t is not None:
                self._rdeps.setdefault(t, {}).setdefault(key, []).append((top, left, bottom, right))
                if is_open:
                    self._open.setdefault(t, set()).add(key)

    def _unregister(self, key: Key) -> None:
        comp = self._forms.pop(key, None)
        if comp is None:
            return
        for sheet, r, c in comp.cells:
            t = self._target(sheet, key[0])
            dependents = self._deps.get((t, r, c))  # type: ignore[arg-type]
            if dependents is not None:
                dependents.discard(key)
                if not dependents:
                    del self._deps[(t, r, c)]  # type: ignore[index]
        for sheet, *_ in comp.boxes:
            t = self._target(sheet, key[0])
            if t is not None:
                self._rdeps.get(t, {}).pop(key, None)
                self._open.get(t, set()).discard(key)

    def _closure(self, seeds: Iterable[Key]) -> set[Key]:
        """Formula cells among ``seeds`` and everything that depends on them, transitively."""
        seen = set(seeds)
        queue = list(seen)
        dirty = set()
        while queue:
            key = queue.pop()
            if key in self._forms:
                dirty.add(key)
            tab, r, c = key
            found = list(self._deps.get(key, ()))
            for dependent, boxes in self._rdeps.get(tab, {}).items():
                if any(top <= r <= bottom and left <= c <= right for top, left, bottom, right in boxes):
                    found.append(dependent)
            for dependent in found:
                if dependent not in seen:
                    seen.add(dependent)
                    queue.append(dependent)
        return dirty

    def _recompute(self, dirty: set[Key]) -> set[Key]:
        """Evaluate the ``dirty`` formulas, precedents first; returns those whose value changed."""
        columns: dict[str, dict[int, list[int]]] = {}
        for t, r, c in dirty:
            columns.setdefault(t, {}).setdefault(c, []).append(r)
        for cols in columns.values():
            for rows in cols.values():
                rows.sort()
        succ: dict[Key, list[Key]] = {}
        for key in dirty:
            comp, own = self._forms[key], key[0]
            edges = []
            for sheet, r, c in comp.cells:
                k2 = (self._target(sheet, own), r, c)
                if k2 in dirty:
                    edges.append(k2)
            for sheet, top, left, bottom, right, _ in comp.boxes:
                t = self._target(sheet, own)
                for c, rows in columns.get(t, {}).items():  # type: ignore[arg-type]
                    if left <= c <= right:
                        edges.extend((t, rows[i], c) for i in range(bisect_left(rows, top), bisect_right(rows, bottom)))
            succ[key] = edges
        changed = set()
        # Ranges read during this pass are cached: a formula runs only after all its precedents, so
        # the cells of any range it reads are final by then. Grids are never mutated.
        self._grids = {}
        self._cells_read = 0
        try:
            for comp_keys in _strongly_connected(succ):
                if len(comp_keys) == 1 and comp_keys[0] not in succ[comp_keys[0]]:
                    key = comp_keys[0]
                    try:
                        value = _final(self._eval(self._forms[key].ast, key[0]))
                    except RecursionError:
                        value = ErrorValue("#ERROR!", "Formula is nested too deeply.")
                    except MemoryError:
                        value = ErrorValue("#NUM!", "Result is too large.")
                    if self._store(key, value):
                        changed.add(key)
                else:
                    for key in comp_keys:
                        if self._store(key, _circular()):
                            changed.add(key)
        finally:
            self._grids = {}
        return changed

    def _store(self, key: Key, value: Value) -> bool:
        """Store a value (None clears); True if it differs from the previous one."""
        tab, r, c = key
        vals = self._vals[tab]
        old = vals.get((r, c))
        if value is None:
            vals.pop((r, c), None)
        else:
            vals[(r, c)] = value
        return not _same(old, value)

    # ----------------------------------------------------------------- internals: evaluation

    def _eval(self, node: tuple, tab: str) -> Arg:
        kind = node[0]
        if kind == "lit":
            return node[1]
        if kind == "ref":
            t = tab if node[1] is None else self._lookup.get(node[1])
            if t is None:
                return ErrorValue("#REF!", f"Unresolved sheet name '{node[1]}'.")
            return self._vals[t].get((node[2], node[3]))
        if kind == "bin":
            a = _scalar(self._eval(node[2], tab))
            if isinstance(a, ErrorValue):
                return a
            b = _scalar(self._eval(node[3], tab))
            if isinstance(b, ErrorValue):
                return b
            try:
                return _BINOPS[node[1]](a, b)
            except _Fail as f:
                return f.error
        if kind == "call":
            return self._call(node[1], node[2], tab)
        if kind == "range":
            return self._range(node, tab)
        if kind in ("neg", "pct"):
            v = _scalar(self._eval(node[1], tab))
            if isinstance(v, ErrorValue):
                return v
            try:
                return _clean(-_num(v) if kind == "neg" else _num(v) / 100)
            except _Fail as f:
                return f.error
        return None                                          # ("empty",): an omitted argument

    def _eval_arg(self, node: tuple, tab: str) -> Arg:
        """Function arguments: a single-cell reference is a 1x1 range (so SUM(A1) skips text)."""
        if node[0] == "ref":
            return _Grid([[self._eval(node, tab)]])
        return self._eval(node, tab)

    def _range(self, node: tuple, tab: str) -> Arg:
        _, sheet, top, left, bottom, right = node
        t = tab if sheet is None else self._lookup.get(sheet)
        if t is None:
            return ErrorValue("#REF!", f"Unresolved sheet name '{sheet}'.")
        if bottom is None or right is None:
            max_row, max_col = self._extent(t)
            bottom = max_row if bottom is None else bottom
            right = max_col if right is None else right
        size = (bottom - top + 1) * (right - left + 1)
        if size > MAX_RANGE_CELLS:
            return ErrorValue("#REF!", f"Range has more than {MAX_RANGE_CELLS:,} cells.")
        key = (t, top, left, bottom, right)
        grid = self._grids.get(key)
        if grid is None:
            self._cells_read = getattr(self, "_cells_read", 0) + size
            if self._cells_read > MAX_PASS_CELLS:
                return ErrorValue("#REF!", f"Formulas read more than {MAX_PASS_CELLS:,} cells in one recalculation.")
            get = self._vals[t].get
            cols = range(left, right + 1)
            grid = self._grids[key] = _Grid([[get((r, c)) for c in cols] for r in range(top, bottom + 1)])
        return grid

    def _call(self, name: str, args: tuple, tab: str) -> Arg:
        spec = _FUNCS.get(name)
        if spec is None:
            return ErrorValue("#NAME?", f"Unknown function: {name}.")
        fn, lo, hi, lazy = spec
        if len(args) < lo or (hi is not None and len(args) > hi):
            expected = f"{lo}" if lo == hi else (f"at least {lo}" if hi is None else f"{lo} to {hi}")
            return ErrorValue("#N/A", f"Wrong number of arguments to {name}. Expected {expected} "
                                      f"arguments, but got {len(args)} arguments.")
        try:
            if lazy:
                return fn(self, args, tab)
            return fn(*[self._eval_arg(a, tab) for a in args])
        except _Fail as f:
            return f.error


def _sort_key(v: Value) -> tuple[int, object]:
    if isinstance(v, ErrorValue):
        return (3, v.code)
    if isinstance(v, str):
        return (1, v.casefold())
    return (_rank(v), v)


# --------------------------------------------------------------------------- display formatting

def _fixed(x: int | float, decimals: int, commas: bool) -> str:
    """``x`` with ``decimals`` places, rounded half away from zero, optionally with thousands separators."""
    decimals = max(0, decimals)
    q = Decimal(repr(x)) if type(x) is float else Decimal(x)
    q = q.quantize(Decimal(1).scaleb(-decimals), rounding=ROUND_HALF_UP, context=_DECIMALS)
    if q == 0:
        q = abs(q)
    return f"{q:,.{decimals}f}" if commas else f"{q:.{decimals}f}"


def _general(x: int | float) -> str:
    """Automatic number display: up to 10 significant digits, trailing zeros trimmed."""
    if type(x) is int:
        return str(x)
    if not math.isfinite(x):
        return "#NUM!"
    if x.is_integer() and abs(x) < 1e15:
        return str(int(x))
    s = f"{x:.10g}"
    if "e" in s and 1 <= abs(x) < 1e15:              # plain digits, rounded
        return f"{x:.0f}"
    if "e" in s:
        mantissa, exp = s.split("e")
        return f"{mantissa}E{int(exp):+03d}"
    return s


_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September",
           "October", "November", "December")
_WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
_DATE_TOKENS = re.compile(r"yyyy|yy|mmmm|mmm|mm|m|dddd|ddd|dd|d|hh|h|ss|s|am/pm", re.IGNORECASE)
_NUMBER_CORE = re.compile(r"[#0][#0,]*(?:\.[#0]*)?|\.[#0]+")


def _format_date_pattern(x: int | float, fmt: str) -> str:
    try:
        dt = _EPOCH_DT + timedelta(seconds=round(x * 86400))
    except OverflowError:
        _fail("#NUM!", f"{x} is not a valid date serial number.")
    tokens = [(m.start(), m.end(), m.group().lower()) for m in _DATE_TOKENS.finditer(fmt)]
    twelve = any(tok == "am/pm" for _, _, tok in tokens)
    out, pos = [], 0
    for i, (start, end, tok) in enumerate(tokens):
        out.append(fmt[pos:start])
        pos = end
        prev = tokens[i - 1][2] if i else ""
        nxt = tokens[i + 1][2] if i + 1 < len(tokens) else ""
        if tok in ("m", "mm") and (prev in ("h", "hh") or nxt in ("s", "ss")):
            out.append(f"{dt.minute:02d}" if tok == "mm" else str(dt.minute))
            continue
        hour = (dt.hour % 12 or 12) if twelve else dt.hour
        out.append({
            "yyyy": f"{dt.year:04d}", "yy": f"{dt.year % 100:02d}", "mmmm": _MONTHS[dt.month - 1],
            "mmm": _MONTHS[dt.month - 1][:3], "mm": f"{dt.month:02d}", "m": str(dt.month),
            "dddd": _WEEKDAYS[dt.weekday()], "ddd": _WEEKDAYS[dt.weekday()][:3], "dd": f"{dt.day:02d}",
            "d": str(dt.day), "hh": f"{hour:02d}", "h": str(hour), "ss": f"{dt.second:02d}",
            "s": str(dt.second), "am/pm": "AM" if dt.hour < 12 else "PM",
        }[tok])
    out.append(fmt[pos:])
    return "".join(out)


def _format_pattern(x: int | float, fmt: str) -> str:
    """TEXT() patterns: numbers ("0.00", "#,##0", "$#,##0.00", "0%", "000"), dates
    ("yyyy-mm-dd", "mm/dd/yyyy", "mmm d, yyyy", "hh:mm") and "positive;negative;zero" sections."""
    sections = fmt.split(";")
    if len(sections) > 1 and x < 0:
        return _format_pattern(-x, sections[1])
    if len(sections) > 2 and x == 0:
        return _format_pattern(x, sections[2])
    fmt = sections[0]
    core = _NUMBER_CORE.search(fmt)
    if core is None:
        return _format_date_pattern(x, fmt) if _DATE_TOKENS.search(fmt) else fmt
    prefix, suffix = fmt[:core.start()], fmt[core.end():]
    int_part, _, dec_part = core.group().partition(".")
    if "%" in prefix + suffix:
        x = float(Decimal(repr(x)) * 100) if type(x) is float else x * 100
    s = _fixed(abs(x), len(dec_part), "," in int_part)
    whole, dot, frac = s.partition(".")
    min_digits = int_part.count("0")
    if whole == "0" and min_digits == 0:
        whole = ""
    elif len(whole.replace(",", "")) < min_digits:
        whole = whole.rjust(min_digits, "0")
    s = whole + dot + frac
    negative = x < 0 and any(ch not in "0.," for ch in s)
    return ("-" if negative else "") + prefix + s + suffix


def format_value(value: Value, fmt: dict | None = None) -> str:
    """Display text of a cell value under a number format.

    ``fmt``: ``{"type": "auto"|"number"|"currency"|"percent"|"date"|"text", "decimals": int,
    "symbol": str}``. Text, booleans, errors and empties display the same under every format.
    """
    if value is None:
        return ""
    if isinstance(value, ErrorValue):
        return value.code
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, str):
        return value
    fmt = fmt or {}
    kind = fmt.get("type") or "auto"
    decimals = fmt.get("decimals")
    places = 2 if decimals is None else int(decimals)
    if kind == "number":
        return _fixed(value, places, True)
    if kind == "currency":
        s = _fixed(abs(value), places, True)
        negative = value < 0 and any(ch not in "0.," for ch in s)
        return ("-" if negative else "") + fmt.get("symbol", "$") + s
    if kind == "percent":
        scaled = float(Decimal(repr(value)) * 100) if type(value) is float else value * 100
        return _fixed(scaled, places, True) + "%"
    if kind == "date":
        try:
            return (_EPOCH + timedelta(days=math.floor(value))).isoformat()
        except (OverflowError, ValueError):
            return _general(value)
    return _general(value)


# --------------------------------------------------------------------------- benchmark

def _bench_workbook() -> Workbook:
    """2,000 cells, 300 formulas: a 170x10 data block with a computed column, a summary tab,
    and a 50-formula chain hanging off Data!E1."""
    data: dict[tuple[int, int], str] = {}
    categories = ("Hardware", "Software", "Services", "Third party")
    for r in range(170):
        data[(r, 0)] = str(r + 1)
        data[(r, 1)] = str((r * 37) % 101 + 1)
        data[(r, 2)] = categories[r % 4]
        for c in range(3, 10):
            data[(r, c)] = str(((r + 1) * (c + 3) * 7919) % 1000 / 10)
        data[(r, 10)] = f"=B{r + 1}*D{r + 1}"
    summary: dict[tuple[int, int], str] = {}
    for i in range(80):
        kind = i % 8
        summary[(i, 0)] = [
            f"=SUM(Data!K1:K{100 + i})", f"=AVERAGE(Data!D:D)+{i}", f'=SUMIF(Data!C:C,"{categories[i % 4]}",Data!K:K)',
            f"=VLOOKUP({i + 1},Data!A1:K170,11,FALSE)", f'=COUNTIFS(Data!C:C,"Soft*",Data!B:B,">{i}")',
            f"=ROUND(Data!F{i + 1}/Data!G{i + 1},2)", f'=IF(Data!B{i + 1}>50,"high","low")&" "&Data!C{i + 1}',
            f"=MAX(Data!H1:H170)-MIN(Data!I1:I170)",
        ][kind]
    summary[(0, 1)] = "=Data!E1*2"
    for i in range(1, 50):
        summary[(i, 1)] = f"=B{i}+1"
    return Workbook({"Data": data, "Summary": summary})


def bench() -> None:
    """Print median timings: build + full recalc, and a single edit with 50 dependents."""
    def median_ms(fn: Callable[[], object], runs: int) -> float:
        times = []
        for _ in range(runs):
            start = time.perf_counter()
            fn()
            times.append((time.perf_counter() - start) * 1000)
        return statistics.median(times)

    build = median_ms(lambda: (_compile.cache_clear(), _constant.cache_clear(), _bench_workbook()), 7)
    wb = _bench_workbook()
    cells = sum(len(wb.cells(t)) for t in wb.tabs())
    formulas = sum(1 for t in wb.tabs() for raw in wb.cells(t).values() if raw.startswith("="))
    full = median_ms(wb.recalc, 7)
    counter = iter(range(10 ** 9))
    dependents = len(wb._closure([("Data", 0, 4)]))
    edit = median_ms(lambda: wb.set("Data", 0, 4, str(next(counter))), 51)
    print(f"workbook: {cells} cells, {formulas} formulas")
    print(f"build + full recalc (cold parse cache): {build:.2f} ms median")
    print(f"full recalc (warm parse cache):         {full:.2f} ms median")
    print(f"single edit, {dependents} dependents:           {edit:.2f} ms median")


if __name__ == "__main__":
    bench()
