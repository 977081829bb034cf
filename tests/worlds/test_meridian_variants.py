"""meridian's variants (worlds/meridian/facts.yaml): every figure a task reads agrees with the facts.

(a) every expected-value function the tasks use (``value_from``, ``{from: …}``), computed from a
variant's own files, equals what its facts say, and the store compiled from those files shows the
same figures (sheets, decks); (b) nothing is left unrendered; (c) no variant-0 literal of a varied
figure survives in another variant's files (a forgotten occurrence makes a variant contradict
itself); (d) variants compile, and variant 0 is still the published world.
"""
from __future__ import annotations

import datetime as dt
import re
from types import SimpleNamespace
from functools import lru_cache
from pathlib import Path

import pytest
import yaml

from apps.core.facts import evaluate, load_facts
from apps.core.store.compile import template_for
from apps.core.store.export import export
from apps.core.store.slot import Slot
from apps.core.world import load_world
from harness.verify import artifacts as A
from harness.verify.checks import Ctx, load_function, world_module
from tests.worlds.variants import Variants

SOURCE = Path(__file__).resolve().parents[2] / "worlds" / "meridian"
FACTS = load_facts(SOURCE, "meridian")
V = Variants("meridian")
VARIANTS = list(range(0, 13))

# Expected-value functions -> the fact expression they must give (every one the tasks name is here).
EXPECTED = {
    "checks:gross_tonnage": "gross_tonnage",
    "checks:pleaded_gross_tonnage": "gross_tonnage",
    "checks:rate_2025": "new_rate",
    "checks:minimum_2025": "new_min",
    "checks:copla_limit": "copla_limit",
    "checks:fund_constituted": "fund",
    "checks:fund_shortfall": "shortfall",
    "checks:final_spill": "final_spill",
    "checks:third_party_total": "third_party_total",
    "checks:all_claims_total": "all_claims_total",
    "checks:deductible": "deductible",
    "checks:priya_billed_amount": "priya_billed",
    "checks:port_calder_invoices_total": "port_calder_total",
    "checks:claims_deadline": "claims_deadline",
    "checks_work:tourism_revised_amount": "tourism_revised",
    "checks_work:tourism_revised_amounts": "[tourism_claim, tourism_revised]",
    "checks_work:henry_hours": "round(15.5 + henry_entry_hours, 4)",     # Alex's 15.5 live hours + the entry
    "checks:ullage_reduction": "emulsion_oil",
}
# Functions that read the instance's params: function -> (param, {the param's key: fact expression}).
PARAM_EXPECTED = {
    "checks:claim_amount": ("claim", {"coop": "coop_total", "dep-removal": "dep_cleanup", "dep-nrd": "nrd_prelim",
                                      "port-calder": "port_calder_total"}),
    "checks:tank_outflow": ("tank", {"3P": "final_3p", "4P": "final_4p"}),
}


def facts(k: int) -> dict:
    return FACTS.values(k)


def want(expr: str, k: int):
    return evaluate(expr, facts(k))


@lru_cache(maxsize=None)
def world(k: int):
    return load_world(f"meridian@{k}")


def file_ctx(k: int) -> Ctx:
    return Ctx(initial={}, final={}, diff={"tables": {}}, world_root=world(k).root)


@lru_cache(maxsize=4)
def exported(k: int) -> dict:
    with Slot(template_for(f"meridian@{k}")).store() as st:
        return export(st)


def task_functions() -> set[str]:
    """Every ``module:function`` a task of the world names for an expected value."""
    out = set()
    for p in sorted((SOURCE / "tasks").glob("*.yaml")):
        text = p.read_text(encoding="utf-8")
        out |= set(re.findall(r"value_from:\s*\"?([\w]+:[\w]+)", text))
        out |= set(re.findall(r"\{from:\s*\"([\w]+:[\w]+)\"\}", text))
    return out


