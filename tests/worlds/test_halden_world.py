"""The halden world against its outline (/work/shared/worlds/halden.md, "Key arithmetic"): every figure
recomputed from the compiled world — the IOI letters, the IOI Comparison's FX and Rules tabs, the model's
computed cells, the engagement letter, the VDR's CSVs and PDFs, the CRM, the service desk and Drive's
sharing — and compared with facts.yaml, where the outline's arithmetic is written once as rules."""
from __future__ import annotations

import csv
import re
from pathlib import Path
from types import SimpleNamespace

import pytest

from apps.core.facts import load_facts
from apps.core.store.compile import template_for
from apps.core.store.export import export
from apps.core.store.slot import Slot
from apps.core.world import load_world
from harness.verify.checks import world_module

SOURCE = Path(__file__).resolve().parents[2] / "worlds" / "halden"
ROOT = load_world("halden").root          # the published world rendered (its files quote the facts)
C = world_module(SOURCE, "checks")
CTX = SimpleNamespace(world_root=ROOT)
F = load_facts(SOURCE, "halden").values(0)
TEAM, VDR = ROOT / C.TEAM, ROOT / C.VDR

# The outline's table of multiples (EV / QoE 36.4, EV / management 38.8), best bid first.
MULTIPLES = {"Rheinwerk": (11.66, 10.94), "Granite Harbor": (11.54, 10.82), "Kestrel": (11.40, 10.70),
             "Marlow Peak": (11.36, 10.66), "Alder Creek": (11.27, 10.57), "Sable Point": (10.93, 10.26),
             "Norwell": (10.71, 10.05), "Corliss": (10.16, 9.54)}
# Fees at each like-for-like bid under the executed letter (the outline's figures).
FEES = {"Rheinwerk": 7_109_700, "Granite Harbor": 6_975_000, "Kestrel": 6_825_000, "Marlow Peak": 6_780_000,
        "Alder Creek": 6_684_000, "Corliss": 5_550_000}


@pytest.fixture(scope="module")
def world() -> dict:
    with Slot(template_for("halden")).store() as st:
        return export(st)


def cell(world, book: str, tab: str, a1: str):
    return C.sheet_cells(world, book, tab)[a1]["value"]


def recs(world, table: str) -> list[dict]:
    return list(world["tables"][table]["records"].values())


# ---------------------------------------------------------------- Round 1: like-for-like, ranking, multiples
def test_like_for_like_values_ranking_and_shortlist_come_out_of_the_letters_and_the_rules_tab(world):
    assert cell(world, "IOI Comparison", "FX", "B2") == F["fx_eurusd"] == C.fx(CTX)
    assert [cell(world, "IOI Comparison", "Rules", f"B{r}") for r in range(2, 7)] == [
        F["net_debt"], F["debt_like"], F["qoe_ebitda"], F["mgmt_ebitda"], F["fy26_ebitda"]]
    keys = {"Rheinwerk": "ioi_rheinwerk", "Granite Harbor": "ioi_granite", "Kestrel": "ioi_kestrel",
            "Marlow Peak": "ioi_marlow", "Alder Creek": "ioi_alder", "Sable Point": "ioi_sable",
            "Norwell": "ioi_norwell", "Corliss": "ioi_corliss"}
    lfl = {b: C.like_for_like(CTX, b) for b in C.LETTERS}
    assert lfl == {b: F[k] for b, k in keys.items()}
    assert round(sum(lfl.values()), 2) == F["ioi_sum"] == 3241.29
    assert round(sum(lfl.values()) / 8, 2) == F["ioi_mean"]
    ordered = sorted(lfl.values())
    assert round((ordered[3] + ordered[4]) / 2, 2) == F["ioi_median"] == 411.90
    assert C.ranking(CTX) == ["Rheinwerk", "Granite Harbor", "Kestrel", "Marlow Peak", "Alder Creek", "Sable Point",
                              "Norwell", "Corliss"]
    assert C.late_bidders(CTX) == {"Sable Point"}
    assert C.shortlist(CTX) == F["shortlist"]
    # the traps: Rheinwerk at its own rate would rank Granite first; Alder at v6's net debt
    assert round(C.headline(CTX, "Rheinwerk")[0] * F["rheinwerk_own_rate"], 2) == F["ioi_rheinwerk_own"] < lfl["Granite Harbor"]
    assert round(352 + cell(world, "Juniper Model v6", "Net debt", "B7") / 1000, 2) == F["ioi_alder_v6"] == 435.10


