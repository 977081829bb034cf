"""Sheets GUI: charts (Insert → Chart, the chart editor, moving and deleting a chart).

Each change answers with the tab's chart layer re-drawn (``layer``: the figures' HTML); ``GET
/charts`` gives the same after cells change, so the charts follow their data.
"""
from __future__ import annotations

from flask import g, jsonify

from apps.core.errors import Invalid
from apps.web.render import id_arg
from apps.sheets import service
from apps.sheets.blueprint import bp
from apps.sheets.routes import _body, _int, _range, chart_layer

FIELDS = ("type", "title", "legend", "anchor", "width", "height")


def _layer(book_id: int, tab_id: int, message: str | None = None, **extra):
    service.tab(g.store, book_id, tab_id)
    return jsonify(layer=str(chart_layer(g.store, tab_id)), message=message, **extra)


@bp.get("/s/<int:book_id>/charts")
def charts(book_id: int):
    service.get(g.store, g.caller.user, book_id)
    t = service.tab(g.store, book_id, id_arg("tab"))
    return _layer(book_id, t["id"])


@bp.post("/s/<int:book_id>/charts")
def insert_chart(book_id: int):
    """Insert → Chart over the selection (one cell: the data around it), on the ``anchor`` cell the page
    chose (where the window shows it), else beside its data."""
    data = _body()
    tab_id = _int(data, "tab")
    kind = str(data.get("type") or "column")
    anchor = str(data["anchor"]) if data.get("anchor") else None
    cid = service.insert_chart(g.store, g.caller, book_id, tab_id, _range(data, book_id, tab_id), kind, anchor=anchor)
    return _layer(book_id, tab_id, "Chart inserted", id=cid)


@bp.post("/s/<int:book_id>/charts/<int:chart_id>")
def update_chart(book_id: int, chart_id: int):
    """The chart editor's settings, or where the chart was dragged to (``anchor``)."""
    data = _body()
    ch = service.get_chart(g.store, g.caller.user, book_id, chart_id)
    fields = {k: data[k] for k in FIELDS if k in data}
    if "range" in data:
        t = service.tab(g.store, book_id, ch["tab"])
        fields["range"] = service.parse_range(t, str(data["range"]))
    if not fields:
        raise Invalid("Say what to change: type, range, title, legend, anchor, width or height.", "type")
    service.update_chart(g.store, g.caller, book_id, chart_id, **fields)
    return _layer(book_id, ch["tab"], None, id=chart_id)


@bp.post("/s/<int:book_id>/charts/<int:chart_id>/delete")
def delete_chart(book_id: int, chart_id: int):
    ch = service.get_chart(g.store, g.caller.user, book_id, chart_id)
    service.delete_chart(g.store, g.caller, book_id, chart_id)
    return _layer(book_id, ch["tab"], "Chart deleted")
