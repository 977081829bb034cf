"""Sheets service layer: spreadsheets, tabs, cells, formats, structure, undo.

A spreadsheet is a Drive item of kind ``sheet`` (name, owner, folder, sharing
are Drive's; ``SHEETS`` opens, lists, creates, renames it, see
``apps.drive.editors``) plus tabs and cells. Every change goes through here: the GUI
routes, the oracles and the checks all call these functions. Values are
computed by ``apps.sheets.formula`` and written next to the inputs (derived
fields), so whoever reads the store sees what the grid shows.

Addresses in this module are 1-based ``(row, col)``; the formula engine is
0-based. Ranges are ``(top, left, bottom, right)``, inclusive.

Undo is server-side: each change records the cells (and for structural
changes, the tabs) it is about to touch, with their row keys, in
``sheets_history``; undo puts them back under the same keys, so a sheet
edited and undone is the sheet it was, row for row.
"""
from __future__ import annotations

import csv
import io
import json
from typing import Iterable

import apps.sheets.formula as F
from apps.core.errors import Forbidden, Invalid, NotFound
from apps.core.files import stamped_zip
from apps.core.store.db import Caller, Store
from apps.core.text import html_json
from apps.drive import service as drive
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
    if RANK[book["role"]] < RANK[need]:
        raise Forbidden(f"You can only view “{book['title']}”. Ask the owner for edit access.")


def _editable(store: Store, caller: Caller, book_id: int) -> dict:
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


def _workbook(store: Store, book_id: int) -> tuple[F.Workbook, dict[str, dict]]:
    ts = tabs(store, book_id)
    data: dict[str, dict[tuple[int, int], str]] = {t["name"]: {} for t in ts}
    names = {t["id"]: t["name"] for t in ts}
    for r in store.all("SELECT c.tab, c.row, c.col, c.input, c.format FROM sheets_cells c JOIN sheets_tabs t ON t.id=c.tab "
                       "WHERE t.book=? AND c.input IS NOT NULL", (book_id,)):
        fmt = json.loads(r["format"]) if r["format"] else None
        data[names[r["tab"]]][(r["row"] - 1, r["col"] - 1)] = engine_raw(r["input"], fmt)
    wb = F.Workbook(data, now=lambda: store.local(store.now()).replace(tzinfo=None))
    return wb, {t["name"]: t for t in ts}


