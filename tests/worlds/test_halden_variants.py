"""The halden world's variants (worlds/halden/facts.yaml): every variant says what its facts say.

What varies: the executed engagement letter's fee terms and retainer (quoted by the letter, Victoria's
mail about it, the Fee & Retainer Tracker and Billing's invoice mail), the sellers' split and Calloway's
2021 price (the SHA, the entity chart, the CIMs and decks, the CRM, Nathaniel's mail and his trigger), the
LBO's exit multiple (both models, the DCF and LBO notes, the board deck), the headcount by site (the HR
schedule, the plants sheet, the CBA, the org chart, the teaser and CIMs' round figure, the management
presentations and the CRM account) and the top bid: Rheinwerk's euro headline and the desk's EUR/USD close
(the letter, its mail, FX!B2, the desk's closes, Lucy's and Raymond's messages, the CRM, the co-workers) and
the first year of monthly working capital (2.6, both models, the QoE report, Alison's mail and replies),
Marlow Peak's headline and Alder Creek's equity value (their letters, Model v6, the CRM, the co-workers)
the stock in Kestrel's price (its letter, cover mail and print, the CRM note), Corliss's range in
thousands (its letter, the CRM) and Kenji's comps: Hayashi's EV in yen and Bradwell's deal EV (the Comps
sheet, so its medians; the board deck, the DCF notes, Kenji's chat).
(a) the figures the tasks read — computed by the world's own check functions from a variant's files and
compiled store — are the variant's facts; (b) no template mark
survives rendering; (c) a figure that changed leaves no trace of its published value behind; (d)
variants compile and variant 0 is the published world.
"""
from __future__ import annotations

import re

import pytest

from tests.worlds.variants import Variants

V = Variants("halden")
VARIANTS = [0, 1, 2, 3, 5, 8, 13]
TRACKER = "Fee & Retainer Tracker"
facts, ctx, module, records, cell, text = V.facts, V.ctx, V.module, V.records, V.cell, V.text


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


@pytest.mark.parametrize("k", VARIANTS)
def test_the_top_bid_the_tasks_compute_is_the_facts(k):
    """Rheinwerk's euro headline and the desk's EUR/USD close: the like-for-like arithmetic reads them from
    the letter and FX!B2, and the story holds (Rheinwerk first; at its own rate behind Granite Harbor and
    ahead of Kestrel; the shortlist is the five)."""
    f, c = facts(k), module("checks")
    assert c.fx(ctx(k)) == cell(k, "IOI Comparison", "FX", "B2") == f["fx_eurusd"]
    assert c.headline(ctx(k), "Rheinwerk") == (f["rheinwerk_eur"], f["rheinwerk_eur"])
    assert c.top_bid_usd(ctx(k)) == round(f["ioi_rheinwerk"] * 1e6)
    assert c.own_rate_figures(ctx(k)) == [round(f["ioi_rheinwerk_own"], 1), f["ioi_rheinwerk_own"]]
    assert c.ranking(ctx(k))[:3] == ["Rheinwerk", "Granite Harbor", "Kestrel"]
    assert c.shortlist(ctx(k)) == f["shortlist"]
    assert round(c.equity_at_top(ctx(k)), 2) == f["equity_at_top"]
    # unrounded, so the task's ±0.005 is centred on the true multiple (11.655 doesn't pass for 11.6618)
    assert module("checks_iois").top_multiple_qoe(ctx(k)) == pytest.approx(f["ioi_rheinwerk"] / f["qoe_ebitda"], abs=1e-9)
    assert round(module("checks_iois").top_multiple_qoe(ctx(k)), 2) == f["top_multiple_qoe"]
    pdf = text(k, "drive/julian.pierce/Project Juniper – Deal Team (internal)/04 Round 1 IOIs/"
                  "Rheinwerk Armaturen – IOI (2026-04-30).pdf.md")
    from apps.core.template import render
    assert f"EUR {f['rheinwerk_eur']}m ({render('{{ n | words }}', {'n': f['rheinwerk_eur']})} million euros)" in pdf
    [opp] = [o for o in records(k, "crm_opportunities") if o.get("name") == "Juniper – Rheinwerk Armaturen GmbH"]
    assert opp["amount"] == f["rheinwerk_eur"] * 1_000_000          # the placeholder: euros read as dollars
    closes = text(k, "mail/2026-04-30-halden-markets-daily-closes.yaml")
    assert f"EUR/USD  {f['fx_eurusd']:.4f}" in closes