def test_multiples_on_qoe_and_management_ebitda(world):
    qoe, mgmt = cell(world, "IOI Comparison", "Rules", "B4"), cell(world, "IOI Comparison", "Rules", "B5")
    assert {b: (round(C.like_for_like(CTX, b) / qoe, 2), round(C.like_for_like(CTX, b) / mgmt, 2))
            for b in C.LETTERS} == MULTIPLES
    assert round(C.top_bid(CTX) / cell(world, "IOI Comparison", "Rules", "B6"), 2) == F["top_multiple_fy26"]


# ---------------------------------------------------------------- the fee, the equity and the sellers' split
def _fee(tv: float, tier: float, low: float, high: float, minimum: float) -> int:
    return round(max(minimum, low * min(tv, tier) + high * max(tv - tier, 0)))


def test_the_success_fee_from_the_executed_letter_and_the_tracker(world):
    text = (TEAM / "06 Engagement/Engagement Letter – executed (2026-01-12).pdf.md").read_text()
    assert "**1.50%**" in text and "**3.00%**" in text and "**$4,500,000**" in text and "$375,000,000" in text
    tier, low, high, minimum = (cell(world, "Fee & Retainer Tracker", "Success fee", f"B{r}") for r in range(2, 6))
    assert (tier, low, high, minimum) == (F["fee_tier"], F["fee_low_rate"], F["fee_high_rate"], F["fee_minimum"])
    fees = {b: _fee(C.like_for_like(CTX, b) * 1e6, tier, low, high, minimum) for b in FEES}
    assert fees == FEES and fees["Rheinwerk"] == F["fee_at_top"]
    assert fees["Rheinwerk"] - cell(world, "Fee & Retainer Tracker", "Retainer", "D14") == F["fee_at_top_net"] == 6_809_700
    assert cell(world, "Fee & Retainer Tracker", "Success fee", "B11") == F["fee_illustrative_400"] == 6_375_000
    draft = (TEAM / "06 Engagement/Engagement Letter – draft v1 (2025-12-18).pdf.md").read_text()
    assert "1.75%" in draft and "2.50%" in draft
    assert _fee(C.top_bid(CTX) * 1e6, 400e6, 0.0175, 0.025, 4e6) == F["fee_draft_v1_at_top"] == 7_612_250


def test_equity_at_the_top_bid_and_calloways_proceeds(world):
    sha = (VDR / "1 Corporate/1.4 Shareholders' Agreement (2021-06-30).pdf.md").read_text()
    cost = float(re.search(r"purchase price of \$([\d,]+)", sha).group(1).replace(",", "")) / 1e6
    stake = int(re.search(r"representing (\d+)% of the Company", sha).group(1)) / 100
    equity = round(C.top_bid(CTX) - C.rule(CTX, "B2") - C.rule(CTX, "B3"), 2)
    assert equity == F["equity_at_top"] == 354.69
    assert round((1 - stake) * equity, 2) == F["family_proceeds"] and round(stake * equity, 2) == F["calloway_proceeds"]
    assert round(stake * equity / cost, 2) == F["calloway_moic"] == 1.77


