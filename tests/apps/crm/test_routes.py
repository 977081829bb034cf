"""Every CRM route through the Flask client (lumen, Jordan Blake): pages render, bad input is a 422
with an inline message and nothing written, unknown records are 404, outsiders get 404, HTML stays
inert."""
from __future__ import annotations

import pytest

from apps.core.store.db import Caller
from apps.crm import service as S
from tests.conftest import make_client

USER = "jordan.blake"


def writes(slot) -> int:
    with slot.store() as st:
        return st.scalar("SELECT count(*) FROM _writes")


@pytest.fixture
def ids(slot):
    with slot.store() as st:
        return {"opp": S.by_slug(st, USER, "opportunities", "harrowgate-fy27-renewal")["id"],
                "acc": S.by_slug(st, USER, "accounts", "harrowgate")["id"],
                "lead": S.by_slug(st, USER, "leads", "brookfield-dental-ava-lin")["id"],
                "contact": S.by_slug(st, USER, "contacts", "nadia.fell")["id"]}


def opp(slot, rid):
    with slot.store() as st:
        return S.get(st, USER, "opportunities", rid)


def test_pages_render(client, ids):
    o, a, l, c = ids["opp"], ids["acc"], ids["lead"], ids["contact"]
    urls = ["/crm/", "/crm/dashboard", "/crm/pipeline", "/crm/pipeline?scope=mine&period=all", "/crm/reports", "/crm/reports/pipeline",
            "/crm/reports/pipeline?group=owner&period=NEXT_QUARTER&scope=mine", "/crm/search?q=harrowgate", "/crm/search",
            f"/crm/o/opportunities/{o}", f"/crm/o/accounts/{a}", f"/crm/o/leads/{l}", f"/crm/o/contacts/{c}",
            f"/crm/o/opportunities/{o}/edit", f"/crm/o/opportunities/{o}/clone", f"/crm/o/opportunities/{o}/delete",
            f"/crm/o/opportunities/{o}/close?stage=Closed%20Lost", f"/crm/o/opportunities/{o}/details?edit=1",
            f"/crm/o/leads/{l}/convert", "/crm/o/accounts/new", "/crm/lookup/accounts?q=harr",
            "/crm/lookup/users?owner__text=mig", f"/crm/lookup/contacts?account={a}",
            "/crm/o/opportunities/views/new?f=stage|equals|Proposal", f"/crm/o/accounts/owner?t={a}"]
    for obj in S.OBJECTS:
        urls += [f"/crm/o/{obj}", f"/crm/o/{obj}/new", f"/crm/o/{obj}?filters=1&sort=-created_at&page=2"]
        urls += [f"/crm/o/{obj}?view={v['id']}" for v in S.BUILTIN_VIEWS[obj]]
    for url in urls:
        r = client.get(url)
        assert r.status_code == 200, (url, r.status_code)
        assert r.headers["Cache-Control"] == "no-store"


def test_list_view_page(client):
    html = client.get("/crm/o/opportunities?view=mine&sort=-amount").data.decode()
    assert "My Open Opportunities" in html and 'hx-trigger="deskworld:refresh from:body"' in html
    assert 'aria-sort="descending"' in html and "Filtered by Opportunity Owner equals me" in html
    html = client.get("/crm/o/opportunities?f=stage|equals|Negotiation&f=close_date|equals|THIS_QUARTER&q=harrowgate").data.decode()
    assert "Harrowgate – FY27 Renewal" in html and "Close Date equals This Quarter" in html
    r = client.get("/crm/o/opportunities?nf=stage&nop=equals&nv=Proposal")
    assert r.status_code == 302 and "f=stage%7Cequals%7CProposal" in r.headers["Location"]


@pytest.mark.parametrize("url, text", [
    ("/crm/o/opportunities?nf=amount&nop=gt&nv=lots", "needs a number"),
    ("/crm/o/opportunities?nf=stage&nop=equals&nv=Won", "isn&#39;t a Stage value"),
    ("/crm/o/opportunities?nf=colour&nop=equals&nv=x", "choose a field"),
    ("/crm/o/opportunities?sort=colour", "Can&#39;t sort by"),
])
def test_bad_filters_are_shown_not_applied(client, url, text):
    r = client.get(url)
    assert r.status_code == 200 and text in r.data.decode()


@pytest.mark.parametrize("url", ["/crm/o/planets", "/crm/o/opportunities/999999", "/crm/o/accounts/999999/edit",
                                 "/crm/o/leads/999999/convert", "/crm/o/opportunities/999999/close",
                                 "/crm/o/opportunities?view=nope", "/crm/lookup/planets?q=x",
                                 "/crm/o/contacts/999999/details"])
