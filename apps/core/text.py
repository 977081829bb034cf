"""Plain text as users type it: one cleaning rule for every app's service layer; and
JSON that is safe to embed in a page."""
from __future__ import annotations

import json
import re

from apps.core.errors import Invalid

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


_HTML_UNSAFE = {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "'": "\\u0027",
                "\u2028": "\\u2028", "\u2029": "\\u2029"}
_HTML_UNSAFE_RE = re.compile("[<>&'\u2028\u2029]")


def html_json(value: object) -> str:
    """``value`` as JSON that can sit inside a ``<script>`` element or an attribute: no
    ``<``, ``>``, ``&`` or ``'`` (they become ``\\u003c`` …), so no text a user typed
    (``</script>``, ``<!--<script>``) can end the element or change how the HTML
    parser reads it. ``JSON.parse`` gives back exactly ``value``."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return _HTML_UNSAFE_RE.sub(lambda m: _HTML_UNSAFE[m.group(0)], text)
