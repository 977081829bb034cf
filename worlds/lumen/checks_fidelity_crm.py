"""Checks for the CRM's saved reports (the report builder): lumen/q3-pipeline-by-rep-report and
lumen/customer-arr-by-industry-report.

A report is judged as the CRM runs it: its stored definition (report type, columns, grouping, sort)
is read, and its filters are applied, as the CRM applies them, to the records at the end of the
episode — they must keep exactly the records asked for — and to probes (a record moved to each
stage, or to each side of a date edge, or given each account type), so a filter that happens to
give the right list today but not the rule asked for (no stage filter while no Q3 deal is closed
yet, a minimum amount no Q3 deal happens to fall under) fails. A report the prompt ties to named
months is also run on the clock of each day of those months' edges and middle ("rerun before every
forecast call"): a relative date filter (NEXT_QUARTER) that keeps Q3 in June but Q4 in July fails.
"""
from __future__ import annotations

from datetime import date
from pathlib import Path

from harness.verify.checks import world_module

_lumen = world_module(Path(__file__).parent, "checks")
USER = "jordan.blake"


def _norm(s) -> str:
    return " ".join(str(s or "").split()).lower()


def _reports(ctx, name: str) -> list[tuple[str, dict]]:
    return [(k, r) for k, r in ctx.added_by_agent("crm_reports").items() if _norm(r["name"]) == _norm(name)]


def _decorated(ctx, table: str) -> dict[str, dict]:
    """Records as the CRM's filters read them (an account reference by its name)."""
    accounts = {k: r["name"] for k, r in ctx.records("crm_accounts").items()}
    out = {}
    for k, r in ctx.records(table).items():
        d = dict(r, id=int(k))
        if "account" in d:
            d["account_name"] = accounts.get(str(d["account"]), "")
        out[k] = d
    return out


def _clock_on(ctx, day: str | None):
    """The CRM's filter clock: the world's now, or noon (world time) of ``day`` (YYYY-MM-DD)."""
    from datetime import datetime, time, timezone
    clock = _lumen._Clock(ctx)
    if day is not None:
        local = datetime.combine(date.fromisoformat(day), time(12, 0), tzinfo=clock.tz)
        clock._now = local.astimezone(timezone.utc)
    return clock


def _keeps(ctx, obj: str, filters: list[dict], rec: dict, day: str | None = None) -> bool:
    from apps.crm import service as crm
    clock = _clock_on(ctx, day)
    try:
        return all(crm.matches_filter(clock, USER, obj, rec, f) for f in filters)
    except (KeyError, ValueError, TypeError, AttributeError):
        return False


def next_quarter(ctx) -> tuple[str, str]:
    """The quarter after the world clock's (Q3: July–September in lumen)."""
    from apps.crm.service.values import quarter_range
    today = _lumen._Clock(ctx).local(ctx.final["clock"]).date()
    q0, q1 = quarter_range(today)
    nxt = date(q1.year + (q1.month == 12), 1 if q1.month == 12 else q1.month + 1, 1)
    a, b = quarter_range(nxt)
    return a.isoformat(), b.isoformat()


def _judge(ctx, name: str, obj: str, columns: set[str], group_by: str, sort: str, want: set[str],
           probes: list[tuple[dict, bool, str]], rerun_on: tuple[str, ...] = ()):
    reports = _reports(ctx, name)
    if not reports:
        return False, f"no saved report named “{name}”"
    table = {"opportunities": "crm_opportunities", "accounts": "crm_accounts"}[obj]
    recs = _decorated(ctx, table)
    found, good = [], []
    for key, r in reports:
        bad = []
        if r["object"] != obj:
            bad.append(f"a report of {r['object']}")
        else:
            if set(r["columns"] or []) != columns:
                bad.append(f"columns {r['columns']}")
            if r["group_by"] != group_by:
                bad.append(f"grouped by {r['group_by'] or 'nothing'}")
            if r["sort"] != sort:
                bad.append(f"sorted by {r['sort'] or 'default'}")
            got = {k for k, rec in recs.items() if _keeps(ctx, obj, r["filters"] or [], rec)}
            if got != want:
                bad.append(f"returns {len(got)} records ({len(got - want)} extra, {len(want - got)} missing)")
            for probe, keep, what in probes:
                if _keeps(ctx, obj, r["filters"] or [], probe) != keep:
                    bad.append(f"its filters would {'drop' if keep else 'keep'} {what}")
                    break
            for day in rerun_on:
                if {k for k, rec in recs.items() if _keeps(ctx, obj, r["filters"] or [], rec, day)} != want:
                    bad.append(f"rerun on {day} it would return other records")
                    break
        found.append("; ".join(bad) or "right")
        if not bad:
            good.append(key)
    return bool(good), " | ".join(found) + f" (want {len(want)} records)", {"crm_reports": good}


