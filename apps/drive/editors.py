"""The kit of the editors whose files live in Drive: Docs, Sheets and Slides.

A document, spreadsheet or presentation is a Drive item (its name is the
title; owner, folder, sharing and trash are Drive's) plus one row of the
editor's own table that points at it (``item``, and the item's ``ref`` points
back). ``Editor`` describes one such app and does what every editor does the
same way: open a file through Drive's access checks, list, create, rename,
trash, mark opened, count a revision. Each editor's service module keeps one
``Editor`` and adds only its own content (blocks, tabs and cells, slides).

The routes every editor shares (rename, download, move to trash) are added by
``apps.drive.editor_routes``.
"""
from __future__ import annotations

from dataclasses import dataclass

from apps.core.errors import NotFound
from apps.core.store.db import Caller, Store
from apps.drive import service as drive


@dataclass(frozen=True)
class Editor:
    """One editor app's files: ``table`` holds a row per file, of Drive kind ``kind``."""
    table: str                 # "docs_documents"
    kind: str                  # the Drive item kind: "doc"
    mime: str                  # the Drive item's type: "application/vnd.deskworld.doc"
    untitled: str              # the title of a new file: "Untitled document"
    noun: str                  # what a file is called in messages: "document"

    def row(self, store: Store, ref: int) -> dict:
        """The editor's row of a file (no access check: see ``open``)."""
        row = store.get(self.table, ref)
        if row is None:
            raise NotFound(f"That {self.noun} doesn't exist, or you don't have access to it.")
        return row

    def open(self, store: Store, user: str, ref: int) -> dict:
        """A file the user can open: its row, its Drive item (with the user's role), title and role."""
        row = self.row(store, ref)
        item = drive.get(store, user, row["item"])
        return {**row, "item": item, "title": item["name"], "role": item["role"]}

    def by_item(self, store: Store, item_id: int) -> dict | None:
        """The editor's row for a Drive item, or None."""
        return store.decode(self.table, store.one(f"SELECT * FROM {self.table} WHERE item=?", (item_id,)))

    def listing(self, store: Store, user: str, q: str = "") -> list[dict]:
        """The Drive items of the files the user can open, most recently modified first."""
        return drive.app_items(store, user, self.kind, q)

    def create(self, store: Store, caller: Caller, parent: int | None, title: str) -> int:
        """A new, empty file in a folder (``None`` = My Drive): its Drive item and row. Returns the
        row's id; the editor writes the content (in the same transaction, to be all-or-nothing)."""
        with store.transaction():
            item = drive.create_app_item(store, caller, parent, title or self.untitled, self.kind, self.mime)
            ref = store.insert(self.table, caller.actor, item=item, revision=1)
            store.update("drive_items", item, caller.actor, ref=ref)
        return ref

    def rename(self, store: Store, caller: Caller, ref: int, title: str) -> None:
        """Rename the file (its Drive item): Drive's rules for names and edit access."""
        drive.rename(store, caller, self.open(store, caller.user, ref)["item"]["id"], title)

    def trash(self, store: Store, caller: Caller, ref: int) -> dict:
        """Move the file to Drive's trash (edit access needed); returns it as it was opened."""
        record = self.open(store, caller.user, ref)
        drive.set_trashed(store, caller, [record["item"]["id"]], True)
        return record

    def record_open(self, store: Store, caller: Caller, ref: int) -> None:
        """The user opened the file: an ephemeral mark, and the file goes to the top of Drive's Recent."""
        row = self.row(store, ref)
        store.update(self.table, ref, caller.actor, opened_at=store.now_iso())
        drive.record_view(store, caller, row["item"])

    def bump(self, store: Store, caller: Caller, record: dict) -> None:
        """After a change to an opened file's content: one more revision, modified now by the caller."""
        store.update(self.table, record["id"], caller.actor, revision=record["revision"] + 1)
        drive.touch(store, caller, record["item"]["id"])
