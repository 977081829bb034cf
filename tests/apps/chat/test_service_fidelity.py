"""The issue-21 Chat service: rename and archive, save for later, mark unread, Threads and Activity,
pages of the timeline, uploads, the file and people searches, emoji short names."""
from __future__ import annotations

import pytest

from apps.chat import emoji
from apps.chat import service as S
from apps.core.errors import Invalid, NotFound
from apps.core.store.db import Caller

PRIYA = Caller("priya.raman", "priya.raman")


@pytest.fixture
def room(store):
    return S.create_channel(store, PRIYA, "qa-room", members=["alex.chen"])


def test_rename_and_archive(store, alex, room):
    assert S.rename_channel(store, alex, room, "#qa-renamed")
    assert not S.rename_channel(store, alex, room, "qa-renamed")
    with pytest.raises(Invalid, match="already taken"):
        S.rename_channel(store, alex, room, "general")
    assert S.archive_channel(store, alex, room)
    assert room not in [c["id"] for c in S.list_conversations(store, "alex.chen")["channels"]]
    for write in (lambda: S.post_message(store, alex, room, "x"), lambda: S.rename_channel(store, alex, room, "y"),
                  lambda: S.set_topic(store, alex, room, "t"), lambda: S.invite(store, alex, room, ["tom.becker"])):
        with pytest.raises(Invalid, match="archived"):
            write()
    assert S.archive_channel(store, alex, room, False)
    with pytest.raises(Invalid):
        S.archive_channel(store, alex, S.open_dm(store, alex, ["priya.raman"]))


def test_save_for_later_and_mark_unread(store, alex, room):
    a = S.post_message(store, PRIYA, room, "one")
    b = S.post_message(store, PRIYA, room, "two @alex.chen")
    assert S.save_for_later(store, alex, a) and not S.save_for_later(store, alex, a)
    assert [m["id"] for m in S.saved_items(store, "alex.chen")] == [a]
    assert [m["id"] for m in S.search(store, "alex.chen", "is:saved")] == [a]
    S.mark_read(store, alex, room)
    assert S.mark_unread(store, alex, b) == a
    unread = {c["id"]: c["unread"] for c in S.list_conversations(store, "alex.chen")["channels"]}
    assert unread[room] == 1
    reply = S.post_message(store, alex, room, "r", thread=a)
    with pytest.raises(Invalid):
        S.mark_unread(store, alex, reply)
    with pytest.raises(NotFound):
        S.save_for_later(store, alex, 999999)


def test_threads_activity_pages_and_uploads(store, alex, room):
    parent = S.post_message(store, alex, room, "mine")
    S.post_message(store, PRIYA, room, "reply", thread=parent)
    S.react(store, PRIYA, parent, ":tada:")
    S.post_message(store, PRIYA, room, "hey @alex.chen")
    assert [t["parent"]["id"] for t in S.threads(store, "alex.chen")][:1] == [parent]
    kinds = [(a["kind"], a.get("reaction", {}).get("emoji")) for a in S.activity(store, "alex.chen")]
    assert ("reaction", "🎉") in kinds and ("mention", None) in kinds
    ids = [S.post_message(store, PRIYA, room, f"m{i}") for i in range(5)]
    page = S.messages(store, "alex.chen", room, limit=3)
    assert [m["id"] for m in page] == ids[-3:]
    older = S.messages(store, "alex.chen", room, before=ids[-3], limit=3)
    assert [m["id"] for m in older][-2:] == ids[:2] and len(older) == 3
    assert S.has_older(store, room, ids[0])
    mid = S.post_message(store, alex, room, "", uploads=[("notes.txt", b"hello", None)])
    m = S.get_message(store, "alex.chen", mid)
    assert m["uploads"] == ["notes.txt"] and m["files"] == []
    assert [f["name"] for f in S.search_files(store, "alex.chen", "notes")] == ["notes.txt"]
    assert [f["name"] for f in S.search_files(store, "alex.chen", "from:@alex.chen in:#qa-room")] == ["notes.txt"]
    assert S.search_files(store, "alex.chen", "notes in:#general") == []      # operators narrow the messages
    assert S.search_files(store, "alex.chen", "minutes") == []
    assert [p["slug"] for p in S.search_people(store, "priya raman")] == ["priya.raman"]
    with pytest.raises(Invalid, match="needs a name"):
        S.post_message(store, alex, room, "x", uploads=[("  ", b"x", None)])


def test_emoji_short_names():
    assert emoji.as_emoji(":thumbsup:") == "👍" and emoji.as_emoji("+1") == "👍" and emoji.as_emoji("🦀") == "🦀"
    names = [e[1] for e in emoji.EMOJI]
    assert len(names) == len(set(names)) and {g["key"] for g in emoji.grouped()} == {k for k, _ in emoji.CATEGORIES}


def test_latest_page_reaches_back_to_a_linked_message(store, alex, room):
    ids = [S.post_message(store, PRIYA, room, f"m{i}") for i in range(S.PAGE * 2 + 5)]
    msgs, more = S.latest_page(store, "alex.chen", room)
    assert [m["id"] for m in msgs] == ids[-S.PAGE:] and more
    msgs, more = S.latest_page(store, "alex.chen", room, back_to=(None, ids[10]))
    assert ids[10] in [m["id"] for m in msgs] and len(msgs) == S.PAGE * 2 and more      # whole pages
    msgs, more = S.latest_page(store, "alex.chen", room, back_to=(ids[2],))
    assert len(msgs) == S.PAGE * 2 + 5 and not more
    msgs, _ = S.latest_page(store, "alex.chen", room, at_least=S.PAGE + 3)
    assert len(msgs) == S.PAGE + 3                      # what the page already shows stays
