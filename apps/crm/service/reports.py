"""The pipeline board, reports grouped by stage, owner or month, and the home dashboard."""
from __future__ import annotations

from apps.core.errors import Invalid
from apps.core.store.db import Store
from apps.crm.schema import OPEN_STAGES, STAGE_PROBABILITY, STAGES
from apps.crm.service.base import _all, _require_user
from apps.crm.service.values import date_range, month_range, quarter_range, today


def _opps_for(store: Store, user: str, scope: str, period: str) -> list[dict]:
    if scope not in ("all", "mine"):
        raise Invalid("Show my opportunities or all of them.", "scope")
    rows = _all(store, "opportunities")
    if scope == "mine":
        rows = [r for r in rows if r["owner"] == user]
    if period not in ("all", ""):
        rng = date_range(store, period)
        if rng is None:
            raise Invalid("Choose a close-date range like this quarter.", "period")
        lo, hi = rng[0].isoformat(), rng[1].isoformat()
        rows = [r for r in rows if r["close_date"] and lo <= r["close_date"] <= hi]
    return rows


def stage_columns(rows: list[dict]) -> list[dict]:
    """Opportunities as a Kanban board: one column per stage, in picklist order, with its
    opportunities (in the order given), ``count``, ``total`` amount and ``probability``."""
    cols = []
    for st in STAGES:
        opps = [r for r in rows if r["stage"] == st]
        cols.append({"stage": st, "opps": opps, "count": len(opps), "total": sum(r["amount"] or 0 for r in opps),
                     "probability": STAGE_PROBABILITY[st]})
    return cols


def pipeline(store: Store, user: str, scope: str = "all", period: str = "THIS_QUARTER") -> list[dict]:
    """The pipeline board: ``stage_columns`` of the opportunities closing in ``period``, closing
    soonest first."""
    _require_user(store, user)
    rows = _opps_for(store, user, scope, period)
    return stage_columns(sorted(rows, key=lambda r: (r["close_date"] or "", r["id"])))


def report(store: Store, user: str, group_by: str = "stage", period: str = "THIS_QUARTER",
           scope: str = "all", include_closed: bool = False) -> dict:
    """Sum of amount and count of opportunities grouped by ``stage`` or ``owner`` (open ones unless
    ``include_closed``), closing in ``period`` (``THIS_QUARTER``… or ``all``).
    Returns {groups: [{key, label, count, amount, rows}], count, amount, range}."""
    _require_user(store, user)
    if group_by not in ("stage", "owner"):
        raise Invalid("Group by stage or by owner.", "group")
    rows = _opps_for(store, user, scope, period)
    if not include_closed:
        rows = [r for r in rows if r["stage"] in OPEN_STAGES]
    groups: dict[str, dict] = {}
    for r in sorted(rows, key=lambda r: (r["close_date"] or "", r["id"])):
        k = r[group_by]
        g = groups.setdefault(k, {"key": k, "label": r["owner_name"] if group_by == "owner" else k,
                                  "count": 0, "amount": 0, "rows": []})
        g["count"] += 1
        g["amount"] += r["amount"] or 0
        g["rows"].append(r)
    if group_by == "stage":
        out = [groups[s] for s in STAGES if s in groups]
    else:
        out = sorted(groups.values(), key=lambda g: (-g["amount"], g["label"]))
    rng = date_range(store, period) if period not in ("all", "") else None
    return {"groups": out, "count": sum(g["count"] for g in out), "amount": sum(g["amount"] for g in out),
            "range": rng}


def dashboard(store: Store, user: str) -> dict:
    """Tiles: open pipeline by stage (this quarter), closed won this quarter, open opportunities
    closing this month."""
    _require_user(store, user)
    by_stage = report(store, user, "stage", "THIS_QUARTER")
    q0, q1 = quarter_range(today(store))
    won = [r for r in _all(store, "opportunities")
           if r["stage"] == "Closed Won" and r["close_date"] and q0.isoformat() <= r["close_date"] <= q1.isoformat()]
    m0, m1 = month_range(today(store))
    closing = sorted([r for r in _all(store, "opportunities") if r["stage"] in OPEN_STAGES and r["close_date"]
                      and m0.isoformat() <= r["close_date"] <= m1.isoformat()],
                     key=lambda r: (r["close_date"], -(r["amount"] or 0), r["id"]))
    top = max([g["amount"] for g in by_stage["groups"]] or [0])
    bars = [{"stage": s, "amount": next((g["amount"] for g in by_stage["groups"] if g["key"] == s), 0),
             "count": next((g["count"] for g in by_stage["groups"] if g["key"] == s), 0)} for s in OPEN_STAGES]
    for b in bars:
        b["pct"] = round(100 * b["amount"] / top, 1) if top else 0
    return {"bars": bars, "pipeline_total": by_stage["amount"], "pipeline_count": by_stage["count"],
            "won_amount": sum(r["amount"] or 0 for r in won), "won_count": len(won), "won": won,
            "closing": closing, "closing_amount": sum(r["amount"] or 0 for r in closing),
            "quarter": (q0, q1), "month": (m0, m1)}
