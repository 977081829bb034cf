"""The density appearance variant (issue 22): the ``deskworld_density`` cookie puts
``data-density="compact"`` on every app's <html>; the default (no cookie, ``comfortable`` or any
other value) is the page as it was, byte for byte, with no attribute at all."""
from __future__ import annotations

import re

import pytest

from apps.web.density import COOKIE
from tests.apps.common.appearance import page_with_cookie

PAGES = ["/mail/inbox", "/chat/", "/calendar/week/2026-04-06", "/drive/my-drive", "/docs/", "/sheets/",
         "/slides/", "/crm/", "/tickets/", "/"]

HTML_TAG = re.compile(r"<html[^>]*>")


def page(client, url, density=None):
    return page_with_cookie(client, url, COOKIE, density)


@pytest.mark.parametrize("url", PAGES)
def test_compact_marks_the_html(client, url):
    html = page(client, url, "compact")
    assert HTML_TAG.search(html).group(0) == '<html lang="en" data-density="compact">'


@pytest.mark.parametrize("url", PAGES)
def test_default_is_byte_identical(client, url):
    """No cookie, ``comfortable`` and values that are not a density all give the same bytes, with no
    attribute on <html>; compact differs from it only in that attribute."""
    plain = page(client, url)
    assert HTML_TAG.search(plain).group(0) == '<html lang="en">'
    assert "data-density" not in plain
    for other in ("comfortable", "Compact", "COMPACT", "dense", "", "compact ", "comfy", '"><script>'):
        assert page(client, url, other) == plain, other
    compact = page(client, url, "compact").replace(' data-density="compact"', "", 1)
    if url.startswith("/calendar/"):
        # the week grid's hours are shorter (the server places events in pixels): only those numbers differ
        assert re.sub(r"\d+(\.\d+)?", "N", compact) == re.sub(r"\d+(\.\d+)?", "N", plain) and compact != plain
        assert "--hour: 40px" in compact and "--hour: 48px" in plain
    else:
        assert compact == plain


def test_htmx_fragments_are_untouched(client, hx):
    """A fragment has no <html>: density lives on the page, so swaps keep it."""
    client.set_cookie(COOKIE, "compact", domain="localhost")
    body = hx.get("/mail/inbox").get_data(as_text=True)
    assert "data-density" not in body


def test_density_outside_a_request_is_the_default(app):
    from apps.web.density import DEFAULT, Density, current, html_attr
    assert current() is DEFAULT is Density.COMFORTABLE
    with app.test_request_context(headers={"Cookie": f"{COOKIE}=compact"}):
        assert current() is Density.COMPACT
        assert str(html_attr()) == ' data-density="compact"'
    with app.test_request_context(headers={"Cookie": f"{COOKIE}=bogus"}):
        assert current() is Density.COMFORTABLE
        assert str(html_attr()) == ""
