"""Drive beyond the basics: general access (who can open an item with its link), Make a copy, the
layout a user chose, and an item's Activity.

General access is stored on each item (``link_access``: restricted | org | anyone, ``link_role``:
viewer | commenter | editor). As in Drive, a folder's setting reaches everything in it: an item's
*effective* access is the widest of its own and its folders'; the Share dialog shows where a wider
setting comes from. Restricting an item never touches who it is shared with directly.
"""
from __future__ import annotations

import json

from apps.core import people as directory
from apps.core.errors import Invalid
from apps.core.registry import all_tables
from apps.core.store.db import AGENT, SYSTEM, Caller, Store
from apps.core.store.schema import FieldClass
from apps.drive import service as drive
from apps.drive.service import FOLDER, Role

ACCESS = ("restricted", "org", "anyone")
WIDTH = {"restricted": 0, "org": 1, "anyone": 2}
LINK_ROLES = ("viewer", "commenter", "editor")
LAYOUTS = ("list", "grid")
# The editors' tables whose rows hold a Doc, Sheet or Deck, by Drive kind.
APP_TABLES = {"doc": "docs_documents", "sheet": "sheets_books", "deck": "slides_decks"}
# The parts of a file Make a copy leaves behind, as Drive does: comments and suggestions. (The undo and
# version history are no parts of it: nothing points at them with link="part".)
NOT_COPIED = ("docs_comments", "docs_replies", "docs_suggestions", "slides_comments")


# ---------------------------------------------------------------- general access
def org_of(store: Store, user: str) -> dict | None:
    """The organisation of a person (its ``name`` is what the Share dialog offers)."""
    p = directory.person(store, user)
    return directory.org(store, p["org"]) if p and p.get("org") else None


def general_access(store: Store, user: str, item_id: int) -> dict:
    """An item's general access: its own setting (``access``, ``role``), the effective one (the widest
    of its own and its folders': ``effective``, ``effective_role``, ``inherited_from`` the folder's
    name when wider), and ``org`` — the owner's organisation's name."""
    item = drive.get(store, user, item_id)
    own = {"access": item["link_access"] or "restricted", "role": item["link_role"] or "viewer"}
    eff, eff_role, source = own["access"], own["role"], None
    for anc in drive.ancestors(store, item):
        a = anc["link_access"] or "restricted"
        if WIDTH[a] > WIDTH[eff] or (a == eff != "restricted" and
                                      drive.RANK[Role(anc["link_role"])] > drive.RANK[Role(eff_role)]):
            eff, eff_role, source = a, anc["link_role"], anc["name"]
    org = org_of(store, item["owner"])
    return {"item_id": item_id, **own, "effective": eff, "effective_role": eff_role,
            "inherited_from": source, "org": org["name"] if org else None}


def set_general_access(store: Store, caller: Caller, item_id: int, access: str,
                       role: str | None = None) -> dict:
    """Set who can open an item with its link: ``restricted`` (only people added), ``org`` (anyone in the
    owner's organisation with the link) or ``anyone`` (anyone on the internet with the link), and with
    ``role`` what they may do (viewer, commenter, editor; kept when not given). Edit access needed.
    Returns the item's general access."""
    if access not in ACCESS:
        raise Invalid("General access must be restricted, org or anyone.", "access")
    if role is not None and role not in LINK_ROLES:
        raise Invalid("Choose Viewer, Commenter or Editor.", "role")
    item = drive.get(store, caller.user, item_id)
    if drive.RANK[item["role"]] < drive.RANK[Role.EDITOR]:
        raise Invalid(f"You need edit access to change who can open “{item['name']}”.", "item_id")
    if access == "org" and org_of(store, item["owner"]) is None:
        raise Invalid(f"“{item['name']}” has no organisation to share with.", "access")
    values = {"link_access": access}
    if role is not None:
        values["link_role"] = role
    with store.transaction():
        store.update("drive_items", item_id, caller.actor, **values)
    return general_access(store, caller.user, item_id)


def access_label(ga: dict, *, own: bool = False) -> str:
    """How the dialog names a setting: "Restricted", "Anyone with the link", or the organisation's name."""
    a = ga["access"] if own else ga["effective"]
    return {"restricted": "Restricted", "anyone": "Anyone with the link"}.get(a) or (ga["org"] or "Organisation")


