"""The CRM service layer on the lumen world: validation rules (every refused change says why and
writes nothing), stage history, lead conversion, list views, activities, reports and search."""
from __future__ import annotations

import pytest

from apps.core.errors import Invalid, NotFound
from apps.core.store.db import Caller
from apps.crm import service as S
from tests.apps.crm.conftest import opp, writes

USER = "jordan.blake"


def new_opp(**over):
    base = {"name": "Harrowgate – Data Quality Add-on", "account": "harrowgate", "stage": "Discovery",
            "amount": "120,000", "close_date": "2026-09-30"}
    return {**base, **over}


def refused(store, fn, *args, field=None, match=None, **kw):
    """Call ``fn``; it must raise Invalid (on ``field``, mentioning ``match``) and write nothing."""
    before = writes(store)
    with pytest.raises(Invalid) as e:
        fn(*args, **kw)
    assert writes(store) == before, "a refused change wrote something"
    if field:
        assert field in (e.value.errors or {e.value.field: e.value.message}), (e.value.errors, e.value.message)
    if match:
        text = e.value.message + " " + " ".join((e.value.errors or {}).values())
        assert match.lower() in text.lower(), text
    return e.value


# ---------------------------------------------------------------- visibility
def test_staff_see_everything_outsiders_nothing(store):
    assert S.is_internal(store, USER) and S.is_internal(store, "miguel.santos")
    assert not S.is_internal(store, "nadia.fell")
    h = opp(store)
    assert h["amount"] == 480000 and h["close_date"] == "2026-06-30" and h["stage"] == "Negotiation"
    assert h["owner"] == "miguel.santos" and h["account_name"] == "Harrowgate Logistics" and h["probability"] == 80
    for fn, args in [(S.get, ("opportunities", h["id"])), (S.list_records, ("accounts",)),
                     (S.pipeline, ()), (S.report, ()), (S.timeline, ("opportunities", h["id"]))]:
        with pytest.raises(NotFound):
            fn(store, "nadia.fell", *args)
    with pytest.raises(NotFound):
        S.update(store, Caller("nadia.fell", "nadia.fell"), "opportunities", h["id"], amount=1)
    assert S.search(store, "nadia.fell", "harrowgate") == []


def test_reading_writes_nothing(store):
    before = writes(store)
    h = opp(store)
    S.list_records(store, USER, "opportunities", view="mine", q="harrow", sort="-amount")
    S.timeline(store, USER, "accounts", h["account"])
    S.stage_history(store, USER, h["id"])
    S.pipeline(store, USER, "all", "THIS_QUARTER")
    S.report(store, USER, "owner")
    S.dashboard(store, USER)
    S.search(store, USER, "harrowgate")
    assert writes(store) == before


# ---------------------------------------------------------------- create and validation
def test_create_opportunity_defaults_probability_and_history(store, jordan):
    rid = S.create(store, jordan, "opportunities", **new_opp())
    o = S.get(store, USER, "opportunities", rid)
    assert o["amount"] == 120000 and o["probability"] == 40 and o["owner"] == USER
    assert o["account_name"] == "Harrowgate Logistics" and o["slug"] == "harrowgate-data-quality-add-on"
    h = S.stage_history(store, USER, rid)
    assert [(x["from_stage"], x["to_stage"], x["by"]) for x in h] == [(None, "Discovery", USER)]
    assert h[0]["at"] == store.now_iso()


@pytest.mark.parametrize("values, field, match", [
    (new_opp(name="  "), "name", "Complete this field"),
    (new_opp(account=""), "account", "Complete this field"),
    (new_opp(account="no-such-account"), "account", "No account matches"),
    (new_opp(close_date=""), "close_date", "Complete this field"),
    (new_opp(close_date="30/06/2026"), "close_date", "2026-06-30"),
    (new_opp(close_date="2026-02-30"), "close_date", "format"),
    (new_opp(stage="Won"), "stage", "isn't a Stage value"),
    (new_opp(amount="-5"), "amount", "can't be negative"),
    (new_opp(amount="lots"), "amount", "Enter a number"),
    (new_opp(amount=""), "amount", "Complete this field"),
    (new_opp(amount="10.50"), "amount", "whole-dollar"),
    (new_opp(stage="Closed Lost"), "loss_reason", "required when the stage is Closed Lost"),
    (new_opp(stage="Closed Won", amount="0"), "amount", "greater than 0"),
    (new_opp(loss_reason="Price"), "loss_reason", "only for opportunities that are Closed Lost"),
    (new_opp(loss_reason="Too expensive", stage="Closed Lost"), "loss_reason", "isn't a Loss Reason"),
    (new_opp(owner="nadia.fell"), "owner", "isn't a CRM user"),
    (new_opp(owner="nobody.here"), "owner", "isn't a user"),
    (new_opp(contact="nadia.fell", account="pinecrest-pay"), "contact", "must work at the opportunity's account"),
])
def test_invalid_opportunities_are_refused(store, jordan, values, field, match):
    if field == "contact" and not store.scalar("SELECT 1 FROM crm_accounts WHERE slug='pinecrest-pay'"):
        other = store.scalar("SELECT slug FROM crm_accounts WHERE slug<>'harrowgate' ORDER BY id")
        values = {**values, "account": other}
    refused(store, S.create, store, jordan, "opportunities", field=field, match=match, **values)


