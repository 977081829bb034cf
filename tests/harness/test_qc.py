"""Verifier QC: agreement metrics checked against hand-computed values."""
from __future__ import annotations

import json

import pytest

from harness.qc import agreement as QC
from harness.runs.layout import append_result
from harness.runs.recorder import EpisodeRecorder


def test_rank_averages_ties():
    assert QC.rank([10, 20, 20, 30]) == [1, 2.5, 2.5, 4]
    assert QC.rank([3, 1, 2]) == [3, 1, 2]


def test_spearman_hand_computed_with_ties():
    # x ranks: 1, 2.5, 2.5, 4 ; y ranks: 1, 2, 3, 4  (means 2.5)
    # sxy = (-1.5)(-1.5) + 0(-0.5) + 0(0.5) + 1.5*1.5 = 4.5 ; sxx = 4.5 ; syy = 5
    rho = QC.spearman([0.1, 0.5, 0.5, 0.9], [0.0, 0.2, 0.4, 1.0])
    assert rho == pytest.approx(4.5 / (4.5 * 5) ** 0.5)          # 0.9487
    assert QC.spearman([1, 2, 3], [3, 2, 1]) == pytest.approx(-1.0)
    assert QC.spearman([1, 1, 1], [1, 2, 3]) is None             # constant side: undefined
    assert QC.spearman([1], [2]) is None


def test_make_label_validates_and_scores():
    rubric = [{"name": "Tone", "weight": 1.0}, {"name": "Facts", "weight": 3.0}]
    lab = QC.make_label({"verdict": "pass", "grader": "ana", "crit:Tone": "0", "crit:Facts": "1", "note": " ok "},
                        rubric)
    assert lab["passed"] is True and lab["score"] == 0.75 and lab["note"] == "ok" and lab["grader"] == "ana"
    assert lab["criteria"] == {"Tone": 0.0, "Facts": 1.0} and lab["at"]
    assert QC.make_label({"verdict": "fail", "grader": "bo"})["score"] == 0.0
    for bad in ({"verdict": "maybe", "grader": "a"}, {"verdict": "pass", "grader": ""},
                {"verdict": "pass", "grader": "a", "crit:Tone": "1.5"},
                {"verdict": "pass", "grader": "a", "crit:Tone": "x"},
                {"verdict": "pass", "grader": "a", "crit:Nope": "1"}):
        with pytest.raises(QC.LabelError):
            QC.make_label(bad, rubric)


def _episode(run, task, sample, passed, score, labels, rubric=None, status=None):
    rec = EpisodeRecorder(run, task, sample)
    res = {"status": status or ("passed" if passed else "failed"), "passed": passed, "score": score,
           "lines": ["✓ ok" if passed else "✗ wrong"], "rubric": rubric or []}
    ep = rec.finish(res, {"tables": {}})
    append_result(run, {"task": task, "sample": sample, "score": score, "passed": passed, "steps": 0,
                        "seconds": 0.1, "status": res["status"], "agent": "t"})
    for lab in labels:
        QC.add_label(ep, lab)
    return ep


def L(grader, passed, score=None, criteria=None, note=""):
    return {"grader": grader, "at": "2026-01-01T00:00:00+00:00", "passed": passed,
            "score": (1.0 if passed else 0.0) if score is None else score, "criteria": criteria or {}, "note": note}


