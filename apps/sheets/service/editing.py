"""Editing cells: what was typed, formats, copy and paste; each change is one undo step."""
from __future__ import annotations

import re
from typing import Iterable

import apps.sheets.formula as F
from apps.core.errors import Invalid
from apps.core.store.db import Caller, Store
from apps.sheets.service.base import (ALIGNS, MAX_INPUT, NUMBER_TYPES, SHEETS, Range, cells, check_range, editable,
                                      engine_raw, put, tab, workbook, write_values)
from apps.sheets.service.history import record, snapshot_book, snapshot_cells


# ---------------------------------------------------------------- editing cells
def set_cells(store: Store, caller: Caller, book_id: int, tab_id: int,
              edits: dict[tuple[int, int], str | None], label: str = "Edit") -> list[dict]:
    """Write what the user typed into cells (``None`` or ``""`` clears); returns the cells of
    this tab whose input or shown value changed."""
    book = editable(store, caller, book_id)
    t = tab(store, book_id, tab_id)
    clean: dict[tuple[int, int], str | None] = {}
    for (r, c), raw in edits.items():
        check_range(t, (r, c, r, c))
        if raw is not None and not isinstance(raw, str):
            raw = str(raw)
        if raw is not None and len(raw) > MAX_INPUT:
            raise Invalid(f"A cell can hold at most {MAX_INPUT:,} characters.", "input")
        if raw is not None:
            raw = F.closed_parens(raw.replace("\r\n", "\n").replace("\r", "\n"))
        clean[(r, c)] = raw if raw not in ("", None) else None
    existing = cells(store, t["id"])
    clean = {k: v for k, v in clean.items() if (existing.get(k) or {}).get("input") != v}
    if not clean:
        return []
    with store.transaction():
        record(store, caller, book_id, label, {"cells": snapshot_cells(store, t["id"], clean)})
        wb, by_name = workbook(store, book_id)
        changed = wb.set_many(t["name"], {(r - 1, c - 1): engine_raw(raw, (existing.get((r, c)) or {}).get("format"))
                                          for (r, c), raw in clean.items()})
        changed |= {(t["name"], r - 1, c - 1) for r, c in clean}
        for (r, c), raw in clean.items():
            put(store, caller.actor, t["id"], r, c, input=raw)
        write_values(store, caller.actor, wb, by_name, changed)
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
    top, left, bottom, right = check_range(t, rng)
    targets = {(r, c): None for (r, c), cl in cells(store, t["id"]).items()
               if top <= r <= bottom and left <= c <= right and cl["input"] is not None}
    return set_cells(store, caller, book_id, tab_id, targets, "Clear") if targets else []


