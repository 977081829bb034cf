"""Docs tables. A document's text is a list of blocks (``apps.docs.blocks``),
one row each, so a check can say "a heading 'The Shortfall' followed by a
paragraph containing …" and a diff names the paragraph that changed."""
from apps.core.store.schema import Kind, Table, content, derived, ephemeral, key

DOCUMENTS = Table("docs_documents", (
    key(),
    content("item", Kind.INT, ref="drive_items", link="both"),   # the Drive item (name, owner, sharing, folder)
    derived("revision", Kind.INT, default=1),
    ephemeral("opened_at", Kind.TIME),
), indexes=("item",))

BLOCKS = Table("docs_blocks", (
    key(),
    content("doc", Kind.INT, ref="docs_documents", link="part"),
    content("seq", Kind.INT),                          # position in the document, 1-based
    content("type"),                                   # title | heading | paragraph | bullet | numbered
    content("level", Kind.INT, default=0),
    content("text", default=""),
    content("marks", Kind.JSON, default=[]),
), indexes=("doc, seq",), order=(("seq", "doc"),))

COMMENTS = Table("docs_comments", (
    key(),
    content("doc", Kind.INT, ref="docs_documents", link="part"),
    content("author"),
    content("text"),
    content("quote", default=""),                      # the text the comment was anchored to
    content("resolved", Kind.BOOL, default=False),
    derived("resolved_by"),
    derived("created_at", Kind.TIME),
), indexes=("doc",))

REPLIES = Table("docs_replies", (
    key(),
    content("comment", Kind.INT, ref="docs_comments", link="part"),
    content("author"),
    content("text"),
    derived("created_at", Kind.TIME),
), indexes=("comment",))

TABLES = (DOCUMENTS, BLOCKS, COMMENTS, REPLIES)
