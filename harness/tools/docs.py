"""Docs tools: list and read documents (as Markdown), edit, insert and append text, add, answer and
resolve comments, insert tables, suggest edits and accept or reject suggestions.

A document is named by its id or its title (see ``drive.app_ref``).
"""
from __future__ import annotations

from apps.core.errors import Invalid
from apps.core.ids import as_id
from apps.core.store.db import Caller, Store
from apps.docs import blocks as B
from apps.docs import review
from apps.docs import service as docs
from harness.tools.drive import app_ref
from harness.tools.registry import read, write


def read_doc(store: Store, caller: Caller, doc: str | int) -> dict:
    """Open a document: its title, the user's role (viewer, commenter, editor, owner) and its text as
    Markdown (headings, lists, bold, italic, links, tables as | pipes |). Opening puts it in Recent."""
    doc_id = app_ref(store, caller.user, "doc", doc)
    d = docs.get(store, caller.user, doc_id)
    docs.DOCS.record_open(store, caller, doc_id)
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


def insert(store: Store, caller: Caller, doc: str | int, after: str, markdown: str) -> bool:
    """Insert new paragraphs (written in Markdown: # headings, - lists, 1. numbered, **bold**…) right after
    the first paragraph, heading or list item that contains the text `after`. Returns whether the
    document changed."""
    doc_id = app_ref(store, caller.user, "doc", doc)
    needle = after.strip()
    blocks = docs.get(store, caller.user, doc_id)["blocks"]
    at = next((i for i, b in enumerate(blocks) if needle and needle in b["text"]), None)
    if at is None:
        raise Invalid(f"No paragraph contains “{after}” (quote text from one paragraph, exactly).", "after")
    return docs.insert_markdown(store, caller, doc_id, at, markdown)


def create(store: Store, caller: Caller, title: str, markdown: str = "", parent: int | None = None) -> dict:
    """Create a document from Markdown in My Drive (or a folder). Returns its id and Drive item id."""
    doc_id = docs.create(store, caller, parent, title, B.from_markdown(markdown) if markdown else None)
    return {"id": doc_id, "item_id": docs.get(store, caller.user, doc_id)["item"]["id"], "title": title}


def add_comment(store: Store, caller: Caller, doc: str | int, quote: str, text: str) -> dict:
    """Comment on a passage of a document: the comment is anchored on the first place the quoted text
    appears (within one paragraph), as selecting it and choosing Comment does (you need comment
    access). Returns the comment."""
    doc_id = app_ref(store, caller.user, "doc", doc)
    blocks = docs.get(store, caller.user, doc_id)["blocks"]
    needle = quote.strip()
    for b in blocks:
        at = b["text"].find(needle) if needle else -1
        if at >= 0:
            b["marks"] = b["marks"] + [[at, at + len(needle), "comment", "new"]]
            break
    else:
        raise Invalid(f"“{quote}” isn't in the document (quote text from one paragraph, exactly).", "quote")
    cid = docs.add_comment(store, caller, doc_id, text, B.to_html(blocks))
    return next(c for c in docs.comments(store, caller.user, doc_id) if c["id"] == cid)


def suggestions(store: Store, user: str, doc: str | int, status: str | None = "pending") -> dict:
    """The document's suggested edits (pending ones unless `status` is accepted, rejected or null for all):
    id, author, kind (insert | delete), text, the paragraph's position and text, status; and the
    document's text as it is and as it would be with every pending suggestion accepted."""
    doc_id = app_ref(store, user, "doc", doc)
    return {"suggestions": review.suggestions(store, user, doc_id, status), "text": docs.text(store, doc_id),
            "text_if_accepted": docs.text_if_accepted(store, doc_id)}


def insert_table(store: Store, caller: Caller, doc: str | int, after: str, rows: list[list[str]]) -> dict:
    """Insert a table (as Insert → Table does) right after the first paragraph that contains the text
    `after` ("" : at the very start); `rows` are the cells' texts, row by row (short rows get empty cells).
    Returns the document's tables, each with its cells."""
    doc_id = app_ref(store, caller.user, "doc", doc)
    needle = after.strip()
    blocks = docs.get(store, caller.user, doc_id)["blocks"]
    at = -1 if not needle else next((i for i, b in enumerate(blocks) if needle in b["text"]), None)
    if at is None:
        raise Invalid(f"No paragraph contains “{after}” (quote text from one paragraph, exactly).", "after")
    docs.insert_table(store, caller, doc_id, at, rows)
    return {"tables": docs.tables(store, caller.user, doc_id)}


