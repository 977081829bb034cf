"""Issue 21 without a browser: encoded queries (^, ^OR, ^NQ), Canceled, the CMDB and its reference
fields, Task SLAs, grouping, personalized columns, and the new routes with their bad inputs."""
from __future__ import annotations

import re

import pytest

from apps.core.errors import Invalid
from apps.core.store.db import Caller
from apps.tickets import service as S


def numbers(res):
    return {r["number"] for r in res["rows"]}


def test_encoded_query_round_trip_and_semantics(st):
    text = "state=New^ORstate=On Hold^category=Billing^NQassigned_to=hana.sato"
    q = S.parse_query(text, "incident")
    assert S.encode_query(q) == text
    got = numbers(S.list_records(st, "jordan.blake", "incident", query=text, per_page=500))
    rows = S.list_records(st, "jordan.blake", "incident", per_page=500)["rows"]
    want = {r["number"] for r in rows if (r["state"] in ("New", "On Hold") and r["category"] == "Billing")
            or r["assigned_to"] == "hana.sato"}
    assert got == want and "INC0010434" in got and "INC0010437" in got
    assert S.encode_query(S.parse_query("short_descriptionLIKEcollector^assigned_toISEMPTY", "incident")) == \
        "short_descriptionLIKEcollector^assigned_toISEMPTY"
    with pytest.raises(Invalid):
        S.parse_query("nosuchfield=1", "incident")
    with pytest.raises(Invalid):
        S.parse_query("state~New", "incident")


def test_canceled_is_final_and_never_breaches(st, jordan):
    out = S.update_incident(st, jordan, "INC0010421", state="Canceled")
    rec = out["record"]
    assert rec["state"] == "Canceled" and rec["final"] and not rec["breached"] and rec["closed_at"]
    with pytest.raises(Invalid, match="final"):
        S.update_incident(st, jordan, "INC0010421", state="In Progress")
    assert S.task_slas(st, rec)[-1]["stage"] == "Cancelled"


def test_cmdb_seed_and_reference_validation(st, jordan):
    services = {r["name"] for r in S.cis(st, services=True)}
    assert {"Lumen Web App", "Data Freshness Monitoring"} <= services
    web = next(r for r in S.cis(st, services=True) if r["name"] == "Lumen Web App")
    assert {r["name"] for r in S.cis(st, service=web["id"])} >= {"lumen-web-prod", "lumen-api-gateway"}
    out = S.update_incident(st, jordan, "INC0010445", business_service="Lumen Web App", cmdb_ci="lumen-web-prod")
    assert (out["record"]["service_name"], out["record"]["ci_name"]) == ("Lumen Web App", "lumen-web-prod")
    with pytest.raises(Invalid) as e:
        S.update_incident(st, jordan, "INC0010445", cmdb_ci="Lumen Web App")       # a service, not a CI
    assert e.value.field == "cmdb_ci"
    with pytest.raises(Invalid) as e:
        S.update_incident(st, jordan, "INC0010445", business_service="lumen-web")
    assert e.value.field == "business_service"


def test_task_slas_follow_priority_changes(st, jordan):
    out = S.update_incident(st, jordan, "INC0010445", urgency="High")        # High × High: P4 → P1
    slas = S.task_slas(st, out["record"])
    assert [s["definition"] for s in slas] == ["P4 resolution (5 day)", "P1 resolution (4 hour)"]
    assert slas[0]["stage"] == "Cancelled" and slas[1]["stage"] == "In progress"
    assert slas[1]["percentage"] > 0


def test_task_slas_agree_with_the_records_sla_due_and_breach(st):
    """The current Task SLA is the record's own SLA: its breach time is ``sla_due`` and it has breached
    exactly when the list and the form show Breached (open, resolved, closed and canceled incidents)."""
    rows = S.list_records(st, "jordan.blake", "incident", per_page=500)["rows"]
    assert {r["state"] for r in rows} >= {"New", "In Progress", "Closed"} and any(r["breached"] for r in rows)
    for r in rows:
        cur = S.task_slas(st, r)[-1]
        assert (cur["breach_time"], cur["has_breached"]) == (r["sla_due"], r["breached"]), r["number"]


def test_group_by_and_personalized_columns(st, jordan):
    res = S.list_records(st, "jordan.blake", "incident", quick="open", group="assignment_group", per_page=50)
    labels = [r["_group_label"] for r in res["rows"]]
    assert labels == sorted(labels, key=lambda x: (not x, x.lower())) and sum(res["group_counts"].values()) == 15
    with pytest.raises(Invalid):
        S.list_records(st, "jordan.blake", "incident", group="description")
    assert S.list_columns(st, "jordan.blake", "incident") == S.LIST_COLUMNS["incident"]
    assert S.set_list_columns(st, jordan, "incident", ["number", "cmdb_ci", "state"]) == ("number", "cmdb_ci", "state")
    assert S.list_columns(st, "kofi.mensah", "incident") == S.LIST_COLUMNS["incident"]     # per user
    with pytest.raises(Invalid):
        S.set_list_columns(st, jordan, "incident", ["state"])                             # Number stays
    with pytest.raises(Invalid):
        S.set_list_columns(st, jordan, "incident", ["number", "bogus"])
    assert S.set_list_columns(st, jordan, "incident", []) == S.LIST_COLUMNS["incident"]


