"""Service desk service layer on the lumen world: priority, SLA and breach from the world clock, the incident
state machine (every forbidden transition refused, nothing written), required fields per state, assignee in
group, history with the actor, journal and activity, knowledge, catalog validation, bulk update, visibility,
search."""
from __future__ import annotations

import itertools

import pytest

from apps.core.errors import Forbidden, Invalid, NotFound
from apps.core.store.db import Caller
from apps.tickets import service as S

KOFI = Caller("kofi.mensah", "kofi.mensah")
NADIA = Caller("nadia.fell", "nadia.fell")          # external: Harrowgate's CTO


def writes(st):
    return st.scalar("SELECT count(*) FROM _writes")


def new_incident(st, who, **kw):
    return S.create_incident(st, who, short_description="Loader stuck", caller_id="raj.iyer",
                             category="Pipelines", **kw)


def in_state(st, who, state):
    """A fresh incident moved along allowed transitions into ``state``."""
    inc = new_incident(st, who, impact="Medium", urgency="Medium", assignment_group="Pipeline Ops",
                       assigned_to="ines.duarte")
    n = inc["number"]
    path = {"New": [], "In Progress": ["In Progress"], "On Hold": ["On Hold"], "Resolved": ["Resolved"],
            "Closed": ["Resolved", "Closed"], "Canceled": ["Canceled"]}[state]
    for s in path:
        extra = {"on_hold_reason": "Awaiting Caller"} if s == "On Hold" else {}
        if s == "Resolved":
            extra = {"resolution_code": "Solution provided", "resolution_notes": "Restarted the loader."}
        S.update_incident(st, who, n, state=s, **extra)
    assert S.get_incident(st, who.user, n)["state"] == state
    return n


# ---------------------------------------------------------------- priority and SLA
@pytest.mark.parametrize("impact, urgency, p", [
    ("High", "High", 1), ("High", "Medium", 2), ("Medium", "High", 2), ("Medium", "Medium", 3),
    ("High", "Low", 4), ("Low", "High", 4), ("Medium", "Low", 4), ("Low", "Medium", 4), ("Low", "Low", 4)])
def test_priority_matrix(st, jordan, impact, urgency, p):
    assert S.priority_of(impact, urgency) == p
    inc = new_incident(st, jordan, impact=impact, urgency=urgency)
    assert inc["priority"] == p and inc["priority_label"] == S.PRIORITY_LABELS[p]


def test_priority_is_recomputed_and_sla_follows(st, jordan):
    inc = new_incident(st, jordan, impact="Low", urgency="Low")
    assert inc["sla_due"] == "2026-06-14T14:30:00Z"                  # opened 14:30Z + 120h
    out = S.update_incident(st, jordan, inc["number"], impact="High", urgency="High")
    assert out["record"]["priority"] == 1 and out["record"]["sla_due"] == "2026-06-09T18:30:00Z"
    with pytest.raises(Invalid):
        S.update_incident(st, jordan, inc["number"], priority=3)     # never set by hand


@pytest.mark.parametrize("impact, urgency, hours", [("High", "High", 4), ("High", "Medium", 8),
                                                    ("Medium", "Medium", 72), ("Low", "High", 120)])
def test_sla_due_and_breach_from_the_world_clock(st, jordan, impact, urgency, hours):
    inc = new_incident(st, jordan, impact=impact, urgency=urgency)
    assert not inc["breached"]
    st.advance(hours * 3600 - 60)
    assert not S.get_incident(st, "jordan.blake", inc["number"])["breached"]
    st.advance(120)
    assert S.get_incident(st, "jordan.blake", inc["number"])["breached"]


def test_resolved_in_time_is_not_breached_later(st, jordan):
    inc = new_incident(st, jordan, impact="High", urgency="High")
    S.update_incident(st, jordan, inc["number"], state="Resolved", resolution_code="Solution provided",
                      resolution_notes="Fixed.")
    st.advance(10 * 3600)
    assert not S.get_incident(st, "jordan.blake", inc["number"])["breached"]


