"""The CRM in another locale (issue 22's regional formats): amounts, dates and date-times are shown
as Salesforce shows them for the person's locale, and typed ones are read in that locale's order —
a date that doesn't fit it is refused naming the format, with nothing written."""
from __future__ import annotations

import re

import pytest

from apps.crm import service as S
from apps.web.regional import COOKIE
from tests.apps.crm.conftest import writes as store_writes


def writes(slot) -> int:
    with slot.store() as st:
        return store_writes(st)


def harrowgate(slot):
    with slot.store() as st:
        return S.by_slug(st, "jordan.blake", "opportunities", "harrowgate-fy27-renewal")


def test_amounts_and_dates_follow_the_locale(client, slot):
    o = harrowgate(slot)
    y, m, d = o["close_date"].split("-")
    us = client.get(o["url"]).get_data(as_text=True)
    client.set_cookie(COOKIE, "de-DE", domain="localhost")
    de = client.get(o["url"]).get_data(as_text=True)
    client.set_cookie(COOKIE, "en-GB", domain="localhost")
    gb = client.get(o["url"]).get_data(as_text=True)
    amount = o["amount"]
    assert f"${amount:,}" in us and f"{amount:,} $".replace(",", ".") in de and f"${amount:,}" in gb
    assert f"{int(m)}/{int(d)}/{y}" in us
    assert f"{d}.{m}.{y}" in de and f"{int(m)}/{int(d)}/{y}" not in de
    assert f"{d}/{m}/{y}" in gb
    assert re.search(r"\d{2}\.\d{2}\.\d{4}, \d{2}:\d{2}", de)          # Last Modified: a date and 24-hour time


def save(hx, client, slot, code: str, field: str, typed: str):
    """Harrowgate's ``field`` saved inline as ``typed`` by a person in the locale ``code``."""
    client.set_cookie(COOKIE, code, domain="localhost")
    return hx.post(f"{harrowgate(slot)['url']}/details", data={field: typed})


@pytest.mark.parametrize("code,field,typed,want", [
    ("en-GB", "close_date", "30/06/2026", "2026-06-30"), ("de-DE", "close_date", "30.06.2026", "2026-06-30"),
    ("en-US", "close_date", "6/30/2026", "2026-06-30"), ("de-DE", "close_date", "2026-06-30", "2026-06-30"),
    ("de-DE", "amount", "1.250.000", 1250000), ("en-GB", "amount", "1,250,000", 1250000),
    ("de-DE", "amount", "980000", 980000),
])
def test_a_typed_date_or_amount_is_read_the_locales_way(hx, client, slot, code, field, typed, want):
    r = save(hx, client, slot, code, field, typed)
    assert r.status_code == 204, r.get_data(as_text=True)
    assert harrowgate(slot)[field] == want


@pytest.mark.parametrize("code,field,typed,said", [
    ("en-GB", "close_date", "6/30/2026", "enter a date like 30/06/2026"),
    ("de-DE", "close_date", "6/30/2026", "enter a date like 30.06.2026"),
    ("en-US", "close_date", "30.06.2026", "enter a date like 6/30/2026"),
    # a dot only groups thousands in de-DE: refused, never read as 125,000,000
    ("de-DE", "amount", "1250000.00", "Enter a number"),
])
def test_a_date_or_amount_written_another_locales_way_is_refused_naming_it(hx, client, slot, code, field, typed,
                                                                           said):
    before, was = writes(slot), harrowgate(slot)[field]
    r = save(hx, client, slot, code, field, typed)
    body = r.get_data(as_text=True)
    assert r.status_code == 422 and said in body and typed in body
    assert writes(slot) == before and harrowgate(slot)[field] == was
