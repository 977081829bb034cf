"""Every Service Desk route through the Flask client, with bad input: 404 for unknown records and other people's
tickets, 422 with the rule shown inline and nothing written, HTML inert, refresh hooks present."""
from __future__ import annotations

import pytest

from apps.core.store.db import Caller
from apps.tickets import service as S
from tests.conftest import make_client


def q(slot, sql, params=()):
    with slot.store() as st:
        return st.scalar(sql, params)


def writes(slot):
    return q(slot, "SELECT count(*) FROM _writes")


def inc(slot, number="INC0010421"):
    with slot.store() as st:
        return S.get_incident(st, "jordan.blake", number)


def item_id(slot, name="New laptop"):
    return q(slot, "SELECT id FROM tk_catalog WHERE name=?", (name,))


def test_pages_render_and_write_nothing(tclient, tslot):
    before = writes(tslot)
    for url in ["/tickets/", "/tickets/incident", "/tickets/incident?quick=open", "/tickets/incident?quick=mine",
                "/tickets/incident?quick=unassigned", "/tickets/incident?quick=p1", "/tickets/incident?quick=breached",
                "/tickets/incident?quick=my_groups", "/tickets/incident?f=state:is:New&sort=opened_at&dir=asc&page=2",
                "/tickets/incident?cf=priority&co=is&cv=1&cf=account&co=contains&cv=harrow", "/tickets/incident?q=freshness",
                "/tickets/request", "/tickets/change", "/tickets/change?quick=open",
                "/tickets/incident/new", "/tickets/change/new", "/tickets/incident/INC0010421",
                "/tickets/request/REQ0002001", "/tickets/change/CHG0000310", "/tickets/incident/INC0010421/activity",
                "/tickets/incident/INC0010421/kb-search", "/tickets/incident/INC0010421/kb-search?q=backfill",
                "/tickets/incident/INC0010421/kb-related", "/tickets/kb", "/tickets/kb?q=backfill",
                "/tickets/kb?category=Pipelines", "/tickets/kb/KB0001207", "/tickets/catalog",
                "/tickets/catalog?category=Hardware", "/tickets/catalog?q=laptop", f"/tickets/catalog/{item_id(tslot)}",
                "/tickets/search?q=harrowgate", "/tickets/search?q=", "/tickets/ref/caller?q=nad",
                "/tickets/ref/account?q=harr", "/tickets/ref/caller?field=caller_id&caller_id=raj"]:
        r = tclient.get(url, follow_redirects=True)
        assert r.status_code == 200, url
        assert r.headers["Cache-Control"] == "no-store"
    assert writes(tslot) == before


def test_incident_form_shows_the_record(tclient):
    html = tclient.get("/tickets/incident/INC0010421").data.decode()
    assert "<title>INC0010421 | Freshness monitor delayed 6h" in html
    assert 'hx-trigger="deskworld:refresh from:body"' in html and 'id="tk-activity"' in html
    assert "1 - Critical" in html and "Pipeline Ops" in html and "Ines Duarte" in html and "Nadia Fell" in html
    assert "Work notes" in html and "Additional comments (Customer visible)" in html
    assert "Attached knowledge" in html and "SLA breached" in html


def test_lists_refresh_sort_and_page(tclient):
    html = tclient.get("/tickets/incident?quick=open").data.decode()
    assert 'hx-trigger="deskworld:refresh from:body"' in html and "INC0010421" in html
    assert "INC0010421" in tclient.get("/tickets/incident?cf=number&co=is&cv=INC0010421").data.decode()
    html = tclient.get("/tickets/incident?sort=number&dir=asc").data.decode()
    assert 'aria-sort="ascending"' in html and "1 to 20 of" in html


@pytest.mark.parametrize("url", ["/tickets/incident?f=colour:is:red", "/tickets/incident?f=state:like:x",
                                 "/tickets/incident?quick=nope", "/tickets/incident?page=x"])
def test_bad_list_queries_are_422(tclient, url):
    r = tclient.get(url)
    assert r.status_code == 422


@pytest.mark.parametrize("url", ["/tickets/incident/INC9999999", "/tickets/widget", "/tickets/widget/X1",
                                 "/tickets/kb/KB9999999", "/tickets/catalog/99999", "/tickets/ref/planets",
                                 "/tickets/request/REQ9999999", "/tickets/change/CHG0000001"])
def test_unknown_things_are_404(tclient, url):
    assert tclient.get(url).status_code == 404


