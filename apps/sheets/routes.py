"""Sheets GUI: the spreadsheet list and the grid editor, thin over ``apps.sheets.service``.

The grid talks JSON: an edit posts the cells it changed and gets back every
cell of the tab whose input or shown value changed (dependents included).
Structural changes (rows, columns, sorting, tabs) answer with the re-rendered
grid.
"""
from __future__ import annotations

import json

from flask import g, jsonify, render_template, request, url_for
from markupsafe import Markup, escape

import apps.sheets.formula as F
from apps.core.errors import Invalid
from apps.web.render import flash_toast, go, is_htmx, render, toast_response
from apps.core.ids import as_id
from apps.web.render import id_arg
from apps.drive.editor_routes import add_file_routes, add_list_routes, page_context
from apps.sheets import service
from apps.sheets.blueprint import bp



add_list_routes(bp, service.SHEETS, title="Sheets", icon="table-cells", param="book_id", create=service.create)


@bp.post("/from-drive/<int:item_id>")
def from_drive(item_id: int):
    book_id = service.open_file_in_sheets(g.store, g.caller, item_id)
    target = url_for("sheets.editor", book_id=book_id)
    return go(target)


def _grid_ctx(book: dict, tab_id: int | None, view_id: int | None = None) -> dict:
    t = service.tab(g.store, book["id"], tab_id)
    grid = service.cells(g.store, t["id"])
    widths = [int((t["widths"] or {}).get(F.col_letter(c), 100)) for c in range(t["cols"])]
    flt = filter_ctx(g.store, t["id"], view_id)
    rules = service.rules(g.store, t["id"])
    cf = service.styles(g.store, t["id"]) if rules else {}
    return {"book": book, "tab": t, "tbody": Markup(_tbody(t, grid, flt["hidden"] if flt else (), cf)), "widths": widths,
            "has_rules": bool(rules),
            "charts_html": chart_layer(g.store, t["id"]), "merges": [m["range"] for m in service.merges(g.store, t["id"])],
            "letters": [F.col_letter(c) for c in range(t["cols"])], "flt": flt,
            "data_json": service.grid_json(g.store, t["id"]), "can_edit": book["role"] in ("owner", "editor")}


def chart_layer(store, tab_id: int) -> Markup:
    """The tab's charts, drawn as SVG, to float over the grid."""
    from apps.sheets.chart_svg import figure
    return Markup("".join(figure(c, service.chart_data(store, c["id"])) for c in service.charts(store, tab_id)))


def filter_ctx(store, tab_id: int, view_id: int | None) -> dict | None:
    """The filter the grid applies (the open view's, or the tab's), for its header buttons and hidden rows."""
    f = service.active_filter(store, tab_id, view_id)
    if f is None:
        return None
    top, left, bottom, right = F.parse_range(f["range"])
    shown = service.shown_rows(store, f["id"])
    return {**f, "top": top + 1, "left": left + 1, "bottom": bottom + 1, "right": right + 1,
            "hidden": set(shown["hidden"]), "cols": [F.col_letter(c) for c in range(left, right + 1)]}


def cell_class(cl: dict | None, right_empty: bool) -> str:
    """CSS classes of a cell: kind of value (alignment), bold, alignment override, overflow."""
    if not cl:
        return ""
    fmt = cl["format"] or {}
    k = _kind(cl["value"])
    cls = [k] if k else []
    if fmt.get("bold"):
        cls.append("B")
    if fmt.get("italic"):
        cls.append("I")
    if fmt.get("strike"):
        cls.append("S")
    if fmt.get("wrap"):
        cls.append("W")
    cls += ["b" + e for e in fmt.get("border", "")]
    if fmt.get("align"):
        cls.append("a" + fmt["align"][0])
    if k == "s" and right_empty and not fmt.get("align") and not fmt.get("wrap"):
        cls.append("ov")                  # text runs on into the empty cell to its right, as in Sheets
    return " ".join(cls)


def cell_style(cl: dict | None) -> str:
    """Inline style of a cell: its text and fill colours (validated #rrggbb)."""
    fmt = (cl or {}).get("format") or {}
    out = []
    if fmt.get("color"):
        out.append(f"color:{fmt['color']}")
    if fmt.get("fill"):
        out.append(f"background:{fmt['fill']}")
    return ";".join(out)


def cf_attrs(style: dict | None) -> tuple[str, str]:
    """Classes and style variables that lay a conditional format over a cell's own (sheets-extra.css)."""
    if not style:
        return "", ""
    cls = [k for k, on in (("cf-f", style.get("fill")), ("cf-c", style.get("color")), ("cf-b", style.get("bold")),
                           ("cf-i", style.get("italic")), ("cf-s", style.get("strike"))) if on]
    css = [f"--cf-{k}:{style[k]}" for k in ("fill", "color") if style.get(k)]
    return " ".join(cls), ";".join(css)