def test_every_missing_field_is_reported_at_once(store, jordan):
    e = refused(store, S.create, store, jordan, "opportunities", name="")
    assert {"name", "account", "close_date", "amount"} <= set(e.errors)
    assert e.message.startswith("Opportunity Name: Complete this field.")


def test_contact_and_lead_validation(store, jordan):
    refused(store, S.create, store, jordan, "contacts", last_name="Lee", account="harrowgate", email="lee@",
            field="email", match="valid email")
    refused(store, S.create, store, jordan, "contacts", first_name="Al", account="harrowgate",
            field="last_name", match="Complete")
    refused(store, S.create, store, jordan, "contacts", last_name="Lee", field="account", match="Complete")
    refused(store, S.create, store, jordan, "leads", last_name="Lee", company="Acme", status="Converted",
            field="status", match="use Convert")
    refused(store, S.create, store, jordan, "accounts", name="Acme", employees="-3", field="employees")
    refused(store, S.create, store, jordan, "opportunities", color="red", **new_opp())
    cid = S.create(store, jordan, "contacts", first_name="Mae", last_name="Lee", account="harrowgate",
                   email="Mae.Lee@Harrowgate.com", title="VP Data")
    c = S.get(store, USER, "contacts", cid)
    assert c["email"] == "mae.lee@harrowgate.com" and c["title"] == "VP Data" and c["name"] == "Mae Lee"
    lid = S.create(store, jordan, "leads", last_name="Okoro", company="Okoro Freight")
    assert S.get(store, USER, "leads", lid)["status"] == "New"


# ---------------------------------------------------------------- stage changes
def test_stage_change_writes_history_and_probability(store, jordan):
    h = opp(store)
    before = len(S.stage_history(store, USER, h["id"]))
    assert S.update(store, jordan, "opportunities", h["id"], stage="Proposal") == ["probability", "stage"]
    o = S.get(store, USER, "opportunities", h["id"])
    assert o["probability"] == 60
    hist = S.stage_history(store, USER, h["id"])
    assert len(hist) == before + 1
    assert (hist[0]["from_stage"], hist[0]["to_stage"], hist[0]["by"], hist[0]["at"]) == \
        ("Negotiation", "Proposal", USER, store.now_iso())
    S.update(store, jordan, "opportunities", h["id"], stage="Proposal", next_step="Call Nadia")
    assert len(S.stage_history(store, USER, h["id"])) == before + 1          # no stage change, no history


def test_closed_lost_needs_a_reason_closed_won_an_amount(store, jordan):
    h = opp(store)
    e = refused(store, S.set_stage, store, jordan, h["id"], "Closed Lost", field="loss_reason")
    assert "Loss Reason" in e.message
    refused(store, S.set_stage, store, jordan, h["id"], "Closed Lost", "Because", field="loss_reason")
    S.set_stage(store, jordan, h["id"], "Closed Lost", "Competitor")
    o = S.get(store, USER, "opportunities", h["id"])
    assert (o["stage"], o["loss_reason"], o["probability"]) == ("Closed Lost", "Competitor", 0)
    # reopening clears the reason
    S.set_stage(store, jordan, h["id"], "Negotiation")
    assert S.get(store, USER, "opportunities", h["id"])["loss_reason"] is None
    S.update(store, jordan, "opportunities", h["id"], amount=0)
    refused(store, S.set_stage, store, jordan, h["id"], "Closed Won", field="amount", match="greater than 0")
    refused(store, S.update, store, jordan, "opportunities", h["id"], stage="Closed Won", amount="-1",
            field="amount", match="negative")
    S.update(store, jordan, "opportunities", h["id"], stage="Closed Won", amount=500000)
    o = S.get(store, USER, "opportunities", h["id"])
    assert (o["stage"], o["amount"], o["probability"]) == ("Closed Won", 500000, 100)
    assert [x["to_stage"] for x in S.stage_history(store, USER, h["id"])[:3]] == \
        ["Closed Won", "Negotiation", "Closed Lost"]


