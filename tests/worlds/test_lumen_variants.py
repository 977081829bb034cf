"""The lumen world's variants (worlds/lumen/facts.yaml): every variant says what its facts say.

(a) the figures the tasks read — computed by the world's own check functions from a variant's files
and compiled store — are the variant's facts; (b) no template mark survives rendering; (c) a figure
that changed in a variant leaves no trace of its published value behind (a forgotten occurrence would
make the variant contradict itself); (d) variants compile and variant 0 is the published world.
"""
from __future__ import annotations

import json
import re

import pytest

from tests.worlds.variants import Variants

V = Variants("lumen")
VARIANTS = list(range(13))          # 0 and 1..12
facts, ctx, table, records, by, cell = V.facts, V.ctx, V.table, V.records, V.by, V.cell


def checks():
    return V.module("checks")


def people(k):
    return {p["slug"]: p for p in records(k, "people")}


# ---------------------------------------------------------------- (a) what the tasks read = the facts
@pytest.mark.parametrize("k", VARIANTS)
def test_crm_figures_are_the_facts(k):
    f, c = facts(k), checks()
    assert c.q2_commit(ctx(k)) == f["q2_commit"]
    renewal = by(k, "crm_opportunities", "slug", "harrowgate-fy27-renewal")
    assert (renewal["amount"], renewal["close_date"], renewal["stage"]) == (f["hg_arr"], f["hg_close"].isoformat(), "Negotiation")
    assert by(k, "crm_accounts", "slug", "harrowgate")["arr"] == f["hg_arr"]
    assert by(k, "crm_opportunities", "slug", "harrowgate-fy26-renewal")["amount"] \
        + by(k, "crm_opportunities", "slug", "harrowgate-fy26-seats")["amount"] == f["hg_arr"]
    bv = by(k, "crm_opportunities", "slug", "brightvault-bank-renewal-2026")
    assert bv["amount"] == f["bv_amount"] == by(k, "crm_accounts", "slug", "brightvault-bank")["arr"]
    for slug, fact in [("pinecrest-pay-fy26-renewal", "pinecrest_fy26"), ("northloop-retail-fy26-renewal", "northloop_fy26")]:
        opp = by(k, "crm_opportunities", "slug", slug)
        assert opp["amount"] == f[fact] == table(k, "crm_accounts")[str(opp["account"])]["arr"]
    won = [o for o in records(k, "crm_opportunities") if o["stage"] == "Closed Won" and "2026-04-01" <= o["close_date"] <= "2026-06-30"]
    assert sum(o["amount"] for o in won) == f["q2_won"]
    event = by(k, "cal_events", "title", "Harrowgate — renewal signature target")
    assert event["start"].startswith(f["hg_close"].isoformat())


@pytest.mark.parametrize("k", VARIANTS)
def test_the_forecast_sheet_mirrors_the_crm(k):
    f = facts(k)
    book, tab = "Q2 FY26 Forecast", "Summary"
    assert cell(k, book, tab, "C12") == f["q2_won"]                          # Closed Won to date
    assert cell(k, book, tab, "C13") == f["q2_commit"]                       # Commit
    assert cell(k, book, tab, "C14") == f["q2_best_case"]                    # Best case
    assert cell(k, book, tab, "C11") == f["q2_quota"]


@pytest.mark.parametrize("k", VARIANTS)
def test_harrowgate_incidents_are_the_facts(k):
    f = facts(k)
    open_ = checks().harrowgate_open(ctx(k))
    assert open_ == {"INC0010421": {"priority": 1, "owner": "ines.duarte"},
                     "INC0010433": {"priority": f["inc433_triage"]["priority"], "owner": f["inc433_owner"]["id"]},
                     "INC0010440": {"priority": f["inc440_triage"]["priority"], "owner": f["inc440_owner"]["id"]}}
    names = people(k)
    for n, fact in [("INC0010433", "inc433_owner"), ("INC0010440", "inc440_owner")]:
        assert names[f[fact]["id"]]["name"] == f[fact]["name"]
        inc = by(k, "tk_incidents", "number", n)
        assert inc["assigned_to"] == f[fact]["id"]
        assert inc["priority"] == f[fact.replace("owner", "triage")]["priority"]     # the desk's own computation
    assert checks().harrowgate_closed(ctx(k)) == ["INC0010342", "INC0010389"]


