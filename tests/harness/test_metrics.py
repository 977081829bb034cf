from __future__ import annotations

import math

from harness.runs.metrics import pass_at_k, pass_hat_k, summarize


def test_pass_at_k_estimator():
    assert pass_at_k(10, 0, 5) == 0.0
    assert pass_at_k(10, 10, 5) == 1.0
    assert math.isclose(pass_at_k(10, 1, 1), 0.1)
    assert math.isclose(pass_at_k(4, 2, 2), 1 - 1 / 6)          # 1 - C(2,2)/C(4,2)
    assert math.isclose(pass_hat_k(4, 2, 2), 1 / 6)
    assert math.isnan(pass_at_k(2, 1, 5))


def test_summary_excludes_errors_and_finds_the_trainable_band():
    rows = [
        {"task": "w/a", "sample": 0, "score": 1.0, "passed": True, "steps": 5, "status": "passed"},
        {"task": "w/a", "sample": 1, "score": 0.0, "passed": False, "steps": 9, "status": "failed"},
        {"task": "w/b", "sample": 0, "score": 1.0, "passed": True, "steps": 3, "status": "passed"},
        {"task": "w/b", "sample": 1, "score": 0.0, "passed": False, "steps": 0, "status": "error"},
    ]
    s = summarize(rows, 2)
    assert s["per_task"]["w/a"]["pass@1"] == 0.5 and s["per_task"]["w/a"]["pass@2"] == 1.0
    assert s["per_task"]["w/b"]["samples"] == 1 and s["per_task"]["w/b"]["errors"] == 1
    assert s["trainable"] == ["w/a"]
    assert s["overall"]["errors"] == 1 and s["overall"]["error_rate"] == 0.25
