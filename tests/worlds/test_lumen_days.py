"""The lumen days' co-workers (lumen/revops-desk, lumen/remediation-prep, lumen/renewals-review): Elise's
answer only she can give, Ines's hand-over once INC0010421 is resolved, Farah's conversation about the open
renewals — each driven through the engine as an episode would, deterministically."""
from __future__ import annotations

import pytest

from apps.chat import service as chat
from apps.core.facts import load_facts
from apps.core.store.compile import template_for
from apps.core.store.db import Caller
from apps.core.store.slot import Slot
from apps.coworkers import engine, principal
from apps.mail import compose
from apps.tickets.service import editing as tickets

JORDAN = Caller(user="jordan.blake")
FARAH_TURNS = ["farah.aziz:" + t for t in ("renewals-stale", "renewals-total", "dana-share-answer", "chase-dana-share")]


def _facts(variant: int) -> dict:
    from pathlib import Path
    return load_facts(Path(__file__).resolve().parents[2] / "worlds" / "lumen").values(variant)


def _lumen(variant: int = 0):
    slot = Slot(template_for("lumen" if variant == 0 else f"lumen@{variant}"))
    with slot.store() as st:
        yield st
    slot.close()


@pytest.fixture
def lumen():
    yield from _lumen(0)


def _variant_where(pred) -> int:
    return next(v for v in range(1, 200) if pred(_facts(v)))


# ------------------------------------------------------------------ lumen/revops-desk: Elise's figure
def test_elise_gives_the_palisade_price_only_when_the_day_turns_it_on(lumen):
    want = f"${_facts(0)['palisade_agreed']:,}"
    asked = principal.ask(lumen, "jordan.blake", "elise.moreau", "What price did you and Leo agree for Palisade?")
    engine.tick(lumen)
    assert not any(want in r for r in principal.replies(lumen, asked))          # off: she can't help
    engine.set_scenario(lumen, ["elise.moreau:palisade-figure"])
    asked = principal.ask(lumen, "jordan.blake", "elise.moreau", "What price did you and Leo agree for Palisade?")
    engine.tick(lumen)
    [answer] = principal.replies(lumen, asked)
    assert answer.startswith(f"{want} for the year")
    # the Lineage figure is another day's (its trigger is off here, though the words are the same)
    assert str(_facts(0)["lineage_agreed"]) not in answer.replace(",", "")


def test_the_palisade_price_varies_and_is_never_the_record_s():
    prices = {_facts(v)["palisade_agreed"] for v in range(200)}
    assert 84000 not in prices and len(prices) > 10
    assert all(_facts(v)["palisade_agreed"] != _facts(0)["palisade_agreed"] for v in range(1, 200))


# ------------------------------------------------------------------ lumen/remediation-prep: Ines's hand-over
def _resolve_421(st):
    tickets.update_incident(st, JORDAN, "INC0010421", state="Resolved", resolution_code="Solution provided",
                            resolution_notes="Backfilled per KB0001207.")


def _ines_said(st) -> list[str]:
    return [m["text"] for m in st.select("chat_messages", "author='ines.duarte' AND text LIKE 'Heads-up:%'", order="id")]


def _assignee(st, number: str) -> str:
    return st.one("SELECT assigned_to FROM tk_incidents WHERE number=?", (number,))["assigned_to"]


def test_ines_takes_inc433_over_two_steps_after_inc421_is_resolved(lumen):
    engine.set_scenario(lumen, ["ines.duarte:handover-433"])
    before = _assignee(lumen, "INC0010433")
    assert before == _facts(0)["inc433_owner"]["id"] == "paul.novak"
    tickets.update_incident(lumen, JORDAN, "INC0010440", state="On Hold", on_hold_reason="Awaiting Caller")
    engine.tick(lumen)                                     # another incident's state: nothing
    for _ in range(5):
        engine.tick(lumen)
    assert _assignee(lumen, "INC0010433") == before and not _ines_said(lumen)
    _resolve_421(lumen)
    engine.tick(lumen)                                     # fired; her actions come two steps later
    assert _assignee(lumen, "INC0010433") == before
    engine.tick(lumen)
    assert not _ines_said(lumen)
    engine.tick(lumen)
    assert _assignee(lumen, "INC0010433") == "ines.duarte"
    [said] = _ines_said(lumen)
    assert "taken INC0010433 over from Paul Novak" in said and "Dana's Harrowgate list" in said
    conv = lumen.select("chat_messages", "author='ines.duarte' AND text LIKE 'Heads-up:%'")[0]["conversation"]
    assert chat.conversation(lumen, "jordan.blake", conv)["kind"] == "dm"
    # the write is hers, with a work note, never the agent's
    [w] = lumen.all("SELECT actor FROM _writes WHERE tbl='tk_incidents' AND actor != 'agent' "
                    "AND pk=(SELECT id FROM tk_incidents WHERE number='INC0010433')")
    assert w["actor"] == "ines.duarte"
    # once: reopening and resolving INC0010421 again changes nothing more
    tickets.update_incident(lumen, JORDAN, "INC0010421", state="In Progress")
    engine.tick(lumen)
    _resolve_421(lumen)
    for _ in range(4):
        engine.tick(lumen)
    assert len(_ines_said(lumen)) == 1 and _assignee(lumen, "INC0010433") == "ines.duarte"