@pytest.mark.parametrize("k", VARIANTS)
def test_marlow_and_alder_the_tasks_compute_are_the_facts(k):
    """Marlow Peak's headline and Alder Creek's equity value: the letters say them (in figures and words),
    the like-for-like arithmetic and the traps follow, and the order holds (Marlow fourth, Alder fifth, both
    through the $410m bar); the CRM placeholders are the headlines, Model v6 carries Alder's equity."""
    f, c = facts(k), module("checks")
    from apps.core.template import render
    assert c.headline(ctx(k), "Marlow Peak") == (f["marlow_ev"], f["marlow_ev"])
    assert c.headline(ctx(k), "Alder Creek") == (f["alder_equity"], f["alder_equity"])
    assert c.like_for_like(ctx(k), "Marlow Peak") == f["ioi_marlow"]
    assert c.like_for_like(ctx(k), "Alder Creek") == f["ioi_alder"]
    assert c.alder_trap_figures(ctx(k)) == [f["ioi_alder_v6"], f["ioi_alder_dec25"]]
    assert c.ranking(ctx(k)) == ["Rheinwerk", "Granite Harbor", "Kestrel", "Marlow Peak", "Alder Creek",
                                 "Sable Point", "Norwell", "Corliss"]
    assert c.shortlist(ctx(k)) == f["shortlist"]
    iois = "drive/julian.pierce/Project Juniper – Deal Team (internal)/04 Round 1 IOIs/"
    words = lambda n: render("{{ n | words }}", {"n": n})
    assert f"({words(f['marlow_ev'])} million US dollars)" in text(k, iois + "Marlow Peak Partners – IOI (2026-04-30).pdf.md")
    assert f"({words(f['alder_equity'])} million US dollars; US${f['alder_equity'] * 1_000_000:,})" in \
        text(k, iois + "Alder Creek Capital – IOI (2026-04-30).pdf.md")
    opps = {o["name"]: o for o in records(k, "crm_opportunities")}
    assert opps["Juniper – Marlow Peak Partners"]["amount"] == f["marlow_ev"] * 1_000_000
    assert opps["Juniper – Alder Creek Capital"]["amount"] == f["alder_equity"] * 1_000_000
    assert cell(k, "Juniper Model v6", "IOIs", "E3") == f["alder_equity"] * 1000


@pytest.mark.parametrize("k", VARIANTS)
def test_the_stock_in_kestrels_price_is_the_facts(k):
    """The part of Kestrel's price paid in its shares: the letter, its cover mail and print and the CRM note
    say it, and the task's arithmetic reads it from the letter."""
    f = facts(k)
    assert module("checks_iois").stock_component_usd(ctx(k)) == round(f["kestrel_stock"] * 1_000_000)
    said = f"{100 - f['kestrel_stock_pct']}% in cash and {f['kestrel_stock_pct']}% in Kestrel common stock"
    iois = "drive/julian.pierce/Project Juniper – Deal Team (internal)/04 Round 1 IOIs/"
    for rel in ("Kestrel Industrial Group – IOI (2026-04-30).pdf.md", "Kestrel – IOI cover email (print).pdf.md"):
        assert said in text(k, iois + rel).replace("**", ""), rel
    assert said in text(k, "mail/2026-04-30-ioi-kestrel.yaml")


