"""Task SLAs (ServiceNow's ``task_sla`` related list), computed from the incident, its history and the
world clock — nothing is stored.

SLA definitions: one resolution SLA per priority (``SLA_HOURS``), on a 24×7 schedule, so business
elapsed time equals actual elapsed time. An incident's current SLA starts when it was opened; its breach
time is the record's ``sla_due`` and whether it breached is ``breached`` (the same rule the list and the
form's SLA badge use). Each earlier priority (from the history's Priority rows) shows as an SLA that was
Cancelled when the priority changed, as ServiceNow cancels and re-attaches on a change.
Stage: In progress, Paused (On Hold), Completed (Resolved/Closed), Cancelled (Canceled incident).
"""
from __future__ import annotations

from datetime import datetime

from apps.core.store.db import Store, parse_iso
from apps.tickets.service.base import PRIORITY_LABELS, SLA_HOURS, breached, sla_due


def definition(priority: int) -> str:
    """The SLA definition's name, e.g. "P1 resolution (4 hour)"."""
    h = SLA_HOURS[priority]
    span = f"{h // 24} day" if h % 24 == 0 and h >= 24 else f"{h} hour"
    return f"P{priority} resolution ({span})"


def _duration(secs: float) -> str:
    """ServiceNow's duration: "2 Days 3 Hours 4 Minutes" (largest units, no zero parts)."""
    mins = int(max(secs, 0)) // 60
    d, h, m = mins // 1440, (mins % 1440) // 60, mins % 60
    parts = [f"{n} {u}{'s' if n != 1 else ''}" for n, u in ((d, "Day"), (h, "Hour"), (m, "Minute")) if n]
    return " ".join(parts) or "0 Minutes"


def task_slas(store: Store, rec: dict) -> list[dict]:
    """The incident's task SLAs, oldest first: definition, stage, start, breach time, business elapsed
    (text and seconds), business elapsed percentage, has breached."""
    if rec.get("kind") not in (None, "incident") or not rec.get("opened_at"):
        return []
    out = []
    changes = store.all("SELECT old, at FROM tk_history WHERE record_table='incident' AND record=? "
                        "AND field='Priority' AND old != '' ORDER BY id", (rec["id"],)) if rec.get("id") else []
    for old, at in changes:
        p = next((k for k, v in PRIORITY_LABELS.items() if v == old), None)
        if p is not None:
            out.append(_row(p, rec["opened_at"], parse_iso(at), "Cancelled", False))
    state = rec.get("state")
    if state in ("Resolved", "Closed"):
        end, stage = parse_iso(rec.get("resolved_at") or rec.get("closed_at") or rec["updated_at"]), "Completed"
    elif state == "Canceled":
        end, stage = parse_iso(rec.get("closed_at") or rec["updated_at"]), "Cancelled"
    else:
        end, stage = store.now(), "Paused" if state == "On Hold" else "In progress"
    out.append(_row(rec["priority"], rec["opened_at"], end, stage, breached(store, rec)))
    return out


def _row(priority: int, start: str, end: datetime, stage: str, has_breached: bool) -> dict:
    target = SLA_HOURS[priority] * 3600
    elapsed = max((end - parse_iso(start)).total_seconds(), 0)
    return {"definition": definition(priority), "priority": priority, "stage": stage, "start": start,
            "breach_time": sla_due(start, priority), "elapsed": _duration(elapsed), "elapsed_secs": int(elapsed),
            "percentage": round(100 * elapsed / target, 2), "has_breached": has_breached}