def test_save_triage_updates_and_writes_history(tclient, tslot):
    r = tclient.post("/tickets/incident/INC0010433", data={
        "impact": "High", "urgency": "High", "assignment_group": str(q(tslot, "SELECT id FROM tk_groups WHERE name='Pipeline Ops'")),
        "assigned_to": "ines.duarte", "work_note": "Same root cause as INC0010421."}, headers={"HX-Request": "true"})
    assert r.status_code == 200
    rec = inc(tslot, "INC0010433")
    assert rec["priority"] == 1 and rec["assigned_to"] == "ines.duarte"
    assert q(tslot, "SELECT count(*) FROM tk_history WHERE field='Priority' AND new='1 - Critical'") == 1
    assert q(tslot, "SELECT text FROM tk_journal WHERE kind='work_note' ORDER BY id DESC LIMIT 1") == "Same root cause as INC0010421."


def test_forbidden_transition_is_422_inline_and_writes_nothing(tclient, tslot):
    before = writes(tslot)
    r = tclient.post("/tickets/incident/INC0010421", data={"state": "Closed"}, headers={"HX-Request": "true"})
    assert r.status_code == 422
    assert "Only a Resolved incident can be closed" in r.data.decode()
    assert writes(tslot) == before and inc(tslot)["state"] == "In Progress"
    r = tclient.post("/tickets/incident/INC0010421", data={"state": "Resolved", "resolution_code": ""})
    assert r.status_code == 422 and "Resolved needs a Resolution code and Resolution notes" in r.data.decode()
    r = tclient.post("/tickets/incident/INC0010421", data={"assigned_to": "lena.fischer"})
    assert r.status_code == 422 and "is not a member of Pipeline Ops" in r.data.decode()
    assert writes(tslot) == before


def test_resolve_with_notes_then_update_goes_back_to_the_list(tclient, tslot):
    r = tclient.post("/tickets/incident/INC0010421", data={"state": "Resolved", "resolution_code": "Solution provided",
                                                           "resolution_notes": "Backfilled per KB0001207.", "then": "list"})
    assert r.status_code == 302 and "/tickets/incident" in r.headers["Location"]
    rec = inc(tslot)
    assert rec["state"] == "Resolved" and rec["resolution_notes"] == "Backfilled per KB0001207."


def test_journal_posts_and_empty_is_422(tclient, tslot):
    r = tclient.post("/tickets/incident/INC0010421/journal", data={"entry": "comment", "comment": "<b>Hi</b> Nadia"},
                     headers={"HX-Request": "true"})
    assert r.status_code == 200 and "&lt;b&gt;Hi&lt;/b&gt; Nadia" in r.data.decode()
    assert q(tslot, "SELECT kind FROM tk_journal ORDER BY id DESC LIMIT 1") == "comment"
    before = writes(tslot)
    r = tclient.post("/tickets/incident/INC0010421/journal", data={"entry": "work_note", "work_note": "  "})
    assert r.status_code == 422 and "Type a work note first." in r.data.decode()
    r = tclient.post("/tickets/incident/INC0010421/journal", data={"entry": "shout", "comment": "x"})
    assert r.status_code == 422
    assert writes(tslot) == before


def test_attach_and_detach_knowledge(tclient, tslot):
    r = tclient.post("/tickets/incident/INC0010433/kb", data={"kb": "KB0001207"}, headers={"HX-Request": "true"})
    assert r.status_code == 200 and "KB0001207" in r.data.decode()
    assert r.headers["HX-Trigger"] == "tk-activity"
    assert tclient.post("/tickets/incident/INC0010433/kb", data={"kb": "KB0001207"}).status_code == 422
    assert tclient.post("/tickets/incident/INC0010433/kb", data={"kb": "KB000"}).status_code == 404
    r = tclient.post("/tickets/incident/INC0010433/kb/KB0001207/detach")
    assert r.status_code == 200
    assert tclient.post("/tickets/incident/INC0010433/kb/KB0001207/detach").status_code == 404


def test_create_incident_and_bad_create(tclient, tslot):
    r = tclient.post("/tickets/incident/new", data={"caller_id": "Raj Iyer", "short_description": "Login loop",
                                                    "category": "Login", "impact": "Medium", "urgency": "High"})
    assert r.status_code == 302
    num = r.headers["Location"].rsplit("/", 1)[1]
    rec = inc(tslot, num)
    assert rec["caller_id"] == "raj.iyer" and rec["priority"] == 2 and rec["opened_by"] == "jordan.blake"
    before = writes(tslot)
    r = tclient.post("/tickets/incident/new", data={"caller_id": "", "short_description": ""})
    assert r.status_code == 422 and "Enter a" in r.data.decode()
    assert writes(tslot) == before


