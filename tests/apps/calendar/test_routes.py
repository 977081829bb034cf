"""Every Calendar route through the Flask client: views, quick create and the form, the event card,
RSVP, edit, move, delete, free/busy, find a time, other calendars — with bad input, unknown ids,
guests who aren't guests and editors who aren't the organizer."""
from __future__ import annotations

import re

import pytest

from apps.calendar import service as S
from apps.core.store.db import Caller
from tests.conftest import make_client

ALEX, ELEANOR, PRIYA = Caller("alex.chen"), Caller("eleanor.vance"), Caller("priya.raman")
HX = {"HX-Request": "true"}
BACK = "/calendar/week/2026-04-06"


def make(slot, caller=ELEANOR, **kw):
    args = dict(title="Route test meeting", start="2026-04-07T10:00", end="2026-04-07T11:00", guests=["alex.chen"])
    args.update(kw)
    with slot.store() as st:
        return S.create_event(st, caller, **args)


def event(slot, eid, user="alex.chen"):
    with slot.store() as st:
        return S.get_event(st, user, eid)


def rows(slot, title):
    with slot.store() as st:
        return st.select("cal_events", "title=?", (title,))


def writes(slot):
    with slot.store() as st:
        return st.scalar("SELECT count(*) FROM _writes")


# ---------------------------------------------------------------- views
def test_index_redirects_to_this_week(client):
    r = client.get("/calendar/")
    assert r.status_code == 302 and r.headers["Location"].endswith("/calendar/week/2026-04-06")


@pytest.mark.parametrize("url,title", [
    ("/calendar/week/2026-04-06", "April 2026"), ("/calendar/week/2026-04-01", "Mar – Apr 2026"),
    ("/calendar/day/2026-04-07", "April 7, 2026"), ("/calendar/month/2026-04-20", "April 2026"),
    ("/calendar/month/2026-12-01", "December 2026"),
])
def test_views_render_with_title_and_refresh_hook(client, url, title):
    r = client.get(url)
    body = r.data.decode()
    assert r.status_code == 200 and r.headers["Cache-Control"] == "no-store"
    assert f'<h1 class="cal-title">{title}</h1>' in body
    assert 'hx-trigger="deskworld:refresh from:body"' in body and "Other calendars" in body
    assert 'aria-label="Search for people to add their calendar"' in body


def test_week_is_sunday_first_with_today_and_now_line(client, slot):
    make(slot, title="Grid event", start="2026-04-06T10:00", end="2026-04-06T11:30")
    body = client.get("/calendar/week/2026-04-08").data.decode()
    dows = re.findall(r'<span class="cal-dow">(\w+)</span><span class="cal-dnum">(\d+)</span>', body)
    assert dows == [("SUN", "5"), ("MON", "6"), ("TUE", "7"), ("WED", "8"), ("THU", "9"), ("FRI", "10"), ("SAT", "11")]
    assert 'class="cal-dh today"' in body and 'class="cal-now" style="top: 432.0px"' in body   # 9:00 * 48px
    ev = re.search(r'<a class="cal-ev resp-needs_action[^"]*" style="([^"]*)"[^>]*aria-label="Grid event, 10 – 11:30am', body)
    assert ev and "top: 480.0px; height: 70.0px" in ev.group(1)
    assert 'data-scroll-to="376"' in body                             # opens at 8 AM
    nxt = client.get("/calendar/week/2026-04-13").data.decode()
    assert "cal-now" not in nxt and 'aria-label="Previous week"' in nxt


def test_overlapping_events_sit_side_by_side(client, slot):
    make(slot, ALEX, title="Overlap A", start="2026-04-08T10:00", end="2026-04-08T11:00", guests=[])
    make(slot, ALEX, title="Overlap B", start="2026-04-08T10:30", end="2026-04-08T11:30", guests=[])
    body = client.get("/calendar/day/2026-04-08").data.decode()
    a = re.search(r'style="([^"]*)"[^>]*aria-label="Overlap A', body).group(1)
    b = re.search(r'style="([^"]*)"[^>]*aria-label="Overlap B', body).group(1)
    assert "left: calc(0.0% + 1px); width: calc(50.0% - 4px)" in a
    assert "left: calc(50.0% + 1px); width: calc(50.0% - 4px)" in b


