"""Seeding Chat from world files (a temporary chat/ folder seeded into the compiled world's store):
what a valid file becomes, and the WorldError a bad one gets (naming file and field)."""
from __future__ import annotations

import textwrap

import pytest

from apps.chat import seed as chat_seed
from apps.chat import service as S
from apps.core.world import World, WorldError

SURVEY = ("drive/sofia.marchetti/Matters/Corvane – Aurelia Dawn (M-2026-0147)/02 Vessel & Casualty/"
          "Final Survey Report – Calder Marine Surveys (2026-03-06).pdf")

ROOM = f"""
kind: channel
name: qa-seed-room
topic: "Hearing Apr 22"
purpose: "Seed test"
private: false
created_by: eleanor.vance
created: "2026-03-01T08:00:00"
members: [eleanor.vance, priya.raman, alex.chen]
last_read: "2026-04-02T09:15:00"
messages:
  - from: priya.raman
    at: "2026-04-02T09:14:00"
    text: "Survey is final, @alex.chen. Mail alex@meridianshaw.com if not."
    reactions: {{"👍": [alex.chen, eleanor.vance]}}
    pinned: true
    files: ["{SURVEY}"]
    replies:
      - {{from: alex.chen, at: "2026-04-02T09:20:00", text: "Got it."}}
      - {{from: eleanor.vance, at: "2026-04-02T09:31:00", text: "Thanks.", also_send_to_channel: true}}
  - from: eleanor.vance
    at: 2026-04-03T10:00:00
    text: "Call at 11."
    edited: true
"""

DM = """
kind: dm
members: [alex.chen, tom.becker]
messages:
  - {from: tom.becker, at: "2026-04-03T16:00:00", text: "Binder's done."}
"""


def world_with(base: World, tmp_path, files: dict[str, str]) -> World:
    (tmp_path / "chat").mkdir()
    for name, text in files.items():
        (tmp_path / "chat" / name).write_text(textwrap.dedent(text), encoding="utf-8")
    return World(tmp_path, base.spec)


def test_seed_a_channel_with_thread_reactions_pins_and_files(store, world, tmp_path):
    w = world_with(world, tmp_path, {"qa-seed-room.yaml": ROOM, "dm-tom.yaml": DM})
    chat_seed.seed(store, w)
    conv = S.conversation_by_name(store, "alex.chen", "qa-seed-room")
    assert conv["topic"] == "Hearing Apr 22" and conv["created_by"] == "eleanor.vance"
    assert conv["created_at"] == "2026-03-01T13:00:00Z" and conv["members"] == ["alex.chen", "eleanor.vance", "priya.raman"]
    msgs = S.messages(store, "alex.chen", conv["id"])
    first = S.get_message(store, "alex.chen", msgs[0]["id"])
    assert first["at"] == "2026-04-02T13:14:00Z" and first["mentions"] == ["alex.chen"] and first["pinned"]
    assert first["reactions"] == {"👍": ["alex.chen", "eleanor.vance"]} and first["reply_count"] == 2
    assert store.get("drive_items", first["files"][0])["name"].startswith("Final Survey Report")
    assert [m["text"] for m in msgs] == [first["text"], "Thanks.", "Call at 11."]    # the reply also sent
    assert S.get_message(store, "alex.chen", msgs[-1]["id"])["edited"]
    # Alex read up to 09:15: the two replies after it are in the thread, so one unread message in the channel
    side = {c["id"]: c for c in S.list_conversations(store, "alex.chen")["channels"]}
    assert side[conv["id"]]["unread"] == 2 and side[conv["id"]]["mentions"] == 0
    assert {c["id"]: c for c in S.list_conversations(store, "priya.raman")["channels"]}[conv["id"]]["unread"] == 0
    dm = next(c for c in S.list_conversations(store, "alex.chen")["dms"] if c["title"] == "Tom Becker")
    assert dm["kind"] == "dm" and dm["unread"] == 0


@pytest.mark.parametrize("name, text, error", [
    ("qa-x.yaml", ROOM.replace("name: qa-seed-room", "name: qa-x").replace("[eleanor.vance, priya.raman, alex.chen]", "[eleanor.vance, no.body]"),
     "members.1: 'no.body' is not a person id"),
    ("qa-seed-room.yaml", ROOM.replace("from: priya.raman", "from: priya.ramen"), "messages.0.from: 'priya.ramen' is not a person id"),
    ("qa-seed-room.yaml", ROOM.replace("[alex.chen, eleanor.vance]", "[alex.chen, nobody.else]"), "reactions"),
    ("qa-seed-room.yaml", ROOM.replace("@alex.chen", "@alex.chan"), "mentions @alex.chan"),
    ("Bad Name.yaml", ROOM.replace("name: qa-seed-room", "name: Bad Name"), "name: 'Bad Name': Channel names can't contain spaces"),
    ("other.yaml", ROOM, "must match the file name"),
    ("qa-seed-room.yaml", ROOM.replace("at: 2026-04-03T10:00:00", 'at: "2026-04-01T10:00:00"'), "messages.1.at: earlier than the message before it"),
    ("qa-seed-room.yaml", ROOM.replace("2026-04-02T09:31:00", "2026-04-02T09:10:00"), "replies.1.at: earlier"),
    ("qa-seed-room.yaml", ROOM.replace("at: 2026-04-03T10:00:00", 'at: "2026-04-07T10:00:00"'), "is not before the world clock"),
    ("qa-seed-room.yaml", ROOM.replace("Final Survey Report", "Missing Report"), "files.0: no Drive file"),
    ("qa-seed-room.yaml", ROOM.replace("pinned: true", "pinned: true\n    colour: red"), "messages.0.colour: Extra inputs are not permitted"),
    ("dm.yaml", DM.replace("[alex.chen, tom.becker]", "[alex.chen, tom.becker, priya.raman]"), "use kind: group"),
    ("dm.yaml", DM.replace("from: tom.becker", "from: priya.raman"), "not in this conversation's members"),
    ("dm.yaml", DM.replace("kind: dm", "kind: dm\nname: tom"), "only channels have a name"),
])
def test_bad_world_files_are_clear_errors(store, world, tmp_path, name, text, error):
    w = world_with(world, tmp_path, {name: text})
    with pytest.raises(WorldError) as e:
        chat_seed.seed(store, w)
    assert error in str(e.value)
    assert str(tmp_path / "chat" / name) in str(e.value)


def test_meridian_chat_files_are_valid(world):
    """The world's own chat files load (names, people, order are checked before seeding)."""
    specs = chat_seed.load(world)
    assert all(spec.kind in ("channel", "dm", "group") for _, spec in specs)
