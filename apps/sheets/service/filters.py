"""Filters and filter views, as in Sheets' Data menu.

A tab has at most one *filter* (Data → Create a filter): a range whose first row is its header, and
per column the criteria rows must meet — values hidden (Filter by values: the shown text, "" for
blanks) and/or a condition (Filter by condition). Data rows that fail are hidden in the grid for
everyone. A *filter view* (Data → Filter views → Create new filter view) is the same thing with a name,
saved for anyone to open; it hides rows only for whoever has it open (``?view=<id>``).

Both are records of ``sheets_filters``: ``kind`` (filter | view), ``name``, ``range`` ("A1:F8") and
``criteria`` ({"D": {"hidden": ["Withdrawn"], "condition": {"type": "gt", "value": "100"}}}). Which
rows one shows is ``shown_rows`` (from the store) or ``shown_rows_in_export`` (from an exported state,
for verifiers); both come down to ``passes``.
"""
from __future__ import annotations

import apps.sheets.formula as F
from apps.core.ids import as_id
from apps.core.errors import Invalid, NotFound
from apps.core.store.db import Caller, Store
from apps.sheets.service.history import record_extras
from apps.sheets.service.ranges import bounds as _bounds, moved, moved_line, text as _text
from apps.sheets.service.base import SHEETS, Range, cells, editable, get, tab

# Filter by condition, as Sheets lists them: type -> (label, needs a value, compares numbers)
CONDITIONS: dict[str, tuple[str, bool, bool]] = {
    "empty": ("Is empty", False, False),
    "not_empty": ("Is not empty", False, False),
    "text_contains": ("Text contains", True, False),
    "text_not_contains": ("Text does not contain", True, False),
    "text_starts_with": ("Text starts with", True, False),
    "text_ends_with": ("Text ends with", True, False),
    "text_is": ("Text is exactly", True, False),
    "gt": ("Greater than", True, True),
    "gte": ("Greater than or equal to", True, True),
    "lt": ("Less than", True, True),
    "lte": ("Less than or equal to", True, True),
    "eq": ("Is equal to", True, True),
    "neq": ("Is not equal to", True, True),
}
MAX_HIDDEN = 5_000


# ---------------------------------------------------------------- which rows pass
def condition_holds(cond: dict, value, display: str) -> bool:
    """Whether a cell (its computed value and shown text) meets a Filter-by-condition condition."""
    kind, want = cond["type"], cond.get("value", "")
    blank = value is None or value == ""
    if kind == "empty":
        return blank
    if kind == "not_empty":
        return not blank
    if CONDITIONS[kind][2]:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return kind == "neq"
        x = _number(want)
        return {"gt": value > x, "gte": value >= x, "lt": value < x, "lte": value <= x,
                "eq": value == x, "neq": value != x}[kind]
    text, want = (display or "").lower(), str(want).lower()
    return {"text_contains": want in text, "text_not_contains": want not in text,
            "text_starts_with": text.startswith(want), "text_ends_with": text.endswith(want),
            "text_is": text == want}[kind]


def passes(criteria: dict, cell_at) -> bool:
    """Whether a data row meets every column's criteria; ``cell_at(col)`` gives (value, display)."""
    for letter, crit in (criteria or {}).items():
        value, display = cell_at(F.col_index(letter) + 1)
        if (display or "") in (crit.get("hidden") or ()):
            return False
        if crit.get("condition") and not condition_holds(crit["condition"], value, display or ""):
            return False
    return True


def _rows(grid: dict, rng_text: str, criteria: dict) -> tuple[list[int], list[int]]:
    top, left, bottom, right = _bounds(rng_text)

    def at(r):
        def cell_at(c):
            cl = grid.get((r, c)) or {}
            return cl.get("value"), cl.get("display") or ""
        return cell_at
    shown, hidden = [], []
    for r in range(top + 1, bottom + 1):
        (shown if passes(criteria, at(r)) else hidden).append(r)
    return shown, hidden


def shown_rows(store: Store, filter_id: int) -> dict:
    """What a filter or filter view shows: its range, its header row, and the data rows (1-based) it
    shows and hides. For checks: ``shown_rows(store, id)["shown"]``."""
    f = store.get("sheets_filters", filter_id)
    if f is None:
        raise NotFound("That filter doesn't exist.")
    shown, hidden = _rows(cells(store, f["tab"]), f["range"], f["criteria"] or {})
    return {"id": f["id"], "kind": f["kind"], "name": f["name"], "range": f["range"],
            "header": _bounds(f["range"])[0], "shown": shown, "hidden": hidden}