def test_month_shows_more_link_and_all_day_chips(client, slot):
    for h in (8, 9, 10, 11):
        make(slot, ALEX, title=f"Busy day {h}", start=f"2026-04-28T{h:02d}:00", end=f"2026-04-28T{h:02d}:30", guests=[])
    make(slot, ALEX, title="Deadline", start="2026-04-29", end="2026-04-29", all_day=True, guests=[])
    body = client.get("/calendar/month/2026-04-01").data.decode()
    assert ">2 more</a>" in body and "Busy day 8" in body and "Busy day 11" not in body
    assert re.search(r'class="cal-ev resp-accepted cal-chip allday"[^>]*aria-label="Deadline, all day', body)


def test_htmx_view_is_the_fragment(hx):
    r = hx.get("/calendar/month/2026-04-06")
    assert r.data.startswith(b'<div id="cal-view"') and b"<html" not in r.data


@pytest.mark.parametrize("url", ["/calendar/year/2026-04-06", "/calendar/week/2026-02-30", "/calendar/week/soon",
                                 "/calendar/mini?month=2026-13", "/calendar/quick?start=nope",
                                 "/calendar/event/99999", "/calendar/event/99999/edit"])
def test_bad_urls_are_404(client, url):
    assert client.get(url).status_code == 404


def test_mini_calendar_and_search(client, slot):
    body = client.get(f"/calendar/mini?month=2026-05&back={BACK}").data.decode()
    assert "May 2026" in body and 'href="/calendar/week/2026-05-31"' in body
    make(slot, title="Quarterly billing review")
    body = client.get("/calendar/search?q=billing review").data.decode()
    assert "Quarterly billing review" in body and "Search results for “billing review”" in body
    assert "No results" in client.get("/calendar/search?q=zzzz-nothing").data.decode()


# ---------------------------------------------------------------- create
def form(**kw):
    data = {"title": "Form event", "start_date": "2026-04-09", "start_time": "14:00", "end_date": "2026-04-09",
            "end_time": "15:00", "location": "Room 9", "description": "Agenda", "repeat": "none", "back": BACK}
    data.update(kw)
    return data


def test_new_form_and_quick_popover_render(client, hx):
    body = client.get(f"/calendar/new?back={BACK}").data.decode()
    assert 'aria-label="Title"' in body and 'aria-label="Add guests"' in body and "Find a time" in body
    assert 'name="start_time" value="09:00"' in body and 'name="end_time" value="10:00"' in body   # next half hour
    assert "Weekly on Monday" in body and "Monthly on day 6" in body
    r = hx.get("/calendar/quick?start=2026-04-07T13:30&end=2026-04-07T14:00&back=" + BACK)
    assert r.status_code == 200 and "Tuesday, April 7 ⋅ 1:30 – 2pm" in r.data.decode()


def test_create_from_the_form_with_guests_and_repeat(client, slot):
    data = form(guests=["priya.raman@meridianshaw.com", "Robert Hale"], repeat="custom", freq="weekly",
                interval="2", byday=["TU", "TH"], ends="count", count="4")
    r = client.post("/calendar/events", data=data)
    assert r.status_code == 302 and r.headers["Location"].endswith(BACK)
    [ev] = rows(slot, "Form event")
    assert ev["organizer"] == "alex.chen" and ev["location"] == "Room 9"
    assert ev["recurrence"] == {"freq": "weekly", "interval": 2, "byday": ["TU", "TH"], "count": 4}
    got = event(slot, ev["id"])
    assert [(g["person"], g["response"]) for g in got["guests"]] == [
        ("alex.chen", "accepted"), ("priya.raman", "needs_action"), ("robert.hale", "needs_action")]


def test_quick_create_answers_with_the_view(hx, slot):
    r = hx.post("/calendar/events", data={"quick": "1", "title": "Quick one", "start_date": "2026-04-07",
                                          "start_time": "13:30", "end_date": "2026-04-07", "end_time": "14:00",
                                          "back": BACK})
    body = r.data.decode()
    assert r.status_code == 200 and body.startswith('<div id="cal-view"') and "Quick one" in body
    assert "Event saved" in body and '<div id="cal-pop" hx-swap-oob="true"></div>' in body
    [ev] = rows(slot, "Quick one")
    assert (ev["start"], ev["end"]) == ("2026-04-07T17:30:00Z", "2026-04-07T18:00:00Z")


