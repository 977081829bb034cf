"""Calendar GUI, the event form: quick create (the pop-over on the grid), the full form (new, edit,
save, with recurrence), the guests' free/busy and find a time — thin over ``apps.calendar.service``.
"""
from __future__ import annotations

import re
from datetime import date, datetime, time, timedelta

from flask import abort, g, request
from werkzeug.datastructures import MultiDict

from apps.calendar import service
from apps.calendar.blueprint import bp
from apps.calendar.views import (BACK, hour_px, px_per_min, after_change, back_view, fmt_clock, fmt_range, fragment,
                                 template_ctx, view_url, when_text)
from apps.core import people as directory
from apps.core.errors import Forbidden, Invalid
from apps.web.render import flash_toast, go, id_arg, is_htmx, render


# ---------------------------------------------------------------- event form
TIMES = [time(h, m) for h in range(24) for m in (0, 15, 30, 45)]
def time_options() -> list[tuple[str, str]]:
    """The time list's (value, label) pairs, labelled in the request's locale."""
    return [(t.strftime("%H:%M"), fmt_clock(t)) for t in TIMES]


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
        s, e = service.clean_times(store, a["start"], a["end"], False)
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


def _form_page(v: dict, *, event: dict | None = None, errors: dict | None = None, status: int = 200,
               ask_scope: bool = False):
    view, d = back_view()
    try:
        sd = date.fromisoformat(v["start_date"])
    except ValueError:
        sd = d
    organizer = event["organizer"] if event else g.caller.user
    ctx = template_ctx(v=v, event=event, errors=errors or {}, time_options=time_options(),
                       repeat_options=_repeat_options(sd), colors=service.EVENT_COLORS,
                       guests=_guest_view(v, organizer, event["id"] if event else None, event),
                       back=request.values.get("back") or view_url(view, d), sd=sd, days=service.DAYS,
                       day_names=service.DAY_NAMES, ask_scope=ask_scope)
    return render("calendar/form.html", status=status, **ctx)


@bp.get("/new")
def new():
    now = g.store.local(g.store.now())
    v = _form_values()
    if not v["start_date"]:
        view, d = back_view()
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
            return _quick(v, e.message, request.form.get("back", ""), status=422,
                          headers={"HX-Retarget": "#cal-pop", "HX-Reswap": "innerHTML"})
        return _form_page(v, errors=e.errors or {"form": e.message}, status=422)
    ev = service.get_event(g.store, g.caller.user, eid)
    if quick:
        return after_change("Event saved")
    flash_toast("Event saved")
    target = view_url(*back_view()) if request.form.get("back") else view_url("week", ev["start"].date())
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
    return _quick(v, None, request.args.get("back", ""))


def _quick(v: dict, error: str | None, back: str, status: int = 200, headers: dict | None = None):
    """The quick-create pop-over (title, time, "More options") for the time range in ``v``."""
    try:
        a = _service_args(v)
        s, e = service.clean_times(g.store, a["start"], a["end"], a["all_day"])
        when = when_text({"start": s, "end": e, "all_day": a["all_day"]})
    except Invalid:
        when = ""
    return fragment("calendar/_quick.html", status=status, headers=headers, v=v, error=error, back=back, when=when)


@bp.get("/event/<int:event_id>/edit")
def edit(event_id: int):
    occ = request.args.get("occ") or None
    ev = service.get_event(g.store, g.caller.user, event_id, occ)
    if not ev["can_edit"]:
        raise Forbidden(f"Only the organizer ({ev['organizer_name']}) can change this event.")
    return _form_page({**_form_from_event(ev), "occ": occ}, event=ev)


@bp.post("/event/<int:event_id>/save")
def save(event_id: int):
    """Save the form. A recurring event asks first, as Google Calendar does: "This event", "This and
    following events" or "All events" (the form is shown again with that question over it)."""
    occ = request.form.get("occ") or None
    ev = service.get_event(g.store, g.caller.user, event_id, occ)
    v = _form_values()
    scope = request.form.get("scope") or ""
    if ev["recurring"] and scope not in service.SCOPES:
        if scope:
            raise Invalid("Apply the change to this event, this and following events or all events.", "scope")
        return _form_page({**v, "occ": occ}, event=ev, ask_scope=True)
    try:
        args = _service_args(v)
        if ev["recurring"] and scope == "this":
            args.pop("recurrence")
        elif ev["recurring"] and scope == "following" and occ:
            shown, d0 = _form_from_event(ev), ev["start"].date()
            if _same_rule(_recurrence(v, d0), _recurrence(shown, d0), d0):
                args.pop("recurrence")               # the rule as it was: the new series carries it on
        new_id = service.update_event(g.store, g.caller, event_id, occ=occ, scope=scope or "all", **args)
    except Invalid as e:
        return _form_page({**v, "occ": occ}, event=ev, errors=e.errors or {"form": e.message}, status=422)
    flash_toast("Event saved")
    saved = service.get_event(g.store, g.caller.user, new_id)
    target = request.form.get("back") if BACK.match(request.form.get("back", "")) else \
        view_url("week", saved["start"].date())
    return go(target)


def _same_rule(a: dict | None, b: dict | None, d: date) -> bool:
    try:
        return service.clean_recurrence(a, d) == service.clean_recurrence(b, d)
    except Invalid:
        return False


@bp.get("/availability")
def availability():
    """The form's guest list with each guest's free/busy for the chosen time."""
    v = _form_values()
    eid = id_arg("event")
    ev = service.get_event(g.store, g.caller.user, eid) if eid else None
    organizer = ev["organizer"] if ev else g.caller.user
    return fragment("calendar/_guests.html", guests=_guest_view(v, organizer, eid, ev), event=ev)


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
        s, e = service.clean_times(store, a["start"], a["end"], a["all_day"])
        minutes = max(15, int((e - s).total_seconds() // 60)) if not a["all_day"] else 60
        proposal = None if a["all_day"] else {"top": (s.hour * 60 + s.minute) * px_per_min(),
                                              "height": (e - s).total_seconds() / 60 * px_per_min(),
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
            blocks.append({**o, "top": m0 * px_per_min(), "height": max(16, (m1 - m0) * px_per_min() - 2),
                           "short": m1 - m0 < 45})
        columns.append({"person": p, "name": service.person_name(store, p), "blocks": blocks,
                        "me": p == user})
    free = service.find_times(store, people, d, d + timedelta(days=13), minutes)
    if proposal:                                     # the next free times from the proposed one on
        free = [x for x in free if x[0] >= s] or free
    suggestions = free[:6]
    return fragment("calendar/_findtime.html", columns=columns, proposal=proposal, suggestions=suggestions, d=d,
                    hours=[time(h) for h in range(24)], hour_px=hour_px(), minutes=minutes)
