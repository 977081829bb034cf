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

TABLES = (DECKS, SLIDES, BOXES)
