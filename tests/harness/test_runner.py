"""The runner and task QC: run layout, resume, replay, two workers at once, and
`deskworld check` over every task (oracle 1, do-nothing 0, junk answers 0)."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from harness.qc.check import check
from harness.cli import main
from harness.runs.layout import read_results
from harness.runs.runner import run
from harness.tasks.registry import all_tasks, load_task

pytestmark = pytest.mark.browser


def test_run_layout_resume_and_replay(tmp_path):
    out = tmp_path / "run"
    task = load_task("meridian/gross-tonnage")
    rows = run("oracle", [task], k=2, out=out, progress=False)
    assert [r["status"] for r in rows] == ["passed", "passed"]
    run_json = json.loads((out / "run.json").read_text())
    assert run_json["agent"] == "oracle" and run_json["tasks"] == {task.id: task.revision} and run_json["end"]
    assert set(run_json["worlds"]) == {"meridian"}
    ep = out / "episodes" / "meridian" / "gross-tonnage" / "0"
    steps = [json.loads(line) for line in (ep / "steps.jsonl").read_text().splitlines()]
    assert len(steps) == rows[0]["steps"] and steps[-1]["action"]["type"] == "done"
    assert (ep / "screens" / "0000.png").exists() and (ep / steps[-1]["screenshot"]).exists()
    result = json.loads((ep / "result.json").read_text())
    assert result["passed"] and result["task"] == task.id and result["answer"] == "ANSWER: 58,400"
    assert set(json.loads((ep / "diff.json").read_text())["tables"]) == {"drive_views"}     # only "recent" marks
    assert not list((ep.parent).glob(".*partial*"))
    # --resume runs nothing that is already recorded.
    assert run("oracle", [task], k=2, out=out, resume=True, progress=False) == []
    assert len(read_results(out)) == 2
    # Replaying the recorded actions reproduces the result.
    again = run(f"replay:{out}", [task], k=1, out=tmp_path / "replay", progress=False, trace=True)
    assert again[0]["status"] == "passed" and again[0]["steps"] == rows[0]["steps"]
    trace = tmp_path / "replay" / "episodes" / "meridian" / "gross-tonnage" / "0" / "trace.zip"
    assert trace.stat().st_size > 10_000              # a Playwright trace, for `playwright show-trace`


def test_two_workers_run_different_tasks_in_isolation(tmp_path):
    out = tmp_path / "iso"
    tasks = [load_task("meridian/send-survey-to-pryce"), load_task("meridian/billing-label")]
    rows = run("oracle", tasks, k=1, workers=2, out=out, progress=False)
    assert sorted(r["status"] for r in rows) == ["passed", "passed"], rows
    survey = json.loads((out / "episodes/meridian/send-survey-to-pryce/0/diff.json").read_text())["tables"]
    billing = json.loads((out / "episodes/meridian/billing-label/0/diff.json").read_text())["tables"]
    assert "mail_labels" not in survey and "mail_attachments" in survey
    assert "mail_messages" not in billing and "mail_labels" in billing


def test_cli_run_prints_the_table(tmp_path):
    out = tmp_path / "cli"
    res = CliRunner().invoke(main, ["run", "--agent", "noop", "--tasks", "meridian/hearing-date", "--out", str(out)])
    assert res.exit_code == 0, res.output
    assert "pass@1" in res.output and "deskworld view" in res.output
    summary = json.loads((out / "summary.json").read_text())
    assert summary["overall"]["pass@1"] == 0.0 and summary["overall"]["episodes"] == 1
    bad = CliRunner().invoke(main, ["run", "--agent", "wizard", "--tasks", "meridian"])
    assert bad.exit_code != 0 and "unknown agent" in bad.output


def hash_half(task_id: str, day: int) -> bool:
    """A stable half of the tasks, a different half on alternate days."""
    import zlib
    return (zlib.crc32(task_id.encode()) + day) % 2 == 0


def test_every_task_passes_qc_and_survives_its_adversaries():
    """The GUI oracle scores 1, doing nothing 0, and every adversary of every task gets its verdict:
    no false pass, no false fail, none that can't be built, every negative clause tested."""
    from harness.qc.adversaries.suite import totals
    # The long-horizon tier (composites of parts:, and the long days with their own checkpoints) is
    # minutes a task in a browser: a composite's parts are all checked here, one task of the tier a run
    # (by the day of the year) with them, and `make check-long` runs every one. The families' adversaries
    # run on instances in test_instances either way.
    # Every task takes a browser and its adversaries a store each (~15 s a task, 255 tasks): CI checks a
    # seeded half of them (by the day, so two days cover every one; a family's published instance is
    # also checked on other variants in test_instances) and `make check-tasks` runs every task.
    tier = sorted(t.id for t in all_tasks() if t.parts_of or "long-horizon" in t.tags)
    day = __import__("datetime").date.today().timetuple().tm_yday
    today = tier[day % len(tier)] if tier else None
    tasks = [t for t in all_tasks() if (t.id not in tier and hash_half(t.id, day)) or t.id == today]
    reports, overall = check(tasks, workers=2, adversaries=True)
    assert [r.task for r in reports] == [t.id for t in tasks]
    def why(r):
        a = r.adversaries
        return r.problems + ([f"{o.name}: {o.why or o.error}" for o in a.false_passes + a.false_fails + a.errors]
                             + a.problems if a is not None else ["no adversaries ran"])
    problems = {r.task: why(r) for r in reports if not r.ok or r.adversaries is None}
    assert not problems and not overall, (problems, overall)
    assert all(r.oracle_score == 1 and r.noop_score == 0 for r in reports)
    assert sum(r.oracle_steps >= 15 for r in reports) >= 3
    t = totals([r.adversaries for r in reports if r.adversaries is not None])
    assert t["false_passes"] == t["false_fails"] == t["errors"] == 0
    assert t["tried"] >= 20 * len(tasks)            # every task faces many adversaries, of every kind
    assert {"hedge", "shotgun", "duplicate", "collateral", "extra-part", "literal", "memorised", "infeasible",
            "placeholder", "halfway", "tools", "format", "explanation", "recreate", "custom"} <= set(t["by_kind"])


