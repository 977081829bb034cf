"""Docs tables. A document's text is a list of blocks (``apps.docs.blocks``),
one row each, so a check can say "a heading 'The Shortfall' followed by a
paragraph containing …" and a diff names the paragraph that changed."""
from apps.core.store.schema import Field, FieldClass, Kind, Table, content, derived, ephemeral, key

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

# Suggesting mode: an edit proposed, not made. The block's text stays the accepted text; a suggestion
# names the block, where in its text (``start``; a deletion covers ``start``–``end``) and what text it
# inserts or deletes. Accepting applies it to the block; rejecting leaves the block as it was; either
# way the record stays, with its ``status``, so a check can say who suggested and who decided what.
SUGGESTIONS = Table("docs_suggestions", (
    key(),
    content("doc", Kind.INT, ref="docs_documents", link="part"),
    content("block", Kind.INT, ref="docs_blocks"),
    content("kind"),                                   # insert | delete
    # Where in the block: positions that move as the text around them is edited (as a block's seq moves
    # when one is inserted before it), so they are derived — an edit elsewhere is not an edit of this.
    derived("start", Kind.INT, default=0),
    derived("end", Kind.INT, default=0),               # = start for an insertion
    content("text", default=""),                       # the text inserted, or the text deleted
    content("author"),
    content("status", default="pending"),             # pending | accepted | rejected
    derived("resolved_by"),
    derived("created_at", Kind.TIME),
    ephemeral("tag"),                                  # the editor's name for it before it had an id
), indexes=("doc",))

# Version history (File → Version history). Saves keep the latest version up to date, a new one when
# someone else edits or after a pause (automatic versions); a person may name one. The write log records
# which fields changed, not their values, so a version keeps the document as it was (its editor HTML,
# suggestions included: not exported, read through ``apps.docs.versions``). No field is content: a
# version is the history of edits the blocks already show, not an edit of its own for the collateral
# guard to vouch for (a check that wants a named version reads ``name``).
VERSIONS = Table("docs_versions", (
    key(),
    derived("doc", Kind.INT, ref="docs_documents"),
    derived("name"),
    derived("author"),
    derived("created_at", Kind.TIME),
    Field("html", Kind.TEXT, FieldClass.DERIVED, exported=False),
), indexes=("doc",))

TABLES = (DOCUMENTS, BLOCKS, COMMENTS, REPLIES, SUGGESTIONS, VERSIONS)
