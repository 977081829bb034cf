"""Docs service layer: documents (as blocks), their text edits, comments.

A document is a Drive item of kind ``doc`` (name, owner, folder and sharing
are Drive's; ``DOCS`` opens, lists, creates, renames it, see
``apps.drive.editors``) plus its blocks. Edits arrive as editor HTML, are sanitised with
nh3, parsed into blocks and written as the smallest change to the block rows (a block keeps its row while it stays);
saving a document unchanged writes nothing.
"""
from __future__ import annotations

import difflib
import json
import re
from html import escape

import apps.docs.blocks as B
import apps.docs.history as H
import apps.docs.suggest as S
from apps.docs import images
from apps.core.errors import Forbidden, Invalid, NotFound
from apps.core.store.db import Caller, Store
from apps.drive import service as drive
from apps.drive.editors import Editor
from apps.drive.service import RANK, Role

DOC_MIME = "application/vnd.deskworld.doc"
KIND = "doc"
UNTITLED = "Untitled document"
DOCS = Editor("docs_documents", kind=KIND, mime=DOC_MIME, untitled=UNTITLED, noun="document")


def get(store: Store, user: str, doc_id: int) -> dict:
    """A document the user can open: its Drive item (with the user's role) and its blocks."""
    return {**DOCS.open(store, user, doc_id), "blocks": read_blocks(store, doc_id)}


def read_blocks(store: Store, doc_id: int) -> list[dict]:
    return [{"type": r["type"], "level": r["level"], "text": r["text"], "marks": r["marks"]}
            for r in store.select("docs_blocks", "doc=?", (doc_id,), order="seq")]


def documents(store: Store, user: str, q: str = "") -> list[dict]:
    """Documents the user can open, most recently modified first."""
    return DOCS.listing(store, user, q)


def _require(doc: dict, need: Role) -> None:
    if RANK[doc["role"]] < RANK[need]:
        verb = {Role.EDITOR: "edit", Role.COMMENTER: "comment on"}.get(need, "change")
        raise Forbidden(f"You can only view “{doc['title']}”. Ask the owner for access to {verb} it.")


# ---------------------------------------------------------------- writing blocks
def _signature(b: dict) -> tuple:
    return (b["type"], b["level"], b["text"], json.dumps(b["marks"], sort_keys=True))


def write_blocks(store: Store, actor: str, doc_id: int, new: list[dict]) -> bool:
    """Make the document's block rows equal ``new`` with the fewest writes. A block keeps its row
    while it stays (unchanged, or edited in place): an inserted paragraph is one new row, not a
    rewrite of every row after it, so a diff names the blocks that really changed."""
    rows = store.select("docs_blocks", "doc=?", (doc_id,), order="seq")
    matcher = difflib.SequenceMatcher(None, [_signature(r) for r in rows], [_signature(b) for b in new],
                                      autojunk=False)
    keep: list[int | None] = [None] * len(new)          # the row each new block is written to
    gone: list[int] = []
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op in ("equal", "replace"):
            n = min(i2 - i1, j2 - j1)
            for k in range(n):
                keep[j1 + k] = rows[i1 + k]["id"]
            gone += [r["id"] for r in rows[i1 + n:i2]]
        elif op == "delete":
            gone += [r["id"] for r in rows[i1:i2]]
    changed = False
    for rid in gone:
        store.delete("docs_blocks", rid, actor)
        changed = True
    for i, b in enumerate(new):
        values = {"seq": i + 1, "type": b["type"], "level": b["level"], "text": b["text"], "marks": b["marks"]}
        if keep[i] is not None:
            changed |= bool(store.update("docs_blocks", keep[i], actor, **values))
        else:
            store.insert("docs_blocks", actor, doc=doc_id, **values)
            changed = True
    return changed


def create(store: Store, caller: Caller, parent: int | None = None, title: str = UNTITLED,
           blocks: list[dict] | None = None) -> int:
    """A new document in a folder (``None`` = My Drive); returns the document id."""
    with store.transaction():
        doc_id = DOCS.create(store, caller, parent, title)
        write_blocks(store, caller.actor, doc_id, blocks or [B.block("paragraph")])
    return doc_id


def save_html(store: Store, caller: Caller, doc_id: int, html: str) -> bool:
    """Save what the editor holds. Returns whether anything changed."""
    return save_editor(store, caller, doc_id, html)[0]


