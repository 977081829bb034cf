"""Changes that move cells: rows and columns inserted, deleted, added or sorted, and
tabs added, renamed, deleted; with column widths and frozen rows. Formulas
everywhere follow the cells they point at; each change is one undo step.
"""
from __future__ import annotations

import apps.sheets.formula as F
from apps.core.errors import Invalid
from apps.core.store.db import Caller, Store
from apps.sheets.service.base import (DEFAULT_COLS, DEFAULT_ROWS, MAX_COLS, MAX_ROWS, SHEETS, Range, cells,
                                      check_range, editable, put, tab, tabs, workbook, write_values)
from apps.sheets.service.history import record, snapshot_book, snapshot_extras
from apps.sheets.service.charts import shift as _shift_charts
from apps.sheets.service.filters import shift as _shift_filters
from apps.sheets.service.merges import shift as _shift_merges
from apps.sheets.service.conditional import shift as _shift_rules
from apps.sheets.service.ranges import drop_tab as _drop_extras


# ---------------------------------------------------------------- structure
def _structural(store: Store, caller: Caller, book_id: int, label: str):
    """Context for a change that moves cells: snapshot the book for undo, then resync values."""
    book = editable(store, caller, book_id)
    record(store, caller, book_id, label, {"book": snapshot_book(store, book_id), "extras": snapshot_extras(store, book_id)})
    return book


def _sync_inputs(store: Store, actor: str, wb: F.Workbook, by_name: dict[str, dict]) -> None:
    """Write the engine's (rewritten) formula text back to every cell that changed."""
    for name, t in by_name.items():
        raws = wb.cells(name)
        for c in store.select("sheets_cells", "tab=?", (t["id"],)):
            raw = raws.get((c["row"] - 1, c["col"] - 1))
            if c["input"] is not None and c["input"].startswith("=") and raw != c["input"]:
                store.update("sheets_cells", c["id"], actor, input=raw)


def insert_rows(store: Store, caller: Caller, book_id: int, tab_id: int, at: int, n: int = 1) -> None:
    """Insert ``n`` empty rows before row ``at`` (1-based); formulas everywhere follow their cells."""
    t = tab(store, book_id, tab_id)
    if not 1 <= at <= t["rows"] + 1 or not 1 <= n <= 1000 or t["rows"] + n > MAX_ROWS:
        raise Invalid("Rows can't be inserted there.", "at")
    with store.transaction():
        book = _structural(store, caller, book_id, "Insert rows")
        wb, by_name = workbook(store, book_id)
        wb.insert_rows(t["name"], at - 1, n)
        for c in store.select("sheets_cells", "tab=? AND row>=?", (t["id"], at), order="row DESC"):
            store.update("sheets_cells", c["id"], caller.actor, row=c["row"] + n, a1=F.ref_name(c["row"] + n - 1, c["col"] - 1))
        # New rows take the formatting of the row above, as in Sheets.
        for c in store.select("sheets_cells", "tab=? AND row=?", (t["id"], at - 1)):
            fmt = {k: v for k, v in (c["format"] or {}).items()}
            if fmt and at > t["frozen"]:
                for r in range(at, at + n):
                    put(store, caller.actor, t["id"], r, c["col"], format=fmt)
        store.update("sheets_tabs", t["id"], caller.actor, rows=t["rows"] + n)
        _follow(store, caller.actor, t["id"], "row", at, n)
        _finish_structural(store, caller, book, wb, by_name)