def test_unknown_things_are_404(client, url):
    assert client.get(url).status_code == 404


def test_outsiders_get_404(app, ids):
    nadia = make_client(app, "nadia.fell")
    for url in ["/crm/", "/crm/o/accounts", f"/crm/o/opportunities/{ids['opp']}", "/crm/pipeline", "/crm/search?q=a"]:
        assert nadia.get(url).status_code == 404, url
    r = nadia.post(f"/crm/o/opportunities/{ids['opp']}/stage", data={"stage": "Proposal"})
    assert r.status_code == 404


def test_create_with_bad_input_is_422_and_writes_nothing(hx, slot):
    before = writes(slot)
    r = hx.post("/crm/o/opportunities", data={"name": "", "account__text": "Nowhere Inc", "stage": "Closed Lost",
                                              "amount": "-3", "close_date": "2026-13-01"})
    html = r.data.decode()
    assert r.status_code == 422 and "We hit a snag" in html
    assert "Complete this field." in html and "can&#39;t be negative" in html and "No account matches" in html
    assert "allowed format" in html
    assert writes(slot) == before
    r = hx.post("/crm/o/contacts", data={"last_name": "Lee", "account__text": "Harrowgate Logistics",
                                         "email": "lee.at.example"})
    assert r.status_code == 422 and "valid email" in r.data.decode()
    assert writes(slot) == before


def test_create_edit_clone_delete(hx, slot, ids):
    r = hx.post("/crm/o/opportunities", data={"name": "<b>Harrowgate</b> add-on", "account": str(ids["acc"]),
                                              "stage": "Proposal", "amount": "$25,000", "close_date": "2026-08-15",
                                              "owner": "rachel.kim", "type": "Expansion", "loss_reason": ""})
    assert r.status_code == 204 and r.headers["HX-Redirect"].startswith("/crm/o/opportunities/")
    rid = int(r.headers["HX-Redirect"].rsplit("/", 1)[1])
    o = opp(slot, rid)
    assert (o["amount"], o["owner"], o["probability"], o["type"]) == (25000, "rachel.kim", 60, "Expansion")
    page = hx.get(o["url"]).data.decode()
    assert "&lt;b&gt;Harrowgate&lt;/b&gt; add-on" in page and "<b>Harrowgate</b>" not in page
    r = hx.post(f"/crm/o/opportunities/{rid}", data={"name": "Renamed", "account": str(ids["acc"]),
                                                     "stage": "Closed Won", "amount": "0",
                                                     "close_date": "2026-08-15"})
    assert r.status_code == 422 and "greater than 0" in r.data.decode()
    assert opp(slot, rid)["name"] == "<b>Harrowgate</b> add-on"
    r = hx.post(f"/crm/o/opportunities/{rid}", data={"name": "Renamed"})
    assert r.status_code == 204 and opp(slot, rid)["name"] == "Renamed"
    assert "Renamed" in hx.get(f"/crm/o/opportunities/{rid}/clone").data.decode()
    r = hx.post(f"/crm/o/opportunities/{rid}/delete")
    assert r.status_code == 204 and r.headers["HX-Redirect"] == "/crm/o/opportunities"
    assert hx.get(f"/crm/o/opportunities/{rid}").status_code == 404


def test_inline_details_save(hx, slot, ids):
    before = writes(slot)
    r = hx.post(f"/crm/o/opportunities/{ids['opp']}/details", data={"next_step": "x", "close_date": "someday"})
    assert r.status_code == 422 and "allowed format" in r.data.decode() and 'data-inline-form' in r.data.decode()
    assert writes(slot) == before
    r = hx.post(f"/crm/o/opportunities/{ids['opp']}/details", data={"next_step": "Call Nadia"})
    assert r.status_code == 204 and opp(slot, ids["opp"])["next_step"] == "Call Nadia"


def test_stage_routes(hx, slot, ids):
    o = ids["opp"]
    r = hx.post(f"/crm/o/opportunities/{o}/stage", data={"stage": "Closed Lost"})
    assert r.status_code == 200 and "Close This Opportunity" in r.data.decode() and r.headers["HX-Retarget"] == "#modal"
    before = writes(slot)
    r = hx.post(f"/crm/o/opportunities/{o}/stage", data={"stage": "Closed Lost", "dialog": "1"})
    assert r.status_code == 422 and "required when the stage is Closed Lost" in r.data.decode()
    r = hx.post(f"/crm/o/opportunities/{o}/stage", data={"stage": "Closed Lost", "loss_reason": "Vibes", "dialog": "1"})
    assert r.status_code == 422 and "isn&#39;t a Loss Reason" in r.data.decode()
    r = hx.post(f"/crm/o/opportunities/{o}/stage", data={"stage": "Sideways"})
    assert r.status_code == 422
    assert writes(slot) == before and opp(slot, o)["stage"] == "Negotiation"
    r = hx.post(f"/crm/o/opportunities/{o}/stage", data={"stage": "Closed Lost", "loss_reason": "Timing", "dialog": "1"})
    assert r.status_code == 204 and opp(slot, o)["loss_reason"] == "Timing"