def test_writes_record_the_actor(store, miguel):
    h = opp(store)
    S.set_stage(store, miguel, h["id"], "Proposal")
    actors = {r["actor"] for r in store.all("SELECT actor FROM _writes")}
    assert actors == {"miguel.santos"}
    assert S.stage_history(store, USER, h["id"])[0]["by"] == "miguel.santos"


# ---------------------------------------------------------------- lead conversion
def test_convert_lead_creates_account_contact_opportunity(store, jordan):
    lead = S.by_slug(store, USER, "leads", "brookfield-dental-ava-lin")
    assert lead["status"] != "Converted" and lead["locations"] == 14
    out = S.convert_lead(store, jordan, lead["id"])
    acc = S.get(store, USER, "accounts", out["account"])
    con = S.get(store, USER, "contacts", out["contact"])
    o = S.get(store, USER, "opportunities", out["opportunity"])
    assert acc["name"] == "Brookfield Dental Group" and acc["industry"] == lead["industry"]
    assert (con["first_name"], con["last_name"], con["email"], con["account"]) == \
        ("Ava", "Lin", lead["email"], acc["id"])
    assert o["account"] == acc["id"] and o["stage"] == "Qualification" and o["contact"] == con["id"]
    assert o["close_date"] == "2026-06-30" and o["lead"] == lead["id"] and o["probability"] == 20
    assert S.stage_history(store, USER, o["id"])[0]["to_stage"] == "Qualification"
    lead = S.get(store, USER, "leads", lead["id"])
    assert lead["status"] == "Converted" and (lead["converted_account"], lead["converted_contact"],
                                              lead["converted_opportunity"]) == (acc["id"], con["id"], o["id"])
    # converted leads are read-only
    refused(store, S.convert_lead, store, jordan, lead["id"], match="already been converted")
    refused(store, S.update, store, jordan, "leads", lead["id"], title="COO", match="converted")
    refused(store, S.log_activity, store, jordan, "lead", lead["id"], "call", "Hi", match="converted")
    refused(store, S.add_note, store, jordan, "lead", lead["id"], "x", match="converted")


def test_convert_into_an_existing_account_and_contact(store, jordan):
    lid = S.create(store, jordan, "leads", first_name="Nadia", last_name="Fell", company="Harrowgate")
    nadia = S.by_slug(store, USER, "contacts", "nadia.fell")
    other = store.scalar("SELECT id FROM crm_contacts WHERE account<>? ORDER BY id", (nadia["account"],))
    refused(store, S.convert_lead, store, jordan, lid, account="harrowgate", contact=other, field="contact",
            match="must belong to the account")
    refused(store, S.convert_lead, store, jordan, lid, account="nowhere", field="account")
    refused(store, S.convert_lead, store, jordan, lid, account_name="  ", field="account_name")
    refused(store, S.convert_lead, store, jordan, lid, close_date="June", field="close_date")
    refused(store, S.convert_lead, store, jordan, lid, amount="-10", field="amount")
    refused(store, S.convert_lead, store, jordan, lid, stage="Closed Won", field="stage")
    n_acc = store.scalar("SELECT count(*) FROM crm_accounts")
    out = S.convert_lead(store, jordan, lid, account="harrowgate", contact="nadia.fell", create_opportunity=False)
    assert out == {"account": nadia["account"], "contact": nadia["id"], "opportunity": None}
    assert store.scalar("SELECT count(*) FROM crm_accounts") == n_acc