def delete_rows(store: Store, caller: Caller, book_id: int, tab_id: int, at: int, n: int = 1) -> None:
    t = tab(store, book_id, tab_id)
    if not 1 <= at <= t["rows"] or n < 1 or at + n - 1 > t["rows"]:
        raise Invalid("Those rows aren't in the sheet.", "at")
    if n >= t["rows"]:
        raise Invalid("You can't delete all the rows in a sheet.", "at")
    with store.transaction():
        book = _structural(store, caller, book_id, "Delete rows")
        wb, by_name = workbook(store, book_id)
        wb.delete_rows(t["name"], at - 1, n)
        for c in store.select("sheets_cells", "tab=? AND row>=? AND row<?", (t["id"], at, at + n)):
            store.delete("sheets_cells", c["id"], caller.actor)
        for c in store.select("sheets_cells", "tab=? AND row>=?", (t["id"], at + n), order="row"):
            store.update("sheets_cells", c["id"], caller.actor, row=c["row"] - n, a1=F.ref_name(c["row"] - n - 1, c["col"] - 1))
        store.update("sheets_tabs", t["id"], caller.actor, rows=t["rows"] - n,
                     frozen=min(t["frozen"], max(0, t["rows"] - n)))
        _follow(store, caller.actor, t["id"], "row", at, -n)
        _finish_structural(store, caller, book, wb, by_name)


def insert_cols(store: Store, caller: Caller, book_id: int, tab_id: int, at: int, n: int = 1) -> None:
    t = tab(store, book_id, tab_id)
    if not 1 <= at <= t["cols"] + 1 or not 1 <= n <= 100 or t["cols"] + n > MAX_COLS:
        raise Invalid("Columns can't be inserted there.", "at")
    with store.transaction():
        book = _structural(store, caller, book_id, "Insert columns")
        wb, by_name = workbook(store, book_id)
        wb.insert_cols(t["name"], at - 1, n)
        for c in store.select("sheets_cells", "tab=? AND col>=?", (t["id"], at), order="col DESC"):
            store.update("sheets_cells", c["id"], caller.actor, col=c["col"] + n, a1=F.ref_name(c["row"] - 1, c["col"] + n - 1))
        for c in store.select("sheets_cells", "tab=? AND col=?", (t["id"], at - 1)):
            if c["format"]:
                for col in range(at, at + n):
                    put(store, caller.actor, t["id"], c["row"], col, format=dict(c["format"]))
        widths = _shift_widths(t["widths"], at, n)
        store.update("sheets_tabs", t["id"], caller.actor, cols=t["cols"] + n, widths=widths)
        _follow(store, caller.actor, t["id"], "col", at, n)
        _finish_structural(store, caller, book, wb, by_name)


def delete_cols(store: Store, caller: Caller, book_id: int, tab_id: int, at: int, n: int = 1) -> None:
    t = tab(store, book_id, tab_id)
    if not 1 <= at <= t["cols"] or n < 1 or at + n - 1 > t["cols"]:
        raise Invalid("Those columns aren't in the sheet.", "at")
    if n >= t["cols"]:
        raise Invalid("You can't delete all the columns in a sheet.", "at")
    with store.transaction():
        book = _structural(store, caller, book_id, "Delete columns")
        wb, by_name = workbook(store, book_id)
        wb.delete_cols(t["name"], at - 1, n)
        for c in store.select("sheets_cells", "tab=? AND col>=? AND col<?", (t["id"], at, at + n)):
            store.delete("sheets_cells", c["id"], caller.actor)
        for c in store.select("sheets_cells", "tab=? AND col>=?", (t["id"], at + n), order="col"):
            store.update("sheets_cells", c["id"], caller.actor, col=c["col"] - n, a1=F.ref_name(c["row"] - 1, c["col"] - n - 1))
        store.update("sheets_tabs", t["id"], caller.actor, cols=t["cols"] - n, widths=_shift_widths(t["widths"], at, -n))
        _follow(store, caller.actor, t["id"], "col", at, -n)
        _finish_structural(store, caller, book, wb, by_name)


def _follow(store: Store, actor: str, tab_id: int, axis: str, at: int, n: int) -> None:
    """The tab's filters, charts, merged blocks and conditional-format rules follow inserted or deleted lines."""
    for shift in (_shift_filters, _shift_charts, _shift_merges, _shift_rules):
        shift(store, actor, tab_id, axis, at, n)


