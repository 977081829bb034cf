"""The halden world's variants (worlds/halden/facts.yaml): every variant says what its facts say.

What varies: the executed engagement letter's fee terms and retainer (quoted by the letter, Victoria's
mail about it, the Fee & Retainer Tracker and Billing's invoice mail), the sellers' split and Calloway's
2021 price (the SHA, the entity chart, the CIMs and decks, the CRM, Nathaniel's mail and his trigger), the
LBO's exit multiple (both models, the DCF and LBO notes, the board deck) and the headcount by site (the HR
schedule, the plants sheet, the CBA, the org chart, the teaser and CIMs' round figure, the management
presentations and the CRM account). (a) the figures the tasks read — computed by the world's own check
functions from a variant's files and compiled store — are the variant's facts; (b) no template mark
survives rendering; (c) a figure that changed leaves no trace of its published value behind; (d)
variants compile and variant 0 is the published world.
"""
from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path

import pytest
import yaml

from apps.core.facts import load_facts
from apps.core.store.compile import template_for
from apps.core.store.export import export
from apps.core.store.slot import Slot
from apps.core.variants import source_files, templated
from apps.core.world import load_world
from harness.verify.checks import Ctx, world_module

ROOT = Path(__file__).resolve().parents[2]
SOURCE = ROOT / "worlds" / "halden"
VARIANTS = [0, 1, 2, 3, 5, 8, 13]
TRACKER = "Fee & Retainer Tracker"


@lru_cache(maxsize=None)
def facts(k: int) -> dict:
    return load_facts(SOURCE, "halden").values(k)


@lru_cache(maxsize=None)
def state(k: int):
    world = load_world(f"halden@{k}" if k else "halden")
    with Slot(template_for(world)).store() as st:
        e = export(st)
    return world.root, e


def ctx(k: int) -> Ctx:
    root, e = state(k)
    return Ctx(initial=e, final=e, diff={"tables": {}}, world_root=root)


def module(name: str):
    return world_module(SOURCE, name)


def records(k: int, name: str) -> list[dict]:
    return list(state(k)[1]["tables"][name]["records"].values())


def cell(k: int, book: str, tab: str, a1: str):
    e = state(k)[1]["tables"]
    [b] = [bk for bk, r in e["sheets_books"]["records"].items()
           if e["drive_items"]["records"][str(r["item"])]["name"] == book]
    [t] = [tk for tk, r in e["sheets_tabs"]["records"].items() if str(r["book"]) == b and r["name"] == tab]
    [c] = [r for r in e["sheets_cells"]["records"].values() if str(r["tab"]) == t and r["a1"] == a1]
    return c["value"]


def text(k: int, rel: str) -> str:
    return (Path(state(k)[0]) / rel).read_text(encoding="utf-8")


# ---------------------------------------------------------------- (a) what the tasks read = the facts
@pytest.mark.parametrize("k", VARIANTS)
def test_the_fee_the_tasks_compute_is_the_facts(k):
    f = facts(k)
    iois, st = module("checks_iois"), module("checks_state")
    assert iois.success_fee_at_top_usd(ctx(k)) == f["fee_at_top"]
    assert iois.success_fee_net_usd(ctx(k)) == f["fee_at_top_net"]
    assert round(st.fee_at_top_bid_value(ctx(k))) == f["fee_at_top"]
    # The tracker computes what the letter says, from its own inputs.
    assert [cell(k, TRACKER, "Success fee", a) for a in ("B2", "B3", "B4", "B5")] == \
        [f["fee_tier"], f["fee_low_rate"], f["fee_high_rate"], f["fee_minimum"]]
    assert cell(k, TRACKER, "Success fee", "B11") == f["fee_illustrative_400"]
    assert cell(k, TRACKER, "Success fee", "B13") == f["fee_illustrative_400"] - f["retainer_cap"]
    assert [cell(k, TRACKER, "Retainer", a) for a in ("D9", "D10", "D12", "D14")] == \
        [f["retainer_invoiced"], f["retainer_paid"], f["retainer_monthly"], f["retainer_cap"]]
    mail = text(k, "mail/2026-05-01-varden-retainer-invoice-may.yaml")
    assert f"USD {f['retainer_monthly']:,}.00" in mail and f"USD {f['retainer_invoiced']:,}.00" in mail