def test_routes_for_references_lookup_suggest_and_columns(tclient):
    r = tclient.get("/tickets/ref/assignee?q=&assignment_group_ref=2")
    assert r.status_code == 200 and "Hana Sato" in r.text and "Ines Duarte" not in r.text
    r = tclient.get("/tickets/ref/group/lookup?field=assignment_group")
    assert r.status_code == 200 and "Lookup: Assignment group" in r.text and "Billing Ops" in r.text
    assert tclient.get("/tickets/ref/nope/lookup").status_code == 404
    assert tclient.get("/tickets/ref/nope").status_code == 404
    r = tclient.get("/tickets/search/suggest?q=collector")
    assert r.status_code == 200 and "INC0010443" in r.text
    r = tclient.get("/tickets/incident?sysparm_query=state%3DNew%5EORstate%3DOn%20Hold")
    assert r.status_code == 200 and "INC0010434" in r.text and "State is New or State is On Hold" in r.text
    assert tclient.get("/tickets/incident?sysparm_query=zzz%3D1").status_code == 422
    assert tclient.get("/tickets/incident?group=description").status_code == 422
    r = tclient.get("/tickets/incident?cf=state&co=is&cv=New&cj=and&cf=state&co=is&cv=On+Hold&cj=or")
    assert r.status_code == 302 and "sysparm_query=state%3DNew%5EORstate%3DOn+Hold" in r.headers["Location"]
    r = tclient.get(r.headers["Location"])
    assert r.status_code == 200 and "INC0010434" in r.text and "INC0010441" in r.text
    r = tclient.post("/tickets/incident/columns", data={"col": ["number", "bogus"]})
    assert r.status_code == 422 and "bogus" in r.text
    r = tclient.post("/tickets/incident/columns", data={"col": ["number", "state"], "back": "/tickets/incident"})
    assert r.status_code == 200
    assert tclient.post("/tickets/widget/columns", data={"col": ["number"]}).status_code == 404
    r = tclient.post("/tickets/incident/INC0010445", data={"assigned_to": "Nobody Here", "assigned_to_ref": "",
                                                           "assigned_to_ref_name": ""})
    assert r.status_code == 422 and "err-assigned_to" in r.text


def test_conditions_beside_an_or_query_are_anded_with_every_criteria_set(tclient, st):
    """Show Matching (an ``f`` condition) on a list filtered with New criteria, and builder rows sent with a
    ``sysparm_query``, narrow that query; they never become criteria of their own (which would widen it)."""
    rows = S.list_records(st, "jordan.blake", "incident", per_page=500)["rows"]
    want = {r["number"] for r in rows if r["category"] == "Pipelines" and r["state"] in ("New", "In Progress")}
    wider = {r["number"] for r in rows if r["state"] == "In Progress" or (r["category"] == "Pipelines" and r["state"] == "New")}
    assert want and wider - want
    r = tclient.get("/tickets/incident?sysparm_query=state%3DNew%5ENQstate%3DIn%20Progress&f=category:is:Pipelines")
    assert r.status_code == 200
    assert "Category is Pipelines and State is New — or — Category is Pipelines and State is In Progress" in r.text
    got = {n for n in {r_["number"] for r_ in rows} if f">{n}</a>" in r.text}
    assert got == want
    # the condition builder shows the same filter, so Run keeps it
    assert re.findall(r'name="cj" value="(\w+)"', r.text) == ["and", "and", "nq", "and"]
    assert re.findall(r'name="cv" value="([^"]*)"', r.text) == ["Pipelines", "New", "Pipelines", "In Progress"]
    r = tclient.get("/tickets/incident?sysparm_query=category%3DBilling&cf=state&co=is&cv=New&cj=and"
                    "&cf=state&co=is&cv=On+Hold&cj=or")
    assert r.status_code == 302
    assert "sysparm_query=category%3DBilling%5Estate%3DNew%5EORstate%3DOn+Hold" in r.headers["Location"]


def test_a_worlds_bad_cmdb_is_refused_naming_the_entry(st):
    from apps.core.world import WorldError
    from apps.tickets.cmdb_seed import CmdbFile, seed_cmdb
    bad = [({"services": [{"name": "Web"}, {"name": "web"}]}, "services.1.name"),
           ({"services": [{"name": "Web", "group": "Nobody"}]}, "services.0.group"),
           ({"cis": [{"name": "web-prod", "class": "Application", "service": "Web"}]}, "cis.0.service")]
    for spec, where in bad:
        with pytest.raises(WorldError, match=re.escape(where)):
            seed_cmdb(st, CmdbFile.model_validate(spec), {"Pipeline Ops": 1}, "cmdb.yaml")
    with pytest.raises(ValueError):
        CmdbFile.model_validate({"cis": [{"name": "web-prod", "class": "Router"}]})