def test_compute_agreement_hand_computed(tmp_path):
    crit = [{"name": "Tone", "weight": 1, "kind": "check", "passed": True},
            {"name": "Style", "weight": 1, "kind": "judge", "passed": None, "pending": True}]
    # task a: 3 samples (k=3)
    _episode(tmp_path, "w/a", 0, True, 1.0, [L("ana", True, 0.9)])                       # agree
    _episode(tmp_path, "w/a", 1, True, 0.8, [L("ana", False, 0.2, note="wrong thread")])  # false pass, gap .6
    _episode(tmp_path, "w/a", 2, False, 0.1, [L("ana", False, 0.0)])                      # agree
    # task b: false fail; two graders disagree -> ana's latest (pass) + bo (pass) -> pass
    _episode(tmp_path, "w/b", 0, False, 0.5, [L("ana", False), L("ana", True, 1.0, {"Tone": 1.0, "Style": 0.5}),
                                              L("bo", True, 0.8, {"Tone": 0.0})], rubric=crit)
    # tie between graders counts as failed; verifier failed -> agree
    _episode(tmp_path, "w/c", 0, False, 0.0, [L("ana", True), L("bo", False)])
    # an environment error is left out; an unlabelled episode is ignored
    _episode(tmp_path, "w/d", 0, False, 0.0, [L("ana", True)], status="error")
    _episode(tmp_path, "w/d", 1, True, 1.0, [])

    r = QC.compute(tmp_path)
    o = r["overall"]
    assert r["labelled"] == 5 and o["n"] == 5
    assert (o["agree"], o["false_pass"], o["false_fail"]) == (3, 1, 1)
    assert o["accuracy"] == pytest.approx(0.6) and o["false_pass_rate"] == pytest.approx(0.2)
    assert r["skipped"] == [{"task": "w/d", "sample": 0, "reason": "environment error"}]

    a = r["per_task"]["w/a"]
    assert (a["n"], a["agree"], a["false_pass"], a["false_fail"]) == (3, 2, 1, 0)
    # verifier 1.0, 0.8, 0.1 -> ranks 3,2,1 ; human 0.9, 0.2, 0.0 -> ranks 3,2,1
    assert a["spearman"] == pytest.approx(1.0)
    assert r["per_task"]["w/b"]["spearman"] is None             # one sample: no rank correlation

    crits = {c["criterion"]: c for c in r["per_criterion"]}
    # Tone: verifier passed; human mean of latest per grader = (1.0 + 0.0)/2 = 0.5 -> pass -> agree
    assert crits["Tone"]["n"] == 1 and crits["Tone"]["accuracy"] == 1.0 and crits["Tone"]["human_mean"] == 0.5
    assert crits["Style"]["n"] == 0 and crits["Style"]["graded"] == 1 and crits["Style"]["kind"] == "judge"

    kinds = [(d["kind"], d["task"], d["sample"]) for d in r["disagreements"]]
    assert kinds[0] == ("false pass", "w/a", 1) and kinds[1] == ("false fail", "w/b", 0)
    assert r["disagreements"][0]["note"] == "wrong thread" and r["disagreements"][0]["gap"] == pytest.approx(0.6)
    # w/c: verdicts agree (fail) but the human mean score 0.5 is 0.5 from the verifier's 0.0;
    # w/a#0 (1.0 vs 0.9) is under the 0.25 gap.
    assert kinds[2:] == [("score gap", "w/c", 0)]


def test_labels_file_is_separate_and_tolerates_corruption(tmp_path):
    ep = _episode(tmp_path, "w/a", 0, True, 1.0, [L("ana", True)])
    data = json.loads((ep / "labels.json").read_text())
    assert data["version"] == 1 and data["labels"][0]["grader"] == "ana"
    assert "ana" not in (ep / "result.json").read_text()
    (ep / "labels.json").write_text("{not json")
    assert QC.read_labels(ep) == [] and QC.compute(tmp_path)["labelled"] == 0


def test_qc_cli_table_and_json(tmp_path):
    from click.testing import CliRunner

    from harness.cli import main
    _episode(tmp_path, "w/a", 0, True, 1.0, [L("ana", False, note="missed it")])
    res = CliRunner().invoke(main, ["qc", str(tmp_path)])
    assert res.exit_code == 0, res.output
    assert "Verifier QC" in res.output and "false pass" in res.output and "w/a" in res.output
    res = CliRunner().invoke(main, ["qc", str(tmp_path), "--json"])
    data = json.loads(res.output)
    assert data["overall"]["false_pass"] == 1 and data["overall"]["accuracy"] == 0.0