@pytest.mark.parametrize("k", VARIANTS)
def test_corliss_range_in_thousands_is_the_facts(k):
    """Corliss's range, written in $000s: the letter and the CRM note say it, the like-for-like midpoint
    follows, Corliss stays last, and the CRM placeholder is the top of the range."""
    f, c = facts(k), module("checks")
    assert c.headline(ctx(k), "Corliss") == (f["corliss_lo"], f["corliss_hi"])
    assert c.like_for_like(ctx(k), "Corliss") == f["ioi_corliss"] and c.ranking(ctx(k))[-1] == "Corliss"
    assert module("checks_iois").corliss_ev_usd(ctx(k)) == round(f["ioi_corliss"] * 1_000_000)
    said = f"${f['corliss_lo'] * 1000:,} – ${f['corliss_hi'] * 1000:,} (in thousands)"
    assert said in text(k, "drive/julian.pierce/Project Juniper – Deal Team (internal)/04 Round 1 IOIs/"
                           "Corliss Equity Partners – IOI (2026-04-30).pdf.md")
    opps = {o["name"]: o for o in records(k, "crm_opportunities")}
    assert opps["Juniper – Corliss Equity Partners"]["amount"] == f["corliss_hi"] * 1_000_000


@pytest.mark.parametrize("k", VARIANTS)
def test_the_peg_the_tasks_compute_is_the_facts_and_the_schedule_adds_up(k):
    """The first year of monthly working capital moves (2.6's inventory, both models' NWC tabs): each month
    still adds up, and the sellers' 24-month peg, the QoE's TTM and the point between them are the facts."""
    f = facts(k)
    csv = text(k, "drive/fiona.gallagher/Project Juniper – VDR/2 Financial/2.6 Net Working Capital Apr-2024 to Mar-2026.csv")
    rows = [[int(x) for x in ln.split(",")[1:]] for ln in csv.strip().splitlines()[1:]]
    assert len(rows) == 24 and all(ar + inv - ap - acc == nwc for ar, inv, ap, acc, nwc in rows)
    assert round(sum(r[4] for r in rows[:12]) / 12000, 1) == f["nwc_prior_12"]
    for book in ("Juniper Model v7", "Juniper Model v6"):
        assert [cell(k, book, "NWC", f"B{i}") for i in range(3, 27)] == [r[4] for r in rows]
    p = module("checks_deliverables").nwc(ctx(k))
    assert (p["sellers"], p["ttm"], p["adj_sellers"], p["adj_ttm"], p["stake"]) == \
        (f["nwc_24m"], f["nwc_ttm"], f["nwc_adj_24m"], f["nwc_adj_ttm"], f["peg_value"])
    assert module("checks_process").peg_gap(ctx(k)) == round(f["peg_value"] * 1_000_000)
    assert f"${f['nwc_24m']:.1f}m" in text(k, "mail/2026-05-05-nwc-peg-sellers-position.yaml")


