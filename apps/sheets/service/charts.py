"""Charts, as Insert → Chart makes them: a column, bar, line or pie chart over a range of a tab, floating
over the grid with its top-left corner on a cell, and edited in the chart editor (type, data range, title,
legend).

A chart is a record of ``sheets_charts``: ``type``, ``range`` ("A1:D8"), ``title``, ``legend`` (right,
bottom, top, left or none), ``anchor`` ("H2") and its size in px. What it plots is ``chart_data``: the
range's first row names the series when it is a header (text over numbers), its first column holds the
categories when the range is two or more columns wide, and each other column is a series (a pie plots the
first). The grid draws it as SVG (``apps.sheets.chart_svg``) and the .xlsx export writes a real chart.
"""
from __future__ import annotations

import apps.sheets.formula as F
from apps.core.ids import as_id
from apps.core.errors import Invalid, NotFound
from apps.core.store.db import Caller, Store
from apps.sheets.service.history import record_extras
from apps.sheets.service.ranges import bounds as _bounds, moved, moved_line, text as _text
from apps.sheets.service.base import SHEETS, Range, cells, check_range, editable, get, tab
from apps.sheets.service.filters import data_region, hidden_rows

TYPES = ("column", "bar", "line", "pie")
LEGENDS = ("right", "bottom", "top", "left", "none")
MAX_TITLE = 200


def _number(v) -> float | None:
    return v if isinstance(v, (int, float)) and not isinstance(v, bool) else None


def plot_data(grid: dict, rng_text: str, hidden: set[int] | frozenset = frozenset()) -> dict:
    """What a chart over ``rng_text`` plots, from a tab's cells by (row, col): categories and series
    (name and values; a cell that isn't a number is None). Rows in ``hidden`` (the tab's filter hides
    them) are left out, as Sheets leaves out hidden and filtered data."""
    top, left, bottom, right = _bounds(rng_text)
    value = lambda r, c: (grid.get((r, c)) or {}).get("value")           # noqa: E731
    shown = lambda r, c: (grid.get((r, c)) or {}).get("display") or ""   # noqa: E731
    series_cols = list(range(left + 1, right + 1)) if right > left else [left]
    # The first row is a header when the columns that hold numbers below it start with text there (as Sheets
    # guesses it): a text column beside them (a claimant, a category) says nothing about the first row.
    numeric = [c for c in series_cols if any(_number(value(r, c)) is not None for r in range(top + 1, bottom + 1))]
    header = bottom > top and any(isinstance(value(top, c), str) and value(top, c) != "" for c in numeric or series_cols)
    first = top + 1 if header else top
    rows = [r for r in range(first, bottom + 1) if r not in hidden]
    if right > left:
        cats = [shown(r, left) for r in rows]
    else:
        cats = [str(i + 1) for i in range(len(rows))]
    series = [{"name": shown(top, c) if header else f"Series {i + 1}", "col": F.col_letter(c - 1),
               "values": [_number(value(r, c)) for r in rows]} for i, c in enumerate(series_cols)]
    series = [s for s in series if any(v is not None for v in s["values"])]     # text columns aren't series
    if not header:
        series = [{**s, "name": f"Series {i + 1}"} for i, s in enumerate(series)]
    keep = [i for i in range(len(rows)) if cats[i] != "" or any(s["values"][i] is not None for s in series)]
    return {"header": header, "rows": [rows[i] for i in keep], "categories": [cats[i] for i in keep],
            "series": [{**s, "values": [s["values"][i] for i in keep]} for s in series]}


def chart_data(store: Store, chart_id: int) -> dict:
    """What a chart shows, for checks: its type, title, legend and range, and the categories and series
    (name, values) it plots — a pie only its first series; rows the tab's filter hides left out."""
    ch = store.get("sheets_charts", chart_id)
    if ch is None:
        raise NotFound("That chart doesn't exist.")
    data = plot_data(cells(store, ch["tab"]), ch["range"], hidden_rows(store, ch["tab"]))
    if ch["type"] == "pie":
        data["series"] = data["series"][:1]
    return {"id": ch["id"], "type": ch["type"], "title": ch["title"], "legend": ch["legend"], "range": ch["range"],
            "anchor": ch["anchor"], **data}


