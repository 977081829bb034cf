"""The signed-in user's computer: the files the in-app upload picker offers.

They come from the world's ``local/`` folder and are read-only; uploading or
attaching one stores a reference to the same bytes.
"""
from __future__ import annotations

from apps.core.errors import NotFound
from apps.core.store.db import Store


def folder(store: Store, user: str, path: str = "") -> tuple[list[str], list[dict]]:
    """Sub-folders and files directly in ``path`` ("" = the top)."""
    path = path.strip("/")
    rows = store.all("SELECT l.*, b.size FROM local_files l JOIN blobs b ON b.id=l.blob"
                     " WHERE l.owner=? ORDER BY l.path", (user,))
    prefix = path + "/" if path else ""
    dirs, files = set(), []
    for r in rows:
        if not r["path"].startswith(prefix):
            continue
        rest = r["path"][len(prefix):]
        if "/" in rest:
            dirs.add(rest.split("/", 1)[0])
        else:
            files.append(dict(r))
    return sorted(dirs), files


def get(store: Store, user: str, file_id: int) -> dict:
    row = store.one("SELECT l.*, b.size, b.mime FROM local_files l JOIN blobs b ON b.id=l.blob"
                    " WHERE l.id=? AND l.owner=?", (file_id, user))
    if row is None:
        raise NotFound("That file isn't on this computer.")
    return dict(row)