def save_editor(store: Store, caller: Caller, doc_id: int, html: str) -> tuple[bool, dict[str, int]]:
    """Save what the editor holds, suggestions included (``<ins>`` / ``<del data-suggestion>``):
    the blocks get the accepted text, ``docs_suggestions`` what is suggested. A commenter may save
    only suggestions (as in Docs, commenters suggest). Returns whether anything changed and the
    ids of new suggestions by the editor's tags for them."""
    doc = get(store, caller.user, doc_id)
    _require(doc, Role.COMMENTER)
    new, parsed = B.parse(B.sanitize(html))
    if any(b["type"] == "image" for b in new):   # only Drive images the user can open
        keep = [i for i, b in enumerate(new) if b["type"] != "image" or images.allowed(store, caller.user, b)]
        where = {old: n for n, old in enumerate(keep)}
        new = [new[i] for i in keep] or [B.block("paragraph")]
        parsed = [{**p, "index": where[p["index"]]} for p in parsed if p["index"] in where]
    known = {str(c["id"]) for c in store.select("docs_comments", "doc=?", (doc_id,))}
    for b in new:                               # comment anchors must be this document's comments
        b["marks"] = [m for m in b["marks"] if m[2] != "comment" or str(m[3]) in known]
    if RANK[doc["role"]] < RANK[Role.EDITOR] and _strip_comments(new) != _strip_comments(doc["blocks"]):
        raise Forbidden(f"You can only suggest changes to “{doc['title']}”: switch to Suggesting.")
    with store.transaction():
        before, was = store.scalar("SELECT max(seq) FROM _writes"), S.editor_html(store, doc_id, doc["blocks"])
        changed = write_blocks(store, caller.actor, doc_id, new)
        made = S.reconcile(store, caller, doc_id, parsed, S.block_rows(store, doc_id))
        if changed:
            DOCS.bump(store, caller, doc)
        elif store.scalar("SELECT max(seq) FROM _writes") != before:
            drive.touch(store, caller, doc["item"]["id"])
            changed = True
        if changed:
            H.record(store, caller, doc, was)
    return changed, made


def _html_with_suggestions(store: Store, doc_id: int, blocks: list[dict], at: int = 0, added: int = 0) -> str:
    """``blocks`` (the document's, with ``added`` new ones from position ``at``) drawn with the pending
    suggestions, so a save through the editor's path keeps them."""
    grouped = {i if i < at else i + added: v for i, v in S.by_index(store, doc_id).items()}
    return B.to_html(blocks, grouped)


def append_markdown(store: Store, caller: Caller, doc_id: int, markdown: str) -> bool:
    """Add text written in Markdown at the end of the document (trailing empty paragraphs are
    filled first), through the editor's own save. Returns whether the document changed."""
    blocks = get(store, caller.user, doc_id)["blocks"]
    busy = S.by_index(store, doc_id)
    while blocks and blocks[-1]["type"] == "paragraph" and not blocks[-1]["text"] and len(blocks) - 1 not in busy:
        blocks.pop()
    return save_html(store, caller, doc_id, _html_with_suggestions(store, doc_id, blocks + B.from_markdown(markdown)))


def insert_markdown(store: Store, caller: Caller, doc_id: int, after: int, markdown: str) -> bool:
    """Insert text written in Markdown after block ``after`` (0-based; -1: at the very start),
    through the editor's own save. Returns whether the document changed."""
    blocks = get(store, caller.user, doc_id)["blocks"]
    if not -1 <= after < len(blocks):
        raise Invalid("There is no such paragraph in the document.", "after")
    new = B.from_markdown(markdown)
    return save_html(store, caller, doc_id, _html_with_suggestions(store, doc_id, blocks[:after + 1] + new + blocks[after + 1:],
                                                                   after + 1, len(new)))


def outline(store: Store, user: str, doc_id: int) -> list[dict]:
    """View → Show outline: the document's title and headings in order: block position (``index``),
    ``level`` (0 for the Title, 1–6 for headings) and text."""
    return [{"index": i, "level": b["level"] if b["type"] == "heading" else 0, "text": b["text"]}
            for i, b in enumerate(get(store, user, doc_id)["blocks"])
            if b["type"] in ("title", "heading") and b["text"].strip()]


