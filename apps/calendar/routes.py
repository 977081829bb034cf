"""Calendar GUI: day / week / month views, quick create, the event form, the event card with RSVP,
drag to move, other people's calendars and find a time — thin over ``apps.calendar.service``.

Views live at ``/calendar/<day|week|month>/<YYYY-MM-DD>``. Actions taken from a view send
``back`` (the view's URL) and answer with that view re-rendered (``#cal-view``) plus a toast.
"""
from __future__ import annotations

import calendar as pycal
import re
from datetime import date, datetime, time, timedelta

from flask import abort, g, make_response, redirect, render_template, request, url_for
from jinja2_fragments.flask import render_block
from markupsafe import Markup
from werkzeug.datastructures import MultiDict

from apps.calendar import service
from apps.calendar.blueprint import bp
from apps.core import people as directory
from apps.core.errors import Invalid
from apps.web.render import flash_toast, go, id_arg, is_htmx, render, toast

VIEWS = ("day", "week", "month")
HOUR_PX = 48
PX_PER_MIN = HOUR_PX / 60
MONTH_CHIPS = 3
BACK = re.compile(r"^/calendar/(day|week|month)/(\d{4}-\d{2}-\d{2})$")


# ---------------------------------------------------------------- formatting (Google Calendar, en-US)
def fmt_time(dt: datetime | time, suffix: bool = True) -> str:
    h = dt.hour % 12 or 12
    s = f"{h}" if dt.minute == 0 else f"{h}:{dt.minute:02d}"
    return s + (("am" if dt.hour < 12 else "pm") if suffix else "")


def fmt_clock(t: time) -> str:
    """Dropdown label: "9:00am"."""
    return f"{t.hour % 12 or 12}:{t.minute:02d}{'am' if t.hour < 12 else 'pm'}"


def fmt_range(s: datetime, e: datetime) -> str:
    """"9:30 – 10am", "11am – 12:30pm"."""
    same = (s.hour < 12) == (e.hour < 12) and s.date() == e.date()
    return f"{fmt_time(s, not same)} – {fmt_time(e)}"


def _md(d: date) -> str:
    return f"{d.strftime('%B')} {d.day}"


def when_text(ev: dict) -> str:
    """The card's time line: "Monday, April 6 ⋅ 9:30 – 10am"."""
    s, e = ev["start"], ev["end"]
    if ev["all_day"]:
        last = (e - timedelta(days=1)).date()
        if last == s.date():
            return f"{s.strftime('%A')}, {_md(s.date())}"
        return f"{_md(s.date())} – {_md(last)}, {last.year}"
    if s.date() == e.date():
        return f"{s.strftime('%A')}, {_md(s.date())} ⋅ {fmt_range(s, e)}"
    return f"{_md(s.date())}, {s.year}, {fmt_time(s)} – {_md(e.date())}, {e.year}, {fmt_time(e)}"


def _week_start(d: date) -> date:
    return d - timedelta(days=(d.weekday() + 1) % 7)          # Sunday first (en-US)


def _range(view: str, d: date) -> tuple[date, date]:
    if view == "day":
        return d, d + timedelta(days=1)
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
    s, e = _range("week", d)
    last = e - timedelta(days=1)
    if s.month == last.month:
        return s.strftime("%B %Y")
    if s.year == last.year:
        return f"{s.strftime('%b')} – {last.strftime('%b')} {s.year}"
    return f"{s.strftime('%b')} {s.year} – {last.strftime('%b')} {last.year}"


def _step(view: str, d: date, n: int) -> date:
    if view == "day":
        return d + timedelta(days=n)
    if view == "week":
        return d + timedelta(days=7 * n)
    m = d.month - 1 + n
    y, m = d.year + m // 12, m % 12 + 1
    return date(y, m, min(d.day, pycal.monthrange(y, m)[1]))


def _parse_day(s: str) -> date:
    try:
        return date.fromisoformat(s)
    except ValueError:
        abort(404)


