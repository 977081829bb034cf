"""Checks of the Service Desk fidelity tasks (issue 21): reference fields, the CMDB and Canceled."""
from __future__ import annotations


def _incident(export: dict, number: str) -> tuple[str | None, dict | None]:
    for k, r in export["tables"]["tk_incidents"]["records"].items():
        if r["number"] == number:
            return k, r
    return None, None


def _group_name(export: dict, gid) -> str:
    r = export["tables"]["tk_groups"]["records"].get(str(gid)) if gid is not None else None
    return r["name"] if r else "(none)"


def starboard_owner_group(ctx) -> int | None:
    """The assignment group working the Starboard collector ticket (INC0010437) at the start."""
    return _incident(ctx.initial, "INC0010437")[1]["assignment_group"]


def starboard_owner(ctx) -> str:
    """The engineer working the Starboard collector ticket (INC0010437) at the start."""
    return _incident(ctx.initial, "INC0010437")[1]["assigned_to"]


def meadowline_routed_like_starboard(ctx):
    """INC0010443 (Meadowline's collector ticket) is In Progress with INC0010437's group and assignee,
    and its impact and urgency (so its priority) are as they were."""
    key, rec = _incident(ctx.final, "INC0010443")
    _, before = _incident(ctx.initial, "INC0010443")
    group, person = starboard_owner_group(ctx), starboard_owner(ctx)
    want = (f"INC0010443 In Progress, group {_group_name(ctx.initial, group)}, assigned to {person}, "
            f"impact/urgency unchanged")
    if rec is None:
        return False, f"{want}; found no INC0010443"
    found = (f"{rec['state']}, group {_group_name(ctx.final, rec['assignment_group'])}, assigned to "
             f"{rec['assigned_to'] or '(empty)'}, impact {rec['impact']}, urgency {rec['urgency']}")
    ok = (rec["state"] == "In Progress" and rec["assignment_group"] == group and rec["assigned_to"] == person
          and (rec["impact"], rec["urgency"]) == (before["impact"], before["urgency"]))
    return ok, f"{want}; found {found}", {"tk_incidents": {key: ["state", "assignment_group", "assigned_to"]}}
