"""Formula text to tokens, and reference rewriting token by token.

**Tokens** keep their source spans. A reference is one token (``'Q1 Plan'!$B$2:D9``, ``A:C``,
``2:3``, ``B2:B``), so structural edits (insert/delete rows and columns, tab renames, copy/paste,
sorting) rewrite formula text token by token and leave spacing, casing and everything else alone.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, NamedTuple

from apps.sheets.formula.a1 import col_index, col_letter


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


# Functions OOXML stores with the ``_xlfn.`` prefix (added to Excel after 2007): written bare, Excel and
# LibreOffice read them as unknown names (#NAME?).
XLFN = frozenset({
    "IFNA", "IFS", "SWITCH", "XLOOKUP", "XMATCH", "CONCAT", "TEXTJOIN", "DAYS", "MAXIFS", "MINIFS",
    "ISOWEEKNUM", "NUMBERVALUE", "CEILING.MATH", "FLOOR.MATH", "STDEV.S", "STDEV.P", "VAR.S", "VAR.P",
    "PERCENTILE.INC", "PERCENTILE.EXC", "QUARTILE.INC", "QUARTILE.EXC", "RANK.EQ", "RANK.AVG", "MODE.SNGL",
    "NETWORKDAYS.INTL", "WORKDAY.INTL", "AGGREGATE", "UNIQUE", "SORT", "SORTBY", "FILTER", "SEQUENCE", "LET",
})
_XLWS = frozenset({"FILTER", "SORT"})          # _xlfn._xlws.FILTER, as Excel writes them
MAX_ROW, MAX_COL = 1_048_576, 16_384           # the OOXML grid


def to_ooxml(raw: str) -> str:
    """A formula as an .xlsx stores it: newer functions with their ``_xlfn.`` prefix, and Sheets' open
    ranges (``B2:B``, to the last row with data) closed at the grid's edge (``B2:B1048576``), which
    Excel and LibreOffice read the same way."""
    if not raw.startswith("="):
        return raw
    src = raw[1:]
    toks = _tokenize(src)
    out, last = [], 0
    for i, tok in enumerate(toks):
        new = None
        if tok.kind == "ident" and tok.text.upper() in XLFN:
            nxt = next((t for t in toks[i + 1:] if t.kind != "ws"), None)
            if nxt is not None and nxt.kind == "op" and nxt.text == "(":
                name = tok.text.upper()
                new = ("_xlfn._xlws." if name in _XLWS else "_xlfn.") + name
        elif tok.kind == "ref":
            p = _ref_parts(tok.match)  # type: ignore[arg-type]
            if len(p.ends) == 2 and all(e[0] is not None and e[1] is not None for e in p.ends[:1]):
                end = p.ends[1]
                if end[0] is None and end[1] is not None:            # B2:B
                    end[0] = MAX_ROW - 1
                    new = p.text()
                elif end[1] is None and end[0] is not None:          # B2:5
                    end[1] = MAX_COL - 1
                    new = p.text()
        if new is not None:
            out.append(src[last:tok.start])
            out.append(new)
            last = tok.end
    out.append(src[last:])
    return "=" + "".join(out)


def closed_parens(raw: str) -> str:
    """A formula typed without its closing parentheses, closed as Sheets closes them on Enter
    (``=SUM(D2:D8`` is stored as ``=SUM(D2:D8)``). Anything else is returned as typed."""
    if not raw.startswith("="):
        return raw
    depth = 0
    for tok in _tokenize(raw[1:]):
        if tok.kind == "op" and tok.text == "(":
            depth += 1
        elif tok.kind == "op" and tok.text == ")":
            depth -= 1
            if depth < 0:
                return raw
    return raw + ")" * depth if depth > 0 else raw


def _moved_fix(src: str, top: int, left: int, bottom: int, right: int, dst: str, drow: int, dcol: int):
    """The reference rewrite of a cut and paste (``Workbook.move_references``): ``fix(parts, target, own)``
    moves a reference wholly inside the box on ``src`` by ``drow``/``dcol`` to ``dst``; others stay."""
    def fix(p: _RefParts, target: str | None, own: str) -> str | None:
        if target != src or any(e[0] is None or e[1] is None for e in p.ends):
            return None
        if not all(top <= e[0] <= bottom and left <= e[1] <= right for e in p.ends):
            return None
        for e in p.ends:
            e[0] += drow
            e[1] += dcol
        if dst != own or p.sheet is not None:
            p.prefix = "" if (dst == own and p.sheet is None) else _quote_sheet(dst) + "!"
        return p.text()
    return fix