def view_url(view: str, d: date) -> str:
    return url_for("calendar.view", view=view, day=d.isoformat())


def _back() -> tuple[str, date]:
    """The view an action came from (``back``), default: the week of today."""
    m = BACK.match(request.values.get("back", ""))
    if m:
        try:
            return m.group(1), date.fromisoformat(m.group(2))
        except ValueError:
            pass
    return "week", service.today(g.store)


def _ctx(**extra) -> dict:
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
                cols[d].append({**ev, "m0": m0, "m1": m1, "top": m0 * PX_PER_MIN,
                                "height": max((m1 - m0) * PX_PER_MIN, 18) - 2, "short": m1 - m0 < 45})
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


def _view_ctx(view: str, d: date, oob: bool = False) -> dict:
    store, user = g.store, g.caller.user
    s, e = _range(view, d)
    cals = service.shown_calendars(store, user)
    events = service.events_between(store, user, s, e, cals)
    now = store.local(store.now())
    today = now.date()
    days = [s + timedelta(days=i) for i in range((e - s).days)]
    ctx = {"view": view, "day": d, "days": days, "today": today, "now": now, "title": _title(view, d),
           "prev_url": view_url(view, _step(view, d, -1)), "next_url": view_url(view, _step(view, d, 1)),
           "today_url": view_url(view, today), "self_url": view_url(view, d), "oob": oob,
           "now_top": (now.hour * 60 + now.minute) * PX_PER_MIN, "hour_px": HOUR_PX,
           "hours": [time(h) for h in range(24)], "views": VIEWS}
    if view == "month":
        per_day: dict[date, list[dict]] = {x: [] for x in days}
        for ev in events:
            first, last = ev["start"].date(), (ev["end"] - timedelta(seconds=1)).date()
            x = max(first, s)
            while x <= min(last, e - timedelta(days=1)):
                per_day[x].append(ev)
                x += timedelta(days=1)
        for x in days:
            per_day[x].sort(key=lambda o: (not (o["all_day"] or o["end"] - o["start"] >= timedelta(hours=24)),
                                           o["start"], o["id"]))
        ctx["weeks"] = [days[i:i + 7] for i in range(0, len(days), 7)]
        ctx["per_day"] = per_day
        ctx["chips"] = MONTH_CHIPS
    else:
        ctx.update(_grid(days, events))
    return ctx


def _mini_ctx(month: date, view: str, d: date) -> dict:
    first = month.replace(day=1)
    s, e = _range("month", first)
    days = [s + timedelta(days=i) for i in range((e - s).days)]
    sel = set()
    if view == "day":
        sel = {d}
    elif view == "week":
        ws = _week_start(d)
        sel = {ws + timedelta(days=i) for i in range(7)}
    return {"mini_month": first, "mini_weeks": [days[i:i + 7] for i in range(0, len(days), 7)],
            "mini_sel": sel, "mini_prev": _step("month", first, -1).strftime("%Y-%m"),
            "mini_next": _step("month", first, 1).strftime("%Y-%m"), "view": view, "day": d,
            "today": service.today(g.store)}


def _side_ctx(view: str, d: date) -> dict:
    store, user = g.store, g.caller.user
    return {**_mini_ctx(d, view, d), "cals": service.calendars(store, user),
            "invites": service.invitations(store, user)}


def view_fragment(view: str, d: date, oob: bool = False) -> str:
    return render_block("calendar/page.html", "calview", **_ctx(**_view_ctx(view, d, oob)))


def _after_change(message: str, status: int = 200):
    """Answer to an action from a view: the re-rendered view (+ closed popover, toast)."""
    view, d = _back()
    if not is_htmx():
        flash_toast(message)
        return redirect(view_url(view, d))
    html = Markup(view_fragment(view, d)) + Markup('<div id="cal-pop" hx-swap-oob="true"></div>') + Markup(toast(message))
    resp = make_response(html, status)
    resp.headers["HX-Retarget"] = "#cal-view"
    resp.headers["HX-Reswap"] = "outerHTML"
    return resp