# ---------------------------------------------------------------- make a copy
def _family(root: str) -> list[tuple[str, list]]:
    """The tables whose rows are parts of a row of ``root`` (through ``link="part"``), parents first,
    each with its fields that point inside the family."""
    tables = {t.name: t for t in all_tables()}
    family, order = {root}, []
    changed = True
    while changed:
        changed = False
        for t in tables.values():
            if t.name in family or t.name in NOT_COPIED:
                continue
            if any(f.ref in family and f.link in ("part", "both") for f in t.fields):
                family.add(t.name)
                order.append(t.name)
                changed = True
    # Parents first: a table comes after every family table its fields point to.
    done, out = {root}, []
    while order:
        ready = [name for name in order
                 if {f.ref for f in tables[name].fields if f.ref in family and f.ref != name} <= done]
        if not ready:
            raise RuntimeError(f"the parts of {root} point at each other in a circle: {order}")
        for name in ready:
            out.append((name, [f for f in tables[name].fields if f.ref in family]))
            done.add(name)
            order.remove(name)
    return out


def _values(t, row: dict) -> dict:
    """A row's values to insert as a new row: not its key, nor ephemeral marks (when it was opened)."""
    return {k: v for k, v in row.items() if (f := t.by_name.get(k)) and f.cls not in (FieldClass.KEY, FieldClass.EPHEMERAL)}


def _copy_app_content(store: Store, actor: str, kind: str, old_ref: int, new_item: int) -> int:
    root = APP_TABLES[kind]
    new_ref = store.insert(root, actor, **{**_values(store.table(root), store.get(root, old_ref)), "item": new_item})
    ids = {root: {old_ref: new_ref}}
    for name, links in _family(root):
        t = store.table(name)
        ids[name] = {}
        parts = [f for f in links if f.link in ("part", "both") and f.ref != name]
        clauses, params = [], []
        for f in parts:
            olds = list(ids.get(f.ref, {}))
            if olds:
                clauses.append(f'"{f.name}" IN ({",".join("?" * len(olds))})')
                params += olds
        if not clauses:
            continue
        rows = store.select(name, " OR ".join(clauses), params, order=t.key)
        self_refs = [f for f in links if f.ref == name]
        for row in rows:
            vals = _values(t, row)
            for f in links:
                if f.ref != name and vals.get(f.name) in ids.get(f.ref, {}):
                    vals[f.name] = ids[f.ref][vals[f.name]]
            for f in self_refs:                  # a row pointing at an earlier row of its own table
                if vals.get(f.name) in ids[name]:
                    vals[f.name] = ids[name][vals[f.name]]
            ids[name][row[t.key]] = store.insert(name, actor, **vals)
    return new_ref


def make_copy(store: Store, caller: Caller, item_id: int) -> dict:
    """Make a copy of a file, Doc, Sheet or Deck: “Copy of <name>”, owned by the caller, in the same
    folder when the caller can add to it (else in their My Drive), with the same content (comments
    and suggestions stay behind, as in Drive). Folders can't be copied. Returns the new item."""
    item = drive.get(store, caller.user, item_id)
    if item["kind"] == FOLDER:
        raise Invalid("Folders can't be copied.", "item_id")
    parent = item["parent"]
    if parent is not None:
        folder = store.get("drive_items", parent)
        role = drive.role_of(store, caller.user, folder) if folder else None
        if role is None or drive.RANK[role] < drive.RANK[Role.EDITOR] or drive.is_trashed(store, folder):
            parent = None
    name = f"Copy of {item['name']}"[: drive.MAX_NAME]
    with store.transaction():
        now = store.now_iso()
        new = store.insert("drive_items", caller.actor, kind=item["kind"], name=name, parent=parent,
                           owner=caller.user, blob=item["blob"], mime=item["mime"], size=item["size"],
                           description=item["description"], created_at=now, modified_at=now,
                           modified_by=caller.user)
        if item["kind"] in APP_TABLES:
            ref = _copy_app_content(store, caller.actor, item["kind"], item["ref"], new)
            store.update("drive_items", new, caller.actor, ref=ref)
    return drive.get(store, caller.user, new)