def charts(store: Store, tab_id: int) -> list[dict]:
    """A tab's charts, in the order made."""
    return store.select("sheets_charts", "tab=?", (tab_id,), order="id")


def one(store: Store, user: str, book_id: int, chart_id: int) -> dict:
    get(store, user, book_id)
    if as_id(chart_id) is None:
        raise NotFound("That chart doesn't exist in this spreadsheet.")
    ch = store.get("sheets_charts", chart_id)
    tabs = {t["id"] for t in store.select("sheets_tabs", "book=?", (book_id,))}
    if ch is None or ch["tab"] not in tabs:
        raise NotFound("That chart doesn't exist in this spreadsheet.")
    return ch


def default_title(data: dict, kind: str) -> str:
    names = [s["name"] for s in data["series"]][:1 if kind == "pie" else None]
    if not data["header"]:
        return "Chart"
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _checked(t: dict, fields: dict, store: Store) -> dict:
    out = {}
    if "type" in fields:
        if fields["type"] not in TYPES:
            raise Invalid(f"Unknown chart type {fields['type']!r}: one of {', '.join(TYPES)}.", "type")
        out["type"] = fields["type"]
    if "legend" in fields:
        if fields["legend"] not in LEGENDS:
            raise Invalid(f"Unknown legend position {fields['legend']!r}: one of {', '.join(LEGENDS)}.", "legend")
        out["legend"] = fields["legend"]
    if "title" in fields:
        title = "" if fields["title"] is None else str(fields["title"]).strip()
        if len(title) > MAX_TITLE:
            raise Invalid(f"A chart title can be at most {MAX_TITLE} characters.", "title")
        out["title"] = title
    if "range" in fields:
        top, left, bottom, right = check_range(t, fields["range"])
        if (top, left) == (bottom, right):
            top, left, bottom, right = data_region(cells(store, t["id"]), top, left)
            bottom, right = min(bottom, t["rows"]), min(right, t["cols"])
        out["range"] = f"{F.ref_name(top - 1, left - 1)}:{F.ref_name(bottom - 1, right - 1)}"
        data = plot_data(cells(store, t["id"]), out["range"])
        if not any(v is not None for s in data["series"] for v in s["values"]):
            raise Invalid(f"There are no numbers to chart in {out['range']}.", "range")
    if "anchor" in fields:
        try:
            r, c = F.parse_ref(str(fields["anchor"]).strip().upper())
        except ValueError:
            raise Invalid(f"“{fields['anchor']}” is not a cell.", "anchor") from None
        check_range(t, (r + 1, c + 1, r + 1, c + 1))
        out["anchor"] = F.ref_name(r, c)
    for key, lo, hi in (("width", 160, 2000), ("height", 120, 1500)):
        if key in fields:
            try:
                n = int(fields[key])
            except (TypeError, ValueError):
                raise Invalid(f"The chart's {key} is a number of pixels.", key) from None
            if not lo <= n <= hi:
                raise Invalid(f"The chart's {key} is {lo} to {hi} pixels.", key)
            out[key] = n
    return out


def insert_chart(store: Store, caller: Caller, book_id: int, tab_id: int, rng: Range, type: str = "column",
                 title: str | None = None, legend: str = "right", anchor: str | None = None) -> int:
    """Insert → Chart over a range (one cell: the block of data around it). Without a title the series'
    names make one, as in Sheets; without an anchor it sits to the right of its data."""
    book = editable(store, caller, book_id)
    t = tab(store, book_id, tab_id)
    fields = _checked(t, {"range": rng, "type": type, "legend": legend}, store)
    top, left, bottom, right = _bounds(fields["range"])
    if anchor is None:
        anchor = F.ref_name(top - 1, min(right + 1, t["cols"] - 1))
    fields.update(_checked(t, {"anchor": anchor, **({"title": title} if title is not None else {})}, store))
    if title is None:
        fields["title"] = default_title(plot_data(cells(store, t["id"]), fields["range"]), fields["type"])
    with store.transaction():
        record_extras(store, caller, book_id, "Insert chart")
        cid = store.insert("sheets_charts", caller.actor, tab=t["id"], width=600, height=371, **fields)
        SHEETS.bump(store, caller, book)
    return cid


