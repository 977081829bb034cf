"""The tool registry: every app covered, valid schemas, reads read and writes write (as the
agent), and every failure is a ToolError with the app's message."""
from __future__ import annotations

from datetime import datetime, timezone
from enum import Enum

import pytest

from apps.coworkers.engine import META_STEPS
from apps.core.registry import APP_NAMES
from harness.tools import ToolError, call_tool, get_tool, registry
from harness.tools.cli import COMMON
from harness.tools.registry import to_json

from .conftest import USERS, WORLD_OF, last_seq


def test_every_app_has_read_and_write_tools():
    tools = registry()
    assert {t.app for t in tools} == set(APP_NAMES)
    for app in APP_NAMES:
        mine = registry(app)
        assert 5 <= len(mine) <= 14, app
        assert any(t.write for t in mine) and any(not t.write for t in mine), app
    assert len({t.name for t in tools}) == len(tools)
    assert len({t.mcp_name for t in tools}) == len(tools)


def test_schemas_are_valid_json_schema_and_described():
    import jsonschema                     # comes with the mcp extra
    for t in registry():
        jsonschema.Draft202012Validator.check_schema(t.input_schema)
        assert t.input_schema["type"] == "object" and t.input_schema["additionalProperties"] is False
        assert "." not in t.mcp_name and t.description.endswith("."), t.name
        props = t.input_schema["properties"]
        assert not set(props) & set(COMMON), t.name
        assert not {"store", "user", "caller"} & set(props), t.name
        assert all(p.get("description") for p in props.values()), f"{t.name}: undescribed parameter"


def test_unknown_app_and_tool():
    with pytest.raises(ToolError, match="No app 'bogus'"):
        registry("bogus")
    with pytest.raises(ToolError, match="No tool"):
        get_tool("mail.bogus")
    assert get_tool("mail_list_folder") is get_tool("mail.list_folder")


READS = {
    "mail": ("mail.search", {"q": "from:laura"}, lambda out: out["total"] >= 1 and out["threads"][0]["subject"]),
    "chat": ("chat.read", {"channel": "#general", "limit": 3},
             lambda out: out["conversation"]["name"] == "general" and len(out["messages"]) == 3),
    "calendar": ("calendar.list_events", {"start": "2026-04-06", "end": "2026-04-07"},
                 lambda out: out and all(e["start"].startswith("2026-04-06") for e in out)),
    "drive": ("drive.search", {"q": "survey report"}, lambda out: any("Survey" in i["name"] for i in out)),
    "docs": ("docs.read", {"doc": "hearing outline"}, lambda out: out["markdown"].startswith("# Hearing Outline")),
    "sheets": ("sheets.get", {"book": "Limitation Fund Calculation", "range": "A1:B2"},
               lambda out: out["rows"][0] == ["Input", "Value"] and out["range"] == "A1:B2"),
    "slides": ("slides.read", {"deck": "Client Update"}, lambda out: out["slides"][0]["layout"] == "title"),
    "crm": ("crm.get", {"obj": "accounts", "record": "harrowgate"},
            lambda out: out["name"] == "Harrowgate Logistics" and "past" in out["timeline"]),
    "tickets": ("tickets.get", {"ref": "INC0010444"},
                lambda out: out["record"]["short_description"] == "May invoice shows the wrong PO number"),
}

# (tool, args, SQL that must then give the expected value)
WRITES = {
    "mail": ("mail.send", {"to": ["priya.raman@meridianshaw.com"], "subject": "Tool test", "body": "Hello"},
             "SELECT count(*) FROM mail_messages WHERE subject='Tool test' AND sender LIKE 'alex.chen@%'", 1),
    "chat": ("chat.post", {"channel": "general", "text": "hello from a tool"},
             "SELECT author FROM chat_messages WHERE text='hello from a tool'", "alex.chen"),
    "calendar": ("calendar.create_event",
                 {"title": "Tool sync", "start": "2026-04-07T10:00", "guests": ["priya.raman"]},
                 "SELECT count(*) FROM cal_guests g JOIN cal_events e ON e.id=g.event WHERE e.title='Tool sync'", 2),
    "drive": ("drive.create_folder", {"name": "Tool folder"},
              "SELECT owner FROM drive_items WHERE name='Tool folder' AND kind='folder'", "alex.chen"),
    "docs": ("docs.append", {"doc": "Hearing Outline – Fund Adequacy Hearing (April 22)",
                             "markdown": "Appended by a tool"},
             "SELECT count(*) FROM docs_blocks WHERE text='Appended by a tool'", 1),
    "sheets": ("sheets.set_cells", {"book": "2", "tab": "Inputs", "values": {"Z1": 21, "Z2": "=Z1*2"}},
               "SELECT display FROM sheets_cells WHERE a1='Z2' AND input='=Z1*2'", "42"),
    "slides": ("slides.add_slide", {"deck": "Client Update", "texts": {"title": "From a tool"}},
               "SELECT count(*) FROM slides_boxes WHERE text='From a tool'", 1),
    "crm": ("crm.update", {"obj": "opportunities", "record": "harrowgate-fy26-renewal",
                           "fields": {"next_step": "Call the CFO"}},
            "SELECT next_step FROM crm_opportunities WHERE slug='harrowgate-fy26-renewal'", "Call the CFO"),
    "tickets": ("tickets.comment", {"ref": "INC0010444", "text": "Looking into it"},
                "SELECT author FROM tk_journal WHERE text='Looking into it' AND kind='comment'", "jordan.blake"),
}


@pytest.mark.parametrize("app", APP_NAMES)
def test_a_read_tool_reads(app, slot_of):
    name, args, ok = READS[app]
    world = WORLD_OF.get(app, "meridian")
    with slot_of(world).store() as st:
        assert ok(get_tool(name).call(st, USERS[world], args))


