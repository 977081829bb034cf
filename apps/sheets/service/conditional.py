"""Conditional formatting, as Format → Conditional formatting makes it: rules over ranges, each a condition
(the filter's conditions — is empty, text contains, greater than… — or a custom formula written for the
range's top-left cell, "=$F2=\"Withdrawn\"") and a style (fill and text colours, bold, italic,
strikethrough). Rules apply in the order made; a cell takes the style of the first rule it meets.

A rule is a record of ``sheets_conditional`` (``range``, ``condition``, ``style``); ``styles`` says which
cells a tab's rules format and how, for the grid and for checks; the .xlsx export writes real rules.
"""
from __future__ import annotations

import re

import apps.sheets.formula as F
from apps.core.ids import as_id
from apps.core.errors import Invalid, NotFound
from apps.core.store.db import Caller, Store
from apps.sheets.formula.probe import evaluate
from apps.sheets.service.history import record_extras
from apps.sheets.service.ranges import bounds as _bounds, moved, text as _text
from apps.sheets.service.base import SHEETS, Range, cells, check_range, editable, get, tab, workbook
from apps.sheets.service.filters import CONDITIONS as FILTER_CONDITIONS, check_condition, condition_holds

CONDITIONS = {**FILTER_CONDITIONS, "custom": ("Custom formula is", True, False)}
STYLE_KEYS = ("fill", "color", "bold", "italic", "strike")
MAX_CUSTOM_CELLS = 20_000


def rules(store: Store, tab_id: int) -> list[dict]:
    """A tab's rules, in the order they apply."""
    return store.select("sheets_conditional", "tab=?", (tab_id,), order="id")


def one(store: Store, user: str, book_id: int, rule_id: int) -> dict:
    get(store, user, book_id)
    if as_id(rule_id) is None:
        raise NotFound("That conditional format rule doesn't exist in this spreadsheet.")
    rule = store.get("sheets_conditional", rule_id)
    if rule is None or rule["tab"] not in {t["id"] for t in store.select("sheets_tabs", "book=?", (book_id,))}:
        raise NotFound("That conditional format rule doesn't exist in this spreadsheet.")
    return rule


def _truthy(v) -> bool:
    return v is True or (isinstance(v, (int, float)) and not isinstance(v, bool) and v != 0)


def styles(store: Store, tab_id: int) -> dict[tuple[int, int], dict]:
    """The cells a tab's rules format, by (row, col), with the style each takes (the first rule it meets)."""
    rs = rules(store, tab_id)
    if not rs:
        return {}
    t = store.get("sheets_tabs", tab_id)
    return formatted(rs, cells(store, tab_id), lambda: workbook(store, t["book"])[0], t["name"])


def formatted(rs: list[dict], grid: dict, book, tab_name: str) -> dict[tuple[int, int], dict]:
    """``styles`` over given rules and cells (by 1-based (row, col), each with its value and display), for the
    store and for an exported state alike; ``book()`` gives the tab's workbook, built only if a custom formula
    needs it."""
    out: dict[tuple[int, int], dict] = {}
    wb = None
    for rule in rs:
        top, left, bottom, right = _bounds(rule["range"])
        cond = rule["condition"]
        if cond["type"] == "custom" and wb is None:
            wb = book()
        for r in range(top, bottom + 1):
            for c in range(left, right + 1):
                if (r, c) in out:
                    continue
                if cond["type"] == "custom":
                    holds = _truthy(evaluate(wb, tab_name, wb.adjust_formula(cond["value"], r - top, c - left)))
                else:
                    cl = grid.get((r, c)) or {}
                    holds = condition_holds(cond, cl.get("value"), cl.get("display") or "")
                if holds:
                    out[(r, c)] = rule["style"]
    return out


def _checked(t: dict, store: Store, rng: Range | None, condition, style) -> dict:
    out = {}
    if rng is not None:
        top, left, bottom, right = check_range(t, rng)
        out["range"] = f"{F.ref_name(top - 1, left - 1)}:{F.ref_name(bottom - 1, right - 1)}"
    if condition is not None:
        cond = check_condition(condition, CONDITIONS)
        if cond["type"] == "custom":
            if not cond["value"].startswith("="):
                cond["value"] = "=" + cond["value"]
            wb, _ = workbook(store, t["book"])
            v = evaluate(wb, t["name"], cond["value"])
            if isinstance(v, F.ErrorValue) and str(v) in ("#ERROR!", "#NAME?"):
                raise Invalid(f"The custom formula {cond['value']} is not valid ({v}).", "value")
        out["condition"] = cond
    if style is not None:
        if not isinstance(style, dict):
            raise Invalid("The formatting style is fill, color, bold, italic and strike.", "style")
        unknown = set(style) - set(STYLE_KEYS)
        if unknown:
            raise Invalid(f"Unknown formatting style {sorted(unknown)[0]!r}.", sorted(unknown)[0])
        clean = {}
        for key in ("fill", "color"):
            v = style.get(key)
            if v not in (None, ""):
                if not isinstance(v, str) or not re.fullmatch(r"#[0-9a-fA-F]{6}", v):
                    raise Invalid(f"A {'fill' if key == 'fill' else 'text'} colour is written #rrggbb (like #b7e1cd), "
                                  f"not {v!r}.", key)
                clean[key] = v.lower()
        for key in ("bold", "italic", "strike"):
            if style.get(key):
                clean[key] = True
        if not clean:
            raise Invalid("Choose a formatting style: a fill or text colour, bold, italic or strikethrough.", "style")
        out["style"] = clean
    return out