@pytest.mark.parametrize("change,message", [
    ({"end_time": "13:00"}, "The event ends before it starts."),
    ({"end_date": "2026-04-08", "start_date": "2026-04-09", "all_day": "1"}, "The event ends before it starts."),
    ({"guests": ["nobody@nowhere.example"]}, "is not in the directory"),
    ({"start_date": "someday"}, "Enter the date of the event."),
    ({"repeat": "custom", "freq": "weekly", "ends": "until", "until": "2026-01-01"}, "repeat end date is before"),
    ({"repeat": "custom", "freq": "yearly"}, "daily, weekly or monthly"),
])
def test_create_bad_input_is_422_and_writes_nothing(client, hx, slot, change, message):
    n = writes(slot)
    r = client.post("/calendar/events", data=form(**change))
    assert r.status_code == 422 and message in r.data.decode()
    assert 'role="alert"' in r.data.decode() and 'value="Form event"' in r.data.decode()   # the form keeps what was typed
    r = hx.post("/calendar/events", data={**form(**change), "quick": "1"})
    assert r.status_code == 422 and r.headers["HX-Retarget"] == "#cal-pop" and message in r.data.decode()
    assert writes(slot) == n and rows(slot, "Form event") == []


def test_empty_title_is_saved_as_no_title(client, slot):
    client.post("/calendar/events", data=form(title="", description="untitled marker"))
    with slot.store() as st:
        ev = st.select("cal_events", "description='untitled marker'")[0]
    assert ev["title"] == ""
    assert "(No title)" in client.get(f"/calendar/event/{ev['id']}").data.decode()


# ---------------------------------------------------------------- event card and RSVP
def test_event_page_and_card_show_guests_and_counts(client, hx, slot):
    eid = make(slot, guests=["alex.chen", "priya.raman", "robert.hale"], location="Room 12A",
               recurrence={"freq": "weekly", "until": "2026-05-05"})
    with slot.store() as st:
        S.respond(st, PRIYA, eid, "declined", "Conflict")
    body = client.get(f"/calendar/event/{eid}").data.decode()
    assert "Route test meeting" in body and "Tuesday, April 7 ⋅ 10 – 11am" in body
    assert "Weekly on Tuesday, until May 5, 2026" in body and "Room 12A" in body
    assert "4 guests" in body and "1 yes, 1 no, 2 awaiting" in body and "“Conflict”" in body
    assert 'aria-label="Priya Raman, No"' in body and 'aria-label="Eleanor Vance, organizer, Yes"' in body
    assert "Going?" in body and 'aria-label="Edit event"' not in body             # Alex is a guest, not the organizer
    card = hx.get(f"/calendar/event/{eid}?occ=2026-04-14&back={BACK}").data.decode()
    assert card.startswith('<div class="cal-card popup"') and "Tuesday, April 14" in card
    assert client.get(f"/calendar/event/{eid}?occ=2026-04-15").status_code == 404    # not an occurrence


def test_rsvp_by_a_guest(client, hx, slot):
    eid = make(slot)
    r = hx.post(f"/calendar/event/{eid}/respond", data={"response": "tentative", "note": "Might be late",
                                                         "back": BACK, "popup": "1"})
    body = r.data.decode()
    assert r.status_code == 200 and "You replied maybe" in body and 'aria-pressed="true"' in body
    assert 'id="cal-view"' in body and 'hx-swap-oob="true"' in body            # the view behind is refreshed too
    with slot.store() as st:
        g = st.one("SELECT * FROM cal_guests WHERE event=? AND person='alex.chen'", (eid,))
        actor = st.one("SELECT actor FROM _writes ORDER BY seq DESC")["actor"]
    assert (g["response"], g["note"], actor) == ("tentative", "Might be late", "agent")
    r = client.post(f"/calendar/event/{eid}/respond", data={"response": "accepted"})
    assert r.status_code == 302 and event(slot, eid)["my_response"] == "accepted"


