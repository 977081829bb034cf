"""Suggesting mode in the service layer: suggestion records beside the accepted text, saving the editor's
<ins>/<del>, accept and reject one or all, who may do what, and the other edits keeping suggestions."""
from __future__ import annotations

import pytest

from apps.core.errors import Forbidden, Invalid, NotFound
from apps.core.store.db import Caller
from apps.core.store.export import content_changes, diff, export
from apps.docs import blocks as B
from apps.docs import review
from apps.docs import service as docs
from apps.docs import suggest as S

from tests.apps.docs.test_service import SETTLEMENT, V2, doc_id

ALEX = Caller(user="alex.chen")


def new_doc(store, *texts):
    return docs.create(store, ALEX, None, "Suggestions", [B.block("paragraph", t) for t in texts])


def html_of(store, did):
    return S.editor_html(store, did, docs.read_blocks(store, did))


def test_parse_and_draw_round_trip():
    b = [B.block("paragraph", "The fund is large.", 0, [[4, 8, "bold", True]])]
    sg = {0: [{"id": 5, "kind": "insert", "start": 12, "end": 12, "text": "very ", "author": "a"},
              {"id": 6, "kind": "delete", "start": 2, "end": 6, "text": "e fu", "author": "a"}]}
    html = B.to_html(b, sg)
    assert '<ins data-suggestion="5" data-author="a">very </ins>' in html and html.count("<del") == 2
    blocks, parsed = B.parse(B.sanitize(html))
    assert blocks == b                                  # suggestions are not the block's text
    assert [(p["kind"], p["start"], p["end"], p["text"]) for p in parsed] == [
        ("insert", 12, 12, "very "), ("delete", 2, 6, "e fu")]     # a deletion across formatting is one
    assert B.from_html(B.sanitize(html)) == b


def test_suggest_read_and_text_with_and_without(store):
    did = new_doc(store, "The fund is large.", "Second.")
    ids = review.suggest(store, ALEX, did, 0, 12, 17, "small")
    assert len(ids) == 2
    got = review.suggestions(store, "alex.chen", did)
    assert [(s["kind"], s["text"], s["index"], s["start"], s["end"], s["author"], s["status"]) for s in got] == [
        ("delete", "large", 0, 12, 17, "alex.chen", "pending"), ("insert", "small", 0, 17, 17, "alex.chen", "pending")]
    assert docs.text(store, did) == "The fund is large.\nSecond."                 # the accepted text
    assert docs.text_if_accepted(store, did) == "The fund is small.\nSecond."
    assert docs.markdown(store, "alex.chen", did).startswith("The fund is large.")
    with pytest.raises(Invalid):
        review.suggest(store, ALEX, did, 5, 0, 0, "x")
    with pytest.raises(Invalid):
        review.suggest(store, ALEX, did, 0, 3, 99, "x")
    with pytest.raises(Invalid):
        review.suggest(store, ALEX, did, 0, 3, 3, "")
    with pytest.raises(Invalid):
        review.suggestions(store, "alex.chen", did, "maybe")


def test_saving_the_editor_keeps_moves_and_drops_suggestions(store):
    did = new_doc(store, "The fund is large.")
    review.suggest(store, ALEX, did, 0, 12, 17, "small")
    html = html_of(store, did)
    # typing before the suggestions (Editing mode) moves them with their text
    changed, made = docs.save_editor(store, ALEX, did, html.replace("<p>The", "<p>Now the"))
    assert changed and made == {}
    assert [(s["start"], s["end"]) for s in review.suggestions(store, "alex.chen", did)] == [(16, 21), (21, 21)]
    # a new insertion the page named by a tag becomes a record; saving it again is not a second one
    html = html_of(store, did).replace("</p>", '<ins data-suggestion="t7-1" data-author="alex.chen">!</ins></p>')
    _, made = docs.save_editor(store, ALEX, did, html)
    assert list(made) == ["t7-1"]
    _, again = docs.save_editor(store, ALEX, did, html.replace(">!<", ">!!<"))
    assert again == {}
    new = store.get("docs_suggestions", made["t7-1"])
    assert (new["kind"], new["text"], new["author"], new["start"]) == ("insert", "!!", "alex.chen", 22)
    # the page no longer shows a suggestion: it is gone (its author took it back)
    docs.save_editor(store, ALEX, did, "<p>Now the fund is large.</p>")
    assert review.suggestions(store, "alex.chen", did) == []
    assert docs.text(store, did) == "Now the fund is large."


def test_accept_and_reject_one_and_all(store):
    did = new_doc(store, "The fund is large.", "Limit fixed.")
    d, i = review.suggest(store, ALEX, did, 0, 12, 17, "small")
    (n,) = review.suggest(store, ALEX, did, 1, 0, 0, "The ")
    review.accept(store, ALEX, d)
    assert docs.text(store, did) == "The fund is .\nLimit fixed."
    assert store.get("docs_suggestions", i)["start"] == 12                     # moved with the text
    review.reject(store, ALEX, n)
    assert docs.text_if_accepted(store, did) == "The fund is small.\nLimit fixed."
    with pytest.raises(Invalid):
        review.accept(store, ALEX, n)                                             # already decided
    with pytest.raises(NotFound):
        review.accept(store, ALEX, 999999)
    assert review.accept_all(store, ALEX, did) == 1
    assert docs.text(store, did) == "The fund is small.\nLimit fixed."
    assert review.reject_all(store, ALEX, did) == 0
    every = review.suggestions(store, "alex.chen", did, None)
    assert [(s["id"], s["status"], s["resolved_by"]) for s in sorted(every, key=lambda s: s["id"])] == [
        (d, "accepted", "alex.chen"), (i, "accepted", "alex.chen"), (n, "rejected", "alex.chen")]


