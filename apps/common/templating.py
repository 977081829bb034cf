"""Jinja set-up shared by every app: icons, avatars, dates, sizes."""
from __future__ import annotations

import functools
import json

from flask import Flask, current_app, g, url_for
from heroicons.jinja import heroicon_mini, heroicon_outline, heroicon_solid
from markupsafe import Markup

from apps.common import people, timefmt
from apps.common.files import human_size

HTMX_CONFIG = {
    "responseHandling": [
        {"code": "204", "swap": False},
        {"code": "[23]..", "swap": True},
        {"code": "[45]..", "swap": True, "error": True},
    ],
    "historyCacheSize": 0,
    "defaultSettleDelay": 0,
    "defaultSwapDelay": 0,
    "scrollIntoViewOnBoost": False,
    "allowEval": False,
    "includeIndicatorStyles": False,
}


def icon(name: str, size: int = 20, style: str = "outline") -> Markup:
    """An inline heroicon SVG (decorative: the control around it carries the name)."""
    return _icon(name, size, style)


@functools.lru_cache(maxsize=512)
def _icon(name: str, size: int, style: str) -> Markup:
    fn = {"outline": heroicon_outline, "solid": heroicon_solid, "mini": heroicon_mini}[style]
    return Markup(fn(name, size=size, aria_hidden="true", **{"class": "ic"}))


def _store():
    return g.store


def init_app(app: Flask) -> None:
    env = app.jinja_env
    env.autoescape = True
    env.trim_blocks = True
    env.lstrip_blocks = True
    env.globals.update(
        icon=icon,
        initials=people.initials,
        avatar_color=people.color_for,
        first_name=people.first_name,
        htmx_config=json.dumps(HTMX_CONFIG),
    )
    env.filters.update(
        list_date=lambda iso: timefmt.list_date(_store(), iso),
        message_date=lambda iso: timefmt.message_date(_store(), iso),
        short_date=lambda iso: timefmt.short_date(_store(), iso),
        long_datetime=lambda iso: timefmt.long_datetime(_store(), iso),
        iso_local=lambda iso: timefmt.iso_local(_store(), iso),
        human_size=human_size,
    )

    @app.context_processor
    def _shell():
        if "store" not in g or "user" not in g:
            return {"apps_list": current_app.extensions.get("deskworld.apps", [])}
        return {
            "me": g.user,
            "world_clock": timefmt.clock(g.store),
            "world_title": g.store.meta("title"),
            "apps_list": current_app.extensions.get("deskworld.apps", []),
        }