def test_rsvp_refused_for_non_guests_and_bad_answers(client, slot):
    eid = make(slot, guests=["priya.raman"])
    n = writes(slot)
    assert client.post(f"/calendar/event/{eid}/respond", data={"response": "accepted"}).status_code == 403
    other = make(slot)
    assert client.post(f"/calendar/event/{other}/respond", data={"response": "maybe"}).status_code == 422
    assert client.post("/calendar/event/99999/respond", data={"response": "accepted"}).status_code == 404
    private = make(slot, PRIYA, title="Private thing", guests=[], visibility="private")
    n = writes(slot)
    assert client.get(f"/calendar/event/{private}").status_code == 404
    assert client.post(f"/calendar/event/{private}/respond", data={"response": "accepted"}).status_code == 404
    assert writes(slot) == n


# ---------------------------------------------------------------- edit, delete, move
def test_edit_by_organizer_and_refused_otherwise(client, app, slot):
    eid = make(slot, ALEX, guests=["priya.raman"])
    body = client.get(f"/calendar/event/{eid}/edit?back={BACK}").data.decode()
    assert 'value="Route test meeting"' in body and "Priya Raman" in body and "Awaiting" in body
    r = client.post(f"/calendar/event/{eid}/save", data=form(title="Renamed", guests=["priya.raman", "daniel.ortiz"]))
    assert r.status_code == 302
    got = event(slot, eid)
    assert got["title"] == "Renamed" and [g["person"] for g in got["guests"]] == ["alex.chen", "priya.raman", "daniel.ortiz"]
    n = writes(slot)
    r = client.post(f"/calendar/event/{eid}/save", data=form(title="Renamed", start_time="15:00", end_time="14:30"))
    assert r.status_code == 422 and "ends before it starts" in r.data.decode() and writes(slot) == n
    priya = make_client(app, "priya.raman")
    assert priya.get(f"/calendar/event/{eid}/edit").status_code == 403
    assert priya.post(f"/calendar/event/{eid}/save", data=form(title="Hijack")).status_code == 403
    assert priya.post(f"/calendar/event/{eid}/delete").status_code == 403
    assert priya.post(f"/calendar/event/{eid}/move", data={"start": "2026-04-07T12:00"}).status_code == 403
    assert event(slot, eid)["title"] == "Renamed" and writes(slot) == n


def test_edit_one_occurrence_of_a_series(client, slot):
    eid = make(slot, ALEX, guests=[], recurrence={"freq": "daily", "count": 5})
    body = client.get(f"/calendar/event/{eid}/edit?occ=2026-04-09").data.decode()
    assert 'name="start_date" value="2026-04-09"' in body and 'name="scope"' not in body
    r = client.post(f"/calendar/event/{eid}/save", data=form(title="Moved occurrence", start_date="2026-04-09",
                                                              end_date="2026-04-09", occ="2026-04-09"))
    body = r.data.decode()                                          # Save asks which events first
    assert r.status_code == 200 and "Edit recurring event" in body and 'value="this" checked' in body
    assert "This and following events" in body and "All events" in body and rows(slot, "Moved occurrence") == []
    assert client.post(f"/calendar/event/{eid}/save", data=form(title="x", occ="2026-04-09", scope="some")
                       ).status_code == 422
    r = client.post(f"/calendar/event/{eid}/save", data=form(title="Moved occurrence", start_date="2026-04-09",
                                                              end_date="2026-04-09", occ="2026-04-09", scope="this"))
    assert r.status_code == 302
    with slot.store() as st:
        assert st.get("cal_events", eid)["recurrence"]["exdates"] == ["2026-04-09"]
        assert st.get("cal_events", eid)["title"] == "Route test meeting"
    assert len(rows(slot, "Moved occurrence")) == 1


def test_delete_single_and_recurring(client, hx, slot):
    eid = make(slot, ALEX, guests=["priya.raman"])
    r = hx.post(f"/calendar/event/{eid}/delete", data={"back": BACK})
    assert r.status_code == 200 and "Event deleted" in r.data.decode() and r.headers["HX-Retarget"] == "#cal-view"
    assert rows(slot, "Route test meeting") == []
    series = make(slot, ALEX, guests=[], title="Series", recurrence={"freq": "daily", "count": 3})
    dialog = hx.get(f"/calendar/event/{series}/delete?occ=2026-04-08&back={BACK}").data.decode()
    assert "Delete recurring event" in dialog and "This event" in dialog and "All events" in dialog
    hx.post(f"/calendar/event/{series}/delete", data={"occ": "2026-04-08", "scope": "this", "back": BACK})
    assert rows(slot, "Series")[0]["recurrence"]["exdates"] == ["2026-04-08"]
    hx.post(f"/calendar/event/{series}/delete", data={"scope": "all", "back": BACK})
    assert rows(slot, "Series") == []
    assert client.post("/calendar/event/99999/delete").status_code == 404
    assert client.post(f"/calendar/event/{series}/delete").status_code == 404


