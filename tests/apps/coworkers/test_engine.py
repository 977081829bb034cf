"""Co-workers: triggers from the write log, actions through the services, determinism."""
from __future__ import annotations

import json
import threading
from datetime import datetime

import pytest

from apps.chat import service as chat
from apps.calendar import service as cal
from apps.core.store.db import Caller
from apps.core.store.export import export
from apps.core.store.slot import Slot
from apps.core.world import WorldError
from apps.coworkers import brains, engine
from apps.coworkers.match import matches
from apps.coworkers.spec import CoworkersFile
from apps.mail import compose

ALEX = Caller(user="alex.chen")


def dm(store, who, text):
    conv = chat.open_dm(store, ALEX, [who])
    return conv, chat.post_message(store, ALEX, conv, text)


def replies_from(store, who, conv):
    return store.select("chat_messages", "conversation=? AND author=?", (conv, who), order="id")


def new_rows(store, table, where, params=()):
    return store.select(table, where, params)


# ------------------------------------------------------------------ matching
def test_keyword_groups_need_one_word_from_every_group():
    groups = [["survey", "dry dock"], ["latest", "send"]]
    assert matches("Could you SEND me the survey?", groups)
    assert matches("the latest dry dock report", groups)
    assert not matches("the survey, please", groups)            # no word from group 2
    assert not matches("send me the dry-docking schedule", [["dry dock"]])
    assert not matches("thanks for the latest survey", groups, unless=["thanks for"])


def test_every_world_phrasing_is_accepted_by_its_trigger(store):
    spec = engine.spec_of(store)
    assert len(spec.coworkers) >= 5
    assert engine.validate(store, spec) == []


def test_a_phrasing_taken_by_an_earlier_trigger_is_reported(store):
    raw = json.loads(engine.spec_of(store).model_dump_json(by_alias=True))
    sofia = next(c for c in raw["coworkers"] if c["id"] == "sofia.marchetti")
    thanks = next(t for t in sofia["triggers"] if t["id"] == "thanks")
    thanks["examples"].append("Could you send me the latest survey report?")          # latest-survey takes it
    problems = engine.validate(store, CoworkersFile.model_validate(raw))
    assert any("is taken by trigger 'latest-survey'" in p for p in problems)


def test_seed_refuses_a_trigger_that_rejects_its_own_example(tmp_path, world):
    import shutil
    from apps.core.store.compile import build
    from apps.core.world import load_world
    root = tmp_path / "meridian"
    shutil.copytree(world.root, root, ignore=shutil.ignore_patterns("tasks"))
    text = (root / "coworkers.yaml").read_text(encoding="utf-8")
    text = text.replace('- "Hi Sofia, could you send me the latest survey report?"',
                        '- "Hi Sofia, how was the weekend?"')
    (root / "coworkers.yaml").write_text(text, encoding="utf-8")
    with pytest.raises(WorldError, match="how was the weekend.*matches no trigger"):
        build(load_world(str(root)), tmp_path / "t.sqlite")


# ------------------------------------------------------------------ chat and mail
def test_asking_sofia_in_chat_gets_a_reply_and_the_file_by_mail(store):
    conv, mid = dm(store, "sofia.marchetti", "Hi Sofia, could you send me the latest survey report?")
    assert engine.tick(store) is True
    [reply] = replies_from(store, "sofia.marchetti", conv)[-1:]
    assert reply["id"] > mid and "dry-dock addendum" in reply["text"] and reply["thread"] is None
    actor = store.scalar("SELECT actor FROM _writes WHERE tbl='chat_messages' AND pk=?", (reply["id"],))
    assert actor == "sofia.marchetti"
    mail = store.select("mail_messages", "sender=? AND subject LIKE 'Addendum No. 1%'",
                        ("sofia.marchetti@meridianshaw.com",))
    assert len(mail) == 1 and mail[0]["to"] == ["alex.chen@meridianshaw.com"]
    [att] = store.select("mail_attachments", "message=?", (mail[0]["id"],))
    assert att["name"] == "Hull Inspection Addendum – Dry Dock (2026-04-03).pdf"
    assert store.one("SELECT 1 FROM mail_boxes WHERE owner='alex.chen' AND message=? AND inbox=1",
                     (mail[0]["id"],))
    assert engine.tick(store) is False                        # nothing new: nobody speaks