# ---------------------------------------------------------------------------- (a) expected values
def test_every_expected_value_function_the_tasks_use_is_covered():
    missing = sorted(task_functions() - set(EXPECTED) - set(PARAM_EXPECTED))
    assert missing == [], f"add these to EXPECTED with the fact they must equal: {missing}"


@pytest.mark.parametrize("k", VARIANTS)
def test_expected_values_from_the_files_equal_the_facts(k):
    ctx = file_ctx(k)
    bad = {}
    for ref, expr in EXPECTED.items():
        got = load_function(ref, world(k).root)(ctx)
        got = list(got) if isinstance(got, tuple) else got
        exp = want(expr, k)
        if got != exp:
            bad[ref] = (got, exp)
    assert bad == {}, f"variant {k}: function → (from the files, from the facts): {bad}"


@pytest.mark.parametrize("k", VARIANTS)
def test_expected_values_of_each_param_equal_the_facts(k):
    bad = {}
    for ref, (param, cases) in PARAM_EXPECTED.items():
        for key, expr in cases.items():
            value = {"id": key} if param == "claim" else key
            ctx = Ctx(initial={}, final={}, diff={"tables": {}}, world_root=world(k).root,
                      task=SimpleNamespace(param_values={param: value}))
            got, exp = load_function(ref, world(k).root)(ctx), want(expr, k)
            if got != exp:
                bad[f"{ref}[{key}]"] = (got, exp)
    assert bad == {}, f"variant {k}: {bad}"


def test_every_instance_of_the_first_variants_renders_and_validates():
    """Every family's instances in variants 0–12 render with their facts and params and load as tasks
    (their names resolve), and each keeps the family's shape (same check kinds as the hand-made task)."""
    from harness.tasks.registry import load_instance, load_task, select_instances
    refs = [r for r in select_instances("meridian") if r.variant in VARIANTS]
    kinds = {}
    for r in refs:
        t = load_instance(r)
        shape = [sorted(k for k in c if k not in ("name", "gate", "expected")) for c in t.checks]
        if r.family not in kinds:
            hand = load_task(r.family)
            kinds[r.family] = [sorted(k for k in c if k not in ("name", "gate", "expected")) for c in hand.checks]
        assert shape == kinds[r.family], r.id
    assert len({r.family for r in refs if r.variant}) >= 26


def test_variants_differ_where_tasks_look():
    """The figures tasks ask for take many values across the variants (not one draw repeated)."""
    for expr in ("shortfall", "copla_limit", "third_party_total", "final_spill", "deductible", "new_rate",
                 "claims_deadline", "priya_billed", "tourism_revised", "port_calder_total"):
        seen = {repr(want(expr, k)) for k in range(50)}
        assert len(seen) >= 10, f"{expr}: only {len(seen)} values over 50 variants"


def _cell_values(exp: dict, book: str, tab: str) -> dict[str, object]:
    key = A.tab_key(exp, A.app_key(exp, book, "sheet"), tab)
    return {a1: c.get("value") for a1, (_, c) in A.cells(exp, key).items()}


def _row_by_label(cells: dict, label: str, col: str) -> object:
    for a1, v in cells.items():
        if a1.startswith("A") and v == label:
            return cells.get(col + a1[1:])
    raise KeyError(label)


