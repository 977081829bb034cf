"""Sheets tools: list spreadsheets, read a range, write cells, clear, format, sort, insert and delete
rows and columns, add a tab, open a CSV or Excel file as a spreadsheet, filters and filter views, charts, conditional formatting (and merging, in format).

A spreadsheet is named by its id or its title (see ``drive.app_ref``); a
tab by its name (default: the first); cells in A1 notation.
"""
from __future__ import annotations

from typing import Literal

from apps.core.errors import Invalid
from apps.core.store.db import Caller, Store
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
    `formulas` the formula behind each computed cell. Without a range, the tab's whole used area. A tab
    with a filter or filter views lists them in `filters` (criteria, and the rows each shows and hides),
    one with charts in `charts`."""
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
    out = {"book": b["id"], "title": b["title"], "tab": t["name"], "tabs": [x["name"] for x in b["tabs"]],
           "range": f"{F.ref_name(top - 1, left - 1)}:{F.ref_name(bottom - 1, right - 1)}",
           "rows": shown, "formulas": formulas}
    chs = sheets.charts(store, t["id"])
    if chs:                 # the tab's charts: settings and what each plots
        out["charts"] = [{k: d[k] for k in ("id", "type", "title", "legend", "range", "anchor", "categories", "series")}
                         for d in (sheets.chart_data(store, c["id"]) for c in chs)]
    flts = sheets.filters(store, t["id"])
    if flts:                # the tab's filter and filter views, with the rows each shows and hides
        out["filters"] = [_shown(store, f) for f in flts]
    return out


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


def _span(text: str, field: str) -> tuple[str, int, int]:
    """``"12"`` / ``"12:14"`` → ("rows", 12, 3); ``"E"`` / ``"E:F"`` → ("columns", 5, 2): 1-based first, count."""
    parts = [p.strip().upper() for p in str(text).split(":")]
    parts = parts * 2 if len(parts) == 1 else parts
    try:
        if len(parts) == 2 and all(p.isdigit() for p in parts):
            a, b = sorted(int(p) for p in parts)
            if a >= 1:
                return "rows", a, b - a + 1
        if len(parts) == 2 and all(p.isalpha() for p in parts):
            a, b = sorted(F.col_index(p) + 1 for p in parts)
            return "columns", a, b - a + 1
    except ValueError:
        pass
    raise Invalid(f"“{text}” is not a row or a column: give a row number like 12 (or 12:14) or column "
                  "letters like E (or E:F).", field)


def insert(store: Store, caller: Caller, book: str | int, before: str, count: int = 1, tab: str | None = None) -> dict:
    """Insert empty rows or columns, as Insert → Rows above / Columns left does: before a row number
    (`12`) or a column letter (`E`). Cells below or to the right move, and every formula that refers to
    them follows (a SUM over the block grows when you insert inside it). Returns what was inserted."""
    b, t = _open(store, caller.user, book, tab)
    kind, at, _ = _span(before, "before")
    fn = sheets.insert_rows if kind == "rows" else sheets.insert_cols
    fn(store, caller, b["id"], t["id"], at, count)
    first = str(at) if kind == "rows" else F.col_letter(at - 1)
    last = str(at + count - 1) if kind == "rows" else F.col_letter(at + count - 2)
    return {"tab": t["name"], "inserted": kind, "span": first if count == 1 else f"{first}:{last}"}


def delete(store: Store, caller: Caller, book: str | int, span: str, tab: str | None = None) -> dict:
    """Delete whole rows or columns (their cells go; what is below or to the right moves up or left and
    formulas follow; references to deleted cells become #REF!). Returns what was deleted."""
    b, t = _open(store, caller.user, book, tab)
    kind, at, n = _span(span, "span")
    fn = sheets.delete_rows if kind == "rows" else sheets.delete_cols
    fn(store, caller, b["id"], t["id"], at, n)
    return {"tab": t["name"], "deleted": kind, "span": span}


def sort(store: Store, caller: Caller, book: str | int, range_: str, by: str, descending: bool = False,
         tab: str | None = None) -> list[list]:
    """Sort the rows of a range by one of its columns, like Data → Sort range (leave header and total
    rows out of the range): numbers before text, blanks last; whole rows of the range move together
    with their formats, and formulas move with their rows. Returns the range as it now shows."""
    b, t = _open(store, caller.user, book, tab)
    rng = sheets.parse_range(t, range_)
    try:
        col = F.col_index(by.strip()) + 1
    except ValueError:
        raise Invalid(f"“{by}” is not a column letter.", "by") from None
    sheets.sort_range(store, caller, b["id"], t["id"], rng, col, ascending=not descending)
    grid = sheets.cells(store, t["id"])
    top, left, bottom, right = rng
    return [[(grid.get((r, c)) or {}).get("display", "") for c in range(left, right + 1)]
            for r in range(top, bottom + 1)]


def set_format(store: Store, caller: Caller, book: str | int, range_: str,
               type_: Literal["auto", "number", "currency", "percent", "date", "text"] | None = None,
               decimals: int | None = None, bold: bool | None = None,
               align: Literal["left", "center", "right"] | None = None, tab: str | None = None,
               italic: bool | None = None, strike: bool | None = None, wrap: bool | None = None,
               color: str | None = None, fill: str | None = None,
               borders: Literal["all", "inner", "outer", "top", "bottom", "left", "right", "none"] | None = None,
               merge: Literal["all", "horizontal", "vertical", "none"] | None = None) -> list[dict]:
    """Format every cell of a range, as the Format menu and the toolbar do: a number format, decimal
    places, bold / italic / strikethrough / wrap on or off, alignment, text and fill colours (#rrggbb, or
    "" to reset), borders, and merging (Format → Merge cells: all, horizontal, vertical — only the top-left
    value stays — or none to unmerge). What you leave out stays as it is. Returns the cells as they now show."""
    b, t = _open(store, caller.user, book, tab)
    change = {k: v for k, v in {"type": type_, "decimals": decimals, "bold": bold, "align": align, "italic": italic,
                                "strike": strike, "wrap": wrap, "borders": borders}.items() if v is not None}
    for key, v in (("color", color), ("fill", fill)):
        if v is not None:
            change[key] = v or None
    if not change and merge is None:
        raise Invalid("Say which format to set (type, decimals, bold, italic, colours, borders, align or merge).", "type")
    top, left, bottom, right = sheets.parse_range(t, range_)
    cells = []
    if merge == "none":
        sheets.unmerge(store, caller, b["id"], t["id"], (top, left, bottom, right))
    elif merge is not None:
        sheets.merge(store, caller, b["id"], t["id"], (top, left, bottom, right), merge)
    if change:
        cells = sheets.set_format(store, caller, b["id"], t["id"], (top, left, bottom, right), **change)
    else:
        grid = sheets.cells(store, t["id"])
        cells = [grid[p] for p in sorted(grid) if top <= p[0] <= bottom and left <= p[1] <= right]
    return [{"a1": c["a1"], "display": c["display"], "format": c["format"]} for c in cells
            if top <= c["row"] <= bottom and left <= c["col"] <= right]


def import_file(store: Store, caller: Caller, item_id: int) -> dict:
    """Open a CSV, TSV or Excel file from Drive as a new Google Sheet (Drive's Open with → Google
    Sheets): a converted copy next to the file (or in My Drive when you can't add to its folder).
    Returns the new spreadsheet's id, title, Drive item and tabs."""
    book_id = sheets.open_file_in_sheets(store, caller, item_id)
    b = sheets.get(store, caller.user, book_id)
    return {"id": book_id, "title": b["title"], "item_id": b["item"]["id"], "tabs": [x["name"] for x in b["tabs"]]}


# ---------------------------------------------------------------- filters and filter views
Condition = Literal["empty", "not_empty", "text_contains", "text_not_contains", "text_starts_with", "text_ends_with",
                    "text_is", "gt", "gte", "lt", "lte", "eq", "neq"]


def _shown(store: Store, f: dict) -> dict:
    out = sheets.shown_rows(store, f["id"])
    return {**out, "criteria": store.get("sheets_filters", f["id"])["criteria"]}


def filter_rows(store: Store, caller: Caller, book: str | int, range_: str | None = None, column: str | None = None,
                hidden_values: list[str] | None = None, condition: Condition | None = None, value: str | None = None,
                view: str | None = None, remove: bool = False, tab: str | None = None) -> dict:
    """Filter a tab's rows, as Data → Create a filter and a column's filter menu do, or build a named filter
    view (Data → Filter views: saved, anyone can open it, it hides rows only while open). The tab's filter
    (or the view named `view`) is created over `range_` (header row first) when it doesn't exist yet; then
    `column`'s criteria are set: `hidden_values` (Filter by values: the texts the cells show, "" for blanks)
    and/or a `condition` with its `value` (Filter by condition); neither clears the column. `remove` removes
    the filter (or the view). Returns the rows it shows and hides."""
    b, t = _open(store, caller.user, book, tab)
    existing = None
    if view is not None:
        existing = next((v for v in sheets.views(store, b["id"]) if v["name"].lower() == str(view).strip().lower()), None)
    else:
        existing = next((f for f in sheets.filters(store, t["id"]) if f["kind"] == "filter"), None)
    what = f"filter view “{view}”" if view is not None else f"filter on “{t['name']}”"
    if remove:
        if existing is None:
            raise Invalid(f"There is no {what} to remove.", "remove")
        if view is not None:
            sheets.delete_view(store, caller, b["id"], existing["id"])
        else:
            sheets.remove_filter(store, caller, b["id"], t["id"])
        return {"tab": t["name"], "removed": what}
    if existing is None:
        if range_ is None:
            raise Invalid(f"There is no {what} yet: give its range (like A1:F8) to create it.", "range")
        rng = sheets.parse_range(t, range_)
        if view is not None:
            fid = sheets.create_view(store, caller, b["id"], t["id"], rng, view)
        else:
            fid = sheets.create_filter(store, caller, b["id"], t["id"], rng)
        existing = store.get("sheets_filters", fid)
    elif range_ is not None and sheets.parse_range(t, range_) != sheets.parse_range(t, existing["range"]):
        if view is None:
            raise Invalid(f"The sheet already has a filter over {existing['range']}: remove it first to filter "
                          f"{range_}.", "range")
        sheets.update_view(store, caller, b["id"], existing["id"], rng=sheets.parse_range(t, range_))
    if column is not None:
        cond = None if condition is None else {"type": condition, **({"value": value} if value is not None else {})}
        sheets.set_criteria(store, caller, b["id"], existing["id"], column, hidden=hidden_values, condition=cond)
    elif hidden_values or condition:
        raise Invalid("Say which column the criteria are for.", "column")
    return {"tab": t["name"], **_shown(store, existing)}


def chart(store: Store, caller: Caller, book: str | int, range_: str | None = None,
          type_: Literal["column", "bar", "line", "pie"] | None = None, title: str | None = None,
          legend: Literal["right", "bottom", "top", "left", "none"] | None = None, anchor: str | None = None,
          chart_id: int | None = None, remove: bool = False, tab: str | None = None) -> dict:
    """Insert → Chart, or change a chart as the chart editor does: a column, bar, line or pie chart over a
    range (header row first; its first column holds the categories, each other column of numbers is a
    series; a pie plots the first), with a title (default: the series' names) and a legend position, its
    top-left corner on the `anchor` cell. Without `chart_id` a chart is inserted (type default column);
    with it that chart changes (what you leave out stays), or goes with `remove`. Returns what it plots."""
    b, t = _open(store, caller.user, book, tab)
    if chart_id is None:
        if remove or range_ is None:
            raise Invalid("Give the range to chart (like A1:D8), or the chart_id of a chart to change.", "range")
        chart_id = sheets.insert_chart(store, caller, b["id"], t["id"], sheets.parse_range(t, range_), type_ or "column",
                                       title=title, legend=legend or "right", anchor=anchor)
    elif remove:
        sheets.delete_chart(store, caller, b["id"], chart_id)
        return {"id": chart_id, "removed": True}
    else:
        ch = sheets.get_chart(store, caller.user, b["id"], chart_id)
        fields = {k: v for k, v in {"type": type_, "title": title, "legend": legend, "anchor": anchor}.items()
                  if v is not None}
        if range_ is not None:
            fields["range"] = sheets.parse_range(store.get("sheets_tabs", ch["tab"]), range_)
        sheets.update_chart(store, caller, b["id"], chart_id, **fields)
    data = sheets.chart_data(store, chart_id)
    return {k: data[k] for k in ("id", "type", "title", "legend", "range", "anchor", "categories", "series")}


def conditional_format(store: Store, caller: Caller, book: str | int, range_: str | None = None,
                       condition: Literal["empty", "not_empty", "text_contains", "text_not_contains", "text_starts_with",
                                          "text_ends_with", "text_is", "gt", "gte", "lt", "lte", "eq", "neq",
                                          "custom"] | None = None,
                       value: str | None = None, fill: str | None = None, color: str | None = None,
                       bold: bool | None = None, italic: bool | None = None, strike: bool | None = None,
                       rule_id: int | None = None, remove: bool = False, tab: str | None = None) -> dict:
    """Format → Conditional formatting: add a rule that formats the cells of a range meeting a condition
    (a number compared, text contained…, empty, or `custom`: a formula written for the range's top-left
    cell, like =$F2="Withdrawn") with a fill and/or text colour (#rrggbb), bold, italic or strikethrough.
    With `rule_id`, change that rule (what you leave out stays) or `remove` it. Rules apply in the order
    made; a cell takes the first rule it meets. Returns the tab's rules and the cells they format."""
    b, t = _open(store, caller.user, book, tab)
    style = {k: v for k, v in {"fill": fill, "color": color, "bold": bold, "italic": italic, "strike": strike}.items()
             if v is not None}
    cond = None if condition is None else {"type": condition, **({"value": value} if value is not None else {})}
    rng = None if range_ is None else sheets.parse_range(t, range_)
    if rule_id is None:
        if remove or rng is None or cond is None:
            raise Invalid("A new rule needs a range and a condition (or give the rule_id of a rule to change).",
                          "range" if rng is None else "condition")
        sheets.add_rule(store, caller, b["id"], t["id"], rng, cond, style)
    elif remove:
        sheets.delete_rule(store, caller, b["id"], rule_id)
    else:
        sheets.update_rule(store, caller, b["id"], rule_id, rng, cond, style or None)
    return {"tab": t["name"],
            "rules": [{"id": r["id"], "range": r["range"], "condition": r["condition"], "style": r["style"]}
                      for r in sheets.rules(store, t["id"])],
            "formatted": sorted(F.ref_name(r - 1, c - 1) for r, c in sheets.styles(store, t["id"]))}


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
    write(insert, "sheets.insert",
          args={"book": BOOK, "before": "A row number (`12`: new rows above row 12) or column letters (`E`: new "
                "columns left of E).", "count": "How many rows or columns.", "tab": TAB}),
    write(delete, "sheets.delete",
          args={"book": BOOK, "span": "Whole rows (`12` or `12:14`) or whole columns (`E` or `E:F`).", "tab": TAB}),
    write(sort, "sheets.sort",
          args={"book": BOOK, "range_": "The rows to sort, like A2:F8 (without the header or totals).",
                "by": "The column to sort by, a letter inside the range (like D).",
                "descending": "Largest (or Z) first.", "tab": TAB}),
    write(set_format, "sheets.format",
          args={"book": BOOK, "range_": "A range like D2:D8, or one cell.",
                "type_": "Number format: auto, number, currency, percent, date or text.",
                "decimals": "Decimal places (0–10).", "bold": "Bold on (true) or off (false).",
                "align": "left, center or right.", "tab": TAB, "italic": "Italic on (true) or off (false).",
                "strike": "Strikethrough on (true) or off (false).", "wrap": "Wrap text on (true) or off (false).",
                "color": "Text colour as #rrggbb, or \"\" to reset.", "fill": "Cell colour as #rrggbb, or \"\" to reset.",
                "borders": "all, inner, outer, top, bottom, left, right, or none to clear.",
                "merge": "Merge the range: all (one cell), horizontal (per row), vertical (per column), or none "
                         "to unmerge."}),
    write(import_file, "sheets.import_file", args={"item_id": "The Drive item id of the .csv, .tsv or .xlsx file."}),
    write(filter_rows, "sheets.filter",
          args={"book": BOOK, "range_": "The range to filter, header row first, like A1:F8 (needed to create it).",
                "column": "The column letter whose criteria to set, inside the range (like F).",
                "hidden_values": "Texts to hide, as the cells show them (\"\" hides blanks).",
                "condition": "empty, not_empty, text_contains, text_not_contains, text_starts_with, text_ends_with, "
                             "text_is, gt, gte, lt, lte, eq or neq.",
                "value": "The condition's value (a number for gt … neq).",
                "view": "A filter view's name: work on that saved view instead of the tab's filter.",
                "remove": "Remove the filter (or the view).", "tab": TAB}),
    write(conditional_format, "sheets.conditional_format",
          args={"book": BOOK, "range_": "The cells the rule formats, like D2:D8.",
                "condition": "empty, not_empty, text_contains, text_not_contains, text_starts_with, text_ends_with, "
                             "text_is, gt, gte, lt, lte, eq, neq, or custom (a formula).",
                "value": "The condition's value: a number for gt … neq, text, or the custom formula (=$F2=\"x\").",
                "fill": "Fill colour #rrggbb.", "color": "Text colour #rrggbb.", "bold": "Bold.", "italic": "Italic.",
                "strike": "Strikethrough.", "rule_id": "A rule's id: change it instead of adding one.",
                "remove": "Delete the rule `rule_id`.", "tab": TAB}),
    write(chart, "sheets.chart",
          args={"book": BOOK, "range_": "The data, header row first, like A1:D8.",
                "type_": "column, bar, line or pie.", "title": "The chart's title (\"\" for none).",
                "legend": "right, bottom, top, left or none.", "anchor": "The cell its top-left corner sits on, like H2.",
                "chart_id": "A chart's id (see sheets.get's `charts`): change that chart instead of inserting one.",
                "remove": "Delete the chart `chart_id`.", "tab": TAB}),
]