def test_asking_sofia_by_mail_gets_a_reply_in_the_thread_with_the_attachment(store):
    mid = compose.send(store, ALEX, to="sofia.marchetti@meridianshaw.com", subject="Survey",
                       body="Could you email me the hull inspection addendum?\n\nThanks, Alex")
    engine.tick(store)
    first = store.get("mail_messages", mid)
    [reply] = store.select("mail_messages", "in_reply_to=?", (mid,))
    assert reply["thread"] == first["thread"] and reply["sender"] == "sofia.marchetti@meridianshaw.com"
    assert reply["subject"].startswith("Re:") and "17,950 bbl" in reply["body"]
    assert len(store.select("mail_attachments", "message=?", (reply["id"],))) == 1
    assert not store.select("chat_messages", "author='sofia.marchetti' AND at=?", (store.now_iso(),))


def test_an_unmatched_question_gets_a_clarifying_reply_and_news_gets_a_thumbs_up(store):
    conv, _ = dm(store, "henry.adeyemi", "Can you help me with something on the Pelagic file?")
    engine.tick(store)
    [r] = replies_from(store, "henry.adeyemi", conv)[-1:]
    assert r["text"] == "Happy to help — which matter and which entries?"
    conv, mid = dm(store, "henry.adeyemi", "Entries for March are all in now.")
    n = len(replies_from(store, "henry.adeyemi", conv))
    engine.tick(store)
    assert len(replies_from(store, "henry.adeyemi", conv)) == n
    assert store.select("chat_reactions", "message=? AND person='henry.adeyemi'", (mid,))[0]["emoji"] == "👍"


def test_a_mention_in_a_channel_is_answered_in_its_thread(store):
    conv = chat.conversation_by_name(store, "alex.chen", "corvane-aurelia-dawn")["id"]
    mid = chat.post_message(store, ALEX, conv, "@eleanor.vance I've updated the damages model: third-party "
                                               "total is now $122,755,000.")
    engine.tick(store)
    [r] = store.select("chat_messages", "thread=? AND author='eleanor.vance'", (mid,))
    assert "122,755,000" in r["text"]


def test_a_mention_of_someone_outside_the_channel_does_not_reach_them(store):
    """As in Slack: the client isn't in the team's channel, so an @mention there isn't delivered."""
    conv = chat.conversation_by_name(store, "alex.chen", "corvane-aurelia-dawn")["id"]
    assert not store.select("chat_members", "conversation=? AND person='laura.whitfield'", (conv,))
    before = len(store.select("chat_messages", "author='laura.whitfield'"))
    chat.post_message(store, ALEX, conv, "@laura.whitfield the deductible is $2,500,000 per occurrence.")
    engine.tick(store)
    engine.tick(store)
    assert len(store.select("chat_messages", "author='laura.whitfield'")) == before


def test_a_reply_in_a_coworkers_thread_reaches_them_without_a_mention(store):
    conv = chat.conversation_by_name(store, "alex.chen", "corvane-client")["id"]
    parent = store.select("chat_messages", "conversation=? AND author='laura.whitfield' AND thread IS NULL",
                          (conv,), order="at DESC, id DESC")[0]
    assert "deductible" in parent["text"]
    chat.post_message(store, ALEX, conv, "Laura — the deductible is $2,500,000 per occurrence.",
                      thread=parent["id"])
    engine.tick(store)
    [r] = store.select("chat_messages", "thread=? AND author='laura.whitfield'", (parent["id"],))
    assert r["text"].startswith("Perfect, thank you")


