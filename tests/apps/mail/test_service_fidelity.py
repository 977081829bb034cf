"""Mail's service layer for the Gmail fidelity round: forwards, signature, Snooze, Spam, search."""
from __future__ import annotations

import pytest

from apps.core.errors import Invalid
from apps.core.store.db import Caller
from apps.mail import compose, service
from apps.mail.chips import chips, toggled, with_op
from apps.mail.search import SearchError
from apps.mail.service import Action, Folder

ALEX = Caller("alex.chen", "agent")


def thread_of(store, subject_like):
    return store.scalar("SELECT thread FROM mail_messages WHERE subject LIKE ? ORDER BY id", (subject_like,))


def inbox_ids(store):
    return {t["id"] for t in service.list_folder(store, "alex.chen", Folder.INBOX).threads} | \
        {t["id"] for t in service.list_folder(store, "alex.chen", Folder.INBOX, page=2).threads}


def test_forward_draft_carries_the_block_and_sends_it_once(store):
    m = store.scalar("SELECT id FROM mail_messages WHERE subject LIKE 'Maritime Law Weekly – Issue 412%' ORDER BY id")
    f = compose.reply_fields(store, ALEX, m, compose.FORWARD)
    assert f["body"].startswith("\n\n---------- Forwarded message ---------\nFrom: ") and f["files"]
    assert store.scalar("SELECT count(*) FROM mail_drafts") == 0      # nothing saved by looking
    d = compose.start_reply(store, ALEX, m, compose.FORWARD)
    compose.update_draft(store, ALEX, d, to=["priya.raman@meridianshaw.com"], body="Note\n" + f["body"])
    sent = store.get("mail_messages", compose.send_draft(store, ALEX, d))
    assert sent["body"].count("---------- Forwarded message ---------") == 1
    assert sent["body"] == "Note\n" + f["body"]            # as the compose window showed it
    assert store.scalar("SELECT count(*) FROM mail_attachments WHERE message=?", (sent["id"],)) == len(f["files"])


def test_signature_goes_into_new_messages_replies_and_forwards(store):
    with pytest.raises(Invalid):
        compose.set_signature(store, ALEX, "x" * 10001)
    compose.set_signature(store, ALEX, "Alex Chen\r\nMeridian Shaw  \n")
    assert compose.settings(store, "alex.chen")["signature"] == "Alex Chen\nMeridian Shaw"
    assert compose.initial_body(store, "alex.chen") == "\n\n-- \nAlex Chen\nMeridian Shaw"
    m = store.scalar("SELECT id FROM mail_messages WHERE sender!=? ORDER BY id", ("alex.chen@meridianshaw.com",))
    assert compose.reply_fields(store, ALEX, m, compose.REPLY)["body"] == "\n\n-- \nAlex Chen\nMeridian Shaw"
    fwd = compose.reply_fields(store, ALEX, m, compose.FORWARD)["body"]
    assert fwd.index("-- \nAlex Chen") < fwd.index("---------- Forwarded message")
    compose.set_signature(store, ALEX, "")
    assert compose.initial_body(store, "alex.chen") == ""
    assert store.scalar("SELECT count(*) FROM mail_settings WHERE owner='alex.chen'") == 1


def test_snooze_takes_it_out_of_the_inbox_until_the_time(store):
    t = thread_of(store, "Calder Tower – elevator bank B%")
    assert t in inbox_ids(store)
    with pytest.raises(Invalid) as e:
        service.apply(store, ALEX, [t], Action.SNOOZE, until="2020-01-01T08:00")
    assert e.value.field == "until"
    with pytest.raises(Invalid):
        service.apply(store, ALEX, [t], Action.SNOOZE, until="next week")
    with pytest.raises(Invalid):
        service.apply(store, ALEX, [t], Action.SNOOZE)
    choices = dict((n, w) for n, w, _ in service.snooze_choices(store))
    assert list(choices) == ["Later today", "Tomorrow", "This weekend", "Next week"]     # on a weekday morning
    service.apply(store, ALEX, [t], Action.SNOOZE, until=choices["Tomorrow"])
    assert t not in inbox_ids(store)
    assert [x["id"] for x in service.list_folder(store, "alex.chen", Folder.SNOOZED).threads] == [t]
    assert service.thread(store, "alex.chen", t)["snoozed_until"]
    assert t in {x["id"] for x in service.search(store, "alex.chen", "is:snoozed").threads}
    until = store.scalar("SELECT max(snoozed_until) FROM mail_boxes WHERE owner='alex.chen' AND thread=?", (t,))
    store.set_meta("clock", until)
    page = service.list_folder(store, "alex.chen", Folder.INBOX)
    assert page.threads[0]["id"] == t                   # back, on top
    assert service.list_folder(store, "alex.chen", Folder.SNOOZED).threads == []


def test_spam_leaves_every_list_but_spam_and_search_needs_in_spam(store):
    t = thread_of(store, "Calder Tower – elevator bank B%")
    service.apply(store, ALEX, [t], Action.SPAM)
    assert t not in inbox_ids(store)
    assert t not in {x["id"] for x in service.list_folder(store, "alex.chen", Folder.ALL).threads}
    assert [x["id"] for x in service.list_folder(store, "alex.chen", Folder.SPAM).threads] == [t]
    assert t not in {x["id"] for x in service.search(store, "alex.chen", "elevator").threads}
    assert t in {x["id"] for x in service.search(store, "alex.chen", "elevator in:spam").threads}
    service.apply(store, ALEX, [t], Action.NOT_SPAM)
    assert t in inbox_ids(store)


def test_search_age_operators_and_chips(store):
    assert service.search(store, "alex.chen", "older_than:1y").total == 0
    assert service.search(store, "alex.chen", "newer_than:1y").total > 0
    with pytest.raises(SearchError):
        service.search(store, "alex.chen", "older_than:week")
    assert with_op("survey from:a@b.c", "from", "x@y.z") == "survey from:x@y.z"
    assert with_op("survey from:a@b.c", "from", None) == "survey"
    assert toggled("survey has:attachment", "has:attachment") == "survey"
    assert toggled("survey", "is:unread") == "survey is:unread"
    c = {x["id"]: x for x in chips(store, "alex.chen", "survey is:unread")}
    assert c["unread"]["on"] and not c["attachment"]["on"] and c["attachment"]["q"] == "survey is:unread has:attachment"
    assert list(c) == ["from", "age", "attachment", "to", "unread"]