@pytest.mark.parametrize("k", VARIANTS)
def test_the_store_shows_the_facts(k):
    """Sheets compute from the variant's inputs (formulas stay formulas); decks and docs carry its figures."""
    f, exp = facts(k), exported(k)
    assert exp["variant"] == k
    claims = _cell_values(exp, "Damages Model – Aurelia Dawn", "Claims")
    assert _row_by_label(claims, "CL-002", "D") == f["port_calder_keyed"]
    assert _row_by_label(claims, "CL-004", "D") == f["tourism_claim"]
    assert _row_by_label(claims, "Third-party total", "D") == f["model_third_party"]
    assert _row_by_label(claims, "Total incl. Corvane", "D") == f["model_all_claims"]
    limit = _cell_values(exp, "Damages Model – Aurelia Dawn", "Limit")
    assert (_row_by_label(limit, "Limit", "B"), _row_by_label(limit, "Fund constituted", "B"),
            _row_by_label(limit, "Shortfall", "B")) == (f["copla_limit"], f["fund"], f["shortfall"])
    comp = _cell_values(exp, "Limitation Fund Calculation", "Comparison")
    assert (comp["B2"], comp["B3"], comp["B4"], comp["B5"]) == (f["copla_limit"], f["fund"], f["fund"], f["shortfall"])
    by = _cell_values(exp, "Billing Tracker – M-2026-0147 (live)", "By timekeeper")
    assert round(_row_by_label(by, "Priya Raman", "E"), 2) == f["priya_billed"]
    assert round(_row_by_label(by, "Alex Chen", "D"), 4) == 15.5
    cw = world_module(SOURCE, "checks_work")
    assert cw.model_third_party_total(exp) == f["model_third_party"]
    deck = A.slides(exp, A.app_key(exp, "Client Update – Aurelia Dawn (April 2026)", "deck"))
    picture = next(s for s in deck if s["boxes"].get("title") == "The claims picture")["boxes"]
    for name in ("dep_cleanup", "port_calder_total", "coop_total", "tourism_claim", "nrd_prelim"):
        assert f"${f[name]:,}" in picture["left"], name
    assert f"${f['corvane_own']:,}" in picture["right"] and f"${f['marina_claim']:,}" in picture["right"]


@pytest.mark.parametrize("k", VARIANTS)
def test_the_documents_agree_with_each_other(k):
    """What several documents state of one figure is the same figure (the checks read one of them)."""
    f, root = facts(k), world(k).root
    matter = root / "drive/sofia.marchetti/Matters/Corvane – Aurelia Dawn (M-2026-0147)"
    complaint = (matter / "01 Pleadings/Halcyon Complaint for Exoneration or Limitation (2026-03-30).pdf.md").read_text()
    assert f"{f['gross_tonnage']:,} x ${f['old_rate']:,}) | ${f['fund']:,}" in complaint
    csv_total = sum(int(r.split(",")[-1]) for r in
                    (matter / "04 Claims/Port Calder – Invoice Summary.csv").read_text().strip().splitlines()[1:])
    assert csv_total == f["port_calder_total"]
    coop = (matter / "04 Claims/Notice of Claim – Calder Bay Fishermen's Cooperative.pdf.md").read_text()
    heads = [int(x.replace(",", "")) for x in re.findall(r"\| ([\d,]{7,}) \|", coop)]
    assert sum(heads) == f["coop_total"]
    dep = (matter / "04 Claims/State DEP – Cost Recovery Letter (2026-03-27).pdf.md").read_text()
    items = [int(x.replace(",", "")) for x in re.findall(r"\| ([\d,]{6,}) \|", dep)]
    assert sum(items) == f["dep_cleanup"]
    survey = (matter / "02 Vessel & Casualty/Final Survey Report – Calder Marine Surveys (2026-03-06).pdf.md").read_text()
    table = survey.split("**5.2 Tank-by-tank", 1)[1].split("**5.3", 1)[0].replace("*", "")
    rows = [[c.strip() for c in line.strip("|").split("|")] for line in table.splitlines()
            if re.match(r"\| (\d[PS]|Slop|Total)", line)]
    num = lambda s: int(s.replace(",", ""))
    tanks = [r for r in rows if r[0] != "Total"]
    assert len(tanks) == 14 and all(num(r[1]) - num(r[2]) == num(r[4]) for r in tanks)
    assert sum(num(r[4]) for r in tanks) == f["final_spill"] == num(next(r for r in rows if r[0] == "Total")[4])
    tracker = yaml.safe_load((matter / "08 Billing/Billing Tracker – M-2026-0147 (live).gsheet.yaml").read_text())
    priya = [r for r in tracker["tabs"][0]["rows"][1:] if r and r[1] == "Priya Raman"]
    assert {r[6] for r in priya} == {f["priya_rate"]}
    old = (matter / "08 Billing/Billing Tracker – M-2026-0147.csv").read_text().splitlines()
    for line in old:
        if ",Priya Raman," in line:
            hours, rate, amount = line.rsplit(",", 3)[1:]
            assert int(rate) == f["priya_rate"] and abs(float(hours) * int(rate) - float(amount)) < 0.006, line
    order = (matter / "01 Pleadings/Order Directing Notice and Restraining Suits (2026-04-01).pdf.md").read_text()
    assert f["claims_deadline"].strftime("%A, %B %-d, %Y") in order


