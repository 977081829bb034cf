"""Plain text as users type it: one cleaning rule for every app's service layer."""
from __future__ import annotations

import re

from apps.common.errors import Invalid

CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\u200b\ufeff]")


def tidy(value: str, *, one_line: bool = False) -> str:
    """Unix newlines, no control or zero-width characters, no trailing spaces or blank edges;
    ``one_line`` also folds every run of whitespace into one space."""
    value = CONTROL.sub("", value.replace("\r\n", "\n").replace("\r", "\n"))
    if one_line:
        return " ".join(value.split())
    return "\n".join(line.rstrip() for line in value.split("\n")).strip("\n")


def bounded(value: str, limit: int, field: str, label: str = "That") -> str:
    if len(value) > limit:
        raise Invalid(f"{label} is too long: at most {limit:,} characters.", field)
    return value
