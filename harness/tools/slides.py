"""Slides tools: list and read presentations, edit text boxes and notes, add, delete and reorder slides.

A presentation is named by its id or its title (see ``drive.app_ref``).
"""
from __future__ import annotations

from typing import Literal

from apps.core.store.db import Caller, Store
from apps.slides import service as slides
from harness.tools.drive import app_ref
from harness.tools.registry import read, write

Layout = Literal["title", "title_body", "two_columns", "section"]
Box = Literal["title", "subtitle", "body", "left", "right"]


def read_deck(store: Store, caller: Caller, deck: str | int) -> dict:
    """Open a presentation: its title, the user's role and its slides in order, each with its id,
    layout, the text of every box of the layout (title, subtitle, body, left, right; `- ` lines are
    bullets) and speaker notes. Opening puts it in Recent."""
    deck_id = app_ref(store, caller.user, "deck", deck)
    d = slides.get(store, caller.user, deck_id)
    slides.DECKS.record_open(store, caller, deck_id)
    return {"id": deck_id, "title": d["title"], "role": d["role"], "item_id": d["item"]["id"], "slides": d["slides"]}


def add_slide(store: Store, caller: Caller, deck: str | int, layout: Layout = "title_body",
              texts: dict[Box, str] | None = None, notes: str = "", after: int | None = None) -> int:
    """Add a slide with its text, at the end or after a given slide. Returns the new slide's id."""
    return slides.add_slide(store, caller, app_ref(store, caller.user, "deck", deck), after, layout, texts, notes)


DECK = "The presentation's id or title (see slides.list)."
SLIDE = "The slide's id (see slides.read)."

TOOLS = [
    read(slides.decks, "slides.list", "Presentations the user can open, most recently changed first: id (`ref`), "
         "title (`name`), owner, who it is shared with.", args={"q": "Only titles containing this."}),
    read(read_deck, "slides.read", args={"deck": DECK}),
    write(slides.set_text, "slides.set_text",
          "Replace the text of one box of a slide (you need edit access). Returns whether it changed.",
          args={"slide_id": SLIDE, "role": "The box: title, subtitle, body, left or right (what the layout has).",
                "text": "The box's new text; lines starting with `- ` are bullets in body and columns.",
                "deck_id": "Optional: the presentation id, to check the slide belongs to it."},
          types={"role": Box}),
    write(slides.set_notes, "slides.set_notes", "Replace a slide's speaker notes. Returns whether they changed.",
          args={"slide_id": SLIDE, "text": "The notes.", "deck_id": "Optional: the presentation id."}),
    write(add_slide, "slides.add_slide",
          args={"deck": DECK, "layout": "title (title + subtitle), title_body, two_columns (title, left, right) "
                "or section.", "texts": "Box → text, e.g. {\"title\": \"Q2\", \"body\": \"- one\\n- two\"}.",
                "notes": "Speaker notes.", "after": "Put it after this slide id (default: at the end)."}),
    write(slides.create, "slides.create", "Create a presentation in My Drive (or a folder). Returns its id.",
          args={"parent": "A Drive folder id; null for My Drive.", "title": "The title.",
                "slides": "Slides: [{layout, title, subtitle | body | left, right, notes}] (default: one title "
                          "slide)."}),
    write(slides.delete_slide, "slides.delete_slide",
          "Delete a slide (a presentation keeps at least one). Returns the id of the slide now in its place.",
          args={"slide_id": SLIDE, "deck_id": "Optional: the presentation id, to check the slide belongs to it."}),
    write(slides.move_slide, "slides.move_slide",
          "Move a slide to a position in its presentation (1 = first); the others keep their order. "
          "Returns whether it moved.",
          args={"slide_id": SLIDE, "position": "The slide's new position, 1-based.",
                "deck_id": "Optional: the presentation id."}),
]