# ---------------------------------------------------------------- EBITDA, net debt, NWC, valuation
def test_the_bridge_net_debt_and_debt_like_items_in_model_v7(world):
    assert (cell(world, "Juniper Model v7", "Bridge", "C13"), cell(world, "Juniper Model v7", "Bridge", "D13")) == (
        F["mgmt_ebitda"] * 1000, F["qoe_ebitda"] * 1000)
    assert cell(world, "Juniper Model v7", "Bridge", "E12") == F["qoe_gap"] * 1000
    parts = [cell(world, "Juniper Model v7", "Net debt", f"B{r}") for r in range(3, 7)]
    assert parts == [F["term_loan"] * 1000, F["revolver"] * 1000, F["leases"] * 1000, F["cash"] * 1000]
    assert cell(world, "Juniper Model v7", "Net debt", "B7") == F["net_debt"] * 1000 == 58_300
    assert cell(world, "Juniper Model v7", "Net debt", "B14") == F["debt_like"] * 1000
    assert cell(world, "Juniper Model v7", "Net debt", "B16") == F["net_debt_and_debt_like"] * 1000
    assert cell(world, "Juniper Model v6", "Net debt", "B7") == F["v6_net_debt"] * 1000 == 83_100
    cim = C.doc_blocks(world, "CIM v4 (2026-03-16)")
    assert any("61.7" in b["text"] for b in cim) and not any("39.4" in b["text"] for b in cim)
    assert any("39.4" in b["text"] for b in C.doc_blocks(world, "CIM v3 (2026-03-09)"))


def test_the_nwc_peg_from_the_vdr_csv_and_the_model(world):
    with open(VDR / "2 Financial/2.6 Net Working Capital Apr-2024 to Mar-2026.csv", encoding="utf-8") as f:
        rows = list(csv.reader(f))[1:]
    nwc = [float(r[-1]) for r in rows]
    assert len(nwc) == 24 and all(float(r[1]) + float(r[2]) - float(r[3]) - float(r[4]) == float(r[5]) for r in rows)
    ttm, prior = round(sum(nwc[12:]) / 12 / 1000, 1), round(sum(nwc[:12]) / 12 / 1000, 1)
    assert (ttm, prior) == (F["nwc_ttm"], F["nwc_prior_12"]) and round(sum(nwc) / 24 / 1000, 1) == F["nwc_24m"]
    assert nwc[-1] / 1000 == F["nwc_march"]
    assert round(F["nwc_march"] - F["nwc_24m"], 1) == 3.5 and round(F["nwc_march"] - F["nwc_ttm"], 1) == 2.3
    assert [cell(world, "Juniper Model v7", "NWC", f"B{r}") for r in (30, 31, 35)] == [41_600, 40_400, 1_200]
    assert round(F["qoe_gap"] * C.top_bid(CTX) / F["qoe_ebitda"], 2) == F["gap_at_top_multiple"]


def test_comps_dcf_and_lbo(world):
    assert cell(world, "Comps – Trading & Precedents", "Trading", "F12") == pytest.approx(F["trading_median"], abs=1e-6)
    assert cell(world, "Comps – Trading & Precedents", "Precedents", "F10") == pytest.approx(F["precedent_median"], abs=1e-6)
    assert round(cell(world, "Comps – Trading & Precedents", "Trading", "F6"), 2) == 10.8          # Hayashi, calendarised
    assert round(cell(world, "Comps – Trading & Precedents", "Raw", "C16"), 2) == 10.61           # the unadjusted trap
    assert cell(world, "Juniper Model v7", "DCF", "B16") / 1000 == pytest.approx(F["dcf_ev"], abs=1e-6)
    assert round(cell(world, "Juniper Model v7", "LBO", "D29") / 1000, 1) == F["lbo_ev_20"]
    assert round(cell(world, "Juniper Model v7", "LBO", "D30") / 1000, 1) == F["lbo_ev_25"]
    # the football field on QoE EBITDA: trading 10.0x–11.5x, precedents 11.0x–12.0x
    qoe = C.rule(CTX, "B4")
    assert [round(m * qoe, 1) for m in (10.0, 11.5, 11.0, 12.0)] == [
        F["ff_trading_lo"], F["ff_trading_hi"], F["ff_precedent_lo"], F["ff_precedent_hi"]]