def test_lumen_storyline_incidents(st):
    got = {n: S.get_incident(st, "jordan.blake", n) for n in ("INC0010421", "INC0010433", "INC0010440")}
    assert [got[n]["priority"] for n in got] == [1, 2, 3]
    assert got["INC0010421"]["group_name"] == "Pipeline Ops" and got["INC0010440"]["group_name"] == "Platform Infra"
    assert all(r["account"] == "harrowgate" and r["open"] for r in got.values())
    assert got["INC0010421"]["breached"]                                # opened Jun 7, P1 (4h)


# ---------------------------------------------------------------- state machine
ALL = S.INCIDENT_STATES


@pytest.mark.parametrize("old, new", [(o, n) for o, n in itertools.product(ALL, ALL)
                                      if o != n and n not in S.INCIDENT_TRANSITIONS[o]])
def test_every_forbidden_transition_is_refused_and_writes_nothing(st, jordan, old, new):
    n = in_state(st, jordan, old)
    before = writes(st)
    extra = {"resolution_code": "Solution provided", "resolution_notes": "x", "on_hold_reason": "Awaiting Caller"}
    with pytest.raises(Invalid) as e:
        S.update_incident(st, jordan, n, state=new, **extra)
    assert f"can't move from {old} to {new}" in e.value.message and e.value.field == "state"
    assert writes(st) == before
    assert S.get_incident(st, "jordan.blake", n)["state"] == old


def test_transition_messages_name_the_rule(st, jordan):
    n = in_state(st, jordan, "In Progress")
    with pytest.raises(Invalid, match="Only a Resolved incident can be closed"):
        S.update_incident(st, jordan, n, state="Closed")
    with pytest.raises(Invalid, match="can't go back to New"):
        S.update_incident(st, jordan, n, state="New")
    c = in_state(st, jordan, "Closed")
    with pytest.raises(Invalid, match="nothing leaves Closed"):
        S.update_incident(st, jordan, c, state="In Progress")
    with pytest.raises(Invalid, match="can't be changed"):
        S.update_incident(st, jordan, c, short_description="Edited after closing")


def test_allowed_transitions_and_reopen(st, jordan):
    n = in_state(st, jordan, "Resolved")
    rec = S.get_incident(st, "jordan.blake", n)
    assert rec["resolved_at"] == st.now_iso()
    out = S.update_incident(st, jordan, n, state="In Progress")
    assert out["record"]["state"] == "In Progress" and out["record"]["resolved_at"] is None
    S.update_incident(st, jordan, n, state="On Hold", on_hold_reason="Awaiting Vendor")
    out = S.update_incident(st, jordan, n, state="In Progress")
    assert out["record"]["on_hold_reason"] == ""                         # leaving On Hold clears the reason


@pytest.mark.parametrize("state, fields, missing", [
    ("In Progress", {"assignment_group": ""}, "assignment_group"),
    ("In Progress", {"assigned_to": ""}, "assigned_to"),
    ("On Hold", {}, "on_hold_reason"),
    ("Resolved", {"resolution_notes": "Done"}, "resolution_code"),
    ("Resolved", {"resolution_code": "Solution provided"}, "resolution_notes"),
])
def test_required_fields_per_state(st, jordan, state, fields, missing):
    n = in_state(st, jordan, "New")
    before = writes(st)
    with pytest.raises(Invalid) as e:
        S.update_incident(st, jordan, n, state=state, **fields)
    assert missing in e.value.errors and state in e.value.message
    assert writes(st) == before


def test_in_progress_needs_an_assignee_from_new(st, jordan):
    inc = new_incident(st, jordan)
    with pytest.raises(Invalid, match="In Progress needs an Assignment group"):
        S.update_incident(st, jordan, inc["number"], state="In Progress")