def _shift_widths(widths: dict, at: int, n: int) -> dict:
    out = {}
    for letter, w in (widths or {}).items():
        i = F.col_index(letter) + 1
        if n < 0 and at <= i < at - n:
            continue
        out[F.col_letter((i + n if i >= at else i) - 1)] = w
    return out


def _finish_structural(store: Store, caller: Caller, book: dict, wb: F.Workbook, by_name: dict) -> None:
    by_name = {t["name"]: t for t in tabs(store, book["id"])}
    _sync_inputs(store, caller.actor, wb, by_name)
    wb.recalc()
    write_values(store, caller.actor, wb, by_name)
    SHEETS.bump(store, caller, book)


def add_rows(store: Store, caller: Caller, book_id: int, tab_id: int, n: int = 100) -> None:
    """Grow the grid at the bottom ("Add 100 more rows")."""
    book = editable(store, caller, book_id)
    t = tab(store, book_id, tab_id)
    if not 1 <= n <= 1000 or t["rows"] + n > MAX_ROWS:
        raise Invalid(f"A sheet can have at most {MAX_ROWS:,} rows here.", "n")
    with store.transaction():
        store.update("sheets_tabs", t["id"], caller.actor, rows=t["rows"] + n)
        SHEETS.bump(store, caller, book)


def sort_range(store: Store, caller: Caller, book_id: int, tab_id: int, rng: Range, by_col: int,
               ascending: bool = True) -> None:
    """Sort the rows of a range by one of its columns, like Data → Sort range: numbers before
    text before booleans, blanks last either way; formats travel with their rows and relative
    references move with the row (as a cut and paste would)."""
    t = tab(store, book_id, tab_id)
    top, left, bottom, right = check_range(t, rng)
    if not left <= by_col <= right:
        raise Invalid("Sort by a column inside the range.", "col")
    with store.transaction():
        book = _structural(store, caller, book_id, "Sort range")
        wb, by_name = workbook(store, book_id)
        rows = list(range(top, bottom + 1))

        def key(r: int):
            v = wb.value(t["name"], r - 1, by_col - 1)
            if v is None or v == "":
                return (1, 0, 0)
            rank = 0 if isinstance(v, (int, float)) and not isinstance(v, bool) else 2 if isinstance(v, bool) else 1
            if isinstance(v, F.ErrorValue):
                rank, v = 3, str(v)
            return (0, rank, v.lower() if isinstance(v, str) else v)

        filled = [r for r in rows if key(r)[0] == 0]
        blank = [r for r in rows if key(r)[0] == 1]
        order = sorted(filled, key=key, reverse=not ascending) + blank
        if not ascending:       # reverse=True would reverse ties too; keep the sort stable
            order = sorted(filled, key=lambda r: _Desc(key(r))) + blank
        grid = cells(store, t["id"])
        moves = {}
        for new_r, old_r in zip(rows, order):
            for c in range(left, right + 1):
                src = grid.get((old_r, c))
                if src is None:
                    continue
                raw = src["input"]
                if raw is not None and raw.startswith("=") and new_r != old_r:
                    raw = wb.adjust_formula(raw, new_r - old_r, 0)
                moves[src["id"]] = (new_r, c, raw)
        for cid, (r, c, raw) in moves.items():       # park, then place: positions never collide
            store.update("sheets_cells", cid, caller.actor, row=-r)
        for cid, (r, c, raw) in moves.items():
            store.update("sheets_cells", cid, caller.actor, row=r, input=raw, a1=F.ref_name(r - 1, c - 1))
        wb, by_name = workbook(store, book_id)
        _finish_structural(store, caller, book, wb, by_name)


class _Desc:
    """Sort key wrapper that orders descending while ``sorted`` stays stable."""
    __slots__ = ("k",)

    def __init__(self, k):
        self.k = k

    def __lt__(self, other: "_Desc") -> bool:
        return other.k < self.k


