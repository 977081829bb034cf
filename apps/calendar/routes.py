"""Calendar GUI: day / week / month views, the event card with RSVP, delete, drag to move, other
people's calendars — thin over ``apps.calendar.service``. Quick create, the event form and find a
time are in ``routes_form.py``; what both share in ``views.py``.

Views live at ``/calendar/<day|week|month>/<YYYY-MM-DD>``. Actions taken from a view send
``back`` (the view's URL) and answer with that view re-rendered (``#cal-view``) plus a toast.
"""
from __future__ import annotations

from datetime import date

from flask import abort, g, redirect, request, url_for

from apps.calendar import service
from apps.core.errors import Forbidden, Invalid
from apps.calendar.blueprint import bp
from apps.calendar.views import (BACK, VIEWS, after_change, back_view, fragment, mini_ctx, parse_day, side_ctx,
                                 template_ctx, view_ctx, view_fragment, view_url)
from apps.web.render import flash_toast, go, is_htmx, render, toast


# ---------------------------------------------------------------- views
@bp.get("/")
def index():
    return redirect(view_url("week", service.today(g.store)))


@bp.get("/<view>/<day>")
def view(view: str, day: str):
    if view not in VIEWS:
        abort(404)
    d = parse_day(day)
    ctx = template_ctx(**{**side_ctx(view, d), **view_ctx(view, d)})
    return render("calendar/page.html", "calview", **ctx)


@bp.get("/mini")
def mini():
    try:
        month = date.fromisoformat(request.args.get("month", "") + "-01")
    except ValueError:
        abort(404)
    view, d = back_view()
    return fragment("calendar/_mini.html", **mini_ctx(month, view, d))


@bp.get("/search")
def search():
    q = request.args.get("q", "").strip()
    results = service.search(g.store, g.caller.user, q)
    view, d = "week", service.today(g.store)
    return render("calendar/search.html", "results", results=results, **template_ctx(q=q, **side_ctx(view, d)))


# ---------------------------------------------------------------- event card, RSVP, delete, move
@bp.get("/event/<int:event_id>")
def event(event_id: int):
    occ = request.args.get("occ") or None
    ev = service.get_event(g.store, g.caller.user, event_id, occ)
    back = request.args.get("back", "")
    if is_htmx():
        popup = request.args.get("popup", "1") == "1"
        return fragment("calendar/_card.html", ev=ev, back=back, popup=popup)
    view, d = "week", ev["start"].date()
    ctx = template_ctx(ev=ev, back=back if BACK.match(back) else view_url(view, d), popup=False,
                       **side_ctx(view, d))
    return render("calendar/event.html", **ctx)


@bp.post("/event/<int:event_id>/respond")
def respond(event_id: int):
    """Yes / No / Maybe. On an occurrence of a series, Google Calendar asks first: this event or all
    events (the answer to one occurrence makes it an exception of the series)."""
    occ = request.form.get("occ") or None
    response = request.form.get("response", "")
    ev = service.get_event(g.store, g.caller.user, event_id, occ)
    back = request.form.get("back", "")
    popup = request.form.get("popup") == "1"
    scope = request.form.get("scope")
    if response not in service.RSVP:
        raise Invalid("Answer Yes (accepted), No (declined) or Maybe (tentative).", "response")
    if ev["in_series"] and not scope and is_htmx():
        return fragment("calendar/_scope.html", headers={"HX-Retarget": "#modal", "HX-Reswap": "innerHTML"},
                        ev=ev, action=url_for("calendar.respond", event_id=event_id), title="RSVP to recurring event",
                        back=back, start=None, target="#cal-card", scopes=["this", "all"],
                        hidden={"response": response, "note": request.form.get("note", ""),
                                "popup": "1" if popup else "0"})
    service.respond(g.store, g.caller, event_id, response, request.form.get("note", ""), occ=occ, scope=scope or None)
    if scope == "this" and ev["recurring"]:              # the occurrence is now an event of its own
        event_id = next(x["id"] for x in service.exceptions(g.store, event_id) if x["series_day"] == ev["occ"])
        occ = None
    ev = service.get_event(g.store, g.caller.user, event_id, occ)
    msg = {"accepted": "You're going", "declined": "You declined", "tentative": "You replied maybe"}[response]
    if not is_htmx():
        flash_toast(msg)
        return redirect(url_for("calendar.event", event_id=event_id, occ=occ, back=back or None))
    extra = ""
    if BACK.match(back) and popup:
        extra = view_fragment(*back_view(), swap_oob=True)
    return fragment("calendar/_card.html", oob=[extra, toast(msg)], ev=ev, back=back, popup=popup,
                    headers={"HX-Retarget": "#cal-card", "HX-Reswap": "outerHTML"})


@bp.get("/event/<int:event_id>/delete")
def delete_dialog(event_id: int):
    occ = request.args.get("occ") or None
    ev = service.get_event(g.store, g.caller.user, event_id, occ)
    return fragment("calendar/_scope.html", ev=ev, action=url_for("calendar.delete", event_id=event_id),
                    title="Delete recurring event", back=request.args.get("back", ""), start=None)


@bp.post("/event/<int:event_id>/delete")
def delete(event_id: int):
    occ = request.form.get("occ") or None
    service.delete_event(g.store, g.caller, event_id, occ=occ, scope=request.form.get("scope", "all"))
    if request.form.get("page") == "1" or not BACK.match(request.form.get("back", "")):
        flash_toast("Event deleted")
        target = view_url(*back_view())
        return go(target)
    return after_change("Event deleted")


@bp.post("/event/<int:event_id>/move")
def move(event_id: int):
    """Drag and drop: a new start (world-local ISO), or with ``end`` a new end (the bottom edge
    dragged); a recurring event asks "This event / This and following events / All events"."""
    occ = request.form.get("occ") or None
    ev = service.get_event(g.store, g.caller.user, event_id, occ)
    start, end = request.form.get("start", ""), request.form.get("end", "")
    service.local_dt(g.store, start)                 # a bad start is a 422 before anything else
    if end:
        service.local_dt(g.store, end, "end")
    if not ev["can_edit"]:
        raise Forbidden(f"Only the organizer ({ev['organizer_name']}) can move “{ev['display_title']}”.")
    scope = request.form.get("scope")
    if ev["recurring"] and not scope and is_htmx():
        return fragment("calendar/_scope.html", headers={"HX-Retarget": "#modal", "HX-Reswap": "innerHTML"},
                        ev=ev, action=url_for("calendar.move", event_id=event_id), title="Change recurring event",
                        back=request.form.get("back", ""), start=start,
                        hidden={"end": end} if end else None)
    if end:
        service.update_event(g.store, g.caller, event_id, occ=occ, scope=scope or "all", end=end)
        return after_change("Event saved")
    service.move_event(g.store, g.caller, event_id, start, occ=occ, scope=scope or "all")
    return after_change("Event moved")


# ---------------------------------------------------------------- other calendars
@bp.post("/calendars/add")
def add_calendar():
    slug = service.add_calendar(g.store, g.caller, request.form.get("person", ""))
    flash_toast(f"Added {service.person_name(g.store, slug)}'s calendar")
    target = view_url(*back_view())
    return go(target)


@bp.post("/calendars/<person>/remove")
def remove_calendar(person: str):
    service.remove_calendar(g.store, g.caller, person)
    target = view_url(*back_view())
    return go(target)


@bp.post("/calendars/<person>/toggle")
def toggle_calendar(person: str):
    shown = request.form.get("shown") in ("1", "on", "true")
    service.set_shown(g.store, g.caller, person, shown)
    target = view_url(*back_view())
    return go(target)
