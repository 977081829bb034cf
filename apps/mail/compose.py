"""Composing mail: drafts, replies and forwards in their conversation,
attachments from Drive or the user's computer, and sending.

A draft is saved as the user types (autosave) and validated only on Send;
Send either delivers everything or writes nothing.
"""
from __future__ import annotations

from apps.core import addresses, local_files
from apps.core import people as directory
from apps.core.errors import Invalid, NotFound
from apps.core.files import guess_mime, put_blob
from apps.core.store.db import Caller, Store
from apps.core.timefmt import long_datetime
from apps.drive import service as drive
from apps.mail.delivery import deliver
from apps.mail.service import me, message_for

MAX_ATTACH_BYTES = 25 * 1024 * 1024
REPLY = "reply"
REPLY_ALL = "reply_all"
FORWARD = "forward"
MODES = (REPLY, REPLY_ALL, FORWARD)
FORWARDED = "---------- Forwarded message ---------"


# ---------------------------------------------------------------- settings: the signature
def settings(store: Store, user: str) -> dict:
    """The user's Mail settings (a signature, "" when none)."""
    row = store.select("mail_settings", "owner=?", (user,))
    return row[0] if row else {"id": None, "owner": user, "signature": ""}


def set_signature(store: Store, caller: Caller, signature: str) -> dict:
    """Save the signature Gmail inserts below "-- " in new messages, replies and forwards."""
    if signature is None:
        raise Invalid("Type a signature (or an empty one to have none).", "signature")
    text = "\n".join(line.rstrip() for line in str(signature).replace("\r\n", "\n").split("\n")).strip("\n")
    if len(text) > 10000:
        raise Invalid("A signature can be at most 10,000 characters.", "signature")
    row = settings(store, caller.user)
    if row["id"] is None:
        store.insert("mail_settings", caller.actor, owner=caller.user, signature=text)
    else:
        store.update("mail_settings", row["id"], caller.actor, signature=text)
    return settings(store, caller.user)


def initial_body(store: Store, user: str) -> str:
    """What a new message's body starts as: empty, or two blank lines and the signature below "-- "."""
    sig = settings(store, user)["signature"]
    return f"\n\n-- \n{sig}" if sig.strip() else ""


def _draft(store: Store, user: str, draft_id: int) -> dict:
    d = store.get("mail_drafts", draft_id)
    if d is None or d["owner"] != user:
        raise NotFound("That draft doesn't exist. It may have been sent or discarded.")
    return d


def get_draft(store: Store, user: str, draft_id: int) -> dict:
    d = _draft(store, user, draft_id)
    d["files"] = store.select("mail_draft_files", "draft=?", (draft_id,))
    return d


def list_drafts(store: Store, user: str) -> list[dict]:
    out = []
    for d in store.select("mail_drafts", "owner=?", (user,), order="updated_at DESC, id DESC"):
        d["files"] = store.select("mail_draft_files", "draft=?", (d["id"],))
        out.append(d)
    return out


def create_draft(store: Store, caller: Caller, *, to="", cc="", bcc="", subject: str = "",
                 body: str = "", thread: int | None = None, in_reply_to: int | None = None,
                 forward_of: int | None = None) -> int:
    return store.insert("mail_drafts", caller.actor, owner=caller.user, thread=thread,
                        in_reply_to=in_reply_to, forward_of=forward_of,
                        to=addresses.lenient(to), cc=addresses.lenient(cc), bcc=addresses.lenient(bcc),
                        subject=subject or "", body=body or "", updated_at=store.now_iso())


def update_draft(store: Store, caller: Caller, draft_id: int, **fields) -> None:
    """Autosave: store what was typed as is (addresses are checked on Send)."""
    _draft(store, caller.user, draft_id)
    values = {}
    for k in ("to", "cc", "bcc"):
        if k in fields and fields[k] is not None:
            values[k] = addresses.lenient(fields[k])
    for k in ("subject", "body"):
        if k in fields and fields[k] is not None:
            values[k] = fields[k]
    if store.update("mail_drafts", draft_id, caller.actor, **values):
        store.update("mail_drafts", draft_id, caller.actor, updated_at=store.now_iso())


def discard_draft(store: Store, caller: Caller, draft_id: int) -> None:
    _draft(store, caller.user, draft_id)
    with store.transaction():
        for f in store.select("mail_draft_files", "draft=?", (draft_id,)):
            store.delete("mail_draft_files", f["id"], caller.actor)
        store.delete("mail_drafts", draft_id, caller.actor)


def _prefixed(prefix: str, subject: str) -> str:
    s = subject or ""
    if s.lower().startswith(prefix.lower()):
        return s
    return f"{prefix} {s}".strip()