def _tbody(t: dict, grid: dict, hidden=(), cf: dict | None = None) -> str:
    """The grid's rows as HTML. Built here rather than in Jinja: a sheet is thousands of cells.
    Rows a filter hides are in the table but not shown (``hidden``), so rows keep their numbers."""
    out = []
    frozen = t["frozen"]
    for r in range(1, t["rows"] + 1):
        attrs = f' class="frozen" style="--top:{24 * r}px"' if r <= frozen else ""
        if r in hidden:
            attrs += " hidden"
        parts = [f'<tr{attrs}><th scope="row" role="rowheader">{r}</th>']
        for c in range(1, t["cols"] + 1):
            cl = grid.get((r, c))
            fc, fs = cf_attrs(cf.get((r, c))) if cf else ("", "")
            if cl is None and not fc:
                parts.append("<td></td>")
                continue
            right = grid.get((r, c + 1))
            cls = " ".join(x for x in (cell_class(cl, right is None or not right.get("display")), fc) if x)
            cls_attr = f' class="{cls}"' if cls else ""
            st = ";".join(x for x in (cell_style(cl), fs) if x)
            st_attr = f' style="{st}"' if st else ""
            parts.append(f"<td{cls_attr}{st_attr}>{escape((cl or {}).get('display') or '')}</td>")
        parts.append("</tr>")
        out.append("".join(parts))
    return "".join(out)


@bp.get("/s/<int:book_id>")
def editor(book_id: int):
    book = service.get(g.store, g.caller.user, book_id)
    tab_id = id_arg("tab")
    view_id = id_arg("view")
    if view_id is not None:              # a filter view's link opens its tab
        view = service.get_filter(g.store, g.caller.user, book_id, view_id)
        tab_id = view["tab"]
    ctx = _grid_ctx(book, tab_id, view_id)
    service.SHEETS.record_open(g.store, g.caller, book_id)
    return render("sheets/editor.html", **ctx, functions_json=_functions_json(), views=service.views(g.store, book_id),
                  conditions=service.CONDITIONS, rule_conditions=service.RULE_CONDITIONS, **page_context(bp.name, service.SHEETS))


def _functions_json() -> str:
    """The functions the formula editor suggests, with their argument help."""
    from apps.core.text import html_json
    from apps.sheets.formula.functions import SIGNATURES
    return html_json({name: list(sig) for name, sig in sorted(SIGNATURES.items())})


@bp.get("/s/<int:book_id>/grid")
def grid(book_id: int):
    book = service.get(g.store, g.caller.user, book_id)
    return render_template("sheets/_grid.html", **_grid_ctx(book, id_arg("tab"), id_arg("view")))


def _body() -> dict:
    if request.is_json:
        data = request.get_json(silent=True)
        if not isinstance(data, dict):
            raise Invalid("The request body must be a JSON object.", "body")
        return data
    return request.form.to_dict()


def _int(data: dict, key: str) -> int:
    try:
        return int(data[key])
    except (KeyError, TypeError, ValueError):
        raise Invalid(f"Missing or bad “{key}”.", key) from None


def _cell_json(cells: list[dict]) -> list[dict]:
    return [{"a1": c["a1"], "r": c["row"], "c": c["col"], "i": c["input"], "d": c["display"] or "",
             "f": c["format"] or {}, "k": _kind(c["value"]), "cls": cell_class(c, False), "st": cell_style(c),
             "e": (c["value"].get("message") or c["value"]["error"]) if isinstance(c["value"], dict) else None}
            for c in cells]


def _kind(v) -> str:
    if isinstance(v, dict):
        return "e"
    if isinstance(v, bool):
        return "b"
    if isinstance(v, (int, float)):
        return "n"
    return "s" if v not in (None, "") else ""


def _answer(book_id: int, cells: list[dict], message: str | None = None):
    book = service.get(g.store, g.caller.user, book_id)
    return jsonify(cells=_cell_json(cells), revision=book["revision"], message=message,
                   can_undo=_has(book_id, "undo"), can_redo=_has(book_id, "redo"))


def _has(book_id: int, stack: str) -> bool:
    return g.store.scalar("SELECT 1 FROM sheets_history WHERE book=? AND stack=? LIMIT 1", (book_id, stack)) is not None