def _write_values(store: Store, actor: str, wb: F.Workbook, by_name: dict[str, dict],
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


def _put(store: Store, actor: str, tab_id: int, row: int, col: int, **values) -> None:
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


def _check_range(t: dict, rng: Range) -> Range:
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
    return _check_range(t, (top + 1, left + 1, bottom + 1, right + 1))


# ---------------------------------------------------------------- undo log
def _snapshot_cells(store: Store, tab_id: int, positions: Iterable[tuple[int, int]]) -> list:
    out = []
    for r, c in positions:
        row = store.decode("sheets_cells", store.one("SELECT * FROM sheets_cells WHERE tab=? AND row=? AND col=?",
                                                     (tab_id, r, c)))
        out.append([tab_id, r, c, row and {"id": row["id"], "input": row["input"], "format": row["format"]}])
    return out


def _snapshot_book(store: Store, book_id: int) -> dict:
    ts = tabs(store, book_id)
    cs = store.all("SELECT c.* FROM sheets_cells c JOIN sheets_tabs t ON t.id=c.tab WHERE t.book=?", (book_id,))
    return {"tabs": ts, "cells": [{k: store.decode("sheets_cells", r)[k] for k in ("id", "tab", "row", "col", "input", "format")}
                                  for r in cs]}


def _record(store: Store, caller: Caller, book_id: int, label: str, before: dict) -> None:
    """Remember how to undo the change about to be made; a new change ends the redo chain."""
    store.conn.execute("DELETE FROM sheets_history WHERE book=? AND stack='redo'", (book_id,))
    seq = (store.scalar("SELECT max(seq) FROM sheets_history WHERE book=?", (book_id,)) or 0) + 1
    store.insert("sheets_history", caller.actor, book=book_id, seq=seq, stack="undo", label=label,
                 before=before)
    old = store.all("SELECT id FROM sheets_history WHERE book=? AND stack='undo' ORDER BY seq DESC LIMIT -1 OFFSET 100",
                    (book_id,))
    for r in old:
        store.delete("sheets_history", r["id"], caller.actor)


def _restore(store: Store, caller: Caller, book_id: int, before: dict) -> dict:
    """Put cells (and tabs) back as recorded; returns the matching record of how they are now."""
    if "book" in before:
        now = _snapshot_book(store, book_id)
        snap = before["book"]
        keep = {t["id"] for t in snap["tabs"]}
        for t in tabs(store, book_id):
            if t["id"] not in keep:
                for c in store.select("sheets_cells", "tab=?", (t["id"],)):
                    store.delete("sheets_cells", c["id"], caller.actor)
                store.delete("sheets_tabs", t["id"], caller.actor)
        for t in snap["tabs"]:
            fields = {k: t[k] for k in ("book", "seq", "name", "rows", "cols", "frozen", "widths")}
            if store.get("sheets_tabs", t["id"]):
                store.update("sheets_tabs", t["id"], caller.actor, **fields)
            else:
                store.reinsert("sheets_tabs", t["id"], caller.actor, **fields)
        want = {c["id"]: c for c in snap["cells"]}
        current = store.all("SELECT c.id FROM sheets_cells c JOIN sheets_tabs t ON t.id=c.tab WHERE t.book=?", (book_id,))
        for r in current:
            if r["id"] not in want:
                store.delete("sheets_cells", r["id"], caller.actor)
        # Two passes so that moving cells never collide on a position.
        for cid, c in want.items():
            fields = {"tab": c["tab"], "row": c["row"], "col": c["col"], "input": c["input"], "format": c["format"]}
            if store.get("sheets_cells", cid):
                store.update("sheets_cells", cid, caller.actor, **fields)
            else:
                store.reinsert("sheets_cells", cid, caller.actor, a1=F.ref_name(c["row"] - 1, c["col"] - 1),
                               display="", value=None, **fields)
        return {"book": now}
    now_cells = []
    for tab_id, r, c, was in before["cells"]:
        now_cells += _snapshot_cells(store, tab_id, [(r, c)])
        row = store.one("SELECT id FROM sheets_cells WHERE tab=? AND row=? AND col=?", (tab_id, r, c))
        if was is None:
            if row is not None:
                store.delete("sheets_cells", row["id"], caller.actor)
        elif row is not None:
            store.update("sheets_cells", row["id"], caller.actor, input=was["input"], format=was["format"])
        elif store.get("sheets_cells", was["id"]) is None:
            store.reinsert("sheets_cells", was["id"], caller.actor, tab=tab_id, row=r, col=c, input=was["input"],
                           format=was["format"], a1=F.ref_name(r - 1, c - 1), value=None, display="")
        else:
            _put(store, caller.actor, tab_id, r, c, input=was["input"], format=was["format"])
    return {"cells": now_cells}


def _step(store: Store, caller: Caller, book_id: int, from_stack: str, to_stack: str) -> str | None:
    book = _editable(store, caller, book_id)
    # Undo takes the latest change; redo the change undone last, which is the earliest on its stack.
    order = "DESC" if from_stack == "undo" else "ASC"
    row = store.one(f"SELECT * FROM sheets_history WHERE book=? AND stack=? ORDER BY seq {order} LIMIT 1",
                    (book_id, from_stack))
    if row is None:
        return None
    entry = store.decode("sheets_history", row)
    with store.transaction():
        now = _restore(store, caller, book_id, entry["before"])
        store.update("sheets_history", entry["id"], caller.actor, stack=to_stack, before=now)
        wb, by_name = _workbook(store, book_id)
        _write_values(store, caller.actor, wb, by_name)
        SHEETS.bump(store, caller, book)
    return entry["label"]


def undo(store: Store, caller: Caller, book_id: int) -> str | None:
    """Undo the last change; returns its label, or None when there is nothing to undo."""
    return _step(store, caller, book_id, "undo", "redo")


def redo(store: Store, caller: Caller, book_id: int) -> str | None:
    return _step(store, caller, book_id, "redo", "undo")


# ---------------------------------------------------------------- editing cells
def set_cells(store: Store, caller: Caller, book_id: int, tab_id: int,
              edits: dict[tuple[int, int], str | None], label: str = "Edit") -> list[dict]:
    """Write what the user typed into cells (``None`` or ``""`` clears); returns the cells of
    this tab whose input or shown value changed."""
    book = _editable(store, caller, book_id)
    t = tab(store, book_id, tab_id)
    clean: dict[tuple[int, int], str | None] = {}
    for (r, c), raw in edits.items():
        _check_range(t, (r, c, r, c))
        if raw is not None and not isinstance(raw, str):
            raw = str(raw)
        if raw is not None and len(raw) > MAX_INPUT:
            raise Invalid(f"A cell can hold at most {MAX_INPUT:,} characters.", "input")
        if raw is not None:
            raw = raw.replace("\r\n", "\n").replace("\r", "\n")
        clean[(r, c)] = raw if raw not in ("", None) else None
    existing = cells(store, t["id"])
    clean = {k: v for k, v in clean.items() if (existing.get(k) or {}).get("input") != v}
    if not clean:
        return []
    with store.transaction():
        _record(store, caller, book_id, label, {"cells": _snapshot_cells(store, t["id"], clean)})
        wb, by_name = _workbook(store, book_id)
        changed = wb.set_many(t["name"], {(r - 1, c - 1): engine_raw(raw, (existing.get((r, c)) or {}).get("format"))
                                          for (r, c), raw in clean.items()})
        changed |= {(t["name"], r - 1, c - 1) for r, c in clean}
        for (r, c), raw in clean.items():
            _put(store, caller.actor, t["id"], r, c, input=raw)
        _write_values(store, caller.actor, wb, by_name, changed)
        SHEETS.bump(store, caller, book)
    return _tab_cells(store, t["id"], {(r + 1, c + 1) for name, r, c in changed if name == t["name"]})


def _tab_cells(store: Store, tab_id: int, positions: Iterable[tuple[int, int]]) -> list[dict]:
    out = []
    for r, c in sorted(positions):
        row = store.decode("sheets_cells", store.one("SELECT * FROM sheets_cells WHERE tab=? AND row=? AND col=?",
                                                     (tab_id, r, c)))
        out.append(row or {"row": r, "col": c, "input": None, "format": {}, "value": None, "display": "",
                           "a1": F.ref_name(r - 1, c - 1)})
    return out


def clear(store: Store, caller: Caller, book_id: int, tab_id: int, rng: Range) -> list[dict]:
    """Delete the contents (not the formats) of a range."""
    t = tab(store, book_id, tab_id)
    top, left, bottom, right = _check_range(t, rng)
    targets = {(r, c): None for (r, c), cl in cells(store, t["id"]).items()
               if top <= r <= bottom and left <= c <= right and cl["input"] is not None}
    return set_cells(store, caller, book_id, tab_id, targets, "Clear") if targets else []


# ---------------------------------------------------------------- formats
def set_format(store: Store, caller: Caller, book_id: int, tab_id: int, rng: Range, **change) -> list[dict]:
    """Change the format of every cell in a range. ``change`` keys: ``type`` (a number format),
    ``decimals`` (+1/-1 steps via ``decimals_step``), ``bold`` (True/False), ``align``."""
    book = _editable(store, caller, book_id)
    t = tab(store, book_id, tab_id)
    top, left, bottom, right = _check_range(t, rng)
    if (bottom - top + 1) * (right - left + 1) > 100_000:
        raise Invalid("Select a smaller range to format.", "range")
    if "type" in change and change["type"] not in NUMBER_TYPES:
        raise Invalid(f"Unknown number format {change['type']!r}.", "type")
    if "align" in change and change["align"] not in ALIGNS + (None,):
        raise Invalid(f"Unknown alignment {change['align']!r}.", "align")
    step = change.pop("decimals_step", 0)
    existing = cells(store, t["id"])
    positions = [(r, c) for r in range(top, bottom + 1) for c in range(left, right + 1)]
    with store.transaction():
        _record(store, caller, book_id, "Format", {"cells": _snapshot_cells(store, t["id"], positions)})
        wb, by_name = _workbook(store, book_id)
        for r, c in positions:
            fmt = dict((existing.get((r, c)) or {}).get("format") or {})
            for k, v in change.items():
                if v in (None, False) or (k == "type" and v == "auto"):
                    fmt.pop(k, None)
                else:
                    fmt[k] = v
            if step:
                value = wb.value(t["name"], r - 1, c - 1)
                base = fmt.get("decimals", _default_decimals(fmt.get("type"), value))
                fmt["decimals"] = max(0, min(10, base + step))
                if fmt.get("type") in (None, "auto", "text"):
                    fmt["type"] = "number"
            _put(store, caller.actor, t["id"], r, c, format=fmt)
        if "type" in change:                 # plain text or not changes what the input means
            wb, by_name = _workbook(store, book_id)
            wb.recalc()
        _write_values(store, caller.actor, wb, by_name,
                      None if "type" in change else {(t["name"], r - 1, c - 1) for r, c in positions})
        SHEETS.bump(store, caller, book)
    return _tab_cells(store, t["id"], set(positions) | (set(cells(store, t["id"])) if "type" in change else set()))


def _default_decimals(kind: str | None, value) -> int:
    if kind in ("number", "currency", "percent"):
        return 2
    if isinstance(value, float) and not value.is_integer():
        return min(10, len(repr(value).split(".")[1]))
    return 0


# ---------------------------------------------------------------- structure
def _structural(store: Store, caller: Caller, book_id: int, label: str):
    """Context for a change that moves cells: snapshot the book for undo, then resync values."""
    book = _editable(store, caller, book_id)
    _record(store, caller, book_id, label, {"book": _snapshot_book(store, book_id)})
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
        wb, by_name = _workbook(store, book_id)
        wb.insert_rows(t["name"], at - 1, n)
        for c in store.select("sheets_cells", "tab=? AND row>=?", (t["id"], at), order="row DESC"):
            store.update("sheets_cells", c["id"], caller.actor, row=c["row"] + n, a1=F.ref_name(c["row"] + n - 1, c["col"] - 1))
        # New rows take the formatting of the row above, as in Sheets.
        for c in store.select("sheets_cells", "tab=? AND row=?", (t["id"], at - 1)):
            fmt = {k: v for k, v in (c["format"] or {}).items()}
            if fmt and at > t["frozen"]:
                for r in range(at, at + n):
                    _put(store, caller.actor, t["id"], r, c["col"], format=fmt)
        store.update("sheets_tabs", t["id"], caller.actor, rows=t["rows"] + n)
        _finish_structural(store, caller, book, wb, by_name)


def delete_rows(store: Store, caller: Caller, book_id: int, tab_id: int, at: int, n: int = 1) -> None:
    t = tab(store, book_id, tab_id)
    if not 1 <= at <= t["rows"] or n < 1 or at + n - 1 > t["rows"]:
        raise Invalid("Those rows aren't in the sheet.", "at")
    if n >= t["rows"]:
        raise Invalid("You can't delete all the rows in a sheet.", "at")
    with store.transaction():
        book = _structural(store, caller, book_id, "Delete rows")
        wb, by_name = _workbook(store, book_id)
        wb.delete_rows(t["name"], at - 1, n)
        for c in store.select("sheets_cells", "tab=? AND row>=? AND row<?", (t["id"], at, at + n)):
            store.delete("sheets_cells", c["id"], caller.actor)
        for c in store.select("sheets_cells", "tab=? AND row>=?", (t["id"], at + n), order="row"):
            store.update("sheets_cells", c["id"], caller.actor, row=c["row"] - n, a1=F.ref_name(c["row"] - n - 1, c["col"] - 1))
        store.update("sheets_tabs", t["id"], caller.actor, rows=t["rows"] - n,
                     frozen=min(t["frozen"], max(0, t["rows"] - n)))
        _finish_structural(store, caller, book, wb, by_name)


def insert_cols(store: Store, caller: Caller, book_id: int, tab_id: int, at: int, n: int = 1) -> None:
    t = tab(store, book_id, tab_id)
    if not 1 <= at <= t["cols"] + 1 or not 1 <= n <= 100 or t["cols"] + n > MAX_COLS:
        raise Invalid("Columns can't be inserted there.", "at")
    with store.transaction():
        book = _structural(store, caller, book_id, "Insert columns")
        wb, by_name = _workbook(store, book_id)
        wb.insert_cols(t["name"], at - 1, n)
        for c in store.select("sheets_cells", "tab=? AND col>=?", (t["id"], at), order="col DESC"):
            store.update("sheets_cells", c["id"], caller.actor, col=c["col"] + n, a1=F.ref_name(c["row"] - 1, c["col"] + n - 1))
        for c in store.select("sheets_cells", "tab=? AND col=?", (t["id"], at - 1)):
            if c["format"]:
                for col in range(at, at + n):
                    _put(store, caller.actor, t["id"], c["row"], col, format=dict(c["format"]))
        widths = _shift_widths(t["widths"], at, n)
        store.update("sheets_tabs", t["id"], caller.actor, cols=t["cols"] + n, widths=widths)
        _finish_structural(store, caller, book, wb, by_name)


def delete_cols(store: Store, caller: Caller, book_id: int, tab_id: int, at: int, n: int = 1) -> None:
    t = tab(store, book_id, tab_id)
    if not 1 <= at <= t["cols"] or n < 1 or at + n - 1 > t["cols"]:
        raise Invalid("Those columns aren't in the sheet.", "at")
    if n >= t["cols"]:
        raise Invalid("You can't delete all the columns in a sheet.", "at")
    with store.transaction():
        book = _structural(store, caller, book_id, "Delete columns")
        wb, by_name = _workbook(store, book_id)
        wb.delete_cols(t["name"], at - 1, n)
        for c in store.select("sheets_cells", "tab=? AND col>=? AND col<?", (t["id"], at, at + n)):
            store.delete("sheets_cells", c["id"], caller.actor)
        for c in store.select("sheets_cells", "tab=? AND col>=?", (t["id"], at + n), order="col"):
            store.update("sheets_cells", c["id"], caller.actor, col=c["col"] - n, a1=F.ref_name(c["row"] - 1, c["col"] - n - 1))
        store.update("sheets_tabs", t["id"], caller.actor, cols=t["cols"] - n, widths=_shift_widths(t["widths"], at, -n))
        _finish_structural(store, caller, book, wb, by_name)


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
    _write_values(store, caller.actor, wb, by_name)
    SHEETS.bump(store, caller, book)


def add_rows(store: Store, caller: Caller, book_id: int, tab_id: int, n: int = 100) -> None:
    """Grow the grid at the bottom ("Add 100 more rows")."""
    book = _editable(store, caller, book_id)
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
    top, left, bottom, right = _check_range(t, rng)
    if not left <= by_col <= right:
        raise Invalid("Sort by a column inside the range.", "col")
    with store.transaction():
        book = _structural(store, caller, book_id, "Sort range")
        wb, by_name = _workbook(store, book_id)
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
        wb, by_name = _workbook(store, book_id)
        _finish_structural(store, caller, book, wb, by_name)


class _Desc:
    """Sort key wrapper that orders descending while ``sorted`` stays stable."""
    __slots__ = ("k",)

    def __init__(self, k):
        self.k = k

    def __lt__(self, other: "_Desc") -> bool:
        return other.k < self.k


# ---------------------------------------------------------------- copy and paste
def paste_cells(store: Store, caller: Caller, book_id: int, tab_id: int, dest: tuple[int, int] | Range,
                src_tab_id: int, src: Range, *, cut: bool = False) -> list[dict]:
    """Paste a range copied in this spreadsheet: inputs with relative references shifted,
    and formats. ``dest`` is a cell, or a selected range the copy is repeated over when it
    is a whole number of copies tall and wide (one cell pasted into D2:D8 fills all seven,
    as in Sheets). A cut clears the source (references to it are not rewritten)."""
    book = _editable(store, caller, book_id)
    t = tab(store, book_id, tab_id)
    st = tab(store, book_id, src_tab_id)
    top, left, bottom, right = _check_range(st, src)
    h, w = bottom - top + 1, right - left + 1
    r0, c0 = dest[0], dest[1]
    reps_r = reps_c = 1
    if len(dest) == 4 and not cut:
        dh, dw = dest[2] - dest[0] + 1, dest[3] - dest[1] + 1
        if dh % h == 0 and dw % w == 0:
            reps_r, reps_c = dh // h, dw // w
    _check_range(t, (r0, c0, r0 + h * reps_r - 1, c0 + w * reps_c - 1))
    wb, _ = _workbook(store, book_id)
    raws = {}
    for i in range(reps_r):
        for j in range(reps_c):
            rr, cc = r0 + i * h, c0 + j * w
            block = wb.copy_range(st["name"], top - 1, left - 1, bottom - 1, right - 1, rr - 1, cc - 1)
            raws.update(block)
    src_cells = cells(store, st["id"])
    positions = [(r0 + i, c0 + j) for i in range(h * reps_r) for j in range(w * reps_c)]
    cleared = [(r, c) for r in range(top, bottom + 1) for c in range(left, right + 1)
               if cut and (st["id"] != t["id"] or (r, c) not in positions)]
    with store.transaction():
        snap = _snapshot_cells(store, t["id"], positions) + _snapshot_cells(store, st["id"], cleared)
        _record(store, caller, book_id, "Cut and paste" if cut else "Paste", {"cells": snap})
        formats = {(r, c): (src_cells.get((top + (r - r0) % h, left + (c - c0) % w)) or {}).get("format") or {}
                   for r, c in positions}
        for r, c in cleared:
            _put(store, caller.actor, st["id"], r, c, input=None, format={})
        for r, c in positions:
            _put(store, caller.actor, t["id"], r, c, input=raws.get((r - 1, c - 1)), format=formats[(r, c)])
        wb, by_name = _workbook(store, book_id)
        _write_values(store, caller.actor, wb, by_name)
        SHEETS.bump(store, caller, book)
    return _tab_cells(store, t["id"], set(positions) | (set(cleared) if st["id"] == t["id"] else set()))


def paste_text(store: Store, caller: Caller, book_id: int, tab_id: int, dest: tuple[int, int], text: str) -> list[dict]:
    """Paste tab-separated text (from another program) starting at ``dest``; grows nothing."""
    rows = [line.split("\t") for line in (text or "").replace("\r\n", "\n").rstrip("\n").split("\n")]
    if not text or not any(any(v for v in row) for row in rows):
        raise Invalid("There's nothing to paste.", "text")
    t = tab(store, book_id, tab_id)
    r0, c0 = dest
    h, w = len(rows), max(len(r) for r in rows)
    if r0 + h - 1 > t["rows"] or c0 + w - 1 > t["cols"]:
        raise Invalid(f"The pasted data ({h} × {w}) doesn't fit below and right of "
                      f"{F.ref_name(r0 - 1, c0 - 1)}. Add rows or columns first.", "text")
    edits = {(r0 + i, c0 + j): v for i, row in enumerate(rows) for j, v in enumerate(row)}
    return set_cells(store, caller, book_id, tab_id, edits, "Paste")


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
    book = _editable(store, caller, book_id)
    ts = tabs(store, book_id)
    if name is None:
        n = len(ts) + 1
        existing = {t["name"].lower() for t in ts}
        while f"sheet{n}" in existing:
            n += 1
        name = f"Sheet{n}"
    name = _tab_name(store, book_id, name)
    with store.transaction():
        _record(store, caller, book_id, "Add sheet", {"book": _snapshot_book(store, book_id)})
        tid = store.insert("sheets_tabs", caller.actor, book=book_id, seq=len(ts) + 1, name=name,
                           rows=DEFAULT_ROWS, cols=DEFAULT_COLS, frozen=0, widths={})
        wb, by_name = _workbook(store, book_id)
        _write_values(store, caller.actor, wb, by_name)      # formulas that named it now resolve
        SHEETS.bump(store, caller, book)
    return tid


def rename_tab(store: Store, caller: Caller, book_id: int, tab_id: int, name: str) -> None:
    t = tab(store, book_id, tab_id)
    name = _tab_name(store, book_id, name, except_id=t["id"])
    if name == t["name"]:
        return
    with store.transaction():
        book = _structural(store, caller, book_id, "Rename sheet")
        wb, by_name = _workbook(store, book_id)
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
        wb, by_name = _workbook(store, book_id)
        wb.delete_tab(t["name"])
        for c in store.select("sheets_cells", "tab=?", (t["id"],)):
            store.delete("sheets_cells", c["id"], caller.actor)
        store.delete("sheets_tabs", t["id"], caller.actor)
        for i, other in enumerate(x for x in ts if x["id"] != t["id"]):
            store.update("sheets_tabs", other["id"], caller.actor, seq=i + 1)
        _finish_structural(store, caller, book, wb, by_name)


def set_width(store: Store, caller: Caller, book_id: int, tab_id: int, col: int, width: int) -> None:
    book = _editable(store, caller, book_id)
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
    book = _editable(store, caller, book_id)
    t = tab(store, book_id, tab_id)
    if not 0 <= rows <= min(10, t["rows"] - 1):
        raise Invalid("Freeze up to 10 rows.", "rows")
    with store.transaction():
        store.update("sheets_tabs", t["id"], caller.actor, frozen=rows)
        SHEETS.bump(store, caller, book)


# ---------------------------------------------------------------- whole spreadsheets
def create(store: Store, caller: Caller, parent: int | None = None, title: str = UNTITLED,
           data: dict[str, list[list]] | None = None) -> int:
    """A new spreadsheet in a folder (``None`` = My Drive); ``data``: tab name -> rows of inputs."""
    with store.transaction():
        book_id = SHEETS.create(store, caller, parent, title)
        for i, (name, rows) in enumerate((data or {"Sheet1": []}).items()):
            width = max([len(r) for r in rows] + [0])
            tid = store.insert("sheets_tabs", caller.actor, book=book_id, seq=i + 1, name=name,
                               rows=max(DEFAULT_ROWS, len(rows) + 20), cols=max(DEFAULT_COLS, width),
                               frozen=1 if rows and len(rows) > 1 and all(isinstance(v, str) for v in rows[0] if v != "") else 0,
                               widths={})
            for r, row in enumerate(rows, start=1):
                for c, v in enumerate(row, start=1):
                    raw = input_text(v)
                    if raw is not None:
                        store.insert("sheets_cells", caller.actor, tab=tid, row=r, col=c, input=raw, format={},
                                     a1=F.ref_name(r - 1, c - 1), value=None, display="")
        wb, by_name = _workbook(store, book_id)
        _write_values(store, caller.actor, wb, by_name)
    return book_id


def input_text(v) -> str | None:
    """A value from a world file, CSV or workbook as the text a user would have typed."""
    if v is None or v == "":
        return None
    if isinstance(v, bool):
        return "TRUE" if v else "FALSE"
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v)


