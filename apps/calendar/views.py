"""What Calendar's route modules share: formatting (Google Calendar, en-US), the date range of a
view, the view models of the day / week / month grids and the mini month, the template context,
and the answer to an action taken from a view (the view re-rendered, with a toast)."""
from __future__ import annotations

import calendar as pycal
import re
from datetime import date, datetime, time, timedelta

from flask import abort, g, redirect, request, url_for
from jinja2_fragments.flask import render_block

from apps.calendar import service
from apps.core import locale
from apps.web import density
from apps.web.render import flash_toast, is_htmx, render, toast

VIEWS = ("day", "week", "month", "schedule", "4days")   # the view menu's order (Google Calendar: D, W, M, A, X)
VIEW_NAMES = {"day": "Day", "week": "Week", "month": "Month", "schedule": "Schedule", "4days": "4 days"}
VIEW_KEYS = {"day": "d", "week": "w", "month": "m", "schedule": "a", "4days": "x"}
SCHEDULE_DAYS = 28
HOUR_PX = 48                    # an hour's height in the day and week grids
COMPACT_HOUR_PX = 40            # … under the compact density (Google Calendar's Compact), apps.web.density


def hour_px() -> int:
    """An hour's height in pixels for this request's density."""
    return COMPACT_HOUR_PX if density.current() is density.Density.COMPACT else HOUR_PX


def px_per_min() -> float:
    return hour_px() / 60
MONTH_CHIPS = 3
BACK = re.compile(r"^/calendar/(day|week|month|schedule|4days)/(\d{4}-\d{2}-\d{2})$")


# ---------------------------------------------------------------- formatting (Google Calendar, en-US)
def fmt_time(dt: datetime | time, suffix: bool = True) -> str:
    """An event's time: "9am", "9:30" (``suffix`` False), "09:30" in en-GB and de-DE."""
    return locale.clock(dt, lower=True, drop_zero=True, suffix=suffix)


def fmt_clock(t: time) -> str:
    """Dropdown label: "9:00am" (en-GB, de-DE: "09:00")."""
    return locale.clock(t, lower=True)


def fmt_range(s: datetime, e: datetime) -> str:
    """"9:30 – 10am", "11am – 12:30pm"."""
    same = (s.hour < 12) == (e.hour < 12) and s.date() == e.date()
    return f"{fmt_time(s, not same)} – {fmt_time(e)}"


def _md(d: date) -> str:
    return locale.day_month(d, full=True)


def when_text(ev: dict) -> str:
    """The card's time line: "Monday, April 6 ⋅ 9:30 – 10am"."""
    s, e = ev["start"], ev["end"]
    if ev["all_day"]:
        last = (e - timedelta(days=1)).date()
        if last == s.date():
            return locale.weekday_day(s.date())
        return f"{_md(s.date())} – {locale.medium(last, full=True)}"
    if s.date() == e.date():
        return f"{locale.weekday_day(s.date())} ⋅ {fmt_range(s, e)}"
    return f"{locale.medium(s.date(), full=True)}, {fmt_time(s)} – {locale.medium(e.date(), full=True)}, {fmt_time(e)}"


def _week_start(d: date) -> date:
    return d - timedelta(days=(d.weekday() + 1) % 7)          # Sunday first (en-US)


def _range(view: str, d: date) -> tuple[date, date]:
    if view == "day":
        return d, d + timedelta(days=1)
    if view == "4days":
        return d, d + timedelta(days=4)
    if view == "schedule":
        return d, d + timedelta(days=SCHEDULE_DAYS)
    if view == "week":
        s = _week_start(d)
        return s, s + timedelta(days=7)
    first = d.replace(day=1)
    s = _week_start(first)
    last = first.replace(day=pycal.monthrange(d.year, d.month)[1])
    e = _week_start(last) + timedelta(days=7)
    return s, e


def _title(view: str, d: date) -> str:
    if view == "day":
        return f"{_md(d)}, {d.year}"
    if view == "month":
        return d.strftime("%B %Y")
    s, e = _range(view, d)
    last = e - timedelta(days=1)
    if s.month == last.month:
        return s.strftime("%B %Y")
    if s.year == last.year:
        return f"{s.strftime('%b')} – {last.strftime('%b')} {s.year}"
    return f"{s.strftime('%b')} {s.year} – {last.strftime('%b')} {last.year}"