# ---------------------------------------------------------------- formats
def set_format(store: Store, caller: Caller, book_id: int, tab_id: int, rng: Range, **change) -> list[dict]:
    """Change the format of every cell in a range. ``change`` keys: ``type`` (a number format),
    ``decimals`` (+1/-1 steps via ``decimals_step``), ``bold``, ``italic``, ``strike``, ``wrap``
    (True/False), ``align``, ``color`` and ``fill`` (text and cell colours, "#rrggbb"; None resets) and
    ``borders`` (a preset of the Borders menu, ``BORDERS``: stored per cell as its edges, "tblr")."""
    book = editable(store, caller, book_id)
    t = tab(store, book_id, tab_id)
    top, left, bottom, right = check_range(t, rng)
    if (bottom - top + 1) * (right - left + 1) > 100_000:
        raise Invalid("Select a smaller range to format.", "range")
    if "type" in change and change["type"] not in NUMBER_TYPES:
        raise Invalid(f"Unknown number format {change['type']!r}.", "type")
    if "align" in change and change["align"] not in ALIGNS + (None,):
        raise Invalid(f"Unknown alignment {change['align']!r}.", "align")
    for key in ("color", "fill"):
        if change.get(key) is not None:
            if not isinstance(change[key], str) or not re.fullmatch(r"#[0-9a-fA-F]{6}", change[key]):
                raise Invalid(f"A {'text' if key == 'color' else 'fill'} colour is written #rrggbb "
                              f"(like #d93025), not {change[key]!r}.", key)
            change[key] = change[key].lower()
    borders = change.pop("borders", None)
    if borders is not None and borders not in BORDERS:
        raise Invalid(f"Unknown borders {borders!r}: one of {', '.join(BORDERS)}.", "borders")
    unknown = set(change) - {"type", "decimals", "decimals_step", "bold", "italic", "strike", "wrap", "align", "color",
                             "fill"}
    if unknown:
        raise Invalid(f"Unknown format {sorted(unknown)[0]!r}.", sorted(unknown)[0])
    step = change.pop("decimals_step", 0)
    existing = cells(store, t["id"])
    positions = [(r, c) for r in range(top, bottom + 1) for c in range(left, right + 1)]
    with store.transaction():
        record(store, caller, book_id, "Format", {"cells": snapshot_cells(store, t["id"], positions)})
        wb, by_name = workbook(store, book_id)
        for r, c in positions:
            fmt = dict((existing.get((r, c)) or {}).get("format") or {})
            for k, v in change.items():
                if v in (None, False) or (k == "type" and v == "auto"):
                    fmt.pop(k, None)
                else:
                    fmt[k] = v
            if borders is not None:
                edges = _edges(borders, r, c, top, left, bottom, right, fmt.get("border", ""))
                if edges:
                    fmt["border"] = edges
                else:
                    fmt.pop("border", None)
            if step:
                value = wb.value(t["name"], r - 1, c - 1)
                base = fmt.get("decimals", _default_decimals(fmt.get("type"), value))
                fmt["decimals"] = max(0, min(10, base + step))
                if fmt.get("type") in (None, "auto", "text"):
                    fmt["type"] = "number"
            put(store, caller.actor, t["id"], r, c, format=fmt)
        if "type" in change:                 # plain text or not changes what the input means
            wb, by_name = workbook(store, book_id)
            wb.recalc()
        write_values(store, caller.actor, wb, by_name,
                      None if "type" in change else {(t["name"], r - 1, c - 1) for r, c in positions})
        SHEETS.bump(store, caller, book)
    return _tab_cells(store, t["id"], set(positions) | (set(cells(store, t["id"])) if "type" in change else set()))


BORDERS = ("all", "inner", "outer", "top", "bottom", "left", "right", "none")


def _edges(preset: str, r: int, c: int, top: int, left: int, bottom: int, right: int, had: str) -> str:
    """The edges ("t", "b", "l", "r") of cell (r, c) after the Borders menu's ``preset`` over the range, as in
    Sheets: all, inner (between the cells), outer (the range's outline), one side of the range, or none."""
    outer = {"t": r == top, "b": r == bottom, "l": c == left, "r": c == right}
    if preset == "none":
        return ""
    if preset == "all":
        new = set("tblr")
    elif preset == "outer":
        new = {e for e, on in outer.items() if on}
    elif preset == "inner":
        new = {e for e, on in outer.items() if not on}
    else:
        side = preset[0]
        new = {side} if outer[side] else set()
    return "".join(e for e in "tblr" if e in new or e in had)


def _default_decimals(kind: str | None, value) -> int:
    if kind in ("number", "currency", "percent"):
        return 2
    if isinstance(value, float) and not value.is_integer():
        return min(10, len(repr(value).split(".")[1]))
    return 0


# ---------------------------------------------------------------- copy and paste
def paste_cells(store: Store, caller: Caller, book_id: int, tab_id: int, dest: tuple[int, int] | Range,
                src_tab_id: int, src: Range, *, cut: bool = False) -> list[dict]:
    """Paste a range copied in this spreadsheet: inputs with relative references shifted,
    and formats. ``dest`` is a cell, or a selected range the copy is repeated over when it
    is a whole number of copies tall and wide (one cell pasted into D2:D8 fills all seven,
    as in Sheets). A cut moves the cells instead (``_move``): references to them follow."""
    book = editable(store, caller, book_id)
    t = tab(store, book_id, tab_id)
    st = tab(store, book_id, src_tab_id)
    top, left, bottom, right = check_range(st, src)
    h, w = bottom - top + 1, right - left + 1
    r0, c0 = dest[0], dest[1]
    if cut:
        return _move(store, caller, book, t, st, (top, left, bottom, right), (r0, c0))
    reps_r = reps_c = 1
    if len(dest) == 4 and not cut:
        dh, dw = dest[2] - dest[0] + 1, dest[3] - dest[1] + 1
        if dh % h == 0 and dw % w == 0:
            reps_r, reps_c = dh // h, dw // w
    check_range(t, (r0, c0, r0 + h * reps_r - 1, c0 + w * reps_c - 1))
    wb, _ = workbook(store, book_id)
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
        snap = snapshot_cells(store, t["id"], positions) + snapshot_cells(store, st["id"], cleared)
        record(store, caller, book_id, "Cut and paste" if cut else "Paste", {"cells": snap})
        formats = {(r, c): (src_cells.get((top + (r - r0) % h, left + (c - c0) % w)) or {}).get("format") or {}
                   for r, c in positions}
        for r, c in cleared:
            put(store, caller.actor, st["id"], r, c, input=None, format={})
        for r, c in positions:
            put(store, caller.actor, t["id"], r, c, input=raws.get((r - 1, c - 1)), format=formats[(r, c)])
        wb, by_name = workbook(store, book_id)
        write_values(store, caller.actor, wb, by_name)
        SHEETS.bump(store, caller, book)
    return _tab_cells(store, t["id"], set(positions) | (set(cleared) if st["id"] == t["id"] else set()))