@pytest.mark.parametrize("app", APP_NAMES)
def test_a_write_tool_writes_as_the_agent(app, slot_of):
    name, args, sql, want = WRITES[app]
    world = WORLD_OF.get(app, "meridian")
    with slot_of(world).store() as st:
        before = last_seq(st)
        get_tool(name).call(st, USERS[world], args)
        assert st.scalar(sql) == want
        actors = {r[0] for r in st.all("SELECT DISTINCT actor FROM _writes WHERE seq > ?", (before,))}
        assert actors == {"agent"}


def test_documents_by_id_or_title(slot_of):
    with slot_of("meridian").store() as st:
        by = {ref: get_tool("sheets.get").call(st, "alex.chen", {"book": ref, "range": "A1"})["title"]
              for ref in (2, "2", "limitation fund calculation", "Limitation Fund")}
        assert set(by.values()) == {"Limitation Fund Calculation"}


def test_the_actor_is_recorded(slot_of):
    with slot_of("meridian").store() as st:
        before = last_seq(st)
        get_tool("chat.post").call(st, "alex.chen", {"channel": "general", "text": "hi"}, actor="eval-bot")
        assert {r[0] for r in st.all("SELECT actor FROM _writes WHERE seq > ?", (before,))} == {"eval-bot"}


@pytest.mark.parametrize("name, args, message", [
    ("mail.search", {}, "mail.search: q is required"),
    ("mail.search", {"q": "x", "folder": "inbox"}, "unknown argument 'folder' (arguments: q, page)"),
    ("mail.search", {"q": "x", "page": "two"}, "page: Input should be a valid integer"),
    ("calendar.rsvp", {"event_id": 1, "response": "yes"}, "response: Input should be 'accepted', 'declined'"),
    ("sheets.get", {"book": "2", "rng": "A1"}, "unknown argument 'rng' (arguments: book, range, tab)"),
])
def test_bad_arguments_are_tool_errors(name, args, message, slot_of):
    with slot_of("meridian").store() as st, pytest.raises(ToolError) as e:
        get_tool(name).call(st, "alex.chen", args)
    assert message in e.value.message


@pytest.mark.parametrize("name, args, message", [
    ("mail.read", {"thread_id": 99999}, "That conversation doesn't exist or was deleted."),
    ("mail.search", {"q": "is:bogus"}, "Unknown “is:bogus”. Try is:unread, is:read or is:starred."),
    ("chat.post", {"channel": "nowhere", "text": "hi"}, "There is no channel #nowhere you can see"),
    ("drive.rename", {"item_id": 14, "name": "Mine now"}, "You need editor access to change “Firm Admin”."),
    ("docs.read", {"doc": "DRAFT"}, "documents match “DRAFT”"),
    ("sheets.get", {"book": "Limitation Fund Calculation", "range": "A1:ZZZ"}, "is not a cell or range"),
    ("sheets.set_cells", {"book": "2", "values": {"B": "1"}}, "Bad cell reference"),
    ("drive.read", {"item_id": 49}, "is a folder"),
    ("calendar.create_event", {"title": "x", "start": "soon"}, "“soon” is not a date and time."),
])
def test_service_errors_are_tool_errors_and_write_nothing(name, args, message, slot_of):
    with slot_of("meridian").store() as st:
        before = last_seq(st)
        with pytest.raises(ToolError) as e:
            get_tool(name).call(st, "alex.chen", args)
        assert message in e.value.message
        assert last_seq(st) == before


def test_a_refused_update_writes_nothing(slot_of):
    with slot_of("lumen").store() as st:
        before = last_seq(st)
        with pytest.raises(ToolError, match="Resolved needs a Resolution code") as e:
            get_tool("tickets.update").call(st, "jordan.blake", {"ref": "INC0010444", "fields": {"state": "Resolved"},
                                                                 "work_note": "closing"})
        assert e.value.field == "resolution_code"
        assert last_seq(st) == before


def test_customers_see_no_crm(slot_of):
    with slot_of("lumen").store() as st, pytest.raises(ToolError, match="There's no CRM for you here."):
        get_tool("crm.search").call(st, "sofia.brandt", {"q": "harrowgate"})


def test_call_tool_ticks_after_writes_only(slot_of):
    slot = slot_of("meridian")

    def steps():
        with slot.store() as st:
            return int(st.meta(META_STEPS, "0"))
    start = steps()
    call_tool(slot, "chat.search", {"q": "deductible"}, "alex.chen")
    assert steps() == start
    out = call_tool(slot, "chat_post", {"channel": "general", "text": "tick"}, "alex.chen")
    assert out["text"] == "tick" and steps() == start + 1


def test_coworkers_answer_a_tool_write(slot_of):
    slot = slot_of("meridian")
    sent = call_tool(slot, "chat.dm", {"people": ["priya.raman"], "text": "Could you send me the outline please?"},
                     "alex.chen")
    thread = call_tool(slot, "chat.read", {"channel": str(sent["conversation"]), "limit": 1}, "alex.chen")
    assert thread["messages"][-1]["author"] == "priya.raman"


def test_results_are_json():
    class Color(Enum):
        RED = "red"
    when = datetime(2026, 4, 6, 13, tzinfo=timezone.utc)
    assert to_json({"at": when, (1, 2): Color.RED, "blob": b"x", "s": {3, 1}, "t": (1, "a"), "n": float("nan")}) == \
        {"at": "2026-04-06T13:00:00+00:00", "1,2": "red", "s": [1, 3], "t": [1, "a"], "n": None}
