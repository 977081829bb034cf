"""Sheets GUI: Format → Merge cells (all, horizontally, vertically, unmerge) and the toolbar's merge button.
Answers with the re-rendered grid, whose merge layer shows the blocks."""
from __future__ import annotations

from flask import g

from apps.core.errors import Invalid
from apps.sheets import service
from apps.sheets.blueprint import bp
from apps.sheets.routes import _body, _int, _range, _regrid


@bp.post("/s/<int:book_id>/merge")
def merge(book_id: int):
    data = _body()
    tab_id = _int(data, "tab")
    how = str(data.get("how", "all"))
    rng = _range(data, book_id, tab_id)
    if how == "none":
        service.unmerge(g.store, g.caller, book_id, tab_id, rng)
        return _regrid(book_id, tab_id, "Cells unmerged")
    if how not in service.MERGE_HOW:
        raise Invalid(f"Merge how? One of {', '.join(service.MERGE_HOW)}, or none to unmerge.", "how")
    service.merge(g.store, g.caller, book_id, tab_id, rng, how)
    return _regrid(book_id, tab_id, "Cells merged")
