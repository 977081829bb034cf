"""Mail tables.

A message exists once; every person who sent or received it has a mailbox
row (``mail_boxes``) carrying *their* state: in Inbox, starred, labels,
trashed, read. Drafts live apart (``mail_drafts``): a draft is seen only by
its author until it is sent (sending turns it into a message), but what it
says is the user's work, so its fields are content (a draft left with an
empty body is nothing to the guard).
"""
from apps.core.store.schema import Kind, Table, content, derived, ephemeral, key

THREADS = Table("mail_threads", (
    key(),
    content("subject"),
))

MESSAGES = Table("mail_messages", (
    key(),
    content("thread", Kind.INT, ref="mail_threads", link="container"),
    content("sender"),                     # address, lower case
    content("sender_name"),
    content("to", Kind.JSON, default=[]),  # addresses
    content("cc", Kind.JSON, default=[]),
    content("bcc", Kind.JSON, default=[]),
    content("subject"),
    content("body"),
    content("sent_at", Kind.TIME),
    content("in_reply_to", Kind.INT, ref="mail_messages"),
    content("forward_of", Kind.INT, ref="mail_messages"),
), indexes=("thread",))

BOXES = Table("mail_boxes", (
    key(),
    content("owner"),                      # person slug
    content("message", Kind.INT, ref="mail_messages", link="part"),
    content("thread", Kind.INT, ref="mail_threads"),
    content("inbox", Kind.BOOL, default=False),
    content("starred", Kind.BOOL, default=False),
    content("trashed", Kind.BOOL, default=False),
    content("labels", Kind.JSON, default=[]),   # mail_labels ids, sorted
    content("spam", Kind.BOOL, default=False),  # reported as spam: in Spam, out of every other list
    content("snoozed_until", Kind.TIME),        # out of the Inbox until then (world time), in Snoozed
    ephemeral("read", Kind.BOOL, default=True),
), indexes=("owner, thread", "message"))

LABELS = Table("mail_labels", (
    key(),
    content("owner"),
    content("name"),
    content("color"),
), indexes=("owner",))

ATTACHMENTS = Table("mail_attachments", (
    key(),
    content("message", Kind.INT, ref="mail_messages", link="part"),
    content("name"),
    content("mime"),
    derived("size", Kind.INT),
    content("blob", Kind.INT, ref="blobs", link="container"),
    content("drive_item", Kind.INT, ref="drive_items"),       # set when attached from Drive
), indexes=("message",))

CONTACTS = Table("mail_contacts", (          # addresses outside the directory
    key(),
    derived("email"),
    derived("name"),
), indexes=("email",))

DRAFTS = Table("mail_drafts", (
    key(),
    content("owner"),
    content("thread", Kind.INT, ref="mail_threads"),   # set for replies and forwards
    content("in_reply_to", Kind.INT),
    content("forward_of", Kind.INT),
    content("to", Kind.JSON, default=[]),
    content("cc", Kind.JSON, default=[]),
    content("bcc", Kind.JSON, default=[]),
    content("subject", default=""),
    content("body", default=""),
    ephemeral("updated_at", Kind.TIME),
), indexes=("owner",))

DRAFT_FILES = Table("mail_draft_files", (
    key(),
    content("draft", Kind.INT, ref="mail_drafts", link="part"),
    content("name"),
    content("mime"),
    derived("size", Kind.INT),
    content("blob", Kind.INT, ref="blobs", link="container"),
    content("drive_item", Kind.INT, ref="drive_items"),
), indexes=("draft",))

SETTINGS = Table("mail_settings", (          # one row per user who changed a setting
    key(),
    content("owner"),
    content("signature", default=""),            # inserted below "-- " in new messages
), indexes=("owner",))

TABLES = (THREADS, MESSAGES, BOXES, LABELS, ATTACHMENTS, CONTACTS, DRAFTS, DRAFT_FILES, SETTINGS)