@bp.post("/s/<int:book_id>/cells")
def set_cells(book_id: int):
    data = _body()
    tab_id = _int(data, "tab")
    edits = data.get("edits")
    if isinstance(edits, str):
        try:
            edits = json.loads(edits)
        except ValueError:
            raise Invalid("“edits” must be JSON.", "edits") from None
    if not isinstance(edits, dict) or not edits:
        raise Invalid("Nothing to change.", "edits")
    parsed = {}
    for a1, raw in edits.items():
        try:
            r, c = F.parse_ref(a1)
        except ValueError:
            raise Invalid(f"“{a1}” is not a cell address.", "edits") from None
        if raw is not None and not isinstance(raw, (str, int, float, bool)):
            raise Invalid(f"The value for {a1} must be text.", "edits")
        parsed[(r + 1, c + 1)] = raw if raw is None or isinstance(raw, str) else service.input_text(raw)
    cells = service.set_cells(g.store, g.caller, book_id, tab_id, parsed)
    return _answer(book_id, cells)


def _range(data: dict, book_id: int, tab_id: int) -> tuple[int, int, int, int]:
    t = service.tab(g.store, book_id, tab_id)
    return service.parse_range(t, str(data.get("range", "")))


def _ranges(data: dict, book_id: int, tab_id: int) -> list[tuple[int, int, int, int]]:
    """A selection of one or more ranges: "B2:C4,E7" (Ctrl+click adds ranges, as in Sheets)."""
    t = service.tab(g.store, book_id, tab_id)
    return [service.parse_range(t, part) for part in str(data.get("range", "")).split(",")]


@bp.post("/s/<int:book_id>/clear")
def clear(book_id: int):
    data = _body()
    tab_id = _int(data, "tab")
    return _answer(book_id, service.clear_ranges(g.store, g.caller, book_id, tab_id, _ranges(data, book_id, tab_id)))


@bp.post("/s/<int:book_id>/format")
def set_format(book_id: int):
    data = _body()
    tab_id = _int(data, "tab")
    change = {}
    if "type" in data:
        change["type"] = data["type"]
    for flag in ("bold", "italic", "strike", "wrap"):
        if flag in data:
            change[flag] = bool(data[flag]) and data[flag] not in ("0", "false")
    for key in ("color", "fill"):
        if key in data:
            change[key] = data[key] or None
    if "borders" in data:
        change["borders"] = data["borders"]
    if "align" in data:
        change["align"] = data["align"] or None
    if "decimals_step" in data:
        step = _int(data, "decimals_step")
        if step not in (-1, 1):
            raise Invalid("Decimals change one step at a time.", "decimals_step")
        change["decimals_step"] = step
    if not change:
        raise Invalid("Choose a format.", "type")
    cells = service.format_ranges(g.store, g.caller, book_id, tab_id, _ranges(data, book_id, tab_id), **change)
    return _answer(book_id, cells)


@bp.post("/s/<int:book_id>/paste")
def paste(book_id: int):
    data = _body()
    tab_id = _int(data, "tab")
    t = service.tab(g.store, book_id, tab_id)
    top, left, bottom, right = service.parse_range(t, str(data.get("at", "")))
    if data.get("source"):
        src_tab = _int(data, "source_tab")
        st = service.tab(g.store, book_id, src_tab)
        cells = service.paste_cells(g.store, g.caller, book_id, tab_id, (top, left, bottom, right), src_tab,
                                    service.parse_range(st, str(data["source"])),
                                    cut=str(data.get("cut", "")).lower() in ("1", "true"))
    else:
        cells = service.paste_text(g.store, g.caller, book_id, tab_id, (top, left), str(data.get("text", "")))
    return _answer(book_id, cells)


@bp.post("/s/<int:book_id>/fill")
def fill(book_id: int):
    """The fill handle (``series``: numbers and dates continue) and Ctrl+D / Ctrl+R (copies)."""
    data = _body()
    tab_id = _int(data, "tab")
    t = service.tab(g.store, book_id, tab_id)
    if not data.get("source"):
        raise Invalid("Say which cells to fill from.", "source")
    src = service.parse_range(t, str(data["source"]))
    series = str(data.get("series", "true")).lower() not in ("0", "false")
    return _answer(book_id, service.fill(g.store, g.caller, book_id, tab_id, src, _range(data, book_id, tab_id), series))


def _regrid(book_id: int, tab_id: int | None, message: str):
    book = service.get(g.store, g.caller.user, book_id)
    view = _body().get("view") if request.method == "POST" else None
    view_id = as_id(view) if isinstance(view, (int, str)) else None
    html = render_template("sheets/_grid.html", **_grid_ctx(book, tab_id, view_id))
    return jsonify(html=html, message=message, revision=book["revision"],
                   can_undo=_has(book_id, "undo"), can_redo=_has(book_id, "redo"))