def test_ines_hands_inc433_to_paul_when_it_was_hers():
    v = _variant_where(lambda f: f["inc433_owner"]["id"] == "ines.duarte")
    for st in _lumen(v):
        engine.set_scenario(st, ["ines.duarte:handover-433"])
        assert _assignee(st, "INC0010433") == "ines.duarte"
        _resolve_421(st)
        for _ in range(3):
            engine.tick(st)
        assert _assignee(st, "INC0010433") == "paul.novak"
        [said] = _ines_said(st)
        assert "handed INC0010433 to Paul Novak" in said


def test_the_hand_over_stays_off_in_other_tasks(lumen):
    _resolve_421(lumen)
    for _ in range(4):
        engine.tick(lumen)
    assert _assignee(lumen, "INC0010433") == "paul.novak" and not _ines_said(lumen)


# ------------------------------------------------------------------ lumen/renewals-review: Farah's conversation
def _mail_farah(st, body, reply_to=None):
    if reply_to:
        return compose.send(st, JORDAN, body=body, reply_to=reply_to)
    return compose.send(st, JORDAN, to="farah.aziz@lumenanalytics.io", subject="Open renewals through Q3", body=body)


def _farah_said(st) -> list[str]:
    return [m["body"].split("\n")[0] for m in st.select("mail_messages", "sender='farah.aziz@lumenanalytics.io' "
                                                        "AND subject LIKE 'Re: Open renewals%'", order="id")] + \
        [m["text"] for m in st.select("chat_messages", "author='farah.aziz' AND text LIKE 'Jordan — %'", order="id")]


def test_farah_pushes_back_on_a_total_with_brightvault_asks_about_dana_and_the_answer_closes_it(lumen):
    f = _facts(0)
    engine.set_scenario(lumen, FARAH_TURNS)
    m1 = _mail_farah(lumen, f"The open renewals through Q3 total ${f['rr_stale_total']:,}.")
    engine.tick(lumen)
    said = _farah_said(lumen)
    assert len(said) == 1 and said[0].startswith("That total is higher than mine")              # pushback
    m2 = _mail_farah(lumen, f"Corrected total: ${f['rr_open_total_m']:.2f}M (Brightvault is out).", reply_to=m1)
    engine.tick(lumen)
    said = _farah_said(lumen)
    assert len(said) == 2 and "how much of that total sits with her accounts?" in said[1]        # asks back
    _mail_farah(lumen, f"Total again: ${f['rr_stale_total']:,}.", reply_to=m2)                   # retired, once
    engine.tick(lumen)
    assert len(_farah_said(lumen)) == 2
    _mail_farah(lumen, f"Dana's accounts come to ${f['rr_dana_total']:,} of it.", reply_to=m2)
    engine.tick(lumen)
    said = _farah_said(lumen)
    assert len(said) == 3 and said[2].startswith("That's what I needed")
    for _ in range(25):                                    # answered: she doesn't chase
        engine.tick(lumen)
    assert len(_farah_said(lumen)) == 3


def test_farah_chases_her_question_twenty_steps_after_asking(lumen):
    f = _facts(0)
    engine.set_scenario(lumen, FARAH_TURNS)
    for _ in range(10):
        engine.tick(lumen)
    _mail_farah(lumen, f"Total: ${f['rr_open_total']:,} across 14 renewals.")
    engine.tick(lumen)
    assert engine.conversation(lumen, "farah.aziz")["renewals-total"] == 11
    for _ in range(19):
        engine.tick(lumen)
    assert not lumen.select("chat_messages", "author='farah.aziz' AND text LIKE 'Jordan — %'")
    engine.tick(lumen)
    [chase] = lumen.select("chat_messages", "author='farah.aziz' AND text LIKE 'Jordan — %'")
    assert chase["text"].startswith("Jordan — still need how much of the open renewals sits with Dana")
    # an answer about Dana before she asked is no answer to her question
    farah = next(c for c in engine.spec_of(lumen).coworkers if c.id == "farah.aziz")
    assert engine.first_match(farah, "mail", "Dana's accounts: $1,170,000.", state={}) is None
    assert engine.first_match(farah, "mail", "Dana's accounts: $1,170,000.",
                              state={"renewals-total": 0}).id == "dana-share-answer"


def test_farah_takes_the_right_total_in_any_variant():
    v = _variant_where(lambda f: f["hg_arr"] != 480000)
    f = _facts(v)
    for st in _lumen(v):
        engine.set_scenario(st, FARAH_TURNS)
        _mail_farah(st, f"Total open renewals: ${f['rr_open_total']:,}")
        engine.tick(st)
        [said] = _farah_said(st)
        assert said.startswith("Thanks, Jordan. Dana is carrying Harrowgate")
