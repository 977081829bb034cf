"""Docs tools: list and read documents (as Markdown), edit their text, comments.

A document is named by its id or its title (see ``drive.app_ref``).
"""
from __future__ import annotations

from apps.common.store.db import Caller, Store
from apps.docs import blocks as B
from apps.docs import service as docs
from harness.tools.drive import app_ref
from harness.tools.registry import read, write


def read_doc(store: Store, caller: Caller, doc: str | int) -> dict:
    """Open a document: its title, the user's role (viewer, commenter, editor, owner) and its text as
    Markdown (headings, lists, bold, italic, links). Opening puts it in Recent."""
    doc_id = app_ref(store, caller.user, "doc", doc)
    d = docs.get(store, caller.user, doc_id)
    docs.record_open(store, caller, doc_id)
    return {"id": doc_id, "title": d["title"], "role": d["role"], "item_id": d["item"]["id"],
            "markdown": B.to_markdown(d["blocks"])}


def comments(store: Store, user: str, doc: str | int) -> list[dict]:
    """The document's comments (the quoted text each is anchored on, author, resolved) with their replies."""
    return docs.comments(store, user, app_ref(store, user, "doc", doc))


def replace_text(store: Store, caller: Caller, doc: str | int, find: str, replacement: str, every: bool = True,
                 match_case: bool = False) -> int:
    """Find and replace within paragraphs, keeping formatting and comments around the change (you need
    edit access). Returns how many places were replaced (0 when the text wasn't found)."""
    return docs.replace_text(store, caller, app_ref(store, caller.user, "doc", doc), find, replacement,
                             every=every, match_case=match_case)


def append(store: Store, caller: Caller, doc: str | int, markdown: str) -> bool:
    """Add text at the end of a document, written in Markdown (# headings, - lists, **bold**, *italic*,
    [links](…)); trailing empty paragraphs are filled first. Returns whether the document changed."""
    return docs.append_markdown(store, caller, app_ref(store, caller.user, "doc", doc), markdown)


def create(store: Store, caller: Caller, title: str, markdown: str = "", parent: int | None = None) -> dict:
    """Create a document from Markdown in My Drive (or a folder). Returns its id and Drive item id."""
    doc_id = docs.create(store, caller, parent, title, B.from_markdown(markdown) if markdown else None)
    return {"id": doc_id, "item_id": docs.get(store, caller.user, doc_id)["item"]["id"], "title": title}


DOC = "The document's id or title (see docs.list)."

TOOLS = [
    read(docs.documents, "docs.list", "Documents the user can open, most recently changed first: id (`ref`), "
         "title (`name`), owner, who it is shared with.", args={"q": "Only titles containing this."}),
    read(read_doc, "docs.read", args={"doc": DOC}),
    read(comments, "docs.comments", args={"doc": DOC}),
    write(replace_text, "docs.replace_text",
          args={"doc": DOC, "find": "The text to find (within one paragraph).", "replacement": "What to put instead.",
                "every": "Replace every match (else only the first).", "match_case": "Match upper and lower case."}),
    write(append, "docs.append", args={"doc": DOC, "markdown": "The text to add, in Markdown."}),
    write(create, "docs.create", args={"title": "The title.", "markdown": "The text, in Markdown.",
                                       "parent": "A Drive folder id; null for My Drive."}),
    write(docs.reply, "docs.reply_comment", "Reply to a comment on a document. Returns the reply's id.",
          args={"comment_id": "The comment's id (see docs.comments).", "text": "The reply."}),
    write(docs.resolve, "docs.resolve_comment", "Resolve a comment (or re-open it).",
          args={"comment_id": "The comment's id.", "resolved": "False to re-open it."}),
]
