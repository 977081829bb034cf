"""Seed Mail from ``worlds/<w>/mail/*.yaml`` (one conversation per file)."""
from __future__ import annotations

from email.utils import parseaddr

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from apps.core.files import guess_mime, put_blob
from apps.core.store.compile import built_file, source_of
from apps.core.store.db import SYSTEM, Store, utc_iso
from apps.core.world import World, WorldError, load_yaml, validation_message
from apps.drive import service as drive
from apps.core import addresses
from apps.mail.delivery import deliver


class MessageSpec(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)
    sender: str = Field(alias="from")
    to: list[str] = []
    cc: list[str] = []
    bcc: list[str] = []
    date: str
    body: str
    attachments: list[str] = []
    unread: bool = False
    starred: bool = False
    draft: bool = False

    @field_validator("to", "cc", "bcc", "attachments", mode="before")
    @classmethod
    def _listify(cls, v):
        return [v] if isinstance(v, str) else (v or [])


class ThreadSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    subject: str
    labels: list[str] = []
    archived: bool = False
    trashed: bool = False
    messages: list[MessageSpec] = Field(min_length=1)


def _address(world: World, entry: str, where: str) -> tuple[str, str]:
    """(address, display name) for a person id or ``Name <addr>``."""
    if entry in world.people:
        p = world.people[entry]
        return p.email.lower(), p.name
    name, addr = parseaddr(entry)
    addr = addr.lower()
    if not addresses.ADDR.match(addr):
        raise WorldError(f"{where}: {entry!r} is neither a person id nor an address")
    if addr in world.by_email:
        return addr, world.by_email[addr].name
    return addr, name or addr


def seed(store: Store, world: World) -> None:
    user = world.spec.user
    me = world.people[user].email.lower()
    label_ids = {}
    for lab in world.spec.mail.labels:
        label_ids[lab.name] = store.insert("mail_labels", SYSTEM, owner=user, name=lab.name, color=lab.color)

    folder = world.root / "mail"
    specs = []
    for path in sorted(folder.glob("*.yaml")) if folder.is_dir() else []:
        try:
            spec = ThreadSpec.model_validate(load_yaml(path))
        except ValidationError as e:
            raise WorldError(validation_message(path, e)) from None
        for lab in spec.labels:
            if lab not in label_ids:
                raise WorldError(f"{path}: labels: {lab!r} is not a label in world.yaml (mail.labels)")
        specs.append((path, spec))

    # Messages go in in time order across all conversations, so ids follow time.
    queue = []
    for path, spec in specs:
        last = None
        for i, m in enumerate(spec.messages):
            when = world.local_time(m.date, f"{path}: messages.{i}.date")
            if when >= world.start:
                raise WorldError(f"{path}: messages.{i}.date: {m.date} is not before the world clock")
            if last is not None and when < last:
                raise WorldError(f"{path}: messages.{i}.date: earlier than the message before it")
            last = when
            queue.append((when, str(path), i, path, spec, m))
    queue.sort(key=lambda q: q[:3])

    threads: dict[str, int] = {}
    parent: dict[str, int] = {}
    for when, _, i, path, spec, m in queue:
        where = f"{path}: messages.{i}"
        sender, sender_name = _address(world, m.sender, f"{where}.from")
        fields = {k: [_address(world, e, f"{where}.{k}") for e in getattr(m, k)] for k in ("to", "cc", "bcc")}
        for k, pairs in fields.items():
            for addr, name in pairs:
                if addr not in world.by_email:
                    addresses.remember(store, addr, name, SYSTEM)
        if sender not in world.by_email:
            addresses.remember(store, sender, sender_name, SYSTEM)
        files = [_attachment(store, world, a, f"{where}.attachments") for a in m.attachments]
        key = str(path)
        if m.draft:
            if sender != me:
                raise WorldError(f"{where}.draft: only {user}'s own messages can be drafts")
            d = store.insert("mail_drafts", SYSTEM, owner=user, thread=threads.get(key),
                             in_reply_to=parent.get(key), to=[a for a, _ in fields["to"]],
                             cc=[a for a, _ in fields["cc"]], bcc=[a for a, _ in fields["bcc"]],
                             subject=spec.subject if i == 0 else f"Re: {spec.subject}",
                             body=m.body.rstrip() + "\n", updated_at=utc_iso(when))
            for f in files:
                store.insert("mail_draft_files", SYSTEM, draft=d, **f)
            continue
        if key not in threads:
            threads[key] = store.insert("mail_threads", SYSTEM, subject=spec.subject)
        subject = spec.subject if i == 0 else _re(spec.subject, m.body)
        readers = tuple(world.people)
        mid = deliver(store, actor=SYSTEM, sender=sender, sender_name=sender_name,
                      to=[a for a, _ in fields["to"]], cc=[a for a, _ in fields["cc"]],
                      bcc=[a for a, _ in fields["bcc"]], subject=subject, body=m.body.rstrip() + "\n",
                      thread=threads[key], in_reply_to=parent.get(key), files=files,
                      sent_at=utc_iso(when), read_by=readers)
        parent[key] = mid
        box = store.one("SELECT id FROM mail_boxes WHERE owner=? AND message=?", (user, mid))
        if box is not None:
            changes = {"read": not m.unread, "starred": m.starred,
                       "labels": sorted(label_ids[name] for name in spec.labels),
                       "trashed": spec.trashed}
            if spec.archived:
                changes["inbox"] = False
            store.update("mail_boxes", box["id"], SYSTEM, **changes)


def _re(subject: str, body: str) -> str:
    if body.lstrip().startswith("---------- Forwarded message"):
        return subject if subject.lower().startswith("fwd:") else f"Fwd: {subject}"
    return subject if subject.lower().startswith(("re:", "fwd:", "fw:")) else f"Re: {subject}"


def drive_link(item: dict) -> dict:
    """An attachment row that is a link to a Drive item opened in its app (no bytes)."""
    return {"name": item["name"], "mime": item["mime"], "size": 0, "blob": None, "drive_item": item["id"]}


def _attachment(store: Store, world: World, rel: str, where: str) -> dict:
    if rel.startswith("drive/"):
        owner, _, path = rel[len("drive/"):].partition("/")
        item = drive.find_path(store, owner, path)
        if item is None or item["kind"] == drive.FOLDER:
            raise WorldError(f"{where}: no Drive file {rel!r}")
        if item["kind"] in drive.APP_KINDS:             # a Google Doc/Sheet/Slides: a Drive link, not a file
            return drive_link(item)
        return {"name": item["name"], "mime": item["mime"], "size": item["size"], "blob": item["blob"],
                "drive_item": item["id"]}
    src = source_of(world.root, rel)
    if src is None:
        raise WorldError(f"{where}: no file {rel!r} in the world")
    name, data = built_file(src)
    mime = guess_mime(name)
    return {"name": name, "mime": mime, "size": len(data), "blob": put_blob(store, data, mime),
            "drive_item": None}
