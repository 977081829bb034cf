"""Drive service layer: the only code that reads or writes Drive state.

GUI routes, the CLI, MCP tools and task oracles all call these functions.
Every function takes the store and a ``Caller``; visibility is enforced here
(an item the user cannot see is ``NotFound``, one they can see but not change
is ``Forbidden``).
"""
from __future__ import annotations

import re

from collections.abc import Iterable
from enum import StrEnum

from apps.core import local_files
from apps.core import people as directory
from apps.core.errors import Forbidden, Invalid, NotFound
from apps.core.files import guess_mime, put_blob
from apps.core.store.db import SYSTEM, Caller, Store
from apps.mail.delivery import notify_share

FOLDER = "folder"
FILE = "file"
# Items that open in an app, and where.
APP_KINDS = {"doc": "/docs/d/{ref}", "sheet": "/sheets/s/{ref}", "deck": "/slides/p/{ref}"}
FOLDER_MIME = "application/vnd.deskworld.folder"
MAX_NAME = 255


class Role(StrEnum):
    VIEWER = "viewer"
    COMMENTER = "commenter"
    EDITOR = "editor"
    OWNER = "owner"


RANK = {Role.VIEWER: 1, Role.COMMENTER: 2, Role.EDITOR: 3, Role.OWNER: 4}
SHARE_ROLES = (Role.VIEWER, Role.COMMENTER, Role.EDITOR)
SORTS = {"name": "lower(name)", "modified": "modified_at", "size": "coalesce(size, -1)",
         "owner": "owner"}


# ---------------------------------------------------------------- reading
def _row(store: Store, item_id: int) -> dict | None:
    return store.get("drive_items", item_id)


def ancestors(store: Store, item: dict) -> list[dict]:
    """From the item's parent up to its root, nearest first."""
    out, seen = [], {item["id"]}
    parent = item["parent"]
    while parent is not None and parent not in seen:
        row = _row(store, parent)
        if row is None:
            break
        out.append(row)
        seen.add(parent)
        parent = row["parent"]
    return out


def role_of(store: Store, user: str, item: dict) -> Role | None:
    """The user's role on an item: owner, or the best role shared on it or above it."""
    if item["owner"] == user:
        return Role.OWNER
    chain = [item] + ancestors(store, item)
    ids = [c["id"] for c in chain]
    marks = ",".join("?" * len(ids))
    roles = [Role(r["role"]) for r in store.all(
        f"SELECT role FROM drive_shares WHERE person=? AND item IN ({marks})", (user, *ids))]
    # Owning a folder above also gives full rights (your own My Drive tree).
    if any(c["owner"] == user for c in chain[1:]):
        roles.append(Role.EDITOR)
    return max(roles, key=RANK.get) if roles else None


def is_trashed(store: Store, item: dict) -> bool:
    return item["trashed"] or any(a["trashed"] for a in ancestors(store, item))


def get(store: Store, user: str, item_id: int, *, allow_trashed: bool = False) -> dict:
    item = _row(store, item_id)
    if item is None or role_of(store, user, item) is None:
        raise NotFound("That file or folder doesn't exist, or you don't have access to it.")
    if not allow_trashed and is_trashed(store, item):
        raise NotFound("That item is in the trash.")
    return _decorate(store, user, item)


def _decorate(store: Store, user: str, item: dict) -> dict:
    item = dict(item)
    item["role"] = role_of(store, user, item)
    item["starred"] = bool(store.scalar(
        "SELECT 1 FROM drive_stars WHERE item=? AND user=?", (item["id"], user)))
    item["shared"] = bool(store.scalar("SELECT 1 FROM drive_shares WHERE item=?", (item["id"],)))
    item["is_folder"] = item["kind"] == FOLDER
    item["app_url"] = APP_KINDS[item["kind"]].format(ref=item["ref"]) if item["kind"] in APP_KINDS else None
    owner = directory.person(store, item["owner"])
    item["owner_name"] = owner["name"] if owner else item["owner"]
    return item


def _require(store: Store, user: str, item: dict, need: Role) -> None:
    role = role_of(store, user, item)
    if role is None:
        raise NotFound("That file or folder doesn't exist, or you don't have access to it.")
    if RANK[role] < RANK[need]:
        raise Forbidden(f"You need {need.value} access to change “{item['name']}”.")


