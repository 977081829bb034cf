"""Every page a link leads to also answers htmx: the block it renders for an htmx
request must render on its own (a macro imported outside the block is undefined there)."""
from __future__ import annotations

import re
from urllib.parse import urlsplit

APP_HOMES = ("/mail/", "/chat/", "/calendar/", "/drive/", "/docs/", "/sheets/", "/slides/")
HREF = re.compile(r'(?:href|hx-get)="(/[^"#{]*)"')


def _links(client, start: str) -> list[str]:
    html = client.get(start, follow_redirects=True).get_data(as_text=True)
    out = []
    for href in HREF.findall(html):
        path = urlsplit(href.replace("&amp;", "&"))
        if path.path.startswith(("/static/", "/_vendor/", "/_fonts/")) or "/static/" in path.path \
                or "/download" in path.path or path.path.endswith((".js", ".css", ".png", ".ico")):
            continue
        out.append(href.replace("&amp;", "&"))
    return out


def test_every_linked_page_renders_as_an_htmx_fragment(client, hx):
    first = {u for home in APP_HOMES for u in [home, *_links(client, home)]}
    urls = sorted(first | {u for page in sorted(first)[::3] for u in _links(client, page)})
    assert len(urls) > 150, len(urls)           # the crawl reaches the apps' pages, not just their homes
    broken = []
    for url in urls:
        try:
            resp = hx.get(url)
        except Exception as e:            # the test app propagates a template error
            broken.append(f"{url}: {type(e).__name__}: {e}")
            continue
        if resp.status_code >= 500:
            broken.append(f"{url}: {resp.status_code}")
    assert not broken, broken


def test_a_search_clear_link_goes_back_to_the_list(client):
    for home in ("/docs/", "/sheets/", "/slides/", "/drive/search"):
        html = client.get(home + "?q=claim").get_data(as_text=True)
        clear = re.search(r'<a class="icon-btn" href="([^"]*)" aria-label="Clear search"', html)
        assert clear, home
        assert clear.group(1).startswith("/"), (home, clear.group(1))
