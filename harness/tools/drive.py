"""Drive tools: find, list and read files, see and change who has access, organise, save mail
attachments."""
from __future__ import annotations

from typing import Literal

from apps.core.errors import Invalid, NotFound
from apps.core.files import blob_text
from apps.core.store.db import Caller, Store
from apps.drive import service as drive
from apps.drive import sharing
from apps.mail import service as mail
from harness.tools.registry import read, write

OPENS_WITH = {"doc": "docs.read", "sheet": "sheets.get", "deck": "slides.read"}
NOUNS = {"doc": "document", "sheet": "spreadsheet", "deck": "presentation"}
LISTED_BY = {"doc": "docs.list", "sheet": "sheets.list", "deck": "slides.list"}


def app_ref(store: Store, user: str, kind: str, ref: str | int) -> int:
    """The id of a Doc, Sheet or Deck (``kind``) given by its id or its title: the exact
    title (any case), else the one title that contains ``ref``. Titles are what people say;
    ids are what the apps take."""
    ref = str(ref).strip()
    if ref.isdigit():
        return int(ref)
    items = drive.app_items(store, user, kind)
    found = [i for i in items if i["name"].lower() == ref.lower()] or \
        [i for i in items if ref.lower() in i["name"].lower()]
    if len(found) == 1:
        return found[0]["ref"]
    if not found:
        raise NotFound(f"No {NOUNS[kind]} you can open is titled “{ref}”; {LISTED_BY[kind]} lists them.")
    names = "; ".join(f"“{i['name']}” (id {i['ref']})" for i in found[:6])
    raise Invalid(f"{len(found)} {NOUNS[kind]}s match “{ref}”: {names}. Give the id.", kind)


def read_file(store: Store, caller: Caller, item_id: int) -> dict:
    """Open a file: its details and its text (PDFs, Word files, text, CSV…). Docs, Sheets and Slides
    open with their own tools. Opening puts it in Recent."""
    item = drive.get(store, caller.user, item_id)
    if item["kind"] == drive.FOLDER:
        raise Invalid(f"“{item['name']}” is a folder: drive.list shows what is in it.", "item_id")
    if item["kind"] in OPENS_WITH:
        raise Invalid(f"“{item['name']}” opens in {item['kind']}s: use {OPENS_WITH[item['kind']]} "
                      f"with id {item['ref']}.", "item_id")
    drive.record_view(store, caller, item_id)
    return {"item": item, "text": blob_text(store, item["blob"]) if item["blob"] else ""}


def save_attachment(store: Store, caller: Caller, attachment_id: int, folder_id: int | None = None) -> dict:
    """Save a mail attachment (see mail.read) to Drive: My Drive or a folder you can add to, as the
    attachment's "Save to Drive" does. Returns the new file."""
    a = mail.attachment(store, caller.user, attachment_id)
    if a["blob"] is None:
        raise Invalid(f"“{a['name']}” is already in Drive (item {a['drive_item']}); it is a link to it.",
                      "attachment_id")
    return drive.get(store, caller.user, drive.add_blob(store, caller, folder_id, a["name"], a["blob"]))


ITEM = "The Drive item id."
ITEMS = "Drive item ids."

TOOLS = [
    read(drive.search, "drive.search",
         "Files and folders the user can open whose name or text contains every word of the query; "
         "folders first, then name matches, newest first.",
         args={"q": "Words to look for, \"a phrase\", and Drive's operators: type:pdf|document|spreadsheet|"
                     "presentation|folder|image, owner:me (or a person), is:starred, before:/after:YYYY-MM-DD.",
               "limit": "At most this many."}),
    read(drive.children, "drive.list", "What is in a folder (folders first).",
         args={"folder_id": "The folder's id; null for the user's My Drive.",
               "sort": "name, modified, size or owner.", "desc": "Reverse the order."},
         types={"sort": Literal["name", "modified", "size", "owner"]}, defaults={"folder_id": None}),
    read(drive.shared_with_me, "drive.shared_with_me", "Items other people shared with the user, newest first.",
         args={"sort": "name, modified, size or owner.", "desc": "Newest (or largest, or last) first."},
         types={"sort": Literal["name", "modified", "size", "owner"]}),
    read(drive.get, "drive.get", "One file or folder: name, kind, owner, size, dates, the user's role.",
         args={"item_id": ITEM, "allow_trashed": "Also find it in the trash."}),
    read(read_file, "drive.read", args={"item_id": ITEM}),
    read(drive.access_list, "drive.access", "Who has access to an item: the owner, then shares (with the "
         "folder a share is inherited from).", args={"item_id": ITEM}),
    write(drive.share, "drive.share",
          "Give people access to a file or folder (you need edit access); by default they get an email. "
          "Returns the people newly added.",
          args={"item_id": ITEM, "people": "Person ids or email addresses from the directory.",
                "role": "What they may do.", "notify": "Email them about it.",
                "message": "A note for the email."},
          types={"people": list[str], "role": Literal["viewer", "commenter", "editor"]}),
    write(sharing.set_general_access, "drive.general_access",
          "Set an item's general access, as the Share dialog does: restricted (only people added), org (anyone "
          "in the owner's organisation with the link) or anyone (anyone with the link), and what the link lets "
          "them do. People it is shared with directly keep their access. Returns the setting (drive.get shows "
          "link_access and link_role too).",
          args={"item_id": ITEM, "access": "restricted, org or anyone.",
                "role": "viewer, commenter or editor; null keeps the current one."},
          types={"access": Literal["restricted", "org", "anyone"],
                 "role": Literal["viewer", "commenter", "editor"] | None}, defaults={"role": None}),
    write(sharing.make_copy, "drive.copy",
          "Make a copy of a file, document, spreadsheet or presentation: “Copy of <name>”, yours, in the same "
          "folder (or My Drive if you can't add to it). Returns the new item.", args={"item_id": ITEM}),
    write(drive.create_folder, "drive.create_folder", "Create a folder. Returns its id.",
          args={"parent": "The folder to put it in; null for My Drive.", "name": "The folder's name."},
          defaults={"parent": None}),
    write(drive.rename, "drive.rename", "Rename a file or folder.", args={"item_id": ITEM, "name": "The new name."}),
    write(drive.move, "drive.move", "Move items into a folder. Returns how many moved.",
          args={"item_ids": ITEMS, "target": "The folder's id; null for My Drive."},
          types={"item_ids": list[int]}),
    write(drive.set_trashed, "drive.set_trashed",
          "Move items to the trash, or restore them from it. Returns how many changed.",
          args={"item_ids": ITEMS, "trashed": "True to trash, false to restore."},
          types={"item_ids": list[int]}),
    write(save_attachment, "drive.save_attachment",
          args={"attachment_id": "The attachment's id (the `attachments` of a message in mail.read).",
                "folder_id": "The folder to save it in; null for My Drive."}),
]
