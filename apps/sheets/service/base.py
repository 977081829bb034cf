"""Reading spreadsheets and computing their values: what the rest of the service builds on.

The constants, opening a spreadsheet (``SHEETS``, the Drive part) and its tabs
and cells, the formula engine's view of a book (``workbook``) and writing its
values back (``write_values``), and the one way a cell row is written (``put``).
"""
from __future__ import annotations

import json
from typing import Iterable

import apps.sheets.formula as F
from apps.core.errors import Forbidden, Invalid, NotFound
from apps.core.store.db import Caller, Store
from apps.drive.editors import Editor
from apps.drive.service import RANK, Role

SHEET_MIME = "application/vnd.deskworld.sheet"
KIND = "sheet"
UNTITLED = "Untitled spreadsheet"
MAX_INPUT = 50_000                      # characters in one cell (Google Sheets' limit)
MAX_ROWS, MAX_COLS = 5_000, 200
DEFAULT_ROWS, DEFAULT_COLS = 100, 26
NUMBER_TYPES = ("auto", "number", "currency", "percent", "date", "text")
ALIGNS = ("left", "center", "right")
Range = tuple[int, int, int, int]
SHEETS = Editor("sheets_books", kind=KIND, mime=SHEET_MIME, untitled=UNTITLED, noun="spreadsheet")


# ---------------------------------------------------------------- reading
def get(store: Store, user: str, book_id: int) -> dict:
    """A spreadsheet the user can open: its Drive item (with the user's role) and its tabs."""
    return {**SHEETS.open(store, user, book_id), "tabs": tabs(store, book_id)}


def tabs(store: Store, book_id: int) -> list[dict]:
    """A book's tabs, in order."""
    return store.select("sheets_tabs", "book=?", (book_id,), order="seq")


def tab(store: Store, book_id: int, tab_id: int | None = None, name: str | None = None) -> dict:
    """One tab of a book, by id or name; the first tab when neither is given."""
    ts = tabs(store, book_id)
    for t in ts:
        if (tab_id is not None and t["id"] == tab_id) or (name is not None and t["name"] == name):
            return t
    if tab_id is None and name is None and ts:
        return ts[0]
    raise NotFound("That sheet doesn't exist in this spreadsheet.")


def cells(store: Store, tab_id: int) -> dict[tuple[int, int], dict]:
    """A tab's stored cells by 1-based ``(row, col)``."""
    return {(c["row"], c["col"]): c for c in store.select("sheets_cells", "tab=?", (tab_id,))}


def cell(store: Store, book_id: int, tab_name: str, a1: str) -> dict | None:
    """The stored cell at ``a1`` of the named tab (for checks and tools), or None if empty."""
    r, c = F.parse_ref(a1)
    t = tab(store, book_id, name=tab_name)
    return store.decode("sheets_cells", store.one("SELECT * FROM sheets_cells WHERE tab=? AND row=? AND col=?",
                                                  (t["id"], r + 1, c + 1)))


def books(store: Store, user: str, q: str = "") -> list[dict]:
    """Spreadsheets the user can open, most recently modified first."""
    return SHEETS.listing(store, user, q)


def _require(book: dict, need: Role) -> None:
    """``Forbidden`` unless the user's role on an opened book is at least ``need``."""
    if RANK[book["role"]] < RANK[need]:
        raise Forbidden(f"You can only view “{book['title']}”. Ask the owner for edit access.")


def editable(store: Store, caller: Caller, book_id: int) -> dict:
    """The book opened for a change (edit access needed)."""
    book = get(store, caller.user, book_id)
    _require(book, Role.EDITOR)
    return book


# ---------------------------------------------------------------- values
def encode_value(v) -> object:
    """A computed value as stored: numbers, text, booleans, ``{"error": code}``, or None."""
    if isinstance(v, F.ErrorValue):
        return {"error": str(v), "message": getattr(v, "message", "") or ""}
    if isinstance(v, float) and v.is_integer() and abs(v) < 1e15:
        return int(v)
    return v


def engine_raw(raw: str | None, fmt: dict | None) -> str | None:
    """What the engine is given for a cell: under the plain-text format, what was typed
    stays text ("2026-03-16" is not turned into a date), as in Sheets."""
    if raw is not None and (fmt or {}).get("type") == "text" and not raw.startswith(("=", "'")):
        return "'" + raw
    return raw


