"""Seeding the CRM from world files: the lumen data loads; a world without crm/ seeds nothing; a bad
file is a WorldError naming the file and the field."""
from __future__ import annotations

import textwrap

import pytest

from apps.core.store.compile import template_for
from apps.core.store.slot import Slot
from apps.core.world import World, WorldError, load_world
from apps.crm import seed as crm_seed
from apps.crm import service as S

ACCOUNTS = """
accounts:
  - {id: acme, name: Acme Freight, industry: Logistics, type: Customer, owner: miguel.santos, csm: dana.whitaker,
     arr: 120000, created: "2025-01-10T10:00:00"}
  - {id: bolt, name: Bolt Pay, industry: Fintech, type: Prospect, owner: rachel.kim}
"""
CONTACTS = """
contacts:
  - {id: ann.ace, account: acme, first_name: Ann, last_name: Ace, title: CTO, email: ann@acme.com, owner: miguel.santos}
  - {id: bo.bolt, account: bolt, first_name: Bo, last_name: Bolt, email: bo@bolt.io}
"""
OPPS = """
opportunities:
  - id: acme-renewal
    name: "Acme – Renewal"
    account: acme
    type: Renewal
    stage: Proposal
    amount: 120000
    close_date: "2026-06-30"
    owner: miguel.santos
    contact: ann.ace
    next_step: "Send quote"
    history:
      - {stage: Qualification, at: "2026-03-01T09:00:00", by: miguel.santos}
      - {stage: Proposal, at: "2026-05-01T09:00:00", by: miguel.santos}
  - {id: bolt-lost, name: "Bolt – New", account: bolt, stage: Closed Lost, loss_reason: Price, amount: 5000,
     close_date: "2026-05-15", owner: rachel.kim, probability: 0}
"""
LEADS = """
leads:
  - {id: cara-dent, first_name: Cara, last_name: Dent, company: Dent Dental, email: cara@dent.com, source: Web,
     status: New, owner: tessa.grant, industry: Health, locations: 12, created: "2026-06-08T16:20:00"}
"""
ACTS = """
activities:
  - {kind: call, subject: "Check-in", related: {opportunity: acme-renewal}, who: miguel.santos, at: "2026-06-05T15:00:00"}
  - {kind: task, subject: "Quote", related: {account: acme}, who: jordan.blake, at: "2026-06-05T15:00:00", due: "2026-06-12", status: Open}
  - {kind: note, subject: "Budget", related: {contact: ann.ace}, who: dana.whitaker, at: "2026-06-01T10:00:00", body: "Has budget"}
  - {kind: meeting, subject: "Demo", related: {lead: cara-dent}, who: tessa.grant, at: "2026-06-15T10:00:00"}
"""
GOOD = {"accounts.yaml": ACCOUNTS, "contacts.yaml": CONTACTS, "opportunities.yaml": OPPS, "leads.yaml": LEADS,
        "activities.yaml": ACTS}


def fresh_store(world, tmp_path):
    """An empty copy of the lumen world's store with the CRM tables emptied."""
    slot = Slot(template_for(world))
    st = slot._conn
    for t in ("crm_accounts", "crm_contacts", "crm_leads", "crm_opportunities", "crm_stage_history",
              "crm_activities", "crm_notes", "crm_views"):
        st.execute(f"DELETE FROM {t}")
    return slot


def world_with(base: World, tmp_path, files: dict[str, str]) -> World:
    (tmp_path / "crm").mkdir(exist_ok=True)
    for name, text in files.items():
        (tmp_path / "crm" / name).write_text(textwrap.dedent(text), encoding="utf-8")
    return World(tmp_path, base.spec)


def test_lumen_crm_data_loads(store):
    counts = {t: store.scalar(f"SELECT count(*) FROM {t}") for t in
              ("crm_accounts", "crm_contacts", "crm_opportunities", "crm_leads", "crm_stage_history")}
    assert counts["crm_accounts"] >= 60 and counts["crm_contacts"] >= 150 and counts["crm_opportunities"] >= 80
    assert counts["crm_leads"] >= 40 and counts["crm_stage_history"] >= counts["crm_opportunities"]
    h = S.by_slug(store, "jordan.blake", "opportunities", "harrowgate-fy27-renewal")
    assert (h["amount"], h["close_date"], h["stage"], h["owner"]) == (480000, "2026-06-30", "Negotiation",
                                                                      "miguel.santos")
    acc = S.by_slug(store, "jordan.blake", "accounts", "harrowgate")
    assert acc["arr"] == 480000 and acc["csm"] == "dana.whitaker"
    # every opportunity's last history entry is its stage, every Closed Lost has a reason
    for o in store.select("crm_opportunities"):
        last = store.one("SELECT to_stage FROM crm_stage_history WHERE opportunity=? ORDER BY at DESC, id DESC",
                         (o["id"],))
        assert last["to_stage"] == o["stage"], o["slug"]
        assert (o["stage"] == "Closed Lost") == bool(o["loss_reason"]), o["slug"]
    # seeding writes nothing to the log the guard reads
    assert store.scalar("SELECT count(*) FROM _writes") == 0


def test_the_lumen_files_validate(world):
    files = crm_seed.load(world)
    assert len(files["accounts.yaml"][1].accounts) >= 60


def test_a_world_without_crm_seeds_nothing():
    meridian = load_world("meridian")
    slot = Slot(template_for(meridian))
    with slot.store() as st:
        assert st.scalar("SELECT count(*) FROM crm_accounts") == 0
        assert st.scalar("SELECT count(*) FROM crm_opportunities") == 0
    slot.close()