# ---------------------------------------------------------------------------- (b) nothing left unrendered
def rendered_texts(k: int) -> dict[str, str]:
    return V.rendered(k)


@pytest.mark.parametrize("k", [0, 1, 57, 199])
def test_nothing_is_left_unrendered(k):
    assert V.unrendered(k) == []


# ---------------------------------------------------------------------------- (c) no stale literal
CHECKED = ["gross_tonnage", "deadweight", "net_tonnage", "new_rate", "old_rate", "new_min", "old_min",
           "fund", "copla_limit", "shortfall", "final_spill", "ullage_spill", "prelim_spill", "ullage_3p",
           "ullage_4p", "final_3p", "final_4p", "dep_cleanup", "port_calder_total", "port_calder_keyed",
           "coop_total", "tourism_claim", "tourism_revised", "nrd_prelim", "corvane_own", "marina_claim",
           "third_party_total", "all_claims_total", "model_third_party", "model_all_claims", "deductible",
           "claims_deadline", "draft_bar_date", "dep_osro", "coop_lobster", "corvane_throughput", "pc_ses1"]
# Literals that stay on purpose: the 1:1 series ends on 29 May whatever the claims deadline is.
FIXED = {("calendar.yaml", "2026-05-29"), ("chat/partners.yaml", "$2.5")}   # and the fees estimate "$2.5–3M"


def spellings(v) -> set[str]:
    if isinstance(v, dt.date):
        return {v.isoformat(), v.strftime("%B %-d"), v.strftime("%-d %B"), v.strftime("%b %-d"), v.strftime("%-d %b")}
    out = {f"{v:,}"}
    if v >= 10000:
        out.add(str(v))
    if v >= 1_000_000 and v % 1_000_000:
        out.add("$" + f"{v / 1e6:.6f}".rstrip("0").rstrip("."))
    return out


def find(text: str, s: str) -> list[int]:
    if s[0].isdigit():
        head = r"(?<![\w.,])" if "," in s else r"(?<![\w.])"
    else:
        head = r"(?<!\w)" if s[0].isalpha() else ""
    tail = r"(?![\d]|[.,]\d)" if s[-1].isdigit() else r"(?!\w)"
    return [m.start() for m in re.finditer(head + re.escape(s) + tail, text)]


@pytest.mark.parametrize("k", range(1, 13))
def test_no_variant_0_figure_is_left_in_another_variant(k):
    v0, fk = facts(0), facts(k)
    theirs = set().union(*(spellings(x) for n, x in fk.items()
                           if isinstance(x, (int, dt.date)) and not isinstance(x, bool)))
    stale = []
    texts = rendered_texts(k)
    for name in CHECKED:
        if fk[name] == v0[name]:
            continue
        for s in spellings(v0[name]) - theirs:
            for rel, text in texts.items():
                if (rel, s) in FIXED:
                    continue
                for at in find(text, s):
                    stale.append(f"{rel}: {name} {s!r} …{text[max(0, at - 40):at + 30]!r}")
    assert stale == [], "\n".join(stale[:20])


# ---------------------------------------------------------------------------- (d) compiling
def test_a_variant_compiles_and_variant_0_is_the_published_world():
    assert exported(3)["variant"] == 3 and Path(template_for("meridian@3")).is_file()
    assert V.published_digests_changed() == []
