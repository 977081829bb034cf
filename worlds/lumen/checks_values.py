"""Expected answers of lumen's reading families, computed from the instance's own state (the store's
export at the start, ``ctx.initial``) — never from the facts the world was rendered with: a figure the
templating missed fails that instance instead of grading it against a number the pages don't show."""
from __future__ import annotations

import re
from datetime import date

Q2 = ("2026-04-01", "2026-06-30")


def _records(ctx, table: str) -> list[dict]:
    return list(ctx.initial["tables"][table]["records"].values())


def _q2(ctx, stages: tuple[str, ...]) -> int:
    return sum(o["amount"] or 0 for o in _records(ctx, "crm_opportunities")
               if o["stage"] in stages and Q2[0] <= str(o["close_date"] or "") <= Q2[1])


def q2_closed_won(ctx) -> int:
    """Closed Won, closing 1 April – 30 June 2026."""
    return _q2(ctx, ("Closed Won",))


def q2_best_case(ctx) -> int:
    """Closed Won, Negotiation and Proposal, closing in Q2 (last quarter's best-case definition)."""
    return _q2(ctx, ("Closed Won", "Negotiation", "Proposal"))


def _opportunity(ctx, slug: str) -> dict:
    return next(o for o in _records(ctx, "crm_opportunities") if o["slug"] == slug)


def harrowgate_arr(ctx) -> int:
    """The ARR on Harrowgate Logistics' account record."""
    return next(a for a in _records(ctx, "crm_accounts") if a["slug"] == "harrowgate")["arr"]


def harrowgate_close(ctx) -> date:
    """The close date of the Harrowgate FY27 renewal."""
    return date.fromisoformat(str(_opportunity(ctx, "harrowgate-fy27-renewal")["close_date"]))


def deal_amount(ctx) -> int:
    """The amount on the opportunity the instance asks about (its ``deal`` param)."""
    return _opportunity(ctx, ctx.task.param_values["deal"]["slug"])["amount"]


def meadowline_overcharge(ctx) -> int:
    """Seats billed beyond the order form, at the invoiced seat price — from Olivia Hart's mail."""
    for m in _records(ctx, "mail_messages"):
        body = m.get("body") or ""
        billed = re.search(r"bills (\d+) seats at \$([\d,]+)", body)
        ordered = re.search(r"order form is for (\d+)\s+seats", body)
        if billed and ordered and "INV-2026-0533" in body:
            return (int(billed.group(1)) - int(ordered.group(1))) * int(billed.group(2).replace(",", ""))
    raise LookupError("Olivia Hart's mail about INV-2026-0533 is not in the world")