def suggest(store: Store, caller: Caller, doc: str | int, find: str, replacement: str) -> list[dict]:
    """Suggesting mode: suggest replacing the first occurrence of `find` (text within one paragraph) with
    `replacement`, as typing over it in Suggesting mode does; only what differs becomes the suggestion
    (find "the fund", replacement "the limitation fund" suggests inserting "limitation "; replacement ""
    suggests deleting it). The document's text changes only when a suggestion is accepted. Returns the
    new suggestions."""
    doc_id = app_ref(store, caller.user, "doc", doc)
    blocks = docs.get(store, caller.user, doc_id)["blocks"]
    at = next(((i, b["text"].find(find)) for i, b in enumerate(blocks) if find and find in b["text"]), None)
    if at is None:
        raise Invalid(f"“{find}” isn't in the document (quote text from one paragraph, exactly).", "find")
    replacement = replacement or ""
    p = 0
    while p < min(len(find), len(replacement)) and find[p] == replacement[p]:
        p += 1
    q = 0
    while q < min(len(find), len(replacement)) - p and find[-1 - q] == replacement[-1 - q]:
        q += 1
    i, start = at
    ids = review.suggest(store, caller, doc_id, i, start + p, start + len(find) - q, replacement[p:len(replacement) - q])
    return [s for s in review.suggestions(store, caller.user, doc_id) if s["id"] in ids]


def review_suggestions(store: Store, caller: Caller, doc: str | int, accept: bool,
                       suggestion_id: int | None = None) -> int:
    """Accept (the suggestion becomes the document's text) or reject (the text stays as it was) one
    suggested edit, or every pending one when no `suggestion_id` is given (you need edit access; the
    person who suggested an edit may reject it). Returns how many were decided."""
    doc_id = app_ref(store, caller.user, "doc", doc)
    if suggestion_id is None:
        return (review.accept_all if accept else review.reject_all)(store, caller, doc_id)
    sid = as_id(suggestion_id)
    s = store.get("docs_suggestions", sid) if sid is not None else None
    if s is None or s["doc"] != doc_id:
        raise Invalid(f"The document has no suggestion {suggestion_id} (see docs.suggestions).", "suggestion_id")
    return review.decide(store, caller, doc_id, [s["id"]], bool(accept))


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
    write(insert, "docs.insert",
          args={"doc": DOC, "after": "Text from the paragraph after which to insert (the first one containing it).",
                "markdown": "The new paragraphs, in Markdown."}),
    write(create, "docs.create", args={"title": "The title.", "markdown": "The text, in Markdown.",
                                       "parent": "A Drive folder id; null for My Drive."}),
    write(add_comment, "docs.add_comment",
          args={"doc": DOC, "quote": "The text to comment on, exactly as it appears in one paragraph.",
                "text": "The comment."}),
    write(docs.reply, "docs.reply_comment", "Reply to a comment on a document. Returns the reply's id.",
          args={"comment_id": "The comment's id (see docs.comments).", "text": "The reply."}),
    write(docs.resolve, "docs.resolve_comment", "Resolve a comment (or re-open it).",
          args={"comment_id": "The comment's id.", "resolved": "False to re-open it."}),
    write(insert_table, "docs.insert_table",
          args={"doc": DOC, "after": "Text from the paragraph after which to insert (\"\": at the start).",
                "rows": "The cells, row by row: a list of rows, each a list of cell texts."}),
    read(suggestions, "docs.suggestions",
         args={"doc": DOC, "status": "pending (default), accepted, rejected, or null for every suggestion."}),
    write(suggest, "docs.suggest",
          args={"doc": DOC, "find": "The text to change, exactly as it appears in one paragraph.",
                "replacement": "What it should say (empty: suggest deleting it)."}),
    write(review_suggestions, "docs.review_suggestions",
          args={"doc": DOC, "accept": "True to accept, false to reject.",
                "suggestion_id": "One suggestion's id (see docs.suggestions); null for every pending one."}),
]