def quote(store: Store, m: dict) -> str:
    when = long_datetime(store, m["sent_at"], stored=True)
    who = f"{m['sender_name']} <{m['sender']}>" if m["sender_name"] else m["sender"]
    quoted = "\n".join("> " + line if line else ">" for line in (m["body"] or "").splitlines())
    return f"On {when} {who} wrote:\n{quoted}"


def forward_header(store: Store, m: dict) -> str:
    who = f"{m['sender_name']} <{m['sender']}>" if m["sender_name"] else m["sender"]
    lines = [FORWARDED, f"From: {who}",
             f"Date: {long_datetime(store, m['sent_at'], stored=True)}", f"Subject: {m['subject']}",
             f"To: {', '.join(_named(store, m['to']))}"]
    if m["cc"]:
        lines.append(f"Cc: {', '.join(_named(store, m['cc']))}")
    return "\n".join(lines) + "\n\n" + (m["body"] or "")


def _named(store: Store, addrs: list[str]) -> list[str]:
    out = []
    for a in addrs:
        n = addresses.name_for(store, a)
        out.append(f"{n} <{a}>" if n != a else a)
    return out


def reply_fields(store: Store, caller: Caller, message_id: int, mode: str) -> dict:
    """What a reply (reply all, forward) to a message starts as: recipients, subject, body (the
    signature; for a forward, Gmail's forwarded block below the caret), its conversation, and for a
    forward the original's attachments. Nothing is saved."""
    if mode not in MODES:
        raise Invalid("Choose reply, reply all or forward.", "mode")
    m = message_for(store, caller.user, message_id)
    my = me(store, caller.user)
    out = {"thread": m["thread"], "in_reply_to": None, "forward_of": None, "to": [], "cc": [], "files": []}
    if mode == FORWARD:
        # Gmail's forward: the cursor on an empty line, the signature, then the forwarded message.
        return {**out, "subject": _prefixed("Fwd:", m["subject"]), "forward_of": m["id"],
                "body": initial_body(store, caller.user) + "\n\n" + forward_header(store, m),
                "files": list(m["attachments"])}
    if m["sender"] == my:
        to, cc = list(m["to"]), (list(m["cc"]) if mode == REPLY_ALL else [])
    else:
        to = [m["sender"]]
        cc = [a for a in m["to"] + m["cc"] if a not in (my, m["sender"])] if mode == REPLY_ALL else []
    return {**out, "to": to, "cc": cc, "subject": _prefixed("Re:", m["subject"]), "in_reply_to": m["id"],
            "body": initial_body(store, caller.user)}


def start_reply(store: Store, caller: Caller, message_id: int, mode: str) -> int:
    """A draft replying to (or forwarding, with its attachments) a message, in its conversation."""
    f = reply_fields(store, caller, message_id, mode)
    with store.transaction():
        d = create_draft(store, caller, to=f["to"], cc=f["cc"], subject=f["subject"], body=f["body"],
                         thread=f["thread"], in_reply_to=f["in_reply_to"], forward_of=f["forward_of"])
        for a in f["files"]:
            store.insert("mail_draft_files", caller.actor, draft=d, name=a["name"], mime=a["mime"],
                         size=a["size"], blob=a["blob"], drive_item=a["drive_item"])
    return d


# ---------------------------------------------------------------- attachments
def attach_drive(store: Store, caller: Caller, draft_id: int, item_id: int) -> int:
    _draft(store, caller.user, draft_id)
    item = drive.get(store, caller.user, item_id)
    if item["kind"] == drive.FOLDER:
        raise Invalid("Folders can't be attached. Choose a file.", "file")
    if item["kind"] in drive.APP_KINDS:       # Docs, Sheets, Slides go in as a Drive link, like Gmail
        return store.insert("mail_draft_files", caller.actor, draft=draft_id, name=item["name"],
                            mime=item["mime"], size=0, blob=None, drive_item=item_id)
    _check_size(store, draft_id, item["size"])
    return store.insert("mail_draft_files", caller.actor, draft=draft_id, name=item["name"],
                        mime=item["mime"], size=item["size"], blob=item["blob"], drive_item=item_id)


def attach_local(store: Store, caller: Caller, draft_id: int, local_id: int) -> int:
    _draft(store, caller.user, draft_id)
    f = local_files.get(store, caller.user, local_id)
    _check_size(store, draft_id, f["size"])
    return store.insert("mail_draft_files", caller.actor, draft=draft_id, name=f["name"],
                        mime=f["mime"], size=f["size"], blob=f["blob"], drive_item=None)