def shown_rows_in_export(export: dict, filter_key: str | int) -> dict:
    """``shown_rows`` over an exported state (a verifier's ``ctx.final``): the same answer, from the
    exported cells' values and shown text."""
    f = export["tables"]["sheets_filters"]["records"][str(filter_key)]
    grid = {(c["row"], c["col"]): c for c in export["tables"]["sheets_cells"]["records"].values()
            if str(c["tab"]) == str(f["tab"])}
    shown, hidden = _rows(grid, f["range"], f.get("criteria") or {})
    return {"id": int(filter_key), "kind": f["kind"], "name": f.get("name"), "range": f["range"],
            "header": _bounds(f["range"])[0], "shown": shown, "hidden": hidden}


def hidden_rows(store: Store, tab_id: int, view_id: int | None = None) -> set[int]:
    """The rows the grid hides: the open filter view's, or else the tab's filter's."""
    f = active(store, tab_id, view_id)
    return set(shown_rows(store, f["id"])["hidden"]) if f else set()


# ---------------------------------------------------------------- reading
def filters(store: Store, tab_id: int) -> list[dict]:
    """A tab's filter (first) and filter views (in the order made)."""
    rows = store.select("sheets_filters", "tab=?", (tab_id,), order="id")
    return sorted(rows, key=lambda f: f["kind"] != "filter")


def tab_filter(store: Store, tab_id: int) -> dict | None:
    return next((f for f in filters(store, tab_id) if f["kind"] == "filter"), None)


def active(store: Store, tab_id: int, view_id: int | None = None) -> dict | None:
    """The open filter view (when ``view_id`` names one of this tab's), or else the tab's filter."""
    if view_id is not None:
        v = store.get("sheets_filters", view_id)
        if v is not None and v["tab"] == tab_id and v["kind"] == "view":
            return v
    return tab_filter(store, tab_id)


def views(store: Store, book_id: int) -> list[dict]:
    """Every filter view of a book, with its tab's name (Data → Filter views lists them)."""
    out = []
    for t in get_tabs(store, book_id):
        out += [{**f, "tab_name": t["name"]} for f in filters(store, t["id"]) if f["kind"] == "view"]
    return out


def get_tabs(store: Store, book_id: int) -> list[dict]:
    return store.select("sheets_tabs", "book=?", (book_id,), order="seq")


def one(store: Store, user: str, book_id: int, filter_id: int) -> dict:
    """A filter or view of a book the user can open (NotFound otherwise)."""
    get(store, user, book_id)
    if as_id(filter_id) is None:
        raise NotFound("That filter or filter view doesn't exist in this spreadsheet.")
    f = store.get("sheets_filters", filter_id)
    if f is None or f["tab"] not in {t["id"] for t in get_tabs(store, book_id)}:
        raise NotFound("That filter or filter view doesn't exist in this spreadsheet.")
    return f


# ---------------------------------------------------------------- changing
def data_region(grid: dict, r: int, c: int) -> Range:
    """The block of filled cells around (r, c), as Sheets takes it when one cell is selected."""
    top, left, bottom, right = r, c, r, c
    filled = {p for p, cl in grid.items() if (cl.get("display") or cl.get("input"))}
    grew = True
    while grew:
        grew = False
        if any((top - 1, x) in filled for x in range(left - 1, right + 2)) and top > 1:
            top, grew = top - 1, True
        if any((bottom + 1, x) in filled for x in range(left - 1, right + 2)):
            bottom, grew = bottom + 1, True
        if any((y, left - 1) in filled for y in range(top - 1, bottom + 2)) and left > 1:
            left, grew = left - 1, True
        if any((y, right + 1) in filled for y in range(top - 1, bottom + 2)):
            right, grew = right + 1, True
    return top, left, bottom, right


def _range_text(t: dict, rng: Range, store: Store) -> str:
    top, left, bottom, right = rng
    if (top, left) == (bottom, right):
        top, left, bottom, right = data_region(cells(store, t["id"]), top, left)
        bottom, right = min(bottom, t["rows"]), min(right, t["cols"])
    return f"{F.ref_name(top - 1, left - 1)}:{F.ref_name(bottom - 1, right - 1)}"


