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
    new = {k: r for k, r in S._agent_new(ctx, "sheets_filters").items() if str(r.get("tab")) == str(tab)}
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