# ---------------------------------------------------------------- views
@bp.get("/")
def index():
    return redirect(view_url("week", service.today(g.store)))


@bp.get("/<view>/<day>")
def view(view: str, day: str):
    if view not in VIEWS:
        abort(404)
    d = _parse_day(day)
    ctx = _ctx(**{**_side_ctx(view, d), **_view_ctx(view, d)})
    return render("calendar/page.html", "calview", **ctx)


@bp.get("/mini")
def mini():
    try:
        month = date.fromisoformat(request.args.get("month", "") + "-01")
    except ValueError:
        abort(404)
    view, d = _back()
    return render_template("calendar/_mini.html", **_ctx(**_mini_ctx(month, view, d)))


@bp.get("/search")
def search():
    q = request.args.get("q", "").strip()
    results = service.search(g.store, g.caller.user, q)
    view, d = "week", service.today(g.store)
    return render("calendar/search.html", "results", results=results, **_ctx(q=q, **_side_ctx(view, d)))


# ---------------------------------------------------------------- event form
TIMES = [time(h, m) for h in range(24) for m in (0, 15, 30, 45)]
TIME_OPTIONS = [(t.strftime("%H:%M"), fmt_clock(t)) for t in TIMES]


def _repeat_options(d: date) -> list[tuple[str, str]]:
    return [("none", "Does not repeat"), ("daily", "Daily"), ("weekly", f"Weekly on {d.strftime('%A')}"),
            ("monthly", f"Monthly on day {d.day}"), ("weekdays", "Every weekday (Monday to Friday)"),
            ("custom", "Custom…")]


def _snap(t: time) -> str:
    m = t.hour * 60 + t.minute
    m -= m % 15
    return f"{m // 60:02d}:{m % 60:02d}"


def _form_from_event(ev: dict) -> dict:
    s, e = ev["start"], ev["end"]
    rec = ev.get("recurrence") or {}
    repeat = "none"
    if rec:
        repeat = "custom"
        n = rec.get("interval", 1)
        plain = n == 1 and not rec.get("until") and not rec.get("count")
        if plain and rec["freq"] == "daily":
            repeat = "daily"
        elif plain and rec["freq"] == "monthly":
            repeat = "monthly"
        elif plain and rec["freq"] == "weekly" and rec.get("byday") in (None, [service.DAYS[s.weekday()]]):
            repeat = "weekly"
        elif plain and rec["freq"] == "weekly" and rec.get("byday") == ["MO", "TU", "WE", "TH", "FR"]:
            repeat = "weekdays"
    last = (e - timedelta(days=1)).date() if ev["all_day"] else e.date()
    return {"title": ev["title"], "all_day": ev["all_day"], "start_date": s.date().isoformat(),
            "start_time": _snap(s.time()) if not ev["all_day"] else "09:00",
            "end_date": last.isoformat(), "end_time": _snap(e.time()) if not ev["all_day"] else "10:00",
            "location": ev["location"], "description": ev["description"], "visibility": ev["visibility"],
            "color": ev["color"] or "", "repeat": repeat, "freq": rec.get("freq", "weekly"),
            "interval": rec.get("interval", 1), "byday": rec.get("byday") or [service.DAYS[s.weekday()]],
            "ends": "until" if rec.get("until") else "count" if rec.get("count") else "never",
            "until": rec.get("until", ""), "count": rec.get("count", 13),
            "guests": [x["email"] for x in ev["guests"] if not x["organizer"]]}


