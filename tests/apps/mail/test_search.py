"""Gmail's search operators over the meridian mailbox."""
from __future__ import annotations

import pytest

from apps.mail import service
from apps.mail.search import SearchError, tokenize


def subjects(store, q, user="alex.chen"):
    return [t["subject"] for t in service.search(store, user, q).threads]


def test_tokenize_operators_phrases_negation_or():
    terms = tokenize('from:sofia subject:"final survey" -draft "tern reef" OR x foo:bar')
    kinds = [(t.op, t.value, t.negate) if not isinstance(t, str) else t for t in terms]
    assert kinds == [("from", "sofia", False), ("subject", "final survey", False), (None, "draft", True),
                     (None, "tern reef", False), "OR", (None, "x", False), (None, "foo:bar", False)]


def test_from_and_has_attachment(store):
    found = subjects(store, "from:sofia has:attachment")
    assert found and any("Final survey report" in s for s in found)
    for t in service.search(store, "alex.chen", "from:sofia has:attachment").threads:
        assert t["attachments"]


def test_from_by_name_address_or_me(store):
    assert subjects(store, "from:sofia.marchetti@meridianshaw.com") == subjects(store, "from:sofia")
    mine = service.search(store, "alex.chen", "from:me").threads
    assert mine and all(any(n == "me" for n, _ in t["senders"]) or t["senders"][0][0].startswith("To:")
                        for t in mine)


def test_to_cc_subject_filename_label(store):
    assert any("Board pack" in s for s in subjects(store, "to:me from:laura"))
    assert subjects(store, 'subject:"final survey report"')
    assert all("final survey report" in s.lower() for s in subjects(store, 'subject:"final survey report"'))
    assert subjects(store, "filename:claims")
    assert subjects(store, 'label:"Court filings"') == subjects(store, "label:court-filings")
    assert subjects(store, "cc:eleanor")


def test_dates_are_world_local_days(store):
    after = service.search(store, "alex.chen", "after:2026/04/03").threads
    before = service.search(store, "alex.chen", "before:2026-04-03").threads
    assert after and before
    assert all(t["date"] >= "2026-04-03T04:00:00Z" for t in after)
    both = subjects(store, "after:2026/03/06 before:2026/03/07 survey")
    assert any("Final survey report" in s for s in both)


def test_negation_or_is_and_in(store):
    all_survey = set(subjects(store, "survey"))
    without = set(subjects(store, "survey -final"))
    assert without < all_survey
    either = set(subjects(store, "from:laura OR from:pryce"))
    assert either == set(subjects(store, "from:laura")) | set(subjects(store, "from:pryce"))
    assert subjects(store, "is:unread") and subjects(store, "is:starred")
    assert subjects(store, "in:trash") == []


def test_trash_is_searched_only_when_asked(store, alex):
    t = store.scalar("SELECT thread FROM mail_messages WHERE subject LIKE 'Board pack%'")
    service.apply(store, alex, [t], "trash")
    assert not any("Board pack" in s for s in subjects(store, "board pack"))
    assert any("Board pack" in s for s in subjects(store, "in:trash board pack"))
    assert any("Board pack" in s for s in subjects(store, "in:anywhere board pack"))


@pytest.mark.parametrize("q,part", [("before:2026-13-45", "date"), ("is:bogus", "is:"), ("in:nowhere", "in:"),
                                    ("has:pets", "has:"), ("OR from:x", "OR"), ("", "search")])
def test_bad_queries_say_what_is_wrong(store, q, part):
    with pytest.raises(SearchError) as e:
        service.search(store, "alex.chen", q)
    assert part.lower() in str(e.value).lower()


def test_no_other_users_mail_in_results(store):
    private = store.select("mail_messages", "sender='olav.brandt@northseamutual.com' AND id NOT IN "
                           "(SELECT message FROM mail_boxes WHERE owner='alex.chen')")[0]
    where, params = __import__("apps.mail.search", fromlist=["x"]).compile_query(store, "alex.chen", "from:olav")
    ids = [r[0] for r in store.all(f"SELECT m.id FROM mail_boxes b JOIN mail_messages m ON m.id=b.message "
                                   f"WHERE b.owner='alex.chen' AND {where}", ("alex.chen", *params)[1:])]
    assert private["id"] not in ids
    assert subjects(store, "from:olav", user="olav.brandt")
