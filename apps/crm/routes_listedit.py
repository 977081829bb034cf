"""List views, edited in place: inline edit of a cell (double-click it or its pencil; the edited cells
are saved together from the list's Cancel / Save bar, all or nothing). A card dragged on an
opportunities list's Kanban display goes through the pipeline board's move (``routes.pipeline_move``)."""
from __future__ import annotations

from flask import g, request

from apps.core.errors import Invalid, NotFound
from apps.core.ids import as_id
from apps.crm import service as S
from apps.crm.blueprint import bp
from apps.crm.views import fragment, go, obj_or_404

LOOKUPS = {"account": "accounts", "contact": "contacts", "user": "users"}


def editable(obj: str, name: str) -> dict | None:
    """The field a list cell can edit in place (not the name link, nor a computed field)."""
    f = next((f for f in S.FIELDS[obj] if f["name"] == name), None)
    return f if f and f["edit"] and f["type"] != "textarea" and name != "name" else None


def list_back(obj: str) -> str:
    """Where to go back to: the ``back`` list view of ``obj`` (only a list of it), else its default list."""
    back = request.values.get("back", "")
    return back if back.startswith(f"/crm/o/{obj}") else f"/crm/o/{obj}"


@bp.get("/o/<obj>/<int:rid>/cell/<name>")
def cell_edit(obj: str, rid: int, name: str):
    obj = obj_or_404(obj)
    f = editable(obj, name)
    if f is None:
        raise NotFound("That field can't be edited here.")
    r = S.get(g.store, g.caller.user, obj, rid)
    if obj == "leads" and r["converted"]:
        raise Invalid("This lead has been converted and can't be edited.", name)
    text = {"account": r.get("account_name"), "contact": r.get("contact_name"),
            "user": r.get(name + "_name")}.get(f["type"], "")
    return fragment("crm/_cell_edit.html", obj=obj, r=r, f=f, val=r.get(name), text=text or "",
                    kind=LOOKUPS.get(f["type"]))


@bp.post("/o/<obj>/inline")
def inline_save(obj: str):
    obj = obj_or_404(obj)
    form = request.form
    changes: dict[int, dict] = {}
    for key in form.getlist("ie"):
        raw, _, name = key.partition(".")
        f = editable(obj, name)
        rid = as_id(raw)
        if f is None or rid is None:
            raise Invalid("That field can't be edited here.", "ie")
        v = form.get(f"e.{key}", "")
        if f["type"] in LOOKUPS and not v.strip():
            v = form.get(f"e.{key}__text", "")
        changes.setdefault(rid, {})[name] = v
    try:
        out = S.update_many(g.store, g.caller, obj, changes)
    except Invalid as e:
        return fragment("crm/_inline_error.html", status=422, message=e.message, where=e.field)
    n = len(out)
    return go(list_back(obj), f"{n} record{'s' if n != 1 else ''} saved.")