# ---------------------------------------------------------------- layout
def layout(store: Store, user: str) -> str:
    row = store.one("SELECT layout FROM drive_prefs WHERE user=?", (user,))
    return row["layout"] if row and row["layout"] in LAYOUTS else "list"


def set_layout(store: Store, caller: Caller, value: str) -> None:
    if value not in LAYOUTS:
        raise Invalid("Layout must be list or grid.", "layout")
    row = store.one("SELECT id FROM drive_prefs WHERE user=?", (caller.user,))
    if row is None:
        store.insert("drive_prefs", caller.actor, user=caller.user, layout=value)
    else:
        store.update("drive_prefs", row["id"], caller.actor, layout=value)


# ---------------------------------------------------------------- activity
_WHAT = (("name", "renamed"), ("parent", "moved"), ("link_access", "changed general access"),
         ("link_role", "changed general access"), ("trashed", "trashed"), ("modified_at", "edited"))


def activity(store: Store, user: str, item_id: int) -> list[dict]:
    """What happened to an item, newest first: created, shared (who, with what role), and every change the
    store's write log holds — renamed, moved, edited, general access changed, trashed or restored, a
    person's access changed. Each entry: ``at`` (UTC ISO), ``who`` (a name; "You" for the signed-in
    user), ``what`` and ``detail``.

    The write log names the fields a write changed, not their values, so only the latest change of a kind
    (of the item's name, its general access, one person's role) can say what it changed to: the value now.
    Trashing and restoring alternate (a write that changes nothing is not logged), so each is known."""
    item = drive.get(store, user, item_id, allow_trashed=True)

    def who(actor_or_slug: str) -> str:
        if actor_or_slug in (AGENT, user):
            return "You"
        p = directory.person(store, actor_or_slug)
        return p["name"] if p else actor_or_slug

    shares = {s["id"]: s for s in drive.shares(store, item_id)}
    # (at, seq, actor, what, kind): ``kind`` groups the changes whose latest one carries the value now.
    events = [(item["created_at"], 0, item["owner"], "created", "created")]
    events += [(s["shared_at"], 0, s["shared_by"] or item["owner"], "shared", ("share", sid)) for sid, s in shares.items()]
    rows = store.all("SELECT * FROM _writes WHERE actor<>? AND ((tbl='drive_items' AND pk=? AND op='update')"
                     f" OR (tbl='drive_shares' AND op='update' AND pk IN ({','.join('?' * len(shares)) or 'NULL'})))"
                     " ORDER BY seq", (SYSTEM, item_id, *shares))
    for w in rows:
        if w["tbl"] == "drive_shares":
            events.append((w["at"], w["seq"], w["actor"], "changed access", ("share", w["pk"])))
            continue
        fields = set(json.loads(w["fields"]))
        what = next((label for f, label in _WHAT if f in fields), None)
        if what == "edited" and events[-1][2] == w["actor"] and events[-1][3] == "edited":
            events[-1] = (w["at"], w["seq"], w["actor"], what, what)     # one entry for a run of edits
        elif what == "edited" and events[-1][2] == w["actor"] and events[-1][0] == w["at"]:
            continue                                # the touch that goes with a rename, a move, ...
        elif what:
            events.append((w["at"], w["seq"], w["actor"], what, what))
    org = org_of(store, item["owner"])
    now = {"created": item["name"], "renamed": item["name"],
           "changed general access": access_label({"effective": item["link_access"] or "restricted",
                                                   "org": org["name"] if org else None})}
    out, seen, trashed = [], set(), bool(item["trashed"])
    for at, seq, actor, what, kind in sorted(events, key=lambda e: (e[0] or "", e[1]), reverse=True):
        latest = kind not in seen
        seen.add(kind)
        if what == "trashed":
            what, trashed = ("moved to the trash" if trashed else "restored"), not trashed
        if isinstance(kind, tuple):
            s = shares[kind[1]]
            detail = (s["name"] or s["person"]) + (f" ({s['role'].capitalize()})" if latest else "")
        else:
            detail = now.get(what, "") if latest else ""
        out.append({"at": at, "who": who(actor), "what": what, "detail": detail})
    return out