def tables(store: Store, user: str, doc_id: int) -> list[dict]:
    """The document's tables: each one's block position (``index``, 0-based) and its cells row by row."""
    return [{"index": i, "rows": B.table_rows(b)} for i, b in enumerate(get(store, user, doc_id)["blocks"])
            if b["type"] == "table"]


MAX_TABLE = 50


def table_block(rows: list[list[str]]) -> dict:
    """A table block from rows of cell texts (short rows get empty cells; a cell is one line)."""
    if not rows or not any(rows):
        raise Invalid("A table needs at least one row and one column.", "rows")
    width = max(len(r) for r in rows)
    if len(rows) > MAX_TABLE or width > MAX_TABLE:
        raise Invalid(f"A table can have at most {MAX_TABLE} rows and {MAX_TABLE} columns.", "rows")
    clean = [[" ".join(str(c if c is not None else "").split()) for c in r] + [""] * (width - len(r)) for r in rows]
    return B.block("table", "\n".join("\t".join(r) for r in clean))


def insert_table(store: Store, caller: Caller, doc_id: int, after: int, rows: list[list[str]]) -> bool:
    """Insert a table after block ``after`` (0-based; -1: at the very start), as Insert → Table and typing
    in its cells does. Returns whether the document changed."""
    blocks = get(store, caller.user, doc_id)["blocks"]
    if not -1 <= after < len(blocks):
        raise Invalid("There is no such paragraph in the document.", "after")
    new = [table_block(rows)]
    return save_html(store, caller, doc_id, _html_with_suggestions(store, doc_id, blocks[:after + 1] + new + blocks[after + 1:],
                                                                   after + 1, 1))


def replace_text(store: Store, caller: Caller, doc_id: int, find: str, replacement: str, *,
                 every: bool = True, match_case: bool = False, occurrence: int | None = None) -> int:
    """Edit → Find and replace: one match (the first, or the ``occurrence``-th in document order, 1-based:
    the one the dialog shows) or every match. Formatting and comment anchors stay with the text around
    the replacement. Returns how many were replaced."""
    if not find:
        raise Invalid("Enter the text to find.", "find")
    if any(c in find or c in (replacement or "") for c in "\n\t"):
        raise Invalid("Find and replace works within a paragraph (or a table cell).", "find")
    doc = get(store, caller.user, doc_id)
    _require(doc, Role.EDITOR)
    pattern = re.compile(re.escape(find), 0 if match_case else re.IGNORECASE)
    if occurrence is not None and not every:
        total = sum(len(pattern.findall(b["text"])) for b in doc["blocks"])
        if not 1 <= occurrence <= max(total, 1):
            raise Invalid(f"There is no match {occurrence} of “{find}” (there are {total}).", "occurrence")
    want, seen = occurrence or 1, 0
    count = 0
    out = []
    grouped = S.by_index(store, doc_id)
    moved: list[tuple[int, list]] = []                # pending suggestions, shifted with the text
    for i, blk in enumerate(doc["blocks"]):
        matches = [] if (count and not every) else list(pattern.finditer(blk["text"]))
        if not every:
            before, seen = seen, seen + len(matches)
            matches = [matches[want - before - 1]] if before < want <= seen else []
        if not matches:
            out.append(blk)
            continue
        text, marks = blk["text"], [list(m) for m in blk["marks"]]
        spans = [[s["start"], s["end"], s["id"]] for s in grouped.get(i, [])]
        moved += [(sp[2], sp) for sp in spans]
        for m in reversed(matches):               # right to left: earlier offsets stay valid
            s0, e0 = m.start(), m.end()
            delta = len(replacement) - (e0 - s0)
            text = text[:s0] + replacement + text[e0:]
            for mk in marks + spans:
                for k in (0, 1):
                    if mk[k] >= e0:
                        mk[k] += delta
                    elif s0 < mk[k] < e0:
                        mk[k] = s0 + (len(replacement) if k == 1 else 0)
        count += len(matches)
        out.append(B.block(blk["type"], text, blk["level"], marks))
    if not count:
        return 0
    with store.transaction():
        was = S.editor_html(store, doc_id, doc["blocks"])
        write_blocks(store, caller.actor, doc_id, out)
        for sid, (start, end, _) in moved:
            store.update("docs_suggestions", sid, caller.actor, start=start, end=end)
        DOCS.bump(store, caller, doc)
        H.record(store, caller, doc, was)
    return count


