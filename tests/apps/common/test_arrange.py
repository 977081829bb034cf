"""The arrangement appearance variant (issue 22, ``apps.web.arrange``): the ``deskworld_shuffle`` cookie's
seed arranges the lists whose order the product leaves to the person — Slack's sidebar channels (a
permutation) and direct messages (by recent activity or alphabetically), Drive's remembered sort, the
CRM's navigation items — the same way for the same seed; without it every page is as it was."""
from __future__ import annotations

import re

import pytest

from apps.web.arrange import COOKIE, choose, permute
from tests.apps.common.appearance import page_with_cookie


def page(client, url, seed=None):
    return page_with_cookie(client, url, COOKIE, seed)


def sidebar(html: str) -> tuple[list[str], list[str]]:
    """The chat sidebar's channels and direct messages, in order (their conversation urls)."""
    nav = html[html.index('id="chat-nav"'):]
    nav = nav[:nav.index("</nav>")] if "</nav>" in nav else nav
    channels = re.findall(r'class="chat-item(?: unread)?" href="(/chat/c/\d+)"', nav)
    dms = re.findall(r'class="chat-item dm(?: unread)?" href="(/chat/c/\d+)"', nav)
    return channels, dms


def crm_tabs(html: str) -> list[str]:
    return re.findall(r'<a class="crm-tab" href="([^"]+)"', html)


def test_without_a_seed_pages_are_byte_for_byte_as_they_were(client):
    for url in ("/chat/", "/drive/my-drive", "/crm/"):
        assert page(client, url) == page(client, url, "not-a-seed") == page(client, url, 0)


def test_the_chat_sidebar_is_the_persons_own_order(client):
    plain = sidebar(page(client, "/chat/"))
    orders = {seed: sidebar(page(client, "/chat/", seed)) for seed in range(1, 9)}
    for channels, dms in orders.values():
        assert sorted(channels) == sorted(plain[0]) and sorted(dms) == sorted(plain[1])   # the same items
    assert any(ch != plain[0] for ch, _ in orders.values())                   # the channels move
    assert any(d != plain[1] for _, d in orders.values())                     # some sort DMs by name
    assert sidebar(page(client, "/chat/", 3)) == orders[3]                    # the same seed, the same order


def test_chat_still_opens_where_it_always_does(client):
    """The landing channel is the app's own first, whatever the sidebar's order (opening one marks it read)."""
    page(client, "/chat/")
    where = client.get("/chat/").headers["Location"]
    for seed in (1, 2, 5):
        client.set_cookie(COOKIE, str(seed), domain="localhost")
        assert client.get("/chat/").headers["Location"] == where


def test_drive_remembers_a_sort_setting(client):
    html = page(client, "/drive/my-drive")
    shown = {seed: page(client, "/drive/my-drive", seed) for seed in range(1, 12)}
    assert any(h != html for h in shown.values())
    assert page(client, "/drive/my-drive", 4) == shown[4]                      # remembered: the same each time
    # asking for a sort still wins over the remembered one
    assert page(client, "/drive/my-drive?sort=name&dir=asc", 4) == page(client, "/drive/my-drive?sort=name&dir=asc")


def test_the_crm_navigation_is_the_persons_own_order(client):
    plain = crm_tabs(page(client, "/crm/"))
    assert len(plain) == 8
    arranged = [crm_tabs(page(client, "/crm/", s)) for s in range(1, 6)]
    assert all(sorted(a) == sorted(plain) for a in arranged) and any(a != plain for a in arranged)


def test_permute_and_choose_are_seeded_per_list(monkeypatch):
    import apps.web.arrange as A
    monkeypatch.setattr(A, "seed", lambda: None)
    assert permute("x", [1, 2, 3]) == [1, 2, 3] and choose("x", ["a", "b"], "d") == "d"
    monkeypatch.setattr(A, "seed", lambda: 7)
    one = permute("x", list(range(20)))
    assert one == permute("x", list(range(20))) and sorted(one) == list(range(20)) and one != list(range(20))
    assert permute("y", list(range(20))) != one                   # each list its own stream
    assert choose("x", ["a", "b", "c"], "d") in "abc"