def test_accepting_keeps_formatting_and_comments_in_place(store):
    did = docs.create(store, ALEX, None, "F", [B.block("paragraph", "Pay the fund now.", 0, [[8, 12, "bold", True]])])
    review.suggest(store, ALEX, did, 0, 4, 4, "all of ")
    review.accept_all(store, ALEX, did)
    (b,) = docs.read_blocks(store, did)
    assert b["text"] == "Pay all of the fund now." and b["marks"] == [[15, 19, "bold", True]]


def test_commenters_suggest_but_do_not_decide_or_edit(store):
    laura = Caller(user="laura.whitfield")        # commenter on the settlement draft
    sid = doc_id(store, SETTLEMENT)
    d = docs.get(store, "laura.whitfield", sid)
    html = S.editor_html(store, sid, d["blocks"])
    first = d["blocks"][1]["text"]
    suggested = html.replace(first, first + '<ins data-suggestion="t1-1" data-author="x">, as amended</ins>', 1)
    changed, made = docs.save_editor(store, laura, sid, suggested)
    assert changed and list(made) == ["t1-1"]
    s = store.get("docs_suggestions", made["t1-1"])
    assert (s["author"], s["text"], s["status"]) == ("laura.whitfield", ", as amended", "pending")
    assert docs.get(store, "laura.whitfield", sid)["blocks"] == d["blocks"]      # the text is unchanged
    with pytest.raises(Forbidden):
        docs.save_editor(store, laura, sid, html.replace(first, first + " (amended)", 1))
    with pytest.raises(Forbidden):
        review.accept(store, laura, s["id"])
    assert review.suggest(store, laura, sid, 1, 0, 0, "Re: ")
    review.reject(store, laura, s["id"])                                          # her own: she may withdraw it
    assert store.get("docs_suggestions", s["id"])["status"] == "rejected"
    henry = Caller(user="henry.adeyemi")          # viewer
    with pytest.raises(Forbidden):
        review.suggest(store, henry, doc_id(store, V2), 0, 0, 0, "x")


def test_other_edits_keep_suggestions(store):
    did = new_doc(store, "The fund is large.", "")
    review.suggest(store, ALEX, did, 0, 12, 17, "small")
    assert docs.replace_text(store, ALEX, did, "fund", "limitation fund") == 1
    assert docs.text_if_accepted(store, did) == "The limitation fund is small.\n"
    docs.append_markdown(store, ALEX, did, "New para.")
    docs.insert_markdown(store, ALEX, did, -1, "# Heading")
    assert docs.text(store, did) == "Heading\nThe limitation fund is large.\nNew para."
    assert docs.text_if_accepted(store, did) == "Heading\nThe limitation fund is small.\nNew para."
    assert [s["index"] for s in review.suggestions(store, "alex.chen", did)] == [1, 1]


def test_opening_and_saving_a_world_document_with_suggestions_unchanged_writes_nothing(store):
    did = doc_id(store, V2)
    review.suggest(store, ALEX, did, 2, 0, 0, "Draft: ")
    before = export(store)
    assert docs.save_editor(store, ALEX, did, html_of(store, did)) == (False, {})
    assert content_changes(diff(before, export(store))) == []


def test_docx_writes_pending_suggestions_as_tracked_changes(store):
    import io
    import re
    import zipfile
    did = docs.create(store, ALEX, None, "F", [B.block("paragraph", "The fund is large.", 0, [[4, 8, "bold", True]])])
    d, i = review.suggest(store, ALEX, did, 0, 12, 17, "small")
    xml = zipfile.ZipFile(io.BytesIO(docs.docx_bytes(store, "alex.chen", did))).read("word/document.xml").decode()
    assert re.search(r'<w:del w:id="\d+" w:author="Alex Chen" w:date="[^"]+"><w:r>.*?<w:delText>large</w:delText>', xml)
    assert re.search(r'<w:ins w:id="\d+" w:author="Alex Chen" w:date="[^"]+"><w:r>.*?<w:t>small</w:t>', xml)
    assert xml.index("<w:delText>large") < xml.index("<w:t>small")
    review.accept_all(store, ALEX, did)
    xml = zipfile.ZipFile(io.BytesIO(docs.docx_bytes(store, "alex.chen", did))).read("word/document.xml").decode()
    assert "<w:ins" not in xml and "<w:del " not in xml and "small" in xml


def test_a_deletion_and_an_insertion_at_its_place_are_one_replace_card(store):
    did = new_doc(store, "The fund is large.")
    d, i = review.suggest(store, ALEX, did, 0, 12, 17, "small")
    (n,) = review.suggest(store, ALEX, did, 0, 0, 0, "Now ")
    got = review.cards(review.suggestions(store, "alex.chen", did), pair=True)
    assert [(c["ids"], c["kind"], c["old"], c["new"]) for c in got] == [
        ([n], "insert", "", "Now "), ([d, i], "replace", "large", "small")]
    assert [c["ids"] for c in review.cards(review.suggestions(store, "alex.chen", did))] == [[n], [d], [i]]
    review.decide(store, ALEX, did, [d, i], False)
    assert [c["ids"] for c in review.cards(review.suggestions(store, "alex.chen", did), pair=True)] == [[n]]
