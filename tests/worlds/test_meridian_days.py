"""The meridian days' co-workers (meridian/diary-day, hearing-prep-day, billing-day, pryce-day, claims-day,
board-pack-day, inbox-day): Eleanor's answer only she can give, Sofia's session to move, Henry's question back,
Pryce's further request, Aisha's revised figure, Laura's change of mind, Dr. Menon's cancellation — each driven
through the engine as an episode would, deterministically."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from apps.chat import service as chat
from apps.core.facts import load_facts
from apps.core.store.db import Caller
from apps.core.store.export import export
from apps.core.store.slot import Slot
from apps.coworkers import engine, principal
from apps.mail import compose

ALEX = Caller(user="alex.chen")
FACTS = load_facts(Path(__file__).resolve().parents[2] / "worlds" / "meridian", "meridian")
HENRY_TURNS = ["henry.adeyemi:" + t for t in ("amount-question", "amount-stale", "amount-answer", "amount-chase")]


def _f(variant: int = 0) -> dict:
    return FACTS.values(variant)


def _ticks(st, n: int) -> None:
    for _ in range(n):
        engine.tick(st)


def _dm(st, who: str) -> int:
    return chat.open_dm(st, ALEX, [who])


def _said_on_chat(st, who: str) -> list[str]:
    return [m["text"] for m in st.select("chat_messages", "conversation=? AND author=?", (_dm(st, who), who), order="id")]


def _mail_from(st, address: str, subject_like: str) -> list[dict]:
    return st.select("mail_messages", "sender=? AND subject LIKE ?", (address, subject_like), order="id")


# ------------------------------------------------------------------ diary-day: the time only Eleanor knows
def test_eleanor_gives_the_osei_time_only_when_the_day_turns_it_on(store):
    q = "What time did you agree with Catherine Osei for the pre-mediation call on 28 April?"
    asked = principal.ask(store, "alex.chen", "eleanor.vance", q)
    engine.tick(store)
    assert not any("28 April at" in r for r in principal.replies(store, asked))   # off: she can't help
    engine.set_scenario(store, ["eleanor.vance:osei-call-time"])
    asked = principal.ask(store, "alex.chen", "eleanor.vance", q)
    engine.tick(store)
    [answer] = principal.replies(store, asked)
    assert answer.startswith(f"Tuesday 28 April at {_f()['osei_call_said']}, for 30 minutes")
    # asked on chat instead of through ask_user, she answers the same
    chat.post_message(store, ALEX, _dm(store, "eleanor.vance"), "Eleanor, when is the pre-mediation call with Osei?")
    engine.tick(store)
    assert _said_on_chat(store, "eleanor.vance")[-1] == answer


def test_the_osei_time_varies_and_is_never_grace_s_hold():
    times = [_f(v)["osei_call_min"] for v in range(200)]
    assert 14 * 60 not in times and len(set(times)) >= 4
    assert all(t != _f(0)["osei_call_min"] for t in times[1:])          # a memorised time fails elsewhere
    assert all(15 * 60 <= t <= 17 * 60 for t in times)                 # after Eleanor's hold ends


# ------------------------------------------------------------------ hearing-prep-day: a session to move
def test_sofia_asks_for_the_exhibit_session_to_move_eighty_steps_in(store):
    engine.set_scenario(store, ["sofia.marchetti:move-exhibit-session"])
    _ticks(store, 79)
    assert not any("Exhibit list working session" in t for t in _said_on_chat(store, "sofia.marchetti"))
    engine.tick(store)
    [ask] = [t for t in _said_on_chat(store, "sofia.marchetti") if "Exhibit list working session" in t]
    assert "Could you move it to Friday 10 April, 9:30–10:30" in ask
    _ticks(store, 30)                                                   # once
    assert len([t for t in _said_on_chat(store, "sofia.marchetti") if "Exhibit list working session" in t]) == 1


# ------------------------------------------------------------------ billing-day: Henry's question back
def _henry_thread_reply(st, body: str) -> int:
    [m] = _mail_from(st, "henry.adeyemi@meridianshaw.com", "Live tracker%")
    return compose.send(st, ALEX, body=body, reply_to=m["id"])


def _amount(v: int = 0) -> int:
    return round((15.5 + _f(v)["henry_entry_hours"]) * 480)


def test_henry_asks_back_for_the_amount_pushes_back_on_the_pre_friday_figure_and_closes_on_the_right_one(store):
    engine.set_scenario(store, HENRY_TURNS)
    hours = round(15.5 + _f()["henry_entry_hours"], 1)
    _henry_thread_reply(store, f"Henry, done: the 3 April entry is in and the tracker shows {hours} hours for me.")
    engine.tick(store)
    said = _said_on_chat(store, "henry.adeyemi")
    assert said[-1].startswith("Thanks Alex — hours noted. One more for Eleanor's pre-bill")
    # his follow-up came on chat, so his mail conversation gets nothing new (a Billing label keeps it filed)
    assert len(_mail_from(store, "henry.adeyemi@meridianshaw.com", "%Live tracker%")) == 1
    dm = _dm(store, "henry.adeyemi")
    chat.post_message(store, ALEX, dm, "The tracker shows $7,440.00 for me.")
    engine.tick(store)
    assert _said_on_chat(store, "henry.adeyemi")[-1].startswith("That looks like your amount without Friday's entry")
    chat.post_message(store, ALEX, dm, f"Sorry — with Friday it's ${_amount():,}.00.")
    engine.tick(store)
    assert _said_on_chat(store, "henry.adeyemi")[-1] == "Perfect — that ties to my reconciliation. Thanks!"
    n = len(_said_on_chat(store, "henry.adeyemi"))
    _henry_thread_reply(store, "And the total hours again, for your file.")          # he asks once only
    _ticks(store, 25)                                                                   # answered: no chase
    assert len(_said_on_chat(store, "henry.adeyemi")) == n


def test_henry_chases_an_unanswered_question_twenty_steps_after_he_asked(store):
    engine.set_scenario(store, HENRY_TURNS)
    _ticks(store, 10)                                         # steps before the conversation don't count
    _henry_thread_reply(store, "Henry, the Friday entry is in the tracker now.")
    engine.tick(store)
    assert engine.conversation(store, "henry.adeyemi")["amount-question"] == 11
    _ticks(store, 19)
    assert not any(t.startswith("Alex — still need your total amount") for t in _said_on_chat(store, "henry.adeyemi"))
    engine.tick(store)
    assert _said_on_chat(store, "henry.adeyemi")[-1].startswith("Alex — still need your total amount")


def _henry_episode(template) -> bytes:
    slot = Slot(template)
    try:
        with slot.store() as st:
            engine.set_scenario(st, HENRY_TURNS)
            _henry_thread_reply(st, "Henry, done: the tracker shows the Friday entry.")
            engine.tick(st)
            chat.post_message(st, ALEX, _dm(st, "henry.adeyemi"), "It's $7,440.")
            engine.tick(st)
            chat.post_message(st, ALEX, _dm(st, "henry.adeyemi"), f"Correction: ${_amount():,}.")
            _ticks(st, 3)
            return json.dumps(export(st), sort_keys=True, ensure_ascii=False).encode()
    finally:
        slot.close()


def test_the_same_messages_give_henry_the_same_turns(template):
    a, b = _henry_episode(template), _henry_episode(template)
    assert a == b and b"ties to my reconciliation" in a


# ------------------------------------------------------------------ pryce-day: his further request
def _survey_to_pryce(st, subject="Aurelia Dawn: final survey report") -> int:
    return compose.send(st, ALEX, to="jonathan.pryce@brightwaterkessler.com", subject=subject,
                        body="Jonathan, as requested, the final survey report of 6 March 2026 is attached.")


def test_pryce_asks_for_more_two_steps_after_the_survey_reaches_him(store):
    engine.set_scenario(store, ["jonathan.pryce:survey-follow-up"])
    compose.send(store, ALEX, to="jonathan.pryce@brightwaterkessler.com", subject="Hearing bundle",
                 body="Jonathan, the index is attached.")                         # not the survey: nothing
    _ticks(store, 5)
    assert not _mail_from(store, "jonathan.pryce@brightwaterkessler.com", "%further documents%")
    _survey_to_pryce(store)
    _ticks(store, 2)
    assert not _mail_from(store, "jonathan.pryce@brightwaterkessler.com", "%further documents%")
    engine.tick(store)
    [m] = _mail_from(store, "jonathan.pryce@brightwaterkessler.com", "%further documents%")
    assert m["to"] == ["alex.chen@meridianshaw.com"] and "Dr. Menon's preliminary analysis" in m["body"]
    _survey_to_pryce(store, "Survey report again")                                  # once
    _ticks(store, 4)
    assert len(_mail_from(store, "jonathan.pryce@brightwaterkessler.com", "%further documents%")) == 1


def test_pryce_s_request_is_off_in_other_tasks(store):
    _survey_to_pryce(store)
    _ticks(store, 5)
    assert not _mail_from(store, "jonathan.pryce@brightwaterkessler.com", "%further documents%")


# ------------------------------------------------------------------ claims-day: a revised figure mailed in
def test_aisha_mails_the_revised_own_loss_fifty_steps_in(store):
    engine.set_scenario(store, ["aisha.karimi:revised-own-loss"])
    _ticks(store, 49)
    assert not _mail_from(store, "aisha.karimi@corvane-energy.com", "CL-006%")
    engine.tick(store)
    [m] = _mail_from(store, "aisha.karimi@corvane-energy.com", "CL-006%")
    f = _f()
    assert f"is now ${f['corvane_own'] - 240000:,} (was ${f['corvane_own']:,})" in m["body"]


# ------------------------------------------------------------------ board-pack-day: Laura changes her mind
def test_laura_asks_for_the_deck_two_steps_after_the_board_figures_reach_her(store):
    engine.set_scenario(store, ["laura.whitfield:deck-instead"])
    compose.send(store, ALEX, to="laura.whitfield@corvane-energy.com", subject="Thursday",
                 body="Laura, see you Thursday.")                                  # not her board pack
    _ticks(store, 4)
    assert not _mail_from(store, "laura.whitfield@corvane-energy.com", "%the deck itself%")
    [board] = store.select("mail_messages", "subject LIKE 'Board pack%' AND sender='laura.whitfield@corvane-energy.com'")
    compose.send(store, ALEX, body="Laura, (a) third-party claims … (b) Halcyon's limit …", reply_to=board["id"],
                 reply_all=True)
    _ticks(store, 2)
    assert not _mail_from(store, "laura.whitfield@corvane-energy.com", "%the deck itself%")
    engine.tick(store)
    [m] = _mail_from(store, "laura.whitfield@corvane-energy.com", "%the deck itself%")
    assert "view only, once it's final" in m["body"]


# ------------------------------------------------------------------ inbox-day: a call cancelled
def test_menon_asks_for_friday_s_call_to_be_cancelled_forty_steps_in(store):
    engine.set_scenario(store, ["ravi.menon:cancel-friday-call"])
    _ticks(store, 39)
    assert not _mail_from(store, "ravi.menon@menoneconomics.com", "Friday's call%")
    engine.tick(store)
    [m] = _mail_from(store, "ravi.menon@menoneconomics.com", "Friday's call%")
    assert "Could you cancel it, for Eleanor too?" in m["body"] and "no need to find another slot" in m["body"]


# ------------------------------------------------------------------ every phrasing, where its turn is live
DAY_TRIGGERS = {"eleanor.vance": ["osei-call-time"],
                "henry.adeyemi": ["amount-stale", "amount-answer"]}


@pytest.mark.parametrize("who", sorted(DAY_TRIGGERS))
def test_each_phrasing_is_accepted_or_refused_by_its_turn(store, who):
    spec = engine.spec_of(store)
    cw = next(c for c in spec.coworkers if c.id == who)
    for t in (t for t in cw.triggers if t.id in DAY_TRIGGERS[who]):
        state = engine.turns_before(cw, t)
        for text in t.examples:
            got = engine.first_match(cw, t.via[0], text, state=state)
            assert got is not None and got.id == t.id, (t.id, text)
        for text in t.counterexamples:
            got = engine.first_match(cw, t.via[0], text, state=state)
            assert got is None or got.id != t.id, (t.id, text)


def test_the_day_triggers_are_scenario_only():
    import yaml
    raw = yaml.safe_load((Path(__file__).resolve().parents[2] / "worlds" / "meridian" / "coworkers.yaml").read_text())
    mine = {("eleanor.vance", "osei-call-time"), ("sofia.marchetti", "move-exhibit-session"),
            ("henry.adeyemi", "amount-question"), ("henry.adeyemi", "amount-stale"),
            ("henry.adeyemi", "amount-answer"), ("henry.adeyemi", "amount-chase"),
            ("jonathan.pryce", "survey-follow-up"), ("aisha.karimi", "revised-own-loss"),
            ("laura.whitfield", "deck-instead"), ("ravi.menon", "cancel-friday-call")}
    found = {(c["id"], t["id"]): t.get("scenario", False) for c in raw["coworkers"] for t in c["triggers"]}
    assert all(found.get(k) is True for k in mine), {k: found.get(k) for k in mine}