def test_pipeline_move(hx, slot, ids):
    o = ids["opp"]
    r = hx.post("/crm/pipeline/move", data={"opportunity": o, "stage": "Closed Lost"})
    assert "Close This Opportunity" in r.data.decode() and opp(slot, o)["stage"] == "Negotiation"
    r = hx.post("/crm/pipeline/move", data={"opportunity": o, "stage": "Discovery", "scope": "all",
                                            "period": "THIS_QUARTER"})
    assert r.status_code == 200 and r.headers["HX-Retarget"] == "#crm-board" and 'id="crm-board"' in r.data.decode()
    assert opp(slot, o)["stage"] == "Discovery"
    assert hx.post("/crm/pipeline/move", data={"opportunity": o, "stage": "Nowhere"}).status_code == 422
    assert hx.post("/crm/pipeline/move", data={"opportunity": 999999, "stage": "Discovery"}).status_code == 404
    assert hx.post("/crm/pipeline/move", data={"opportunity": o, "stage": "Proposal", "scope": "x"}).status_code == 422
    assert opp(slot, o)["stage"] == "Discovery"          # a bad scope is refused before the move is written
    assert hx.get("/crm/pipeline?period=forever").status_code == 422
    assert hx.get("/crm/reports/pipeline?group=colour").status_code == 422


def test_convert_routes(hx, slot, ids):
    lid = ids["lead"]
    before = writes(slot)
    r = hx.post(f"/crm/o/leads/{lid}/convert", data={"account_mode": "existing", "account__text": "No Such Co",
                                                     "opportunity_name": "X", "close_date": "2026-06-30"})
    assert r.status_code == 422 and "No account matches" in r.data.decode()
    r = hx.post(f"/crm/o/leads/{lid}/convert", data={"account_mode": "new", "account_name": "Brookfield Dental Group",
                                                     "opportunity_name": "", "close_date": "2026-06-30"})
    assert r.status_code == 422 and "Complete this field" in r.data.decode()
    assert writes(slot) == before
    r = hx.post(f"/crm/o/leads/{lid}/convert", data={"account_mode": "new", "account_name": "Brookfield Dental Group",
                                                     "opportunity_name": "Brookfield – Pilot", "close_date": "2026-06-30",
                                                     "stage": "Discovery", "amount": "40000", "owner": "rachel.kim"})
    assert r.status_code == 200 and "Your lead has been converted" in r.data.decode()
    with slot.store() as st:
        lead = S.get(st, USER, "leads", lid)
        o = S.get(st, USER, "opportunities", lead["converted_opportunity"])
    assert lead["status"] == "Converted" and (o["name"], o["stage"], o["owner"]) == ("Brookfield – Pilot", "Discovery",
                                                                                    "rachel.kim")
    assert hx.post(f"/crm/o/leads/{lid}/convert", data={}).status_code == 422
    assert hx.get(f"/crm/o/leads/{lid}/convert").status_code == 422
    assert hx.get(f"/crm/o/leads/{lid}/edit").status_code == 422
    assert hx.post(f"/crm/o/leads/{lid}", data={"title": "x"}).status_code == 422


