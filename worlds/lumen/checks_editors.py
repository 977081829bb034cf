"""Checks of the lumen tasks that need the editors' newer features (filters, charts, tables, objects on
slides). Expected values come from the world's start state, never typed by hand; the guard fails any write
a check does not vouch for.
"""
from __future__ import annotations

from datetime import date
from pathlib import Path

from apps.sheets.service.filters import shown_rows_in_export
from harness.verify import artifacts as A
from harness.verify.answer import states, states_by_label
from harness.verify.checks import world_module
from harness.verify.guard import Vouch

FORECAST = "Q2 FY26 Forecast"
PIPELINE = "Q2 Pipeline"
MIGUEL = "Miguel Santos"
LATE_STAGES = ("Negotiation", "Proposal")


def _columns(cells: dict) -> dict[str, str]:
    """Header text -> column letter, from row 1."""
    return {str(kc[1].get("value") or "").strip(): a1[:-1] for a1, kc in cells.items()
            if a1[-1:] == "1" and a1[:-1].isalpha()}


def _opportunity_rows(export: dict, tab: str) -> dict[int, dict[str, object]]:
    """The pipeline's opportunity rows (those with a CRM id): row -> {header: value}."""
    cells = A.cells(export, tab)
    cols = _columns(cells)
    out = {}
    r = 2
    while f"A{r}" in cells:
        row = {h: A.cell_value(cells.get(f"{c}{r}")) for h, c in cols.items()}
        if str(row.get("CRM id") or "").strip():
            out[r] = row
        r += 1
    return out


def miguel_late_stage_filter(ctx):
    """A filter (for everyone, not a filter view) on the forecast's Q2 Pipeline tab that shows exactly
    Miguel Santos's opportunities in Negotiation or Proposal and hides every other opportunity; the Total
    row may show or not. Views, sorts and edits are not vouched for (the guard)."""
    tab = A.tab_key(ctx.final, A.app_key(ctx.final, FORECAST, "sheet"), PIPELINE)
    new = {k: r for k, r in ctx.added_by_agent("sheets_filters").items() if str(r.get("tab")) == str(tab)}
    filters = {k: r for k, r in new.items() if r.get("kind") == "filter"}
    if not filters:
        views = [r.get("name") for r in new.values() if r.get("kind") == "view"]
        return False, "no filter on the Q2 Pipeline tab" + (f" (a filter view {views} hides rows only for whoever "
                                                            "opens it)" if views else ""), []
    key = next(iter(filters))
    hidden = set(shown_rows_in_export(ctx.final, key)["hidden"])
    rows = _opportunity_rows(ctx.initial, A.tab_key(ctx.initial, A.app_key(ctx.initial, FORECAST, "sheet"), PIPELINE))
    want = {r for r, row in rows.items() if row.get("Owner") == MIGUEL and row.get("Stage") in LATE_STAGES}
    shown = {r for r in rows if r not in hidden}
    if shown != want:
        extra = sorted(str(rows[r].get("Opportunity")) for r in shown - want)
        missing = sorted(str(rows[r].get("Opportunity")) for r in want - shown)
        return False, "; ".join(([f"it also shows {extra[:3]}{' …' if len(extra) > 3 else ''} ({len(extra)})"]
                                 if extra else []) + ([f"it hides {missing[:3]} ({len(missing)})"] if missing else [])), []
    return True, f"the filter shows Miguel's {len(want)} deals in Negotiation or Proposal", \
        [Vouch.of("sheets_filters", key)]


