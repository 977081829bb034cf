"""Whole spreadsheets: creating one (from data, or from a CSV or XLSX file in Drive), and
exporting one as CSV, XLSX or the editor's JSON.
"""
from __future__ import annotations

import csv
import io
import zipfile

import apps.sheets.formula as F
from apps.core.errors import Invalid
from apps.core.files import blob_bytes, stamped_zip
from apps.core.store.db import Caller, Store
from apps.core.text import html_json
from apps.drive import service as drive
from apps.drive.service import RANK, Role
from apps.sheets.service.charts import add_xlsx_charts
from apps.sheets.service.conditional import add_xlsx_rules
from apps.sheets.service.filters import shown_rows, tab_filter
from apps.sheets.service.merges import merges
from apps.sheets.service.base import (DEFAULT_COLS, DEFAULT_ROWS, SHEETS, UNTITLED, cells, get, tab, workbook,
                                      write_values)


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
        wb, by_name = workbook(store, book_id)
        write_values(store, caller.actor, wb, by_name)
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
    """The whole spreadsheet as .xlsx: formulas, cached values, number formats, bold / italic / strikethrough,
    text and fill colours, alignment and wrapping, widths, merged cells, the filter (an autofilter), conditional formats and charts."""
    from openpyxl import Workbook
    from openpyxl.styles import Alignment, Border, Font, PatternFill, Side
    from openpyxl.writer.excel import ExcelWriter
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
                    target.value = F.to_ooxml(raw)
                else:
                    v = cl["value"]
                    target.value = v if not isinstance(v, dict) else raw
                    if isinstance(target.value, str) and target.value.startswith("="):
                        target.data_type = "s"          # '=1+2 typed as text stays text, not a formula
            fmt = cl["format"] or {}
            if fmt.get("type") in XLSX_FORMATS:
                code = XLSX_FORMATS[fmt["type"]]
                if "decimals" in fmt and fmt["type"] in ("number", "currency", "percent"):
                    dec = "." + "0" * fmt["decimals"] if fmt["decimals"] else ""
                    code = {"number": f"#,##0{dec}", "currency": f'"$"#,##0{dec}', "percent": f"0{dec}%"}[fmt["type"]]
                target.number_format = code
            if fmt.get("bold") or fmt.get("italic") or fmt.get("strike") or fmt.get("color"):
                target.font = Font(bold=bool(fmt.get("bold")), italic=bool(fmt.get("italic")),
                                   strike=bool(fmt.get("strike")),
                                   color=("FF" + fmt["color"][1:].upper()) if fmt.get("color") else None)
            if fmt.get("border"):
                thin = Side(style="thin", color="FF000000")
                target.border = Border(**{side: thin for e, side in zip("tblr", ("top", "bottom", "left", "right"))
                                          if e in fmt["border"]})
            if fmt.get("fill"):
                target.fill = PatternFill(fill_type="solid", fgColor="FF" + fmt["fill"][1:].upper())
            if fmt.get("wrap") or fmt.get("align"):
                target.alignment = Alignment(wrap_text=bool(fmt.get("wrap")) or None, horizontal=fmt.get("align"))
        for letter, w in (t["widths"] or {}).items():
            ws.column_dimensions[letter].width = round(w / 7, 1)
        if t["frozen"]:
            ws.freeze_panes = ws.cell(row=t["frozen"] + 1, column=1)
        f = tab_filter(store, t["id"])
        if f:                                                    # the filter: an autofilter, its rows hidden
            ws.auto_filter.ref = f["range"]
            for r in shown_rows(store, f["id"])["hidden"]:
                ws.row_dimensions[r].hidden = True
        add_xlsx_charts(store, ws, t["id"])
        for m in merges(store, t["id"]):
            ws.merge_cells(m["range"])
        add_xlsx_rules(store, ws, t["id"])
    wbk.properties.creator = book["item"].get("owner_name") or book["item"]["owner"]
    stamp = store.now().replace(tzinfo=None)                     # world time: byte-stable downloads
    wbk.properties.created = wbk.properties.modified = stamp
    buf = io.BytesIO()
    # ExcelWriter, not wbk.save(): save() overwrites ``modified`` with the wall clock.
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED, allowZip64=True) as archive:
        ExcelWriter(wbk, archive).save()
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