# ------------------------------------------------------------------ calendar
def _invite(store, when, guests, title="Fund top-up strategy", minutes=60):
    start = datetime.fromisoformat(when)
    end = start.replace(hour=start.hour + minutes // 60, minute=start.minute + minutes % 60)
    return cal.create_event(store, ALEX, title=title, start=start, end=end, guests=guests)


def _responses(store, event):
    return {g["person"]: g["response"] for g in store.select("cal_guests", "event=?", (event,))}


def test_partners_accept_when_free_and_decline_when_busy(store):
    ok = _invite(store, "2026-04-09T15:00", ["eleanor.vance", "marcus.okafor", "robert.hale"])
    engine.tick(store)
    assert _responses(store, ok) == {"alex.chen": "accepted", "eleanor.vance": "accepted",
                                     "marcus.okafor": "accepted", "robert.hale": "accepted"}
    clash = _invite(store, "2026-04-09T11:00", ["eleanor.vance"])     # the weekly client call
    engine.tick(store)
    g = store.select("cal_guests", "event=? AND person='eleanor.vance'", (clash,))[0]
    assert g["response"] == "declined" and "another slot" in g["note"]


def test_laura_declines_during_her_board_meeting_and_accepts_when_moved(store):
    ev = _invite(store, "2026-04-14T13:00", ["laura.whitfield", "eleanor.vance"], title="Shortfall walk-through")
    engine.tick(store)
    g = store.select("cal_guests", "event=? AND person='laura.whitfield'", (ev,))[0]
    assert g["response"] == "declined" and "3:00 pm" in g["note"]
    # her decline (mail_organizer) reaches the organizer as a calendar's mail, with her note
    [m] = store.select("mail_messages", "sender='laura.whitfield@corvane-energy.com' AND subject LIKE 'Declined:%'")
    assert m["subject"] == "Declined: Shortfall walk-through @ Tue 14 Apr 2026 1:00 PM"
    assert m["to"] == ["alex.chen@meridianshaw.com"] and "could we do 3:00 pm" in m["body"]
    cal.move_event(store, ALEX, ev, datetime(2026, 4, 14, 15, 0))
    engine.tick(store)
    assert _responses(store, ev)["laura.whitfield"] == "accepted"
    assert len(store.select("mail_messages", "subject LIKE 'Declined:%'")) == 1      # accepting sends none
    # Eleanor declines with a note but mails nobody (no mail_organizer on her trigger)
    clash = _invite(store, "2026-04-09T11:00", ["eleanor.vance"])
    engine.tick(store)
    assert _responses(store, clash)["eleanor.vance"] == "declined"
    assert len(store.select("mail_messages", "subject LIKE 'Declined:%'")) == 1


# ------------------------------------------------------------------ steps and scenarios
def test_a_scenario_trigger_fires_only_in_the_task_that_turns_it_on(store):
    for _ in range(4):
        engine.tick(store)
    assert not store.select("chat_messages", "author='eleanor.vance' AND text LIKE '%pin my Key dates%'")
    engine.set_scenario(store, ["eleanor.vance:pin-key-dates"])
    engine.tick(store)
    [m] = store.select("chat_messages", "author='eleanor.vance' AND text LIKE '%pin my Key dates%'")
    assert chat.conversation(store, "alex.chen", m["conversation"])["kind"] == "dm"
    engine.tick(store)
    assert len(store.select("chat_messages", "author='eleanor.vance' AND text LIKE '%pin my Key dates%'")) == 1


# ------------------------------------------------------------------ determinism
def _episode(template) -> bytes:
    slot = Slot(template)
    try:
        with slot.store() as st:
            st.advance(30)
            dm(st, "sofia.marchetti", "Do you have the newest survey for the Aurelia Dawn?")
            engine.tick(st)
            st.advance(30)
            _invite(st, "2026-04-14T13:00", ["laura.whitfield", "robert.hale"], title="Call")
            engine.tick(st)
            dm(st, "priya.raman", "Priya, which case should I cite for gross negligence under §9?")
            engine.tick(st)
            return json.dumps(export(st), sort_keys=True, ensure_ascii=False).encode()
    finally:
        slot.close()


def test_the_same_agent_actions_give_byte_identical_final_state(template):
    a, b = _episode(template), _episode(template)
    assert a == b
    assert b"Grayling" in a and b"board meeting" in a


# ------------------------------------------------------------------ model brain
def test_model_brain_reads_the_conversation_and_answers(store, monkeypatch):
    spec = json.loads(engine.spec_of(store).model_dump_json(by_alias=True))
    for c in spec["coworkers"]:
        if c["id"] == "henry.adeyemi":
            c["brain"] = "model"
    engine.install(store, CoworkersFile.model_validate(spec))
    seen = []
    brains.set_backend(lambda messages: seen.append(messages) or "March closes on the 10th.")
    try:
        conv, _ = dm(store, "henry.adeyemi", "When does the March billing close?")
        engine.tick(store)
    finally:
        brains.set_backend(None)
    assert replies_from(store, "henry.adeyemi", conv)[-1]["text"] == "March closes on the 10th."
    system, *turns = seen[0]
    assert "Henry Adeyemi" in system["content"] and "Billing Manager" in system["content"]
    assert turns[-1] == {"role": "user", "content": "Alex Chen: When does the March billing close?"}


def test_http_backend_speaks_openai_chat_completions(monkeypatch):
    from flask import Flask, request
    from werkzeug.serving import make_server
    got = []
    fake = Flask("fake")

    @fake.post("/v1/chat/completions")
    def completions():
        got.append(request.get_json())
        return {"choices": [{"message": {"role": "assistant", "content": "On it."}}]}

    server = make_server("127.0.0.1", 0, fake)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        monkeypatch.setenv("DESKWORLD_COWORKER_BASE_URL", f"http://127.0.0.1:{server.server_port}/v1")
        monkeypatch.setenv("DESKWORLD_COWORKER_MODEL", "tiny")
        assert brains.backend()([{"role": "user", "content": "hi"}]) == "On it."
    finally:
        server.shutdown()
    assert got == [{"model": "tiny", "messages": [{"role": "user", "content": "hi"}], "temperature": 0,
                    "max_tokens": 300}]


def test_a_record_trigger_fires_once_on_a_matching_agent_write(store):
    lit = chat.conversation_by_name(store, "alex.chen", "litigation-support")["id"]
    before = len(replies_from(store, "tom.becker", lit))
    _invite(store, "2026-04-15T15:00", [], title="Lunch")                    # no match
    engine.tick(store)
    assert len(replies_from(store, "tom.becker", lit)) == before
    ev = _invite(store, "2026-04-15T15:00", [], title="File objection to the fund")
    engine.tick(store)
    [m] = replies_from(store, "tom.becker", lit)[before:]
    assert "e-filing bundle" in m["text"]
    assert chat.conversation(store, "alex.chen", lit)["topic"].startswith("Objection to the fund: e-filing")
    actor = store.scalar("SELECT actor FROM _writes WHERE tbl='chat_conversations' AND pk=? ORDER BY seq DESC", (lit,))
    assert actor == "tom.becker"
    cal.update_event(store, ALEX, ev, title="File the objection (final)")   # matches again, but once: true
    engine.tick(store)
    assert len(replies_from(store, "tom.becker", lit)) == before + 1


def test_a_call_action_reaches_only_service_functions(store):
    with pytest.raises(LookupError, match="service functions only"):
        engine.service_function("apps.chat.routes.index")
    with pytest.raises(LookupError, match="no such service function"):
        engine.service_function("apps.chat.service.nope")
    raw = json.loads(engine.spec_of(store).model_dump_json(by_alias=True))
    tom = next(c for c in raw["coworkers"] if c["id"] == "tom.becker")
    tom["triggers"][-1]["do"][-1]["args"]["conv_id"] = {"channel": "no-such-channel"}
    problems = engine.validate(store, CoworkersFile.model_validate(raw))
    assert any("no channel 'no-such-channel'" in p for p in problems)


# ------------------------------------------------------------------ lumen: a watched channel, a record trigger
@pytest.fixture
def lumen():
    from apps.core.store.compile import template_for
    slot = Slot(template_for("lumen"))
    with slot.store() as st:
        yield st
    slot.close()


def test_the_on_call_acknowledges_a_p1_page_in_its_thread_without_a_mention(lumen):
    jordan = Caller(user="jordan.blake")
    conv = chat.conversation_by_name(lumen, "jordan.blake", "support-oncall")["id"]
    other = chat.post_message(lumen, jordan, conv, "P2 INC0010442 — Northloop — login resets")
    engine.tick(lumen)
    assert not lumen.select("chat_messages", "thread=?", (other,))             # not a P1: no ack
    page = chat.post_message(lumen, jordan, conv, "P1 INC0010441 — Stratus Freight — freshness checks stopped")
    engine.tick(lumen)
    [ack] = lumen.select("chat_messages", "thread=?", (page,))
    assert ack["author"] == "wei.zhang" and ack["text"].startswith("Ack")


def test_assigning_a_crm_task_to_the_csm_gets_her_acknowledgement(lumen):
    from apps.crm import service as crm
    jordan = Caller(user="jordan.blake")
    opp = crm.by_slug(lumen, "jordan.blake", "opportunities", "harrowgate-fy27-renewal")
    crm.log_activity(lumen, jordan, "opportunity", opp["id"], "task", "Send remediation plan to Nadia",
                     due="2026-06-10", status="Open", who="dana.whitaker")
    engine.tick(lumen)
    [m] = lumen.select("chat_messages", "author='dana.whitaker' AND text LIKE '%remediation plan%'")
    assert chat.conversation(lumen, "jordan.blake", m["conversation"])["kind"] == "dm"


# ------------------------------------------------------------------ conversations (multi-turn)
VICTOR_TURNS = ["victor.hale:" + t for t in ("board-numbers-stale", "board-numbers", "ex-harrowgate-answer",
                                              "chase-ex-harrowgate")]


def _mail_victor(st, body, reply_to=None):
    jordan = Caller(user="jordan.blake")
    if reply_to:
        return compose.send(st, jordan, body=body, reply_to=reply_to)
    return compose.send(st, jordan, to="victor.hale@lumenanalytics.io", subject="Q2 board numbers", body=body)


def _victor_said(st):
    return [m["body"].split("\n")[0] for m in st.select("mail_messages", "sender='victor.hale@lumenanalytics.io' "
                                                         "AND subject LIKE 'Re: Q2 board numbers%'", order="id")] + \
        [m["text"] for m in st.select("chat_messages", "author='victor.hale' AND text LIKE 'Jordan — %'", order="id")]


def test_a_stale_figure_is_pushed_back_then_the_right_one_gets_a_question_back_and_its_answer_closes_it(lumen):
    engine.set_scenario(lumen, VICTOR_TURNS)
    n = len(_victor_said(lumen))
    m1 = _mail_victor(lumen, "Closed won $1.72M, commit $3.31M, best case $3.88M.")
    engine.tick(lumen)
    said = _victor_said(lumen)[n:]
    assert len(said) == 1 and said[0].startswith("That closed won looks like Monday's number")     # pushback
    m2 = _mail_victor(lumen, "Corrected: closed won $2,123,000, commit $3,305,000, best case $3,785,000.", reply_to=m1)
    engine.tick(lumen)
    said = _victor_said(lumen)[n:]
    assert len(said) == 2 and "what's commit without Harrowgate?" in said[1]                       # asks back
    # the same figures again are not asked about twice (once), and a stale one is no longer pushed back
    _mail_victor(lumen, "Closed won $1.72M, commit $3.31M.", reply_to=m2)
    engine.tick(lumen)
    assert len(_victor_said(lumen)[n:]) == 2
    _mail_victor(lumen, "Commit without Harrowgate: $2,825,000.", reply_to=m2)
    engine.tick(lumen)
    said = _victor_said(lumen)[n:]
    assert len(said) == 3 and said[2].startswith("Got it — both versions go in the pack")
    for _ in range(25):                                   # answered: he doesn't chase
        engine.tick(lumen)
    assert len(_victor_said(lumen)[n:]) == 3


def test_a_question_left_unanswered_is_chased_steps_after_it_was_asked(lumen):
    engine.set_scenario(lumen, VICTOR_TURNS)
    for _ in range(30):                                   # steps before the conversation don't count
        engine.tick(lumen)
    _mail_victor(lumen, "Closed won $2.12M, commit $3.31M, best case $3.79M.")
    engine.tick(lumen)
    asked = engine.conversation(lumen, "victor.hale")["board-numbers"]
    assert asked == 31
    for _ in range(19):
        engine.tick(lumen)
    assert not lumen.select("chat_messages", "author='victor.hale' AND text LIKE 'Jordan — %'")
    engine.tick(lumen)                                    # 20 steps after he asked
    [chase] = lumen.select("chat_messages", "author='victor.hale' AND text LIKE 'Jordan — %'")
    assert chase["text"].startswith("Jordan — still need commit without Harrowgate")
    # the answer before him asking isn't an answer: a follow-up turn is live only after its opener
    st_spec = engine.spec_of(lumen)
    victor = next(c for c in st_spec.coworkers if c.id == "victor.hale")
    assert engine.first_match(victor, "mail", "Commit without Harrowgate is $2.83M.", state={}) is None
    assert engine.first_match(victor, "mail", "Commit without Harrowgate is $2.83M.",
                              state={"board-numbers": 0}).id == "ex-harrowgate-answer"


def test_wait_holds_a_turn_until_enough_steps_have_passed(lumen):
    raw = json.loads(engine.spec_of(lumen).model_dump_json(by_alias=True))
    victor = next(c for c in raw["coworkers"] if c["id"] == "victor.hale")
    victor["triggers"][0]["wait"] = 5                     # he reads the answer only 5 steps after asking
    spec = CoworkersFile.model_validate(raw)
    t = spec.coworkers[[c.id for c in spec.coworkers].index("victor.hale")].triggers[0]
    assert not engine.live(t, {"board-numbers": 10}, 14) and engine.live(t, {"board-numbers": 10}, 15)
    assert engine.validate(lumen, spec) == []            # examples are checked where the turn is live


def test_a_conversation_that_names_a_missing_turn_or_waits_without_after_is_refused():
    from pydantic import ValidationError
    base = {"id": "x", "persona": "p", "fallback": ["f"]}
    with pytest.raises(ValidationError, match="names 'nope', not a trigger of x"):
        CoworkersFile.model_validate({"coworkers": [{**base, "triggers": [
            {"id": "a", "when": "steps", "steps": 1, "after": ["nope"], "do": [{"post": "p", "to": ["agent"]}]}]}]})
    with pytest.raises(ValidationError, match="wait counts steps since the triggers in after"):
        CoworkersFile.model_validate({"coworkers": [{**base, "triggers": [
            {"id": "a", "when": "steps", "steps": 1, "wait": 3, "do": [{"post": "p", "to": ["agent"]}]}]}]})


def test_eleanor_asks_which_rate_after_the_shortfall_and_pushes_back_on_the_superseded_one(store):
    engine.set_scenario(store, ["eleanor.vance:" + t for t in ("rate-question", "rate-superseded", "rate-answer",
                                                               "rate-chase")])
    conv = chat.open_dm(store, ALEX, ["eleanor.vance"])
    said = lambda: [m["text"] for m in replies_from(store, "eleanor.vance", conv)]         # noqa: E731
    n = len(said())
    dm(store, "eleanor.vance", "Eleanor, I've confirmed the fund shortfall: $8,760,000.")
    engine.tick(store)                                    # her thanks; the question comes two steps on
    assert not any("which rate per GT" in t for t in said()[n:])
    engine.tick(store)
    engine.tick(store)
    assert said()[-1].startswith("Before I sign off the Pryce demand: which rate per GT")
    dm(store, "eleanor.vance", "I used $2,600 per GT from Notice No. 2022-01.")
    engine.tick(store)
    assert said()[-1].startswith("That's the superseded rate")
    dm(store, "eleanor.vance", "Corrected: $2,750 per GT, Notice No. 2025-02.")
    engine.tick(store)
    assert said()[-1] == "Good — that's the one. Go ahead with the draft."
    for _ in range(25):                                   # answered: no chase
        engine.tick(store)
    assert not any(t.startswith("Alex — still need the rate") for t in said())


# ------------------------------------------------------------------ scenario events that make records
SHIFT = ["kofi.mensah:shift-back", "raj.iyer:shift-files-freshness", "sofia.brandt:shift-files-invoice",
         "kenji.watanabe:shift-files-sso", "greta.lindqvist:shift-files-dpa", "olivia.hart:shift-files-dashboards",
         "olivia.hart:shift-update-dashboards", "lucia.ferraro:shift-files-volume"]


def _shift_log(st, steps):
    """What the morning shift's customers did by each step: (step, number, short description, caller) for
    each incident filed, (step, 'comment', text) for each comment they added."""
    engine.set_scenario(st, SHIFT)
    out = []
    for step in range(1, steps + 1):
        before = st.scalar("SELECT MAX(id) FROM tk_journal")
        n = st.scalar("SELECT MAX(id) FROM tk_incidents")
        engine.tick(st)
        for r in st.select("tk_incidents", "id>?", (n,), order="id"):
            out.append((step, r["number"], r["short_description"], r["caller_id"], r["impact"], r["urgency"], r["state"]))
        for j in st.select("tk_journal", "id>?", (before,), order="id"):
            out.append((step, "comment", j["author"], j["record"], j["kind"], j["text"]))
    return out


def test_customers_file_incidents_during_the_shift_and_one_updates_hers_deterministically(lumen):
    log = _shift_log(lumen, 150)
    filed = [e for e in log if e[1] != "comment"]
    assert [(e[0], e[1], e[3]) for e in filed] == [
        (20, "INC0010446", "raj.iyer"), (35, "INC0010447", "sofia.brandt"), (50, "INC0010448", "kenji.watanabe"),
        (65, "INC0010449", "greta.lindqvist"), (80, "INC0010450", "olivia.hart"), (115, "INC0010451", "lucia.ferraro")]
    assert all(e[6] == "New" for e in filed)
    [update] = [e for e in log if e[1] == "comment"]
    olivia = lumen.one("SELECT id FROM tk_incidents WHERE number='INC0010450'")["id"]
    assert update[:5] == (100, "comment", "olivia.hart", olivia, "comment")      # 20 steps after she filed
    assert "High impact and High urgency" in update[5]
    [back] = lumen.select("chat_messages", "author='kofi.mensah' AND text LIKE 'Back from the Harrowgate session%'")
    assert chat.conversation(lumen, "jordan.blake", back["conversation"])["kind"] == "dm"
    # The same episode again: the same filings, numbers and comment at the same steps, byte for byte.
    from apps.core.store.compile import template_for
    again = Slot(template_for("lumen"))
    with again.store() as st:
        assert _shift_log(st, 150) == log
    again.close()


def test_the_shift_s_filings_stay_off_in_other_tasks(lumen):
    for _ in range(130):
        engine.tick(lumen)
    assert lumen.scalar("SELECT MAX(number) FROM tk_incidents") == "INC0010445"


def test_an_incident_argument_names_the_newest_incident_with_that_description(lumen):
    assert engine._arg(lumen, "olivia.hart", {"incident_titled": "Freshness monitor delayed 6h"}, {}) == \
        lumen.one("SELECT id FROM tk_incidents WHERE number='INC0010421'")["id"]
    with pytest.raises(LookupError, match="no incident titled 'Nothing like this'"):
        engine._arg(lumen, "olivia.hart", {"incident_titled": "Nothing like this"}, {})


def test_farah_moves_two_accounts_fifty_steps_in_and_dana_and_grace_acknowledge_their_lists(lumen):
    engine.set_scenario(lumen, ["farah.aziz:handover-grace-capacity", "dana.whitaker:handover-thanks",
                                "grace.okoro:handover-thanks"])
    jordan = Caller(user="jordan.blake")
    said = lambda who: [m["text"] for m in lumen.select("chat_messages", "author=?", (who,), order="id")]  # noqa: E731
    n = len(said("farah.aziz"))
    for _ in range(49):
        engine.tick(lumen)
    assert len(said("farah.aziz")) == n
    engine.tick(lumen)
    assert said("farah.aziz")[-1] == ("Change to Leo's book: Grace is at capacity this quarter, so Stackhouse Systems "
                                      "and Atlas Outdoor Advertising go to Dana as well.")
    for who, text in (("dana.whitaker", "Dana, from Leo's book these accounts are yours: Brightwave Studios."),
                      ("grace.okoro", "Hi Grace — you're taking over Leo's Orbital Remit account from Monday.")):
        conv = chat.open_dm(lumen, jordan, [who])
        mid = chat.post_message(lumen, jordan, conv, text)
        engine.tick(lumen)
        [reply] = lumen.select("chat_messages", "conversation=? AND author=? AND id>?", (conv, who, mid), order="id")
        assert reply["text"].startswith(("Got them, thanks", "Thanks — I'll reach out"))
    conv = chat.open_dm(lumen, jordan, ["grace.okoro"])
    chat.post_message(lumen, jordan, conv, "Grace, how did the Lantern Books QBR go?")         # not about Leo's book
    engine.tick(lumen)
    assert said("grace.okoro")[-1] == "Sure — which account is this about?"


def test_maya_imports_the_webinar_leads_in_two_batches_then_passes_on_what_she_heard(lumen):
    engine.set_scenario(lumen, ["maya.patel:webinar-import", "maya.patel:webinar-import-more", "maya.patel:webinar-news"])
    event = lambda: lumen.select("crm_leads", "source='Event' AND created_by='maya.patel'", order="id")  # noqa: E731
    seen = []
    for step in range(1, 91):
        engine.tick(lumen)
        seen.append(len(event()))
    assert (seen[1], seen[2], seen[43], seen[44]) == (0, 8, 8, 11)          # steps 3 and 45
    leads = event()
    assert [r["status"] for r in leads] == ["New"] * 11 and {r["owner"] for r in leads} == {"tessa.grant"}
    assert [r["slug"] for r in leads][:2] == ["marisol-reyes", "hannah-cole"]
    oakline = next(r for r in leads if r["company"] == "Oakline Family Medicine")
    assert oakline["locations"] is None                                        # the scan didn't say
    said = [m["text"] for m in lumen.select("chat_messages", "author='maya.patel'", order="id")][-3:]
    assert said[0].startswith("Pulled the webinar import forward") and said[1].startswith("Found three more")
    assert said[2].startswith("Marisol Reyes at Sunpath Dental Partners replied")


def test_a_guest_copied_onto_one_occurrence_is_no_new_invitation_but_a_moved_one_is(store):
    series = cal.create_event(store, ALEX, title="Weekly check-in", start=datetime(2026, 4, 7, 15, 0),
                              end=datetime(2026, 4, 7, 15, 30), guests=["eleanor.vance"],
                              recurrence={"freq": "weekly", "byday": ["TU"], "until": "2026-05-26"})
    engine.tick(store)
    same = cal.update_event(store, ALEX, series, occ="2026-04-14", scope="this", description="Agenda: the fund")
    moved = cal.move_event(store, ALEX, series, datetime(2026, 4, 21, 16, 0), occ="2026-04-21", scope="this")

    def invites(event):
        [g] = store.select("cal_guests", "event=? AND person='eleanor.vance'", (event,))
        return engine._invite_events(store, "cal_guests", g["id"], ["person"], {"eleanor.vance"})
    assert same != series and store.get("cal_events", same)["series"] == series
    assert invites(same) == []                          # the occurrence at its own time: nothing to answer
    assert [e.kind for e in invites(moved)] == ["invite"]   # at another time: a new question for her