STRUCTURE = {
    "insert_rows": (service.insert_rows, "Row inserted", "Rows inserted"),
    "delete_rows": (service.delete_rows, "Row deleted", "Rows deleted"),
    "insert_cols": (service.insert_cols, "Column inserted", "Columns inserted"),
    "delete_cols": (service.delete_cols, "Column deleted", "Columns deleted"),
}


@bp.post("/s/<int:book_id>/structure")
def structure(book_id: int):
    data = _body()
    tab_id = _int(data, "tab")
    op = data.get("op")
    if op not in STRUCTURE:
        raise Invalid("Unknown change.", "op")
    fn, one, many = STRUCTURE[op]
    n = _int(data, "n") if "n" in data else 1
    fn(g.store, g.caller, book_id, tab_id, _int(data, "at"), n)
    return _regrid(book_id, tab_id, one if n == 1 else many)


@bp.post("/s/<int:book_id>/rows")
def add_rows(book_id: int):
    data = _body()
    tab_id = _int(data, "tab")
    service.add_rows(g.store, g.caller, book_id, tab_id, _int(data, "n") if "n" in data else 100)
    return _regrid(book_id, tab_id, "Rows added")


@bp.post("/s/<int:book_id>/sort")
def sort(book_id: int):
    data = _body()
    tab_id = _int(data, "tab")
    rng = _range(data, book_id, tab_id)
    service.sort_range(g.store, g.caller, book_id, tab_id, rng, _int(data, "col"),
                       str(data.get("order", "asc")) != "desc")
    return _regrid(book_id, tab_id, "Range sorted")


@bp.post("/s/<int:book_id>/width")
def width(book_id: int):
    data = _body()
    service.set_width(g.store, g.caller, book_id, _int(data, "tab"), _int(data, "col"), _int(data, "width"))
    return jsonify(ok=True)


@bp.post("/s/<int:book_id>/freeze")
def freeze(book_id: int):
    data = _body()
    tab_id = _int(data, "tab")
    service.set_frozen(g.store, g.caller, book_id, tab_id, _int(data, "rows"))
    return _regrid(book_id, tab_id, "Frozen rows updated")


@bp.post("/s/<int:book_id>/undo")
def undo(book_id: int):
    data = _body()
    label = service.undo(g.store, g.caller, book_id)
    return _regrid(book_id, data.get("tab") and _int(data, "tab"), f"Undid: {label}" if label else "Nothing to undo")


@bp.post("/s/<int:book_id>/redo")
def redo(book_id: int):
    data = _body()
    label = service.redo(g.store, g.caller, book_id)
    return _regrid(book_id, data.get("tab") and _int(data, "tab"), f"Redid: {label}" if label else "Nothing to redo")


# ---------------------------------------------------------------- tabs (htmx forms; full page back)
def _to_tab(book_id: int, tab_id: int | None, message: str):
    flash_toast(message)
    target = url_for("sheets.editor", book_id=book_id, tab=tab_id) if tab_id else url_for("sheets.editor", book_id=book_id)
    return go(target)


@bp.post("/s/<int:book_id>/tabs")
def add_tab(book_id: int):
    tid = service.add_tab(g.store, g.caller, book_id)
    return _to_tab(book_id, tid, "Sheet added.")


@bp.post("/s/<int:book_id>/tabs/<int:tab_id>/rename")
def rename_tab(book_id: int, tab_id: int):
    try:
        service.rename_tab(g.store, g.caller, book_id, tab_id, request.form.get("name", ""))
    except Invalid as e:
        if is_htmx():
            return toast_response(e.message, 422)
        raise
    return _to_tab(book_id, tab_id, "Sheet renamed.")


@bp.post("/s/<int:book_id>/tabs/<int:tab_id>/delete")
def delete_tab(book_id: int, tab_id: int):
    try:
        service.delete_tab(g.store, g.caller, book_id, tab_id)
    except Invalid as e:
        if is_htmx():
            return toast_response(e.message, 422)
        raise
    return _to_tab(book_id, None, "Sheet deleted.")


# ---------------------------------------------------------------- File menu: rename, download, trash
XLSX_MIME = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def _xlsx(book: dict) -> tuple[bytes, str, str]:
    return service.xlsx_bytes(g.store, g.caller.user, book["id"]), XLSX_MIME, f"{book['title']}.xlsx"


def _csv(book: dict) -> tuple[bytes, str, str]:
    """The tab shown (``?tab=``; the first by default)."""
    t = service.tab(g.store, book["id"], id_arg("tab"))
    data = service.csv_bytes(g.store, g.caller.user, book["id"], t["id"])
    return data, "text/csv", f"{book['title']} - {t['name']}.csv"


add_file_routes(bp, service.SHEETS, prefix="/s", param="book_id", record="book",
                exports={"xlsx": _xlsx, "csv": _csv})
