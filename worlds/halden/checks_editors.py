"""Checks of the halden tasks that need the editors' newer features: filter views, charts, suggestions,
tables, objects on slides. Expected values come from the world's files and the exports (the mail times of
the IOIs, the tracker's rows), never typed by hand; the guard fails any write a check does not vouch for.
"""
from __future__ import annotations

import re
from pathlib import Path

from apps.sheets.service.filters import shown_rows_in_export
from harness.verify import artifacts as A
from harness.verify.checks import world_module
from harness.verify.guard import Vouch

C = world_module(Path(__file__).parent, "checks")
S = world_module(Path(__file__).parent, "checks_state")

ON_TIME_VIEW = "On-time IOIs"


def _name(text) -> str:
    return re.sub(r"\s+", " ", re.sub(r"[\u2010-\u2015]", "-", str(text or ""))).strip().lower()


def on_time_parties(ctx) -> set[str]:
    """The tracker's parties whose IOI reached the team by the Phase I deadline (the mail's arrival)."""
    deadline = S.phase_i_deadline(ctx)
    return {C.FULL_NAMES[b] for b in C.LETTERS if S.received_at(ctx, b) <= deadline}


def _party_rows(export: dict, tab: str) -> dict[int, str]:
    """The tracker's party rows: row -> the party in column A, from the row under the header to the first
    empty row."""
    cells = A.cells(export, tab)
    out, r = {}, 2
    while (kc := cells.get(f"A{r}")) is not None and str(kc[1].get("value") or "").strip():
        out[r] = str(kc[1]["value"]).strip()
        r += 1
    return out


def on_time_filter_view(ctx):
    """One new filter view on the Buyer Tracker's Tracker tab, named "On-time IOIs", that shows exactly the
    parties whose IOI arrived by the deadline (Sable Point's came on 05-04: not it; Harwick and Lakemont sent
    none) and every other party hidden. A filter that hides rows for everyone, a second view, a sort or an
    edited cell is not vouched for (the guard)."""
    tab = S._tab(ctx.final, S.BUYER_TRACKER, "Tracker")
    new = {k: r for k, r in ctx.added_by_agent("sheets_filters").items() if str(r.get("tab")) == str(tab)}
    views = {k: r for k, r in new.items() if r.get("kind") == "view"}
    if not views:
        return False, "no new filter view on the tracker's Tracker tab", []
    if len(views) > 1:
        return False, f"{len(views)} new filter views: {sorted(_name(r.get('name')) for r in views.values())}", []
    key, view = next(iter(views.items()))
    if _name(view.get("name")) != _name(ON_TIME_VIEW):
        return False, f"the view is named {view.get('name')!r}, not {ON_TIME_VIEW!r}", []
    shows = shown_rows_in_export(ctx.final, key)
    parties = _party_rows(ctx.final, tab)
    visible = {p for r, p in parties.items() if r not in shows["hidden"]}     # rows outside its range show
    want = on_time_parties(ctx)
    if visible != want:
        extra, missing = sorted(visible - want), sorted(want - visible)
        return False, "; ".join(([f"it also shows {extra}"] if extra else [])
                                + ([f"it hides {missing}"] if missing else [])), []
    return True, f"“{view['name']}” shows the {len(want)} on-time bidders", [Vouch.of("sheets_filters", key)]



# ---------------------------------------------------------------- the ranking table in the IOI summary
IOI_SUMMARY = "IOI Summary for VA – DRAFT"
RANKING_HEADING = "Like-for-like ranking"
NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?")


def _ev_cell_problem(text: str, want: float) -> str | None:
    """An EV cell in $m: one figure, right to one decimal — within half a unit of the last decimal written
    when it is written to more ("424.49" is 424.49, "424.5" and "$424.5m" and "US$424,490,000" read the
    same)."""
    nums = NUMBER.findall(text)
    if len(nums) != 1:
        return f"{text!r} is not one figure"
    raw = nums[0].replace(",", "")
    x = float(raw)
    places = len(raw.split(".")[1]) if "." in raw else 0
    if x > 100_000:                          # written in dollars
        x, places = x / 1_000_000, 1
    if abs(x - want) > 0.5 * 10 ** -max(places, 1) + 1e-9:
        return f"{text!r}, not {want:.1f}"
    return None