@pytest.mark.parametrize("k", VARIANTS)
def test_the_comps_the_tasks_compute_are_the_facts(k):
    """Hayashi's EV (¥bn) and Bradwell's deal EV vary: Kenji's sheet computes the facts' multiples and
    medians, and the board deck, the DCF notes and Kenji's chat quote them."""
    f, p = facts(k), module("checks_process")
    assert p.hayashi_calendarised(ctx(k)) == pytest.approx(f["hayashi_multiple"], abs=1e-6)
    assert p.trading_comps_median(ctx(k)) == pytest.approx(f["trading_median"], abs=1e-6)
    assert p.precedents_median(ctx(k)) == pytest.approx(f["precedent_median"], abs=1e-6)
    comps = "Comps – Trading & Precedents"
    assert cell(k, comps, "Trading", "F12") == pytest.approx(f["trading_median"], abs=1e-6)
    assert cell(k, comps, "Trading", "F13") == pytest.approx(f["trading_mean"], abs=1e-6)
    assert cell(k, comps, "Trading", "H12") == pytest.approx(f["trading_median_cy26"], abs=1e-6)
    assert cell(k, comps, "Raw", "C16") == pytest.approx(f["hayashi_fiscal_multiple"], abs=1e-6)
    assert cell(k, comps, "Precedents", "F10") == pytest.approx(f["precedent_median"], abs=1e-6)
    assert cell(k, comps, "Precedents", "F11") == pytest.approx(f["precedent_mean"], abs=1e-6)
    deck = text(k, "drive/julian.pierce/Project Juniper – Deal Team (internal)/05 Board & Client/"
                   "Board Update – Project Juniper (2026-05-13) DRAFT.gslides.yaml")
    assert f"EBITDA median {f['trading_median']:.1f}x" in deck and f"EBITDA median {f['precedent_median']:.1f}x" in deck
    assert f"→ {f['hayashi_multiple']:.1f}x. If you ever see {f['hayashi_fiscal_multiple']:.2f}x" in \
        text(k, "chat/juniper-model.yaml")


@pytest.mark.parametrize("k", VARIANTS)
def test_the_dcf_the_tasks_compute_is_the_facts(k):
    """The base case's WACC varies: both models' DCF tabs compute the facts' EV and grid from the plan's
    cash flows, their Summary labels name the WACCs, and Lucy's notes, the board deck and her chat agree."""
    f = facts(k)
    assert module("checks_process").dcf_base_ev(ctx(k)) == pytest.approx(f["dcf_ev"] * 1_000_000, abs=1)
    for book in ("Juniper Model v7", "Juniper Model v6"):
        assert [cell(k, book, "Plan", f"{c}11") for c in "CDEFG"] == f["dcf_fcf"]
        assert cell(k, book, "DCF", "B16") == pytest.approx(f["dcf_ev"] * 1000, abs=1e-3)
        grid = [[cell(k, book, "DCF", f"{c}{r}") for c in "BCD"] for r in (22, 23, 24)]
        assert grid == [pytest.approx(row, abs=1e-6) for row in f["dcf_grid"]]
        assert cell(k, book, "Summary", "A18") == f"DCF EV – WACC {f['dcf_wacc'] * 100:.1f}%, terminal growth 2.5%"
        assert (cell(k, book, "Summary", "C19"), cell(k, book, "Summary", "C20")) == \
            (pytest.approx(f["dcf_ev_low"], abs=1e-6), pytest.approx(f["dcf_ev_high"], abs=1e-6))
    rng = f"${f['dcf_ev_low']:.1f}m–${f['dcf_ev_high']:.1f}m"
    notes = text(k, "drive/julian.pierce/Project Juniper – Deal Team (internal)/03 Valuation/DCF and LBO notes.gdoc.md")
    assert f"= ${f['dcf_ev']:.1f}m**" in notes and rng in notes
    deck = text(k, "drive/julian.pierce/Project Juniper – Deal Team (internal)/05 Board & Client/"
                   "Board Update – Project Juniper (2026-05-13) DRAFT.gslides.yaml")
    assert f"→ EV ${f['dcf_ev']:.1f}m; WACC {f['dcf_wacc_lo'] * 100:.1f}–{f['dcf_wacc_hi'] * 100:.1f}% → {rng}" in deck
    assert f"WACC {f['dcf_wacc'] * 100:.1f}%, terminal growth 2.5%" in text(k, "chat/juniper-model.yaml")