def workbook(store: Store, book_id: int) -> tuple[F.Workbook, dict[str, dict]]:
    """The formula engine's workbook of a book's inputs, and the book's tabs by name."""
    ts = tabs(store, book_id)
    data: dict[str, dict[tuple[int, int], str]] = {t["name"]: {} for t in ts}
    names = {t["id"]: t["name"] for t in ts}
    for r in store.all("SELECT c.tab, c.row, c.col, c.input, c.format FROM sheets_cells c JOIN sheets_tabs t ON t.id=c.tab "
                       "WHERE t.book=? AND c.input IS NOT NULL", (book_id,)):
        fmt = json.loads(r["format"]) if r["format"] else None
        data[names[r["tab"]]][(r["row"] - 1, r["col"] - 1)] = engine_raw(r["input"], fmt)
    wb = F.Workbook(data, now=lambda: store.local(store.now()).replace(tzinfo=None))
    return wb, {t["name"]: t for t in ts}


def write_values(store: Store, actor: str, wb: F.Workbook, by_name: dict[str, dict],
                 only: Iterable[tuple[str, int, int]] | None = None) -> None:
    """Bring the derived value/display of cells in line with the workbook (``only``: these 0-based cells)."""
    if only is None:
        rows = store.all("SELECT c.* FROM sheets_cells c JOIN sheets_tabs t ON t.id=c.tab WHERE t.book=?",
                         (next(iter(by_name.values()))["book"],)) if by_name else []
        targets = [store.decode("sheets_cells", r) for r in rows]
    else:
        targets = []
        ids = {t["name"]: t["id"] for t in by_name.values()}
        for tab_name, r, c in only:
            if tab_name not in ids:
                continue
            row = store.one("SELECT * FROM sheets_cells WHERE tab=? AND row=? AND col=?", (ids[tab_name], r + 1, c + 1))
            if row is not None:
                targets.append(store.decode("sheets_cells", row))
    names = {t["id"]: t["name"] for t in by_name.values()}
    for cell_ in targets:
        v = wb.value(names[cell_["tab"]], cell_["row"] - 1, cell_["col"] - 1)
        store.update("sheets_cells", cell_["id"], actor, value=encode_value(v),
                     display=F.format_value(v, cell_["format"] or None), a1=F.ref_name(cell_["row"] - 1, cell_["col"] - 1))


def put(store: Store, actor: str, tab_id: int, row: int, col: int, **values) -> None:
    """Write input and/or format at a position, creating or dropping the cell row as needed."""
    existing = store.decode("sheets_cells", store.one(
        "SELECT * FROM sheets_cells WHERE tab=? AND row=? AND col=?", (tab_id, row, col)))
    if existing is None:
        if values.get("input") is None and not values.get("format"):
            return
        store.insert("sheets_cells", actor, tab=tab_id, row=row, col=col, a1=F.ref_name(row - 1, col - 1),
                     input=values.get("input"), format=values.get("format") or {}, value=None, display="")
        return
    merged = {**existing, **values}
    if merged["input"] is None and not merged["format"]:
        store.delete("sheets_cells", existing["id"], actor)
    else:
        store.update("sheets_cells", existing["id"], actor, **values)


def check_range(t: dict, rng: Range) -> Range:
    """A range with its corners in order, or ``Invalid`` if it leaves the tab."""
    top, left, bottom, right = rng
    if top > bottom:
        top, bottom = bottom, top
    if left > right:
        left, right = right, left
    if top < 1 or left < 1 or bottom > t["rows"] or right > t["cols"]:
        raise Invalid(f"That range is outside the sheet “{t['name']}” "
                      f"(A1:{F.ref_name(t['rows'] - 1, t['cols'] - 1)}).", "range")
    return top, left, bottom, right


def parse_range(t: dict, text: str) -> Range:
    """``"B2:D9"`` or ``"B7"`` → a 1-based range inside the tab, or Invalid."""
    try:
        top, left, bottom, right = F.parse_range((text or "").strip())
    except ValueError:
        raise Invalid(f"“{text}” is not a cell or range. Try B7 or A1:C10.", "range") from None
    return check_range(t, (top + 1, left + 1, bottom + 1, right + 1))
