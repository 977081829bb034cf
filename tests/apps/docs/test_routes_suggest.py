"""Suggestion routes through the Flask client: saving suggestions (the page learns their ids), accept and
reject one or all, and bad input (unknown, already decided, not allowed) changing nothing."""
from __future__ import annotations

import json

from apps.core.store.export import content_changes, diff, export
from apps.docs import review
from apps.docs import service as docs
from apps.docs import suggest as S
from apps.core.store.db import Caller

from tests.apps.docs.test_routes import V2, doc_id
from tests.apps.docs.test_service import SETTLEMENT


def html_of(slot, did):
    with slot.store() as st:
        return S.editor_html(st, did, docs.read_blocks(st, did))


def test_editor_shows_suggestions_cards_and_the_mode_menu(client, slot):
    did = doc_id(slot)
    with slot.store() as st:
        review.suggest(st, Caller("alex.chen"), did, 2, 0, 0, "Draft: ")
    r = client.get(f"/docs/d/{did}")
    assert r.status_code == 200
    assert b'<ins data-suggestion="' in r.data and b'aria-label="Suggestion by Alex Chen"' in r.data
    assert b'aria-label="Mode: Editing"' in r.data and b"Accept all" in r.data and b'data-mode="editing"' in r.data


def test_save_names_new_suggestions_and_accept_reject(hx, slot):
    did = doc_id(slot)
    html = html_of(slot, did)
    para = "deficient by"
    suggested = html.replace(para, 'deficient <ins data-suggestion="t5-1" data-author="alex.chen">materially </ins>by', 1)
    r = hx.post(f"/docs/d/{did}/save", data={"html": suggested})
    assert r.status_code == 200 and b'id="suggestions-panel" hx-swap-oob="true"' in r.data
    made = json.loads(r.headers["HX-Trigger"])["docs-suggestions"]["map"]
    sid = made["t5-1"]
    with slot.store() as st:
        s = st.get("docs_suggestions", sid)
        assert (s["kind"], s["text"], s["author"], s["status"]) == ("insert", "materially ", "alex.chen", "pending")
        assert not any("materially" in t for t in docs.text(st, did).split("\n"))
    r = hx.post(f"/docs/suggestions/{sid}/accept")
    assert r.status_code == 200 and b"Suggestion accepted." in r.data and b'id="doc-content"' in r.data
    with slot.store() as st:
        assert "deficient materially by" in docs.text(st, did)
        assert st.get("docs_suggestions", sid)["status"] == "accepted"
    before = export_of(slot)
    r = hx.post(f"/docs/suggestions/{sid}/reject")                          # already decided
    assert r.status_code == 422 and b"already accepted or rejected" in r.data
    assert hx.post("/docs/suggestions/99999/accept").status_code == 404
    for bad in ("abc", "99999"):
        r = hx.post(f"/docs/suggestions/{sid}/accept", data={"with": bad})
        assert r.status_code == 422 and b"in this document" in r.data
    assert hx.post(f"/docs/d/{did}/suggestions/maybe-all").status_code == 404
    r = hx.post(f"/docs/d/{did}/suggestions/accept-all")
    assert r.status_code == 200 and b"No suggestions to review." in r.data
    assert content_changes(diff(before, export_of(slot))) == []


def test_reject_one_and_accept_all(hx, slot):
    did = doc_id(slot)
    with slot.store() as st:
        a = review.suggest(st, Caller("alex.chen"), did, 2, 0, 0, "Draft: ")[0]
        b = review.suggest(st, Caller("alex.chen"), did, 3, 0, 0, "Note: ")[0]
        before = docs.text(st, did)
    r = hx.post(f"/docs/suggestions/{a}/reject")
    assert r.status_code == 200 and b"Suggestion rejected." in r.data
    r = hx.post(f"/docs/d/{did}/suggestions/accept-all")
    assert r.status_code == 200 and b"1 suggestion accepted." in r.data
    with slot.store() as st:
        lines = docs.text(st, did).split("\n")
        assert lines[2] == before.split("\n")[2] and lines[3].startswith("Note: ")
        assert [st.get("docs_suggestions", x)["status"] for x in (a, b)] == ["rejected", "accepted"]


def test_commenter_suggests_through_the_editor_but_cannot_accept(app, slot):
    from tests.conftest import make_client
    laura = make_client(app, "laura.whitfield")
    sid = doc_id(slot, SETTLEMENT)
    page = laura.get(f"/docs/d/{sid}")
    assert b'contenteditable="true"' in page.data and b'data-mode="suggesting"' in page.data
    assert b'aria-label="Mode: Suggesting"' in page.data and b'data-mode="editing"' not in page.data
    html = html_of(slot, sid)
    hdr = {"HX-Request": "true"}
    r = laura.post(f"/docs/d/{sid}/save", headers=hdr, data={"html": html.replace("</h1>", '<ins data-suggestion="t2-1" data-author="laura.whitfield"> (v2)</ins></h1>', 1)})
    assert r.status_code == 200
    new = json.loads(r.headers["HX-Trigger"])["docs-suggestions"]["map"]["t2-1"]
    before = export_of(slot)
    assert laura.post(f"/docs/d/{sid}/save", headers=hdr, data={"html": html.replace("</h1>", " (v2)</h1>", 1)}).status_code == 403
    assert laura.post(f"/docs/suggestions/{new}/accept", headers=hdr).status_code == 403
    assert laura.post(f"/docs/d/{sid}/suggestions/accept-all", headers=hdr).status_code == 403
    assert content_changes(diff(before, export_of(slot))) == []
    henry = make_client(app, "henry.adeyemi")                                     # a viewer of V2
    assert henry.post(f"/docs/d/{doc_id(slot)}/suggestions/reject-all", headers=hdr).status_code == 403


def export_of(slot):
    with slot.store() as st:
        return export(st)


def test_replace_the_nth_match_and_bad_occurrences(hx, slot):
    did = doc_id(slot)
    with slot.store() as st:
        text = docs.text(st, did)
    n = text.lower().count("halcyon")
    assert n >= 2
    r = hx.post(f"/docs/d/{did}/replace", data={"find": "Halcyon", "replace": "HALCYON-2", "all": "0", "occurrence": "2"})
    assert r.status_code == 200
    with slot.store() as st:
        after = docs.text(st, did)
    i = after.index("HALCYON-2")
    assert after[:i].lower().count("halcyon") == 1                    # the second one, not the first
    before = export_of(slot)
    for bad in ("0", "x", str(n + 5)):
        r = hx.post(f"/docs/d/{did}/replace", data={"find": "Halcyon", "replace": "y", "all": "0", "occurrence": bad})
        assert r.status_code == 422, bad
    assert content_changes(diff(before, export_of(slot))) == []