@pytest.mark.parametrize("k", VARIANTS)
def test_the_headcount_is_the_facts_and_adds_up(k):
    f = facts(k)
    assert module("checks_process").headcount(ctx(k)) == f["headcount"]
    [varden] = [a for a in records(k, "crm_accounts") if a.get("name") == "Varden Flow Technologies, Inc."]
    assert varden["employees"] == f["headcount"]
    hr = text(k, "drive/fiona.gallagher/Project Juniper – VDR/5 HR/5.1 Headcount at 2026-03-31.pdf.md")
    rows = {m[0]: [int(x) if x.isdigit() else 0 for x in m[1:]] for m in
            re.findall(r"^\| \**([^|*]+?)\** \| \**(\d+|—)\** \| \**(\d+)\** \| \*\*(\d+)\*\* \|$", hr, re.M)}
    sites = [r for name, r in rows.items() if name != "Total"]
    assert len(sites) == 5 and all(h + s == t for h, s, t in sites)
    assert rows["Total"] == [sum(r[i] for r in sites) for i in range(3)] == [f["hc_hourly"], f["hc_salaried"], f["headcount"]]
    moves = dict(re.findall(r"^\| \**(December 31, 2024|December 31, 2025|March 31, 2026)\** \| \**(\d+)\** \|$", hr, re.M))
    assert int(moves["December 31, 2024"]) - 41 + 22 - 4 == int(moves["December 31, 2025"]) == f["headcount"] + 3
    plants = text(k, "drive/fiona.gallagher/Project Juniper – VDR/6 Operations/6.1 Plants.pdf.md")
    assert f"| {f['hc_rockford']} | {f['hc_greenville']} | {f['hc_monterrey']} |" in plants


@pytest.mark.parametrize("k", VARIANTS)
def test_the_lbo_range_the_model_computes_is_the_facts(k):
    f = facts(k)
    assert module("checks_process").lbo_range(ctx(k)) == [f"{f['lbo_ev_25']:.1f}", f"{f['lbo_ev_20']:.1f}"]
    assert cell(k, "Juniper Model v7", "LBO", "B7") == cell(k, "Juniper Model v6", "LBO", "B7") == f["lbo_exit_multiple"]
    assert abs(cell(k, "Juniper Model v7", "LBO", "B25") - f["lbo_exit_net_debt"]) < 1e-6
    notes = text(k, "drive/julian.pierce/Project Juniper – Deal Team (internal)/03 Valuation/DCF and LBO notes.gdoc.md")
    assert f"**${f['lbo_ev_25']:.1f}m–${f['lbo_ev_20']:.1f}m**" in notes and f"exit equity {f['lbo_exit_equity']:.1f}" in notes


@pytest.mark.parametrize("k", VARIANTS)
def test_calloways_stake_and_proceeds_are_the_facts(k):
    f, c = facts(k), module("checks")
    assert c.calloway_stake(ctx(k)) == (f["calloway_pct"] / 100, f["calloway_cost"])
    assert abs(c.calloway_proceeds_usd(ctx(k)) - f["calloway_proceeds"] * 1_000_000) <= 5_000      # facts round to $0.01m
    assert round(c.calloway_proceeds_usd(ctx(k)) / 1e6 / f["calloway_cost"], 2) == f["calloway_moic"]
    chart = text(k, "drive/fiona.gallagher/Project Juniper – VDR/1 Corporate/1.2 Entity Chart.pdf.md")
    assert f"**{f['family_pct']}%**" in chart and f"**{f['calloway_pct']}%**" in chart
    ask = text(k, "mail/2026-05-09-calloway-proceeds-at-top-bid.yaml")
    assert f"Fund III's {f['calloway_pct']}%" in ask and f"${f['calloway_cost']:.1f}m" in ask