def create_filter(store: Store, caller: Caller, book_id: int, tab_id: int, rng: Range) -> int:
    """Data → Create a filter over a range (one cell: the block of data around it). One per tab."""
    book = editable(store, caller, book_id)
    t = tab(store, book_id, tab_id)
    if tab_filter(store, t["id"]):
        raise Invalid(f"The sheet “{t['name']}” already has a filter. Remove it first (Data → Remove filter).", "range")
    text = _range_text(t, rng, store)
    with store.transaction():
        record_extras(store, caller, book_id, "Create a filter")
        fid = store.insert("sheets_filters", caller.actor, tab=t["id"], kind="filter", name=None, range=text, criteria={})
        SHEETS.bump(store, caller, book)
    return fid


def remove_filter(store: Store, caller: Caller, book_id: int, tab_id: int) -> None:
    """Data → Remove filter: every row shows again."""
    book = editable(store, caller, book_id)
    t = tab(store, book_id, tab_id)
    f = tab_filter(store, t["id"])
    if f is None:
        raise Invalid(f"The sheet “{t['name']}” has no filter to remove.", "tab")
    with store.transaction():
        record_extras(store, caller, book_id, "Remove filter")
        store.delete("sheets_filters", f["id"], caller.actor)
        SHEETS.bump(store, caller, book)


def _view_name(store: Store, book_id: int, name: str | None, except_id: int | None = None) -> str:
    existing = {v["name"].lower() for v in views(store, book_id) if v["id"] != except_id}
    if name is None:
        n = 1
        while f"filter {n}" in existing:
            n += 1
        return f"Filter {n}"
    name = str(name).strip()
    if not name:
        raise Invalid("Enter a name for the filter view.", "name")
    if len(name) > 100:
        raise Invalid("Filter view names can be at most 100 characters.", "name")
    if name.lower() in existing:
        raise Invalid(f"A filter view named “{name}” already exists. Enter another name.", "name")
    return name


def create_view(store: Store, caller: Caller, book_id: int, tab_id: int, rng: Range, name: str | None = None,
                criteria: dict | None = None) -> int:
    """Data → Filter views → Create new filter view: a named, saved filter anyone can open; it hides
    rows only for whoever has it open. ``criteria`` as ``set_criteria`` takes them, by column letter."""
    book = editable(store, caller, book_id)
    t = tab(store, book_id, tab_id)
    text = _range_text(t, rng, store)
    name = _view_name(store, book_id, name)
    clean = {}
    for letter, crit in (criteria or {}).items():
        key, value = _criterion(text, letter, crit.get("hidden"), crit.get("condition"))
        if value:
            clean[key] = value
    with store.transaction():
        record_extras(store, caller, book_id, "Create filter view")
        vid = store.insert("sheets_filters", caller.actor, tab=t["id"], kind="view", name=name, range=text,
                           criteria=clean)
        SHEETS.bump(store, caller, book)
    return vid


def update_view(store: Store, caller: Caller, book_id: int, view_id: int, name: str | None = None,
                rng: Range | None = None) -> None:
    """Rename a filter view or change its range (the view's bar)."""
    book = editable(store, caller, book_id)
    v = one(store, caller.user, book_id, view_id)
    if v["kind"] != "view":
        raise Invalid("Only filter views have a name.", "view")
    change = {}
    if name is not None:
        change["name"] = _view_name(store, book_id, name, except_id=v["id"])
    if rng is not None:
        t = store.get("sheets_tabs", v["tab"])
        change["range"] = _range_text(t, rng, store)
        top, left, bottom, right = _bounds(change["range"])
        change["criteria"] = {k: c for k, c in (v["criteria"] or {}).items()
                              if left <= F.col_index(k) + 1 <= right}
    if not change:
        raise Invalid("Say what to change: the name or the range.", "name")
    with store.transaction():
        record_extras(store, caller, book_id, "Change filter view")
        store.update("sheets_filters", v["id"], caller.actor, **change)
        SHEETS.bump(store, caller, book)


def delete_view(store: Store, caller: Caller, book_id: int, view_id: int) -> None:
    book = editable(store, caller, book_id)
    v = one(store, caller.user, book_id, view_id)
    if v["kind"] != "view":
        raise Invalid("That is the sheet's filter, not a filter view: remove it with Data → Remove filter.", "view")
    with store.transaction():
        record_extras(store, caller, book_id, "Delete filter view")
        store.delete("sheets_filters", v["id"], caller.actor)
        SHEETS.bump(store, caller, book)


def _number(text) -> float:
    v = F.parse_input(str(text).strip()) if str(text).strip() else None
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise ValueError(text)
    return v