def import_rows(name: str, data: bytes) -> dict[str, list[list]]:
    """Tabs of rows from a .csv or .xlsx file (the bytes of a Drive file)."""
    low = name.lower()
    if low.endswith(".csv") or low.endswith(".tsv"):
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise Invalid("That file isn't UTF-8 text, so it can't be opened as a spreadsheet.", "file") from None
        rows = list(csv.reader(io.StringIO(text), delimiter="\t" if low.endswith(".tsv") else ","))
        return {"Sheet1": rows}
    if low.endswith(".xlsx"):
        from openpyxl import load_workbook
        try:
            wbk = load_workbook(io.BytesIO(data), data_only=False)
        except Exception:
            raise Invalid("That .xlsx file couldn't be read.", "file") from None
        out = {}
        for ws in wbk.worksheets:
            out[ws.title] = [[("" if v is None else v) for v in row] for row in ws.iter_rows(values_only=True)]
        return out
    raise Invalid("Only .csv, .tsv and .xlsx files open in Sheets.", "file")


def open_file_in_sheets(store: Store, caller: Caller, item_id: int) -> int:
    """Drive's "Open with Google Sheets" on a CSV/XLSX file: a converted copy next to it
    (or in My Drive when the folder isn't yours to add to)."""
    from apps.core.files import blob_bytes
    item = drive.get(store, caller.user, item_id)
    if item["kind"] != drive.FILE:
        raise Invalid("Only files can be opened with Sheets.", "item")
    data = import_rows(item["name"], blob_bytes(store, item["blob"]))
    title = item["name"].rsplit(".", 1)[0]
    parent = item["parent"]
    if parent is not None and RANK[drive.get(store, caller.user, parent)["role"]] < RANK[Role.EDITOR]:
        parent = None
    return create(store, caller, parent, title, data)


