"""The tools over the rest of the apps' service layer: chat channels and pins, changing and deleting
events, saving and reading mail attachments, forwards and drafts, doc comments and inserts, sheet
structure, sorting and formats, slide order, lead conversion and saved views, the service catalog,
knowledge links and bulk updates. Each works on a fresh slot as the agent, and a bad call is a
ToolError with the app's message that writes nothing."""
from __future__ import annotations

import pytest

from harness.tools import ToolError, get_tool

from .conftest import last_seq

ALEX, JORDAN = "alex.chen", "jordan.blake"


def call(st, name, args, user=ALEX):
    return get_tool(name).call(st, user, args)


def refused(st, name, args, message, user=ALEX):
    before = last_seq(st)
    with pytest.raises(ToolError) as e:
        call(st, name, args, user)
    assert message in e.value.message
    assert last_seq(st) == before
    return e.value


def item_id(st, name):
    return st.scalar("SELECT id FROM drive_items WHERE name=?", (name,))


# ---------------------------------------------------------------- chat
def test_chat_pin_and_unpin(slot_of):
    with slot_of("meridian").store() as st:
        mid = st.scalar("SELECT id FROM chat_messages WHERE text LIKE 'Key dates — M-2026-0147%'")
        call(st, "chat.pin", {"message_id": mid})
        assert st.scalar("SELECT pinned FROM chat_messages WHERE id=?", (mid,)) == 1
        call(st, "chat.pin", {"message_id": mid, "pinned": False})
        assert st.scalar("SELECT pinned FROM chat_messages WHERE id=?", (mid,)) == 0
        refused(st, "chat.pin", {"message_id": 999999}, "doesn't exist")


def test_chat_create_channel_invite_and_topic(slot_of):
    with slot_of("meridian").store() as st:
        out = call(st, "chat.create_channel", {"name": "tool-room", "private": True, "topic": "Hello",
                                               "members": ["priya.raman"]})
        assert out["name"] == "tool-room" and out["private"] and out["topic"] == "Hello"
        cid = out["id"]
        assert call(st, "chat.invite", {"channel": "tool-room", "people": ["eleanor.vance", "priya.raman"]}) \
            == ["eleanor.vance"]
        members = {r[0] for r in st.all("SELECT person FROM chat_members WHERE conversation=?", (cid,))}
        assert members == {"alex.chen", "priya.raman", "eleanor.vance"}
        out = call(st, "chat.set_topic", {"channel": "#tool-room", "topic": "Mediation 7 May", "purpose": "Prep"})
        assert (out["topic"], out["purpose"]) == ("Mediation 7 May", "Prep")
        refused(st, "chat.create_channel", {"name": "Tool Room"}, "can't contain spaces")
        refused(st, "chat.create_channel", {"name": "tool-room"}, "already taken")
        refused(st, "chat.set_topic", {"channel": "tool-room"}, "Give a topic or a purpose")


# ---------------------------------------------------------------- calendar
def test_calendar_update_and_delete_event(slot_of):
    with slot_of("meridian").store() as st:
        eid = call(st, "calendar.create_event", {"title": "Tool sync", "start": "2026-04-07T10:00",
                                                 "guests": ["priya.raman"]})
        out = call(st, "calendar.update_event", {"event_id": eid, "title": "Tool sync (moved)",
                                                 "start": "2026-04-07T14:00", "location": "12B",
                                                 "guests": ["priya.raman", "daniel.ortiz"]})
        assert out["title"] == "Tool sync (moved)" and out["location"] == "12B"
        assert out["start"].startswith("2026-04-07T14:00") and out["end"].startswith("2026-04-07T15:00")
        assert {g["person"] for g in out["guests"]} == {"alex.chen", "priya.raman", "daniel.ortiz"}
        refused(st, "calendar.update_event", {"event_id": eid}, "Say what to change")
        call(st, "calendar.delete_event", {"event_id": eid})
        assert st.scalar("SELECT count(*) FROM cal_events WHERE id=?", (eid,)) == 0
        assert st.scalar("SELECT count(*) FROM cal_guests WHERE event=?", (eid,)) == 0
        theirs = st.scalar("SELECT id FROM cal_events WHERE organizer<>'alex.chen' AND title LIKE 'Moot hearing%'")
        refused(st, "calendar.delete_event", {"event_id": theirs}, "organi")