def test_assignee_must_be_in_the_group(st, jordan):
    inc = new_incident(st, jordan, assignment_group="Pipeline Ops")
    before = writes(st)
    with pytest.raises(Invalid) as e:
        S.update_incident(st, jordan, inc["number"], assigned_to="lena.fischer")
    assert e.value.field == "assigned_to" and "Lena Fischer is not a member of Pipeline Ops" in e.value.message
    assert writes(st) == before
    with pytest.raises(Invalid, match="Choose an Assignment group"):
        new_incident(st, jordan, assigned_to="ines.duarte")
    # changing the group drops an assignee who is not in the new group (as ServiceNow's form does)
    S.update_incident(st, jordan, inc["number"], assigned_to="ines.duarte")
    out = S.update_incident(st, jordan, inc["number"], assignment_group="Billing Ops")
    assert out["record"]["assigned_to"] == "" and out["record"]["group_name"] == "Billing Ops"


def test_bad_values_are_clear(st, jordan):
    inc = new_incident(st, jordan)
    for fields, field in [({"impact": "Huge"}, "impact"), ({"category": "Weather"}, "category"),
                          ({"assignment_group": "Nobody"}, "assignment_group"), ({"caller_id": "no.one"}, "caller_id"),
                          ({"short_description": ""}, "short_description"), ({"state": "Pending"}, "state"),
                          ({"account": "acme-nowhere"}, "account")]:
        with pytest.raises(Invalid) as e:
            S.update_incident(st, jordan, inc["number"], **fields)
        assert e.value.field == field, fields


# ---------------------------------------------------------------- history and journal
def test_history_rows_name_who_changed_what(st):
    before = st.scalar("SELECT coalesce(max(id), 0) FROM tk_history")
    S.update_incident(st, KOFI, "INC0010433", urgency="High", work_note="Escalating: same root cause as 0421.")
    rows = st.select("tk_history", "id>?", (before,))
    got = {r["field"]: (r["old"], r["new"], r["by"], r["via"]) for r in rows}
    assert got["Urgency"] == ("2 - Medium", "1 - High", "kofi.mensah", "kofi.mensah")
    assert got["Priority"] == ("2 - High", "1 - Critical", "kofi.mensah", "kofi.mensah")
    assert all(r["record_table"] == "incident" and r["at"] == st.now_iso() for r in rows)
    assert st.scalar("SELECT actor FROM _writes WHERE tbl='tk_incidents' ORDER BY seq DESC LIMIT 1") == "kofi.mensah"
    assert st.scalar("SELECT actor FROM _writes WHERE tbl='tk_journal' ORDER BY seq DESC LIMIT 1") == "kofi.mensah"


def test_saving_unchanged_writes_nothing(st, jordan):
    rec = S.get_incident(st, "jordan.blake", "INC0010421")
    before = writes(st)
    out = S.update_incident(st, jordan, "INC0010421", **{f: rec[f] for f in S.EDITABLE["incident"]})
    assert out["changed"] == [] and writes(st) == before


def test_reading_writes_nothing(st):
    before = writes(st)
    S.get_incident(st, "jordan.blake", "INC0010421")
    S.activity(st, "jordan.blake", "incident", "INC0010421")
    S.list_records(st, "jordan.blake", "incident", quick="open")
    S.kb_list(st, "jordan.blake", "backfill")
    S.search(st, "jordan.blake", "harrowgate")
    assert writes(st) == before


def test_work_notes_and_comments_and_the_activity_stream(st, jordan):
    S.add_work_note(st, jordan, "incident", "INC0010421", "Internal: backfill scheduled.")
    st.advance(60)
    S.add_comment(st, jordan, "incident", "INC0010421", "Nadia, a backfill is running.")
    st.advance(60)
    S.update_incident(st, jordan, "INC0010421", urgency="Medium")
    act = S.activity(st, "jordan.blake", "incident", "INC0010421")
    assert [a["type"] for a in act[:3]] == ["changes", "comment", "work_note"]     # newest first
    assert act[0]["changes"][0]["field"] in ("Priority", "Urgency") and act[0]["by_name"] == "Jordan Blake"
    # the caller (external) sees comments only
    kinds = {j["kind"] for j in S.journal(st, "nadia.fell", "incident", "INC0010421")}
    assert kinds == {"comment"}
    with pytest.raises(Invalid, match="Type a work note"):
        S.add_work_note(st, jordan, "incident", "INC0010421", "   ")


