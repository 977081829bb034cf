"""A deck's theme and a slide's background colour (``slides_looks``): one row per deck for its theme
(no row: Simple Light), one per slide that has a background of its own. Writes are minimal: setting
what is already there writes nothing."""
from __future__ import annotations

from apps.core.errors import Invalid
from apps.core.store.db import Caller, Store
from apps.slides import service, shapes


def set_theme(store: Store, caller: Caller, deck_id: int, theme: str) -> bool:
    """Apply a theme to the whole presentation (``shapes.THEMES``). Returns whether it changed."""
    d = service._editable(store, caller, deck_id)
    if theme not in shapes.THEMES:
        names = ", ".join(f"{k} ({v['name']})" for k, v in shapes.THEMES.items())
        raise Invalid(f"Unknown theme {theme!r}: choose one of {names}.", "theme")
    rows = store.select("slides_looks", "deck=? AND slide IS NULL", (deck_id,))
    if not rows and theme == shapes.DEFAULT_THEME:
        return False
    with store.transaction():
        if rows:
            changed = bool(store.update("slides_looks", rows[0]["id"], caller.actor, theme=theme))
        else:
            store.insert("slides_looks", caller.actor, deck=deck_id, theme=theme)
            changed = True
        if changed:
            service.DECKS.bump(store, caller, d)
    return changed


def set_background(store: Store, caller: Caller, slide_id: int, color: str, deck_id: int | None = None) -> bool:
    """Give a slide its own background colour (#rrggbb; "" goes back to the theme's). Returns whether it changed."""
    d, row = service._editable_slide(store, caller, slide_id, deck_id)
    value = shapes.color(color, "color")
    rows = store.select("slides_looks", "slide=?", (slide_id,))
    if not rows and not value:
        return False
    with store.transaction():
        if rows:
            changed = bool(store.update("slides_looks", rows[0]["id"], caller.actor, background=value))
        else:
            store.insert("slides_looks", caller.actor, deck=row["deck"], slide=slide_id, background=value)
            changed = True
        if changed:
            service.DECKS.bump(store, caller, d)
    return changed
