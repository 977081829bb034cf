"""Chat's service layer: channels, DMs, messages, threads, reactions, pins, unread, search, Drive files,
with bad input (nothing written) and visibility (a private conversation is NotFound to outsiders).

Each test makes its own conversations through the service as co-workers act, so the world's chat
files can change without breaking these tests."""
from __future__ import annotations

import pytest

from apps.chat import service as S
from apps.core.errors import Forbidden, Invalid, NotFound
from apps.core.store.db import Caller
from apps.drive import service as drive

PRIYA = Caller("priya.raman", "priya.raman")
ELEANOR = Caller("eleanor.vance", "eleanor.vance")


def writes(store) -> int:
    return store.scalar("SELECT count(*) FROM _writes")


@pytest.fixture
def room(store):
    """#qa-room: Priya's public channel with Alex and Eleanor, and one message from Priya."""
    cid = S.create_channel(store, PRIYA, "qa-room", purpose="Testing", members=["alex.chen", "eleanor.vance"])
    S.post_message(store, PRIYA, cid, "Morning all.")
    return cid


@pytest.fixture
def secret(store):
    """#qa-secret: a private channel of Priya and Eleanor (Alex is not in it)."""
    cid = S.create_channel(store, PRIYA, "qa-secret", private=True, members=["eleanor.vance"])
    mid = S.post_message(store, PRIYA, cid, "Partners only: the settlement number is 4.2m.")
    return cid, mid


# ---------------------------------------------------------------- channels
def test_create_channel_and_find_it_by_name(store, alex):
    cid = S.create_channel(store, alex, "hearing-prep", purpose="Prep for the 22nd", members=["priya.raman"])
    conv = S.conversation_by_name(store, "alex.chen", "#hearing-prep")
    assert conv["id"] == cid and conv["kind"] == "channel" and not conv["private"]
    assert conv["members"] == ["alex.chen", "priya.raman"] and conv["purpose"] == "Prep for the 22nd"
    assert conv["created_by"] == "alex.chen" and conv["created_at"] == store.now_iso()
    assert store.scalar("SELECT actor FROM _writes WHERE tbl='chat_conversations' AND pk=?", (cid,)) == "agent"
    assert S.conversation_by_name(store, "alex.chen", "no-such-channel") is None


@pytest.mark.parametrize("name, message", [
    ("", "fill in a name"),
    ("Hearing Prep", "can't contain spaces. Try “hearing-prep”"),
    ("HearingPrep", "must be lowercase"),
    ("hearing.prep", "only contain lowercase letters"),
    ("-prep", "must start with a letter or number"),
    ("x" * 81, "longer than 80"),
])
def test_channel_names_follow_slack_rules(store, alex, name, message):
    before = writes(store)
    with pytest.raises(Invalid) as e:
        S.create_channel(store, alex, name)
    assert message in e.value.message and e.value.field == "name"
    assert writes(store) == before


def test_channel_names_are_unique(store, alex, room):
    before = writes(store)
    with pytest.raises(Invalid, match="already taken"):
        S.create_channel(store, alex, "qa-room", private=True)
    assert writes(store) == before


def test_private_channels_are_invisible_to_non_members(store, alex, secret):
    cid, mid = secret
    assert S.conversation_by_name(store, "alex.chen", "qa-secret") is None
    assert S.conversation_by_name(store, "eleanor.vance", "qa-secret")["private"] is True
    for call in (lambda: S.conversation(store, "alex.chen", cid), lambda: S.messages(store, "alex.chen", cid),
                 lambda: S.get_message(store, "alex.chen", mid), lambda: S.thread(store, "alex.chen", mid),
                 lambda: S.pinned(store, "alex.chen", cid)):
        with pytest.raises(NotFound):
            call()
    before = writes(store)
    for call in (lambda: S.post_message(store, alex, cid, "hello?"), lambda: S.react(store, alex, mid, "👍"),
                 lambda: S.join(store, alex, cid), lambda: S.mark_read(store, alex, cid),
                 lambda: S.invite(store, alex, cid, ["alex.chen"])):
        with pytest.raises(NotFound):
            call()
    assert writes(store) == before
    assert cid not in [c["id"] for c in S.browse_channels(store, "alex.chen")]
    assert cid in [c["id"] for c in S.browse_channels(store, "eleanor.vance")]
    assert S.search(store, "alex.chen", "settlement number") == []
    assert [m["id"] for m in S.search(store, "eleanor.vance", "settlement number")] == [mid]