@pytest.mark.parametrize("k", VARIANTS)
def test_billing_figures_are_the_facts(k):
    f, c = facts(k), checks()
    assert c.billing_resolved(ctx(k)) == sorted(f["billing_resolved"])
    [billing] = [g for g, r in table(k, "tk_groups").items() if r["name"] == "Billing Ops"]
    resolved = sorted(i["number"] for i in records(k, "tk_incidents")
                      if i["state"] == "Resolved" and str(i["assignment_group"]) == billing)
    assert resolved == sorted(f["billing_resolved"])
    assert c.billing_dispute(ctx(k)) == {"account": "Meadowline Health", "invoice": "INV-2026-0533",
                                         "amount": f["ml_overcharge"]}
    assert f["ml_overcharge"] == (f["ml_seats_billed"] - f["ml_seats_ordered"]) * f["ml_seat_price"] > 0


@pytest.mark.parametrize("k", VARIANTS)
def test_leads_qualify_as_the_facts_say(k):
    f, c = facts(k), checks()
    leads = {r["slug"]: r for r in records(k, "crm_leads")}
    qualified = {leads[s]["company"] for s, q in c.new_leads(ctx(k)).items() if q}
    assert qualified == set(f["new_leads_qualified"])
    assert "Brookfield Dental Group" in qualified and "Lakeview Optometry Partners" not in qualified
    assert leads["brookfield-dental-ava-lin"]["locations"] == f["brookfield_clinics"]
    assert leads["cedar-ridge-veterinary-derek-yates"]["locations"] == f["cedar_locations"]
    assert leads["copperline-car-wash-wendy-chang"]["locations"] == f["copperline_locations"]
    for slug, lead in leads.items():               # the web form says what the lead's fields say
        if lead["status"] == "New":
            m = re.match(r"Web form: (\d+) ", lead["description"])
            assert int(m.group(1)) == lead["locations"], slug


@pytest.mark.parametrize("k", VARIANTS)
def test_other_answers_are_the_facts(k):
    f, c = facts(k), checks()
    assert c.quarry_competitor(ctx(k)) == f["quarry_competitor"]
    assert c.nico_asks(ctx(k)) == {"model": f["nico_laptop"], "needed_by": f["nico_needed_by"].isoformat(),
                                   "access": [(a["tool"], a["role"]) for a in f["nico_access"]],
                                   "session_hour": f["nico_session_hour"]}
    catalog = {r["name"]: r for r in records(k, "tk_catalog")}
    tools = {ch for fl in catalog["Access to a tool"]["fields"] if fl["name"] == "tool" for ch in fl["choices"]}
    models = {ch for fl in catalog["New laptop"]["fields"] if fl["name"] == "model" for ch in fl["choices"]}
    assert {a["tool"] for a in f["nico_access"]} <= tools and f["nico_laptop"] in models
    triage = c.triage_expected(ctx(k))          # the overnight queue does not vary
    assert [n for n, w in triage.items() if w["priority"] == 1] == ["INC0010441"]


@pytest.mark.parametrize("k", VARIANTS)
def test_the_record_facts_are_the_records(k):
    """The list facts task families pick from (the New leads, the Q2 deals) say what the CRM says."""
    f = facts(k)
    leads = {r["slug"]: r for r in records(k, "crm_leads")}
    rule = checks().new_leads(ctx(k))
    for lead in f["new_leads"]:
        rec = leads[lead["slug"]]
        assert (rec["company"], rec["first_name"], rec["last_name"], rec["email"], rec["title"], rec["industry"],
                rec["locations"], rec["status"]) == (lead["company"], lead["first"], lead["last"], lead["email"],
                                                     lead["title"], lead["industry"], lead["locations"], "New")
        assert rule[lead["slug"]] == lead["qualifies"], lead["slug"]
        assert f"Budget owner: {lead['owner']}." in rec["description"] and f"Timeline: {lead['timeline']}." in rec["description"]
    assert sorted(rule) == sorted(lead["slug"] for lead in f["new_leads"])
    assert [lead["slug"] for lead in f["new_leads"] if lead["qualifies"]] == f["new_leads_qualified_slugs"]
    for deal in f["q2_deals"]:
        opp = by(k, "crm_opportunities", "slug", deal["slug"])
        assert (opp["name"], opp["amount"], opp["stage"]) == (deal["name"], deal["amount"], deal["stage"])


# ---------------------------------------------------------------- (b) every mark is rendered
@pytest.mark.parametrize("k", [0, 1, 7, 17, 199])
def test_no_template_mark_survives(k):
    assert V.unrendered(k) == []


