"""The app-wide URL converters: ``<int:…>`` in any route matches only an id SQLite can hold
(``apps.core.ids``: ``0 ≤ n ≤ 2**63 - 1``, ASCII digits); anything else is a plain 404."""
from __future__ import annotations

import builtins

from werkzeug.routing import IntegerConverter

from apps.core.ids import INT64_MAX


def _at_most(n: int) -> str:
    """A regex for the decimal numbers 0..n (leading zeros allowed, no more digits than n has)."""
    top = str(n)
    alts = [f"[0-9]{{1,{len(top) - 1}}}"] if len(top) > 1 else []
    for i, d in enumerate(top):
        if d != "0":
            rest = len(top) - i - 1
            alts.append(top[:i] + f"[0-{int(d) - 1}]" + (f"[0-9]{{{rest}}}" if rest else ""))
    alts.append(top)
    return "(?:" + "|".join(alts) + ")"


class IdConverter(IntegerConverter):
    """The app-wide ``int`` converter: only ids SQLite can hold match. The range is in the
    regex itself, so ``/x/<2**63>`` matches no rule at all (a 404 whatever methods the
    path's other rules take)."""
    regex = _at_most(INT64_MAX)

    def __init__(self, map, fixed_digits: int = 0, min: int | None = None, max: int | None = None,
                 signed: bool = False) -> None:
        lo = -INT64_MAX if signed else 0
        super().__init__(map, fixed_digits, lo if min is None else builtins.max(min, lo),
                         INT64_MAX if max is None else builtins.min(max, INT64_MAX), signed)
        if signed:
            self.regex = "-?" + _at_most(INT64_MAX)