# ---------------------------------------------------------------- knowledge
def test_kb_search_and_attach(st, jordan):
    assert S.kb_list(st, "jordan.blake", "freshness monitor backfill")[0]["number"] == "KB0001207"
    assert "Backfill" in S.kb_get(st, "jordan.blake", "KB0001207")["title"]
    inc = new_incident(st, jordan)
    S.attach_kb(st, jordan, "incident", inc["number"], "KB0001207")
    assert [a["number"] for a in S.attached_kb(st, "jordan.blake", "incident", inc["number"])] == ["KB0001207"]
    with pytest.raises(Invalid, match="already attached"):
        S.attach_kb(st, jordan, "incident", inc["number"], "KB0001207")
    with pytest.raises(NotFound):
        S.attach_kb(st, jordan, "incident", inc["number"], "KB9999999")
    S.detach_kb(st, jordan, "incident", inc["number"], "KB0001207")
    assert S.attached_kb(st, "jordan.blake", "incident", inc["number"]) == []


# ---------------------------------------------------------------- catalog
def test_catalog_request_with_variables(st, jordan):
    item = S.catalog_item(st, "jordan.blake", "New laptop")
    choice = next(f for f in item["fields"] if f["type"] == "choice")
    values = {f["name"]: (f["choices"][0] if f["type"] == "choice" else "Needed for onboarding")
              for f in item["fields"] if f["required"]}
    req = S.submit_request(st, jordan, item["id"], values, requested_for="rachel.kim")
    assert req["number"].startswith("REQ") and req["state"] == "New" and req["requested_for"] == "rachel.kim"
    assert req["variables"][choice["name"]] == choice["choices"][0] and req["item_name"] == "New laptop"
    assert req["group_name"] == "IT Support"


def test_catalog_form_validation(st, jordan):
    item = S.catalog_item(st, "jordan.blake", "New laptop")
    req_fields = [f["name"] for f in item["fields"] if f["required"]]
    choice = next(f for f in item["fields"] if f["type"] == "choice")
    before = writes(st)
    with pytest.raises(Invalid) as e:
        S.submit_request(st, jordan, item["id"], {choice["name"]: "Commodore 64"})
    assert set(req_fields) - {choice["name"]} <= set(e.value.errors)
    assert "is not a choice for" in e.value.errors[choice["name"]]
    with pytest.raises(Invalid, match="not a question"):
        S.submit_request(st, jordan, item["id"], {"colour": "red"})
    with pytest.raises(Invalid, match="not a person"):
        S.submit_request(st, jordan, item["id"], {}, requested_for="no.body")
    assert writes(st) == before


# ---------------------------------------------------------------- lists and bulk
def test_lists_filters_sort_and_pages(st):
    open_ = S.list_records(st, "jordan.blake", "incident", quick="open", per_page=500)
    assert all(r["open"] for r in open_["rows"]) and open_["rows"][0]["priority"] == 1
    p1 = S.list_records(st, "jordan.blake", "incident", quick="p1")["rows"]
    assert "INC0010421" in {r["number"] for r in p1}
    cond = S.list_records(st, "jordan.blake", "incident",
                          conditions=[("account", "is", "Harrowgate Logistics"), ("state", "is not", "Closed")])
    assert {"INC0010421", "INC0010433", "INC0010440"} <= {r["number"] for r in cond["rows"]}
    pages = S.list_records(st, "jordan.blake", "incident", sort="number", desc=False, per_page=20, page=2)
    assert pages["first"] == 21 and len(pages["rows"]) == 20 and pages["total"] > 100
    nums = [r["number"] for r in pages["rows"]]
    assert nums == sorted(nums)
    with pytest.raises(Invalid):
        S.parse_condition("colour:is:red", "incident")


