"""Checks of the lumen tasks that need Drive's general access (the Share dialog's "Restricted" /
"Lumen Analytics, Inc." / "Anyone with the link" and the link's role). Items are found by their path
in the start state, never by typed keys; the guard fails any write a check does not vouch for.
"""
from __future__ import annotations

PROPOSAL = ("Sales", "Lumen Pricing H2 2026 (proposal)")
PRICE_LIST = ("Sales", "Lumen Pricing 2026")
REVIEW = ("RevOps", "Q2 FY26 Pipeline Review")
REVIEW_OWNER = "jordan.blake"


def _item(ctx, folder: str, name: str, owner: str | None = None) -> tuple[str, dict]:
    """The start state's item ``name`` in a folder named ``folder`` (owned by ``owner`` when given), as it
    is now: (key, record)."""
    start = ctx.initial["tables"]["drive_items"]["records"]
    folders = {k for k, r in start.items() if r["kind"] == "folder" and r["name"] == folder
               and (owner is None or r["owner"] == owner)}
    hits = [k for k, r in start.items() if r["name"] == name and str(r["parent"]) in folders]
    if len(hits) != 1:
        raise LookupError(f"expected one “{name}” in “{folder}”, found {len(hits)}")
    return hits[0], ctx.records("drive_items").get(hits[0]) or {}


def _shares(export: dict) -> set[tuple]:
    return {(r["item"], r["person"], r["role"]) for r in export["tables"]["drive_shares"]["records"].values()}


def _opened_through(ctx, item: dict) -> list[str]:
    """The folders above ``item`` whose general access is not Restricted (their setting reaches it)."""
    records, out = ctx.records("drive_items"), []
    parent = item.get("parent")
    while parent is not None and str(parent) in records:
        folder = records[str(parent)]
        if folder.get("link_access") != "restricted":
            out.append(f"{folder['name']} ({folder.get('link_access')})")
        parent = folder.get("parent")
    return out


def proposal_restricted(ctx):
    """Restricted, and no folder above it opens it with the link either (only the people added get in)."""
    key, item = _item(ctx, *PROPOSAL, owner="owen.price")
    got, through = item.get("link_access"), _opened_through(ctx, item)
    return got == "restricted" and not through, \
        f"the proposal's general access is {got!r}" + (f", open through {through}" if through else ""), \
        {"drive_items": {key: ["link_access", "link_role"]}}


def price_list_still_public(ctx):
    key, item = _item(ctx, *PRICE_LIST, owner="owen.price")
    start = ctx.initial["tables"]["drive_items"]["records"][key]
    ok = (item.get("link_access"), item.get("link_role")) == (start["link_access"], start["link_role"])
    return ok, f"the 2026 price list's link is {item.get('link_access')!r}/{item.get('link_role')!r}"


def people_unchanged(ctx):
    """Nobody added, removed or given another role, anywhere (general access is the only thing to change)."""
    before, after = _shares(ctx.initial), _shares(ctx.final)
    added, gone = sorted(after - before), sorted(before - after)
    return not (added or gone), f"{len(added)} share(s) added or changed, {len(gone)} removed"


def review_org_commenter(ctx):
    key, item = _item(ctx, *REVIEW, owner=REVIEW_OWNER)
    got = (item.get("link_access"), item.get("link_role"))
    return got == ("org", "commenter"), f"the review's general access is {got[0]!r} as {got[1]!r}", \
        {"drive_items": {key: ["link_access", "link_role"]}}


def nothing_else_opened(ctx):
    """No other item's general access changed (the folder above included: its contents would follow)."""
    key, _ = _item(ctx, *REVIEW, owner=REVIEW_OWNER)
    start = ctx.initial["tables"]["drive_items"]["records"]
    changed = sorted(r["name"] for k, r in ctx.records("drive_items").items() if k != key and k in start
                     and (r.get("link_access"), r.get("link_role")) != (start[k]["link_access"], start[k]["link_role"]))
    return not changed, f"general access changed on {changed or 'nothing else'}"