def test_the_comps_are_off_rounding_edges_and_their_traps_differ_in_every_variant():
    """In all 200 variants (the DCF's too): Hayashi and Saxby stay the middle two trading peers and Bradwell the third
    precedent (so the medians are what the facts say); no multiple the tasks ask for to one decimal, or the
    sheet shows to two, sits on a half (x.x5 / x.xx5, where a reader's rounding and the checker's could
    differ); and each trap — the CY2026 median, the mean, Hayashi on its March year, the trading median for
    the precedents' — is another figure to one decimal."""
    def near_half(x, places, within=0.02):     # e.g. 10.95 ± 0.002 at one decimal; the DCF's 401.548 is 0.002 off
        return abs((x * 10 ** places) % 1 - 0.5) < within

    for k in range(200):
        f = facts(k)
        trading = sorted(f["trading_multiples"])
        assert trading[3:5] == sorted([f["hayashi_multiple"], 11.0]), k
        assert sorted(f["precedent_multiples"])[2] == f["bradwell_ev"] / 32, k
        for name in ("hayashi_multiple", "trading_median", "precedent_median", "trading_mean", "precedent_mean",
                     "trading_median_cy26", "trading_median_fiscal", "hayashi_fiscal_multiple"):
            assert not near_half(f[name], 1) and not near_half(f[name], 2), (k, name, f[name])
        r = {n: round(f[n], 1) for n in ("hayashi_multiple", "hayashi_fiscal_multiple", "trading_median", "trading_mean",
                                         "trading_median_cy26", "trading_median_fiscal", "precedent_median", "precedent_mean")}
        assert r["trading_median"] not in (r["trading_mean"], r["trading_median_cy26"], r["trading_median_fiscal"]), k
        assert r["precedent_median"] not in (r["precedent_mean"], r["trading_median"]), k
        assert r["hayashi_multiple"] not in (r["hayashi_fiscal_multiple"], r["trading_median"]), k
        # the DCF: its base case and the grid's ends, asked or shown in $m to one decimal, and the LBO range
        dcf = {n: f[n] for n in ("dcf_ev", "dcf_ev_low", "dcf_ev_high")}
        assert not any(near_half(x, 1, within=0.01) for x in dcf.values()), (k, dcf)
        rivals = [round(x, 1) for x in (f["dcf_ev_low"], f["dcf_ev_high"], f["dcf_grid"][1][0], f["lbo_ev_20"], f["lbo_ev_25"])]
        assert round(f["dcf_ev"], 1) not in rivals, k


# ---------------------------------------------------------------- (b) every mark is rendered
@pytest.mark.parametrize("k", [0, 1, 7, 199])
def test_no_template_mark_survives(k):
    assert V.unrendered(k) == []


def test_every_variant_solves_and_renders_to_valid_files():
    V.solve_and_render(every=20)


