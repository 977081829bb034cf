"""Reading documents, sheets and decks in an export, and vouching for the parts a check examined.

A ``python`` check that looks inside an artifact returns vouches for exactly the parts it
examined and wanted changed — the paragraph it read, the cells of the row it checked, the
slide it found — and the guard (``harness.verify.guard``) treats every other change inside
the artifact as collateral damage: an inserted paragraph, another cell, a slide added or
removed. So a check never has to say "and nothing else changed": it says what it vouches for.

    def settlement_clause_fixed(ctx):
        doc = artifacts.app_key(ctx.final, "Draft Settlement …", "doc")
        key, clause = artifacts.block_with(ctx.final, doc, "Ranking in the Limitation Proceeding")
        ok = clause is not None and "rank after" not in clause["text"]
        return ok, "…", artifacts.block_vouches(ctx, [key])
"""
from __future__ import annotations

import re

from harness.verify.guard import Vouch, _sharees

BLOCK_FIELDS = ("text", "marks", "type", "level")
CELL_FIELDS = ("input", "format")


def records(export: dict, table: str) -> dict[str, dict]:
    return export["tables"][table]["records"]


def item_key(export: dict, name: str, kind: str | None = None) -> str | None:
    """The Drive item named ``name`` (of ``kind``: doc, sheet, deck, file, folder), not trashed."""
    for k, r in records(export, "drive_items").items():
        if r["name"] == name and (kind is None or r["kind"] == kind) and not r.get("trashed"):
            return k
    return None


def ancestors(export: dict, item: str | None) -> list[str]:
    """A Drive item and the folders above it, nearest first."""
    items = records(export, "drive_items")
    out, k = [], None if item is None else str(item)
    while k is not None and k in items and k not in out:
        out.append(k)
        p = items[k].get("parent")
        k = str(p) if p is not None else None
    return out


def audience(export: dict, item: str | None) -> set[str]:
    """Who can open a Drive item: the owners of it and of every folder above it, and whoever holds a share
    on any of them (the guard's own reading)."""
    return _sharees(export, item)


APP_TABLE = {"doc": "docs_documents", "sheet": "sheets_books", "deck": "slides_decks"}


def app_key(export: dict, name: str, kind: str) -> str | None:
    """The document / spreadsheet / deck record behind the Drive item ``name``."""
    item = item_key(export, name, kind)
    if item is None:
        return None
    return next((k for k, r in records(export, APP_TABLE[kind]).items() if str(r["item"]) == item), None)


# ---------------------------------------------------------------------------- documents
def blocks(export: dict, doc: str | None) -> list[tuple[str, dict]]:
    """(key, block) of a document in order."""
    return sorted(((k, b) for k, b in records(export, "docs_blocks").items() if str(b["doc"]) == str(doc)),
                  key=lambda kb: kb[1]["seq"])


def block_with(export: dict, doc: str | None, text: str) -> tuple[str | None, dict | None]:
    """The first block of the document containing ``text``."""
    return next(((k, b) for k, b in blocks(export, doc) if text in (b["text"] or "")), (None, None))


def section(export: dict, doc: str | None, heading: str) -> list[tuple[str, dict]]:
    """The blocks under a heading, up to the next heading of the same or a higher level."""
    bs = blocks(export, doc)
    for i, (_, b) in enumerate(bs):
        if b["type"] == "heading" and (b["text"] or "").strip().lower() == heading.lower():
            out = []
            for k, nb in bs[i + 1:]:
                if nb["type"] in ("heading", "title") and nb["level"] <= b["level"]:
                    break
                out.append((k, nb))
            return out
    return []


def block_vouches(ctx, keys, *, gone=()) -> list[Vouch]:
    """Vouches for blocks: ``keys`` in the end state (an added block whole, an edited one in its
    text and formatting) and ``gone`` — blocks of the start state the check wanted removed."""
    added = ctx.added("docs_blocks")
    out = [Vouch.of("docs_blocks", k, None if str(k) in added else BLOCK_FIELDS) for k in keys if k is not None]
    return out + [Vouch.of("docs_blocks", k) for k in gone if k is not None]


BLANK = re.compile(r"\[[^\[\]\n]{1,40}\]")         # a placeholder: "[shortfall]", "[date]"


def blanks_filled(before: str, after: str) -> bool:
    """``after`` is ``before`` with some of its ``[…]`` placeholders replaced by text, nothing else
    changed (at least one placeholder, and the text around every one kept but for the spaces next
    to it: " [AC: insert rate]" may become ", namely $2,750 per gross ton,")."""
    parts = BLANK.split(before or "")
    if len(parts) < 2 or before == after:
        return False
    inner = [p.strip() if 0 < i < len(parts) - 1 else p.rstrip() if i == 0 else p.lstrip()
             for i, p in enumerate(parts)]
    pattern = "(?:.*?)".join(re.escape(p) for p in inner)
    return re.fullmatch(pattern, after or "", re.S) is not None


