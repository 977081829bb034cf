"""Sheets GUI: Format → Conditional formatting, the side panel's rules. Changes answer with the
re-rendered grid (the formats laid over its cells); ``GET /conditional`` lists the tab's rules and the
cells they format, for the panel and after cells change."""
from __future__ import annotations

from flask import g, jsonify

from apps.core.errors import Invalid
from apps.web.render import id_arg
import apps.sheets.formula as F
from apps.sheets import service
from apps.sheets.blueprint import bp
from apps.sheets.routes import _body, _int, _range, _regrid


@bp.get("/s/<int:book_id>/conditional")
def conditional(book_id: int):
    service.get(g.store, g.caller.user, book_id)
    t = service.tab(g.store, book_id, id_arg("tab"))
    return jsonify(
        rules=[{"id": r["id"], "range": r["range"], "description": service.describe_rule(r), "style": r["style"],
                "condition": r["condition"]} for r in service.rules(g.store, t["id"])],
        cells={F.ref_name(r - 1, c - 1): st for (r, c), st in service.styles(g.store, t["id"]).items()})


def _rule_parts(data: dict) -> tuple:
    condition, style = data.get("condition"), data.get("style")
    if condition is not None and not isinstance(condition, dict):
        raise Invalid("“condition” must be an object like {\"type\": \"gt\", \"value\": \"100\"}.", "condition")
    if style is not None and not isinstance(style, dict):
        raise Invalid("“style” must be an object like {\"fill\": \"#b7e1cd\"}.", "style")
    return condition, style


@bp.post("/s/<int:book_id>/conditional")
def add_rule(book_id: int):
    data = _body()
    tab_id = _int(data, "tab")
    condition, style = _rule_parts(data)
    if condition is None or style is None:
        raise Invalid("A rule needs a condition and a formatting style.", "condition" if condition is None else "style")
    service.add_rule(g.store, g.caller, book_id, tab_id, _range(data, book_id, tab_id), condition, style)
    return _regrid(book_id, tab_id, "Conditional format added")


@bp.post("/s/<int:book_id>/conditional/<int:rule_id>")
def update_rule(book_id: int, rule_id: int):
    data = _body()
    rule = service.get_rule(g.store, g.caller.user, book_id, rule_id)
    condition, style = _rule_parts(data)
    rng = None
    if data.get("range"):
        rng = service.parse_range(service.tab(g.store, book_id, rule["tab"]), str(data["range"]))
    service.update_rule(g.store, g.caller, book_id, rule_id, rng, condition, style)
    return _regrid(book_id, rule["tab"], "Conditional format updated")


@bp.post("/s/<int:book_id>/conditional/<int:rule_id>/delete")
def delete_rule(book_id: int, rule_id: int):
    rule = service.get_rule(g.store, g.caller.user, book_id, rule_id)
    service.delete_rule(g.store, g.caller, book_id, rule_id)
    return _regrid(book_id, rule["tab"], "Conditional format deleted")
