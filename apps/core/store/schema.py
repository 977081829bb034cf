"""Table definitions shared by the store, the export and the diff.

Every exported field carries a class (DESIGN.md, "Collateral damage"):

- ``content``   what a user means to change: a message, a label, a file's folder;
- ``derived``   computed from other state: sizes, snippets, counts;
- ``ephemeral`` view state: read markers, recents, drafts being typed.

The key column is classed ``key``. Each app declares its tables in its own
``schema.py`` as a tuple ``TABLES``; ``apps.core.registry`` collects them.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum


class FieldClass(StrEnum):
    KEY = "key"
    CONTENT = "content"
    DERIVED = "derived"
    EPHEMERAL = "ephemeral"


class Kind(StrEnum):
    INT = "int"
    TEXT = "text"
    BOOL = "bool"
    JSON = "json"      # stored as canonical JSON text, exported as the value
    TIME = "time"      # UTC ISO-8601 "YYYY-MM-DDTHH:MM:SSZ"
    BLOB = "blob"      # bytes; never exported


_SQL = {Kind.INT: "INTEGER", Kind.TEXT: "TEXT", Kind.BOOL: "INTEGER",
        Kind.JSON: "TEXT", Kind.TIME: "TEXT", Kind.BLOB: "BLOB"}


@dataclass(frozen=True)
class Field:
    name: str
    kind: Kind
    cls: FieldClass
    default: object = None
    exported: bool = True
    ref: str | None = None      # the table whose key this field holds
    # How a record added in an episode goes with the added record its ``ref`` names, for the
    # collateral-damage guard: "part" — it is part of that record (the mailbox copies of a new
    # message, the blocks of a new document) and is vouched for when that record is;
    # "container" — the referenced record exists to hold this one (the thread a new message
    # opened) and is vouched for when this one is; "both".
    link: str | None = None

    @property
    def ddl(self) -> str:
        return f'"{self.name}" {_SQL[self.kind]}'


def key(name: str = "id") -> Field:
    return Field(name, Kind.INT, FieldClass.KEY)


LINKS = (None, "part", "container", "both")


def content(name: str, kind: Kind = Kind.TEXT, default: object = None, ref: str | None = None,
            link: str | None = None) -> Field:
    return Field(name, kind, FieldClass.CONTENT, default, ref=ref, link=link)


def derived(name: str, kind: Kind = Kind.TEXT, default: object = None, ref: str | None = None,
            link: str | None = None) -> Field:
    return Field(name, kind, FieldClass.DERIVED, default, ref=ref, link=link)


def ephemeral(name: str, kind: Kind = Kind.TEXT, default: object = None, ref: str | None = None,
              link: str | None = None) -> Field:
    return Field(name, kind, FieldClass.EPHEMERAL, default, ref=ref, link=link)


@dataclass(frozen=True)
class Table:
    name: str
    fields: tuple[Field, ...]
    indexes: tuple[str, ...] = ()          # column lists, e.g. "owner, thread_id"
    exported: bool = True
    # Position fields and the field that groups the records they order, e.g. (("seq", "doc"),):
    # a change of position that keeps a record's order among its siblings (a block after an
    # inserted one) is not an edit for the guard; a move out of order is.
    order: tuple[tuple[str, str], ...] = ()
    by_name: dict[str, Field] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "by_name", {f.name: f for f in self.fields})
        keys = [f for f in self.fields if f.cls is FieldClass.KEY]
        if len(keys) != 1:
            raise ValueError(f"table {self.name} needs exactly one key field")
        for f in self.fields:
            if f.link not in LINKS or (f.link and not f.ref):
                raise ValueError(f"{self.name}.{f.name}: link is one of {LINKS[1:]} and needs a ref")

    @property
    def key(self) -> str:
        return next(f.name for f in self.fields if f.cls is FieldClass.KEY)

    def ddl(self) -> list[str]:
        cols = [f"{self.key} INTEGER PRIMARY KEY AUTOINCREMENT"]
        cols += [f.ddl for f in self.fields if f.cls is not FieldClass.KEY]
        stmts = [f"CREATE TABLE {self.name} ({', '.join(cols)})"]
        for i, cols_ in enumerate(self.indexes):
            stmts.append(f"CREATE INDEX ix_{self.name}_{i} ON {self.name} ({cols_})")
        return stmts

    def refs(self) -> dict[str, str]:
        return {f.name: f.ref for f in self.fields if f.ref and f.exported}

    def links(self) -> dict[str, str]:
        return {f.name: f.link for f in self.fields if f.link and f.exported}

    def classes(self) -> dict[str, str]:
        return {f.name: str(f.cls) for f in self.fields if f.exported and f.cls is not FieldClass.KEY}


# Core tables every world has.
ORGS = Table("orgs", (
    key(),
    content("slug"), content("name"), content("domain"), content("kind"),
    content("adverse", Kind.BOOL, False),
))

PEOPLE = Table("people", (
    key(),
    content("slug"), content("name"), content("email"), content("org"),
    content("title"), content("department"), content("phone"), content("note"),
    content("adverse", Kind.BOOL, False),
), indexes=("slug", "email"))

BLOBS = Table("blobs", (
    key(),
    content("sha256"), derived("size", Kind.INT), content("mime"),
    Field("data", Kind.BLOB, FieldClass.CONTENT, exported=False),
    Field("text", Kind.TEXT, FieldClass.DERIVED, exported=False),   # extracted text
), indexes=("sha256",))

LOCAL_FILES = Table("local_files", (
    key(),
    content("owner"), content("path"), content("name"), content("blob", Kind.INT, ref="blobs", link="container"),
), indexes=("owner",))

CORE_TABLES = (ORGS, PEOPLE, BLOBS, LOCAL_FILES)