def test_move_by_drag_route(hx, client, slot):
    eid = make(slot, ALEX, guests=[], start="2026-04-07T10:00", end="2026-04-07T10:45")
    r = hx.post(f"/calendar/event/{eid}/move", data={"start": "2026-04-09T15:15", "back": BACK})
    assert r.status_code == 200 and "Event moved" in r.data.decode()
    ev = rows(slot, "Route test meeting")[0]
    assert (ev["start"], ev["end"]) == ("2026-04-09T19:15:00Z", "2026-04-09T20:00:00Z")
    n = writes(slot)
    assert client.post(f"/calendar/event/{eid}/move", data={"start": "not a time"}).status_code == 422
    assert client.post("/calendar/event/99999/move", data={"start": "2026-04-09T15:00"}).status_code == 404
    assert writes(slot) == n
    series = make(slot, ALEX, guests=[], title="Daily", recurrence={"freq": "daily", "count": 3})
    r = hx.post(f"/calendar/event/{series}/move", data={"start": "2026-04-08T12:00", "occ": "2026-04-08", "back": BACK})
    assert r.headers["HX-Retarget"] == "#modal" and "Change recurring event" in r.data.decode()
    assert writes(slot) == n + 2                                       # asking writes nothing (2 = the new series)
    hx.post(f"/calendar/event/{series}/move", data={"start": "2026-04-08T12:00", "occ": "2026-04-08",
                                                   "scope": "this", "back": BACK})
    assert [r_["start"] for r_ in rows(slot, "Daily")] == ["2026-04-07T14:00:00Z", "2026-04-08T16:00:00Z"]


# ---------------------------------------------------------------- free/busy, find a time, invitations
def test_guest_availability_and_find_a_time(client, slot):
    make(slot, PRIYA, title="Priya busy", start="2026-04-09T14:00", end="2026-04-09T16:00", guests=[])
    q = "start_date=2026-04-09&start_time=14:30&end_date=2026-04-09&end_time=15:00&guests=priya.raman@meridianshaw.com&guests=daniel.ortiz"
    body = client.get("/calendar/availability?" + q).data.decode()
    names = re.findall(r'<span class="cal-gl-name">([^<]+)<', body)
    assert names == ["Alex Chen", "Priya Raman", "Daniel Ortiz"]
    assert re.search(r"Priya Raman.*?cal-badge-busy\">Busy", body, re.S)
    assert re.search(r"Daniel Ortiz.*?cal-badge-free\">Available", body, re.S)
    body = client.get("/calendar/availability?" + q + "&guests=ghost@nowhere.example").data.decode()
    assert "Not in the directory" in body
    body = client.get("/calendar/findtime?" + q).data.decode()
    assert "Thursday, April 9, 2026" in body and "Priya busy" in body and "proposed 2:30 – 3pm" in body
    sugg = re.findall(r'data-date="([\d-]+)" data-start="([\d:]+)" data-end="([\d:]+)"', body)
    assert sugg and all(not (d == "2026-04-09" and "14:00" <= s < "16:00") for d, s, _ in sugg)


def test_no_invitations_tray_an_invitation_is_an_event_with_rsvp(client, hx, slot):
    eid = make(slot, title="Please come")
    assert client.get("/calendar/invitations").status_code == 404
    body = client.get(BACK).data.decode()
    assert "Invitations" not in body and "cal-inv" not in body
    assert re.search(r'aria-label="Please come, 10 – 11am, Tuesday, April 7, needs response"', body)
    card = hx.get(f"/calendar/event/{eid}?back={BACK}").data.decode()
    assert "Going?" in card and 'value="accepted"' in card


