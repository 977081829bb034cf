"""Docs service layer: documents (as blocks), their text edits, comments.

A document is a Drive item of kind ``doc`` (name, owner, folder and sharing
are Drive's; ``DOCS`` opens, lists, creates, renames it, see
``apps.drive.editors``) plus its blocks. Edits arrive as editor HTML, are sanitised with
nh3, parsed into blocks and written as the smallest change to the block rows (a block keeps its row while it stays);
saving a document unchanged writes nothing.
"""
from __future__ import annotations

import difflib
import io
import json
import re
from html import escape

import apps.docs.blocks as B
from apps.core.errors import Forbidden, Invalid, NotFound
from apps.core.files import stamped_zip
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
    doc = get(store, caller.user, doc_id)
    _require(doc, Role.EDITOR)
    new = B.from_html(B.sanitize(html))
    known = {str(c["id"]) for c in store.select("docs_comments", "doc=?", (doc_id,))}
    for b in new:                               # comment anchors must be this document's comments
        b["marks"] = [m for m in b["marks"] if m[2] != "comment" or str(m[3]) in known]
    with store.transaction():
        changed = write_blocks(store, caller.actor, doc_id, new)
        if changed:
            DOCS.bump(store, caller, doc)
    return changed


def append_markdown(store: Store, caller: Caller, doc_id: int, markdown: str) -> bool:
    """Add text written in Markdown at the end of the document (trailing empty paragraphs are
    filled first), through the editor's own save. Returns whether the document changed."""
    blocks = get(store, caller.user, doc_id)["blocks"]
    while blocks and blocks[-1]["type"] == "paragraph" and not blocks[-1]["text"]:
        blocks.pop()
    return save_html(store, caller, doc_id, B.to_html(blocks + B.from_markdown(markdown)))


def insert_markdown(store: Store, caller: Caller, doc_id: int, after: int, markdown: str) -> bool:
    """Insert text written in Markdown after block ``after`` (0-based; -1: at the very start),
    through the editor's own save. Returns whether the document changed."""
    blocks = get(store, caller.user, doc_id)["blocks"]
    if not -1 <= after < len(blocks):
        raise Invalid("There is no such paragraph in the document.", "after")
    new = B.from_markdown(markdown)
    return save_html(store, caller, doc_id, B.to_html(blocks[:after + 1] + new + blocks[after + 1:]))


def replace_text(store: Store, caller: Caller, doc_id: int, find: str, replacement: str, *,
                 every: bool = True, match_case: bool = False) -> int:
    """Edit → Find and replace: the first match in the document, or every match. Formatting
    and comment anchors stay with the text around the replacement. Returns how many were replaced."""
    if not find:
        raise Invalid("Enter the text to find.", "find")
    if "\n" in find or "\n" in (replacement or ""):
        raise Invalid("Find and replace works within a paragraph.", "find")
    doc = get(store, caller.user, doc_id)
    _require(doc, Role.EDITOR)
    pattern = re.compile(re.escape(find), 0 if match_case else re.IGNORECASE)
    count = 0
    out = []
    for blk in doc["blocks"]:
        matches = [] if (count and not every) else list(pattern.finditer(blk["text"]))
        if not every:
            matches = matches[:1]
        if not matches:
            out.append(blk)
            continue
        text, marks = blk["text"], [list(m) for m in blk["marks"]]
        for m in reversed(matches):               # right to left: earlier offsets stay valid
            s0, e0 = m.start(), m.end()
            delta = len(replacement) - (e0 - s0)
            text = text[:s0] + replacement + text[e0:]
            for mk in marks:
                for i in (0, 1):
                    if mk[i] >= e0:
                        mk[i] += delta
                    elif s0 < mk[i] < e0:
                        mk[i] = s0 + (len(replacement) if i == 1 else 0)
        count += len(matches)
        out.append(B.block(blk["type"], text, blk["level"], marks))
    if not count:
        return 0
    with store.transaction():
        write_blocks(store, caller.actor, doc_id, out)
        DOCS.bump(store, caller, doc)
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
    from docx import Document
    from docx.enum.text import WD_BREAK
    from docx.oxml import parse_xml
    from docx.oxml.ns import nsdecls
    doc = get(store, user, doc_id)
    out = Document()
    for b in doc["blocks"]:
        if b["type"] == "page_break":
            out.add_paragraph().add_run().add_break(WD_BREAK.PAGE)
            continue
        if b["type"] == "rule":                 # a paragraph with a bottom border, as Word draws a line
            bdr = parse_xml(f'<w:pBdr {nsdecls("w")}><w:bottom w:val="single" w:sz="6" w:space="1" w:color="auto"/></w:pBdr>')
            out.add_paragraph()._p.get_or_add_pPr().append(bdr)
            continue
        if b["type"] in ("heading", "title"):
            p = out.add_heading(level=max(1, b["level"]))
        elif b["type"] == "bullet":
            p = out.add_paragraph(style="List Bullet" if b["level"] <= 1 else "List Bullet 2")
        elif b["type"] == "numbered":
            p = out.add_paragraph(style="List Number" if b["level"] <= 1 else "List Number 2")
        else:
            p = out.add_paragraph()
        for seg, active in B._segments(b):
            run = p.add_run(seg)
            kinds = {m[2] for m in active}
            run.bold = "bold" in kinds or None
            run.italic = "italic" in kinds or None
            run.underline = "underline" in kinds or None
    props = out.core_properties
    props.title = doc["title"]
    props.author = props.last_modified_by = doc["item"].get("owner", "") or ""
    stamp = store.now().replace(tzinfo=None)                          # world time: byte-stable downloads
    props.created = props.modified = stamp
    props.revision = int(doc["revision"])
    buf = io.BytesIO()
    out.save(buf)
    return stamped_zip(buf.getvalue(), stamp)


def text(store: Store, doc_id: int) -> str:
    return B.plain_text(read_blocks(store, doc_id))