def _order(sort: str, desc: bool) -> str:
    col = SORTS.get(sort, SORTS["name"])
    direction = "DESC" if desc else "ASC"
    # Folders first, as in Drive.
    return f"CASE kind WHEN 'folder' THEN 0 ELSE 1 END, {col} {direction}, lower(name), id"


def children(store: Store, user: str, folder_id: int | None, *, sort: str = "name",
             desc: bool = False) -> list[dict]:
    """What is in a folder (``None`` = the user's My Drive)."""
    if folder_id is None:
        rows = store.select("drive_items", "parent IS NULL AND owner=? AND trashed=0", (user,),
                            order=_order(sort, desc))
    else:
        get(store, user, folder_id)
        rows = store.select("drive_items", "parent=? AND trashed=0", (folder_id,),
                            order=_order(sort, desc))
    return [_decorate(store, user, r) for r in rows]


def shared_with_me(store: Store, user: str, *, sort: str = "modified", desc: bool = True) -> list[dict]:
    rows = store.select(
        "drive_items",
        "id IN (SELECT item FROM drive_shares WHERE person=?) AND owner<>? AND trashed=0",
        (user, user), order=_order(sort, desc))
    return [_decorate(store, user, r) for r in rows if not is_trashed(store, r)]


def starred(store: Store, user: str) -> list[dict]:
    rows = store.select("drive_items", "id IN (SELECT item FROM drive_stars WHERE user=?)",
                        (user,), order=_order("name", False))
    return [_decorate(store, user, r) for r in rows
            if role_of(store, user, r) and not is_trashed(store, r)]


def recent(store: Store, user: str, limit: int = 50) -> list[dict]:
    """Files the user opened or changed, most recent first."""
    rows = store.all(
        "SELECT i.*, max(coalesce(v.at, ''), CASE WHEN i.modified_by=? THEN i.modified_at ELSE '' END)"
        " AS touched FROM drive_items i LEFT JOIN drive_views v ON v.item=i.id AND v.user=?"
        " WHERE i.kind<>'folder' AND i.trashed=0 AND (v.id IS NOT NULL OR i.modified_by=?)"
        " GROUP BY i.id ORDER BY touched DESC, i.id DESC", (user, user, user))
    out = []
    for r in rows:
        item = store.decode("drive_items", r)
        item.pop("touched", None)
        if role_of(store, user, item) and not is_trashed(store, item):
            out.append(_decorate(store, user, item))
        if len(out) >= limit:
            break
    return out


def trash(store: Store, user: str) -> list[dict]:
    """Items the user put in the trash (or owns and someone trashed)."""
    rows = store.select("drive_items", "trashed=1", order="trashed_at DESC, id DESC")
    return [_decorate(store, user, r) for r in rows
            if role_of(store, user, r) in (Role.OWNER, Role.EDITOR)]


def breadcrumbs(store: Store, user: str, item: dict) -> list[dict]:
    """Visible ancestors from the top, for the path bar; the first entry is
    a pseudo-root: My Drive or Shared with me."""
    chain = [a for a in reversed(ancestors(store, item)) if role_of(store, user, a)] + [item]
    top = chain[0]
    root = ({"id": None, "name": "My Drive", "root": "my-drive"} if top["owner"] == user
            and top["parent"] is None else {"id": None, "name": "Shared with me", "root": "shared"})
    return [root] + chain


