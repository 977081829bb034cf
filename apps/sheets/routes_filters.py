"""Sheets GUI: filters and filter views (Data menu, a column's filter menu, the filter view's bar).

Changes that hide or show rows answer with the re-rendered grid (``_regrid``), applying the filter
view the page has open (``view`` in the body); creating a view answers with the address that opens it.
"""
from __future__ import annotations

from flask import g, jsonify, url_for

from apps.core.errors import Invalid
from apps.sheets import service
from apps.sheets.blueprint import bp
from apps.sheets.routes import _body, _int, _range, _regrid


def _filter_of(book_id: int, data: dict) -> dict:
    return service.get_filter(g.store, g.caller.user, book_id, _int(data, "filter"))


@bp.post("/s/<int:book_id>/filter")
def create_filter(book_id: int):
    """Data → Create a filter over the selection (one cell: the data around it)."""
    data = _body()
    tab_id = _int(data, "tab")
    service.create_filter(g.store, g.caller, book_id, tab_id, _range(data, book_id, tab_id))
    return _regrid(book_id, tab_id, "Filter created")


@bp.post("/s/<int:book_id>/filter/remove")
def remove_filter(book_id: int):
    data = _body()
    tab_id = _int(data, "tab")
    service.remove_filter(g.store, g.caller, book_id, tab_id)
    return _regrid(book_id, tab_id, "Filter removed")


@bp.post("/s/<int:book_id>/filter/criteria")
def filter_criteria(book_id: int):
    """A column's filter menu, OK: the values it hides and its condition (``{"type", "value"}``)."""
    data = _body()
    f = _filter_of(book_id, data)
    hidden = data.get("hidden")
    condition = data.get("condition")
    if condition is not None and not isinstance(condition, dict):
        raise Invalid("“condition” must be an object like {\"type\": \"gt\", \"value\": \"100\"}.", "condition")
    if condition and condition.get("type") in ("", "none"):
        condition = None
    if "col" not in data:
        raise Invalid("Say which column to filter.", "col")
    service.set_criteria(g.store, g.caller, book_id, f["id"], str(data["col"]), hidden=hidden, condition=condition)
    return _regrid(book_id, f["tab"], "Filter updated")


@bp.post("/s/<int:book_id>/filter/sort")
def filter_sort(book_id: int):
    """Sort A → Z / Z → A from a column's filter menu: the filter's rows below its header."""
    data = _body()
    f = _filter_of(book_id, data)
    rng, col = service.filter_sort_range(f, str(data.get("col", "")))
    order = str(data.get("order", "asc"))
    if order not in ("asc", "desc"):
        raise Invalid("Sort order is asc or desc.", "order")
    service.sort_range(g.store, g.caller, book_id, f["tab"], rng, col, order == "asc")
    return _regrid(book_id, f["tab"], "Range sorted")


@bp.post("/s/<int:book_id>/views")
def create_view(book_id: int):
    """Data → Filter views → Create new filter view over the selection (or Save as filter view: the sheet's
    filter, ``from_filter``); the page opens it."""
    data = _body()
    tab_id = _int(data, "tab")
    name = data.get("name")
    rng, criteria = None, None
    if data.get("from_filter"):            # Save as filter view: the sheet's filter, its range and criteria
        f = service.get_filter(g.store, g.caller.user, book_id, _int(data, "from_filter"))
        if f["kind"] != "filter" or f["tab"] != tab_id:
            raise Invalid("Save as filter view saves this sheet's filter.", "from_filter")
        rng = service.parse_range(service.tab(g.store, book_id, tab_id), f["range"])
        criteria = f["criteria"]
    vid = service.create_view(g.store, g.caller, book_id, tab_id, rng or _range(data, book_id, tab_id),
                              None if name in (None, "") else str(name), criteria)
    v = g.store.get("sheets_filters", vid)
    return jsonify(id=vid, name=v["name"], range=v["range"], message=f"Filter view “{v['name']}” created",
                   url=url_for("sheets.editor", book_id=book_id, tab=tab_id, view=vid))


@bp.post("/s/<int:book_id>/views/<int:view_id>")
def update_view(book_id: int, view_id: int):
    """The filter view's bar: its name, or its range (the grid comes back)."""
    data = _body()
    v = service.get_filter(g.store, g.caller.user, book_id, view_id)
    rng = None
    if data.get("range") not in (None, ""):
        t = service.tab(g.store, book_id, v["tab"])
        rng = service.parse_range(t, str(data["range"]))
    name = data.get("name")
    service.update_view(g.store, g.caller, book_id, view_id, None if name is None else str(name), rng)
    if rng is not None:
        return _regrid(book_id, v["tab"], "Filter view updated")
    return jsonify(ok=True, message="Filter view renamed", name=g.store.get("sheets_filters", view_id)["name"])


@bp.post("/s/<int:book_id>/views/<int:view_id>/delete")
def delete_view(book_id: int, view_id: int):
    v = service.get_filter(g.store, g.caller.user, book_id, view_id)
    service.delete_view(g.store, g.caller, book_id, view_id)
    return jsonify(ok=True, message="Filter view deleted", url=url_for("sheets.editor", book_id=book_id, tab=v["tab"]))
