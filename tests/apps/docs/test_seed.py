"""World documents' front matter: comments and a colleague's pending suggested edits, and the errors a bad
entry gives (the file and the field named)."""
from __future__ import annotations

from apps.docs import service
from apps.docs.seed import _difference
from tests.apps.worldfiles import compile_error

OUTLINE = ("drive/sofia.marchetti/Matters/Corvane – Aurelia Dawn (M-2026-0147)/06 Internal Memos/"
           "Hearing Outline – Fund Adequacy Hearing (April 22).gdoc.md")


def _outline(store) -> int:
    return store.select("drive_items", "kind='doc' AND name LIKE 'Hearing Outline%'")[0]["ref"]


def test_front_matter_suggestions_are_pending_records_and_leave_the_text_alone(store):
    did = _outline(store)
    recs = store.select("docs_suggestions", "doc=?", (did,), order="id")
    assert {(r["author"], r["status"]) for r in recs} == {("priya.raman", "pending")}
    assert [(r["kind"], r["text"]) for r in recs] == [
        ("insert", " (Vessel Particulars, section 3)"), ("delete", "$2,750"), ("insert", "$2,600"),
        ("delete", "4"), ("insert", "6"), ("insert", "per gross ton ")]
    text = service.text(store, did)
    assert "(Vessel Particulars, section 3)" not in text and "the rate was $2,750" in text
    after = service.text_if_accepted(store, did)
    assert "(Vessel Particulars, section 3)" in after and "the rate was $2,600" in after
    assert "Held back for reply: 6 minutes" in after and "$2,600 per gross ton (Complaint" in after


def test_a_replacement_is_a_whole_word_an_insertion_only_what_is_new():
    assert _difference("the rate was $2,750", "the rate was $2,600") == (13, 19, "$2,600")
    assert _difference("Certificate —", "Certificate (section 3) —") == (12, 12, "(section 3) ")
    assert _difference("a fine day", "a day") == (2, 7, "")


def broken(tmp_path, world, old: str, new: str) -> str:
    return compile_error(tmp_path, world, OUTLINE, old, new)


def test_a_suggestion_by_someone_unknown_is_an_error(tmp_path, world):
    msg = broken(tmp_path, world, "  - author: priya.raman\n    date: \"2026-04-05T18:20:00\"",
                 "  - author: priya.ramen\n    date: \"2026-04-05T18:20:00\"")
    assert "Hearing Outline" in msg and "suggestions.0" in msg and "priya.ramen" in msg


def test_a_suggestion_whose_text_is_not_in_the_document_is_an_error(tmp_path, world):
    msg = broken(tmp_path, world, '    find: "Held back for reply: 4 minutes"', '    find: "Held back for rebuttal: 4 minutes"')
    assert "suggestions.2.find" in msg and "Held back for rebuttal" in msg


def test_a_suggestion_that_changes_nothing_is_an_error(tmp_path, world):
    msg = broken(tmp_path, world, '    replace: "Held back for reply: 6 minutes"', '    replace: "Held back for reply: 4 minutes"')
    assert "suggestions.2.replace" in msg and "nothing is suggested" in msg


def test_an_unknown_front_matter_key_is_an_error(tmp_path, world):
    msg = broken(tmp_path, world, "suggestions:\n", "suggestion:\n")
    assert "Hearing Outline" in msg and "suggestion" in msg