_TRAILING_NUMBER = re.compile(r"^(.*?)(\d+)$", re.S)


def _series(raws: list[str | None], fmts: list[dict], steps: list[int]) -> list[str | None] | None:
    """What a drag continues, at each of ``steps`` (positions past the source: 3, 4, … below two cells, or
    -1, -2, … above them), when the source is a series as Sheets sees one: numbers (two or more on their
    linear trend; one alone is copied), a date (a day a step), or text ending in a number with the same
    text before it ("Q1" → "Q2"). None: not a series, so the cells are copied."""
    if not raws or any(r is None or r.startswith(("=", "'")) for r in raws):
        return None
    vals = [F.parse_input(r) for r in raws]
    if all(type(v) in (int, float) for v in vals):
        dates = all((f or {}).get("type") == "date" for f in fmts)
        if len(vals) == 1 and not dates:
            return None
        if len(vals) == 1:
            slope, icpt = 1, vals[0]
        else:
            n = len(vals)
            mx, my = (n - 1) / 2, sum(vals) / n
            slope = sum((i - mx) * (v - my) for i, v in enumerate(vals)) / sum((i - mx) ** 2 for i in range(n))
            icpt = my - slope * mx
        out = []
        for k in steps:
            x = round(icpt + slope * k, 10)
            x = int(x) if float(x).is_integer() else x
            out.append(F.format_value(x, {"type": "date"}) if dates else str(x))
        return out
    parts = [_TRAILING_NUMBER.match(r) for r in raws]
    if all(parts) and len({m.group(1) for m in parts}) == 1 and all(isinstance(v, str) for v in vals):
        nums = [int(m.group(2)) for m in parts]
        width = len(parts[0].group(2)) if parts[0].group(2).startswith("0") else 0
        step = 1 if len(nums) == 1 else (nums[-1] - nums[0]) / (len(nums) - 1)
        if step != int(step):
            return None
        return [parts[0].group(1) + str(max(0, nums[0] + int(step) * k)).zfill(width) for k in steps]
    return None