# Drive's search operators (type:, owner:, is:starred, before:, after:) and the kinds and types each type names.
SEARCH_TYPES = {
    "folder": ("i.kind='folder'", ()), "document": ("i.kind='doc'", ()), "doc": ("i.kind='doc'", ()),
    "spreadsheet": ("(i.kind='sheet' OR i.mime IN (?, ?, ?))", ("text/csv", "text/tab-separated-values",
                    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")),
    "presentation": ("(i.kind='deck' OR i.mime=?)",
                     ("application/vnd.openxmlformats-officedocument.presentationml.presentation",)),
    "pdf": ("(i.mime='application/pdf' OR lower(i.name) LIKE '%.pdf')", ()),
    "image": ("i.mime LIKE 'image/%'", ()), "video": ("i.mime LIKE 'video/%'", ()), "audio": ("i.mime LIKE 'audio/%'", ()),
}
SEARCH_TYPES["drawing"] = SEARCH_TYPES["image"]
OPERATOR = re.compile(r'(?i)^(type|owner|is|before|after):(.+)$')


def search_terms(q: str) -> tuple[list[str], list[tuple[str, str]]]:
    """The words (a "quoted phrase" is one) and the operators of a Drive search: ("type", "pdf")…; a word with
    a colon that is no operator ("re:", "10:30") is a word."""
    words, ops = [], []
    for m in re.finditer(r'"([^"]*)"|(\S+)', q or ""):
        if m.group(1) is not None:
            if m.group(1).strip():
                words.append(m.group(1).strip().lower())
            continue
        op = OPERATOR.match(m.group(2))
        if op:
            ops.append((op.group(1).lower(), op.group(2).strip().strip('"').lower()))
        else:
            words.append(m.group(2).lower())
    return words, ops


def search(store: Store, user: str, q: str, limit: int = 100) -> list[dict]:
    """Files and folders whose name or text (a file's, a document's, the text on a deck's slides, in its layout boxes,
    text boxes and shapes) contains every word of ``q``, narrowed by Drive's operators: ``type:`` (pdf, document,
    spreadsheet, presentation, folder, image, video, audio), ``owner:`` (me, a person's id, email or name),
    ``is:starred``, ``before:`` / ``after:`` (YYYY-MM-DD, last modified)."""
    words, ops = search_terms(q)
    if not words and not ops:
        return []
    where, params = [], []
    for w in words:
        where.append("(lower(i.name) LIKE ? OR lower(coalesce(b.text, '')) LIKE ?"
                     " OR (i.kind='doc' AND EXISTS (SELECT 1 FROM docs_blocks d WHERE d.doc=i.ref AND lower(d.text) LIKE ?))"
                     " OR (i.kind='deck' AND EXISTS (SELECT 1 FROM slides_slides s JOIN slides_boxes x ON x.slide=s.id"
                     " WHERE s.deck=i.ref AND lower(x.text) LIKE ?))"
                     " OR (i.kind='deck' AND EXISTS (SELECT 1 FROM slides_slides s JOIN slides_objects o ON o.slide=s.id"
                     " WHERE s.deck=i.ref AND lower(o.text) LIKE ?)))")
        params += [f"%{w}%"] * 5
    for op, value in ops:
        if op == "type":
            if value not in SEARCH_TYPES:
                return []                                    # Drive finds nothing of a type it doesn't know
            sql, args = SEARCH_TYPES[value]
            where.append(sql)
            params += list(args)
        elif op == "owner":
            who = user if value == "me" else value
            where.append("(i.owner=? OR EXISTS (SELECT 1 FROM people p WHERE p.slug=i.owner AND"
                         " (lower(p.email)=? OR lower(p.name)=?)))")
            params += [who, value, value]
        elif op == "is":
            if value != "starred":
                return []
            where.append("EXISTS (SELECT 1 FROM drive_stars st WHERE st.item=i.id AND st.user=?)")
            params.append(user)
        else:                                                # before: / after: on the day last modified
            if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", value):
                raise Invalid(f"{op}: takes a date as YYYY-MM-DD (not {value!r}).", "q")
            where.append("substr(i.modified_at, 1, 10) < ?" if op == "before" else "substr(i.modified_at, 1, 10) > ?")
            params.append(value)
    first = words[0] if words else ""
    rows = store.all(
        "SELECT i.* FROM drive_items i LEFT JOIN blobs b ON b.id=i.blob WHERE i.trashed=0 AND "
        + " AND ".join(where) + " ORDER BY CASE i.kind WHEN 'folder' THEN 0 ELSE 1 END,"
        " CASE WHEN lower(i.name) LIKE ? THEN 0 ELSE 1 END, i.modified_at DESC, i.id",
        (*params, f"%{first}%"))
    out = []
    for r in rows:
        item = store.decode("drive_items", r)
        if role_of(store, user, item) and not is_trashed(store, item):
            out.append(_decorate(store, user, item))
        if len(out) >= limit:
            break
    return out


def shares(store: Store, item_id: int) -> list[dict]:
    rows = store.all(
        "SELECT s.*, p.name, p.email FROM drive_shares s LEFT JOIN people p ON p.slug=s.person"
        " WHERE s.item=? ORDER BY p.name", (item_id,))
    return [dict(r) for r in rows]


def access_list(store: Store, user: str, item_id: int) -> list[dict]:
    """Everyone with access: owner first, then direct and inherited shares."""
    item = get(store, user, item_id)
    owner = directory.person(store, item["owner"]) or {"name": item["owner"], "email": ""}
    out = [{"person": item["owner"], "name": owner["name"], "email": owner["email"],
            "role": Role.OWNER.value, "inherited_from": None}]
    seen = {item["owner"]}
    for s in shares(store, item_id):
        if s["person"] not in seen:
            out.append({**s, "inherited_from": None})
            seen.add(s["person"])
    for anc in ancestors(store, item):
        for s in shares(store, anc["id"]):
            if s["person"] not in seen:
                out.append({**s, "inherited_from": anc["name"]})
                seen.add(s["person"])
    return out


def app_items(store: Store, user: str, kind: str, q: str = "") -> list[dict]:
    """The Docs, Sheets or Decks (``kind``) a user can open, most recently modified first:
    the home page of each editor app."""
    out = []
    for it in store.select("drive_items", "kind=? AND trashed=0", (kind,), order="modified_at DESC, id DESC"):
        if role_of(store, user, it) is None or is_trashed(store, it):
            continue
        if q and q.lower() not in it["name"].lower():
            continue
        d = _decorate(store, user, it)
        d["shared_with"] = [a["name"] for a in access_list(store, user, it["id"])[1:]]
        out.append(d)
    return out


def folder_tree_level(store: Store, user: str, folder_id: int | None) -> list[dict]:
    """Sub-folders for the Move dialog's browser."""
    return [c for c in children(store, user, folder_id) if c["kind"] == FOLDER]


def file_path(store: Store, item: dict) -> str:
    names = [a["name"] for a in reversed(ancestors(store, item))] + [item["name"]]
    return "/".join(names)


def find_path(store: Store, owner: str, path: str) -> dict | None:
    """An item by its path under the owner's My Drive (``Matters/…/x.pdf``)."""
    parent = None
    row = None
    for part in [p for p in path.split("/") if p]:
        if parent is None:
            row = store.one("SELECT * FROM drive_items WHERE parent IS NULL AND owner=? AND name=?",
                            (owner, part))
        else:
            row = store.one("SELECT * FROM drive_items WHERE parent=? AND name=?", (parent, part))
        if row is None:
            return None
        parent = row["id"]
    return store.decode("drive_items", row) if row is not None else None


def storage_used(store: Store, user: str) -> int:
    return store.scalar("SELECT coalesce(sum(size), 0) FROM drive_items WHERE owner=?", (user,))


# ---------------------------------------------------------------- writing
def _clean_name(name: str, field: str = "name") -> str:
    name = " ".join((name or "").split())
    if not name:
        raise Invalid("Enter a name.", field)
    if len(name) > MAX_NAME:
        raise Invalid(f"Names can be at most {MAX_NAME} characters.", field)
    return name


def _target_folder(store: Store, user: str, parent: int | None) -> dict | None:
    if parent is None:
        return None
    folder = get(store, user, parent)
    if folder["kind"] != FOLDER:
        raise Invalid("Files can only be put in folders.", "parent")
    _require(store, user, folder, Role.EDITOR)
    return folder


def touch(store: Store, caller: Caller, item_id: int | None) -> None:
    """Mark an item modified now by the caller (an edit in its app)."""
    if item_id is not None:
        store.update("drive_items", item_id, caller.actor, modified_at=store.now_iso(),
                     modified_by=caller.user)


def create_folder(store: Store, caller: Caller, parent: int | None, name: str) -> int:
    name = _clean_name(name)
    with store.transaction():
        _target_folder(store, caller.user, parent)
        now = store.now_iso()
        return store.insert("drive_items", caller.actor, kind=FOLDER, name=name, parent=parent,
                            owner=caller.user, mime=FOLDER_MIME, created_at=now, modified_at=now,
                            modified_by=caller.user)


def create_app_item(store: Store, caller: Caller, parent: int | None, name: str, kind: str, mime: str) -> int:
    """The Drive item of a new Doc, Sheet or Deck (the app sets ``ref``)."""
    name = _clean_name(name)
    with store.transaction():
        _target_folder(store, caller.user, parent)
        now = store.now_iso()
        return store.insert("drive_items", caller.actor, kind=kind, name=name, parent=parent, owner=caller.user,
                            mime=mime, created_at=now, modified_at=now, modified_by=caller.user)


def add_file(store: Store, caller: Caller, parent: int | None, name: str, data: bytes,
             mime: str | None = None) -> int:
    name = _clean_name(name)
    mime = mime or guess_mime(name)
    with store.transaction():
        _target_folder(store, caller.user, parent)
        blob = put_blob(store, data, mime, actor=caller.actor)
        now = store.now_iso()
        return store.insert("drive_items", caller.actor, kind=FILE, name=name, parent=parent,
                            owner=caller.user, blob=blob, mime=mime, size=len(data),
                            created_at=now, modified_at=now, modified_by=caller.user)


def add_blob(store: Store, caller: Caller, parent: int | None, name: str, blob_id: int) -> int:
    """A Drive file for bytes already in the store (a mail attachment saved to Drive)."""
    name = _clean_name(name)
    blob = store.get("blobs", blob_id)
    if blob is None:
        raise NotFound("That file no longer exists.")
    with store.transaction():
        _target_folder(store, caller.user, parent)
        now = store.now_iso()
        return store.insert("drive_items", caller.actor, kind=FILE, name=name, parent=parent,
                            owner=caller.user, blob=blob_id, mime=blob["mime"], size=blob["size"],
                            created_at=now, modified_at=now, modified_by=caller.user)


def upload_local(store: Store, caller: Caller, parent: int | None, local_ids: Iterable[int]) -> list[int]:
    """Upload files from the user's computer (the in-app picker)."""
    ids = list(local_ids)
    if not ids:
        raise Invalid("Choose at least one file to upload.", "files")
    out = []
    with store.transaction():
        for lid in ids:
            f = local_files.get(store, caller.user, lid)
            out.append(add_blob(store, caller, parent, f["name"], f["blob"]))
    return out


def rename(store: Store, caller: Caller, item_id: int, name: str) -> None:
    name = _clean_name(name)
    item = get(store, caller.user, item_id)
    _require(store, caller.user, item, Role.EDITOR)
    with store.transaction():
        if store.update("drive_items", item_id, caller.actor, name=name):
            touch(store, caller, item_id)


def move(store: Store, caller: Caller, item_ids: Iterable[int], target: int | None) -> int:
    """Move items into a folder (``None`` = the caller's My Drive). Returns how many moved."""
    ids = list(dict.fromkeys(item_ids))
    if not ids:
        raise Invalid("Select something to move.", "items")
    with store.transaction():
        folder = _target_folder(store, caller.user, target)
        moved = 0
        for item_id in ids:
            item = get(store, caller.user, item_id)
            _require(store, caller.user, item, Role.EDITOR)
            if target is None and item["owner"] != caller.user:
                raise Forbidden(f"Only the owner can move “{item['name']}” to My Drive.")
            if folder is not None and (folder["id"] == item_id
                                       or item_id in [a["id"] for a in ancestors(store, folder)]):
                raise Invalid(f"You can't move “{item['name']}” into itself.", "target")
            if item["parent"] != target:
                store.update("drive_items", item_id, caller.actor, parent=target)
                moved += 1
    return moved


def set_trashed(store: Store, caller: Caller, item_ids: Iterable[int], trashed: bool) -> int:
    ids = list(dict.fromkeys(item_ids))
    if not ids:
        raise Invalid("Select something first.", "items")
    n = 0
    with store.transaction():
        for item_id in ids:
            item = get(store, caller.user, item_id, allow_trashed=True)
            _require(store, caller.user, item, Role.EDITOR)
            if item["trashed"] != trashed:
                store.update("drive_items", item_id, caller.actor, trashed=trashed,
                             trashed_at=store.now_iso() if trashed else None)
                n += 1
    return n


def _subtree(store: Store, item_id: int) -> list[int]:
    out, todo = [], [item_id]
    while todo:
        cur = todo.pop()
        out.append(cur)
        todo += [r["id"] for r in store.all("SELECT id FROM drive_items WHERE parent=?", (cur,))]
    return out


def delete_forever(store: Store, caller: Caller, item_ids: Iterable[int]) -> int:
    """Permanently delete trashed items (and everything inside them)."""
    ids = list(dict.fromkeys(item_ids))
    if not ids:
        raise Invalid("Select something first.", "items")
    n = 0
    with store.transaction():
        for item_id in ids:
            item = get(store, caller.user, item_id, allow_trashed=True)
            if not item["trashed"]:
                raise Invalid(f"Move “{item['name']}” to the trash first.", "items")
            _require(store, caller.user, item, Role.EDITOR)
            for sub in _subtree(store, item_id):
                for table in ("drive_shares", "drive_stars", "drive_views"):
                    for r in store.all(f"SELECT id FROM {table} WHERE item=?", (sub,)):
                        store.delete(table, r["id"], caller.actor)
                store.delete("drive_items", sub, caller.actor)
                n += 1
    return n


def empty_trash(store: Store, caller: Caller) -> int:
    ids = [i["id"] for i in trash(store, caller.user)]
    return delete_forever(store, caller, ids) if ids else 0


def set_starred(store: Store, caller: Caller, item_ids: Iterable[int], starred_: bool) -> None:
    with store.transaction():
        for item_id in dict.fromkeys(item_ids):
            get(store, caller.user, item_id)
            row = store.one("SELECT id FROM drive_stars WHERE item=? AND user=?", (item_id, caller.user))
            if starred_ and row is None:
                store.insert("drive_stars", caller.actor, item=item_id, user=caller.user)
            elif not starred_ and row is not None:
                store.delete("drive_stars", row["id"], caller.actor)


def share(store: Store, caller: Caller, item_id: int, people: Iterable[str], role: str,
          *, notify: bool = True, message: str = "") -> list[str]:
    """Give people access. ``people`` are person slugs or addresses in the directory."""
    try:
        role_ = Role(role)
    except ValueError:
        raise Invalid("Choose Viewer, Commenter or Editor.", "role") from None
    if role_ not in SHARE_ROLES:
        raise Invalid("Choose Viewer, Commenter or Editor.", "role")
    item = get(store, caller.user, item_id)
    _require(store, caller.user, item, Role.EDITOR)
    slugs = []
    for who in people:
        who = who.strip()
        if not who:
            continue
        p = directory.person(store, who) or directory.by_email(store, who)
        if p is None:
            raise Invalid(f"“{who}” isn't in your organisation's directory.", "people")
        slugs.append(p["slug"])
    if not slugs:
        raise Invalid("Add at least one person.", "people")
    added = []
    with store.transaction():
        for slug in dict.fromkeys(slugs):
            if slug == item["owner"]:
                continue
            row = store.one("SELECT id, role FROM drive_shares WHERE item=? AND person=?", (item_id, slug))
            if row is None:
                store.insert("drive_shares", caller.actor, item=item_id, person=slug, role=role_.value,
                             shared_by=caller.user, shared_at=store.now_iso())
                added.append(slug)
            elif row["role"] != role_.value:
                store.update("drive_shares", row["id"], caller.actor, role=role_.value)
        if notify and added:
            notify_share(store, caller, item, added, role_.value, message)
    return added


def set_role(store: Store, caller: Caller, item_id: int, person: str, role: str) -> None:
    if role == "remove":
        return unshare(store, caller, item_id, person)
    if role not in [r.value for r in SHARE_ROLES]:
        raise Invalid("Choose Viewer, Commenter or Editor.", "role")
    item = get(store, caller.user, item_id)
    _require(store, caller.user, item, Role.EDITOR)
    row = store.one("SELECT id FROM drive_shares WHERE item=? AND person=?", (item_id, person))
    if row is None:
        raise NotFound("That person doesn't have direct access to this item.")
    store.update("drive_shares", row["id"], caller.actor, role=role)


def unshare(store: Store, caller: Caller, item_id: int, person: str) -> None:
    item = get(store, caller.user, item_id)
    _require(store, caller.user, item, Role.EDITOR)
    row = store.one("SELECT id FROM drive_shares WHERE item=? AND person=?", (item_id, person))
    if row is None:
        raise NotFound("That person doesn't have direct access to this item.")
    store.delete("drive_shares", row["id"], caller.actor)


def record_view(store: Store, caller: Caller, item_id: int) -> None:
    """Opening a file: an ephemeral mark for Recent (never content)."""
    row = store.one("SELECT id FROM drive_views WHERE item=? AND user=?", (item_id, caller.user))
    if row is None:
        store.insert("drive_views", caller.actor, item=item_id, user=caller.user, at=store.now_iso())
    else:
        store.update("drive_views", row["id"], caller.actor, at=store.now_iso())


def seed_item(store: Store, **values) -> int:
    return store.insert("drive_items", SYSTEM, **values)
