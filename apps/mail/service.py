"""Mail service layer: reading a mailbox and acting on conversations.

Composing, drafts and sending live in ``compose.py``. Everything here works
on one user's mailbox (``mail_boxes`` rows owned by ``caller.user``); a
conversation the user has no message in is ``NotFound``.
"""
from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum

from apps.core import addresses, locale
from apps.core import people as directory
from apps.core.errors import Invalid, NotFound
from apps.core.store.db import Caller, Store, utc_iso
from apps.mail.search import compile_query

PAGE_SIZE = 50
SNIPPET = 140


class Folder(StrEnum):
    INBOX = "inbox"
    STARRED = "starred"
    SENT = "sent"
    DRAFTS = "drafts"
    ARCHIVE = "archive"
    ALL = "all"
    TRASH = "trash"
    SNOOZED = "snoozed"
    SPAM = "spam"


FOLDER_TITLES = {Folder.INBOX: "Inbox", Folder.STARRED: "Starred", Folder.SNOOZED: "Snoozed",
                 Folder.SENT: "Sent", Folder.DRAFTS: "Drafts", Folder.ARCHIVE: "Archive",
                 Folder.ALL: "All Mail", Folder.SPAM: "Spam", Folder.TRASH: "Trash"}


class Action(StrEnum):
    ARCHIVE = "archive"
    INBOX = "inbox"              # move to Inbox
    TRASH = "trash"
    RESTORE = "restore"          # out of Trash
    DELETE_FOREVER = "delete_forever"
    READ = "read"
    UNREAD = "unread"
    STAR = "star"
    UNSTAR = "unstar"
    ADD_LABEL = "add_label"
    REMOVE_LABEL = "remove_label"
    MOVE_TO_LABEL = "move_to_label"   # label it and take it out of the Inbox
    SPAM = "spam"                # Report spam: to Spam, out of the Inbox
    NOT_SPAM = "not_spam"        # back to the Inbox
    SNOOZE = "snooze"            # out of the Inbox until ``until`` (world time)
    UNSNOOZE = "unsnooze"


# Actions after which Gmail stays on the open conversation (Mark as unread goes back to the list).
STAYS = {Action.READ, Action.STAR, Action.UNSTAR, Action.ADD_LABEL, Action.REMOVE_LABEL}


@dataclass
class Page:
    threads: list[dict]
    total: int
    page: int
    pages: int
    first: int
    last: int


def me(store: Store, user: str) -> str:
    p = directory.person(store, user)
    if p is None:
        raise NotFound(f"No such user {user!r}.")
    return p["email"]


# ---------------------------------------------------------------- listing
def _awake(box: str = "b") -> str:
    """SQL: the box ``box`` isn't snoozed now (one parameter: the world time)."""
    return f"({box}.snoozed_until IS NULL OR {box}.snoozed_until<=?)"


def _folder_where(store: Store, user: str, folder: Folder | str, label: int | None) -> tuple[str, list]:
    now = store.now_iso()
    if label is not None:
        return ("b.trashed=0 AND b.spam=0 AND EXISTS (SELECT 1 FROM json_each(b.labels) j WHERE j.value=?)",
                [label])
    folder = Folder(folder)
    if folder is Folder.INBOX:
        return f"b.inbox=1 AND b.trashed=0 AND b.spam=0 AND {_awake()}", [now]
    if folder is Folder.STARRED:
        return "b.starred=1 AND b.trashed=0 AND b.spam=0", []
    if folder is Folder.SNOOZED:
        return "b.snoozed_until>? AND b.trashed=0 AND b.spam=0", [now]
    if folder is Folder.SENT:
        return "m.sender=? AND b.trashed=0", [me(store, user)]
    if folder is Folder.TRASH:
        return "b.trashed=1", []
    if folder is Folder.SPAM:
        return "b.spam=1 AND b.trashed=0", []
    if folder is Folder.ALL:
        return "b.trashed=0 AND b.spam=0", []
    if folder is Folder.ARCHIVE:
        return ("b.trashed=0 AND b.spam=0 AND NOT EXISTS (SELECT 1 FROM mail_boxes b2 WHERE b2.owner=b.owner"
                f" AND b2.thread=b.thread AND b2.inbox=1 AND b2.trashed=0 AND {_awake('b2')})",
                [now])
    raise NotFound(f"No folder {folder}.")