def attach_bytes(store: Store, caller: Caller, draft_id: int, name: str, data: bytes,
                 mime: str | None = None) -> int:
    _draft(store, caller.user, draft_id)
    if not name.strip():
        raise Invalid("The file needs a name.", "file")
    _check_size(store, draft_id, len(data))
    mime = mime or guess_mime(name)
    blob = put_blob(store, data, mime, actor=caller.actor)
    return store.insert("mail_draft_files", caller.actor, draft=draft_id, name=name.strip(),
                        mime=mime, size=len(data), blob=blob, drive_item=None)


def _check_size(store: Store, draft_id: int, adding: int) -> None:
    total = store.scalar("SELECT coalesce(sum(size), 0) FROM mail_draft_files WHERE draft=?", (draft_id,))
    if total + (adding or 0) > MAX_ATTACH_BYTES:
        raise Invalid("Attachments can be at most 25 MB in total. Share a Drive link instead.", "file")


def remove_attachment(store: Store, caller: Caller, draft_id: int, file_id: int) -> None:
    _draft(store, caller.user, draft_id)
    f = store.get("mail_draft_files", file_id)
    if f is None or f["draft"] != draft_id:
        raise NotFound("That attachment isn't on this draft.")
    store.delete("mail_draft_files", file_id, caller.actor)



def remove_carried_attachment(store: Store, caller: Caller, draft_id: int, message_id: int, attachment_id: int) -> None:
    """Take off a forward's draft its copy of the original message's attachment ``attachment_id``."""
    a = next((x for x in message_for(store, caller.user, message_id)["attachments"] if x["id"] == attachment_id), None)
    copy = a and next((f for f in get_draft(store, caller.user, draft_id)["files"]
                       if (f["name"], f["blob"], f["drive_item"]) == (a["name"], a["blob"], a["drive_item"])), None)
    if copy is None:
        raise NotFound("That attachment isn't on this draft.")
    store.delete("mail_draft_files", copy["id"], caller.actor)

# ---------------------------------------------------------------- sending
def validate(store: Store, d: dict) -> dict[str, list[str]]:
    """Parsed recipients, or ``Invalid`` naming the first bad field."""
    errors = {}
    parsed = {}
    for field in ("to", "cc", "bcc"):
        try:
            parsed[field] = addresses.parse_field(d[field], field)
        except Invalid as e:
            errors[field] = e.message
    if errors:
        first = next(iter(errors))
        raise Invalid(errors[first], first, errors)
    if not (parsed["to"] or parsed["cc"] or parsed["bcc"]):
        raise Invalid("Please specify at least one recipient.", "to")
    return parsed


def send_draft(store: Store, caller: Caller, draft_id: int, *, allow_empty: bool = False) -> int:
    """Send a draft. Returns the new message id; the draft is gone."""
    d = get_draft(store, caller.user, draft_id)
    parsed = validate(store, d)
    if not allow_empty and not d["subject"].strip() and not d["body"].strip():
        raise Invalid("Send this message without a subject or text in the body?", "confirm_empty")
    sender = directory.person(store, caller.user)
    body = d["body"]
    if d["in_reply_to"]:
        try:
            body = body.rstrip() + "\n\n" + quote(store, message_for(store, caller.user, d["in_reply_to"]))
        except NotFound:
            pass
    if d["forward_of"] and FORWARDED in body:
        body = body.lstrip("\n")         # the block is in the body, as the compose showed it
    elif d["forward_of"]:                # a body typed over the block (or a draft from before): add it
        try:
            body = (body.rstrip() + "\n\n" if body.strip() else "") + \
                forward_header(store, message_for(store, caller.user, d["forward_of"]))
        except NotFound:
            pass
    with store.transaction():
        mid = deliver(store, actor=caller.actor, sender=sender["email"], sender_name=sender["name"],
                      to=parsed["to"], cc=parsed["cc"], bcc=parsed["bcc"], subject=d["subject"],
                      body=body, thread=d["thread"], in_reply_to=d["in_reply_to"],
                      forward_of=d["forward_of"], files=d["files"])
        for f in d["files"]:
            store.delete("mail_draft_files", f["id"], caller.actor)
        store.delete("mail_drafts", draft_id, caller.actor)
    return mid


def send(store: Store, caller: Caller, *, to="", cc="", bcc="", subject: str = "", body: str = "",
         reply_to: int | None = None, reply_all: bool = False, drive_files: tuple[int, ...] = ()) -> int:
    """Compose and send in one call (oracles, co-workers, the CLI)."""
    with store.transaction():
        if reply_to is not None:
            d = start_reply(store, caller, reply_to, REPLY_ALL if reply_all else REPLY)
            update_draft(store, caller, d, body=body,
                         **({"to": to} if to else {}), **({"cc": cc} if cc else {}))
        else:
            d = create_draft(store, caller, to=to, cc=cc, bcc=bcc, subject=subject, body=body)
        for item in drive_files:
            attach_drive(store, caller, d, item)
        return send_draft(store, caller, d, allow_empty=True)
