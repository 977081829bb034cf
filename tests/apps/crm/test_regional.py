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


@pytest.mark.parametrize("code,typed,want", [
    ("en-GB", "30/06/2026", "2026-06-30"), ("de-DE", "30.06.2026", "2026-06-30"), ("en-US", "6/30/2026", "2026-06-30"),
    ("de-DE", "2026-06-30", "2026-06-30"),
])
def test_a_typed_close_date_is_read_in_the_locales_order(hx, client, slot, code, typed, want):
    o = harrowgate(slot)
    client.set_cookie(COOKIE, code, domain="localhost")
    r = hx.post(f"{o['url']}/details", data={"close_date": typed})
    assert r.status_code == 204, r.get_data(as_text=True)
    assert harrowgate(slot)["close_date"] == want


@pytest.mark.parametrize("code,typed,example", [
    ("en-GB", "6/30/2026", "30/06/2026"), ("de-DE", "6/30/2026", "30.06.2026"), ("en-US", "30.06.2026", "6/30/2026"),
])
def test_a_date_in_another_locales_order_is_refused_naming_the_format(hx, client, slot, code, typed, example):
    o, before = harrowgate(slot), writes(slot)
    client.set_cookie(COOKIE, code, domain="localhost")
    r = hx.post(f"{o['url']}/details", data={"close_date": typed})
    body = r.get_data(as_text=True)
    assert r.status_code == 422 and f"enter a date like {example}" in body and typed in body
    assert writes(slot) == before and harrowgate(slot)["close_date"] == o["close_date"]


@pytest.mark.parametrize("code,typed,want", [("de-DE", "1.250.000", 1250000), ("en-GB", "1,250,000", 1250000),
                                             ("de-DE", "980000", 980000)])
def test_a_typed_amount_is_read_with_the_locales_separators(hx, client, slot, code, typed, want):
    o = harrowgate(slot)
    client.set_cookie(COOKIE, code, domain="localhost")
    r = hx.post(f"{o['url']}/details", data={"amount": typed})
    assert r.status_code == 204, r.get_data(as_text=True)
    assert harrowgate(slot)["amount"] == want


def test_a_german_amount_with_an_english_decimal_point_is_refused(hx, client, slot):
    """1250000.00 in de-DE is no number (a dot only groups thousands there): refused, not read as 125000000."""
    o, before = harrowgate(slot), writes(slot)
    client.set_cookie(COOKIE, "de-DE", domain="localhost")
    r = hx.post(f"{o['url']}/details", data={"amount": "1250000.00"})
    assert r.status_code == 422 and "1250000.00" in r.get_data(as_text=True)
    assert writes(slot) == before and harrowgate(slot)["amount"] == o["amount"]
