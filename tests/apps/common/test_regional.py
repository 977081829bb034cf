"""Regional formats, an appearance variant (issue 22): ``apps.core.locale`` and the ``deskworld_locale``
cookie (``apps.web.regional``). en-US (no cookie) is the page as it was, byte for byte; en-GB and
de-DE change how Mail, Drive, Chat, Calendar and the pickers write dates, times and numbers — never
what is stored, and never a spreadsheet's or document's own formats."""
from __future__ import annotations

import re
from datetime import date, datetime, time

import pytest

from apps.core import locale
from apps.web.regional import COOKIE
from tests.apps.common.appearance import page_with_cookie

PAGES = ["/mail/inbox", "/chat/", "/calendar/week/2026-04-06", "/drive/my-drive", "/docs/", "/sheets/",
         "/slides/", "/crm/", "/tickets/", "/"]
HTML_TAG = re.compile(r"<html[^>]*>")


def page(client, url, code=None):
    return page_with_cookie(client, url, COOKIE, code)


# ---------------------------------------------------------------------------- the formats
@pytest.mark.parametrize("code,want", [
    ("en-US", ("4/3/2026", "4/3/26", "Apr 3", "Apr 3, 2026", "Friday, April 3", "4:05 PM", "4:05pm", "1,234.5",
               "$1,250,000")),
    ("en-GB", ("03/04/2026", "03/04/2026", "3 Apr", "3 Apr 2026", "Friday 3 April", "16:05", "16:05", "1,234.5",
               "$1,250,000")),
    ("de-DE", ("03.04.2026", "03.04.26", "3 Apr", "3 Apr 2026", "Friday, 3 April", "16:05", "16:05", "1.234,5",
               "1.250.000 $")),
])
def test_each_locale_writes_dates_times_and_numbers_its_way(code, want):
    d, t = date(2026, 4, 3), time(16, 5)
    with locale.use(code):
        got = (locale.numeric(d), locale.numeric(d, short_year=True), locale.day_month(d), locale.medium(d),
               locale.weekday_day(d), locale.clock(t), locale.clock(t, lower=True), locale.number(1234.5),
               locale.money(1250000))
    assert got == want
    assert locale.current() == "en-US"                    # use() restores the default


@pytest.mark.parametrize("code,typed,want", [
    ("en-US", "4/3/2026", date(2026, 4, 3)), ("en-GB", "4/3/2026", date(2026, 3, 4)),
    ("en-GB", "03/04/2026", date(2026, 4, 3)), ("de-DE", "03.04.2026", date(2026, 4, 3)),
    ("de-DE", "3.4.2026", date(2026, 4, 3)), ("de-DE", "2026-04-03", date(2026, 4, 3)),
    ("de-DE", "03/04/2026", None), ("en-US", "03.04.2026", None), ("en-GB", "31/02/2026", None),
    ("en-US", "13/4/2026", None), ("en-GB", "someday", None),
])
def test_typed_dates_are_read_in_the_locales_order(code, typed, want):
    with locale.use(code):
        assert locale.parse_date(typed) == want


@pytest.mark.parametrize("code,typed,want", [
    ("en-US", "1,250,000", 1250000), ("en-US", "1250000.5", 1250000.5), ("de-DE", "1.250.000", 1250000),
    ("de-DE", "1.250.000,5", 1250000.5), ("de-DE", "12,5", 12.5), ("de-DE", "1250000", 1250000),
    ("de-DE", "1250000.00", None), ("de-DE", "1.25.000", None), ("en-GB", "abc", None),
])
def test_typed_numbers_are_read_with_the_locales_separators(code, typed, want):
    with locale.use(code):
        assert locale.parse_number(typed) == want


@pytest.mark.parametrize("code,text,want", [
    ("en-GB", "Eleanor Vance at 5:10 PM", "Eleanor Vance at 17:10"),
    ("de-DE", "1:00pm", "13:00"),
    ("en-GB", "Focus time, 8 – 9:30am, Tuesday, April 21", "Focus time, 08:00 – 09:30, Tuesday 21 April"),
    ("de-DE", "11am – 12:30pm", "11:00 – 12:30"),
    ("de-DE", "Tuesday, December 8, 2026", "Tuesday, 8 December 2026"),
    ("en-GB", "7/1/2026", "01/07/2026"), ("de-DE", "7/1/2026", "01.07.2026"),
    ("en-GB", "Apr 6, 2026", "6 Apr 2026"), ("en-GB", "April 2026", "April 2026"),
    ("de-DE", "Amount $370,000,000", "Amount 370.000.000 $"), ("de-DE", "2,500.75 of 12", "2.500,75 of 12"),
    ("en-GB", "$370,000,000", "$370,000,000"),
    ("en-US", "Eleanor Vance at 5:10 PM", "Eleanor Vance at 5:10 PM"),
])
def test_a_scripts_en_us_words_read_as_the_locale_writes_them(code, text, want):
    assert locale.localize_text(text, code) == want


