"""The adversary suite finds loose and strict verifiers from a task's own structure."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from harness.qc.adversaries.base import Expect, verdict_ok
from harness.qc.adversaries.suite import run_task
from harness.qc.adversaries.workbench import SolutionError, Workbench
from harness.cli import main
from harness.tasks.schema import Task

ELEANOR_MAIL = {"find": {"table": "mail_messages", "where": {"subject": {"contains": "Before the 22nd"},
                                                             "sender": "eleanor.vance@meridianshaw.com"}}}
REPLY = [{"call": "mail.reply", "args": {"message_id": ELEANOR_MAIL,
                                         "body": "Eleanor, the fund falls short by $8,760,000 (limit less fund). Alex"}},
         {"done": {}}]
THREAD = {"thread": {"ref": {"table": "mail_threads", "where": {"subject": {"contains": "Before the 22nd"}}}},
          "to": {"contains": "eleanor.vance@meridianshaw.com"}}


def task(**kw) -> Task:
    base = {"revision": 1, "title": "t", "apps": ["mail"], "prompt": "Reply to Eleanor with the shortfall.",
            "oracle": [{"done": {}}], "solution": REPLY}
    t = Task.model_validate({**base, **kw})
    t.id, t.world = "meridian/test", "meridian"
    return t


@pytest.fixture(scope="module")
def bench():
    wb = Workbench("meridian")
    yield wb
    wb.close()


def names(outcomes):
    return {o.name for o in outcomes}


def test_a_presence_regex_lets_hedges_through_and_the_guard_catches_spray_and_duplicates(bench):
    loose = task(checks=[{"exists": {"table": "mail_messages", "new": True,
                                     "where": {**THREAD, "body": {"matches": "8,760,000"}}}}])
    rep = run_task(loose, bench)
    fp = names(rep.false_passes)
    assert any(n.startswith("text:hedge:") for n in fp), fp
    tried = {o.name: o for o in rep.outcomes}
    spray = next(o for n, o in tried.items() if n.startswith("text:shotgun:"))
    assert spray.ok and "collateral" in spray.why                  # the wrong replies are vouched by nothing
    assert tried["tools:duplicate:0"].ok and "duplicates" in tried["tools:duplicate:0"].why


def test_an_exact_regex_fails_the_figure_written_another_way(bench):
    strict = task(checks=[{"exists": {"table": "mail_messages", "new": True, "count": 1,
                                      "where": {**THREAD, "body": {"matches": r"\$8,760,000\b"}}}}])
    rep = run_task(strict, bench)
    assert any(o.name.startswith("text:format-") for o in rep.false_fails), names(rep.outcomes)


def test_a_check_exactly_as_strict_as_the_prompt_survives(bench):
    good = task(checks=[{"exists": {"table": "mail_messages", "new": True, "count": 1,
                                    "where": {**THREAD, "body": {"says": {"number": {"from": "checks:fund_shortfall"},
                                                                          "about": r"short\w*"}}}}}])
    rep = run_task(good, bench)
    assert rep.tried >= 12 and rep.ok, [(o.name, o.why) for o in rep.false_passes + rep.false_fails + rep.errors]
    kinds = {o.kind for o in rep.outcomes}
    assert {"tools", "hedge", "shotgun", "format", "explanation", "collateral", "duplicate", "placeholder",
            "infeasible", "wrong"} <= kinds, kinds


def test_answer_adversaries_cover_hedges_memorised_answers_and_formats(bench):
    t = task(prompt="What is the shortfall?", solution=[{"done": {"answer": "About $8.76 million. ANSWER: $8.76M"}}],
             answer={"type": "number", "value_from": "checks:fund_shortfall"})
    from harness.qc.adversaries.suite import Catalogue
    from harness.tasks.registry import all_tasks
    rep = run_task(t, bench, Catalogue(all_tasks(world="meridian"), {"meridian": bench}))
    assert rep.ok, [(o.name, o.why) for o in rep.false_passes + rep.false_fails]
    got = names(rep.outcomes)
    assert {"answer:hedge-or", "answer:shotgun", "answer:range", "answer:explained-not", "answer:no-marker"} <= got
    assert any(n.startswith("answer:memorised-") for n in got)


def test_a_memorised_number_within_the_answers_tolerance_is_not_a_wrong_answer():
    """Another variant's 10.8 is this variant's 10.7717 ± 0.05 to one decimal: not a memorised wrong answer."""
    from harness.qc.adversaries.answers import competitors
    assert competitors("number", 10.7717, [10.8, 10.9, 10.7717], tolerance=0.05)[:1] == [10.9]
    assert 10.8 in competitors("number", 10.7717, [10.8])


def test_a_task_adversary_for_a_dont_clause(bench):
    t = task(prompt="Reply to Eleanor with the shortfall. Don't copy anyone else.",
             checks=[{"exists": {"table": "mail_messages", "new": True, "count": 1,
                                 "where": {**THREAD, "cc": {"empty": True},
                                           "body": {"says": {"number": 8760000}}}}}],
             adversaries=[{"name": "copies-priya", "clause": "Don't copy anyone else", "expect": "fail",
                           "base": "start",
                           "steps": [{"call": "mail.send", "args": {"to": ["eleanor.vance@meridianshaw.com"],
                                                                    "cc": ["priya.raman@meridianshaw.com"],
                                                                    "subject": "Shortfall", "body": "$8,760,000"}}]}])
    rep = run_task(t, bench)
    o = next(o for o in rep.outcomes if o.name == "task:copies-priya")
    assert o.ok and o.passed is False
    with pytest.raises(ValueError, match="is not in the prompt"):
        task(answer={"type": "number", "value": 1},
             adversaries=[{"name": "x", "clause": "never say never", "expect": "fail"}])


def test_a_solution_step_that_fails_names_the_task_and_the_call(bench):
    bad = task(solution=[{"call": "mail.reply", "args": {"message_id": 999999, "body": "x y z"}}, {"done": {}}],
               answer={"type": "number", "value": 1})
    with pytest.raises(SolutionError, match="meridian/test: mail.reply"):
        bench.attempt(bad, bad.solution)
    rep = run_task(bad, bench)
    assert rep.problems and not rep.ok


def test_verdicts():
    assert verdict_ok(Expect.FAIL, False, 0) and not verdict_ok(Expect.FAIL, False, 0.5)
    assert verdict_ok(Expect.BELOW, False, 0.5) and not verdict_ok(Expect.BELOW, True, 1)
    assert verdict_ok(Expect.PASS, True, 1) and not verdict_ok(Expect.PASS, True, 0.9)


def test_check_tools_only_prints_the_table_and_json():
    res = CliRunner().invoke(main, ["check", "meridian/gross-tonnage", "--tools-only"])
    assert res.exit_code == 0, res.output
    assert "false pass" in res.output and "adversaries by kind" in res.output
    res = CliRunner().invoke(main, ["check", "meridian/gross-tonnage", "--tools-only", "--json"])
    data = json.loads(res.stdout)
    assert data["adversaries"]["false_passes"] == 0 and data["adversaries"]["tried"] >= 15


def test_a_check_with_a_log_goes_on_where_it_stopped(tmp_path):
    """``check --log FILE``: each report as a JSON line after a line naming the check; run again, a task
    checked there without a problem is skipped, one with a problem (or not reached) is checked; a file of
    another check, or not a log at all, is refused naming why, and left as it was."""
    log = tmp_path / "check.jsonl"
    args = ["check", "meridian/gross-tonnage", "--tools-only", "--log", str(log)]
    res = CliRunner().invoke(main, args)
    assert res.exit_code == 0, res.output
    head, row = [json.loads(x) for x in log.read_text().splitlines()]
    assert head["check"]["tools_only"] is True and head["check"]["pattern"] == "meridian/gross-tonnage"
    assert row["task"] == "meridian/gross-tonnage" and row["ok"] and row["adversaries"]["tried"] >= 15
    res = CliRunner().invoke(main, args)                          # done: nothing checked again
    assert res.exit_code == 0 and "all 1 checked before without a problem" in res.output
    assert len(log.read_text().splitlines()) == 2
    log.write_text(log.read_text().replace('"ok": true', '"ok": false', 1))     # a task with a problem
    res = CliRunner().invoke(main, args)
    assert res.exit_code == 0, res.output
    lines = log.read_text().splitlines()
    assert len(lines) == 3 and json.loads(lines[-1])["ok"]          # checked again, its new report appended
    before = log.read_text()
    res = CliRunner().invoke(main, args + ["--adversaries"])
    assert res.exit_code != 0 and "adversaries was False, now True" in res.output
    assert log.read_text() == before
    junk = tmp_path / "notes.txt"
    junk.write_text("my notes\n")
    res = CliRunner().invoke(main, ["check", "meridian/gross-tonnage", "--tools-only", "--log", str(junk)])
    assert res.exit_code != 0 and "is not a check log" in res.output and junk.read_text() == "my notes\n"
