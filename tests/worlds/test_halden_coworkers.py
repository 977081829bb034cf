"""Halden's co-workers through the engine, as an episode drives them: the management-meeting invitations
(the CFO's covenant review, the CEO's Navy audit, Granite's IC, Rheinwerk's week in Mannheim), Nathaniel's
proceeds, and the record triggers of Lucy (a CRM amount moved), Fiona (a VDR request) and Deborah (a
conflicts check). Every phrasing of every text trigger is tested at compile (`deskworld compile halden`)."""
from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from apps.calendar import service as cal
from apps.core.store.compile import template_for
from apps.core.store.db import Caller
from apps.core.store.slot import Slot
from apps.coworkers import engine
from apps.crm.service import editing as crm
from apps.mail import compose
from apps.tickets.service.catalog import submit_request

TARIQ = Caller(user="tariq.haddad")


@pytest.fixture
def halden():
    slot = Slot(template_for("halden"))
    with slot.store() as st:
        yield st
    slot.close()


def _meeting(st, when: str, guests: list[str], bidder: str = "Marlow Peak") -> int:
    start = datetime.fromisoformat(when)
    return cal.create_event(st, TARIQ, title=f"Project Juniper – Management Meeting – {bidder}", start=start,
                            end=start + timedelta(hours=3), guests=guests)


def _responses(st, ev) -> dict[str, tuple[str, str]]:
    return {g["person"]: (g["response"], g.get("note") or "") for g in st.select("cal_guests", "event=?", (ev,))}


def test_slot_one_suits_everyone_but_slots_three_and_four_clash_with_the_cfo_and_the_ceo(halden):
    team = ["mark.dressler", "alison.park", "victoria.ashby", "julian.pierce"]
    one = _meeting(halden, "2026-05-26T09:00", team + ["andrew.whitlock"])
    three = _meeting(halden, "2026-05-27T09:00", team + ["david.levin"], "Alder Creek")
    four = _meeting(halden, "2026-05-28T09:00", team + ["bradley.stone"], "Kestrel")
    engine.tick(halden)
    assert {p: r for p, (r, _) in _responses(halden, one).items()} == {p: "accepted" for p in team + ["andrew.whitlock", "tariq.haddad"]}
    r3, r4 = _responses(halden, three), _responses(halden, four)
    assert r3["alison.park"] == ("declined", "I have the Lakeshore covenant review that morning — another slot?")
    assert r3["mark.dressler"][0] == "accepted" and r4["alison.park"][0] == "accepted"
    assert r4["mark.dressler"] == ("declined", "I'm at Greenville for the Navy audit on the 28th.")
    # the declines reach the organizer as a calendar's mail
    declined = halden.select("mail_messages", "subject LIKE 'Declined:%'", order="id")
    assert {m["sender"] for m in declined} == {"alison.park@vardenflow.com", "mark.dressler@vardenflow.com"}


def test_granite_cannot_do_the_26th_and_rheinwerk_only_the_next_week(halden):
    granite = _meeting(halden, "2026-05-26T14:00", ["elise.monroe"], "Granite Harbor")
    rheinwerk_early = _meeting(halden, "2026-05-28T09:00", ["katrin.vogel"], "Rheinwerk")
    rheinwerk = _meeting(halden, "2026-06-02T09:00", ["katrin.vogel"], "Rheinwerk")
    granite_later = _meeting(halden, "2026-06-03T14:00", ["elise.monroe"], "Granite Harbor")
    engine.tick(halden)
    assert _responses(halden, granite)["elise.monroe"][0] == "declined"
    assert _responses(halden, rheinwerk_early)["katrin.vogel"][0] == "declined"
    assert _responses(halden, rheinwerk)["katrin.vogel"][0] == "accepted"
    assert _responses(halden, granite_later)["elise.monroe"][0] == "accepted"


def _nathaniel_replies(st) -> list[str]:
    return [m["body"] for m in st.select("mail_messages", "sender='nathaniel.brooks@callowayridge.com' "
                                         "AND sent_at > '2026-05-11'", order="id")]


def test_nathaniel_thanks_only_an_answer_with_the_proceeds(halden):
    compose.send(halden, TARIQ, to="nathaniel.brooks@callowayridge.com", subject="Calloway's proceeds",
                 body="Nathaniel, we are still working on the numbers and will revert shortly.")
    engine.tick(halden)
    assert not any("$106.4m" in b for b in _nathaniel_replies(halden))
    compose.send(halden, TARIQ, to="nathaniel.brooks@callowayridge.com", subject="Calloway's proceeds at the top bid",
                 body="Nathaniel, at the top bid Calloway's 30% comes to $106.4m, about 1.77x your $60.0m.")
    engine.tick(halden)
    assert any(b.startswith("Thanks — $106.4m, about 1.77x.") for b in _nathaniel_replies(halden))


def _posts(st, author: str, channel: str) -> list[str]:
    conv = st.one("SELECT id FROM chat_conversations WHERE name=?", (channel,))["id"]
    return [m["text"] for m in st.select("chat_messages", "conversation=? AND author=?", (conv, author), order="id")]


def test_lucy_ties_the_tracker_to_a_moved_crm_amount_once(halden):
    opp = halden.one("SELECT id FROM crm_opportunities WHERE slug='juniper-kestrel'")["id"]
    before = _posts(halden, "lucy.brennan", "juniper-model")
    crm.update(halden, TARIQ, "opportunities", opp, next_step="Phase II letter")     # not the amount: nothing
    engine.tick(halden)
    assert _posts(halden, "lucy.brennan", "juniper-model") == before
    crm.update(halden, TARIQ, "opportunities", opp, amount=415_000_000)
    engine.tick(halden)
    crm.update(halden, TARIQ, "opportunities", halden.one("SELECT id FROM crm_opportunities WHERE slug='juniper-corliss'")["id"],
               amount=370_000_000)
    engine.tick(halden)
    new = _posts(halden, "lucy.brennan", "juniper-model")[len(before):]
    assert new == ["Saw the CRM move — I'll tie the tracker to it tonight."]


def test_fiona_and_deborah_pick_up_the_requests_they_own(halden):
    submit_request(halden, TARIQ, "VDR access revocation",
                   {"party": "Summit Ridge Instruments", "users": "alicia.ford@summitridgeinst.com",
                    "folders": "0 Phase I", "reason": "Declined 2026-04-20", "effective_date": "2026-05-11"})
    engine.tick(halden)
    assert _posts(halden, "fiona.gallagher", "juniper-vdr")[-1] == "Got it — I'll audit the shares against KB0003001."
    submit_request(halden, TARIQ, "Wall-cross / conflicts check",
                   {"party": "Marlow Peak Partners", "role": "Bidder", "requested_by": "Tariq Haddad"})
    engine.tick(halden)
    said = [m["text"] for m in halden.select("chat_messages", "author='deborah.kwan'", order="id")]
    assert said[-1] == "Received; running it against the Juniper list."