def progress_vouches(ctx, title: str) -> list[Vouch]:
    """Vouches for the blocks of the document ``title`` that changed only where they had blanks
    (work in progress: some of the figures filled in, the rest of each block as it was). An added
    or deleted block, or any other edit, is not vouched. For a spreadsheet ``title``, its blanks are
    its empty cells: a cell empty at the start and filled now is work in progress; a cell that had
    something in it and changed, or was cleared, is not."""
    doc = app_key(ctx.initial, title, "doc")
    if doc is None:
        return _sheet_progress(ctx, title)
    now = records(ctx.final, "docs_blocks")
    out = []
    for k, b in blocks(ctx.initial, doc):
        nb = now.get(k)
        if nb is not None and str(nb["doc"]) == str(doc) and nb.get("type") == b.get("type") \
                and nb.get("level") == b.get("level") and blanks_filled(b["text"], nb["text"]):
            out.append(Vouch.of("docs_blocks", k, ("text", "marks")))
    return out


def _sheet_progress(ctx, title: str) -> list[Vouch]:
    book = app_key(ctx.initial, title, "sheet")
    if book is None:
        return []
    tabs = {k for k, t in records(ctx.final, "sheets_tabs").items() if str(t["book"]) == str(book)}
    was = records(ctx.initial, "sheets_cells")
    out = []
    for k, c in records(ctx.final, "sheets_cells").items():
        if str(c.get("tab")) not in tabs or c.get("input") in (None, ""):
            continue
        before = was.get(k)
        if before is None or before.get("input") in (None, ""):
            out.append(Vouch.of("sheets_cells", k))
    return out


# ---------------------------------------------------------------------------- sheets
def tab_key(export: dict, book: str | None, name: str) -> str | None:
    return next((k for k, t in records(export, "sheets_tabs").items()
                 if str(t["book"]) == str(book) and t["name"] == name), None)


def cells(export: dict, tab: str | None) -> dict[str, tuple[str, dict]]:
    """The cells of a tab by address: {"D3": (key, cell)}."""
    return {c["a1"]: (k, c) for k, c in records(export, "sheets_cells").items() if str(c["tab"]) == str(tab)}


def cell_value(kc: tuple[str, dict] | None):
    """What a cell (a ``(key, cell)`` of ``cells``/``rows``, or None) shows: its computed value."""
    return None if kc is None else kc[1].get("value")


def cell_input(kc: tuple[str, dict] | None) -> str:
    """What was typed in a cell: a number, text or "=formula", as text ("" for none)."""
    return "" if kc is None else str(kc[1].get("input") or "")


def cell_format(kc: tuple[str, dict] | None) -> dict:
    return (kc[1].get("format") or {}) if kc else {}


def number(v) -> float | None:
    """A cell value as a number, or None for text, blanks and booleans."""
    return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else None


def rows(export: dict, tab: str | None) -> dict[int, dict[str, tuple[str, dict]]]:
    """The cells of a tab by row and column letter: {3: {"D": (key, cell)}}."""
    out: dict[int, dict] = {}
    for a1, kc in cells(export, tab).items():
        col, row = re.match(r"([A-Z]+)(\d+)", a1).groups()
        out.setdefault(int(row), {})[col] = kc
    return out


def cell_vouches(ctx, tab: str | None, addresses, *, moved: bool = False) -> list[Vouch]:
    """Vouches for the cells of ``tab`` at ``addresses`` (as they are at the end): an added cell
    whole, an existing one in what was typed and its format (and its position with ``moved``:
    a sort). Cells the check wanted cleared are vouched by the same addresses."""
    end = cells(ctx.final, tab)
    start = cells(ctx.initial, tab)
    added = ctx.added("sheets_cells")
    fields = CELL_FIELDS + (("row", "col") if moved else ())
    out = []
    for a1 in addresses:
        if a1 in end:
            k = end[a1][0]
            out.append(Vouch.of("sheets_cells", k, None if k in added else fields))
        elif a1 in start:
            out.append(Vouch.of("sheets_cells", start[a1][0]))
    return out


def tab_vouches(ctx, tab: str | None, fields=("widths",)) -> list[Vouch]:
    """A tab's own fields (column widths when a column is inserted)."""
    return [Vouch.of("sheets_tabs", tab, fields)] if tab is not None else []