def test_join_leave_invite_and_topic(store, alex):
    cid = S.create_channel(store, PRIYA, "qa-open")
    conv = S.conversation(store, "alex.chen", cid)            # a public channel can be previewed
    assert conv["is_member"] is False
    with pytest.raises(Forbidden):
        S.post_message(store, alex, cid, "hi")
    with pytest.raises(Forbidden):
        S.set_topic(store, alex, cid, "mine now")
    assert S.join(store, alex, cid) is True and S.join(store, alex, cid) is False
    S.set_topic(store, alex, cid, "  Hearing   Apr 22  ")
    assert S.conversation(store, "alex.chen", cid)["topic"] == "Hearing Apr 22"
    with pytest.raises(Invalid, match="at most 250"):
        S.set_topic(store, alex, cid, "x" * 251)
    assert S.invite(store, alex, cid, ["tom.becker@meridianshaw.com", "@sofia.marchetti"]) == ["tom.becker", "sofia.marchetti"]
    assert S.invite(store, alex, cid, ["tom.becker"]) == []
    before = writes(store)
    with pytest.raises(Invalid, match="isn't in your organisation's directory"):
        S.invite(store, alex, cid, ["sofia.marchetti", "nobody.here"])
    with pytest.raises(Invalid, match="at least one"):
        S.invite(store, alex, cid, [" "])
    assert writes(store) == before
    S.leave(store, alex, cid)
    assert "alex.chen" not in S.conversation(store, "priya.raman", cid)["members"]
    with pytest.raises(Invalid, match="not a member"):
        S.leave(store, alex, cid)


# ---------------------------------------------------------------- DMs
def test_open_dm_reuses_the_conversation_and_makes_groups(store, alex):
    a = S.open_dm(store, alex, ["rachel.kim"])
    assert S.open_dm(store, alex, ["rachel.kim@meridianshaw.com"]) == a
    assert S.open_dm(store, Caller("rachel.kim", "rachel.kim"), ["alex.chen"]) == a
    conv = S.conversation(store, "alex.chen", a)
    assert conv["kind"] == "dm" and conv["title"] == "Rachel Kim" and conv["private"]
    g = S.open_dm(store, alex, ["rachel.kim", "nina.petrov"])
    assert g != a and S.conversation(store, "alex.chen", g)["kind"] == "group"
    assert S.conversation(store, "nina.petrov", g)["title"] == "Alex Chen, Rachel Kim"
    me = S.open_dm(store, alex, [])
    assert S.conversation(store, "alex.chen", me)["title"] == "Alex Chen (you)"
    with pytest.raises(NotFound):
        S.conversation(store, "priya.raman", a)
    before = writes(store)
    with pytest.raises(Invalid, match="directory"):
        S.open_dm(store, alex, ["no.one"])
    with pytest.raises(Invalid, match="at most 9"):
        S.open_dm(store, alex, [p["slug"] for p in store.all("SELECT slug FROM people LIMIT 12")])
    assert writes(store) == before
    with pytest.raises(Invalid, match="can't leave a direct message"):
        S.leave(store, alex, a)


# ---------------------------------------------------------------- messages
def test_post_message_parses_mentions_and_marks_unread_for_others(store, alex, room):
    mid = S.post_message(store, PRIYA, room, "@alex.chen can you take the shortfall? cc @eleanor.vance "
                                              "(not alex@meridianshaw.com, not @nobody.here)")
    m = S.get_message(store, "alex.chen", mid)
    assert m["mentions"] == ["alex.chen", "eleanor.vance"] and m["author"] == "priya.raman"
    assert m["conversation"] == room and m["thread"] is None and m["files"] == [] and m["at"] == store.now_iso()
    side = {c["id"]: c for c in S.list_conversations(store, "alex.chen")["channels"]}
    assert side[room]["unread"] == 2 and side[room]["mentions"] == 1 and side[room]["badge"] == 1
    assert {c["id"]: c for c in S.list_conversations(store, "priya.raman")["channels"]}[room]["unread"] == 0
    seq = store.scalar("SELECT max(seq) FROM _writes")
    before = S.mark_read(store, alex, room)
    assert before == 0
    assert store.all("SELECT tbl, fields FROM _writes WHERE seq>?", (seq,))[0]["fields"] == '["last_read"]'
    assert {c["id"]: c for c in S.list_conversations(store, "alex.chen")["channels"]}[room]["unread"] == 0
    # reading again writes nothing
    seq = store.scalar("SELECT max(seq) FROM _writes")
    S.mark_read(store, alex, room)
    assert store.scalar("SELECT max(seq) FROM _writes") == seq