# ---------------------------------------------------------------- comments
MARKER = re.compile(r'data-comment="new"')


def comments(store: Store, user: str, doc_id: int) -> list[dict]:
    get(store, user, doc_id)
    out = []
    for c in store.select("docs_comments", "doc=?", (doc_id,), order="id"):
        c["replies"] = store.select("docs_replies", "comment=?", (c["id"],), order="id")
        out.append(c)
    return out


def add_comment(store: Store, caller: Caller, doc_id: int, text: str, html: str) -> int:
    """Comment on the range the editor marked with ``<span data-comment="new">``."""
    text = (text or "").strip()
    if not text:
        raise Invalid("Write a comment first.", "text")
    doc = get(store, caller.user, doc_id)
    _require(doc, Role.COMMENTER)
    if not MARKER.search(html or ""):
        raise Invalid("Select the text you want to comment on.", "html")
    with store.transaction():
        cid = store.insert("docs_comments", caller.actor, doc=doc_id, author=caller.user, text=text,
                           quote="", created_at=store.now_iso())
        new = B.from_html(B.sanitize(MARKER.sub(f'data-comment="{cid}"', html, count=1)))
        old = read_blocks(store, doc_id)
        if RANK[doc["role"]] < RANK[Role.EDITOR] and _strip_comments(new) != _strip_comments(old):
            raise Forbidden("Commenters can add comments but can't change the text.")
        quote = " ".join(b["text"][m[0]:m[1]] for b in new for m in b["marks"]
                         if m[2] == "comment" and str(m[3]) == str(cid)).strip()
        if not quote:
            raise Invalid("Select the text you want to comment on.", "html")
        store.update("docs_comments", cid, caller.actor, quote=quote[:500])
        write_blocks(store, caller.actor, doc_id, new)
        drive.touch(store, caller, doc["item"]["id"])
    return cid


def _strip_comments(blocks: list[dict]) -> list[dict]:
    return [{**b, "marks": [m for m in b["marks"] if m[2] != "comment"]} for b in blocks]


def _comment(store: Store, user: str, comment_id: int) -> tuple[dict, dict]:
    c = store.get("docs_comments", comment_id)
    if c is None:
        raise NotFound("That comment doesn't exist.")
    return c, get(store, user, c["doc"])


def reply(store: Store, caller: Caller, comment_id: int, text: str) -> int:
    text = (text or "").strip()
    if not text:
        raise Invalid("Write a reply first.", "text")
    c, doc = _comment(store, caller.user, comment_id)
    _require(doc, Role.COMMENTER)
    return store.insert("docs_replies", caller.actor, comment=comment_id, author=caller.user, text=text,
                        created_at=store.now_iso())


def resolve(store: Store, caller: Caller, comment_id: int, resolved: bool = True) -> None:
    c, doc = _comment(store, caller.user, comment_id)
    _require(doc, Role.COMMENTER)
    store.update("docs_comments", comment_id, caller.actor, resolved=resolved,
                 resolved_by=caller.user if resolved else None)


# ---------------------------------------------------------------- export
def markdown(store: Store, user: str, doc_id: int) -> str:
    return B.to_markdown(get(store, user, doc_id)["blocks"])


def html_document(store: Store, user: str, doc_id: int) -> str:
    doc = get(store, user, doc_id)
    return (f"<!doctype html><html><head><meta charset=\"utf-8\"><title>{escape(doc['title'])}</title></head>"
            f"<body>{B.to_html(doc['blocks'])}</body></html>")


def docx_bytes(store: Store, user: str, doc_id: int) -> bytes:
    """The document as Word writes it; pending suggestions are tracked changes (``apps.docs.wordfile``)."""
    from apps.docs.wordfile import docx_bytes as write
    doc = get(store, user, doc_id)
    return write(store, doc, S.by_index(store, doc_id))


def text(store: Store, doc_id: int) -> str:
    """The document's text: the accepted text, without pending suggestions."""
    return B.plain_text(read_blocks(store, doc_id))


def text_if_accepted(store: Store, doc_id: int) -> str:
    """The document's text as it would be with every pending suggestion accepted."""
    return B.plain_text(S.accepted_all(read_blocks(store, doc_id), S.by_index(store, doc_id)))