def test_bulk_update_reports_each_record(st, jordan):
    a = in_state(st, jordan, "New")
    b = in_state(st, jordan, "Closed")
    c = in_state(st, jordan, "On Hold")
    res = S.bulk_update(st, jordan, "incident", [a, b, c, "INC9999999"], assignment_group="Pipeline Ops",
                        assigned_to="paul.novak", state="In Progress")
    got = {r["number"]: r for r in res}
    assert got[a]["ok"] and got[c]["ok"] and not got[b]["ok"] and not got["INC9999999"]["ok"]
    assert "Closed" in got[b]["error"]
    assert S.get_incident(st, "jordan.blake", a)["assigned_to"] == "paul.novak"
    assert S.get_incident(st, "jordan.blake", b)["state"] == "Closed"
    res = S.bulk_update(st, jordan, "incident", [a], assigned_to="lena.fischer")
    assert not res[0]["ok"] and "not a member" in res[0]["error"]
    with pytest.raises(Invalid):
        S.bulk_update(st, jordan, "incident", [], state="In Progress")


# ---------------------------------------------------------------- changes
def test_change_moves_one_step_at_a_time(st, jordan):
    ch = S.create_change(st, jordan, short_description="Resize Kafka", risk="High")
    n = ch["number"]
    with pytest.raises(Invalid, match="one step at a time"):
        S.update_change(st, jordan, n, state="Implement")
    with pytest.raises(Invalid, match="Assess needs an Assignment group"):
        S.update_change(st, jordan, n, state="Assess")
    S.update_change(st, jordan, n, state="Assess", assignment_group="Platform Infra", assigned_to="hana.sato")
    with pytest.raises(Invalid, match="planned start and end"):
        S.update_change(st, jordan, n, state="Scheduled")
    with pytest.raises(Invalid, match="after the planned start"):
        S.update_change(st, jordan, n, planned_start="2026-06-12T22:00", planned_end="2026-06-12T21:00")
    with pytest.raises(Invalid, match="Backout plan"):
        S.update_change(st, jordan, n, state="Scheduled", planned_start="2026-06-12T22:00",
                        planned_end="2026-06-12T23:00")
    S.update_change(st, jordan, n, state="Scheduled", planned_start="2026-06-12T22:00", planned_end="2026-06-12T23:00",
                    implementation_plan="Add brokers", backout_plan="Remove brokers")
    assert S.get_change(st, "jordan.blake", n)["planned_start"] == "2026-06-13T03:00:00Z"
    for s in ("Implement", "Review"):
        S.update_change(st, jordan, n, state=s)
    with pytest.raises(Invalid, match="Close code"):
        S.update_change(st, jordan, n, state="Closed")
    S.update_change(st, jordan, n, state="Closed", close_code="Successful", close_notes="Done")
    with pytest.raises(Invalid, match="nothing leaves Closed"):
        S.update_change(st, jordan, n, state="Review")


# ---------------------------------------------------------------- visibility and search
def test_external_people_see_only_their_own_tickets(st):
    assert S.get_incident(st, "nadia.fell", "INC0010421")["caller_id"] == "nadia.fell"
    mine = S.list_records(st, "nadia.fell", "incident", per_page=500)["rows"]
    assert mine and all(r["caller_id"] == "nadia.fell" for r in mine)
    other = next(r for r in S.list_records(st, "jordan.blake", "incident", per_page=500)["rows"]
                 if r["caller_id"] != "nadia.fell")
    with pytest.raises(NotFound):
        S.get_incident(st, "nadia.fell", other["number"])
    with pytest.raises(Forbidden):
        S.update_incident(st, NADIA, "INC0010421", urgency="High")
    with pytest.raises(Forbidden):
        S.add_work_note(st, NADIA, "incident", "INC0010421", "psst")
    S.add_comment(st, NADIA, "incident", "INC0010421", "Any update?")
    assert S.list_records(st, "nadia.fell", "change")["total"] == 0


def test_search(st):
    hits = S.search(st, "jordan.blake", "INC0010421")
    assert hits[0]["url"] == "/tickets/incident/INC0010421" and hits[0]["kind"] == "incident"
    assert set(hits[0]) == {"title", "subtitle", "url", "kind"}
    assert any(h["kind"] == "kb" for h in S.search(st, "jordan.blake", "backfill", limit=10))
    assert len(S.search(st, "jordan.blake", "harrowgate", limit=3)) == 3
    assert S.search(st, "jordan.blake", "   ") == []
    assert all(h["url"] == "/tickets/incident/INC0010421" or h["kind"] == "kb"
               for h in S.search(st, "nadia.fell", "freshness"))
