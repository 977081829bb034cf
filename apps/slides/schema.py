"""Slides tables. A presentation (deck) is a Drive item of kind ``deck`` plus its
slides, in order, and each slide's text boxes, one row per box of its layout,
so a check can say "slide 4 has the title X and its body contains Y" or "the
slides are in the order A, B, C", and a diff names the box that changed.

Box text is plain text; in body-like boxes (body, left, right) a line that
starts with "- " is a bullet."""
from apps.core.store.schema import Kind, Table, content, derived, ephemeral, key

DECKS = Table("slides_decks", (
    key(),
    content("item", Kind.INT, ref="drive_items", link="both"),   # the Drive item (name, owner, sharing, folder)
    derived("revision", Kind.INT, default=1),
    ephemeral("opened_at", Kind.TIME),
), indexes=("item",))

SLIDES = Table("slides_slides", (
    key(),
    content("deck", Kind.INT, ref="slides_decks", link="part"),
    content("seq", Kind.INT),                          # position in the deck, 1-based
    content("layout"),                                 # title | title_body | two_columns | section
    content("notes", default=""),                      # speaker notes
), indexes=("deck, seq",), order=(("seq", "deck"),))

BOXES = Table("slides_boxes", (
    key(),
    content("slide", Kind.INT, ref="slides_slides", link="part"),
    content("role"),                                   # title | subtitle | body | left | right
    content("text", default=""),
), indexes=("slide",))

# What sits on a slide besides its layout's text: inserted text boxes, shapes, lines and images,
# and the position and formatting a user gave a layout box (kind "placeholder", named by its
# ``role``; its text stays in slides_boxes). Positions and sizes are in points of a 720 × 405 pt
# slide (10 × 5.625 in, 16:9; 1 pt = 12,700 EMU), origin top left. A line runs from (x, y) to
# (x + w, y + h), so its w and h may be negative. A placeholder's x, y, w, h are NULL while it sits
# where its layout puts it. Text formatting is per box (the whole box's text); "- " lines are bullets.
OBJECTS = Table("slides_objects", (
    key(),
    content("slide", Kind.INT, ref="slides_slides", link="part"),
    content("kind"),                                   # text | shape | line | image | placeholder
    content("role", default=""),                       # placeholder: title | subtitle | body | left | right
    content("shape", default=""),                      # shape: rectangle | rounded_rectangle | ellipse | triangle |
                                                       #   right_arrow | left_arrow | star; line: line | arrow
    content("x", Kind.INT), content("y", Kind.INT), content("w", Kind.INT), content("h", Kind.INT),
    content("z", Kind.INT, default=0),                 # stacking order on the slide: higher is in front
    content("text", default=""),                       # text boxes and shapes
    content("bold", Kind.BOOL, default=False),
    content("italic", Kind.BOOL, default=False),
    content("underline", Kind.BOOL, default=False),
    content("size", Kind.INT),                         # font size in points; NULL: the box's default
    content("color", default=""),                      # text colour "#rrggbb"; "": default
    content("align", default=""),                      # left | center | right; "": default
    content("fill", default=""),                       # shape fill "#rrggbb", "none"; "": default
    content("stroke", default=""),                     # outline / line colour; "": default
    content("weight", Kind.INT),                       # outline / line width in points
    content("item", Kind.INT, ref="drive_items"),      # image: the Drive file it came from
    content("blob", Kind.INT, ref="blobs"),            # image: its bytes (kept if the Drive file goes)
), indexes=("slide",))

# A deck's theme (a row with no slide) and a slide's own background colour (a row with its slide).
LOOKS = Table("slides_looks", (
    key(),
    content("deck", Kind.INT, ref="slides_decks", link="part"),
    content("slide", Kind.INT, ref="slides_slides", link="part"),   # NULL: the deck's theme
    content("theme", default=""),                      # deck row: simple_light | simple_dark | coral | ...
    content("background", default=""),                # slide row: "#rrggbb" ("": the theme's)
), indexes=("deck",))

# The editor's undo and redo stacks: each step keeps the deck's slides, boxes, objects and looks as
# they were before it, with their keys (view state: not exported, like Sheets' history).
HISTORY = Table("slides_history", (
    key(),
    ephemeral("deck", Kind.INT, ref="slides_decks"),
    ephemeral("seq", Kind.INT),
    ephemeral("stack"),                                # undo | redo
    ephemeral("label"),
    ephemeral("slide", Kind.INT),                      # the slide the change was made on (shown after undo)
    ephemeral("before", Kind.JSON),
), indexes=("deck, stack, seq",), exported=False)

# Comments on a slide, as in Google Slides' comment threads: a comment (no parent) and its replies
# (parent: the comment). A thread is resolved or reopened as a whole (its first comment's flag).
COMMENTS = Table("slides_comments", (
    key(),
    content("slide", Kind.INT, ref="slides_slides", link="part"),
    content("parent", Kind.INT, ref="slides_comments", link="part"),   # NULL: a new thread
    content("author"),
    content("text"),
    content("resolved", Kind.BOOL, default=False),
    derived("resolved_by"),
    derived("created_at", Kind.TIME),
), indexes=("slide",))

TABLES = (DECKS, SLIDES, BOXES, OBJECTS, LOOKS, HISTORY, COMMENTS)