def test_every_variant_solves_and_renders_to_valid_files():
    """All 200 variants draw facts that keep the constraints, and a sample renders to YAML that parses."""
    V.solve_and_render(every=10)


# ---------------------------------------------------------------- (c) no stale published figure
def _money(v: int) -> list[str]:
    return [f"{v:,}", f"${v // 1000}K", f"{v}"]


def stale_spellings(f0: dict) -> dict[str, list[str]]:
    """fact -> the ways the published world writes its value (long enough to be unique)."""
    return {
        "hg_arr": _money(f0["hg_arr"]),
        "hg_fy26_renewal": [f"{f0['hg_fy26_renewal']:,}"],
        "hg_installment": [f"{f0['hg_installment']:,}"],
        "bv_amount": _money(f0["bv_amount"]),
        "westbound_amount": _money(f0["westbound_amount"]),
        "nl_store_ops_amount": _money(f0["nl_store_ops_amount"]),
        "pinecrest_fy26": _money(f0["pinecrest_fy26"]),
        "northloop_fy26": _money(f0["northloop_fy26"]),
        "q2_won_m": [f"${f0['q2_won_m']:.2f}M"],
        "q2_commit_m": [f"${f0['q2_commit_m']:.2f}M"],
        "q2_best_case_m": [f"${f0['q2_best_case_m']:.2f}M"],
        "hg_close": ["June 30", "Jun 30", "30 June", "the 30th"],
        "ml_invoice_total": ["$36,000"],
        "ml_overcharge": ["$9,000"],
        "ml_seats_billed": ["60 seats"],
        "brookfield_clinics": ["14 clinics"],
        "cedar_locations": ["Web form: 6 locations", "Six hospitals", "Number of locations: 6\n"],
        "copperline_locations": ["22 locations", "22 sites"],
        "quarry_competitor": ["Tidewatch"],
        "nico_laptop": ["MacBook Pro 14, needed"],
        "nico_needed_by": ["needed by 12 June"],
        "nico_session_hour": ["at 10:00 with him"],
        "inc433_owner": ["@paul.novak", "Paul is on it", "Paul Novak\""],
        "inc440_owner": ["@diego.ramos.", "Diego Ramos\"]"],
    }


# Occurrences of a published spelling that mean something else: (fact, spelling) -> {file: count}.
OTHER_MEANINGS = {
    ("hg_close", "Jun 30"): {"drive/jordan.blake/RevOps/Q2 FY26 Forecast.gsheet.yaml": 1,   # Q2 ends Jun 30
                             "chat/sales.yaml": 1},
    ("quarry_competitor", "Tidewatch"): {"crm/activities.yaml": 1,                          # Pinecrest's deal
                                         "mail/2026-06-04-pinecrest-revised-quote.yaml": 1,
                                         "mail/2026-06-06-data-observability-weekly-issue-88.yaml": 1},
    ("copperline_locations", "22 sites"): {"crm/accounts.yaml": 1},                          # another account
}


@pytest.mark.parametrize("k", range(1, 13))
def test_no_published_figure_survives_where_it_changed(k):
    assert V.stale(k, stale_spellings(facts(0)), OTHER_MEANINGS) == []


def test_every_stale_spelling_is_written_in_the_published_world():
    """Every fact (c) looks for is written in variant 0 in at least one of its spellings, so (c) can fail for it."""
    assert V.never_written(stale_spellings(facts(0))) == []


# ---------------------------------------------------------------- (d) compiles; variant 0 is the world
def test_a_variant_compiles_and_differs():
    f3 = facts(3)
    assert by(3, "crm_opportunities", "slug", "harrowgate-fy27-renewal")["amount"] == f3["hg_arr"]


def test_variant_0_is_the_published_world():
    assert V.published_digests_changed() == []


def test_variants_differ_where_the_tasks_look():
    """Across the first 50 variants the task-facing figures take many values (tasks become families)."""
    seen = {name: set() for name in ("hg_arr", "hg_close", "q2_commit", "ml_overcharge", "quarry_competitor",
                                     "new_leads_qualified", "billing_resolved", "inc433_owner", "inc440_triage")}
    for k in range(50):
        f = facts(k)
        for name in seen:
            seen[name].add(json.dumps(f[name], default=str, sort_keys=True))
    few = {name: len(v) for name, v in seen.items() if len(v) < 3}
    assert few == {}
    assert min(len(seen[n]) for n in ("hg_arr", "q2_commit", "ml_overcharge", "quarry_competitor")) >= 10