def _threads(store: Store, user: str, where: str, params: list, *, page: int, trash_view: bool) -> Page:
    base = (f"FROM mail_boxes b JOIN mail_messages m ON m.id=b.message WHERE b.owner=? AND ({where})")
    total = store.scalar(f"SELECT count(DISTINCT b.thread) {base}", (user, *params))
    pages = max(1, -(-total // PAGE_SIZE))
    page = min(max(1, page), pages)
    # A conversation sorts by its newest message the user can see in this view's scope.
    scope = "b2.trashed=1" if trash_view else "b2.trashed=0"
    # ... and one back from snooze by the time it came back, as Gmail puts it on top again.
    rows = store.all(
        f"SELECT b.thread AS thread, (SELECT max(CASE WHEN b2.snoozed_until<=? AND b2.snoozed_until>m2.sent_at"
        f" THEN b2.snoozed_until ELSE m2.sent_at END || printf('%012d', m2.id)) FROM mail_boxes b2"
        f" JOIN mail_messages m2 ON m2.id=b2.message WHERE b2.owner=b.owner AND b2.thread=b.thread"
        f" AND {scope}) AS latest {base} GROUP BY b.thread ORDER BY latest DESC LIMIT ? OFFSET ?",
        (store.now_iso(), user, *params, PAGE_SIZE, (page - 1) * PAGE_SIZE))
    threads = summaries(store, user, [r["thread"] for r in rows], trash_view=trash_view)
    first = (page - 1) * PAGE_SIZE + 1 if total else 0
    return Page(threads, total, page, pages, first, first + len(threads) - 1 if total else 0)


def list_folder(store: Store, user: str, folder: Folder | str = Folder.INBOX, *,
                label: int | None = None, page: int = 1) -> Page:
    where, params = _folder_where(store, user, folder, label)
    return _threads(store, user, where, params, page=page, trash_view=folder == Folder.TRASH)


def search(store: Store, user: str, q: str, *, page: int = 1) -> Page:
    """Conversations with at least one message matching ``q`` (raises ``SearchError``)."""
    where, params = compile_query(store, user, q)
    trash_view = "b.trashed=1" in where and "in:anywhere" not in q
    return _threads(store, user, where, params, page=page, trash_view=trash_view)


def summary(store: Store, user: str, thread: int, *, trash_view: bool = False) -> dict:
    """One row of a conversation list (``NotFound`` unless ``user`` has the conversation)."""
    rows = summaries(store, user, [thread], trash_view=trash_view)
    if not rows:
        raise NotFound("That conversation doesn't exist.")
    return rows[0]


def summaries(store: Store, user: str, threads: list[int], *, trash_view: bool = False) -> list[dict]:
    """Rows of a conversation list, in the order given (a few queries for a whole page);
    conversations ``user`` doesn't have are left out."""
    if not threads:
        return []
    my = me(store, user)
    marks = ",".join("?" * len(threads))
    rows_by: dict[int, list] = {t: [] for t in threads}
    for r in store.all(
            "SELECT b.*, m.sender, m.sender_name, m.subject, m.body, m.sent_at, m.\"to\" FROM mail_boxes b"
            f" JOIN mail_messages m ON m.id=b.message WHERE b.owner=? AND b.thread IN ({marks})"
            " ORDER BY m.sent_at, m.id", (user, *threads)):
        rows_by[r["thread"]].append(r)
    msg_ids = [r["message"] for rs in rows_by.values() for r in rs]
    files_by: dict[int, list] = {}
    if msg_ids:
        for a in store.all(f"SELECT id, name, mime, message FROM mail_attachments WHERE message IN "
                           f"({','.join('?' * len(msg_ids))}) ORDER BY id", msg_ids):
            files_by.setdefault(a["message"], []).append({"id": a["id"], "name": a["name"], "mime": a["mime"]})
    subjects = {r["id"]: r["subject"] for r in store.all(f"SELECT id, subject FROM mail_threads WHERE id IN ({marks})",
                                                        threads)}
    all_labels = {lab["id"]: lab for lab in labels(store, user)}
    out = []
    for thread in threads:
        every = rows_by[thread]
        if not every:
            continue
        rows = [r for r in every if bool(r["trashed"]) == trash_view] or every
        last = rows[-1]
        distinct = {r["sender"] for r in rows}
        senders: list[tuple[str, bool]] = []
        for r in rows:
            full = r["sender_name"] or r["sender"]
            name = "me" if r["sender"] == my else (full if len(distinct) == 1 else directory.first_name(full))
            unread = not r["read"]
            for i, (n, u) in enumerate(senders):
                if n == name:
                    senders[i] = (n, u or unread)
                    break
            else:
                senders.append((name, unread))
        label_ids = sorted({lid for r in rows for lid in store.decode("mail_boxes", r)["labels"]})
        if last["sender"] == my and len(rows) == 1:
            to = _json_list(last["to"])
            who = [("To: " + addresses.display(store, to, my), False)]
        else:
            who = senders
        out.append({
            "id": thread,
            "subject": rows[0]["subject"] or subjects.get(thread) or "(no subject)",
            "snippet": snippet(last["body"]),
            "date": last["sent_at"],
            "count": len(rows),
            "senders": who,
            "unread": any(not r["read"] for r in rows),
            "starred": any(r["starred"] for r in rows),
            "inbox": any(r["inbox"] for r in rows),
            "spam": any(r["spam"] for r in rows),
            "snoozed_until": _snoozed_until(store, rows),
            "labels": sorted((all_labels[i] for i in label_ids if i in all_labels),
                             key=lambda lab: (lab["name"].lower(), lab["id"])),
            "attachments": [f for r in rows for f in files_by.get(r["message"], [])],
        })
    return out


def _json_list(text: str | None) -> list:
    return json.loads(text) if text else []


def snippet(body: str) -> str:
    lines = []
    for line in (body or "").splitlines():
        if line.startswith(">") or (line.startswith("On ") and line.rstrip().endswith("wrote:")):
            break
        if line.strip() == "---------- Forwarded message ---------":
            break
        lines.append(line.strip())
    text = " ".join(l for l in lines if l)
    return text[:SNIPPET] + ("…" if len(text) > SNIPPET else "")


def split_quote(body: str) -> tuple[str, str]:
    """(what the sender wrote, the quoted earlier mail) — Gmail folds the second behind •••."""
    lines = (body or "").rstrip("\n").splitlines()
    for i, line in enumerate(lines):
        starts_quote = (line.startswith("On ") and line.rstrip().endswith("wrote:")) or \
            (line.startswith(">") and all(l.startswith(">") or not l.strip() for l in lines[i:]))
        if starts_quote:
            return "\n".join(lines[:i]).rstrip(), "\n".join(lines[i:])
    return "\n".join(lines), ""


def _snoozed_until(store: Store, boxes) -> str | None:
    """When a conversation snoozed now comes back (its boxes' latest snooze); None when it isn't."""
    now = store.now_iso()
    return max((b["snoozed_until"] for b in boxes if b["snoozed_until"] and b["snoozed_until"] > now), default=None)


def counts(store: Store, user: str) -> dict:
    """Unread conversations in Inbox and per label; drafts count."""
    inbox = store.scalar("SELECT count(DISTINCT thread) FROM mail_boxes b WHERE owner=? AND inbox=1"
                         f" AND trashed=0 AND spam=0 AND read=0 AND {_awake()}", (user, store.now_iso()))
    spam = store.scalar("SELECT count(DISTINCT thread) FROM mail_boxes WHERE owner=? AND spam=1"
                        " AND trashed=0 AND read=0", (user,))
    drafts = store.scalar("SELECT count(*) FROM mail_drafts WHERE owner=?", (user,))
    per_label = {}
    for lab in labels(store, user):
        per_label[lab["id"]] = store.scalar(
            "SELECT count(DISTINCT b.thread) FROM mail_boxes b, json_each(b.labels) j WHERE b.owner=?"
            " AND b.trashed=0 AND b.spam=0 AND b.read=0 AND j.value=?", (user, lab["id"]))
    return {"inbox": inbox, "drafts": drafts, "spam": spam, "labels": per_label}


# ---------------------------------------------------------------- a conversation
def thread(store: Store, user: str, thread_id: int) -> dict:
    """A conversation as the user sees it: their messages, oldest first."""
    boxes = store.all("SELECT b.* FROM mail_boxes b JOIN mail_messages m ON m.id=b.message"
                      " WHERE b.owner=? AND b.thread=? ORDER BY m.sent_at, m.id", (user, thread_id))
    if not boxes:
        raise NotFound("That conversation doesn't exist or was deleted.")
    visible = [b for b in boxes if not b["trashed"]]
    in_trash = not visible
    shown = boxes if in_trash else visible
    my = me(store, user)
    messages = []
    for b in shown:
        m = store.get("mail_messages", b["message"])
        m["box"] = store.decode("mail_boxes", b)
        m["attachments"] = store.select("mail_attachments", "message=?", (m["id"],))
        if m["sender"] != my:
            m["bcc"] = [a for a in m["bcc"] if a == my]
        messages.append(m)
    label_ids = sorted({lid for b in shown for lid in store.decode("mail_boxes", b)["labels"]})
    t = store.get("mail_threads", thread_id)
    return {
        "id": thread_id,
        "subject": (messages[0]["subject"] if messages else "") or t["subject"] or "(no subject)",
        "messages": messages,
        "labels": labels_by_id(store, user, label_ids),
        "in_trash": in_trash,
        "trashed_count": len(boxes) - len(visible) if not in_trash else 0,
        "inbox": any(b["inbox"] for b in visible),
        "starred": any(b["starred"] for b in shown),
        "spam": any(b["spam"] for b in shown),
        "snoozed_until": _snoozed_until(store, shown),
    }


def neighbours(store: Store, user: str, thread_id: int, folder: str = "inbox",
               label: int | None = None) -> tuple[int | None, int | None]:
    """Newer and older conversation in a folder, for j/k and the arrows."""
    try:
        where, params = _folder_where(store, user, folder, label)
    except (ValueError, NotFound):
        return None, None
    rows = store.all(
        f"SELECT b.thread, max(m.sent_at || printf('%012d', m.id)) AS latest FROM mail_boxes b"
        f" JOIN mail_messages m ON m.id=b.message WHERE b.owner=? AND ({where}) GROUP BY b.thread"
        f" ORDER BY latest DESC", (user, *params))
    ids = [r["thread"] for r in rows]
    if thread_id not in ids:
        return None, None
    i = ids.index(thread_id)
    return (ids[i - 1] if i > 0 else None), (ids[i + 1] if i + 1 < len(ids) else None)


def open_thread(store: Store, caller: Caller, thread_id: int) -> dict:
    """Read a conversation: marks its messages read (ephemeral)."""
    t = thread(store, caller.user, thread_id)
    for m in t["messages"]:
        m["was_unread"] = not m["box"]["read"]
        if not m["box"]["read"]:
            store.update("mail_boxes", m["box"]["id"], caller.actor, read=True)
            m["box"]["read"] = True
    return t


def message_for(store: Store, user: str, message_id: int) -> dict:
    """A message the user has in their mailbox."""
    box = store.one("SELECT * FROM mail_boxes WHERE owner=? AND message=?", (user, message_id))
    if box is None:
        raise NotFound("That message doesn't exist or was deleted.")
    m = store.get("mail_messages", message_id)
    m["attachments"] = store.select("mail_attachments", "message=?", (message_id,))
    m["box"] = store.decode("mail_boxes", box)
    return m


def attachment(store: Store, user: str, attachment_id: int) -> dict:
    a = store.get("mail_attachments", attachment_id)
    if a is None:
        raise NotFound("That attachment doesn't exist.")
    message_for(store, user, a["message"])
    return a


# ---------------------------------------------------------------- labels
def labels(store: Store, user: str) -> list[dict]:
    return store.select("mail_labels", "owner=?", (user,), order="lower(name), id")


def labels_by_id(store: Store, user: str, ids: Iterable[int]) -> list[dict]:
    ids = list(ids)
    if not ids:
        return []
    return store.select("mail_labels", f"owner=? AND id IN ({','.join('?' * len(ids))})",
                        (user, *ids), order="lower(name)")


def label(store: Store, user: str, label_id: int) -> dict:
    row = store.get("mail_labels", label_id)
    if row is None or row["owner"] != user:
        raise NotFound("That label doesn't exist.")
    return row


LABEL_COLORS = ("#1a73e8", "#d93025", "#188038", "#e37400", "#9334e6", "#5f6368", "#007b83", "#c5221f")


def _label_name(store: Store, user: str, name: str, exclude: int | None = None) -> str:
    name = " ".join((name or "").split())
    if not name:
        raise Invalid("Please enter a label name.", "name")
    if len(name) > 225:
        raise Invalid("Label names can be at most 225 characters.", "name")
    if name.lower() in {f.lower() for f in FOLDER_TITLES.values()} | {"important", "spam", "chats"}:
        raise Invalid(f"“{name}” is a reserved name. Please choose another.", "name")
    for lab in labels(store, user):
        if lab["name"].lower() == name.lower() and lab["id"] != exclude:
            raise Invalid(f"The label name “{name}” already exists. Please try another name.", "name")
    return name


def create_label(store: Store, caller: Caller, name: str, color: str | None = None) -> int:
    name = _label_name(store, caller.user, name)
    color = color or LABEL_COLORS[len(labels(store, caller.user)) % len(LABEL_COLORS)]
    return store.insert("mail_labels", caller.actor, owner=caller.user, name=name, color=color)


def rename_label(store: Store, caller: Caller, label_id: int, name: str) -> None:
    label(store, caller.user, label_id)
    store.update("mail_labels", label_id, caller.actor, name=_label_name(store, caller.user, name, label_id))


def delete_label(store: Store, caller: Caller, label_id: int) -> None:
    """Remove a label; the conversations stay where they are."""
    label(store, caller.user, label_id)
    with store.transaction():
        for b in store.all("SELECT b.id, b.labels FROM mail_boxes b, json_each(b.labels) j"
                           " WHERE b.owner=? AND j.value=?", (caller.user, label_id)):
            labs = [x for x in store.decode("mail_boxes", b)["labels"] if x != label_id]
            store.update("mail_boxes", b["id"], caller.actor, labels=labs)
        store.delete("mail_labels", label_id, caller.actor)


# ---------------------------------------------------------------- acting on conversations
def _boxes(store: Store, user: str, thread_ids: Iterable[int], trashed: bool | None = False) -> list[dict]:
    ids = list(dict.fromkeys(int(t) for t in thread_ids))
    if not ids:
        raise Invalid("Select at least one conversation.", "threads")
    rows = []
    for tid in ids:
        sql = "SELECT * FROM mail_boxes WHERE owner=? AND thread=?"
        found = store.all(sql, (user, tid))
        if not found:
            raise NotFound("That conversation doesn't exist or was deleted.")
        if trashed is not None:
            scoped = [r for r in found if bool(r["trashed"]) == trashed]
            found = scoped or found
        rows += [store.decode("mail_boxes", r) for r in found]
    return rows


SNAPSHOT_FIELDS = ("inbox", "starred", "trashed", "labels", "read", "spam", "snoozed_until")


def apply(store: Store, caller: Caller, thread_ids: Iterable[int], action: Action | str,
          label_id: int | None = None, until: str | None = None) -> list[dict]:
    """Apply an action to whole conversations. Returns the boxes' previous
    state (for Undo, see ``restore_state``). ``until`` is the snooze's end (ISO, world time)."""
    try:
        action = Action(action)
    except ValueError:
        raise Invalid(f"Unknown action {action!r}.", "action") from None
    if action is Action.SNOOZE:
        until = snooze_time(store, until)
    if action in (Action.ADD_LABEL, Action.REMOVE_LABEL, Action.MOVE_TO_LABEL):
        if label_id is None:
            raise Invalid("Choose a label.", "label")
        label(store, caller.user, label_id)
    in_trash = action in (Action.RESTORE, Action.DELETE_FOREVER)
    boxes = _boxes(store, caller.user, thread_ids, trashed=True if in_trash else None)
    before = [{"id": b["id"], **{f: b[f] for f in SNAPSHOT_FIELDS}} for b in boxes]
    with store.transaction():
        if action is Action.STAR:
            # Gmail stars the newest message of the conversation.
            by_thread: dict[int, dict] = {}
            for b in boxes:
                by_thread[b["thread"]] = b
            for b in by_thread.values():
                store.update("mail_boxes", b["id"], caller.actor, starred=True)
            return before
        for b in boxes:
            changes: dict = {}
            if action is Action.ARCHIVE:
                changes = {"inbox": False}
            elif action is Action.INBOX:
                changes = {"inbox": True, "trashed": False}
            elif action is Action.TRASH:
                changes = {"trashed": True}
            elif action is Action.RESTORE:
                changes = {"trashed": False}
            elif action is Action.READ:
                changes = {"read": True}
            elif action is Action.UNREAD:
                changes = {"read": False}
            elif action is Action.UNSTAR:
                changes = {"starred": False}
            elif action is Action.ADD_LABEL:
                changes = {"labels": sorted(set(b["labels"]) | {label_id})}
            elif action is Action.REMOVE_LABEL:
                changes = {"labels": sorted(set(b["labels"]) - {label_id})}
            elif action is Action.MOVE_TO_LABEL:
                changes = {"labels": sorted(set(b["labels"]) | {label_id}), "inbox": False}
            elif action is Action.SPAM:
                changes = {"spam": True, "inbox": False, "snoozed_until": None}
            elif action is Action.NOT_SPAM:
                changes = {"spam": False, "inbox": True}
            elif action is Action.SNOOZE:
                changes = {"snoozed_until": until, "inbox": True}
            elif action is Action.UNSNOOZE:
                changes = {"snoozed_until": None}
            elif action is Action.DELETE_FOREVER:
                if not b["trashed"]:
                    raise Invalid("Only conversations in Trash can be deleted forever.", "threads")
                store.delete("mail_boxes", b["id"], caller.actor)
                continue
            if changes:
                store.update("mail_boxes", b["id"], caller.actor, **changes)
    return before


def snooze_time(store: Store, until: str | None) -> str:
    """A snooze's end as stored (UTC ISO): ``until`` is ISO with an offset, or a local
    ``YYYY-MM-DDTHH:MM`` in the world's timezone; it must be in the future."""
    if not until or not str(until).strip():
        raise Invalid("Choose when the conversation should come back.", "until")
    try:
        when = datetime.fromisoformat(str(until).strip())
    except ValueError:
        raise Invalid(f"“{until}” isn't a date and time (YYYY-MM-DDTHH:MM).", "until") from None
    if when.tzinfo is None:
        when = when.replace(tzinfo=store.tz)
    if when <= store.now():
        raise Invalid("Choose a time in the future to snooze until.", "until")
    return utc_iso(when)


def snooze_choices(store: Store) -> list[tuple[str, str, str]]:
    """Gmail's Snooze menu: (name, when as local ISO, how it reads) — later today 6 PM (or 8 PM,
    if 6 has passed), tomorrow 8 AM, this weekend (Saturday 8 AM), next week (Monday 8 AM)."""
    now = store.local(store.now())
    day = now.replace(hour=0, minute=0, second=0, microsecond=0)
    out = []
    later = day.replace(hour=18) if now.hour < 17 else day.replace(hour=20) if now.hour < 19 else None
    if later is not None:
        out.append(("Later today", later))
    out.append(("Tomorrow", (day + timedelta(days=1)).replace(hour=8)))
    if now.weekday() < 5:
        out.append(("This weekend", (day + timedelta(days=5 - now.weekday())).replace(hour=8)))
    out.append(("Next week", (day + timedelta(days=7 - now.weekday())).replace(hour=8)))
    fmt = (lambda d: locale.clock(d) if d.date() == now.date() else f"{d.strftime('%a')}, {locale.clock(d)}")
    return [(name, d.strftime("%Y-%m-%dT%H:%M"), fmt(d)) for name, d in out]


def restore_state(store: Store, caller: Caller, snapshot: list[dict]) -> None:
    """Undo: put the user's boxes back as they were."""
    with store.transaction():
        for s in snapshot:
            box = store.get("mail_boxes", int(s["id"]))
            if box is None or box["owner"] != caller.user:
                raise NotFound("That conversation can no longer be restored.")
            store.update("mail_boxes", box["id"], caller.actor, **{f: s[f] for f in SNAPSHOT_FIELDS})


def set_message_read(store: Store, caller: Caller, message_id: int, read: bool) -> None:
    """Mark one message (not the whole conversation) unread, as "Mark unread from here" does."""
    m = message_for(store, caller.user, message_id)
    store.update("mail_boxes", m["box"]["id"], caller.actor, read=read)


def star_message(store: Store, caller: Caller, message_id: int, starred_: bool) -> None:
    m = message_for(store, caller.user, message_id)
    store.update("mail_boxes", m["box"]["id"], caller.actor, starred=starred_)
