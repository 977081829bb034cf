"""A1 notation: column letters and cell and range addresses ("B7", "$B$7", "B2:D9") to 0-based positions."""
from __future__ import annotations

import re


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
