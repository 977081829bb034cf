"""Mail's service layer: mailboxes, conversations, labels, drafts and sending."""
from __future__ import annotations

import pytest

from apps.core.errors import Invalid, NotFound
from apps.core.store.db import Caller
from apps.mail import compose, service
from apps.mail.service import Action, Folder

ME = "alex.chen@meridianshaw.com"


def thread_of(store, subject_like):
    return store.scalar("SELECT thread FROM mail_messages WHERE subject LIKE ? ORDER BY id", (subject_like,))


def test_inbox_lists_conversations_newest_first_with_unread_and_labels(store):
    page = service.list_folder(store, "alex.chen", Folder.INBOX)
    assert page.total >= 40 and len(page.threads) == min(page.total, service.PAGE_SIZE)
    dates = [t["date"] for t in page.threads]
    assert dates == sorted(dates, reverse=True)
    first = page.threads[0]
    assert first["subject"].startswith("Live tracker") and first["unread"]
    assert [lab["name"] for lab in first["labels"]] == ["Firm admin"]
    eleanor = next(t for t in page.threads if t["subject"].startswith("Before the 22nd"))
    assert eleanor["starred"] and eleanor["unread"]
    assert service.counts(store, "alex.chen")["inbox"] == sum(1 for t in _all_inbox(store) if t["unread"])


def _all_inbox(store):
    out, page = [], 1
    while True:
        p = service.list_folder(store, "alex.chen", Folder.INBOX, page=page)
        out += p.threads
        if page >= p.pages:
            return out
        page += 1


def test_another_users_mail_is_not_found(store):
    """Olav and Pryce wrote to each other in a conversation Alex only saw a forward of."""
    private = store.scalar("SELECT id FROM mail_messages WHERE sender='olav.brandt@northseamutual.com' AND id NOT IN "
                           "(SELECT message FROM mail_boxes WHERE owner='alex.chen')")
    m = store.get("mail_messages", private)
    with pytest.raises(NotFound):
        service.message_for(store, "alex.chen", private)
    assert private not in [x["id"] for x in service.thread(store, "alex.chen", m["thread"])["messages"]]
    assert private in [x["id"] for x in service.thread(store, "olav.brandt", m["thread"])["messages"]]
    with pytest.raises(NotFound):
        service.thread(store, "alex.chen", 10_000)


def test_send_delivers_to_directory_people_and_remembers_outsiders(store, alex):
    mid = compose.send(store, alex, to="priya.raman@meridianshaw.com, Ann Other <ann@example.org>",
                       cc="eleanor.vance@meridianshaw.com", bcc="tom.becker@meridianshaw.com",
                       subject="Hearing binder", body="Index attached tomorrow.")
    m = store.get("mail_messages", mid)
    assert m["to"] == ["priya.raman@meridianshaw.com", "ann@example.org"]
    owners = {b["owner"]: b for b in store.select("mail_boxes", "message=?", (mid,))}
    assert set(owners) == {"alex.chen", "priya.raman", "eleanor.vance", "tom.becker"}
    assert owners["alex.chen"]["inbox"] is False and owners["priya.raman"]["inbox"] is True
    assert owners["priya.raman"]["read"] is False
    assert store.scalar("SELECT count(*) FROM mail_contacts WHERE email='ann@example.org'") == 1
    sent = service.list_folder(store, "alex.chen", Folder.SENT)
    assert sent.threads[0]["subject"] == "Hearing binder"
    # bcc stays hidden from the other recipients
    t = service.thread(store, "priya.raman", m["thread"])
    assert t["messages"][-1]["bcc"] == []
    assert service.thread(store, "tom.becker", m["thread"])["messages"][-1]["bcc"] == ["tom.becker@meridianshaw.com"]