def test_post_message_bad_input_writes_nothing(store, alex, room):
    before = writes(store)
    for text in ("", "   \n  "):
        with pytest.raises(Invalid, match="Write a message"):
            S.post_message(store, alex, room, text)
    with pytest.raises(Invalid, match="at most"):
        S.post_message(store, alex, room, "x" * (S.MAX_TEXT + 1))
    with pytest.raises(NotFound):
        S.post_message(store, alex, 999_999, "hello")
    with pytest.raises(NotFound):
        S.post_message(store, alex, room, "hello", thread=999_999)
    hidden = store.scalar("SELECT id FROM drive_items WHERE kind<>'folder' ORDER BY id")
    hidden = next(i["id"] for i in store.select("drive_items", "kind<>'folder'")
                  if drive.role_of(store, "alex.chen", i) is None)
    with pytest.raises(Invalid, match="don't have access"):
        S.post_message(store, alex, room, "see this", drive_items=[hidden])
    assert writes(store) == before


def test_threads_replies_counts_and_also_send(store, alex, room):
    parent = S.messages(store, "alex.chen", room)[-1]["id"]
    r1 = S.post_message(store, alex, room, "On it.", thread=parent)
    r2 = S.post_message(store, ELEANOR, room, "Thanks both.", thread=r1)       # a reply's thread is the parent's
    r3 = S.post_message(store, alex, room, "Draft is in 01 Pleadings.", thread=parent, also_channel=True)
    p = S.get_message(store, "alex.chen", parent)
    assert p["reply_count"] == 3 and store.get("chat_messages", parent)["last_reply_at"] == store.now_iso()
    t = S.thread(store, "alex.chen", r2)
    assert t["parent"]["id"] == parent and [r["id"] for r in t["replies"]] == [r1, r2, r3]
    assert t["parent"]["repliers"] == ["alex.chen", "eleanor.vance"]
    timeline = [m["id"] for m in S.messages(store, "alex.chen", room)]
    assert r3 in timeline and r1 not in timeline and r2 not in timeline
    assert S.get_message(store, "alex.chen", r3)["also_channel"] is True
    assert store.table("chat_messages").by_name["reply_count"].cls == "derived"


def test_react_toggles(store, alex, room):
    mid = S.messages(store, "alex.chen", room)[-1]["id"]
    assert S.react(store, alex, mid, "👍") is True
    assert S.react(store, ELEANOR, mid, "👍") is True
    assert S.react(store, alex, mid, "🎉") is True
    assert S.get_message(store, "alex.chen", mid)["reactions"] == {"👍": ["alex.chen", "eleanor.vance"], "🎉": ["alex.chen"]}
    shown = S.message(store, "alex.chen", mid)["reactions"]
    assert [(r["emoji"], r["count"], r["mine"]) for r in shown] == [("👍", 2, True), ("🎉", 1, True)]
    assert S.react(store, alex, mid, "👍") is False
    assert S.get_message(store, "alex.chen", mid)["reactions"] == {"👍": ["eleanor.vance"], "🎉": ["alex.chen"]}
    before = writes(store)
    for bad in ("", "thumbs up"):
        with pytest.raises(Invalid):
            S.react(store, alex, mid, bad)
    with pytest.raises(NotFound):
        S.react(store, alex, 999_999, "👍")
    assert writes(store) == before


def test_edit_own_message_only(store, alex, room):
    mine = S.post_message(store, alex, room, "Filing Tuesday.")
    theirs = S.messages(store, "alex.chen", room)[0]["id"]
    assert S.edit_message(store, alex, mine, "Filing Wednesday, @priya.raman.") is True
    m = S.get_message(store, "alex.chen", mine)
    assert m["text"] == "Filing Wednesday, @priya.raman." and m["edited"] and m["mentions"] == ["priya.raman"]
    seq = store.scalar("SELECT max(seq) FROM _writes")
    assert S.edit_message(store, alex, mine, "Filing Wednesday, @priya.raman.") is False   # unchanged: no write
    assert store.scalar("SELECT max(seq) FROM _writes") == seq
    before = writes(store)
    with pytest.raises(Forbidden, match="your own"):
        S.edit_message(store, alex, theirs, "Hijacked")
    with pytest.raises(Invalid, match="can't be empty"):
        S.edit_message(store, alex, mine, "  ")
    assert writes(store) == before
    assert S.get_message(store, "alex.chen", theirs)["text"] == "Morning all."