# ---------------------------------------------------------------- the process: counts, CRM, desk, sharing
def test_process_counts_in_the_tracker_the_crm_and_the_data_room(world):
    assert [cell(world, "Buyer Tracker", "Tracker", f"O{r}") for r in range(2, 7)] == [30, F["contacted"], F["ndas"], 18, F["iois"]]
    tracker = C.sheet_rows(world, "Buyer Tracker", "Tracker")
    parties = [r["A"]["value"] for n, r in tracker.items() if n > 1 and r.get("B", {}).get("value") in ("Strategic", "Financial")]
    assert len(parties) == 30 and sum(tracker[n]["B"]["value"] == "Strategic" for n in tracker
                                      if tracker[n].get("A", {}).get("value") in parties) == 14
    opps = [o for o in recs(world, "crm_opportunities") if o["slug"].startswith("juniper-")]
    assert len(opps) == F["contacted"]                                   # every contacted party; Pellham has none
    assert not any("pellham" in o["slug"] for o in opps)
    lost = [o["loss_reason"] for o in opps if o["stage"] == "Closed Lost"]
    assert {r: lost.count(r) for r in set(lost)} == {"Product Gap": 9, "Timing": 3, "Price": 3, "No Decision": 3}
    letters = [i for i in recs(world, "drive_items") if i["name"] in {n.removesuffix(".md") for n in C.LETTERS.values()}]
    assert len(letters) == F["iois"]
    hc = (VDR / "5 HR/5.1 Headcount at 2026-03-31.pdf.md").read_text()
    assert f"**Total headcount at March 31, 2026: {F['headcount']}**" in hc


def test_the_traps_the_outline_sets_are_in_the_world(world):
    tracker = {r["A"]["value"]: r for n, r in C.sheet_rows(world, "Buyer Tracker", "Tracker").items() if "A" in r}
    assert tracker["Harwick Partners"]["H"]["value"] == "Yes"                   # never granted (REQ0004117)
    assert "2026-04-22" in str(tracker["Summit Ridge Instruments"]["H"]["value"])  # never revoked
    assert str(tracker["Sable Point Capital"]["I"]["value"]).startswith("2026-05-01")
    reqs = {r["number"]: r for r in recs(world, "tk_requests")}
    assert reqs["REQ0004117"]["state"] == "Closed Incomplete" and reqs["REQ0004124"]["state"] == "On Hold"
    assert "Marlow Point" in str(reqs["REQ0004009"]) and not any("Marlow Peak" in str(r) for r in reqs.values()
                                                                   if "conflicts" in str(r.get("short_description", "")).lower())
    items = {k: i for k, i in world["tables"]["drive_items"]["records"].items()}
    phase1 = next(k for k, i in items.items() if i["name"] == "0 Phase I")
    on_phase1 = {s["person"] for s in recs(world, "drive_shares") if str(s["item"]) == phase1}
    assert "alicia.ford" in on_phase1 and not {"tom.ellery", "samantha.birch", "gary.lundgren", "dean.whitmore"} & on_phase1
    assert not any(s["person"] == "peter.stanhope" for s in recs(world, "drive_shares"))
    opp = {o["slug"]: o for o in recs(world, "crm_opportunities")}
    assert [opp[f"juniper-{s}"]["amount"] for s in ("kestrel", "rheinwerk", "alder-creek", "marlow-peak", "corliss")] == [
        425_000_000, 374_000_000, 352_000_000, 425_000_000, 380_000_000]        # headline placeholders, wrong on purpose
    assert (opp["juniper-sable-point"]["stage"], opp["juniper-sable-point"]["amount"]) == ("Discovery", 0)
