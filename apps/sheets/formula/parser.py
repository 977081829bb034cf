"""Tokens to ASTs: a Pratt parser, and the compiled form of a formula with its references.

**ASTs** are tuples: ``("lit", v)``, ``("ref", sheet, row, col)``, ``("range", sheet, top, left,
bottom, right)`` (``None`` bottom/right = open-ended, bounded at evaluation by the tab's used
extent), ``("neg", x)``, ``("pct", x)``, ``("bin", op, a, b)``, ``("call", NAME, args)``,
``("empty",)``. Compilation is cached by formula text; ASTs never depend on the host cell, because
A1 references in stored text are positions, not offsets.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from apps.sheets.formula.base import _INF, ErrorValue
from apps.sheets.formula.inputs import _tidy
from apps.sheets.formula.tokenizer import _ref_parts, _RefParts, _Tok, _tokenize


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


_STRETCH = {"SUMIF": (0, 2), "AVERAGEIF": (0, 2)}     # function -> (criteria range, the range it shapes)


def _box(node: tuple) -> tuple | None:
    """(sheet, top, left, bottom, right) of a closed reference node, else None."""
    if node[0] == "ref":
        return (node[1], node[2], node[3], node[2], node[3])
    if node[0] == "range" and node[4] is not None and node[5] is not None:
        return node[1:6]
    return None


def _stretched(node: tuple) -> tuple:
    """SUMIF's and AVERAGEIF's sum range takes the criteria range's shape from its own top-left cell,
    as Sheets does (``SUMIF(A1:A5,"x",B1)`` sums B1:B5): the reference is rewritten here, so evaluation
    and the dependency graph both see the cells actually read."""
    kind = node[0]
    if kind == "call":
        args = [_stretched(a) for a in node[2]]
        pair = _STRETCH.get(node[1])
        if pair and len(args) > pair[1]:
            crit, target = _box(args[pair[0]]), _box(args[pair[1]])
            if crit and target and (crit[3] - crit[1], crit[4] - crit[2]) != (target[3] - target[1], target[4] - target[2]):
                sheet, top, left = target[0], target[1], target[2]
                args[pair[1]] = ("range", sheet, top, left, top + crit[3] - crit[1], left + crit[4] - crit[2])
        return (kind, node[1], tuple(args))
    if kind == "bin":
        return (kind, node[1], _stretched(node[2]), _stretched(node[3]))
    if kind in ("neg", "pct"):
        return (kind, _stretched(node[1]))
    return node


@lru_cache(maxsize=8192)
def _compile(src: str) -> _Compiled:
    """Parse the text after ``=``. Host-independent, so cached by text."""
    try:
        ast = _Parser(_tokenize(src)).parse()
    except (_ParseError, RecursionError):
        ast = _PARSE_ERROR
    ast = _stretched(ast)
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