def q3_pipeline_by_rep(ctx):
    """"Q3 open pipeline by rep": opportunities, still open and closing next quarter, grouped by owner,
    columns name/account/stage/amount/close date, biggest amount first."""
    from apps.crm.schema import OPEN_STAGES, OPP_TYPES, STAGE_PROBABILITY, STAGES
    lo, hi = next_quarter(ctx)
    recs = _decorated(ctx, "crm_opportunities")
    want = {k for k, r in recs.items() if r["stage"] in OPEN_STAGES and lo <= str(r["close_date"]) <= hi}
    base = recs[sorted(want, key=int)[0]] if want else next(iter(recs.values()))
    mid = lo[:5] + f"{int(lo[5:7]) + 1:02d}-15"
    probes = [(dict(base, stage=s, probability=STAGE_PROBABILITY[s], close_date=mid), s in OPEN_STAGES,
               f"a {s} deal closing {mid}") for s in STAGES]
    open_q3 = dict(base, stage="Discovery", probability=STAGE_PROBABILITY["Discovery"], close_date=mid)
    probes += [(dict(open_q3, amount=a), True, f"an open deal of ${a:,} closing {mid}") for a in (0, 1, 10 ** 9)]
    probes += [(dict(open_q3, type=t), True, f"an open {t or 'untyped'} deal closing {mid}") for t in (*OPP_TYPES, None)]
    y, m, d = (int(x) for x in lo.split("-"))
    before = date.fromordinal(date(y, m, d).toordinal() - 1).isoformat()
    y, m, d = (int(x) for x in hi.split("-"))
    after = date.fromordinal(date(y, m, d).toordinal() + 1).isoformat()
    probes += [(dict(open_q3, close_date=c), keep, f"an open deal closing {c}")
               for c, keep in ((before, False), (lo, True), (hi, True), (after, False))]
    return _judge(ctx, "Q3 open pipeline by rep", "opportunities", {"name", "account", "stage", "amount", "close_date"},
                  "owner", "-amount", want, probes, rerun_on=(lo, mid, hi))


def customer_arr_by_industry(ctx):
    """"Customer ARR by industry": Customer accounts grouped by industry, columns name/ARR/owner, highest
    ARR first."""
    from apps.crm.schema import ACCOUNT_TYPES, INDUSTRIES
    recs = _decorated(ctx, "crm_accounts")
    want = {k for k, r in recs.items() if r["type"] == "Customer"}
    base = next(iter(recs.values()))
    probes = [(dict(base, type=t), t == "Customer", f"a {t or 'type-less'} account") for t in (*ACCOUNT_TYPES, None)]
    probes += [(dict(base, type="Customer", arr=a), True,
                f"a Customer account with {'no ARR yet' if a is None else f'${a:,} ARR'}") for a in (None, 0, 1, 10 ** 9)]
    probes += [(dict(base, type="Customer", industry=i), True, f"a Customer account in {i or 'no industry'}")
               for i in (*INDUSTRIES, None)]
    return _judge(ctx, "Customer ARR by industry", "accounts", {"name", "arr", "owner"}, "industry", "-arr", want,
                  probes)


def top_customer_industry(ctx) -> str:
    """The industry whose Customer accounts add up to the most ARR (at the start)."""
    sums: dict[str, int] = {}
    for r in ctx.initial["tables"]["crm_accounts"]["records"].values():
        if r["type"] == "Customer":
            sums[r["industry"] or ""] = sums.get(r["industry"] or "", 0) + (r["arr"] or 0)
    return max(sorted(sums), key=lambda k: sums[k])