def update_chart(store: Store, caller: Caller, book_id: int, chart_id: int, **fields) -> dict:
    """The chart editor (type, range, title, legend) and moving or resizing it (anchor, width, height)."""
    book = editable(store, caller, book_id)
    ch = one(store, caller.user, book_id, chart_id)
    unknown = set(fields) - {"type", "range", "title", "legend", "anchor", "width", "height"}
    if unknown:
        raise Invalid(f"Unknown chart setting {sorted(unknown)[0]!r}.", sorted(unknown)[0])
    if not fields:
        raise Invalid("Say what to change: type, range, title, legend, anchor, width or height.", "type")
    change = _checked(store.get("sheets_tabs", ch["tab"]), fields, store)
    with store.transaction():
        record_extras(store, caller, book_id, "Change chart")
        store.update("sheets_charts", ch["id"], caller.actor, **change)
        SHEETS.bump(store, caller, book)
    return store.get("sheets_charts", ch["id"])


def delete_chart(store: Store, caller: Caller, book_id: int, chart_id: int) -> None:
    book = editable(store, caller, book_id)
    ch = one(store, caller.user, book_id, chart_id)
    with store.transaction():
        record_extras(store, caller, book_id, "Delete chart")
        store.delete("sheets_charts", ch["id"], caller.actor)
        SHEETS.bump(store, caller, book)


def shift(store: Store, actor: str, tab_id: int, axis: str, at: int, n: int) -> None:
    """Keep the tab's charts on their data when rows (``axis`` "row") or columns are inserted (``n`` > 0)
    before ``at`` or deleted (``n`` < 0): the range moves and grows or shrinks, the anchor moves with its
    cell (or to the first cell after a deleted run); a chart whose data is wholly deleted goes."""
    for ch in charts(store, tab_id):
        rng = moved(_bounds(ch["range"]), axis, at, n)
        if rng is None:
            store.delete("sheets_charts", ch["id"], actor)
            continue
        ar, ac = (v + 1 for v in F.parse_ref(ch["anchor"]))
        if axis == "row":
            ar = max(1, moved_line(ar, at, n))
        else:
            ac = max(1, moved_line(ac, at, n))
        new, anchor = _text(*rng), F.ref_name(ar - 1, ac - 1)
        if (new, anchor) != (ch["range"], ch["anchor"]):
            store.update("sheets_charts", ch["id"], actor, range=new, anchor=anchor)


# ---------------------------------------------------------------- .xlsx
LEGEND_XLSX = {"right": "r", "bottom": "b", "top": "t", "left": "l"}


def add_xlsx_charts(store: Store, ws, tab_id: int) -> None:
    """The tab's charts as real .xlsx charts (openpyxl.chart) on the sheet ``ws``, over the same cells."""
    from openpyxl.chart import BarChart, LineChart, PieChart, Reference
    for ch in charts(store, tab_id):
        top, left, bottom, right = _bounds(ch["range"])
        data = plot_data(cells(store, tab_id), ch["range"])
        first = top + 1 if data["header"] else top
        if ch["type"] == "pie":
            chart = PieChart()
        elif ch["type"] == "line":
            chart = LineChart()
        else:
            chart = BarChart()
            chart.type = "col" if ch["type"] == "column" else "bar"
        for sr in data["series"][:1] if ch["type"] == "pie" else data["series"]:
            col = F.col_index(sr["col"]) + 1
            chart.add_data(Reference(ws, min_col=col, max_col=col, min_row=top, max_row=bottom),
                           titles_from_data=data["header"])
        if right > left:
            chart.set_categories(Reference(ws, min_col=left, max_col=left, min_row=first, max_row=bottom))
        if ch["title"]:
            chart.title = ch["title"]
        if ch["legend"] == "none":
            chart.legend = None
        else:
            chart.legend.position = LEGEND_XLSX[ch["legend"]]
        chart.width, chart.height = round(ch["width"] / 37.8, 2), round(ch["height"] / 37.8, 2)     # cm
        ws.add_chart(chart, ch["anchor"])
