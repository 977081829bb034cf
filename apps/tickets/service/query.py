"""Encoded queries as ServiceNow writes them (``sysparm_query``): conditions ``field<op>value`` joined by
``^`` (AND) and ``^OR`` (OR with the condition before: OR binds tighter than AND), and ``^NQ`` starting a
new criteria set (the sets are OR-ed). Operators: ``=`` is, ``!=`` is not, ``LIKE`` contains, ``NOT LIKE``
does not contain, ``STARTSWITH`` starts with, ``ISEMPTY`` is empty, ``ISNOTEMPTY`` is not empty, ``>``
greater than, ``<`` less than. E.g. ``state=New^ORstate=In Progress^priority=1^NQcategory=Billing``.

A parsed query is a list of criteria sets; a set is a list of clauses (AND-ed); a clause is a list of
``(field, operator, value)`` conditions (OR-ed), with the list view's operator names.
"""
from __future__ import annotations

import re

from apps.core.errors import Invalid

ENC = (("ISNOTEMPTY", "is not empty"), ("ISEMPTY", "is empty"), ("NOT LIKE", "does not contain"),
       ("STARTSWITH", "starts with"), ("LIKE", "contains"), ("!=", "is not"), (">", "greater than"),
       ("<", "less than"), ("=", "is"))
OP_ENC = {name: code for code, name in ENC}
_COND = re.compile(r"^([a-z_]+)(ISNOTEMPTY|ISEMPTY|NOT LIKE|STARTSWITH|LIKE|!=|>|<|=)(.*)$", re.S)

Query = list[list[list[tuple[str, str, str]]]]


def parse_query(text: str, kind: str, parse_condition) -> Query:
    """``sysparm_query`` text → criteria sets; ``parse_condition("field:op:value", kind)`` checks each
    condition as a list condition is checked."""
    text = (text or "").strip()
    if not text:
        return []
    out: Query = []
    for part in text.split("^NQ"):
        clauses: list[list[tuple[str, str, str]]] = []
        for i, piece in enumerate(part.split("^")):
            is_or = piece.startswith("OR") and i > 0
            cond = piece[2:] if is_or else piece
            m = _COND.match(cond)
            if not m:
                raise Invalid(f"“{cond}” is not a condition of an encoded query (field=value, field!=value, "
                              f"fieldLIKEvalue, …).", "sysparm_query")
            field, code, value = m.groups()
            op = dict(ENC)[code]
            cond_t = parse_condition(f"{field}:{op}:{value}", kind)
            if is_or and clauses:
                clauses[-1].append(cond_t)
            else:
                clauses.append([cond_t])
        if clauses:
            out.append(clauses)
    return out


def encode_query(query: Query) -> str:
    """Criteria sets → ``sysparm_query`` text."""
    sets = []
    for clauses in query:
        parts = []
        for clause in clauses:
            for j, (f, op, v) in enumerate(clause):
                code = OP_ENC[op]
                parts.append(("OR" if j else "") + f + code + ("" if code in ("ISEMPTY", "ISNOTEMPTY") else v))
        sets.append("^".join(parts))
    return "^NQ".join(sets)


def from_rows(rows: list[tuple[str, str, str, str]]) -> Query:
    """The condition builder's rows ``(field, operator, value, join)`` — join ``and``, ``or`` (with the
    row before) or ``nq`` (starts new criteria) — → criteria sets."""
    out: Query = []
    for f, op, v, join in rows:
        if not out or join == "nq":
            out.append([[(f, op, v)]])
        elif join == "or":
            out[-1][-1].append((f, op, v))
        else:
            out[-1].append([(f, op, v)])
    return out


def conjoin(a: Query, b: Query) -> Query:
    """``a`` AND ``b``: every criteria set of one joined with every set of the other (either empty: the other)."""
    if not a or not b:
        return a or b
    return [x + y for x in a for y in b]


def describe(query: Query, label) -> str:
    """Readable text of a query for the filter breadcrumb: "State is New or State is In Progress"."""
    sets = []
    for clauses in query:
        sets.append(" and ".join(" or ".join(f"{label(f)} {op} {v}".strip() for f, op, v in clause)
                                 for clause in clauses))
    return " — or — ".join(sets)


def holds(query: Query, test) -> bool:
    """Whether a record passes: any criteria set whose every clause has a condition ``test`` accepts."""
    if not query:
        return True
    return any(all(any(test(c) for c in clause) for clause in clauses) for clauses in query)