# ---------------------------------------------------------------- tabs
def _tab_name(store: Store, book_id: int, name: str, except_id: int | None = None) -> str:
    name = (name or "").strip()
    if not name:
        raise Invalid("Enter a name for the sheet.", "name")
    if len(name) > 100:
        raise Invalid("Sheet names can be at most 100 characters.", "name")
    if any(ch in name for ch in "[]*?/\\:"):
        raise Invalid("Sheet names can't contain [ ] * ? / \\ or :", "name")
    for t in tabs(store, book_id):
        if t["name"].lower() == name.lower() and t["id"] != except_id:
            raise Invalid(f"A sheet named “{name}” already exists. Enter another name.", "name")
    return name


def add_tab(store: Store, caller: Caller, book_id: int, name: str | None = None) -> int:
    book = editable(store, caller, book_id)
    ts = tabs(store, book_id)
    if name is None:
        n = len(ts) + 1
        existing = {t["name"].lower() for t in ts}
        while f"sheet{n}" in existing:
            n += 1
        name = f"Sheet{n}"
    name = _tab_name(store, book_id, name)
    with store.transaction():
        record(store, caller, book_id, "Add sheet", {"book": snapshot_book(store, book_id)})
        tid = store.insert("sheets_tabs", caller.actor, book=book_id, seq=len(ts) + 1, name=name,
                           rows=DEFAULT_ROWS, cols=DEFAULT_COLS, frozen=0, widths={})
        wb, by_name = workbook(store, book_id)
        write_values(store, caller.actor, wb, by_name)      # formulas that named it now resolve
        SHEETS.bump(store, caller, book)
    return tid


def rename_tab(store: Store, caller: Caller, book_id: int, tab_id: int, name: str) -> None:
    t = tab(store, book_id, tab_id)
    name = _tab_name(store, book_id, name, except_id=t["id"])
    if name == t["name"]:
        return
    with store.transaction():
        book = _structural(store, caller, book_id, "Rename sheet")
        wb, by_name = workbook(store, book_id)
        wb.rename_tab(t["name"], name)
        store.update("sheets_tabs", t["id"], caller.actor, name=name)
        _finish_structural(store, caller, book, wb, by_name)


def delete_tab(store: Store, caller: Caller, book_id: int, tab_id: int) -> None:
    t = tab(store, book_id, tab_id)
    ts = tabs(store, book_id)
    if len(ts) == 1:
        raise Invalid("A spreadsheet needs at least one sheet.", "tab")
    with store.transaction():
        book = _structural(store, caller, book_id, "Delete sheet")
        wb, by_name = workbook(store, book_id)
        wb.delete_tab(t["name"])
        for c in store.select("sheets_cells", "tab=?", (t["id"],)):
            store.delete("sheets_cells", c["id"], caller.actor)
        _drop_extras(store, caller.actor, t["id"])
        store.delete("sheets_tabs", t["id"], caller.actor)
        for i, other in enumerate(x for x in ts if x["id"] != t["id"]):
            store.update("sheets_tabs", other["id"], caller.actor, seq=i + 1)
        _finish_structural(store, caller, book, wb, by_name)


def set_width(store: Store, caller: Caller, book_id: int, tab_id: int, col: int, width: int) -> None:
    book = editable(store, caller, book_id)
    t = tab(store, book_id, tab_id)
    if not 1 <= col <= t["cols"]:
        raise Invalid("That column isn't in the sheet.", "col")
    width = max(20, min(1000, int(width)))
    widths = dict(t["widths"] or {})
    widths[F.col_letter(col - 1)] = width
    with store.transaction():
        store.update("sheets_tabs", t["id"], caller.actor, widths=widths)
        SHEETS.bump(store, caller, book)


def set_frozen(store: Store, caller: Caller, book_id: int, tab_id: int, rows: int) -> None:
    book = editable(store, caller, book_id)
    t = tab(store, book_id, tab_id)
    if not 0 <= rows <= min(10, t["rows"] - 1):
        raise Invalid("Freeze up to 10 rows.", "rows")
    with store.transaction():
        store.update("sheets_tabs", t["id"], caller.actor, frozen=rows)
        SHEETS.bump(store, caller, book)