# ---------------------------------------------------------------- series: this, following, all
def test_edit_this_and_following_from_the_form(client, slot):
    eid = make(slot, ALEX, guests=["priya.raman"], title="Weekly", start="2026-04-07T10:00", end="2026-04-07T10:30",
               recurrence={"freq": "weekly", "until": "2026-05-26"})
    r = client.post(f"/calendar/event/{eid}/save", data=form(title="Weekly", start_date="2026-04-21",
                                                              end_date="2026-04-21", start_time="14:00",
                                                              end_time="14:30", occ="2026-04-21",
                                                              repeat="custom", freq="weekly", interval="1",
                                                              byday=["TU"], ends="until", until="2026-05-26",
                                                              scope="following"))
    assert r.status_code == 302
    old, new = rows(slot, "Weekly")
    assert old["recurrence"]["until"] == "2026-04-20" and new["start"] == "2026-04-21T18:00:00Z"
    assert new["recurrence"] == {"freq": "weekly", "interval": 1, "until": "2026-05-26"}   # the rule carries on


def test_delete_and_move_dialogs_offer_this_and_following(hx, slot):
    series = make(slot, ALEX, guests=[], title="Daily", recurrence={"freq": "daily", "count": 5})
    dialog = hx.get(f"/calendar/event/{series}/delete?occ=2026-04-09&back={BACK}").data.decode()
    assert "This and following events" in dialog and 'value="following"' in dialog
    r = hx.post(f"/calendar/event/{series}/move", data={"start": "2026-04-09T12:00", "occ": "2026-04-09", "back": BACK})
    assert 'value="following"' in r.data.decode()
    hx.post(f"/calendar/event/{series}/delete", data={"occ": "2026-04-09", "scope": "following", "back": BACK})
    assert rows(slot, "Daily")[0]["recurrence"] == {"freq": "daily", "interval": 1, "until": "2026-04-08"}
    r = hx.post(f"/calendar/event/{series}/delete", data={"occ": "2026-04-08", "scope": "sideways", "back": BACK})
    assert r.status_code == 422 and "this and following events" in r.data.decode()


def test_rsvp_to_a_series_asks_this_or_all(hx, slot):
    eid = make(slot, title="Standing", recurrence={"freq": "weekly", "count": 4})
    n = writes(slot)
    r = hx.post(f"/calendar/event/{eid}/respond", data={"response": "declined", "occ": "2026-04-14", "back": BACK,
                                                         "popup": "1"})
    body = r.data.decode()
    assert r.headers["HX-Retarget"] == "#modal" and "RSVP to recurring event" in body and writes(slot) == n
    assert 'value="this"' in body and 'value="all"' in body and 'value="following"' not in body
    r = hx.post(f"/calendar/event/{eid}/respond", data={"response": "declined", "occ": "2026-04-14", "back": BACK,
                                                         "popup": "1", "scope": "this"})
    assert r.status_code == 200 and "You declined" in r.data.decode()
    with slot.store() as st:
        ex = st.one("SELECT * FROM cal_events WHERE series=?", (eid,))
        mine = {g["event"]: g["response"] for g in st.select("cal_guests", "person='alex.chen'")}
    assert ex["series_day"] == "2026-04-14" and mine[ex["id"]] == "declined" and mine[eid] == "needs_action"
    assert hx.post(f"/calendar/event/{eid}/respond", data={"response": "accepted", "occ": "2026-04-21",
                                                           "scope": "following"}).status_code == 422
    assert hx.post(f"/calendar/event/{eid}/respond", data={"response": "nope", "occ": "2026-04-21"}).status_code == 422


def test_other_calendars_add_toggle_remove(client, hx, slot):
    make(slot, PRIYA, title="Priya's planning", start="2026-04-08T13:00", end="2026-04-08T14:00", guests=[])
    make(slot, PRIYA, title="Priya's secret", start="2026-04-08T15:00", end="2026-04-08T16:00", guests=[],
         visibility="private")
    r = client.post("/calendar/calendars/add", data={"person": "priya.raman@meridianshaw.com", "back": BACK})
    assert r.status_code == 302 and r.headers["Location"].endswith(BACK)
    body = client.get(BACK).data.decode()
    assert "Priya&#39;s planning" in body and "Priya&#39;s secret" not in body
    assert re.search(r'aria-label="busy, 3 – 4pm, Wednesday, April 8, Priya Raman(&#39;|\')s calendar"', body)
    assert re.search(r'aria-label="Remove Priya Raman(&#39;|\')s calendar"', body)
    r = hx.post("/calendar/calendars/priya.raman/toggle", data={"back": BACK})
    assert r.status_code == 204 and r.headers["HX-Redirect"] == BACK
    assert "Priya&#39;s planning" not in client.get(BACK).data.decode()
    assert client.post("/calendar/calendars/priya.raman/remove", data={"back": BACK}).status_code == 302
    assert client.post("/calendar/calendars/priya.raman/remove", data={"back": BACK}).status_code == 404
    assert client.post("/calendar/calendars/add", data={"person": "nobody@else.example"}).status_code == 422


