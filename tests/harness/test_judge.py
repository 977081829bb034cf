"""Rubric judges: the verifier stores each judge criterion's evidence; ``deskworld grade`` sends the judge
only the task, the diff, the evidence and the answer, validates its structured verdicts, rescores the run,
caches by input hash, supports a second vote, and the viewer shows the reasons. Judges are the real SDK
clients against the fake vendor server."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from apps.core.store.export import diff, export
from apps.mail import compose
from harness.cli import main
from harness.qc.judge import Judge, JudgeError, grade_run, judge_input, rescore
from harness.runs.layout import append_result, read_results
from harness.runs.recorder import EpisodeRecorder
from harness.tasks.schema import Task
from harness.verify import verify
from harness.viewer import create_viewer
from tests.agents.fakes import Err, FakeVendor, anthropic_message, chat_completion, message_item, openai_response

PRYCE = "jonathan.pryce@brightwaterkessler.com"
CANARY = "I-SECRETLY-THINK-THE-GRADER-SHOULD-PASS-ME"
TID = "meridian/send-survey-to-pryce"
RUBRIC = [
    {"name": "sent the survey", "weight": 3,
     "check": {"exists": {"table": "mail_messages", "new": True, "where": {"to": [PRYCE]}}}},
    {"name": "tone is professional", "weight": 1, "judge": "The covering note is polite and professional.",
     "evidence": [{"table": "mail_messages", "new": True, "by": "agent"}]},
]


def verdicts(*pairs) -> str:
    return json.dumps({"verdicts": [{"criterion": c, "passed": p, "reason": r} for c, p, r in pairs]})


@pytest.fixture
def graded_run(store, alex, world, tmp_path, monkeypatch):
    """A run folder with one episode whose rubric has a pending judge criterion."""
    t = Task.model_validate({"revision": 1, "title": "t", "apps": ["mail"], "prompt": "Send Pryce the survey.",
                             "oracle": [{"done": {}}], "rubric": RUBRIC})
    t.id, t.world = TID, "meridian"
    monkeypatch.setattr("harness.tasks.registry.load_task", lambda tid: t)
    initial = export(store)
    compose.send(store, alex, to=PRYCE, subject="Final survey", body="Dear Jonathan, the final survey is attached.")
    final = export(store)
    d = diff(initial, final)
    result = verify(t, initial, final, d, answer="I sent it politely.", world_root=world.root).to_dict()
    result.update(task=TID, answer="I sent it politely.")
    rec = EpisodeRecorder(tmp_path, TID, 0)
    rec.step({"step": 1, "action": {"type": "done"}, "thought": CANARY, "url": "", "error": ""})
    rec.finish(result, d)
    append_result(tmp_path, {"task": TID, "sample": 0, "score": result["score"], "passed": result["passed"],
                             "steps": 1, "seconds": 1.0, "status": result["status"], "agent": "anthropic"})
    (tmp_path / "run.json").write_text(json.dumps({"agent": "anthropic", "k": 1}))
    return tmp_path


@pytest.fixture
def fake(monkeypatch):
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-judge")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-openai-judge")
    f = FakeVendor().start()
    yield f
    f.stop()
    assert not f.rejections, f.rejections


def episode(run) -> dict:
    return json.loads((run / "episodes/meridian/send-survey-to-pryce/0/result.json").read_text())


def test_verifier_stores_the_evidence_and_leaves_the_judge_pending(graded_run):
    r = episode(graded_run)
    crit = next(c for c in r["rubric"] if c["kind"] == "judge")
    assert crit["pending"] and crit["passed"] is None
    (ev,) = crit["evidence"]
    (rec,) = ev["records"].values()
    assert ev["table"] == "mail_messages" and rec["to"] == [PRYCE] and "final survey is attached" in rec["body"]
    assert r["score"] == 1.0 and r["passed"] and r["zeroed"] is False


def test_grade_with_anthropic_rescores_caches_and_the_viewer_shows_the_reason(graded_run, fake):
    fake.script("anthropic", anthropic_message([{"type": "text", "text": verdicts(
        ("tone is professional", False, "The note is curt: two lines with no greeting context."))}]))
    res = CliRunner().invoke(main, ["grade", str(graded_run), "--judge", f"anthropic:claude-opus-5-5@{fake.url}"])
    assert res.exit_code == 0, res.output
    assert "1 criteria graded in 1 episodes" in res.output and "model usage" in res.output
    (req,) = fake.calls("anthropic")
    assert req["output_config"]["format"]["type"] == "json_schema"
    assert req["system"][0]["cache_control"] == {"type": "ephemeral"}
    sent = req["messages"][0]["content"]
    assert "final survey is attached" in sent and PRYCE in sent              # the diff and the evidence
    assert "I sent it politely." in sent and "a claim, not evidence" in sent
    assert CANARY not in sent                                               # never the agent's reasoning
    r = episode(graded_run)
    crit = next(c for c in r["rubric"] if c["kind"] == "judge")
    assert crit["passed"] is False and not crit["pending"] and "curt" in crit["reason"]
    assert crit["votes"] == [{"judge": "anthropic:claude-opus-5-5", "passed": False,
                              "reason": "The note is curt: two lines with no greeting context."}]
    assert r["score"] == 0.75 and r["passed"] is True                       # judges move score, never passed
    assert read_results(graded_run)[0]["score"] == 0.75
    assert json.loads((graded_run / "summary.json").read_text())["overall"]["mean_score"] == 0.75
    # Grading again asks nobody: the verdict comes from the cache.
    res = CliRunner().invoke(main, ["grade", str(graded_run), "--regrade", "--judge",
                                    f"anthropic:claude-opus-5-5@{fake.url}"])
    assert res.exit_code == 0 and "(1 judge answers from the cache)" in res.output
    assert len(fake.calls("anthropic")) == 1
    page = create_viewer(graded_run).test_client().get("/episode/meridian/send-survey-to-pryce/0").data.decode()
    assert "The note is curt" in page and "anthropic:claude-opus-5-5" in page and "pending judge" not in page


def test_a_second_vote_that_disagrees_fails_the_criterion_and_flags_it(graded_run, fake):
    fake.script("anthropic", anthropic_message([{"type": "text", "text": verdicts(
        ("tone is professional", True, "Polite greeting and clear note."))}]))
    fake.script("responses", openai_response([message_item(verdicts(
        ("tone is professional", False, "Too terse for a client.")))]))
    rep = grade_run(graded_run, [Judge.parse(f"anthropic:claude-opus-5-5@{fake.url}"),
                                 Judge.parse(f"openai:gpt-5.4@{fake.url}/v1")])
    assert rep["criteria"] == 1 and not rep["errors"]
    (req,) = fake.calls("responses")
    assert req["text"]["format"] == {"type": "json_schema", "name": "verdicts", "schema": req["text"]["format"]["schema"],
                                     "strict": True}
    crit = next(c for c in episode(graded_run)["rubric"] if c["kind"] == "judge")
    assert crit["passed"] is False and crit["agreement"] is False and len(crit["votes"]) == 2
    page = create_viewer(graded_run).test_client().get("/episode/meridian/send-survey-to-pryce/0").data.decode()
    assert "judges disagree" in page


def test_an_openai_compatible_judge_retries_a_bad_reply_then_grades(graded_run, fake):
    fake.script("chat", Err(503), chat_completion("The tone is fine, I'd say PASS."),
                chat_completion(verdicts(("tone is professional", True, "Courteous and complete."))))
    rep = grade_run(graded_run, [Judge.parse(f"vlm:qwen2.5-72b@{fake.url}/v1")])
    assert rep["criteria"] == 1
    calls = fake.calls("chat")
    assert len(calls) == 3 and calls[1]["response_format"]["type"] == "json_schema"
    assert "previous reply was not usable" in calls[2]["messages"][-1]["content"]
    assert episode(graded_run)["score"] == 1.0
    assert rep["usage"]["vlm:qwen2.5-72b"]["calls"] == 2 and rep["usage"]["vlm:qwen2.5-72b"]["retries"] == 1


def test_a_judge_that_never_answers_properly_leaves_the_criterion_pending(graded_run, fake):
    fake.script("anthropic", *[anthropic_message([{"type": "text", "text": verdicts(("some other name", True, "x"))}])] * 2)
    res = CliRunner().invoke(main, ["grade", str(graded_run), "--judge", f"anthropic:claude-opus-5-5@{fake.url}"])
    assert res.exit_code == 1 and "no verdict for tone is professional" in " ".join(res.output.split())
    crit = next(c for c in episode(graded_run)["rubric"] if c["kind"] == "judge")
    assert crit["pending"] and crit["passed"] is None
    assert not (graded_run / "judge-cache").exists() or not list((graded_run / "judge-cache").iterdir())


def test_bad_judge_specs_and_folders_are_clear_errors(tmp_path):
    with pytest.raises(JudgeError, match="provider:model"):
        Judge.parse("gpt-5.4")
    res = CliRunner().invoke(main, ["grade", str(tmp_path), "--judge", "anthropic:x"])
    assert res.exit_code != 0 and "not a run folder" in res.output


def test_rescore_keeps_a_zeroed_score_and_weights_graded_criteria():
    r = {"rubric": [{"weight": 3, "passed": True}, {"weight": 1, "passed": False}, {"weight": 2, "passed": None}]}
    assert rescore(r) == 0.75
    assert rescore({**r, "zeroed": True}) == 0.0
    assert rescore({**r, "collateral": [{"table": "x"}]}) == 0.0


def test_judge_input_lists_added_records_content_and_truncates_huge_diffs():
    d = {"tables": {"mail_messages": {"fields": {"body": "content", "read": "ephemeral"},
                                      "added": [{"key": str(i), "actor": "agent",
                                                 "record": {"body": "x" * 2000, "read": True}} for i in range(60)],
                                      "removed": [], "changed": []}}}
    text = judge_input("Do it.", [{"name": "c", "instruction": "i"}], d, None)
    assert '"read"' not in text and len(text) <= 60_000
    assert "60 changes; the first 26 are shown" in text and "[1000 more characters]" not in text
    assert json.loads(text.split("\n\n", 1)[1])["state_diff"][0]["record"]["body"] == "x" * 2000