# ---------------------------------------------------------------- (b) every mark is rendered
@pytest.mark.parametrize("k", [0, 1, 7, 199])
def test_no_template_mark_survives(k):
    root = load_world(f"halden@{k}" if k else "halden").root
    left = [str(p.relative_to(root)) for p in source_files(root) if templated(p) and "{{" in p.read_text()]
    assert left == []


def test_every_variant_solves_and_renders_to_valid_files():
    """All 200 variants draw facts that keep the constraints, and a sample renders to YAML that parses."""
    from apps.core.template import render
    fs = load_facts(SOURCE, "halden")
    files = [(p, p.read_text()) for p in source_files(SOURCE) if templated(p) and p.suffix == ".yaml"]
    files = [(p, t) for p, t in files if "{{" in t and "/tasks/" not in str(p)]
    for k in range(fs.variants):
        env = fs.values(k)
        if k % 20 == 3:
            for p, t in files:
                yaml.safe_load(render(t, env, str(p)))


# ---------------------------------------------------------------- (c) no stale published figure
def stale_spellings(f0: dict) -> dict[str, list[str]]:
    """fact -> the ways the published world writes its value (long enough to mean only it)."""
    return {
        "retainer_monthly": [f"${f0['retainer_monthly']:,}", f"{f0['retainer_monthly']:,}.00", f", {f0['retainer_monthly']}, "],
        "retainer_cap": [f"${f0['retainer_cap']:,}"],
        "retainer_invoiced": [f"${f0['retainer_invoiced']:,}", f"{f0['retainer_invoiced']:,}.00"],
        "retainer_paid": [f"paid ${f0['retainer_paid']:,}", f"{f0['retainer_paid']:,}.00"],
        "fee_tier": [f"${f0['fee_tier']:,}", f"{f0['fee_tier_m']}m"],
        "fee_low_rate": [f"{f0['fee_low_rate'] * 100:.2f}%"],
        "fee_high_rate": [f"{f0['fee_high_rate'] * 100:.2f}%"],
        "fee_illustrative_400": [f"${f0['fee_illustrative_400']:,}"],
        "headcount": [f"**{f0['headcount']}**", f"{f0['headcount']} employees", f"Headcount {f0['headcount']}",
                      f"employees: {f0['headcount']}"],
        "hc_round": [f"c. {f0['hc_round']}"],
        "hc_rockford": [f"Rockford {f0['hc_rockford']}", f"| {f0['hc_rockford']} |"],
        "hc_greenville": [f"Greenville {f0['hc_greenville']}", f"| {f0['hc_greenville']} |"],
        "hc_monterrey": [f"Monterrey {f0['hc_monterrey']}", f"| {f0['hc_monterrey']} |"],
        "hc_rockford_hourly": [f"({f0['hc_rockford_hourly']}", f"| {f0['hc_rockford_hourly']} |"],
        "hc_dec24": [f"| {f0['hc_dec24']} |"],
        "calloway_pct": [f"Fund III's {f0['calloway_pct']}%", f"({f0['calloway_pct']}%)", f"**{f0['calloway_pct']}%**",
                         f"a {f0['calloway_pct']}% minority", f"holds {f0['calloway_pct']}%", f"bought {f0['calloway_pct']}%",
                         f"L.P. {f0['calloway_pct']}%", f"Calloway Ridge Fund III {f0['calloway_pct']}%"],
        "family_pct": [f"({f0['family_pct']}%)", f"**{f0['family_pct']}%**", f"{f0['family_pct']}% / ",
                       f"LLC {f0['family_pct']}%", f"Holdings {f0['family_pct']}%"],
        "calloway_shares": [f"{f0['calloway_shares']:,} shares"],
        "calloway_cost": [f"${f0['calloway_cost']:.1f}m", f"${f0['calloway_cost_usd']:,}"],
        "calloway_proceeds": [f"{f0['calloway_proceeds']:.1f}", f"{f0['calloway_proceeds']:.2f}"],
        "calloway_moic": [f"{f0['calloway_moic']:.2f}x"],
        "lbo_exit_multiple": [f"exit at {f0['lbo_exit_multiple']}x", f"{f0['lbo_exit_multiple']} × 61.0", f", {f0['lbo_exit_multiple']}]"],
        "lbo_ev_20": [f"{f0['lbo_ev_20']:.1f}m"],
        "lbo_ev_25": [f"{f0['lbo_ev_25']:.1f}m"],
        "lbo_exit_equity": [f"exit equity {f0['lbo_exit_equity']:.1f}"],
    }


