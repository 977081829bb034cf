"""Mail tools: search and read conversations and attachments, send, reply, forward, save drafts,
file them."""
from __future__ import annotations

from typing import Literal

from apps.core.files import blob_text
from apps.core.store.db import Caller, Store
from apps.core import addresses
from apps.mail import compose
from apps.mail import service as mail
from harness.tools.registry import read, write

Folder = Literal["inbox", "starred", "snoozed", "sent", "archive", "all", "spam", "trash"]
Action = Literal["archive", "inbox", "trash", "restore", "read", "unread", "star", "unstar",
                 "add_label", "remove_label", "move_to_label", "spam", "not_spam", "snooze", "unsnooze"]


def act(store: Store, caller: Caller, thread_ids: list[int], action: Action, label_id: int | None = None,
        until: str | None = None) -> list[dict]:
    """Act on whole conversations, as the toolbar does: archive, move to inbox, trash, restore from
    trash, mark read or unread, star or unstar, add or remove a label, or move to a label (label it and
    take it out of the inbox), report spam (to Spam) or not spam (back to the Inbox), snooze until a
    time (out of the Inbox until then, in Snoozed) or unsnooze. Returns the conversations as they are now."""
    mail.apply(store, caller, thread_ids, action, label_id, until=until)
    return mail.summaries(store, caller.user, thread_ids, trash_view=action == "trash")


def send(store: Store, caller: Caller, to: list[str], subject: str, body: str, cc: list[str] = (),
         bcc: list[str] = (), drive_files: list[int] = ()) -> dict:
    """Send a new email (a new conversation) from the user's address. Returns the sent message."""
    mid = compose.send(store, caller, to=list(to), cc=list(cc), bcc=list(bcc), subject=subject, body=body,
                       drive_files=tuple(drive_files))
    return mail.message_for(store, caller.user, mid)


def reply(store: Store, caller: Caller, message_id: int, body: str, reply_all: bool = False,
          drive_files: list[int] = ()) -> dict:
    """Reply to a message in its conversation (to its sender; with reply_all also to everyone else
    on it). The earlier message is quoted below the body, as Gmail does. Returns the sent message."""
    mid = compose.send(store, caller, reply_to=message_id, reply_all=reply_all, body=body,
                       drive_files=tuple(drive_files))
    return mail.message_for(store, caller.user, mid)


def forward(store: Store, caller: Caller, message_id: int, to: list[str], body: str = "", cc: list[str] = (),
            bcc: list[str] = ()) -> dict:
    """Forward a message with its attachments, in its conversation; your note goes above the
    forwarded message, as Gmail does. Returns the sent message."""
    with store.transaction():
        d = compose.start_reply(store, caller, message_id, compose.FORWARD)
        compose.update_draft(store, caller, d, to=list(to), cc=list(cc), bcc=list(bcc), body=body)
        mid = compose.send_draft(store, caller, d, allow_empty=True)
    return mail.message_for(store, caller.user, mid)


def save_draft(store: Store, caller: Caller, to: list[str] = (), subject: str = "", body: str = "",
               cc: list[str] = (), bcc: list[str] = (), drive_files: list[int] = ()) -> dict:
    """Save a new email as a draft (in Drafts, not sent), e.g. for someone to review. Returns the draft."""
    with store.transaction():
        d = compose.create_draft(store, caller, to=list(to), cc=list(cc), bcc=list(bcc), subject=subject, body=body)
        for item in drive_files:
            compose.attach_drive(store, caller, d, item)
    return compose.get_draft(store, caller.user, d)


def read_attachment(store: Store, user: str, attachment_id: int) -> dict:
    """Open a mail attachment: its name, type and size and its text (PDFs, Word files, text, CSV…).
    An attachment that is a Drive link (a Doc, Sheet or deck) names its Drive item instead."""
    a = mail.attachment(store, user, attachment_id)
    return {**a, "text": blob_text(store, a["blob"]) if a["blob"] else ""}


def set_signature(store: Store, caller: Caller, signature: str) -> dict:
    """Set the signature Mail inserts below "-- " in new messages, replies and forwards written in
    the app (an empty one removes it). Returns the settings."""
    return compose.set_signature(store, caller, signature)


ADDRESSES = "Email addresses (a person's address from the directory, or any outside address)."
FILES = "Drive file ids to attach (Docs, Sheets and Slides go in as links)."

TOOLS = [
    read(mail.search, "mail.search",
         "Search the mailbox with Gmail's query language: from: to: cc: subject: has:attachment filename: "
         "label: in:inbox|sent|starred|archive|trash|anywhere is:unread|read|starred before:/after:YYYY/MM/DD, "
         "\"quoted phrases\", -term to exclude, OR. Returns a page of conversations (newest first) with "
         "their ids, subject, snippet, senders and labels.",
         args={"q": "The query, e.g. `from:laura subject:deductible is:unread`.",
               "page": "Page number (50 conversations a page)."}),
    read(mail.list_folder, "mail.list_folder",
         "List the conversations in a folder (or under a label), newest first, 50 a page.",
         args={"folder": "The folder.", "label": "A label id (see mail.labels) instead of a folder.",
               "page": "Page number."},
         types={"folder": Folder}),
    read(mail.open_thread, "mail.read",
         "Open a conversation: every message in it (sender, recipients, date, body, attachments), oldest "
         "first. Opening marks it read, as in Gmail.",
         args={"thread_id": "The conversation id (from mail.search or mail.list_folder)."}),
    read(read_attachment, "mail.read_attachment",
         args={"attachment_id": "The attachment's id (the `attachments` of a message in mail.read)."}),
    read(mail.labels, "mail.labels", "The user's labels, with their ids and colours."),
    read(addresses.suggestions, "mail.contacts",
         "Find email addresses by name or address: people in the directory first, then outside "
         "contacts the user has written with.",
         args={"q": "Part of a name or an address.", "limit": "At most this many."}),
    write(send, "mail.send",
          args={"to": ADDRESSES, "subject": "Subject line.", "body": "Plain-text body.", "cc": ADDRESSES,
                "bcc": ADDRESSES, "drive_files": FILES}),
    write(reply, "mail.reply",
          args={"message_id": "The id of the message to reply to (a message of mail.read).",
                "body": "Plain-text body of the reply.", "reply_all": "Reply to everyone on the message.",
                "drive_files": FILES}),
    write(forward, "mail.forward",
          args={"message_id": "The id of the message to forward (a message of mail.read).", "to": ADDRESSES,
                "body": "Your note above the forwarded message.", "cc": ADDRESSES, "bcc": ADDRESSES}),
    write(save_draft, "mail.save_draft",
          args={"to": ADDRESSES, "subject": "Subject line.", "body": "Plain-text body.", "cc": ADDRESSES,
                "bcc": ADDRESSES, "drive_files": FILES}),
    write(act, "mail.act",
          args={"thread_ids": "Conversation ids.", "action": "What to do.",
                "label_id": "The label for add_label, remove_label and move_to_label (see mail.labels).",
                "until": "For snooze: when the conversation comes back to the Inbox, YYYY-MM-DDTHH:MM in "
                         "the world's time zone (or ISO with an offset); it must be in the future."}),
    write(set_signature, "mail.set_signature",
          args={"signature": "The signature's text (plain text, several lines allowed)."}),
    write(mail.create_label, "mail.create_label", "Create a label. Returns its id.",
          args={"name": "The label's name.", "color": "A #rrggbb colour (default: the next in the palette)."}),
]