def fill(store: Store, caller: Caller, book_id: int, tab_id: int, src: Range, dest: Range,
         series: bool = True) -> list[dict]:
    """Drag-fill (the fill handle) and Ctrl+D / Ctrl+R: ``dest`` is ``src`` extended down, up, right or
    left. Formulas are copied with their relative references moved, the source repeated as often as it
    fits; with ``series`` (the fill handle) numbers, dates and numbered text continue their series
    instead, as in Sheets. Formats come along."""
    book = editable(store, caller, book_id)
    t = tab(store, book_id, tab_id)
    top, left, bottom, right = check_range(t, src)
    dt, dl, db, dr = check_range(t, dest)
    vertical = (dl, dr) == (left, right) and dt <= top and db >= bottom and (dt, db) != (top, bottom)
    horizontal = (dt, db) == (top, bottom) and dl <= left and dr >= right and (dl, dr) != (left, right)
    if not (vertical or horizontal):
        raise Invalid(f"Fill {F.ref_name(dt - 1, dl - 1)}:{F.ref_name(db - 1, dr - 1)} from the cells at one of its "
                      f"ends: drag the fill handle straight down, up, right or left past the selection.", "range")
    if vertical and dt < top and db > bottom or horizontal and dl < left and dr > right:
        raise Invalid("Fill in one direction at a time.", "range")
    wb, _ = workbook(store, book_id)
    existing = cells(store, t["id"])
    raws, formats = {}, {}
    lines = range(left, right + 1) if vertical else range(top, bottom + 1)
    for line in lines:
        if vertical:
            src_pos = [(r, line) for r in range(top, bottom + 1)]
            new = [(r, line) for r in range(dt, db + 1) if not top <= r <= bottom]
            k_of = (lambda p: p[0] - top)
        else:
            src_pos = [(line, c) for c in range(left, right + 1)]
            new = [(line, c) for c in range(dl, dr + 1) if not left <= c <= right]
            k_of = (lambda p: p[1] - left)
        src_raw = [(existing.get(p) or {}).get("input") for p in src_pos]
        src_fmt = [(existing.get(p) or {}).get("format") or {} for p in src_pos]
        n = len(src_pos)
        cont = _series(src_raw, src_fmt, [k_of(p) for p in new]) if series else None
        for i, p in enumerate(new):
            j = k_of(p) % n
            formats[p] = src_fmt[j]
            if cont is not None:
                raws[p] = cont[i]
            else:
                raw = src_raw[j]
                sp = src_pos[j]
                raws[p] = wb.adjust_formula(raw, p[0] - sp[0], p[1] - sp[1]) if raw is not None else None
    positions = list(raws)
    if not positions:
        return []
    with store.transaction():
        record(store, caller, book_id, "Fill", {"cells": snapshot_cells(store, t["id"], positions)})
        for (r, c) in positions:
            put(store, caller.actor, t["id"], r, c, input=raws[(r, c)], format=formats[(r, c)])
        wb, by_name = workbook(store, book_id)
        write_values(store, caller.actor, wb, by_name)
        SHEETS.bump(store, caller, book)
    return _tab_cells(store, t["id"], set(positions))


def _move(store: Store, caller: Caller, book: dict, t: dict, st: dict, src: Range, at: tuple[int, int]) -> list[dict]:
    """Cut and paste, as Sheets does it: the cells move as they are (their formulas unchanged), and every
    formula in the book that referred to a moved cell — or a range wholly inside the cut — now refers to
    where it went. One undo step restores the whole book."""
    top, left, bottom, right = src
    r0, c0 = at
    h, w = bottom - top + 1, right - left + 1
    check_range(t, (r0, c0, r0 + h - 1, c0 + w - 1))
    drow, dcol = r0 - top, c0 - left
    if not drow and not dcol and t["id"] == st["id"]:
        return []
    with store.transaction():
        record(store, caller, book["id"], "Cut and paste", {"book": snapshot_book(store, book["id"])})
        wb, by_name = workbook(store, book["id"])
        wb.move_references(st["name"], top - 1, left - 1, bottom - 1, right - 1, t["name"], drow, dcol)
        for name, tb in by_name.items():           # formulas rewritten anywhere in the book
            raws = wb.cells(name)
            for c in store.select("sheets_cells", "tab=?", (tb["id"],)):
                raw = raws.get((c["row"] - 1, c["col"] - 1))
                if c["input"] is not None and c["input"].startswith("=") and raw != c["input"]:
                    store.update("sheets_cells", c["id"], caller.actor, input=raw)
        src_cells = cells(store, st["id"])
        moving = {(r, c): (wb.raw(st["name"], r - 1, c - 1), (src_cells.get((r, c)) or {}).get("format") or {})
                  for r in range(top, bottom + 1) for c in range(left, right + 1)}
        for r, c in moving:
            put(store, caller.actor, st["id"], r, c, input=None, format={})
        for (r, c), (raw, fmt) in moving.items():
            put(store, caller.actor, t["id"], r + drow, c + dcol, input=raw, format=fmt)
        wb, by_name = workbook(store, book["id"])
        write_values(store, caller.actor, wb, by_name)
        SHEETS.bump(store, caller, book)
    changed = {(r + drow, c + dcol) for r, c in moving}
    if st["id"] == t["id"]:
        changed |= set(moving)
    return _tab_cells(store, t["id"], changed | set(cells(store, t["id"])))


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