def test_episodes_keep_their_end_state_and_regrade_reports_what_changed(tmp_path, monkeypatch):
    import harness.runs.regrade as rg
    from harness.runs.layout import load_end_states
    out = tmp_path / "rg"
    tasks = [load_task("meridian/reply-shortfall-to-eleanor"), load_task("meridian/gross-tonnage")]
    rows = run("oracle", tasks, k=1, workers=1, out=out, progress=False)
    assert all(r["passed"] for r in rows)
    ep = out / "episodes/meridian/reply-shortfall-to-eleanor/0"
    initial, final = load_end_states(out, ep)
    assert len(list((out / "states").iterdir())) == 1                       # the start, once per world template
    assert (ep / "final.json.gz").stat().st_size < 60_000                   # the tables that changed, compressed
    assert len(final["tables"]["mail_messages"]["records"]) > len(initial["tables"]["mail_messages"]["records"])
    rep = rg.regrade(out)
    assert rep.episodes == 2 and rep.same == 2 and not rep.changes
    # A stricter verifier (a new revision): the oracle's reply must also cite the complaint.
    stricter = load_task("meridian/reply-shortfall-to-eleanor")
    stricter.revision += 1
    stricter.checks = [{"exists": {"table": "mail_messages", "new": True,
                                   "where": {"body": {"matches": "paragraph 99 of the complaint"}}}}]
    real = rg.load_task
    monkeypatch.setattr(rg, "load_task", lambda tid: stricter if tid == stricter.id else real(tid))
    rep = rg.regrade(out, write=True)
    assert [(c.task, c.flipped, c.revision) for c in rep.changes] == \
        [(stricter.id, "pass → fail", (stricter.revision - 1, stricter.revision))]
    res = json.loads((ep / "result.json").read_text())
    assert res["passed"] is False and res["regraded_from"]["passed"] is True
    line = next(r for r in read_results(out) if r["task"] == stricter.id)
    assert line["passed"] is False and line["revision"] == stricter.revision
    res = CliRunner().invoke(main, ["regrade", str(out)])
    assert res.exit_code == 0 and "nothing changed" in res.output           # already written
