"""Version history (File → Version history): the document's versions, named and automatic, newest first;
name the current version; look at one; restore one. Versions are kept by ``apps.docs.history``."""
from __future__ import annotations

import apps.docs.blocks as B
import apps.docs.history as H
from apps.core.errors import Invalid, NotFound
from apps.core.store.db import Caller, Store
from apps.docs import service
from apps.drive.service import Role

MAX_NAME = 100


def versions(store: Store, user: str, doc_id: int, named_only: bool = False) -> list[dict]:
    """Newest first: id, name (None for an automatic version), author, created_at, the text as it was
    (accepted text, ``text``) and whether it is the document as it now is (``current``)."""
    service.get(store, user, doc_id)
    rows = store.select("docs_versions", "doc=?", (doc_id,), order="id DESC")
    now = H.current_html(store, doc_id)
    out = []
    for i, v in enumerate(rows):
        blocks = B.from_html(B.sanitize(v["html"] or ""))
        out.append({"id": v["id"], "name": v["name"], "author": v["author"], "created_at": v["created_at"],
                    "text": B.plain_text(blocks), "current": i == 0 and v["html"] == now})
    return [v for v in out if v["name"]] if named_only else out


def version(store: Store, user: str, version_id: int) -> dict:
    """One version: as ``versions`` lists it, with its ``html`` and ``blocks``, and its ``doc``."""
    v = store.get("docs_versions", version_id)
    if v is None:
        raise NotFound("That version doesn't exist.")
    service.get(store, user, v["doc"])
    html = v["html"] or ""
    return {**v, "blocks": B.from_html(B.sanitize(html)), "html": html}


def name_current(store: Store, caller: Caller, doc_id: int, name: str) -> int:
    """File → Version history → Name current version. Returns the version's id."""
    name = " ".join((name or "").split())
    if not name:
        raise Invalid("Give the version a name.", "name")
    if len(name) > MAX_NAME:
        raise Invalid(f"A version's name can be at most {MAX_NAME} characters.", "name")
    doc = service.get(store, caller.user, doc_id)
    service._require(doc, Role.EDITOR)
    now = H.current_html(store, doc_id)
    rows = store.select("docs_versions", "doc=?", (doc_id,), order="id DESC")
    with store.transaction():
        if rows and rows[0]["html"] == now:
            store.update("docs_versions", rows[0]["id"], caller.actor, name=name)
            return rows[0]["id"]
        return store.insert("docs_versions", caller.actor, doc=doc_id, name=name, author=caller.user,
                            created_at=store.now_iso(), html=now)


def restore(store: Store, caller: Caller, version_id: int) -> bool:
    """Make the document what it was in this version (a new version then records the restore). Returns
    whether the document changed."""
    v = version(store, caller.user, version_id)
    service._require(service.get(store, caller.user, v["doc"]), Role.EDITOR)
    return service.save_editor(store, caller, v["doc"], v["html"])[0]
