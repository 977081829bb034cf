"""Jinja set-up shared by every app: icons, avatars, dates, sizes."""
from __future__ import annotations

import functools
import re

from flask import Flask, current_app, g, has_request_context
from heroicons.jinja import heroicon_mini, heroicon_outline, heroicon_solid
from markupsafe import Markup

from apps.core import people, timefmt
from apps.core.files import human_size
from apps.core.text import html_json
from apps.web import density, regional
from apps.web.pickers import boxes as picker_boxes

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
    """A heroicon (decorative: the control around it carries the name).

    In a full page each icon is a ``<use>`` of a symbol defined once at the end
    of the page (``icon_sprite``), which keeps a 50-row inbox small; in htmx
    fragments the SVG is inlined."""
    used = g.get("_icons") if has_request_context() else None
    if used is None:
        return _inline(name, size, style)
    used.add((style, name))
    attrs = _parts(style, name)[0]
    return Markup(f'<svg {attrs} width="{size}" height="{size}" class="ic" aria-hidden="true" focusable="false">'
                  f'<use href="#i-{style}-{name}"></use></svg>')


@functools.lru_cache(maxsize=512)
def _inline(name: str, size: int, style: str) -> Markup:
    fn = {"outline": heroicon_outline, "solid": heroicon_solid, "mini": heroicon_mini}[style]
    return Markup(fn(name, size=size, aria_hidden="true", **{"class": "ic"}))


@functools.lru_cache(maxsize=512)
def _parts(style: str, name: str) -> tuple[str, str, str]:
    """(presentation attributes of the <svg>, its viewBox, its inner markup)."""
    svg = str(_inline(name, 24, style))
    open_tag, inner = svg.split(">", 1)
    inner = inner.rsplit("</svg>", 1)[0].strip()
    attrs = dict(re.findall(r'([\w-]+)="([^"]*)"', open_tag))
    viewbox = attrs.pop("viewBox", "0 0 24 24")
    keep = " ".join(f'{k}="{v}"' for k, v in attrs.items() if k in ("fill", "stroke", "stroke-width"))
    return keep, viewbox, inner


def icon_sprite() -> Markup:
    """The symbols used on this page (emitted once, at the end of the body)."""
    used = g.get("_icons") or set()
    if has_request_context():
        g._sprite = True
    out = []
    for style, name in sorted(used):
        _, viewbox, inner = _parts(style, name)
        out.append(f'<symbol id="i-{style}-{name}" viewBox="{viewbox}">{inner}</symbol>')
    return Markup('<svg style="display:none" aria-hidden="true">' + "".join(out) + "</svg>")


def _store():
    return g.store


def _person_name(slug: str) -> str:
    p = people.person(g.store, slug)
    return p["name"] if p else slug


def init_app(app: Flask) -> None:
    env = app.jinja_env
    env.autoescape = True
    env.trim_blocks = True
    env.lstrip_blocks = True
    env.globals.update(
        icon=icon,
        icon_sprite=icon_sprite,
        initials=people.initials,
        avatar_color=people.color_for,
        first_name=people.first_name,
        htmx_config=html_json(HTMX_CONFIG),
        picker_boxes=picker_boxes,
    )
    density.init_app(app)
    regional.init_app(app)
    env.filters.update(
        list_date=lambda iso: timefmt.list_date(_store(), iso),
        message_date=lambda iso: timefmt.message_date(_store(), iso),
        short_date=lambda iso: timefmt.short_date(_store(), iso),
        long_datetime=lambda iso: timefmt.long_datetime(_store(), iso),
        iso_local=lambda iso: timefmt.iso_local(_store(), iso),
        human_size=human_size,
        person_name=_person_name,
    )

    @app.context_processor
    def _shell():
        if "store" not in g or "user" not in g:
            return {"apps_list": current_app.extensions.get("deskworld.apps", [])}
        return {
            "me": g.user,
            "world_clock": timefmt.clock(g.store),
            "world_today": g.store.local(g.store.now()).date().isoformat(),
            "world_title": g.store.meta("title"),
            "apps_list": current_app.extensions.get("deskworld.apps", []),
        }