def _step(view: str, d: date, n: int) -> date:
    if view == "day":
        return d + timedelta(days=n)
    if view == "4days":
        return d + timedelta(days=4 * n)
    if view == "schedule":
        return d + timedelta(days=SCHEDULE_DAYS * n)
    if view == "week":
        return d + timedelta(days=7 * n)
    m = d.month - 1 + n
    y, m = d.year + m // 12, m % 12 + 1
    return date(y, m, min(d.day, pycal.monthrange(y, m)[1]))


def parse_day(s: str) -> date:
    """A view's day from its URL (``2026-04-06``); anything else is a 404."""
    try:
        return date.fromisoformat(s)
    except ValueError:
        abort(404)


def view_url(view: str, d: date) -> str:
    """``/calendar/<view>/<day>``."""
    return url_for("calendar.view", view=view, day=d.isoformat())


def back_view() -> tuple[str, date]:
    """The view an action came from (``back``), default: the week of today."""
    m = BACK.match(request.values.get("back", ""))
    if m:
        try:
            return m.group(1), date.fromisoformat(m.group(2))
        except ValueError:
            pass
    return "week", service.today(g.store)


def template_ctx(**extra) -> dict:
    """What every Calendar template gets: the search box, formatting, response names, plus ``extra``."""
    return {"app_name": "calendar", "search": {"action": url_for("calendar.search"), "placeholder": "Search",
                                               "q": extra.pop("q", ""), "clear": url_for("calendar.index")},
            "fmt_time": fmt_time, "fmt_range": fmt_range, "when_text": when_text,
            "responses": service.RESPONSE_NAMES, **extra}


# ---------------------------------------------------------------- view models
def _layout(segs: list[dict]) -> None:
    """Side-by-side columns for overlapping timed events of one day (sets ``left``/``width`` in %)."""
    def flush(cluster):
        cols: list[int] = []                          # end minute of the last event in each column
        for sg in cluster:
            for i, end in enumerate(cols):
                if end <= sg["m0"]:
                    cols[i] = sg["m1"]
                    sg["col"] = i
                    break
            else:
                cols.append(sg["m1"])
                sg["col"] = len(cols) - 1
        for sg in cluster:
            sg["left"] = sg["col"] * 100 / len(cols)
            sg["width"] = 100 / len(cols)
    cluster, end = [], -1
    for sg in segs:
        if cluster and sg["m0"] >= end:
            flush(cluster)
            cluster, end = [], -1
        cluster.append(sg)
        end = max(end, sg["m1"])
    if cluster:
        flush(cluster)


