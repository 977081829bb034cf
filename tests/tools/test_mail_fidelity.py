"""Mail tools of the Gmail fidelity round: snooze, spam and the signature; forward stores Gmail's block."""
from __future__ import annotations

from .test_more_tools import call, refused

ALEX = "alex.chen"


def test_act_snooze_spam_and_set_signature(slot_of):
    with slot_of("meridian").store() as st:
        t = st.scalar("SELECT thread FROM mail_messages WHERE subject LIKE 'Calder Tower – elevator bank B%'")
        out = call(st, "mail.act", {"thread_ids": [t], "action": "snooze", "until": "2026-04-13T08:00"})
        assert out[0]["snoozed_until"] == "2026-04-13T12:00:00Z"
        refused(st, "mail.act", {"thread_ids": [t], "action": "snooze", "until": "2020-01-01T08:00"}, "in the future")
        refused(st, "mail.act", {"thread_ids": [t], "action": "snooze"}, "come back")
        call(st, "mail.act", {"thread_ids": [t], "action": "spam"})
        assert st.scalar("SELECT min(spam) FROM mail_boxes WHERE owner='alex.chen' AND thread=?", (t,)) == 1
        assert [x["id"] for x in call(st, "mail.list_folder", {"folder": "spam"})["threads"]] == [t]
        s = call(st, "mail.set_signature", {"signature": "Alex"})
        assert s["signature"] == "Alex"
        refused(st, "mail.set_signature", {"signature": "x" * 10001}, "10,000 characters")


def test_forward_tool_stores_the_block_the_gui_stores(slot_of):
    with slot_of("meridian").store() as st:
        mid = st.scalar("SELECT id FROM mail_messages WHERE subject LIKE 'Maritime Law Weekly – Issue 412%' ORDER BY id")
        out = call(st, "mail.forward", {"message_id": mid, "to": ["priya.raman@meridianshaw.com"], "body": "FYI"})
        orig = st.get("mail_messages", mid)
        assert out["body"].startswith("FYI\n\n---------- Forwarded message ---------\nFrom: Maritime Law Weekly")
        assert out["body"].endswith(orig["body"]) and out["attachments"]
        # The compose window's forward, with the same note typed above the block, stores the same body.
        from apps.core.store.db import Caller
        from apps.mail import compose
        f = compose.reply_fields(st, Caller(ALEX, "agent"), mid, compose.FORWARD)
        d = compose.start_reply(st, Caller(ALEX, "agent"), mid, compose.FORWARD)
        compose.update_draft(st, Caller(ALEX, "agent"), d, to=["priya.raman@meridianshaw.com"], body="FYI" + f["body"])
        gui = st.get("mail_messages", compose.send_draft(st, Caller(ALEX, "agent"), d))
        assert gui["body"] == out["body"]
