"""The search box on every list page: its clear link goes back to the list.
(That every page also renders as an htmx fragment is checked over the crawl in
``tests/apps/test_hostile_ids.py``.)"""
from __future__ import annotations

import re


def test_a_search_clear_link_goes_back_to_the_list(client):
    for home in ("/docs/", "/sheets/", "/slides/", "/drive/search"):
        html = client.get(home + "?q=claim").get_data(as_text=True)
        clear = re.search(r'<a class="icon-btn" href="([^"]*)" aria-label="Clear search"', html)
        assert clear, home
        assert clear.group(1).startswith("/"), (home, clear.group(1))