def _form_values(f=None) -> dict:
    if f is None:
        f = request.form if request.method == "POST" else request.args
    sd = f.get("start_date", "")
    return {"title": f.get("title", ""), "all_day": f.get("all_day") in ("1", "on", "true"),
            "start_date": sd, "start_time": f.get("start_time", "09:00"),
            "end_date": f.get("end_date", "") or sd, "end_time": f.get("end_time", "10:00"),
            "location": f.get("location", ""), "description": f.get("description", ""),
            "visibility": f.get("visibility", "default"), "color": f.get("color", ""),
            "repeat": f.get("repeat", "none"), "freq": f.get("freq", "weekly"), "interval": f.get("interval", "1"),
            "byday": f.getlist("byday"), "ends": f.get("ends", "never"), "until": f.get("until", ""),
            "count": f.get("count", "13"), "guests": [x for x in f.getlist("guests") if x.strip()]}


def _recurrence(v: dict, d: date | None) -> dict | None:
    r = v["repeat"]
    if r in ("", "none"):
        return None
    if d is None:
        return None
    if r == "daily":
        return {"freq": "daily"}
    if r == "weekly":
        return {"freq": "weekly", "byday": [service.DAYS[d.weekday()]]}
    if r == "weekdays":
        return {"freq": "weekly", "byday": ["MO", "TU", "WE", "TH", "FR"]}
    if r == "monthly":
        return {"freq": "monthly"}
    if r != "custom":
        raise Invalid("Choose how the event repeats.", "repeat")
    rec: dict = {"freq": v["freq"], "interval": v["interval"]}
    if v["freq"] == "weekly":
        rec["byday"] = v["byday"] or [service.DAYS[d.weekday()]]
    if v["ends"] == "until":
        if not v["until"]:
            raise Invalid("Choose the date the repeats end on.", "recurrence")
        rec["until"] = v["until"]
    elif v["ends"] == "count":
        rec["count"] = v["count"]
    return rec


def _service_args(v: dict) -> dict:
    try:
        d = date.fromisoformat(v["start_date"])
    except ValueError:
        raise Invalid("Enter the date of the event.", "start") from None
    if v["all_day"]:
        start, end = v["start_date"], v["end_date"] or v["start_date"]
    else:
        for key in ("start_time", "end_time"):
            if not re.fullmatch(r"\d{2}:\d{2}", v[key]):
                raise Invalid("Choose a start and end time.", "start" if key == "start_time" else "end")
        start = f"{v['start_date']}T{v['start_time']}"
        end = f"{v['end_date'] or v['start_date']}T{v['end_time']}"
    return {"title": v["title"], "start": start, "end": end, "all_day": v["all_day"], "location": v["location"],
            "description": v["description"], "guests": v["guests"], "recurrence": _recurrence(v, d),
            "visibility": v["visibility"], "color": v["color"]}


def _guest_view(v: dict, organizer: str, event_id: int | None, ev: dict | None) -> list[dict]:
    """The form's guest list: organizer first, each with free/busy for the chosen time."""
    store = g.store
    people = [organizer]
    bad = []
    for x in v["guests"]:
        try:
            slug = service.person_id(store, x)
        except Invalid:
            bad.append(x)
            continue
        if slug not in people:
            people.append(slug)
    try:
        a = _service_args(v)
        if a["all_day"]:
            raise Invalid("", "start")
        s, e = service._times(store, a["start"], a["end"], False)
        busy = service.busy(store, people, s, e, exclude=event_id)
    except Invalid:
        busy = {}
    responses = {x["person"]: x["response"] for x in (ev or {}).get("guests", [])}
    out = []
    for p in people:
        person = directory.person(store, p)
        out.append({"person": p, "name": person["name"], "email": person["email"], "organizer": p == organizer,
                    "busy": bool(busy.get(p)), "known": p in busy, "response": responses.get(p)})
    return out + [{"person": None, "name": x, "email": x, "organizer": False, "busy": False, "known": False,
                   "response": None, "unknown": True} for x in bad]