def test_reply_and_reply_all_stay_in_the_conversation(store, alex):
    t = thread_of(store, "Before the 22nd%")
    last = service.thread(store, "alex.chen", t)["messages"][-1]
    d = compose.start_reply(store, alex, last["id"], compose.REPLY)
    draft = compose.get_draft(store, "alex.chen", d)
    assert draft["thread"] == t and draft["to"] == [last["sender"]] and draft["subject"].startswith("Re: ")
    compose.update_draft(store, alex, d, body="On it — figures by noon.")
    mid = compose.send_draft(store, alex, d)
    m = store.get("mail_messages", mid)
    assert m["thread"] == t and m["in_reply_to"] == last["id"]
    assert m["body"].startswith("On it — figures by noon.") and "wrote:\n>" in m["body"]
    # Reply all to Laura's mail goes to Laura, cc Eleanor, never to me.
    t2 = thread_of(store, "Board pack%")
    laura = service.thread(store, "alex.chen", t2)["messages"][-1]
    d2 = compose.get_draft(store, "alex.chen", compose.start_reply(store, alex, laura["id"], compose.REPLY_ALL))
    assert d2["to"] == ["laura.whitfield@corvane-energy.com"]
    assert d2["cc"] == ["eleanor.vance@meridianshaw.com"] and ME not in d2["cc"]


def test_forward_carries_the_attachments_and_the_original(store, alex):
    mid = store.scalar("SELECT m.id FROM mail_messages m JOIN mail_attachments a ON a.message=m.id "
                       "WHERE m.subject LIKE 'Final survey report%' ORDER BY m.id")
    d = compose.start_reply(store, alex, mid, compose.FORWARD)
    draft = compose.get_draft(store, "alex.chen", d)
    assert draft["subject"].startswith("Fwd: ") and draft["files"]
    compose.update_draft(store, alex, d, to=["laura.whitfield@corvane-energy.com"], body="FYI")
    sent = store.get("mail_messages", compose.send_draft(store, alex, d))
    assert "---------- Forwarded message ---------" in sent["body"]
    names = [a["name"] for a in store.select("mail_attachments", "message=?", (sent["id"],))]
    assert any(n.startswith("Final Survey Report") for n in names)


@pytest.mark.parametrize("to,message", [
    ("", "Please specify at least one recipient."),
    ("laura@corvane", "“laura@corvane” in the “To” field was not recognized"),
    ("ok@example.com, <script>@x", "not recognized"),
])
def test_send_refuses_bad_recipients_and_writes_nothing(store, alex, to, message):
    d = compose.create_draft(store, alex, to=to, subject="S", body="B")
    before = store.scalar("SELECT count(*) FROM mail_messages")
    with pytest.raises(Invalid) as e:
        compose.send_draft(store, alex, d)
    assert message in e.value.message and e.value.field == "to"
    assert store.scalar("SELECT count(*) FROM mail_messages") == before
    assert compose.get_draft(store, "alex.chen", d)["subject"] == "S"


def test_empty_subject_and_body_needs_confirmation(store, alex):
    d = compose.create_draft(store, alex, to="priya.raman@meridianshaw.com")
    with pytest.raises(Invalid) as e:
        compose.send_draft(store, alex, d)
    assert e.value.field == "confirm_empty"
    assert compose.send_draft(store, alex, d, allow_empty=True)


def test_attachments_from_drive_and_computer_share_the_bytes(store, alex):
    d = compose.create_draft(store, alex, to="priya.raman@meridianshaw.com", subject="Files")
    item = store.select("drive_items", "name LIKE 'Vessel Particulars – MT Aurelia Dawn%'")[0]
    local = store.select("local_files", "name LIKE 'Shortfall check%'")[0]
    compose.attach_drive(store, alex, d, item["id"])
    compose.attach_local(store, alex, d, local["id"])
    folder = store.select("drive_items", "kind='folder' AND name='Notes'")[0]
    with pytest.raises(Invalid):
        compose.attach_drive(store, alex, d, folder["id"])
    mid = compose.send_draft(store, alex, d)
    atts = store.select("mail_attachments", "message=?", (mid,))
    assert {a["blob"] for a in atts} == {item["blob"], local["blob"]}
    assert [a["drive_item"] for a in atts if a["blob"] == item["blob"]] == [item["id"]]
    # A Drive file the user can't see can't be attached.
    hidden = store.select("drive_items", "owner='sofia.marchetti' AND name='Matters'")[0]
    d2 = compose.create_draft(store, alex, to="x@example.com")
    with pytest.raises(NotFound):
        compose.attach_drive(store, alex, d2, hidden["id"])