def test_create_change(tclient, tslot):
    r = tclient.post("/tickets/change/new", data={"short_description": "Patch kernel", "risk": "Low", "type": "Standard"})
    assert r.status_code == 302
    assert tclient.post("/tickets/change/new", data={"short_description": ""}).status_code == 422
    r = tclient.post("/tickets/change/CHG0000310", data={"state": "New"})
    assert r.status_code == 422


def test_bulk_update_reports_failures(tclient, tslot):
    with tslot.store() as st:
        closed = next(r["number"] for r in S.list_records(st, "jordan.blake", "incident", per_page=500)["rows"]
                      if r["state"] == "Closed" and r["group_name"] == "Pipeline Ops")
    r = tclient.post("/tickets/incident/bulk", data={"t": ["INC0010433", closed], "assigned_to": "ines.duarte", "state": "In Progress",
                                                      "back": "/tickets/incident?quick=open"},
                     headers={"HX-Request": "true"})
    html = r.data.decode()
    assert r.status_code == 200 and "Updated 1 of 2" in html and closed in html and "nothing leaves Closed" in html
    assert inc(tslot, "INC0010433")["assigned_to"] == "ines.duarte"
    r = tclient.post("/tickets/incident/bulk", data={"t": [], "state": "Resolved"})
    assert r.status_code == 422
    r = tclient.post("/tickets/incident/bulk", data={"t": ["INC0010433"]})
    assert r.status_code == 422


def test_catalog_order_and_validation(tclient, tslot):
    iid = item_id(tslot)
    before = writes(tslot)
    r = tclient.post(f"/tickets/catalog/{iid}", data={"v_model": "Commodore 64"})
    html = r.data.decode()
    assert r.status_code == 422 and "is not a choice for Model" in html and "is required" in html
    assert writes(tslot) == before
    with tslot.store() as st:
        item = S.catalog_item(st, "jordan.blake", iid)
    data = {f"v_{f['name']}": (f["choices"][0] if f["type"] == "choice" else "Onboarding") for f in item["fields"]
            if f["required"]}
    r = tclient.post(f"/tickets/catalog/{iid}", data={**data, "requested_for": "Rachel Kim"})
    assert r.status_code == 302 and "/tickets/request/REQ" in r.headers["Location"]
    num = r.headers["Location"].split("/")[-1].split("?")[0]
    with tslot.store() as st:
        req = S.get_request(st, "jordan.blake", num)
    assert req["requested_for"] == "rachel.kim" and req["opened_by"] == "jordan.blake"
    page = tclient.get(r.headers["Location"]).data.decode()
    assert "your request has been submitted" in page and num in page


def test_search_jumps_to_a_number(tclient):
    r = tclient.get("/tickets/search?q=inc0010421")
    assert r.status_code == 302 and r.headers["Location"].endswith("/tickets/incident/INC0010421")
    assert tclient.get("/tickets/search?q=KB0001207").headers["Location"].endswith("/tickets/kb/KB0001207")
    html = tclient.get("/tickets/search?q=freshness monitor delayed 6h").data.decode()
    assert "INC0010421" in html and "KB0001207" in html


def test_kb_article_markdown_is_sanitised(tclient, tslot):
    with tslot.store() as st:
        st.update("tk_kb", st.scalar("SELECT id FROM tk_kb WHERE number='KB0001207'"), "system",
                  body="## Steps\n\n<script>alert(1)</script>\n\n**bold** [x](javascript:alert(1))")
    html = tclient.get("/tickets/kb/KB0001207").data.decode()
    assert "<h2>Steps</h2>" in html and "<strong>bold</strong>" in html
    assert "<script>alert(1)" not in html and 'href="javascript' not in html


def test_external_people_get_404_for_others_tickets(tapp, tslot):
    nadia = make_client(tapp, "nadia.fell")
    assert nadia.get("/tickets/incident/INC0010421").status_code == 200
    with tslot.store() as st:
        other = next(r["number"] for r in S.list_records(st, "jordan.blake", "incident", per_page=500)["rows"]
                     if r["caller_id"] != "nadia.fell")
    assert nadia.get(f"/tickets/incident/{other}").status_code == 404
    assert nadia.post("/tickets/incident/INC0010421", data={"urgency": "Low"}).status_code == 403
    html = nadia.get("/tickets/incident?quick=open").data.decode()
    assert other not in html
    r = nadia.post("/tickets/incident/INC0010421/journal", data={"entry": "comment", "comment": "Thanks"})
    assert r.status_code == 200


def test_refresh_sees_a_coworkers_write(tclient, tslot):
    with tslot.store() as st:
        S.add_work_note(st, Caller("ines.duarte", "ines.duarte"), "incident", "INC0010421", "Backfill 60% done")
    assert "Backfill 60% done" in tclient.get("/tickets/incident/INC0010421/activity").data.decode()