# ---------------------------------------------------------------------------- decks
def slides(export: dict, deck: str | None) -> list[dict]:
    """The deck's slides in order: {"key", "seq", "layout", "notes", "boxes": {role: text}, "box_keys": {role: key}}."""
    out = [{"key": k, **s, "boxes": {}, "box_keys": {}} for k, s in records(export, "slides_slides").items()
           if str(s["deck"]) == str(deck)]
    by = {s["key"]: s for s in out}
    for bk, b in records(export, "slides_boxes").items():
        s = by.get(str(b["slide"]))
        if s is not None:
            s["boxes"][b["role"]] = b["text"] or ""
            s["box_keys"][b["role"]] = bk
    return sorted(out, key=lambda s: s["seq"])


def slide_titled(export: dict, deck: str | None, title: str) -> dict | None:
    return next((s for s in slides(export, deck) if s["boxes"].get("title", "").strip() == title), None)


def slide_vouches(ctx, slide: dict | None, *, fields=None, boxes=()) -> list[Vouch]:
    """A slide (whole with ``fields`` None: added or removed; else those fields, e.g. notes, seq)
    and the text of some of its boxes (by role)."""
    if slide is None:
        return []
    out = [Vouch.of("slides_slides", slide["key"], fields)] if fields != () else []
    out += [Vouch.of("slides_boxes", slide["box_keys"][r], ("text",)) for r in boxes if r in slide["box_keys"]]
    return out


def conditional_styles(export: dict, book: str, tab: str) -> dict[str, dict]:
    """The cells of a tab that its conditional-format rules format, as the grid shows them: {"F3": style}
    (``apps.sheets.service.conditional.formatted`` over the exported rules and cells)."""
    from apps.sheets.formula.a1 import ref_name
    from apps.sheets.service.conditional import formatted
    tab_key = tab_key_of(export, book, tab)
    rules = sorted(({**r, "id": int(k)} for k, r in records(export, "sheets_conditional").items()
                    if str(r["tab"]) == str(tab_key)), key=lambda r: r["id"])
    if not rules:
        return {}
    grid = {(c["row"], c["col"]): c for c in records(export, "sheets_cells").values() if str(c["tab"]) == str(tab_key)}
    styled = formatted(rules, grid, lambda: workbook(export, book), tab)
    return {ref_name(r - 1, c - 1): style for (r, c), style in styled.items()}


def tab_key_of(export: dict, book: str, tab: str) -> str | None:
    """The tab named ``tab`` of the spreadsheet titled ``book``."""
    return tab_key(export, app_key(export, book, "sheet"), tab)


# ---------------------------------------------------------------------------- formulas that follow their inputs
def workbook(export: dict, book: str):
    """The spreadsheet ``book`` (a title) as the sheet engine's Workbook of what was typed in each cell."""
    from apps.sheets.formula.workbook import Workbook
    key = app_key(export, book, "sheet")
    tabs = {t["name"]: {} for _, t in sorted(records(export, "sheets_tabs").items(), key=lambda kt: kt[1].get("seq", 0))
            if str(t["book"]) == str(key)}
    for name in tabs:
        for _, c in cells(export, tab_key(export, key, name)).values():
            if c.get("input") not in (None, ""):
                tabs[name][(int(c["row"]) - 1, int(c["col"]) - 1)] = str(c["input"])
    return Workbook(tabs)


def follows(export: dict, book: str, target: tuple[str, str], expect, inputs: list[tuple[str, str]],
            *, tolerance: float = 0.006) -> str | None:
    """Why the cell ``target`` ((tab, "G3")) does not compute ``expect(values)`` when the numbers in
    ``inputs`` change, or None. Each input is moved up and then down in turn and the book recomputed by the
    sheet engine; ``expect`` gets {(tab, a1): number} of the inputs as they then are. So a formula that
    only names an input ("=424.49+0*FX!B2", "=IF(FX!B2>0,424.49,0)") or a figure typed in pieces
    ("=D2*0+16.2*10*10*10") is found out: it doesn't follow."""
    from apps.sheets.formula.a1 import parse_ref
    wb = workbook(export, book)
    row, col = parse_ref(target[1])

    def now() -> dict[tuple[str, str], float]:
        out = {}
        for tab, a1 in inputs:
            v = wb.value(tab, *parse_ref(a1))
            out[(tab, a1)] = number(v)
        return out

    base = now()
    for (tab, a1), v in base.items():
        if v is None:
            continue
        r, c = parse_ref(a1)
        raw = wb.raw(tab, r, c)
        for moved in (v * 1.1 + 0.5, v * 0.85 - 0.25):
            wb.set(tab, r, c, repr(moved))
            got, want = number(wb.value(target[0], row, col)), expect(now())
            wb.set(tab, r, c, raw)
            if got is None or abs(got - want) > tolerance:
                return f"with {tab}!{a1} at {moved:.6g}, {target[0]}!{target[1]} gives {got!r}, not {want:.6g}"
    return None