# ---------------------------------------------------------------- mail and drive
def test_mail_attachment_read_and_saved_to_drive(slot_of):
    with slot_of("meridian").store() as st:
        att = st.scalar("SELECT id FROM mail_attachments WHERE name='Maritime Law Weekly – Issue 412.pdf'")
        out = call(st, "mail.read_attachment", {"attachment_id": att})
        assert out["name"] == "Maritime Law Weekly – Issue 412.pdf" and "Aurelia Dawn" in out["text"]
        cle = st.scalar("SELECT id FROM drive_items WHERE name='CLE' AND owner='alex.chen'")
        saved = call(st, "drive.save_attachment", {"attachment_id": att, "folder_id": cle})
        assert saved["name"] == "Maritime Law Weekly – Issue 412.pdf" and saved["parent"] == cle
        assert st.scalar("SELECT owner FROM drive_items WHERE id=?", (saved["id"],)) == "alex.chen"
        link = st.scalar("SELECT id FROM mail_attachments WHERE blob IS NULL AND drive_item IS NOT NULL")
        if link is not None:
            refused(st, "drive.save_attachment", {"attachment_id": link}, "already in Drive")
        refused(st, "drive.save_attachment", {"attachment_id": 999999}, "doesn't exist")


def test_mail_forward_and_save_draft(slot_of):
    with slot_of("meridian").store() as st:
        mid = st.scalar("SELECT id FROM mail_messages WHERE subject='Final survey report – MT Aurelia Dawn' "
                        "ORDER BY id LIMIT 1")
        out = call(st, "mail.forward", {"message_id": mid, "to": ["priya.raman@meridianshaw.com"], "body": "FYI"})
        assert out["subject"].startswith("Fwd:") and out["to"] == ["priya.raman@meridianshaw.com"]
        assert out["body"].startswith("FYI") and "Forwarded message" in out["body"]
        assert out["forward_of"] == mid and out["attachments"]
        draft = call(st, "mail.save_draft", {"to": ["jonathan.pryce@brightwaterkessler.com"], "subject": "Draft",
                                             "body": "For review"})
        assert st.scalar("SELECT body FROM mail_drafts WHERE id=?", (draft["id"],)) == "For review"
        assert st.scalar("SELECT count(*) FROM mail_messages WHERE subject='Draft'") == 0
        refused(st, "mail.forward", {"message_id": mid, "to": ["not an address"]}, "was not recognized")


# ---------------------------------------------------------------- docs
DRAFT = "Objection to Amount of Limitation Fund – DRAFT"


def test_docs_add_comment_and_insert(slot_of):
    with slot_of("meridian").store() as st:
        c = call(st, "docs.add_comment", {"doc": DRAFT, "quote": "single question of statutory text",
                                          "text": "Tighten this?"})
        assert c["quote"] == "single question of statutory text" and c["author"] == "alex.chen"
        assert call(st, "docs.insert", {"doc": DRAFT, "after": "[Alex to draft",
                                        "markdown": "First new paragraph.\n\nSecond new paragraph."})
        md = call(st, "docs.read", {"doc": DRAFT})["markdown"]
        assert md.index("[Alex to draft") < md.index("First new paragraph.") < md.index("Second new paragraph.") \
            < md.index("## Relief Requested")
        refused(st, "docs.add_comment", {"doc": DRAFT, "quote": "no such words here", "text": "x"}, "isn't in")
        refused(st, "docs.insert", {"doc": DRAFT, "after": "no such words here", "markdown": "x"}, "No paragraph")


# ---------------------------------------------------------------- sheets
DAMAGES = "Damages Model – Aurelia Dawn"


