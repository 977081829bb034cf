"""Chat tables.

A conversation is a channel (public or private), a direct message (one or
two people) or a group DM. Membership rows carry each member's read marker
(``last_read``: the id of the newest message they have seen), which is view
state and so ephemeral. A message with ``thread`` set is a reply in the
thread of that parent message; the parent's ``reply_count`` and
``last_reply_at`` are derived from its replies. A file in a message is a Drive
item or an upload from the computer (bytes in ``blobs``). ``chat_saved`` holds
each person's "Save for later" messages.
"""
from apps.core.store.schema import Kind, Table, content, derived, ephemeral, key

CONVERSATIONS = Table("chat_conversations", (
    key(),
    content("kind"),                              # channel | dm | group
    content("name"),                              # channels only: "corvane-aurelia-dawn"
    content("topic", default=""),
    content("purpose", default=""),
    content("private", Kind.BOOL, default=False),
    content("created_by"),                        # person slug
    content("created_at", Kind.TIME),
    content("archived", Kind.BOOL, default=False),
), indexes=("kind, name",))

MEMBERS = Table("chat_members", (
    key(),
    content("conversation", Kind.INT, ref="chat_conversations", link="part"),
    content("person"),                            # person slug
    ephemeral("last_read", Kind.INT, default=0),  # chat_messages id of the newest message seen
), indexes=("conversation", "person"))

MESSAGES = Table("chat_messages", (
    key(),
    content("conversation", Kind.INT, ref="chat_conversations", link="container"),
    content("thread", Kind.INT, ref="chat_messages"),   # parent message of a thread reply, else NULL
    content("author"),                                  # person slug
    content("text", default=""),
    content("mentions", Kind.JSON, default=[]),         # person slugs written as @slug in the text
    content("at", Kind.TIME),
    content("edited_at", Kind.TIME),
    content("deleted", Kind.BOOL, default=False),       # kept as "This message was deleted." (it had replies)
    content("pinned", Kind.BOOL, default=False),
    content("also_channel", Kind.BOOL, default=False),  # a thread reply also sent to the channel
    derived("reply_count", Kind.INT, default=0),
    derived("last_reply_at", Kind.TIME),
), indexes=("conversation, thread", "thread"))

REACTIONS = Table("chat_reactions", (
    key(),
    content("message", Kind.INT, ref="chat_messages"),
    content("person"),
    content("emoji"),
), indexes=("message",))

FILES = Table("chat_files", (
    key(),
    content("message", Kind.INT, ref="chat_messages", link="part"),
    content("item", Kind.INT, ref="drive_items"),                 # a Drive file shared in the message, or
    content("name"),                                              # a file uploaded from the computer:
    content("mime"),                                              # its name, type, size and bytes
    content("size", Kind.INT),
    content("blob", Kind.INT, ref="blobs", link="container"),
), indexes=("message",))

SAVED = Table("chat_saved", (                     # "Save for later": a person's saved messages
    key(),
    content("message", Kind.INT, ref="chat_messages", link="part"),
    content("person"),
    content("at", Kind.TIME),
), indexes=("person", "message"))

TABLES = (CONVERSATIONS, MEMBERS, MESSAGES, REACTIONS, FILES, SAVED)
