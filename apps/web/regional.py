"""Regional formats, one of the appearance variants (issue 22; the formats are ``apps.core.locale``).

The contract: the request's cookie ``deskworld_locale`` (``en-US`` | ``en-GB`` | ``de-DE``) is the
locale every format of the request follows (``apps.core.locale.current``). A locale other than the
default puts ``data-locale="…"`` on the page's ``<html>`` (``base.html``), which the in-page date
and time pickers read; ``en-US``, no cookie or an unknown value is the default, and the page carries
no attribute (byte-identical to a page without locales). The harness sets the cookie in the browser
context at reset (and the context's own locale, so the page's ``navigator.language`` agrees)."""
from __future__ import annotations

from flask import Flask, has_request_context, request
from markupsafe import Markup

from apps.core import locale

COOKIE = "deskworld_locale"


def requested() -> str:
    """The request's locale: its cookie's value when it names one, else the default."""
    if not has_request_context():
        return locale.DEFAULT
    return locale.valid(request.cookies.get(COOKIE)) or locale.DEFAULT


def html_attr() -> Markup:
    """`` data-locale="de-DE"`` or nothing for the default."""
    code = locale.current()
    return Markup("" if code == locale.DEFAULT else f' data-locale="{code}"')


def init_app(app: Flask) -> None:
    @app.before_request
    def _locale():
        locale.set_current(requested())

    @app.teardown_request
    def _locale_done(exc=None):
        locale.set_current(None)        # a test client's request leaves its thread in the default

    app.jinja_env.globals["locale_attr"] = html_attr
    app.jinja_env.filters.update(day_month=locale.day_month, weekday_day=locale.weekday_day)