# Occurrences of a published spelling that mean something else: (fact, spelling) -> {file: count}.
OTHER_MEANINGS: dict[tuple[str, str], dict[str, int]] = {}


def _rendered(k: int) -> dict[str, str]:
    root = load_world(f"halden@{k}" if k else "halden").root
    return {str(p.relative_to(root)): p.read_text() for p in source_files(root)
            if templated(p) and not str(p.relative_to(root)).startswith("tasks/")}


@pytest.mark.parametrize("k", [1, 2, 3, 5, 8])
def test_no_published_figure_survives_where_it_changed(k):
    f0, fk = facts(0), facts(k)
    files = _rendered(k)
    stale = []
    for fact, spellings in stale_spellings(f0).items():
        others = {json.dumps(v, default=str) for name, v in fk.items() if name != fact}
        if fk[fact] == f0[fact] or json.dumps(f0[fact], default=str) in others:
            continue                     # unchanged, or another figure now has the published value
        for s in spellings:
            allowed = OTHER_MEANINGS.get((fact, s), {})
            for rel, body in files.items():
                if rel != "facts.yaml" and body.count(s) > allowed.get(rel, 0):
                    stale.append(f"{rel}: {s!r} ({fact} is {fk[fact]!r} in variant {k})")
    assert stale == []


# ---------------------------------------------------------------- (d) compiles; variant 0 is the world
def test_a_variant_compiles_and_differs():
    path = template_for("halden@3")
    assert path.is_file() and path != template_for("halden")
    assert cell(3, TRACKER, "Success fee", "B2") == facts(3)["fee_tier"] != facts(0)["fee_tier"]


def test_variants_differ_where_the_tasks_look():
    """Across the first 50 variants the task-facing figures take many values (tasks become families)."""
    seen = {name: set() for name in ("fee_at_top", "fee_at_top_net", "retainer_cap", "headcount", "hc_plants",
                                     "calloway_proceeds", "calloway_moic", "lbo_ev_20")}
    for k in range(50):
        f = facts(k)
        for name in seen:
            seen[name].add(f[name])
    assert {n: len(v) for n, v in seen.items() if len(v) < 5} == {}
    assert min(len(seen[n]) for n in ("fee_at_top", "fee_at_top_net", "headcount")) >= 25


def test_every_stale_spelling_is_written_in_the_published_world():
    """The spellings (c) looks for are the ones the files use: each occurs in variant 0, so (c) can fail."""
    files = _rendered(0)
    never = [s for spellings in stale_spellings(facts(0)).values() for s in spellings
             if not any(s in body for body in files.values())]
    assert never == []


def test_a_set_answer_family_counts_its_keys_as_outcomes():
    """`--outcomes` reads a set answer's key (``values``), not the absent ``value``: the LBO range differs by
    the exit multiple a variant draws."""
    from harness.qc.adversaries.workbench import Benches
    from harness.qc.outcomes import outcome
    from harness.tasks.registry import load_instance, select_instances
    refs = [r for r in select_instances("halden/lbo-range") if r.variant in (0, 1, 2)]
    benches = Benches()
    try:
        seen = {outcome(load_instance(r), benches) for r in refs}
    finally:
        benches.close()
    assert len(seen) == 3 and all(s.startswith("answer:[") for s in seen)
    assert {facts(k)["lbo_exit_multiple"] for k in (0, 1, 2)} == {10.5, 10.25, 11.5}
