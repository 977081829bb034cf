"""Display density, one of the appearance variants (issue 22): how tightly each app lays out its rows,
chips and toolbars, as the real products' own density settings do (Gmail's Compact, Slack's compact
message display, Salesforce's Compact, …). Density is how things look, never what they are: it
changes no route, service, store or export.

The contract: the request's cookie ``deskworld_density`` (``comfortable`` | ``compact``). ``compact``
puts ``data-density="compact"`` on the page's ``<html>`` (``base.html``) and each app's stylesheet
styles ``html[data-density="compact"] …``; ``comfortable``, no cookie or any other value is the
default look, and the page carries no attribute at all (byte-identical to a page without density).
The harness sets the cookie in the browser context at reset."""
from __future__ import annotations

from enum import Enum

from flask import Flask, has_request_context, request
from markupsafe import Markup

COOKIE = "deskworld_density"


class Density(str, Enum):
    COMFORTABLE = "comfortable"
    COMPACT = "compact"


DEFAULT = Density.COMFORTABLE


def current() -> Density:
    """The request's density: its cookie's value when it names one, else the default."""
    if not has_request_context():
        return DEFAULT
    value = request.cookies.get(COOKIE, "")
    try:
        return Density(value)
    except ValueError:
        return DEFAULT


def html_attr() -> Markup:
    """The ``<html>`` attribute for the request's density: `` data-density="compact"`` or nothing
    (the default page stays byte for byte what it was)."""
    d = current()
    return Markup("" if d is DEFAULT else f' data-density="{d.value}"')


def init_app(app: Flask) -> None:
    app.jinja_env.globals["density_attr"] = html_attr