def add_rule(store: Store, caller: Caller, book_id: int, tab_id: int, rng: Range, condition: dict,
             style: dict) -> int:
    """Format → Conditional formatting → Add another rule. Returns its id."""
    book = editable(store, caller, book_id)
    t = tab(store, book_id, tab_id)
    fields = _checked(t, store, rng, condition, style)
    top, left, bottom, right = _bounds(fields["range"])
    if fields["condition"]["type"] == "custom" and (bottom - top + 1) * (right - left + 1) > MAX_CUSTOM_CELLS:
        raise Invalid(f"A custom formula rule covers at most {MAX_CUSTOM_CELLS:,} cells.", "range")
    with store.transaction():
        record_extras(store, caller, book_id, "Add conditional format")
        rid = store.insert("sheets_conditional", caller.actor, tab=t["id"], **fields)
        SHEETS.bump(store, caller, book)
    return rid


def update_rule(store: Store, caller: Caller, book_id: int, rule_id: int, rng: Range | None = None,
                condition: dict | None = None, style: dict | None = None) -> dict:
    book = editable(store, caller, book_id)
    rule = one(store, caller.user, book_id, rule_id)
    fields = _checked(store.get("sheets_tabs", rule["tab"]), store, rng, condition, style)
    if not fields:
        raise Invalid("Say what to change: the range, the condition or the style.", "range")
    with store.transaction():
        record_extras(store, caller, book_id, "Change conditional format")
        store.update("sheets_conditional", rule["id"], caller.actor, **fields)
        SHEETS.bump(store, caller, book)
    return store.get("sheets_conditional", rule["id"])


def delete_rule(store: Store, caller: Caller, book_id: int, rule_id: int) -> None:
    book = editable(store, caller, book_id)
    rule = one(store, caller.user, book_id, rule_id)
    with store.transaction():
        record_extras(store, caller, book_id, "Delete conditional format")
        store.delete("sheets_conditional", rule["id"], caller.actor)
        SHEETS.bump(store, caller, book)


def describe(rule: dict) -> str:
    """"Greater than 1000000", "Custom formula is =$F2="Withdrawn"" — as the side panel lists a rule."""
    label, needs, _ = CONDITIONS[rule["condition"]["type"]]
    return f"{label} {rule['condition']['value']}" if needs else label


def shift(store: Store, actor: str, tab_id: int, axis: str, at: int, n: int) -> None:
    """Rules' ranges follow inserted (``n`` > 0) and deleted (``n`` < 0) rows or columns; a rule whose range
    is wholly deleted goes."""
    for rule in rules(store, tab_id):
        rng = moved(_bounds(rule["range"]), axis, at, n)
        if rng is None:
            store.delete("sheets_conditional", rule["id"], actor)
        elif _text(*rng) != rule["range"]:
            store.update("sheets_conditional", rule["id"], actor, range=_text(*rng))


# ---------------------------------------------------------------- .xlsx
_CELL_IS = {"gt": "greaterThan", "gte": "greaterThanOrEqual", "lt": "lessThan", "lte": "lessThanOrEqual",
            "eq": "equal", "neq": "notEqual"}


def add_xlsx_rules(store: Store, ws, tab_id: int) -> None:
    """The tab's rules as .xlsx conditional formats (cell-is rules for numbers, formula rules otherwise)."""
    from openpyxl.formatting.rule import CellIsRule, FormulaRule
    from openpyxl.styles import Font, PatternFill
    for rule in rules(store, tab_id):
        top, left, bottom, right = _bounds(rule["range"])
        first = F.ref_name(top - 1, left - 1)
        st = rule["style"]
        kw = {}
        if st.get("fill"):
            kw["fill"] = PatternFill(fill_type="solid", start_color="FF" + st["fill"][1:].upper(),
                                     end_color="FF" + st["fill"][1:].upper())
        if st.get("color") or st.get("bold") or st.get("italic") or st.get("strike"):
            kw["font"] = Font(color=("FF" + st["color"][1:].upper()) if st.get("color") else None,
                              bold=st.get("bold") or None, italic=st.get("italic") or None, strike=st.get("strike") or None)
        kind, value = rule["condition"]["type"], rule["condition"].get("value", "")
        text = '"' + str(value).replace('"', '""') + '"'
        if kind in _CELL_IS:
            xrule = CellIsRule(operator=_CELL_IS[kind], formula=[str(F.parse_input(value))], **kw)
        else:
            formula = {
                "empty": f"LEN(TRIM({first}))=0", "not_empty": f"LEN(TRIM({first}))>0",
                "text_contains": f"ISNUMBER(SEARCH({text},{first}))",
                "text_not_contains": f"ISERROR(SEARCH({text},{first}))",
                "text_starts_with": f"LEFT({first},LEN({text}))={text}",
                "text_ends_with": f"RIGHT({first},LEN({text}))={text}",
                "text_is": f"{first}={text}",
            }.get(kind) or F.to_ooxml(value)[1:]
            xrule = FormulaRule(formula=[formula], **kw)
        ws.conditional_formatting.add(rule["range"], xrule)
