"""Images from Drive (Insert → Image → Drive): the image files the user can open, for the picker; which
image blocks a save may keep (only Drive images the user can open)."""
from __future__ import annotations

from apps.core import preview
from apps.core.errors import NotFound
from apps.core.store.db import Store
from apps.drive import service as drive


def drive_images(store: Store, user: str, q: str = "", limit: int = 60) -> list[dict]:
    """Image files in Drive the user can open, most recently modified first: id, name, owner."""
    out = []
    like = f"%{q.strip().lower()}%"
    for r in store.all("SELECT id FROM drive_items WHERE kind='file' AND mime LIKE 'image/%' AND lower(name) LIKE ? "
                       "ORDER BY modified_at DESC, id DESC", (like,)):
        item = image(store, user, r["id"])
        if item is not None:
            out.append({"id": item["id"], "name": item["name"], "owner": item["owner"]})
        if len(out) >= limit:
            break
    return out


def image(store: Store, user: str, item_id: int) -> dict | None:
    """The Drive item if it is an image file the user can open, else None."""
    try:
        item = drive.get(store, user, int(item_id))
    except NotFound:
        return None
    return item if item["kind"] == drive.FILE and preview.kind(item["mime"]) == "image" else None


def allowed(store: Store, user: str, b: dict) -> bool:
    """Whether an image block shows a Drive image the user can open (a page can't show, or save, a file
    the user can't)."""
    iid = next((m[3] for m in b["marks"] if m[2] == "image"), None)
    return iid is not None and image(store, user, iid) is not None