def ioi_ranking_table(ctx):
    """Under the IOI summary's “Like-for-like ranking” heading, one table: a header row Rank | Bidder | EV ($m),
    then the eight Round 1 bids highest first on Victoria's like-for-like basis (Rheinwerk at FX!B2 not its
    own 1.1100, Alder Creek's equity plus the reference net debt, Marlow less the debt-like items, Kestrel and
    Corliss at their midpoints, Corliss in $m), each to one decimal, ranked 1 to 8 — and nothing else added."""
    doc = A.app_key(ctx.final, IOI_SUMMARY, "doc")
    blocks = [b for _, b in A.blocks(ctx.final, doc)]
    tables = [i for i, b in enumerate(blocks) if b["type"] == "table"]
    if len(tables) != 1:
        return False, f"{len(tables)} tables in the summary", []
    at = tables[0]
    heading = next((i for i in range(at - 1, -1, -1) if blocks[i]["type"] == "heading"), None)
    if heading is None or _name(blocks[heading]["text"]) != _name(RANKING_HEADING):
        return False, "the table is not under “Like-for-like ranking”", []
    rows = [[re.sub(r"\s+", " ", c).strip() for c in r.split("\t")] for r in (blocks[at]["text"] or "").split("\n")]
    rows = [r for r in rows if any(r)]
    head = [c.lower() for c in rows[0]] if rows else []
    if len(head) < 3 or head[0] != "rank" or head[1] != "bidder" or not re.match(r"ev\b", head[2]) or any(head[3:]):
        return False, f"the header row is {rows[:1]}, not Rank | Bidder | EV ($m)", []
    order = C.ranking(ctx)
    if len(rows) - 1 != len(order):
        return False, f"{len(rows) - 1} rows under the header, not {len(order)}", []
    problems = []
    for n, (bidder, row) in enumerate(zip(order, rows[1:]), start=1):
        cells = row + [""] * (3 - len(row))
        if any(cells[3:]):
            problems.append(f"row {n} has more than three cells: {row}")
            continue
        if not re.fullmatch(rf"{n}\.?", cells[0]):
            problems.append(f"row {n} is ranked {cells[0]!r}")
        if bidder.lower() not in cells[1].lower() and C.FULL_NAMES[bidder].lower() not in cells[1].lower():
            problems.append(f"row {n} is {cells[1]!r}, not {bidder}")
        elif (why := _ev_cell_problem(cells[2], C.like_for_like(ctx, bidder))):
            problems.append(f"{bidder}'s EV is {why}")
    if problems:
        return False, "; ".join(problems[:4]), []
    key = next(k for k, b in A.blocks(ctx.final, doc) if b["type"] == "table")
    added = ctx.added("docs_blocks")
    empty = [k for k, b in A.blocks(ctx.final, doc) if str(k) in added and not (b["text"] or "").strip()]
    return True, f"the eight bids ranked, {order[0]} first", A.block_vouches(ctx, [key, *empty])   # the empty
    # paragraph a table leaves after it (or the caret's) is nothing


# ---------------------------------------------------------------- the top bid as a Big number slide
BOARD_DECK = "Board Update – Project Juniper (2026-05-13) DRAFT"
AFTER_SLIDE = "Process status"


def top_bid_big_number(ctx):
    """A new Big number slide in the board deck right after “Process status”: its number the top Round 1 bid
    like-for-like ($m, to one decimal: Rheinwerk at FX!B2, not its own 1.1100), the line under it naming
    that bidder and no other (and no trap figure), nothing else on the slide (no object); the rest of the
    deck unchanged (the guard)."""
    deck0, deck = A.app_key(ctx.initial, BOARD_DECK, "deck"), A.app_key(ctx.final, BOARD_DECK, "deck")
    before = {s["key"] for s in A.slides(ctx.initial, deck0)}
    final = A.slides(ctx.final, deck)
    new = [s for s in final if s["key"] not in before]
    if len(new) != 1:
        return False, f"{len(new)} new slides in the board deck", []
    s = new[0]
    at = [x["key"] for x in final].index(s["key"])
    if at == 0 or _name(final[at - 1]["boxes"].get("title")) != _name(AFTER_SLIDE):
        return False, f"the new slide is not right after “{AFTER_SLIDE}”", []
    if s.get("layout") != "big_number":
        return False, f"a {s.get('layout')} slide, not a Big number", []
    objs = [o for o in A.records(ctx.final, "slides_objects").values()
            if str(o["slide"]) == s["key"] and o.get("kind") != "placeholder"]
    if objs:
        return False, f"{len(objs)} other object(s) on the slide", []
    top = C.ranking(ctx)[0]
    if (why := _ev_cell_problem(s["boxes"].get("title", ""), C.top_bid(ctx))):
        return False, f"the big number is {why}", []
    line = s["boxes"].get("body", "")
    others = [b for b in C.LETTERS if b != top and (b.lower() in line.lower() or C.FULL_NAMES[b].lower() in line.lower())]
    if top.lower() not in line.lower() or others:
        return False, f"the line under it reads {line!r}: not {top} alone", []
    traps = C.own_rate_figures(ctx) + C.alder_trap_figures(ctx)
    figures = [float(n.replace(",", "")) for n in NUMBER.findall(line)]
    if any(abs(f - t) < 0.051 for f in figures for t in traps):
        return False, f"the line under it gives a trap figure: {line!r}", []
    return True, f"slide {at + 1}: {s['boxes'].get('title')} — {line}", A.slide_vouches(ctx, s)