def test_an_unknown_locale_is_the_default():
    assert locale.valid("de_de") == "de-DE" and locale.valid("fr-FR") is None and locale.valid("") is None
    with locale.use("fr-FR"):
        assert locale.current() == "en-US"


# ---------------------------------------------------------------------------- the pages
@pytest.mark.parametrize("url", PAGES)
def test_the_default_is_byte_identical_and_a_locale_marks_the_html(client, url):
    plain = page(client, url)
    assert HTML_TAG.search(plain).group(0) == '<html lang="en">' and "data-locale" not in plain
    for other in ("en-US", "en-us", "fr-FR", "", '"><script>', "de"):
        assert page(client, url, other) == plain, other
    for code in ("en-GB", "de-DE"):
        assert HTML_TAG.search(page(client, url, code)).group(0) == f'<html lang="en" data-locale="{code}">'


def clock_text(html: str) -> str:
    return re.search(r'id="world-clock"[^>]*>([^<]+)<', html).group(1).strip()


def test_the_shell_clock_and_gmails_list_follow_the_locale(client):
    us, gb, de = (page(client, "/mail/inbox", c) for c in (None, "en-GB", "de-DE"))
    assert re.fullmatch(r"[A-Z][a-z]{2}, [A-Z][a-z]{2} \d{1,2} · \d{1,2}:\d{2} [AP]M", clock_text(us))
    assert re.fullmatch(r"[A-Z][a-z]{2} \d{1,2} [A-Z][a-z]{2} · \d{2}:\d{2}", clock_text(gb))
    assert re.fullmatch(r"[A-Z][a-z]{2}, \d{1,2} [A-Z][a-z]{2} · \d{2}:\d{2}", clock_text(de))
    dates = lambda html: re.findall(r'<time datetime="[^"]+" title="[^"]*">([^<]+)</time>', html)
    assert dates(us) and all(re.fullmatch(r"[A-Z][a-z]{2} \d{1,2}|\d{1,2}:\d{2} [AP]M|\d+/\d+/\d\d", d)
                             for d in dates(us))
    assert len(dates(de)) == len(dates(us)) and all(re.fullmatch(r"\d{1,2} [A-Z][a-z]{2}|\d{2}:\d{2}|\d\d\.\d\d\.\d\d", d)
                                                    for d in dates(de))


def test_calendar_hours_events_and_the_time_list_use_the_24_hour_clock(client):
    us, gb = page(client, "/calendar/week/2026-04-06"), page(client, "/calendar/week/2026-04-06", "en-GB")
    hours = lambda html: re.findall(r'<div class="cal-hour">([^<]*)</div>', html)
    assert hours(us)[9] == "9 AM" and hours(gb)[9] == "09:00" and hours(gb)[15] == "15:00"
    assert "Monday, April 6" in us and "Monday 6 April" in gb and "Monday, April 6" not in gb
    assert not re.search(r"\d(am|pm)\b", gb.split("<main", 1)[-1])
    form = page(client, "/calendar/new?date=2026-04-07&start=10:00", "de-DE")
    assert ">14:30<" in form and "2:30pm" not in form


def test_stored_text_never_changes_with_the_locale(slot):
    """A reply's or forward's quoted header is text the store keeps: the same in every locale."""
    from apps.core.timefmt import long_datetime
    with slot.store() as st:
        iso = st.now_iso()
        us = long_datetime(st, iso)
        with locale.use("de-DE"):
            stored, shown = long_datetime(st, iso, stored=True), long_datetime(st, iso)
    assert stored == us and re.search(r"[AP]M$", us)
    assert shown != us and not re.search(r"[AP]M", shown)


def test_a_request_leaves_its_thread_in_the_default(client):
    page(client, "/mail/inbox", "de-DE")
    assert locale.current() == "en-US"


def test_files_keep_their_own_formats(client):
    """A spreadsheet's formats belong to the file (Sheets' locale is the file's setting): the same bytes."""
    for url in ("/sheets/s/1", "/docs/d/1"):
        assert page(client, url, "de-DE").replace(' data-locale="de-DE"', "", 1) == page(client, url)


def test_times_and_dates_at_a_datetime():
    with locale.use("de-DE"):
        assert locale.clock(datetime(2026, 4, 6, 0, 30)) == "00:30"
    assert locale.clock(datetime(2026, 4, 6, 0, 30)) == "12:30 AM"