# ---------------------------------------------------------------- a comment for the deck's owner
def renewal_figures_comment(ctx):
    """A new comment thread by the user on the exec review's “The FY27 renewal” slide that gives
    Harrowgate's current ARR and the renewal's close date from the CRM (each stated, not hedged), and the
    deck itself unchanged (the guard: no box, object or slide written)."""
    O = world_module(Path(__file__).parent, "checks_office")
    acct = next(a for a in O._recs(ctx.initial, "crm_accounts").values() if a["slug"] == "harrowgate")
    opp = next(o for o in O._opps(ctx.initial) if o["slug"] == "harrowgate-fy27-renewal")
    slide = O._titled(O._slides(ctx.initial, O.EXEC_REVIEW), "The FY27 renewal")
    threads = {k: c for k, c in ctx.added_by_agent("slides_comments").items() if not c.get("parent")}
    on_slide = {k: c for k, c in threads.items() if str(c["slide"]) == str(slide["key"])}
    if not on_slide:
        elsewhere = len(threads)
        return False, "no new comment on the FY27 renewal slide" + (f" ({elsewhere} on other slides)" if elsewhere else ""), []
    if len(on_slide) > 1 or len(threads) > 1:
        return False, f"{len(threads)} new comment threads, not one", []
    key, c = next(iter(on_slide.items()))
    text = c.get("text") or ""
    problems = []
    close = date.fromisoformat(str(opp["close_date"]))
    if not O._stated(text, int(acct["arr"])) or \
            not states_by_label(text, {"ARR": (r"\bARR\b", int(acct["arr"]))}, tolerance=O.TOLERANCE)[0]:
        problems.append(f"the ARR is not stated as {int(acct['arr']):,}")
    if not states(text, "date", close)[0] or \
            not states_by_label(text, {"close": (r"\b(?:clos\w*|renew\w*)\b", close)}, kind="date")[0]:
        problems.append(f"the renewal date is not stated as {opp['close_date']}")
    if problems:
        return False, "; ".join(problems) + f": {text[:120]!r}", []
    return True, "the comment gives the ARR and the renewal date", [Vouch.of("slides_comments", key)]


# ---------------------------------------------------------------- a chart of the forecast by rep
BY_REP_TITLE = "Q2 by rep"
BY_REP_SERIES = ("Closed Won", "Negotiation", "Proposal")


def _grid(export: dict, tab) -> dict[tuple[int, int], dict]:
    return {(c["row"], c["col"]): c for c in A.records(export, "sheets_cells").values() if str(c["tab"]) == str(tab)}


def by_rep_chart(ctx):
    """One new column chart on the forecast's By owner tab, titled “Q2 by rep”: a group of columns per rep
    (the owners listed there, not the Total row), one series each for Closed Won, Negotiation and Proposal
    (not open pipeline or weighted) at the tab's figures. Nothing else changes (the guard)."""
    import re
    from apps.sheets.service.charts import plot_data
    book = A.app_key(ctx.final, FORECAST, "sheet")
    tab = A.tab_key(ctx.final, book, "By owner")
    tabs = {k for k, t in A.records(ctx.final, "sheets_tabs").items() if str(t["book"]) == str(book)}
    new = {k: r for k, r in ctx.added_by_agent("sheets_charts").items() if str(r.get("tab")) in tabs}
    if len(new) != 1:
        return False, f"{len(new)} new charts in the forecast", []
    key, ch = next(iter(new.items()))
    if str(ch["tab"]) != str(tab):
        return False, "the chart is not on the By owner tab", []
    if ch.get("type") != "column":
        return False, f"a {ch.get('type')} chart, not a column chart", []
    norm = lambda t: re.sub(r"\s+", " ", str(t or "")).strip().rstrip(".").lower()     # noqa: E731
    if norm(ch.get("title")) != norm(BY_REP_TITLE):
        return False, f"titled {ch.get('title')!r}", []
    grid = _grid(ctx.initial, A.tab_key(ctx.initial, A.app_key(ctx.initial, FORECAST, "sheet"), "By owner"))
    head = {str(c.get("value") or "").strip(): col for (r, col), c in grid.items() if r == 1}
    reps = [r for r in sorted({r for r, _ in grid if r > 1})
            if str((grid.get((r, 1)) or {}).get("value") or "").strip() not in ("", "Total")]
    want_cats = [str(grid[(r, 1)]["value"]) for r in reps]
    want = {name: [grid[(r, head[name])]["value"] for r in reps] for name in BY_REP_SERIES}
    data = plot_data(_grid(ctx.final, tab), ch["range"])
    got = {s["name"]: s["values"] for s in data["series"]}
    if data["categories"] != want_cats:
        return False, f"the groups are {data['categories']}, not the reps {want_cats}", []
    if got != want:
        return False, f"the series are {sorted(got)}, not {list(BY_REP_SERIES)} at the tab's figures", []
    return True, f"{len(reps)} reps × {len(want)} series", [Vouch.of("sheets_charts", key)]