def _grid(days: list[date], events: list[dict]) -> dict:
    tz = g.store.tz
    n = len(days)
    cols = {d: [] for d in days}
    alldays = []
    for ev in events:
        if ev["all_day"] or (ev["end"] - ev["start"]) >= timedelta(hours=24):
            first = ev["start"].date()
            last = (ev["end"] - timedelta(seconds=1)).date()
            c0, c1 = max(0, (first - days[0]).days), min(n - 1, (last - days[0]).days)
            if c1 >= 0 and c0 < n:
                alldays.append({**ev, "c0": c0, "span": c1 - c0 + 1})
            continue
        for d in days:
            d0 = datetime.combine(d, time(0), tzinfo=tz)
            d1 = d0 + timedelta(days=1)
            s, e = max(ev["start"], d0), min(ev["end"], d1)
            if s < e:
                m0 = int((s - d0).total_seconds() // 60)
                m1 = int((e - d0).total_seconds() // 60)
                cols[d].append({**ev, "m0": m0, "m1": m1, "top": m0 * px_per_min(),
                                "height": max((m1 - m0) * px_per_min(), 18) - 2, "short": m1 - m0 < 45})
    for d in days:
        cols[d].sort(key=lambda s: (s["m0"], -s["m1"], s["id"]))
        _layout(cols[d])
    lanes: list[list[int]] = []
    for a in alldays:
        for i, lane in enumerate(lanes):
            if all(not (a["c0"] < c0 + sp and c0 < a["c0"] + a["span"]) for c0, sp in lane):
                lane.append((a["c0"], a["span"]))
                a["lane"] = i
                break
        else:
            lanes.append([(a["c0"], a["span"])])
            a["lane"] = len(lanes) - 1
    return {"cols": cols, "alldays": alldays, "lanes": max(1, len(lanes))}


def _per_day(events: list[dict], days: list[date]) -> dict[date, list[dict]]:
    """Each day's events (an event on every day it covers), all-day and multi-day ones first, then by start."""
    out: dict[date, list[dict]] = {x: [] for x in days}
    for ev in events:
        x, last = max(ev["start"].date(), days[0]), (ev["end"] - timedelta(seconds=1)).date()
        while x <= min(last, days[-1]):
            out[x].append(ev)
            x += timedelta(days=1)
    for evs in out.values():
        evs.sort(key=lambda o: (not (o["all_day"] or o["end"] - o["start"] >= timedelta(hours=24)), o["start"], o["id"]))
    return out


def view_ctx(view: str, d: date, swap_oob: bool = False) -> dict:
    """The day / week / month grid around ``d``: its days, events laid out, navigation links."""
    store, user = g.store, g.caller.user
    s, e = _range(view, d)
    cals = service.shown_calendars(store, user)
    events = service.events_between(store, user, s, e, cals)
    now = store.local(store.now())
    today = now.date()
    days = [s + timedelta(days=i) for i in range((e - s).days)]
    ctx = {"view": view, "day": d, "days": days, "today": today, "now": now, "title": _title(view, d),
           "prev_url": view_url(view, _step(view, d, -1)), "next_url": view_url(view, _step(view, d, 1)),
           "today_url": view_url(view, today), "self_url": view_url(view, d), "swap_oob": swap_oob,
           "now_top": (now.hour * 60 + now.minute) * px_per_min(), "hour_px": hour_px(),
           "hours": [time(h) for h in range(24)], "views": VIEWS,
           "view_names": VIEW_NAMES, "view_keys": VIEW_KEYS, "step_name": "period" if view in ("4days", "schedule") else view}
    if view == "schedule":                           # the days that have events, each with its events in order
        ctx["agenda"] = [(x, evs) for x, evs in _per_day(events, days).items() if evs]
    elif view == "month":
        ctx["per_day"] = _per_day(events, days)
        ctx["weeks"] = [days[i:i + 7] for i in range(0, len(days), 7)]
        ctx["chips"] = MONTH_CHIPS
    else:
        ctx.update(_grid(days, events))
    return ctx


def mini_ctx(month: date, view: str, d: date) -> dict:
    """The sidebar's mini month for ``month``, the days of the current view marked."""
    first = month.replace(day=1)
    s, e = _range("month", first)
    days = [s + timedelta(days=i) for i in range((e - s).days)]
    sel = set()
    if view == "day":
        sel = {d}
    elif view == "week":
        ws = _week_start(d)
        sel = {ws + timedelta(days=i) for i in range(7)}
    elif view == "4days":
        sel = {d + timedelta(days=i) for i in range(4)}
    return {"mini_month": first, "mini_weeks": [days[i:i + 7] for i in range(0, len(days), 7)],
            "mini_sel": sel, "mini_prev": _step("month", first, -1).strftime("%Y-%m"),
            "mini_next": _step("month", first, 1).strftime("%Y-%m"), "view": view, "day": d,
            "today": service.today(g.store)}


def side_ctx(view: str, d: date) -> dict:
    """The sidebar: the mini month, my calendars and other people's (invitations are events on the
    grid with Yes / No / Maybe in their card, as in Google Calendar: there is no invitations tray)."""
    store, user = g.store, g.caller.user
    return {**mini_ctx(d, view, d), "cals": service.calendars(store, user)}


def view_fragment(view: str, d: date, swap_oob: bool = False) -> str:
    """The view's grid (``#cal-view``) as HTML, to go with another answer (``swap_oob``: swapped out
    of band)."""
    return render_block("calendar/page.html", "calview", **template_ctx(**view_ctx(view, d, swap_oob)))


def fragment(template: str, status: int = 200, headers: dict | None = None, oob: list[str] | None = None, **ctx):
    """A partial template as a fragment (the card, a dialog, the mini month), with the Calendar's
    template context."""
    return render(template, partial=True, status=status, headers=headers, oob=oob, **template_ctx(**ctx))


def after_change(message: str, status: int = 200):
    """Answer to an action from a view: the re-rendered view (+ closed popover, toast)."""
    view, d = back_view()
    if not is_htmx():
        flash_toast(message)
        return redirect(view_url(view, d))
    return render("calendar/page.html", "calview", partial=True, status=status,
                  oob=['<div id="cal-pop" hx-swap-oob="true"></div>', toast(message)],
                  headers={"HX-Retarget": "#cal-view", "HX-Reswap": "outerHTML"}, **template_ctx(**view_ctx(view, d)))
