"""Sheets tools: list spreadsheets, read a range, write cells, clear, add a tab.

A spreadsheet is named by its id or its title (see ``drive.app_ref``); a
tab by its name (default: the first); cells in A1 notation.
"""
from __future__ import annotations

from apps.common.errors import Invalid
from apps.common.store.db import Caller, Store
from apps.sheets import formula as F
from apps.sheets import service as sheets
from harness.tools.drive import app_ref
from harness.tools.registry import read, write

MAX_CELLS = 10_000          # one read; a bigger range floods an agent's context


def _open(store: Store, user: str, book: str | int, tab: str | None) -> tuple[dict, dict]:
    b = sheets.get(store, user, app_ref(store, user, "sheet", book))
    return b, sheets.tab(store, b["id"], name=tab)


def get(store: Store, user: str, book: str | int, range_: str | None = None, tab: str | None = None) -> dict:
    """Read a range of a spreadsheet: `rows` holds what each cell shows (formatted, formulas computed),
    `formulas` the formula behind each computed cell. Without a range, the tab's whole used area."""
    b, t = _open(store, user, book, tab)
    cells = sheets.cells(store, t["id"])
    if range_ is None:
        bottom = max((r for r, _ in cells), default=1)
        right = max((c for _, c in cells), default=1)
        top, left = 1, 1
    else:
        top, left, bottom, right = sheets.parse_range(t, range_)
    if (bottom - top + 1) * (right - left + 1) > MAX_CELLS:
        raise Invalid(f"That is more than {MAX_CELLS:,} cells; read a smaller range.", "range")
    shown = [[(cells.get((r, c)) or {}).get("display", "") for c in range(left, right + 1)]
             for r in range(top, bottom + 1)]
    formulas = {cl["a1"]: cl["input"] for (r, c), cl in sorted(cells.items())
                if top <= r <= bottom and left <= c <= right and (cl["input"] or "").startswith("=")}
    return {"book": b["id"], "title": b["title"], "tab": t["name"], "tabs": [x["name"] for x in b["tabs"]],
            "range": f"{F.ref_name(top - 1, left - 1)}:{F.ref_name(bottom - 1, right - 1)}",
            "rows": shown, "formulas": formulas}


def set_cells(store: Store, caller: Caller, book: str | int, values: dict[str, str | int | float | bool | None],
              tab: str | None = None) -> list[dict]:
    """Type into cells, as a person would: numbers, text, dates, or formulas starting with `=`;
    null or "" clears a cell. One undoable change. Returns every cell of the tab whose value changed
    (formulas that depend on the edits included)."""
    b, t = _open(store, caller.user, book, tab)
    edits = {}
    for a1, value in values.items():
        r, c = F.parse_ref(a1.strip().upper())
        edits[(r + 1, c + 1)] = sheets.input_text(value)
    return sheets.set_cells(store, caller, b["id"], t["id"], edits)


def clear(store: Store, caller: Caller, book: str | int, range_: str, tab: str | None = None) -> list[dict]:
    """Clear the contents (not the formatting) of a range. Returns the cells whose value changed."""
    b, t = _open(store, caller.user, book, tab)
    return sheets.clear(store, caller, b["id"], t["id"], sheets.parse_range(t, range_))


def add_tab(store: Store, caller: Caller, book: str | int, name: str | None = None) -> dict:
    """Add a tab (sheet) at the end of a spreadsheet. Returns its id and name."""
    book_id = app_ref(store, caller.user, "sheet", book)
    tab_id = sheets.add_tab(store, caller, book_id, name)
    return {"id": tab_id, "name": sheets.tab(store, book_id, tab_id)["name"]}


BOOK = "The spreadsheet's id or title (see sheets.list)."
TAB = "The tab's name (default: the first tab)."

TOOLS = [
    read(sheets.books, "sheets.list", "Spreadsheets the user can open, most recently changed first: id (`ref`), "
         "title (`name`), owner, who it is shared with.", args={"q": "Only titles containing this."}),
    read(get, "sheets.get", args={"book": BOOK, "range_": "A range like A1:D10, or one cell like B7.", "tab": TAB}),
    write(set_cells, "sheets.set_cells",
          args={"book": BOOK, "values": "Cell → what to type, e.g. {\"B2\": \"1200\", \"C2\": \"=B2*2\"}.",
                "tab": TAB}),
    write(clear, "sheets.clear", args={"book": BOOK, "range_": "A range like A1:D10.", "tab": TAB}),
    write(add_tab, "sheets.add_tab", args={"book": BOOK, "name": "The new tab's name (default: SheetN)."}),
    write(sheets.create, "sheets.create", "Create a spreadsheet in My Drive (or a folder). Returns its id.",
          args={"parent": "A Drive folder id; null for My Drive.", "title": "The title.",
                "data": "Tabs: tab name → rows of cell values, e.g. {\"Sheet1\": [[\"Name\", \"Amount\"], "
                        "[\"Rent\", 1200]]}."}),
]
