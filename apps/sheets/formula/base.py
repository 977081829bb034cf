"""The engine's vocabulary: cell values, error values, cell keys, the calendar epoch and the limits.

Every other module of the package builds on these; this one imports none of them.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Context
from typing import Union


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

MAX_TEXT = 50_000                 # characters of a text result (a cell holds as many, as in Google Sheets)
MAX_RANGE_CELLS = 1_000_000       # cells of one range (the largest sheet here: 5,000 rows x 200 columns)
MAX_PASS_CELLS = 5_000_000        # cells all the ranges of one recalculation may read
