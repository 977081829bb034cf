"""Saved reports (the report builder) and picklist sorting on lumen: definitions stored in
crm_reports, run from the store, exported; every bad input refused with its field named and
nothing written; the builder's routes."""
from __future__ import annotations

import pytest

from apps.core.errors import Invalid, NotFound
from apps.core.store.db import Caller
from apps.crm import service as S
from tests.apps.crm.conftest import writes

USER = "jordan.blake"
ME = Caller(user=USER)


def test_stage_sorts_in_picklist_order(store):
    rows = S.list_records(store, USER, "opportunities", sort="stage", per_page=200)["rows"]
    idx = [S.STAGES.index(r["stage"]) for r in rows]
    assert idx == sorted(idx) and len(set(idx)) > 2
    rows = S.list_records(store, USER, "opportunities", sort="-stage", per_page=200)["rows"]
    idx = [S.STAGES.index(r["stage"]) for r in rows]
    assert idx == sorted(idx, reverse=True)
    leads = S.list_records(store, USER, "leads", view="all", sort="status", per_page=200)["rows"]
    li = [S.LEAD_STATUSES.index(r["status"]) for r in leads]
    assert li == sorted(li)


def test_save_run_and_export_a_report(store):
    rid = S.save_report(store, ME, "Renewals by stage", "opportunities", ["name", "account", "amount", "stage"],
                        [{"field": "type", "op": "equals", "value": "Renewal"}], "stage", "-amount", "For QBR")
    r = store.get("crm_reports", rid)
    assert (r["object"], r["columns"], r["group_by"], r["sort"], r["owner"]) == \
        ("opportunities", ["name", "account", "amount", "stage"], "stage", "-amount", USER)
    res = S.run_report(store, USER, rid)
    want = [o for o in S.list_records(store, USER, "opportunities", per_page=200)["rows"] if o["type"] == "Renewal"]
    assert res["count"] == len(want) > 0
    assert res["sum"] == sum(o["amount"] for o in want)
    keys = [g["key"] for g in res["groups"]]
    assert keys == sorted(keys, key=S.STAGES.index)
    for g in res["groups"]:
        amounts = [o["amount"] for o in g["rows"]]
        assert amounts == sorted(amounts, reverse=True)
    csv = S.export_csv(res).splitlines()
    assert csv[0] == "Opportunity Name,Account Name,Amount,Stage"
    assert len(csv) == len(want) + 1
    assert [x["name"] for x in S.list_reports(store, USER)] == ["Renewals by stage"]
    S.save_report(store, ME, "Renewals by stage (v2)", "opportunities", ["name"], report_id=rid)
    assert store.get("crm_reports", rid)["columns"] == ["name"]
    S.delete_report(store, ME, rid)
    assert store.get("crm_reports", rid) is None


@pytest.mark.parametrize("args,field", [
    (dict(name="", obj="opportunities"), "name"),
    (dict(name="x" * 81, obj="opportunities"), "name"),
    (dict(name="R", obj="cases"), "object"),
    (dict(name="R", obj="opportunities", columns=["colour"]), "columns"),
    (dict(name="R", obj="opportunities", columns=[]), "columns"),
    (dict(name="R", obj="opportunities", group_by="amount"), "group_by"),
    (dict(name="R", obj="opportunities", sort="-colour"), "sort"),
    (dict(name="R", obj="opportunities", filters=[{"field": "stage", "op": "equals", "value": "Won"}]), "filters"),
])
def test_bad_definitions_are_refused(store, args, field):
    before = writes(store)
    with pytest.raises(Invalid) as e:
        S.save_report(store, ME, **args)
    assert e.value.field == field
    assert writes(store) == before


def test_names_unique_and_reports_private(store):
    rid = S.save_report(store, ME, "Mine", "accounts")
    with pytest.raises(Invalid):
        S.save_report(store, ME, "mine", "leads")
    with pytest.raises(NotFound):
        S.run_report(store, "miguel.santos", rid)


def test_report_routes(client, store):
    assert client.get("/crm/reports").status_code == 200
    assert client.get("/crm/reports/pipeline?group=owner&period=NEXT_QUARTER&scope=mine").status_code == 200
    r = client.get("/crm/reports/builder?type=opportunities")
    assert r.status_code == 200 and b"Add column" in r.data
    r = client.get("/crm/reports/builder?type=opportunities&cols=1&col=name&add_col=type")
    assert r.status_code == 302 and "col=type" in r.location
    r = client.get("/crm/reports/builder?type=opportunities&cols=1&col=name&nf=stage&nop=equals&nv=Proposal")
    assert r.status_code == 302 and "f=stage" in r.location
    assert client.get("/crm/reports/builder?type=opportunities&nf=stage&nop=equals&nv=Won").status_code == 422
    assert client.get("/crm/reports/builder?type=cases").status_code == 422
    r = client.post("/crm/reports/save", data={"type": "opportunities", "cols": "1", "col": ["name", "amount"],
                                               "group": "stage", "sort_by": "amount", "sort_dir": "desc",
                                               "name": "Big deals"})
    assert r.status_code in (302, 303) or r.headers.get("HX-Redirect")
    rep = store.one("SELECT * FROM crm_reports WHERE name='Big deals'")
    assert rep["group_by"] == "stage" and rep["sort"] == "-amount"
    assert client.post("/crm/reports/save", data={"type": "opportunities", "name": ""}).status_code == 422
    assert client.get(f"/crm/reports/{rep['id']}").status_code == 200
    exp = client.get(f"/crm/reports/{rep['id']}/export")
    assert exp.status_code == 200 and exp.data.startswith(b"Opportunity Name,Amount")
    assert client.get(f"/crm/reports/builder?report={rep['id']}").status_code == 302
    assert client.get("/crm/reports/999999").status_code == 404
    assert client.post(f"/crm/reports/{rep['id']}/delete").status_code in (200, 302, 303)
    assert store.get("crm_reports", rep["id"]) is None