def test_sheets_insert_format_and_delete_columns(slot_of):
    with slot_of("meridian").store() as st:
        assert call(st, "sheets.insert", {"book": DAMAGES, "tab": "Claims", "before": "E"})["span"] == "E"
        head = call(st, "sheets.get", {"book": DAMAGES, "tab": "Claims", "range": "D1:G1"})["rows"][0]
        assert head == ["Amount (USD)", "", "Status", "Type"]
        formulas = call(st, "sheets.get", {"book": DAMAGES, "tab": "Claims", "range": "A10:G10"})["formulas"]
        assert formulas["D10"] == '=SUMIF(G2:G8,"Third party",D2:D8)'       # references follow the move
        call(st, "sheets.set_cells", {"book": DAMAGES, "tab": "Claims", "values": {"E2": "=D2/Limit!B5"}})
        cells = call(st, "sheets.format", {"book": DAMAGES, "tab": "Claims", "range": "E2", "type": "percent",
                                           "decimals": 1})
        assert cells[0]["format"]["type"] == "percent" and cells[0]["display"].endswith("%")
        call(st, "sheets.delete", {"book": DAMAGES, "tab": "Claims", "span": "E"})
        head = call(st, "sheets.get", {"book": DAMAGES, "tab": "Claims", "range": "D1:F1"})["rows"][0]
        assert head == ["Amount (USD)", "Status", "Type"]
        refused(st, "sheets.insert", {"book": DAMAGES, "before": "E5"}, "is not a row or a column")
        refused(st, "sheets.format", {"book": DAMAGES, "range": "E2"}, "Say which format")
        cells = call(st, "sheets.format", {"book": DAMAGES, "tab": "Claims", "range": "A10:D10", "italic": True,
                                           "fill": "#FCE8E6", "borders": "top"})
        assert all(c["format"].get("italic") and c["format"].get("fill") == "#fce8e6" and c["format"].get("border") == "t"
                   for c in cells)
        cells = call(st, "sheets.format", {"book": DAMAGES, "tab": "Claims", "range": "A10", "fill": "", "borders": "none"})
        assert "fill" not in cells[0]["format"] and "border" not in cells[0]["format"]
        refused(st, "sheets.format", {"book": DAMAGES, "range": "A10", "color": "red"}, "#rrggbb")


def test_sheets_insert_and_delete_rows(slot_of):
    with slot_of("meridian").store() as st:
        call(st, "sheets.insert", {"book": DAMAGES, "tab": "Claims", "before": "3", "count": 2})
        rows = call(st, "sheets.get", {"book": DAMAGES, "tab": "Claims", "range": "A2:A5"})["rows"]
        assert [r[0] for r in rows] == ["CL-001", "", "", "CL-002"]
        call(st, "sheets.delete", {"book": DAMAGES, "tab": "Claims", "span": "3:4"})
        rows = call(st, "sheets.get", {"book": DAMAGES, "tab": "Claims", "range": "A2:A3"})["rows"]
        assert [r[0] for r in rows] == ["CL-001", "CL-002"]


def test_sheets_sort(slot_of):
    with slot_of("meridian").store() as st:
        shown = call(st, "sheets.sort", {"book": DAMAGES, "tab": "Claims", "range": "A2:F8", "by": "D",
                                         "descending": True})
        assert [r[0] for r in shown] == ["CL-005", "CL-001", "CL-003", "CL-006", "CL-002", "CL-004", "CL-007"]
        total = call(st, "sheets.get", {"book": DAMAGES, "tab": "Claims", "range": "D10"})["rows"][0][0]
        assert total == "$123,115,000.00"                    # the totals below still add up
        refused(st, "sheets.sort", {"book": DAMAGES, "tab": "Claims", "range": "A2:F8", "by": "H"},
                "inside the range")


def test_sheets_import_file(slot_of):
    with slot_of("meridian").store() as st:
        out = call(st, "sheets.import_file", {"item_id": item_id(st, "Claims Register.csv")})
        assert out["title"] == "Claims Register" and out["tabs"] == ["Sheet1"]
        rows = call(st, "sheets.get", {"book": out["id"], "range": "A1:D2"})["rows"]
        assert rows[0][0] == "Claim ID" and rows[1][0] == "CL-001"
        refused(st, "sheets.import_file", {"item_id": item_id(st, "Vessel Particulars – MT Aurelia Dawn.pdf")},
                "Only .csv")