# ---------------------------------------------------------------- list views
def test_list_views_filters_search_sort_pages(store, jordan):
    everything = S.list_records(store, USER, "opportunities", per_page=500)
    assert everything["total"] == store.scalar("SELECT count(*) FROM crm_opportunities")
    neg = S.list_records(store, USER, "opportunities",
                         filters=[{"field": "stage", "op": "equals", "value": "Negotiation"},
                                  {"field": "close_date", "op": "equals", "value": "THIS_QUARTER"}],
                         sort="-amount", per_page=500)
    assert neg["total"] >= 1 and all(r["stage"] == "Negotiation" and "2026-04-01" <= r["close_date"] <= "2026-06-30"
                                     for r in neg["rows"])
    amounts = [r["amount"] for r in neg["rows"]]
    assert amounts == sorted(amounts, reverse=True)
    mine = S.list_records(store, "miguel.santos", "opportunities", view="mine", per_page=500)
    assert mine["total"] and all(r["owner"] == "miguel.santos" and r["stage"] not in S.CLOSED_STAGES
                                 for r in mine["rows"])
    found = S.list_records(store, USER, "opportunities", q="harrowgate renewal")
    assert "Harrowgate – FY27 Renewal" in [r["name"] for r in found["rows"]]
    p2 = S.list_records(store, USER, "contacts", page=2, per_page=50)
    assert p2["page"] == 2 and p2["first"] == 51 and len(p2["rows"]) == 50
    names = [r["name"].lower() for r in S.list_records(store, USER, "accounts", per_page=500)["rows"]]
    assert names == sorted(names)
    for bad, match in [({"field": "colour", "op": "equals", "value": "x"}, "choose a field"),
                       ({"field": "amount", "op": "contains", "value": "1"}, "doesn't work with"),
                       ({"field": "amount", "op": "gt", "value": "many"}, "needs a number"),
                       ({"field": "stage", "op": "equals", "value": "Won"}, "isn't a Stage value"),
                       ({"field": "close_date", "op": "equals", "value": "soon"}, "format"),
                       ({"field": "owner", "op": "equals", "value": "nobody"}, "isn't a user")]:
        with pytest.raises(Invalid) as e:
            S.list_records(store, USER, "opportunities", filters=[bad])
        assert match.lower() in e.value.message.lower()
    with pytest.raises(NotFound):
        S.list_records(store, USER, "opportunities", view="nope")


def test_saved_views_are_per_user(store, jordan, miguel):
    vid = S.save_view(store, jordan, "opportunities", "Big Q2 deals",
                      [{"field": "amount", "op": "ge", "value": "100000"},
                       {"field": "close_date", "op": "equals", "value": "this quarter"}], "-amount")
    v = S.get_view(store, USER, "opportunities", str(vid))
    assert v["filters"][1]["value"] == "THIS_QUARTER" and v["saved"]
    rows = S.list_records(store, USER, "opportunities", view=str(vid), per_page=500)["rows"]
    assert rows and all(r["amount"] >= 100000 for r in rows)
    refused(store, S.save_view, store, jordan, "opportunities", "big q2 deals", field="name", match="already have")
    refused(store, S.save_view, store, jordan, "opportunities", "All Opportunities", field="name")
    refused(store, S.save_view, store, jordan, "opportunities", " ", field="name")
    refused(store, S.save_view, store, jordan, "opportunities", "X", [{"field": "stage", "op": "gt", "value": "1"}])
    assert str(vid) not in [x["id"] for x in S.list_views(store, "miguel.santos", "opportunities")]
    with pytest.raises(NotFound):
        S.delete_view(store, miguel, vid)
    S.delete_view(store, jordan, vid)
    assert store.get("crm_views", vid) is None


def test_change_owner_in_bulk(store, jordan):
    ids = [r["id"] for r in S.list_records(store, USER, "accounts", per_page=3)["rows"]]
    assert S.change_owner(store, jordan, "accounts", ids, "rachel.kim") >= 1
    assert {S.get(store, USER, "accounts", i)["owner"] for i in ids} == {"rachel.kim"}
    refused(store, S.change_owner, store, jordan, "accounts", ids, "nadia.fell", field="owner")
    refused(store, S.change_owner, store, jordan, "accounts", [], "rachel.kim", field="ids")


# ---------------------------------------------------------------- activities, notes, delete
def test_activities_and_timeline(store, jordan):
    h = opp(store)
    call = S.log_activity(store, jordan, "opportunity", h["id"], "call", "Pricing call", "Nadia wants a discount",
                          at="2026-06-09T08:00")
    task = S.log_activity(store, jordan, "opportunity", h["id"], "task", "Send redlines", due="2026-06-12")
    meet = S.log_activity(store, jordan, "opportunity", h["id"], "meeting", "Exec sponsor sync",
                          at="2026-06-15T13:00")
    note = S.add_note(store, jordan, "opportunity", h["id"], "Risk", "Competitor in the deal")
    tl = S.timeline(store, USER, "opportunities", h["id"])
    up = [a["id"] for a in tl["upcoming"] if a["kind"] != "note"]
    assert task in up and meet in up
    assert call in [a["id"] for a in tl["past"] if a["kind"] == "call"]
    assert note in [a["id"] for a in tl["past"] if a["kind"] == "note"]
    assert store.get("crm_activities", call)["at"] == "2026-06-09T13:00:00Z"
    # the account's timeline rolls up its opportunities' activity
    acc_tl = S.timeline(store, USER, "accounts", h["account"])
    assert task in [a["id"] for a in acc_tl["upcoming"]]
    S.set_task_status(store, jordan, task, "Completed")
    assert store.get("crm_activities", task)["status"] == "Completed"
    refused(store, S.log_activity, store, jordan, "opportunity", h["id"], "call", " ", field="subject")
    refused(store, S.log_activity, store, jordan, "opportunity", h["id"], "fax", "Hi", field="kind")
    refused(store, S.log_activity, store, jordan, "opportunity", h["id"], "task", "Hi", due="12/40/2026",
            field="due")
    refused(store, S.log_activity, store, jordan, "opportunity", h["id"], "meeting", "Hi", at="tomorrow", field="at")
    refused(store, S.log_activity, store, jordan, "opportunity", h["id"], "task", "Hi", who="nadia.fell",
            field="who")
    refused(store, S.log_activity, store, jordan, "planet", 1, "call", "Hi", field="related_type")
    refused(store, S.set_task_status, store, jordan, call, "Completed", field="status")
    refused(store, S.add_note, store, jordan, "opportunity", h["id"], "", "", field="title")
    with pytest.raises(NotFound):
        S.log_activity(store, jordan, "opportunity", 999999, "call", "Hi")
    S.delete_activity(store, jordan, meet)
    S.delete_note(store, jordan, note)
    assert store.get("crm_activities", meet) is None and store.get("crm_notes", note) is None