def _form_page(v: dict, *, event: dict | None = None, errors: dict | None = None, status: int = 200):
    view, d = _back()
    try:
        sd = date.fromisoformat(v["start_date"])
    except ValueError:
        sd = d
    organizer = event["organizer"] if event else g.caller.user
    ctx = _ctx(v=v, event=event, errors=errors or {}, time_options=TIME_OPTIONS, repeat_options=_repeat_options(sd),
               colors=service.EVENT_COLORS, guests=_guest_view(v, organizer, event["id"] if event else None, event),
               back=request.values.get("back") or view_url(view, d), sd=sd, days=service.DAYS,
               day_names=service.DAY_NAMES)
    return render("calendar/form.html", status=status, **ctx)


@bp.get("/new")
def new():
    now = g.store.local(g.store.now())
    v = _form_values()
    if not v["start_date"]:
        view, d = _back()
        nxt = now + timedelta(minutes=30 - now.minute % 30) if now.minute % 30 else now
        start = datetime.combine(d if d != now.date() else now.date(), nxt.time() if d == now.date() else time(9))
        start = start.replace(second=0, microsecond=0)
        end = start + timedelta(hours=1)
        v.update(start_date=start.date().isoformat(), start_time=start.strftime("%H:%M"),
                 end_date=end.date().isoformat(), end_time=end.strftime("%H:%M"))
    return _form_page(v)


@bp.post("/events")
def create():
    v = _form_values()
    quick = request.form.get("quick") == "1"
    try:
        eid = service.create_event(g.store, g.caller, **_service_args(v))
    except Invalid as e:
        if quick and is_htmx():
            resp = make_response(_quick_html(v, e.message, request.form.get("back", "")), 422)
            resp.headers["HX-Retarget"] = "#cal-pop"
            resp.headers["HX-Reswap"] = "innerHTML"
            return resp
        return _form_page(v, errors=e.errors or {"form": e.message}, status=422)
    ev = service.get_event(g.store, g.caller.user, eid)
    if quick:
        return _after_change("Event saved")
    flash_toast("Event saved")
    target = view_url(*_back()) if request.form.get("back") else view_url("week", ev["start"].date())
    return go(target)


@bp.get("/quick")
def quick():
    try:
        s = service.local_dt(g.store, request.args.get("start", ""))
        all_day = request.args.get("all_day") == "1"
        e = service.local_dt(g.store, request.args.get("end", "")) if request.args.get("end") else \
            (s + timedelta(minutes=30))
    except Invalid:
        abort(404)
    v = {**_form_values(MultiDict()), "all_day": all_day, "start_date": s.date().isoformat(), "start_time": s.strftime("%H:%M"),
         "end_date": (e.date() if not all_day else s.date()).isoformat(), "end_time": e.strftime("%H:%M")}
    return _quick_html(v, None, request.args.get("back", ""))


def _quick_html(v: dict, error: str | None, back: str) -> str:
    try:
        a = _service_args(v)
        s, e = service._times(g.store, a["start"], a["end"], a["all_day"])
        when = when_text({"start": s, "end": e, "all_day": a["all_day"]})
    except Invalid:
        when = ""
    return render_template("calendar/_quick.html", **_ctx(v=v, error=error, back=back, when=when))


@bp.get("/event/<int:event_id>/edit")
def edit(event_id: int):
    occ = request.args.get("occ") or None
    ev = service.get_event(g.store, g.caller.user, event_id, occ)
    if not ev["can_edit"]:
        raise service.Forbidden(f"Only the organizer ({ev['organizer_name']}) can change this event.")
    return _form_page({**_form_from_event(ev), "occ": occ}, event=ev)