def _criterion(rng_text: str, col: str, hidden, condition) -> tuple[str, dict]:
    """A column's criteria checked: (its letter, {"hidden": [...], "condition": {...}}) — empty when none."""
    top, left, bottom, right = _bounds(rng_text)
    try:
        c = F.col_index(str(col).strip().upper()) + 1
    except ValueError:
        raise Invalid(f"“{col}” is not a column letter.", "col") from None
    if not left <= c <= right:
        raise Invalid(f"Column {str(col).upper()} is not in the filter's range {rng_text}.", "col")
    out: dict = {}
    if hidden:
        if not isinstance(hidden, (list, tuple)) or not all(isinstance(h, str) for h in hidden):
            raise Invalid("Values to hide are a list of the texts the cells show (\"\" for blanks).", "hidden")
        if len(hidden) > MAX_HIDDEN:
            raise Invalid(f"Hide at most {MAX_HIDDEN:,} values.", "hidden")
        out["hidden"] = sorted(set(hidden))
    if condition:
        out["condition"] = check_condition(condition)
    return F.col_letter(c - 1), out


def check_condition(condition, kinds: dict = CONDITIONS) -> dict:
    """A condition ({"type": one of ``kinds``, "value": ...}) checked: its value there when it needs one,
    a number when it compares numbers."""
    if not isinstance(condition, dict) or condition.get("type") not in kinds:
        raise Invalid(f"Unknown condition {condition!r}: one of {', '.join(kinds)}.", "condition")
    label, needs, numeric = kinds[condition["type"]]
    cond = {"type": condition["type"]}
    if needs:
        value = condition.get("value")
        if value is None or str(value).strip() == "":
            raise Invalid(f"“{label}” needs a value.", "value")
        if numeric:
            try:
                _number(value)
            except ValueError:
                raise Invalid(f"“{label}” compares numbers: “{value}” is not a number.", "value") from None
        cond["value"] = str(value).strip()
    return cond


def set_criteria(store: Store, caller: Caller, book_id: int, filter_id: int, col: str,
                 hidden: list[str] | None = None, condition: dict | None = None) -> dict:
    """A column's criteria in a filter or filter view (the column's filter menu, OK): ``hidden``, the
    shown texts to hide ("" for blanks), and ``condition``, {"type": one of ``CONDITIONS``, "value": ...}.
    Neither clears the column's criteria. Returns the filter as it is now."""
    book = editable(store, caller, book_id)
    f = one(store, caller.user, book_id, filter_id)
    letter, crit = _criterion(f["range"], col, hidden, condition)
    criteria = dict(f["criteria"] or {})
    if crit:
        criteria[letter] = crit
    else:
        criteria.pop(letter, None)
    with store.transaction():
        record_extras(store, caller, book_id, "Filter")
        store.update("sheets_filters", f["id"], caller.actor, criteria=criteria)
        SHEETS.bump(store, caller, book)
    return store.get("sheets_filters", f["id"])


def sort_range_of(f: dict, col: str) -> tuple[Range, int]:
    """The data rows of a filter (its range without the header) and a column's number, for sorting
    from a column's filter menu."""
    top, left, bottom, right = _bounds(f["range"])
    try:
        c = F.col_index(str(col).strip().upper()) + 1
    except ValueError:
        raise Invalid(f"“{col}” is not a column letter.", "col") from None
    if not left <= c <= right:
        raise Invalid(f"Column {col} is not in the filter's range {f['range']}.", "col")
    if bottom <= top:
        raise Invalid("The filter's range has no rows below its header to sort.", "range")
    return (top + 1, left, bottom, right), c


# ---------------------------------------------------------------- when rows and columns move
def shift(store: Store, actor: str, tab_id: int, axis: str, at: int, n: int) -> None:
    """Keep the tab's filters on their data when rows (``axis`` "row") or columns are inserted
    (``n`` > 0) before ``at`` or deleted (``n`` < 0) from ``at``: ranges move and grow or shrink, a
    column's criteria move with it (and go with it); a filter whose range is wholly deleted goes too."""
    for f in store.select("sheets_filters", "tab=?", (tab_id,)):
        rng = moved(_bounds(f["range"]), axis, at, n)
        if rng is None:
            store.delete("sheets_filters", f["id"], actor)
            continue
        if _text(*rng) == f["range"]:
            continue
        change = {"range": _text(*rng)}
        if axis == "col":
            crit = {}
            for letter, v in (f["criteria"] or {}).items():
                col = moved_line(F.col_index(letter) + 1, at, n, "inside")
                if col is not None:
                    crit[F.col_letter(col - 1)] = v
            change["criteria"] = crit
        store.update("sheets_filters", f["id"], actor, **change)