def test_delete_account_takes_its_records(store, jordan):
    acc = S.by_slug(store, USER, "accounts", "harrowgate")
    n_c = store.scalar("SELECT count(*) FROM crm_contacts WHERE account=?", (acc["id"],))
    n_o = store.scalar("SELECT count(*) FROM crm_opportunities WHERE account=?", (acc["id"],))
    gone = S.delete(store, jordan, "accounts", acc["id"])
    assert gone["contacts"] == n_c and gone["opportunities"] == n_o
    for t in ("crm_contacts", "crm_opportunities", "crm_activities", "crm_notes"):
        assert not store.scalar(f"SELECT count(*) FROM {t} WHERE account=?", (acc["id"],))
    with pytest.raises(NotFound):
        S.get(store, USER, "accounts", acc["id"])


def test_clone_values(store, jordan):
    h = opp(store)
    vals = S.clone_values(store, USER, "opportunities", h["id"])
    rid = S.create(store, jordan, "opportunities", **{**vals, "name": "Harrowgate – FY28 Renewal"})
    c = S.get(store, USER, "opportunities", rid)
    assert (c["account"], c["amount"], c["stage"]) == (h["account"], h["amount"], h["stage"]) and c["id"] != h["id"]


# ---------------------------------------------------------------- pipeline, reports, search
def test_pipeline_report_dashboard_agree(store):
    cols = S.pipeline(store, USER, "all", "THIS_QUARTER")
    assert [c["stage"] for c in cols] == list(S.STAGES)
    neg = next(c for c in cols if c["stage"] == "Negotiation")
    assert "Harrowgate – FY27 Renewal" in [o["name"] for o in neg["opps"]]
    assert neg["total"] == sum(o["amount"] for o in neg["opps"])
    rep = S.report(store, USER, "stage", "THIS_QUARTER")
    assert rep["amount"] == sum(c["total"] for c in cols if c["stage"] in S.OPEN_STAGES)
    by_owner = S.report(store, USER, "owner", "THIS_QUARTER")
    assert by_owner["amount"] == rep["amount"] and by_owner["count"] == rep["count"]
    dash = S.dashboard(store, USER)
    assert dash["pipeline_total"] == rep["amount"]
    assert all(o["close_date"].startswith("2026-06") and o["stage"] in S.OPEN_STAGES for o in dash["closing"])
    mine = S.pipeline(store, USER, "mine", "all")
    assert all(o["owner"] == USER for c in mine for o in c["opps"])
    with pytest.raises(Invalid):
        S.pipeline(store, USER, "everyone")
    with pytest.raises(Invalid):
        S.report(store, USER, "colour")


def test_search_for_the_workspace(store):
    res = S.search(store, USER, "harrowgate", limit=5)
    assert 1 <= len(res) <= 5 and set(res[0]) == {"title", "subtitle", "url", "kind"}
    assert res[0]["kind"] == "account" and res[0]["title"] == "Harrowgate Logistics"
    assert res[0]["url"] == f"/crm/o/accounts/{S.by_slug(store, USER, 'accounts', 'harrowgate')['id']}"
    assert any(r["kind"] == "lead" for r in S.search(store, USER, "brookfield"))
    assert S.search(store, USER, "   ") == []
    assert S.search(store, USER, "zzzzqqq") == []
