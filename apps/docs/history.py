"""Automatic versions: after each change to a document's text or suggestions, the latest version is the
document as it now is. A new version starts when someone else edits, after a pause of ``GAP`` minutes
of world time, or after a named version; the first change also keeps the document as it was before
(its original version). Named versions never change. ``apps.docs.versions`` lists, names and restores."""
from __future__ import annotations

from datetime import timedelta

import apps.docs.suggest as S
from apps.core.store.db import Caller, Store, parse_iso

GAP = timedelta(minutes=30)


def current_html(store: Store, doc_id: int) -> str:
    blocks = [{"type": r["type"], "level": r["level"], "text": r["text"], "marks": r["marks"]}
              for r in store.select("docs_blocks", "doc=?", (doc_id,), order="seq")]
    return S.editor_html(store, doc_id, blocks)


def record(store: Store, caller: Caller, doc: dict, before_html: str) -> None:
    """Call after a change to ``doc`` (as ``service.get`` returned it before the change) is written."""
    doc_id = doc["id"]
    now = store.now_iso()
    versions = store.select("docs_versions", "doc=?", (doc_id,), order="id")
    if not versions:                                      # the document as it was before anyone changed it here
        item = doc["item"]
        store.insert("docs_versions", caller.actor, doc=doc_id, author=item.get("modified_by") or item.get("owner"),
                     created_at=item.get("modified_at") or item.get("created_at") or now, html=before_html)
    html = current_html(store, doc_id)
    last = versions[-1] if versions else None
    if last and not last["name"] and last["author"] == caller.user \
            and parse_iso(now) - parse_iso(last["created_at"]) <= GAP:
        store.update("docs_versions", last["id"], caller.actor, html=html, created_at=now)
    else:
        store.insert("docs_versions", caller.actor, doc=doc_id, author=caller.user, created_at=now, html=html)