# ---------------------------------------------------------------- slides
def test_slides_move_and_delete(slot_of):
    with slot_of("meridian").store() as st:
        deck = call(st, "slides.read", {"deck": "Case Strategy – Limitation and §9"})
        owners = next(s["id"] for s in deck["slides"] if s["boxes"]["title"] == "Sequencing and owners")
        assert call(st, "slides.move_slide", {"slide_id": owners, "position": 2}) is True
        deck = call(st, "slides.read", {"deck": "Case Strategy – Limitation and §9"})
        assert deck["slides"][1]["id"] == owners
        n = len(deck["slides"])
        call(st, "slides.delete_slide", {"slide_id": owners, "deck_id": deck["id"]})
        deck = call(st, "slides.read", {"deck": "Case Strategy – Limitation and §9"})
        assert len(deck["slides"]) == n - 1 and owners not in {s["id"] for s in deck["slides"]}
        refused(st, "slides.move_slide", {"slide_id": deck["slides"][0]["id"], "position": 99}, "Choose a position")


# ---------------------------------------------------------------- crm
def test_crm_convert_lead(slot_of):
    with slot_of("lumen").store() as st:
        out = call(st, "crm.convert_lead", {"lead": "brookfield-dental-ava-lin",
                                            "opportunity_name": "Brookfield Dental Group – Platform"}, JORDAN)
        assert out["lead"]["status"] == "Converted"
        assert st.scalar("SELECT name FROM crm_accounts WHERE id=?", (out["account"],)) == "Brookfield Dental Group"
        assert st.scalar("SELECT email FROM crm_contacts WHERE id=?", (out["contact"],)) \
            == "ava.lin@brookfielddental.com"
        assert st.scalar("SELECT name FROM crm_opportunities WHERE id=?", (out["opportunity"],)) \
            == "Brookfield Dental Group – Platform"
        refused(st, "crm.convert_lead", {"lead": "brookfield-dental-ava-lin"}, "already been converted", JORDAN)


def test_crm_save_view(slot_of):
    with slot_of("lumen").store() as st:
        filters = [{"field": "type", "op": "equals", "value": "Renewal"},
                   {"field": "close_date", "op": "ge", "value": "2026-04-01"},
                   {"field": "close_date", "op": "le", "value": "2026-06-30"}]
        out = call(st, "crm.save_view", {"obj": "opportunities", "name": "Q2 renewals", "filters": filters}, JORDAN)
        assert out["total"] >= 1 and all(r["type"] == "Renewal" for r in out["rows"])
        listed = call(st, "crm.list", {"obj": "opportunities", "view": str(out["id"]), "per_page": 200}, JORDAN)
        assert listed["total"] == out["total"]
        refused(st, "crm.save_view", {"obj": "opportunities", "name": "Q2 renewals"}, "already have a list view",
                JORDAN)


# ---------------------------------------------------------------- service desk
def test_tickets_catalog_and_submit_request(slot_of):
    with slot_of("lumen").store() as st:
        items = call(st, "tickets.catalog", {"q": "laptop"}, JORDAN)
        assert [i["name"] for i in items] == ["New laptop"] and {f["name"] for f in items[0]["fields"]} >= {"model"}
        req = call(st, "tickets.submit_request", {"item": "New laptop", "requested_for": "nico.alvarez",
                                                  "variables": {"model": "MacBook Pro 14", "reason": "New hire",
                                                                "justification": "New hire"}}, JORDAN)
        assert req["number"].startswith("REQ") and req["requested_for"] == "nico.alvarez"
        assert req["variables"]["model"] == "MacBook Pro 14"
        refused(st, "tickets.submit_request", {"item": "New laptop", "variables": {"model": "Commodore 64"}},
                "is not a choice", JORDAN)


def test_tickets_attach_kb(slot_of):
    with slot_of("lumen").store() as st:
        out = call(st, "tickets.attach_kb", {"ref": "INC0010421", "article": "KB0001207"}, JORDAN)
        assert [a["number"] for a in out] == ["KB0001207"]
        refused(st, "tickets.attach_kb", {"ref": "INC0010421", "article": "KB0001207"}, "already attached", JORDAN)


def test_tickets_bulk_update(slot_of):
    with slot_of("lumen").store() as st:
        out = call(st, "tickets.bulk_update", {"refs": ["INC0010408", "INC0010413"], "fields": {"state": "Closed"}},
                   JORDAN)
        assert [r["ok"] for r in out] == [True, True]
        assert {r[0] for r in st.all("SELECT state FROM tk_incidents WHERE number IN ('INC0010408', 'INC0010413')")} \
            == {"Closed"}
        refused(st, "tickets.bulk_update", {"refs": [], "fields": {"state": "Closed"}}, "at least one", JORDAN)
