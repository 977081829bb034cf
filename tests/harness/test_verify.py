"""Verifiers over real exports: the check vocabulary, joins, the collateral-damage
guard, gates, rubrics with pending judges, infeasible tasks."""
from __future__ import annotations

import pytest

from apps.core.store.db import Caller
from apps.core.store.export import diff, export
from apps.drive import service as drive
from apps.mail import compose
from apps.mail import service as mail
from harness.tasks.schema import Task
from harness.verify import Status, verify
from harness.verify.conditions import CheckSpecError, match

ORACLE = [{"done": {}}]
PRYCE = "jonathan.pryce@brightwaterkessler.com"


def task(**kw) -> Task:
    base = {"revision": 1, "title": "t", "apps": ["mail"], "prompt": "p", "oracle": ORACLE}
    t = Task.model_validate({**base, **kw})
    t.id, t.world = "meridian/test", "meridian"
    return t


@pytest.fixture
def run(store, world):
    """Apply changes to the store, then verify a task against the start and end states."""
    initial = export(store)

    def _verify(t: Task, answer=None, done_status="complete"):
        final = export(store)
        return verify(t, initial, final, diff(initial, final), answer=answer, done_status=done_status,
                      world_root=world.root)
    return _verify


def survey_item(store):
    return store.select("drive_items", "name LIKE 'Final Survey Report%'")[0]


def send_survey(store, alex, to=PRYCE, extra_files=()):
    return compose.send(store, alex, to=to, subject="Final survey", body="Attached.",
                        drive_files=(survey_item(store)["id"], *extra_files))


SURVEY_CHECK = {"exists": {"table": "mail_messages", "new": True,
                           "where": {"to": [PRYCE], "subject": {"contains": "survey"}},
                           "related": [{"table": "mail_attachments", "field": "message",
                                        "where": {"name": {"contains": "Final Survey Report"}}, "count": 1}]}}


def test_exists_with_related_passes_and_the_guard_allows_linked_rows(store, alex, run):
    send_survey(store, alex)
    r = run(task(checks=[SURVEY_CHECK]))
    assert r.status is Status.PASSED and r.score == 1.0, r.lines
    assert "✓ no collateral damage" in r.lines


def test_wrong_recipient_or_missing_attachment_fails(store, alex, run):
    compose.send(store, alex, to=PRYCE, subject="Final survey", body="No file, sorry.")
    r = run(task(checks=[SURVEY_CHECK]))
    assert not r.passed and r.score == 0.0
    assert any(line.startswith("✗") and "found 0" in line for line in r.lines)


def test_collateral_damage_is_caught_and_zeroes_the_score(store, alex, run):
    send_survey(store, alex)
    board = store.scalar("SELECT thread FROM mail_messages WHERE subject LIKE 'Board pack%'")
    mail.apply(store, alex, [board], "trash")                       # not asked for
    r = run(task(checks=[SURVEY_CHECK]))
    assert not r.passed and r.score == 0.0
    assert r.collateral and all(c["table"] == "mail_boxes" for c in r.collateral)
    assert any("collateral damage" in line for line in r.lines)
    # The same change is fine when the task allows it: that conversation's trash flag, not the table.
    allow = {"table": "mail_boxes", "where": {"owner": "alex.chen", "thread": board}, "fields": ["trashed"]}
    assert run(task(checks=[SURVEY_CHECK], allow=[allow])).passed
    other = {**allow, "where": {"owner": "alex.chen", "thread": board + 1}}
    assert not run(task(checks=[SURVEY_CHECK], allow=[other])).passed


def test_ephemeral_changes_and_other_actors_are_not_collateral(store, alex, run):
    send_survey(store, alex)
    t = store.scalar("SELECT thread FROM mail_messages WHERE subject LIKE 'Board pack%'")
    mail.open_thread(store, alex, t)                                # read markers: ephemeral
    compose.create_draft(store, alex, to="x@example.com", subject="scratch")   # a draft left empty is nothing
    eleanor = Caller("eleanor.vance", "eleanor.vance")
    compose.send(store, eleanor, to="alex.chen@meridianshaw.com", subject="FYI", body="co-worker write")
    assert run(task(checks=[SURVEY_CHECK])).passed


def test_answer_with_value_from_and_a_hedge(run):
    t = task(answer={"type": "number", "value_from": "checks:fund_shortfall"})
    assert run(t, answer="ANSWER: $8,760,000").passed
    r = run(t, answer="8,760,000 or 151,840,000")
    assert not r.passed and r.score == 0.0


def test_gate_must_hold_but_earns_nothing(store, alex, run):
    gate = {"gate": True, "absent": {"table": "mail_messages", "new": True, "where": {"to": {"contains": PRYCE}}}}
    draft_check = {"exists": {"table": "mail_drafts", "where": {"to": {"contains": PRYCE}}}}
    r = run(task(checks=[draft_check, gate]))
    assert not r.passed and r.score == 0.0                      # doing nothing: the gate holds, nothing earned
    compose.create_draft(store, alex, to=PRYCE, subject="Fund", body="8,760,000")
    assert run(task(checks=[draft_check, gate])).passed
    send_survey(store, alex)
    r = run(task(checks=[draft_check, gate], allow=[{"table": "mail_messages", "new": True}]))
    assert not r.passed and r.score == 0.0                      # the gate failed