def test_actions_archive_trash_restore_delete_and_undo(store, alex):
    t = thread_of(store, "Board pack%")
    snap = service.apply(store, alex, [t], Action.ARCHIVE)
    assert t not in [x["id"] for x in service.list_folder(store, "alex.chen", Folder.INBOX).threads]
    assert t in [x["id"] for x in service.list_folder(store, "alex.chen", Folder.ARCHIVE).threads]
    service.restore_state(store, alex, snap)
    assert t in [x["id"] for x in service.list_folder(store, "alex.chen", Folder.INBOX).threads]
    service.apply(store, alex, [t], Action.TRASH)
    assert service.thread(store, "alex.chen", t)["in_trash"]
    assert t in [x["id"] for x in service.list_folder(store, "alex.chen", Folder.TRASH).threads]
    service.apply(store, alex, [t], Action.RESTORE)
    assert t in [x["id"] for x in service.list_folder(store, "alex.chen", Folder.INBOX).threads]
    with pytest.raises(Invalid):
        service.apply(store, alex, [t], Action.DELETE_FOREVER)
    service.apply(store, alex, [t], Action.TRASH)
    service.apply(store, alex, [t], Action.DELETE_FOREVER)
    with pytest.raises(NotFound):
        service.thread(store, "alex.chen", t)
    assert service.thread(store, "eleanor.vance", t)["messages"]      # her copy is untouched
    with pytest.raises(Invalid):
        service.apply(store, alex, [], Action.ARCHIVE)
    with pytest.raises(Invalid):
        service.apply(store, alex, [t], "explode")


def test_undo_of_another_users_state_is_refused(store, alex):
    t = thread_of(store, "Board pack%")
    snap = service.apply(store, Caller("eleanor.vance", "eleanor.vance"), [t], Action.ARCHIVE)
    with pytest.raises(NotFound):
        service.restore_state(store, alex, snap)


def test_labels_create_rename_apply_delete(store, alex):
    lid = service.create_label(store, alex, "  Board   pack ")
    assert service.label(store, "alex.chen", lid)["name"] == "Board pack"
    for bad, msg in [("", "enter a label name"), ("board PACK", "already exists"), ("Inbox", "reserved")]:
        with pytest.raises(Invalid) as e:
            service.create_label(store, alex, bad)
        assert msg in e.value.message.lower()
    t = thread_of(store, "Board pack%")
    service.apply(store, alex, [t], Action.MOVE_TO_LABEL, lid)
    page = service.list_folder(store, "alex.chen", label=lid)
    assert [x["id"] for x in page.threads] == [t] and not page.threads[0]["inbox"]
    service.rename_label(store, alex, lid, "Board")
    service.delete_label(store, alex, lid)
    assert all(lid not in b["labels"] for b in store.select("mail_boxes", "owner='alex.chen'"))
    with pytest.raises(NotFound):
        service.label(store, "eleanor.vance", store.scalar("SELECT id FROM mail_labels WHERE name='CLE'"))


def test_opening_marks_read_and_mark_unread_from_here(store, alex):
    t = thread_of(store, "Board pack%")
    opened = service.open_thread(store, alex, t)
    assert opened["messages"][-1]["was_unread"]
    assert not any(m["box"]["read"] is False for m in service.thread(store, "alex.chen", t)["messages"])
    service.set_message_read(store, alex, opened["messages"][-1]["id"], False)
    assert service.summary(store, "alex.chen", t)["unread"]


def test_drafts_autosave_and_discard(store, alex):
    d = compose.create_draft(store, alex, to="bad address", subject="Half")
    compose.update_draft(store, alex, d, body="typed so far")
    assert [x["id"] for x in compose.list_drafts(store, "alex.chen")] == [d]
    assert compose.get_draft(store, "alex.chen", d)["to"] == ["bad address"]
    with pytest.raises(NotFound):
        compose.get_draft(store, "priya.raman", d)
    compose.discard_draft(store, alex, d)
    assert compose.list_drafts(store, "alex.chen") == []


def test_split_quote_and_snippet():
    main, quoted = service.split_quote("Thanks.\n\nOn Fri, Apr 3, 2026 at 4:12 PM Eleanor <e@x.com> wrote:\n> hi")
    assert main == "Thanks." and quoted.startswith("On Fri")
    assert service.snippet("Hello there\n> quoted") == "Hello there"