@bp.post("/event/<int:event_id>/save")
def save(event_id: int):
    occ = request.form.get("occ") or None
    ev = service.get_event(g.store, g.caller.user, event_id, occ)
    v = _form_values()
    scope = request.form.get("scope", "all")
    try:
        args = _service_args(v)
        if ev["recurring"] and scope == "this":
            args.pop("recurrence")
        new_id = service.update_event(g.store, g.caller, event_id, occ=occ, scope=scope, **args)
    except Invalid as e:
        return _form_page({**v, "occ": occ}, event=ev, errors=e.errors or {"form": e.message}, status=422)
    flash_toast("Event saved")
    saved = service.get_event(g.store, g.caller.user, new_id)
    target = request.form.get("back") if BACK.match(request.form.get("back", "")) else \
        view_url("week", saved["start"].date())
    return go(target)


@bp.get("/availability")
def availability():
    """The form's guest list with each guest's free/busy for the chosen time."""
    v = _form_values()
    eid = id_arg("event")
    ev = service.get_event(g.store, g.caller.user, eid) if eid else None
    organizer = ev["organizer"] if ev else g.caller.user
    return render_template("calendar/_guests.html", **_ctx(guests=_guest_view(v, organizer, eid, ev), event=ev))


@bp.get("/findtime")
def findtime():
    """Find a time: everyone's day side by side, the proposed time, and suggested free times."""
    store, user = g.store, g.caller.user
    v = _form_values()
    eid = id_arg("event")
    ev = service.get_event(store, user, eid) if eid else None
    organizer = ev["organizer"] if ev else user
    people = [organizer] + [x["person"] for x in _guest_view(v, organizer, eid, ev)
                            if x["person"] and x["person"] != organizer]
    try:
        d = date.fromisoformat(v["start_date"])
    except ValueError:
        d = service.today(store)
    try:
        a = _service_args(v)
        s, e = service._times(store, a["start"], a["end"], a["all_day"])
        minutes = max(15, int((e - s).total_seconds() // 60)) if not a["all_day"] else 60
        proposal = None if a["all_day"] else {"top": (s.hour * 60 + s.minute) * PX_PER_MIN,
                                              "height": (e - s).total_seconds() / 60 * PX_PER_MIN,
                                              "label": fmt_range(s, e)}
    except Invalid:
        minutes, proposal = 60, None
    d0 = datetime.combine(d, time(0), tzinfo=store.tz)
    columns = []
    for p in people:
        evs = [o for o in service.events_between(store, user, d0, d0 + timedelta(days=1), [p])
               if not o["all_day"] and o["response"] != "declined" and o["id"] != eid]
        blocks = []
        for o in evs:
            m0 = max(0, int((o["start"] - d0).total_seconds() // 60))
            m1 = min(24 * 60, int((o["end"] - d0).total_seconds() // 60))
            blocks.append({**o, "top": m0 * PX_PER_MIN, "height": max(16, (m1 - m0) * PX_PER_MIN - 2),
                           "short": m1 - m0 < 45})
        columns.append({"person": p, "name": service.person_name(store, p), "blocks": blocks,
                        "me": p == user})
    free = service.find_times(store, people, d, d + timedelta(days=13), minutes)
    if proposal:                                     # the next free times from the proposed one on
        free = [x for x in free if x[0] >= s] or free
    suggestions = free[:6]
    return render_template("calendar/_findtime.html", **_ctx(
        columns=columns, proposal=proposal, suggestions=suggestions, d=d, hours=[time(h) for h in range(24)],
        hour_px=HOUR_PX, minutes=minutes))


# ---------------------------------------------------------------- event card, RSVP, delete, move
@bp.get("/event/<int:event_id>")
def event(event_id: int):
    occ = request.args.get("occ") or None
    ev = service.get_event(g.store, g.caller.user, event_id, occ)
    back = request.args.get("back", "")
    if is_htmx():
        popup = request.args.get("popup", "1") == "1"
        return render_template("calendar/_card.html", **_ctx(ev=ev, back=back, popup=popup))
    view, d = "week", ev["start"].date()
    ctx = _ctx(ev=ev, back=back if BACK.match(back) else view_url(view, d), popup=False,
               **_side_ctx(view, d))
    return render("calendar/event.html", **ctx)


@bp.post("/event/<int:event_id>/respond")
def respond(event_id: int):
    occ = request.form.get("occ") or None
    response = request.form.get("response", "")
    service.respond(g.store, g.caller, event_id, response, request.form.get("note", ""))
    ev = service.get_event(g.store, g.caller.user, event_id, occ)
    msg = {"accepted": "You're going", "declined": "You declined", "tentative": "You replied maybe"}[response]
    back = request.form.get("back", "")
    if not is_htmx():
        flash_toast(msg)
        return redirect(url_for("calendar.event", event_id=event_id, occ=occ, back=back or None))
    card = render_template("calendar/_card.html", **_ctx(ev=ev, back=back, popup=request.form.get("popup") == "1"))
    extra = ""
    if BACK.match(back) and request.form.get("popup") == "1":
        extra = view_fragment(*_back(), oob=True)
    return Markup(card) + Markup(extra) + Markup(toast(msg))


@bp.get("/event/<int:event_id>/delete")
def delete_dialog(event_id: int):
    occ = request.args.get("occ") or None
    ev = service.get_event(g.store, g.caller.user, event_id, occ)
    return render_template("calendar/_scope.html", **_ctx(ev=ev, action=url_for("calendar.delete", event_id=event_id),
                                                           title="Delete recurring event", verb="Delete",
                                                           back=request.args.get("back", ""), start=None))


@bp.post("/event/<int:event_id>/delete")
def delete(event_id: int):
    occ = request.form.get("occ") or None
    service.delete_event(g.store, g.caller, event_id, occ=occ, scope=request.form.get("scope", "all"))
    if request.form.get("page") == "1" or not BACK.match(request.form.get("back", "")):
        flash_toast("Event deleted")
        target = view_url(*_back())
        return go(target)
    return _after_change("Event deleted")


@bp.post("/event/<int:event_id>/move")
def move(event_id: int):
    """Drag and drop: a new start (world-local ISO); a recurring event asks "This event / All events"."""
    occ = request.form.get("occ") or None
    ev = service.get_event(g.store, g.caller.user, event_id, occ)
    start = request.form.get("start", "")
    service.local_dt(g.store, start)                 # a bad start is a 422 before anything else
    if not ev["can_edit"]:
        raise service.Forbidden(f"Only the organizer ({ev['organizer_name']}) can move “{ev['display_title']}”.")
    scope = request.form.get("scope")
    if ev["recurring"] and not scope and is_htmx():
        resp = make_response(render_template("calendar/_scope.html", **_ctx(
            ev=ev, action=url_for("calendar.move", event_id=event_id), title="Change recurring event", verb="OK",
            back=request.form.get("back", ""), start=start)))
        resp.headers["HX-Retarget"] = "#modal"
        resp.headers["HX-Reswap"] = "innerHTML"
        return resp
    service.move_event(g.store, g.caller, event_id, start, occ=occ, scope=scope or "all")
    return _after_change("Event moved")


# ---------------------------------------------------------------- invitations, other calendars
@bp.get("/invitations")
def invitations():
    return render_template("calendar/_invites.html", **_ctx(invites=service.invitations(g.store, g.caller.user)))


@bp.post("/calendars/add")
def add_calendar():
    slug = service.add_calendar(g.store, g.caller, request.form.get("person", ""))
    flash_toast(f"Added {service.person_name(g.store, slug)}'s calendar")
    target = view_url(*_back())
    return go(target)


@bp.post("/calendars/<person>/remove")
def remove_calendar(person: str):
    service.remove_calendar(g.store, g.caller, person)
    target = view_url(*_back())
    return go(target)


@bp.post("/calendars/<person>/toggle")
def toggle_calendar(person: str):
    shown = request.form.get("shown") in ("1", "on", "true")
    service.set_shown(g.store, g.caller, person, shown)
    target = view_url(*_back())
    return go(target)