# ---------------------------------------------------------------- Google Calendar's surfaces
def test_resize_route_changes_the_end_and_refuses_bad_ends(hx, client, slot):
    eid = make(slot, ALEX, guests=[], title="Resizable", start="2026-04-07T10:00", end="2026-04-07T11:00")
    r = hx.post(f"/calendar/event/{eid}/move", data={"start": "2026-04-07T10:00", "end": "2026-04-07T12:15", "back": BACK})
    assert r.status_code == 200 and "Event saved" in r.data.decode()
    assert (rows(slot, "Resizable")[0]["start"], rows(slot, "Resizable")[0]["end"]) == (
        "2026-04-07T14:00:00Z", "2026-04-07T16:15:00Z")
    n = writes(slot)
    for end in ("soon", "2026-04-07T09:00"):
        r = client.post(f"/calendar/event/{eid}/move", data={"start": "2026-04-07T10:00", "end": end})
        assert r.status_code == 422 and writes(slot) == n
    series = make(slot, ALEX, guests=[], title="Daily resize", recurrence={"freq": "daily", "count": 3})
    r = hx.post(f"/calendar/event/{series}/move", data={"start": "2026-04-08T10:00", "end": "2026-04-08T11:30",
                                                       "occ": "2026-04-08", "back": BACK})
    body = r.data.decode()
    assert "Change recurring event" in body and 'name="end" value="2026-04-08T11:30"' in body and writes(slot) == n + 2


def test_four_day_view_and_the_view_menu(client):
    body = client.get("/calendar/4days/2026-04-06").data.decode()
    assert body.count('class="cal-col') == 4 and 'aria-label="Next period"' in body
    assert 'aria-label="Change view: 4 days"' in body and 'role="menu" aria-label="View"' in body
    for key, name in (("d", "Day"), ("w", "Week"), ("m", "Month"), ("a", "Schedule"), ("x", "4 days")):
        assert re.search(rf'data-view-key="{key}"><span>{name}</span>', body)
    assert "cal-switch" not in client.get(BACK).data.decode()


def test_quick_card_has_guests_location_description_and_keeps_them_on_error(hx, slot):
    body = hx.get(f"/calendar/quick?start=2026-04-08T15:00&end=2026-04-08T15:30&back={BACK}").data.decode()
    for label in ("Add guests", "Add location", "Add description"):
        assert f'aria-label="{label}"' in body
    assert ">More options</button>" in body
    r = hx.post("/calendar/events", data={"quick": "1", "back": BACK, "title": "Quick", "start_date": "2026-04-08",
                                          "end_date": "2026-04-08", "start_time": "15:00", "end_time": "15:30",
                                          "guests": ["nobody@nowhere.example"], "location": "Room 4"})
    body = r.data.decode()
    assert r.status_code == 422 and "not in the directory" in body and 'value="Room 4"' in body
    assert 'value="nobody@nowhere.example"' in body and rows(slot, "Quick") == []


def test_schedule_view_lists_the_days_with_events(client, slot):
    make(slot, title="Agenda item", start="2026-04-09T14:30", end="2026-04-09T15:00")
    body = client.get("/calendar/schedule/2026-04-06").data.decode()
    assert '<h1 class="cal-title">Apr – May 2026</h1>' in body and 'aria-label="Change view: Schedule"' in body
    assert re.search(r'aria-label="Thursday, April 9".*?2:30 – 3pm</span>\s*<span class="cal-ev-title">Agenda item', body, re.S)
    assert 'href="/calendar/schedule/2026-05-04"' in body                   # the next four weeks
    empty = client.get("/calendar/schedule/2030-01-01").data.decode()
    assert "Nothing planned from January 1 for four weeks." in empty