def test_delete_own_message_tombstone_when_it_has_replies(store, alex, room):
    lone = S.post_message(store, alex, room, "typo")
    with pytest.raises(Forbidden):
        S.delete_message(store, PRIYA, lone)
    S.react(store, PRIYA, lone, "👀")
    assert S.delete_message(store, alex, lone) == "removed"
    assert store.get("chat_messages", lone) is None
    assert store.scalar("SELECT count(*) FROM chat_reactions WHERE message=?", (lone,)) == 0
    parent = S.post_message(store, alex, room, "Who has the binder?")
    reply = S.post_message(store, PRIYA, room, "Tom does.", thread=parent)
    assert S.delete_message(store, alex, parent) == "tombstone"
    p = S.get_message(store, "alex.chen", parent)
    assert p["deleted"] and p["text"] == "" and p["reply_count"] == 1
    with pytest.raises(NotFound):
        S.edit_message(store, alex, parent, "back")
    assert S.delete_message(store, PRIYA, reply) == "removed"
    assert store.get("chat_messages", parent) is None           # an empty deleted thread goes away


def test_pins(store, alex, room):
    mid = S.messages(store, "alex.chen", room)[0]["id"]
    S.pin(store, alex, mid, True)
    assert [m["id"] for m in S.pinned(store, "alex.chen", room)] == [mid]
    assert S.conversation(store, "alex.chen", room)["pinned_count"] == 1
    S.pin(store, alex, mid, False)
    assert S.pinned(store, "alex.chen", room) == []


def test_sharing_a_drive_file_gives_members_view_access(store, alex, room):
    item = store.decode("drive_items", store.one(
        "SELECT * FROM drive_items WHERE owner='alex.chen' AND kind<>'folder' ORDER BY id"))
    S.invite(store, alex, room, ["diana.morales"])
    assert drive.role_of(store, "diana.morales", item) is None
    mid = S.post_message(store, alex, room, "", drive_items=[item["id"]])
    assert S.get_message(store, "alex.chen", mid)["files"] == [item["id"]]
    assert drive.role_of(store, "diana.morales", item) == "viewer"
    shown = S.message(store, "diana.morales", mid)["files"][0]
    assert shown["item"]["name"] == item["name"]
    assert [f["id"] for f in S.drive_choices(store, "alex.chen", item["name"].split()[0])] != []


# ---------------------------------------------------------------- search
def test_search_words_phrases_and_operators(store, alex, room):
    a = S.post_message(store, PRIYA, room, "The limitation fund is short by the 2025 adjustment.")
    b = S.post_message(store, ELEANOR, room, "Fund hearing moved; see @priya.raman's note.")
    ids = lambda q: [m["id"] for m in S.search(store, "alex.chen", q)]      # noqa: E731
    assert ids("limitation fund in:#qa-room") == [a]
    assert set(ids("fund in:qa-room")) == {a, b}
    assert ids('"fund hearing" in:#qa-room') == [b]
    assert ids("fund from:@eleanor.vance in:#qa-room") == [b]
    assert ids("fund from:eleanor in:#qa-room") == [b]
    assert ids("in:#qa-room Priya Raman") == [b]                 # a name finds the @mention
    today = store.local(store.now()).date().isoformat()
    assert set(ids(f"fund in:#qa-room on:{today}")) == {a, b}
    assert ids(f"fund in:#qa-room before:{today}") == []
    assert ids(f"fund in:#qa-room after:{today}") == []
    res = S.search(store, "alex.chen", "adjustment in:#qa-room")[0]
    assert res["conv"]["name"] == "qa-room" and res["author_name"] == "Priya Raman"
    for bad in ("from:@no.body", "in:#nowhere", "before:yesterday", "in:@rachel.kim"):
        with pytest.raises(S.SearchError):
            S.search(store, "alex.chen", bad)
    assert S.search(store, "alex.chen", "   ") == []


def test_schema_classes(store):
    t = {name: store.table(name) for name in ("chat_conversations", "chat_members", "chat_messages",
                                              "chat_reactions", "chat_files")}
    assert t["chat_members"].by_name["last_read"].cls == "ephemeral"
    for f in ("text", "mentions", "pinned", "deleted", "edited_at", "thread", "author", "at"):
        assert t["chat_messages"].by_name[f].cls == "content"
    assert t["chat_messages"].by_name["last_reply_at"].cls == "derived"
    assert t["chat_reactions"].by_name["emoji"].cls == "content"
    assert t["chat_files"].by_name["item"].ref == "drive_items"
    for f in ("kind", "name", "topic", "purpose", "private", "created_by", "created_at", "archived"):
        assert t["chat_conversations"].by_name[f].cls == "content"