def test_checks_vocabulary(store, alex, run):
    notes = store.select("drive_items", "name='Notes'")[0]
    ts = store.select("drive_items", "name='Timesheet – March 2026.csv'")[0]
    drive.move(store, alex, [ts["id"]], notes["id"])
    lid = mail.create_label(store, alex, "Board")
    checks = [
        {"changed": {"table": "drive_items", "where": {"name": ts["name"]}, "field": "parent", "from": None,
                     "to": notes["id"]}},
        {"count": {"table": "mail_labels", "where": {"owner": "alex.chen"}, "equals": 6}},
        {"count": {"table": "mail_labels", "new": True, "where": {}, "min": 1, "max": 1}},
        {"exists": {"table": "mail_labels", "new": True, "where": {"name": "Board", "owner": "alex.chen"}}},
        {"exists": {"table": "drive_items", "where": {"name": ts["name"],
                                                        "parent": {"ref": {"table": "drive_items", "where": {"name": "Notes"}}}}}},
        {"absent": {"table": "mail_labels", "where": {"name": {"matches": "^board$"}, "owner": "priya.raman"}}},
        {"unchanged": {"table": "mail_messages"}},
        {"tables_changed": ["drive_items", "mail_labels"]},
        {"order": {"table": "mail_labels", "by": "id", "sequence": [{"name": "CLE"}, {"name": "Board"}]}},
        {"python": "checks:gross_tonnage_is_58400", "name": "python check"},
    ]
    r = run(task(checks=checks))
    assert r.passed, r.lines
    assert r.lines[-2].startswith("✓ python check")
    assert store.get("mail_labels", lid)["name"] == "Board"
    bad = [{"order": {"table": "mail_labels", "by": "id", "sequence": [{"name": "Board"}, {"name": "CLE"}]}},
           {"tables_changed": ["drive_items"]}]
    r = run(task(checks=bad))
    assert [c["passed"] for c in r.checks] == [False, False]
    # A count says how many, not what they hold: alone it vouches for nothing, so the new label is damage.
    r = run(task(checks=[checks[0], checks[2]]))
    assert [c["passed"] for c in r.checks] == [True, True] and not r.passed and r.score == 0.0
    assert any("mail_labels" in ln and "collateral" in ln for ln in r.lines), r.lines


def test_rubric_scores_partially_and_judges_stay_pending(store, alex, run):
    send_survey(store, alex)
    rubric = [
        {"name": "sent the survey", "weight": 3, "check": SURVEY_CHECK},
        {"name": "cc'd Eleanor", "weight": 1, "check": {"exists": {"table": "mail_messages", "new": True,
                                                                   "where": {"cc": {"contains": "eleanor.vance@meridianshaw.com"}}}}},
        {"name": "tone is professional", "weight": 2, "judge": "The covering note is polite and professional."},
    ]
    r = run(task(rubric=rubric))
    assert r.score == 0.75 and not r.passed
    pending = [c for c in r.rubric if c["kind"] == "judge"]
    assert pending and pending[0]["pending"] and pending[0]["passed"] is None


def test_infeasible_tasks(run, store, alex):
    t = task(infeasible="no such file", oracle=[{"done": {"status": "infeasible"}}])
    assert run(t, done_status="infeasible").passed
    assert not run(t, done_status="complete").passed
    assert run(t, done_status=None).score == 0
    # Saying "infeasible" to a feasible task fails.
    r = run(task(answer={"type": "number", "value": 1}), answer="1", done_status="infeasible")
    assert not r.passed and r.score == 0


def test_conditions():
    assert match("Final Survey", {"contains": "survey"})
    assert match(["a@x.com", "b@y.com"], {"contains": "b@y.com"})
    assert match("8,760,000", {"approx": 8760000, "tolerance": 1})
    assert match("2026-04-22T14:00:00Z", {"date": "April 22, 2026"})
    assert match(5, {"gt": 4, "lte": 5})
    assert match([], {"empty": True}) and not match(["x"], {"empty": True})
    assert match("x", {"not": "y"}) and match("b", {"one_of": ["a", "b"]})
    with pytest.raises(CheckSpecError):
        match("x", {"resembles": "y"})


def test_by_names_who_wrote_a_record_even_when_a_coworker_changed_an_agent_row(store, alex, run):
    from datetime import datetime

    from apps.calendar import service as cal
    from apps.coworkers import engine
    ev = cal.create_event(store, alex, title="Fund top-up strategy", start=datetime(2026, 4, 9, 15),
                          end=datetime(2026, 4, 9, 16), guests=["eleanor.vance"])
    engine.tick(store)                                   # Eleanor is free: she accepts her (agent-made) row
    guest = {"exists": {"table": "cal_guests", "where": {"person": "eleanor.vance", "response": "accepted",
                                                         "event": ev}}}
    event = [{"table": "cal_events", "where": {"id": str(ev)}}]        # its guests go with it
    ok = run(task(checks=[{**guest, "exists": {**guest["exists"], "by": "eleanor.vance"}}], allow=event,
                  apps=["calendar"]))
    assert ok.passed, ok.lines
    nobody = run(task(checks=[{**guest, "exists": {**guest["exists"], "by": "robert.hale"}}], allow=event,
                      apps=["calendar"]))
    assert not nobody.passed
    mine = run(task(checks=[{"exists": {"table": "cal_events", "by": "agent", "where": {"id": str(ev)}}},
                            {"exists": {"table": "cal_events", "by": "eleanor.vance", "where": {"id": str(ev)}},
                             "gate": True}], allow=event, apps=["calendar"]))
    assert not mine.passed and mine.checks[0]["passed"] and not mine.checks[1]["passed"]