def test_seed_a_small_world(world, tmp_path):
    slot = fresh_store(world, tmp_path)
    w = world_with(world, tmp_path, GOOD)
    with slot.store() as st:
        crm_seed.seed(st, w)
        o = S.by_slug(st, "jordan.blake", "opportunities", "acme-renewal")
        assert o["probability"] == 60 and o["contact_name"] == "Ann Ace" and o["type"] == "Renewal"
        hist = S.stage_history(st, "jordan.blake", o["id"])
        assert [(h["from_stage"], h["to_stage"]) for h in hist] == [("Qualification", "Proposal"), (None, "Qualification")]
        assert hist[0]["at"] == "2026-05-01T14:00:00Z"
        lost = S.by_slug(st, "jordan.blake", "opportunities", "bolt-lost")
        assert lost["loss_reason"] == "Price" and lost["type"] == "New Business"
        assert S.by_slug(st, "jordan.blake", "contacts", "bo.bolt")["owner"] == "rachel.kim"   # the account's owner
        acc = S.by_slug(st, "jordan.blake", "accounts", "acme")
        tl = S.timeline(st, "jordan.blake", "accounts", acc["id"])
        kinds = sorted(a["kind"] for a in tl["upcoming"] + tl["past"])
        assert kinds == ["call", "note", "task"]
        lead = S.by_slug(st, "jordan.blake", "leads", "cara-dent")
        assert S.timeline(st, "jordan.blake", "leads", lead["id"])["upcoming"][0]["subject"] == "Demo"
    slot.close()


@pytest.mark.parametrize("name, text, error", [
    ("accounts.yaml", ACCOUNTS.replace("owner: rachel.kim", "owner: rachel.kym"), "accounts.1.owner: 'rachel.kym' is not a person"),
    ("accounts.yaml", ACCOUNTS.replace("industry: Fintech", "industry: Banking"), "accounts.1.industry"),
    ("accounts.yaml", ACCOUNTS.replace("id: bolt", "id: acme"), "accounts.1.id: duplicate id 'acme'"),
    ("accounts.yaml", ACCOUNTS.replace("arr: 120000", "arr: 120000, colour: red"), "accounts.0.colour: Extra inputs"),
    ("contacts.yaml", CONTACTS.replace("account: bolt", "account: volt"), "contacts.1.account: no account 'volt'"),
    ("contacts.yaml", CONTACTS.replace("bo@bolt.io", "bo-at-bolt"), "contacts.1.email: 'bo-at-bolt' is not a valid email"),
    ("opportunities.yaml", OPPS.replace("loss_reason: Price, ", ""), "opportunities.1.loss_reason: required when the stage is Closed Lost"),
    ("opportunities.yaml", OPPS.replace("loss_reason: Price", "loss_reason: Vibes"), "opportunities.1.loss_reason"),
    ("opportunities.yaml", OPPS.replace("stage: Proposal\n", "stage: Negotiation\n"), "opportunities.0.history: the last entry (Proposal) must be the current stage"),
    ("opportunities.yaml", OPPS.replace("amount: 120000", "amount: -1"), "opportunities.0.amount"),
    ("opportunities.yaml", OPPS.replace('close_date: "2026-06-30"', 'close_date: "2026-06-31"'), "opportunities.0.close_date"),
    ("opportunities.yaml", OPPS.replace("stage: Proposal\n", "stage: Won\n"), "opportunities.0.stage"),
    ("opportunities.yaml", OPPS.replace("contact: ann.ace", "contact: bo.bolt"), "opportunities.0.contact: 'bo.bolt' works at 'bolt'"),
    ("opportunities.yaml", OPPS.replace("2026-05-01T09:00:00", "2026-02-01T09:00:00"), "history.1.at: earlier than the entry before it"),
    ("opportunities.yaml", OPPS.replace("account: acme\n", "account: acne\n"), "opportunities.0.account: no account 'acne'"),
    ("leads.yaml", LEADS.replace("status: New", "status: Hot"), "leads.0.status"),
    ("leads.yaml", LEADS.replace("owner: tessa.grant", "owner: nobody"), "leads.0.owner: 'nobody' is not a person"),
    ("leads.yaml", LEADS.replace('created: "2026-06-08T16:20:00"', 'created: "2026-07-08T16:20:00"'), "leads.0.created: 2026-07-08T16:20:00 is after the world clock"),
    ("activities.yaml", ACTS.replace("{opportunity: acme-renewal}", "{opportunity: nope}"), "activities.0.related.opportunity: no opportunity 'nope'"),
    ("activities.yaml", ACTS.replace("{account: acme}", "{account: acme, lead: cara-dent}"), "activities.1.related: name exactly one record"),
    ("activities.yaml", ACTS.replace("kind: call", "kind: fax"), "activities.0.kind"),
    ("activities.yaml", ACTS.replace('who: miguel.santos, at: "2026-06-05T15:00:00"}', 'who: miguel.santos, at: "2026-06-05T15:00:00", due: "2026-06-09"}'), "activities.0.due: only tasks have a due date"),
])
def test_bad_world_files_are_clear_errors(world, tmp_path, name, text, error):
    slot = fresh_store(world, tmp_path)
    w = world_with(world, tmp_path, {**GOOD, name: text})
    with slot.store() as st, pytest.raises(WorldError) as e:
        crm_seed.seed(st, w)
    assert error in str(e.value), str(e.value)
    assert str(tmp_path / "crm" / name) in str(e.value)
    slot.close()


def test_invalid_yaml_names_the_file(world, tmp_path):
    w = world_with(world, tmp_path, {**GOOD, "leads.yaml": "leads: [\n"})
    with pytest.raises(WorldError) as e:
        crm_seed.load(w)
    assert "leads.yaml" in str(e.value) and "invalid YAML" in str(e.value)
