"""Version history: automatic versions as the document is saved (the original kept), naming the current
version, the history page, restoring a version; bad input refused and changing nothing."""
from __future__ import annotations

import pytest

from apps.core.errors import Forbidden, Invalid, NotFound
from apps.core.store.db import Caller
from apps.core.store.export import content_changes, diff, export
from apps.docs import review
from apps.docs import service as docs
from apps.docs import suggest as S
from apps.docs import versions as V

from tests.apps.docs.test_service import SETTLEMENT, V2, doc_id

ALEX = Caller(user="alex.chen")


def edit(store, did, old, new):
    html = S.editor_html(store, did, docs.read_blocks(store, did))
    assert old in html
    assert docs.save_html(store, ALEX, did, html.replace(old, new, 1))


def test_saves_make_versions_and_the_original_is_kept(store):
    did = doc_id(store, V2)
    assert V.versions(store, "alex.chen", did) == []
    original = docs.text(store, did)
    edit(store, did, "deficient by", "deficient, clearly, by")
    edit(store, did, "clearly", "plainly")                   # the same person straight after: the same version
    vs = V.versions(store, "alex.chen", did)
    assert [(v["author"], v["current"]) for v in vs] == [("alex.chen", True), ("sofia.marchetti", False)]
    assert vs[1]["text"] == original and "plainly" in vs[0]["text"]
    assert V.name_current(store, ALEX, did, "  Sent to   Eleanor ") == vs[0]["id"]
    store.advance(3600)
    edit(store, did, "plainly", "manifestly")
    vs = V.versions(store, "alex.chen", did)
    assert [v["name"] for v in vs] == [None, "Sent to Eleanor", None]
    assert [v["name"] for v in V.versions(store, "alex.chen", did, named_only=True)] == ["Sent to Eleanor"]
    assert "plainly" in vs[1]["text"]                        # a named version never changes
    # restore the named version
    assert V.restore(store, ALEX, vs[1]["id"])
    assert "plainly" in docs.text(store, did) and "manifestly" not in docs.text(store, did)
    assert V.versions(store, "alex.chen", did)[0]["current"]
    # suggesting and deciding are changes too
    review.suggest(store, ALEX, did, 2, 0, 0, "Draft: ")
    store.advance(3600)
    review.accept_all(store, ALEX, did)
    assert "Draft: " in V.versions(store, "alex.chen", did)[0]["text"]


def test_bad_names_other_people_and_unknown_versions(store):
    did = doc_id(store, V2)
    before = export(store)
    for bad in ("", "   ", "x" * 101):
        with pytest.raises(Invalid):
            V.name_current(store, ALEX, did, bad)
    with pytest.raises(Forbidden):
        V.name_current(store, Caller(user="henry.adeyemi"), did, "Mine")          # a viewer
    with pytest.raises(NotFound):
        V.restore(store, ALEX, 99999)
    assert content_changes(diff(before, export(store))) == []
    vid = V.name_current(store, ALEX, did, "Start")                                 # naming with no edits yet
    assert V.versions(store, "alex.chen", did)[0]["name"] == "Start"
    with pytest.raises(Forbidden):
        V.restore(store, Caller(user="henry.adeyemi"), vid)
    with pytest.raises(NotFound):
        V.version(store, "laura.whitfield", vid)                                   # can't open the document


def test_routes(client, hx, slot):
    with slot.store() as st:
        did = doc_id(st, V2)
        edit(st, did, "deficient by", "deficient, clearly, by")
    r = hx.post(f"/docs/d/{did}/versions", data={"name": "First pass"})
    assert r.status_code == 200 and b"Version named." in r.data
    assert hx.post(f"/docs/d/{did}/versions", data={"name": " "}).status_code == 422
    page = client.get(f"/docs/d/{did}/history")
    assert page.status_code == 200 and b"First pass" in page.data and b"Current version" in page.data
    assert b"Restore this version" not in page.data                               # the current one
    with slot.store() as st:
        first = V.versions(st, "alex.chen", did)[-1]
    page = client.get(f"/docs/d/{did}/history?v={first['id']}")
    assert b"Restore this version" in page.data and b"deficient, clearly, by" not in page.data
    assert b"First pass" in client.get(f"/docs/d/{did}/history?named=1").data
    assert client.get(f"/docs/d/{did}/history?v=99999").status_code == 404
    r = client.post(f"/docs/versions/{first['id']}/restore")
    assert r.status_code == 302 and r.headers["Location"].endswith(f"/docs/d/{did}")
    with slot.store() as st:
        assert "deficient, clearly, by" not in docs.text(st, did)
    assert client.post("/docs/versions/99999/restore").status_code == 404
    assert b'data-cmd="versionHistory"' in client.get(f"/docs/d/{did}").data