def test_activity_routes(hx, slot, ids):
    o = ids["opp"]
    before = writes(slot)
    r = hx.post(f"/crm/o/opportunities/{o}/activities", data={"kind": "task", "subject": "", "due": "soon"})
    html = r.data.decode()
    assert r.status_code == 422 and "Complete this field" in html and 'id="crm-activity"' in html
    r = hx.post(f"/crm/o/opportunities/{o}/activities", data={"kind": "meeting", "subject": "QBR", "at": "lunch"})
    assert r.status_code == 422
    assert hx.post(f"/crm/o/opportunities/{o}/activities", data={"kind": "fax", "subject": "x"}).status_code == 422
    assert writes(slot) == before
    r = hx.post(f"/crm/o/opportunities/{o}/activities", data={"kind": "task", "subject": "Send <i>redlines</i>",
                                                              "due": "2026-06-12", "who": "miguel.santos"})
    assert r.status_code == 200 and "Send &lt;i&gt;redlines&lt;/i&gt;" in r.data.decode()
    with slot.store() as st:
        aid = st.scalar("SELECT max(id) FROM crm_activities")
        assert st.get("crm_activities", aid)["who"] == "miguel.santos"
    r = hx.post(f"/crm/activities/{aid}/status", data={"status": "Completed", "obj": "opportunities", "rid": o})
    assert r.status_code == 200
    assert hx.post(f"/crm/activities/{aid}/status", data={"status": "Done"}).status_code == 422
    assert hx.post("/crm/activities/999999/status", data={"status": "Completed"}).status_code == 404
    r = hx.post(f"/crm/o/opportunities/{o}/activities", data={"kind": "note", "subject": "", "body": ""})
    assert r.status_code == 422
    r = hx.post(f"/crm/o/opportunities/{o}/activities", data={"kind": "note", "subject": "Risk", "body": "Competitor"})
    assert r.status_code == 200
    with slot.store() as st:
        nid = st.scalar("SELECT max(id) FROM crm_notes")
    assert hx.post(f"/crm/notes/{nid}/delete", data={"obj": "opportunities", "rid": o}).status_code == 200
    assert hx.post(f"/crm/activities/{aid}/delete", data={"obj": "opportunities", "rid": o}).status_code == 200
    assert hx.post("/crm/notes/999999/delete").status_code == 404


def test_saved_views_and_owner_routes(hx, slot, ids):
    r = hx.post("/crm/o/opportunities/views", data={"name": "", "f": "stage|equals|Proposal"})
    assert r.status_code == 422 and "Enter a name" in r.data.decode()
    r = hx.post("/crm/o/opportunities/views", data={"name": "All Opportunities"})
    assert r.status_code == 422 and "already have" in r.data.decode()
    r = hx.post("/crm/o/opportunities/views", data={"name": "Q", "f": "stage|gt|Proposal"})
    assert r.status_code == 422
    assert hx.post("/crm/o/opportunities/views", data={"name": "Q", "f": "broken"}).status_code == 422
    r = hx.post("/crm/o/opportunities/views", data={"name": "My proposals", "f": "stage|equals|Proposal",
                                                    "base_view": "mine", "sort": "-amount"})
    assert r.status_code == 204
    with slot.store() as st:
        v = st.select("crm_views")[-1]
    assert v["name"] == "My proposals" and v["owner"] == USER and len(v["filters"]) == 3
    assert "My proposals" in hx.get(f"/crm/o/opportunities?view={v['id']}").data.decode()
    assert hx.post(f"/crm/views/{v['id']}/delete").status_code == 204
    assert hx.post(f"/crm/views/{v['id']}/delete").status_code == 404
    assert hx.get("/crm/o/accounts/owner").status_code == 422
    r = hx.post("/crm/o/accounts/owner", data={"ids": [ids["acc"]], "owner__text": "Nadia Fell"})
    assert r.status_code == 422 and "CRM user" in r.data.decode()
    r = hx.post("/crm/o/accounts/owner", data={"ids": [ids["acc"]], "owner": "rachel.kim"})
    assert r.status_code == 204
    with slot.store() as st:
        assert S.get(st, USER, "accounts", ids["acc"])["owner"] == "rachel.kim"


def test_search_page_and_lookup(client):
    html = client.get("/crm/search?q=brookfield").data.decode()
    assert "Ava Lin" in html and "Leads (" in html
    assert "No results" in client.get("/crm/search?q=zzqqxx").data.decode()
    html = client.get("/crm/lookup/accounts?q=harrowgate").data.decode()
    assert 'data-label="Harrowgate Logistics"' in html
    assert "No matches" in client.get("/crm/lookup/users?q=nadia").data.decode()     # outsiders can't own records


def test_refresh_fragments(hx, ids):
    """Views a co-worker's write can change re-fetch themselves as fragments."""
    for url, marker in [("/crm/o/opportunities?view=mine", 'id="crm-list"'),
                        (f"/crm/o/opportunities/{ids['opp']}", 'id="crm-record"'),
                        ("/crm/pipeline", 'id="crm-board"')]:
        html = hx.get(url).data.decode()
        assert marker in html and "<html" not in html, url


def test_a_contacts_related_opportunities_are_the_ones_naming_them(client, slot, ids):
    with slot.store() as st:
        opps = S.opportunities_of(st, USER, ids["acc"])
        S.update(st, Caller(user=USER), "opportunities", ids["opp"], contact=ids["contact"])
    page = client.get(f"/crm/o/contacts/{ids['contact']}").get_data(as_text=True)
    assert "Harrowgate – FY27 Renewal" in page
    others = [o["name"] for o in opps if o["id"] != ids["opp"] and o.get("contact") != ids["contact"]]
    assert others and not any(f">{name}<" in page for name in others)
