"""Drive tables. Items are files and folders in one tree; sharing is per item
and inherited by everything below it."""
from apps.core.store.schema import Kind, Table, content, derived, ephemeral, key

ITEMS = Table("drive_items", (
    key(),
    content("kind"),                       # "folder" | "file" | "doc" | "sheet" | "deck"
    content("name"),
    content("parent", Kind.INT, ref="drive_items"),   # NULL = the owner's My Drive root
    content("owner"),                      # person slug
    content("blob", Kind.INT, ref="blobs", link="container"),   # files: blobs.id
    content("mime"),
    derived("size", Kind.INT),
    content("ref", Kind.INT),              # doc / sheet / deck: the id in that app's table
    content("description", default=""),
    content("trashed", Kind.BOOL, default=False),
    # General access (the Share dialog's link setting): "restricted" | "org" (the owner's organisation,
    # with the link) | "anyone" (anyone with the link), and what the link lets them do.
    content("link_access", default="restricted"),
    content("link_role", default="viewer"),
    derived("trashed_at", Kind.TIME),
    derived("created_at", Kind.TIME),
    derived("modified_at", Kind.TIME),
    derived("modified_by"),
), indexes=("parent", "owner"))

SHARES = Table("drive_shares", (
    key(),
    content("item", Kind.INT, ref="drive_items", link="part"),
    content("person"),                     # person slug
    content("role"),                       # viewer | commenter | editor
    derived("shared_by"),
    derived("shared_at", Kind.TIME),
), indexes=("item", "person"))

STARS = Table("drive_stars", (
    key(),
    content("item", Kind.INT, ref="drive_items"),
    content("user"),
), indexes=("user",))

VIEWS = Table("drive_views", (
    key(),
    ephemeral("item", Kind.INT, ref="drive_items"),
    ephemeral("user"),
    ephemeral("at", Kind.TIME),
), indexes=("user",))

PREFS = Table("drive_prefs", (                # a user's view settings: the layout (list | grid)
    key(),
    ephemeral("user"),
    ephemeral("layout"),
), indexes=("user",))

TABLES = (ITEMS, SHARES, STARS, VIEWS, PREFS)
