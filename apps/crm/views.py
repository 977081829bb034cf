"""What CRM's route modules share: the template context, formatting, the object check, fragments,
and the pipeline board and the close-an-opportunity dialog (answers to a stage change from a record
page or from the board)."""
from __future__ import annotations

from datetime import date

from flask import abort, g, request, url_for

from apps.core import locale
from apps.core.errors import Invalid
from apps.crm import service as S
from apps.web import arrange
from apps.web.render import flash_toast, render, toast
from apps.web.render import go as navigate

ICONS = {"accounts": "building-office-2", "contacts": "user", "leads": "star", "opportunities": "trophy"}
COLORS = {"accounts": "#5867e8", "contacts": "#a094ed", "leads": "#f88962", "opportunities": "#fcb95b"}


def obj_or_404(obj: str) -> str:
    """``obj`` if it names a CRM object (``accounts``, ``leads``…), else a 404."""
    if obj not in S.OBJECTS:
        abort(404)
    return obj


def filters_from(args) -> list[dict]:
    """A list view's or a report's filters from a query string or form: ``f`` = ``field|op|value``."""
    out = []
    for raw in args.getlist("f"):
        parts = raw.split("|", 2)
        if len(parts) != 3:
            raise Invalid("That filter isn't valid.", "filters")
        out.append({"field": parts[0], "op": parts[1], "value": parts[2]})
    return out


def filter_arg(f: dict) -> str:
    """A filter as its ``f`` query-string value (``filters_from`` reads it back)."""
    return f"{f['field']}|{f['op']}|{f['value']}"


def template_ctx(**extra) -> dict:
    """What every CRM template gets: the tabs, the search box, formatting, plus ``extra``."""
    q = extra.pop("q_global", "")
    return {"app_name": "crm", "S": S, "scope_opts": SCOPES, "search_scope": extra.pop("search_scope", "all"), "ICONS": ICONS, "COLORS": COLORS, "money": S.money,
            "money_short": S.money_short, "tabs": arrange.permute("crm.nav", TABS), "launcher_tabs": TABS, "current_tab": extra.pop("tab", ""),
            "search": {"action": url_for("crm.search"), "placeholder": "Search CRM records…", "q": q,
                       "clear": url_for("crm.index")},
            "choices": choices, "pairs": lambda xs: [(x, x) for x in xs], "fmt_month": fmt_month,
            "fmt_date": fmt_date, "fmt_dt": fmt_dt, "fmt_value": fmt_value, **extra}


SCOPES = [("all", "All")] + [(o, S.LABEL_PLURAL[o]) for o in ("accounts", "contacts", "opportunities", "leads")]
TABS = [("home", "Home", "crm.index", {}), ("accounts", "Accounts", "crm.list_view", {"obj": "accounts"}),
        ("contacts", "Contacts", "crm.list_view", {"obj": "contacts"}),
        ("leads", "Leads", "crm.list_view", {"obj": "leads"}),
        ("opportunities", "Opportunities", "crm.list_view", {"obj": "opportunities"}),
        ("pipeline", "Pipeline", "crm.pipeline", {}), ("reports", "Reports", "crm.reports", {}),
        ("dashboard", "Dashboards", "crm.dashboard", {})]


def choices(f: dict) -> list[tuple[str, str]]:
    """A picklist's options for ``select_menu`` ("--None--" first when it may be empty)."""
    opts = [] if f["required"] else [("", "--None--")]
    return opts + [(c, c) for c in f["choices"]]


def fmt_date(iso: str | None) -> str:
    """"6/30/2026" (Salesforce, en-US; "30/06/2026" en-GB, "30.06.2026" de-DE)."""
    if not iso:
        return ""
    return locale.numeric(date.fromisoformat(iso[:10]))


def fmt_month(iso: str | None) -> str:
    """Timeline group heading: "June • 2026"."""
    if not iso:
        return ""
    dt = g.store.local(iso)
    return f"{dt.strftime('%B')} • {dt.year}"


def fmt_dt(iso: str | None) -> str:
    if not iso:
        return ""
    dt = g.store.local(iso)
    return f"{locale.numeric(dt)}, {locale.clock(dt)}"


def fmt_value(obj: str, r: dict, name: str) -> str:
    f = S.field(obj, name) or {"type": "text"}
    v = r.get(name)
    t = f["type"]
    if name == "name":
        return r["name"]
    if t == "currency":
        return S.money(v) if v is not None else ""
    if t == "percent":
        return f"{v}%" if v is not None else ""
    if t == "date":
        return fmt_date(v)
    if t == "datetime":
        return fmt_dt(v)
    if t == "user":
        return r.get(name + "_name") or ""
    if t == "account":
        return r.get("account_name") or ""
    if t == "contact":
        return r.get("contact_name") or ""
    if t == "int":
        return locale.number(v) if v is not None else ""
    return v or ""


def go(url: str, message: str | None = None):
    if message:
        flash_toast(message)
    return navigate(url)


def fragment(template: str, status: int = 200, headers: dict | None = None, oob: list[str] | None = None, **ctx):
    """A partial template as a fragment (a dialog, the timeline, lookup items), with the CRM's
    template context."""
    return render(template, partial=True, status=status, headers=headers, oob=oob, **template_ctx(**ctx))


# ---------------------------------------------------------------- the pipeline board, the close dialog
PERIODS = [("THIS_QUARTER", "This Quarter"), ("NEXT_QUARTER", "Next Quarter"), ("THIS_YEAR", "This Year"),
           ("all", "All Time")]


def board_args(src=None) -> tuple[str, str]:
    src = src or request.values
    scope = src.get("scope", "all")
    period = src.get("period", "THIS_QUARTER")
    if scope not in ("all", "mine") or period not in dict(PERIODS):
        raise Invalid("Choose My or All opportunities and a close-date range.", "scope")
    return scope, period


def board_response(message: str, status: int = 200):
    """The pipeline board after a change from it, with the dialog closed and a toast."""
    scope, period = board_args()
    cols = S.pipeline(g.store, g.caller.user, scope, period)
    return render("crm/pipeline.html", "board", partial=True, status=status,
                  oob=['<div id="modal" hx-swap-oob="true"></div>', toast(message)],
                  headers={"HX-Retarget": "#crm-board", "HX-Reswap": "outerHTML"},
                  **template_ctx(tab="pipeline", cols=cols, scope=scope, period=period, periods=PERIODS))


def close_stage_dialog(r: dict, stage: str, back: str, errors=None, message=None, status=200, reason=""):
    """The "close this opportunity" dialog (won, or lost with a reason), into ``#modal``."""
    return fragment("crm/_close.html", status=status, r=r, stage=stage, back=back, errors=errors or {},
                    message=message, reason=reason,
                    headers={"HX-Retarget": "#modal", "HX-Reswap": "innerHTML"} if status == 200 else None)