# ---------------------------------------------------------------- (c) no stale published figure
def stale_spellings(f0: dict) -> dict[str, list[str]]:
    """fact -> the ways the published world writes its value (long enough to mean only it)."""
    return {
        "retainer_monthly": [f"${f0['retainer_monthly']:,}", f"{f0['retainer_monthly']:,}.00", f", {f0['retainer_monthly']}, "],
        "retainer_cap": [f"${f0['retainer_cap']:,}"],
        "retainer_invoiced": [f"${f0['retainer_invoiced']:,}", f"{f0['retainer_invoiced']:,}.00"],
        "retainer_paid": [f"paid ${f0['retainer_paid']:,}", f"{f0['retainer_paid']:,}.00"],
        "fee_tier": [f"${f0['fee_tier']:,}", f"MIN(TV, {f0['fee_tier_m']}m)"],
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
        "fx_eurusd": [f"{f0['fx_eurusd']:.4f}", f"\"{f0['fx_eurusd']}\"", f", {f0['fx_eurusd']}, "],
        "rheinwerk_eur": [f"EUR {f0['rheinwerk_eur']}", f"amount: {f0['rheinwerk_eur']}000000"],
        "ioi_rheinwerk_own": [f"USD {f0['ioi_rheinwerk_own']:.1f}"],
        "ioi_rheinwerk": [f"${f0['ioi_rheinwerk']:.1f}m"],
        "ioi_rheinwerk_raymond": [f"~${f0['ioi_rheinwerk_raymond']}m"],
        "equity_at_top": [f"${f0['equity_at_top']:.1f}m"],
        "nwc_24m": [f"${f0['nwc_24m']:.1f}m"],
        "nwc_prior_12": [f"${f0['nwc_prior_12']:.1f}m"],
        "nwc_shift": ["2024,31150,27600,", "Apr-24\", 37800]"],
        "marlow_ev": [f"enterprise value of ${f0['marlow_ev']}m", f"IOI: ${f0['marlow_ev']}m EV"],
        "kestrel_stock_pct": [f"{100 - f0['kestrel_stock_pct']}% in cash and {f0['kestrel_stock_pct']}% in", f"/ {f0['kestrel_stock_pct']}% Kestrel stock"],
        "corliss_lo": [f"${f0['corliss_lo'] * 1000:,} – ${f0['corliss_hi'] * 1000:,}"],
        "alder_equity": [f"${f0['alder_equity']}m", f"{f0['alder_equity']}000000", f", {f0['alder_equity']}000,"],
        "hayashi_ev_jpy": [f"\"Enterprise value\", {f0['hayashi_ev_jpy']},"],
        "hayashi_shown": [f"→ {f0['hayashi_multiple']:.1f}x"],
        "hayashi_fiscal_shown": [f"{f0['hayashi_fiscal_multiple']:.2f}x"],
        "trading_median_shown": [f"median {f0['trading_median']:.1f}x", f"medians {f0['trading_median']:.1f}x"],
        "bradwell_ev": [f"\"Granite Harbor Partners\", {f0['bradwell_ev']},"],
        "precedent_median_shown": [f"EBITDA median {f0['precedent_median']:.1f}x", f"and {f0['precedent_median']:.1f}x)"],
        "dcf_wacc": [f"WACC {f0['dcf_wacc'] * 100:.1f}%, terminal growth", f"WACC {f0['dcf_wacc_lo'] * 100:.1f}–{f0['dcf_wacc_hi'] * 100:.1f}%",
                     f"[\"WACC\", {f0['dcf_wacc']}]"],
        "dcf_ev_shown": [f"→ EV ${f0['dcf_ev']:.1f}m", f"= ${f0['dcf_ev']:.1f}m"],
    }


@pytest.mark.parametrize("k", [1, 2, 3, 5, 8])
def test_no_published_figure_survives_where_it_changed(k):
    assert V.stale(k, stale_spellings(facts(0))) == []


def test_every_stale_spelling_is_written_in_the_published_world():
    """Every fact (c) looks for is written in variant 0 in at least one of its spellings, so (c) can fail for it."""
    assert V.never_written(stale_spellings(facts(0))) == []


# ---------------------------------------------------------------- (d) compiles; variant 0 is the world
def test_a_variant_compiles_and_differs_and_variant_0_is_the_published_world():
    assert cell(3, TRACKER, "Success fee", "B2") == facts(3)["fee_tier"] != facts(0)["fee_tier"]
    assert V.published_digests_changed() == []


def test_variants_differ_where_the_tasks_look():
    """Across the first 50 variants the task-facing figures take many values (tasks become families)."""
    seen = {name: set() for name in ("fee_at_top", "fee_at_top_net", "retainer_cap", "headcount", "hc_plants",
                                     "calloway_proceeds", "calloway_moic", "lbo_ev_20", "ioi_rheinwerk",
                                     "top_multiple_qoe", "equity_at_top", "peg_value")}
    for k in range(50):
        f = facts(k)
        for name in seen:
            seen[name].add(f[name])
    assert {n: len(v) for n, v in seen.items() if len(v) < 5} == {}
    assert min(len(seen[n]) for n in ("fee_at_top", "fee_at_top_net", "headcount", "ioi_rheinwerk")) >= 25


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
    assert len({facts(k)["lbo_exit_multiple"] for k in (0, 1, 2)}) == 3      # three ranges, three outcomes