# ---------------------------------------------------------------- export
def csv_bytes(store: Store, user: str, book_id: int, tab_id: int | None = None) -> bytes:
    """One tab as CSV of what the grid shows (Google Sheets' File → Download → .csv)."""
    get(store, user, book_id)
    t = tab(store, book_id, tab_id)
    grid = cells(store, t["id"])
    if not grid:
        return b""
    h = max(r for r, _ in grid)
    w = max(c for _, c in grid)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    for r in range(1, h + 1):
        writer.writerow([(grid.get((r, c)) or {}).get("display", "") for c in range(1, w + 1)])
    return out.getvalue().encode("utf-8")


XLSX_FORMATS = {"number": "#,##0.00", "currency": '"$"#,##0.00', "percent": "0.00%", "date": "yyyy-mm-dd",
                "text": "@"}


def xlsx_bytes(store: Store, user: str, book_id: int) -> bytes:
    """The whole spreadsheet as .xlsx: formulas, cached values, number formats, bold, widths."""
    from openpyxl import Workbook
    from openpyxl.styles import Font
    book = get(store, user, book_id)
    wbk = Workbook()
    wbk.remove(wbk.active)
    for t in book["tabs"]:
        ws = wbk.create_sheet(t["name"])
        for (r, c), cl in sorted(cells(store, t["id"]).items()):
            target = ws.cell(row=r, column=c)
            raw = cl["input"]
            if raw is not None:
                if raw.startswith("="):
                    target.value = raw
                else:
                    v = cl["value"]
                    target.value = v if not isinstance(v, dict) else raw
            fmt = cl["format"] or {}
            if fmt.get("type") in XLSX_FORMATS:
                code = XLSX_FORMATS[fmt["type"]]
                if "decimals" in fmt and fmt["type"] in ("number", "currency", "percent"):
                    dec = "." + "0" * fmt["decimals"] if fmt["decimals"] else ""
                    code = {"number": f"#,##0{dec}", "currency": f'"$"#,##0{dec}', "percent": f"0{dec}%"}[fmt["type"]]
                target.number_format = code
            if fmt.get("bold"):
                target.font = Font(bold=True)
        for letter, w in (t["widths"] or {}).items():
            ws.column_dimensions[letter].width = round(w / 7, 1)
        if t["frozen"]:
            ws.freeze_panes = ws.cell(row=t["frozen"] + 1, column=1)
    wbk.properties.creator = book["item"].get("owner_name") or book["item"]["owner"]
    stamp = store.now().replace(tzinfo=None)                     # world time: byte-stable downloads
    wbk.properties.created = wbk.properties.modified = stamp
    buf = io.BytesIO()
    wbk.save(buf)
    return stamped_zip(buf.getvalue(), stamp)


def grid_json(store: Store, tab_id: int) -> str:
    """What the editor's script needs about a tab: inputs and formats by address, as JSON
    for the page's ``<script type="application/json">`` (see ``html_json``)."""
    data = {}
    for (r, c), cl in cells(store, tab_id).items():
        entry = {}
        if cl["input"] is not None:
            entry["i"] = cl["input"]
        if cl["format"]:
            entry["f"] = cl["format"]
        if isinstance(cl["value"], dict):
            entry["e"] = cl["value"].get("message") or cl["value"]["error"]
        data[F.ref_name(r - 1, c - 1)] = entry
    return html_json(data)             # in a <script>: a cell's "<!--<script>" must stay text
