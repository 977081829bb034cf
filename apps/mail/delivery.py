"""Mail delivery: writing a message into the mailboxes of its sender and recipients.

The one Mail module other apps may import: it depends only on ``apps.core``.
Sending from Mail (``compose.send_draft``) and the world's mail seed go
through ``deliver``; Drive's sharing tells people with ``notify_share``, an
email sent by the system on the sharer's behalf.
"""
from __future__ import annotations

from apps.core import addresses
from apps.core import people as directory
from apps.core.store.db import Caller, Store


def deliver(store: Store, *, actor: str, sender: str, sender_name: str, to: list[str],
            cc: list[str] = (), bcc: list[str] = (), subject: str, body: str,
            thread: int | None = None, in_reply_to: int | None = None,
            forward_of: int | None = None, files: list[dict] = (), sent_at: str | None = None,
            read_by: tuple[str, ...] = ()) -> int:
    """Write a message and put it in the mailboxes of the sender and every
    recipient who is in the directory. Outside recipients are remembered as
    contacts (their mailboxes are outside this world)."""
    sent_at = sent_at or store.now_iso()
    with store.transaction():
        if thread is None:
            thread = store.insert("mail_threads", actor, subject=subject)
        mid = store.insert("mail_messages", actor, thread=thread, sender=sender, sender_name=sender_name,
                           to=list(to), cc=list(cc), bcc=list(bcc), subject=subject, body=body,
                           sent_at=sent_at, in_reply_to=in_reply_to, forward_of=forward_of)
        for f in files:
            store.insert("mail_attachments", actor, message=mid, name=f["name"], mime=f["mime"],
                         size=f["size"], blob=f["blob"], drive_item=f.get("drive_item"))
        recipients = list(dict.fromkeys([*to, *cc, *bcc]))
        owner = directory.by_email(store, sender)
        if owner is not None:
            store.insert("mail_boxes", actor, owner=owner["slug"], message=mid, thread=thread,
                         inbox=sender in recipients, read=True)
        for addr in recipients:
            p = directory.by_email(store, addr)
            if p is None:
                addresses.remember(store, addr, addr, actor)
                continue
            if owner is not None and p["slug"] == owner["slug"]:
                continue
            store.insert("mail_boxes", actor, owner=p["slug"], message=mid, thread=thread, inbox=True,
                         read=p["slug"] in read_by)
    return mid


def notify_share(store: Store, caller: Caller, item: dict, slugs: list[str], role: str, note: str) -> int:
    """Drive's sharing notification, delivered by the system on the sharer's behalf."""
    sharer = directory.person(store, caller.user)
    domain = sharer["email"].split("@", 1)[1]
    kind = "folder" if item["kind"] == "folder" else "file"
    verb = {"viewer": "view", "commenter": "comment on", "editor": "edit"}[role]
    to = [directory.person(store, s)["email"] for s in slugs]
    body = (f"{sharer['name']} ({sharer['email']}) has invited you to {verb} the following {kind}:\n\n"
            f"{item['name']}\n")
    if note.strip():
        body += f"\n“{note.strip()}”\n"
    body += "\nOpen it in Drive: Shared with me.\n"
    return deliver(store, actor="system", sender=f"drive-shares-noreply@{domain}",
                   sender_name=f"{sharer['name']} (via Drive)", to=to,
                   subject=f"{kind.capitalize()} shared with you: “{item['name']}”", body=body)
