"""``deskworld view DIR`` on a folder of runs: the runs table, the leaderboard (per agent/model, a column
per world and per app), compare two runs, unreadable runs listed (never a 500), and each run's own pages
under /run/<name>/…."""
from __future__ import annotations

import json
import re

import pytest

from harness.runs.layout import append_result
from harness.runs.recorder import EpisodeRecorder
from harness.viewer import create_viewer

PNG = (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x02\x00\x00\x00\x90wS\xde"
       b"\x00\x00\x00\x0cIDATx\x9cc\xf8\x0f\x00\x00\x01\x01\x00\x05\x18\xd8N\x00\x00\x00\x00IEND\xaeB`\x82")

T1 = "meridian/gross-tonnage"          # apps: drive
T2 = "lumen/close-billing-resolved"    # apps: tickets
T3 = "lumen/follow-up-task-dana"       # apps: crm


def episode(run, task, sample, passed, score):
    rec = EpisodeRecorder(run, task, sample)
    rec.screen(0, PNG)
    rec.step({"step": 1, "action": {"type": "click", "x": 3, "y": 4}, "url": "http://desk.local/", "error": "",
              "screenshot": rec.screen(1, PNG), "ms": {"env": 10}})
    rec.finish({"status": "passed" if passed else "failed", "passed": passed, "score": score,
                "lines": ["✓ ok" if passed else "✗ wrong"], "rubric": []}, {"tables": {}})
    append_result(run, {"task": task, "sample": sample, "score": score, "passed": passed, "steps": 1,
                        "seconds": 1.0, "status": "passed" if passed else "failed"})


@pytest.fixture
def runs(tmp_path):
    r1 = tmp_path / "r1"
    r1.mkdir()
    (r1 / "run.json").write_text(json.dumps({"agent": "oracle", "model": "m1", "k": 2,
                                             "start": "2026-01-02T03:04:05+00:00"}))
    episode(r1, T1, 0, True, 1.0)
    episode(r1, T1, 1, False, 0.5)
    episode(r1, T2, 0, True, 1.0)
    episode(r1, T2, 1, True, 1.0)
    r2 = tmp_path / "r2"
    r2.mkdir()
    (r2 / "run.json").write_text(json.dumps({"agent": "claude", "model": "m2", "k": 1,
                                             "start": "2026-02-03T00:00:00+00:00"}))
    episode(r2, T1, 0, False, 0.25)
    episode(r2, T2, 0, True, 1.0)
    episode(r2, T3, 0, False, 0.0)
    bad = tmp_path / "broken"
    bad.mkdir()
    (bad / "run.json").write_text("{not json")
    bad2 = tmp_path / "garbled"
    bad2.mkdir()
    (bad2 / "run.json").write_text(json.dumps({"agent": "x", "k": 1}))
    (bad2 / "results.jsonl").write_text("garbage\n[1, 2]\n")
    (tmp_path / "not-a-run").mkdir()
    return tmp_path


def row_of(html, attr, value):
    m = re.search(r'<tr[^>]*' + attr + r'="' + re.escape(value) + r'".*?</tr>', html, re.S)
    assert m, f"no row {attr}={value}"
    return m.group(0)


def test_runs_page_numbers(runs):
    c = create_viewer(runs).test_client()
    html = c.get("/").data.decode()
    r1 = row_of(html, "data-name", "r1")
    assert "oracle" in r1 and "m1" in r1 and "2026-01-02" in r1
    assert 'data-tasks="2"' in r1 and 'data-episodes="4"' in r1
    assert 'data-pass1="0.75"' in r1 and 'data-passk="1.0"' in r1 and 'data-score="0.875"' in r1
    assert ">75%<" in r1 and "100%" in r1 and "k=2" in r1 and "0.88" in r1
    r2 = row_of(html, "data-name", "r2")
    assert 'data-tasks="3"' in r2 and 'data-episodes="3"' in r2 and ">33%<" in r2 and ">0.42<" in r2
    assert 'data-passk="-1"' in r2                            # k=1: no pass@k
    assert 'href="/run/r1/"' in html
    assert "not-a-run" not in html


def test_unreadable_runs_are_listed_not_500(runs):
    c = create_viewer(runs).test_client()
    html = c.get("/").data.decode()
    assert "unreadable: run.json is corrupt" in row_of(html, "data-name", "broken")
    assert "unreadable: results.jsonl is corrupt" in row_of(html, "data-name", "garbled")
    assert c.get("/leaderboard").status_code == 200
    assert c.get("/compare?a=r1&b=broken").status_code == 409
    assert c.get("/run/broken/").status_code == 200         # its own page degrades too
    assert c.get("/run/garbled/").status_code == 200
    assert c.get("/run/nope/").status_code == 404
    assert c.get("/run/not-a-run/").status_code == 404
    assert c.get("/compare?a=r1&b=nope").status_code == 404


def cells(html, agent):
    row = row_of(html, "data-agent", agent)
    return {m.group(1): (float(m.group(2)), float(m.group(3)))
            for m in re.finditer(r'data-cell="([^"]+)" data-pass1="([^"]+)" data-score="([^"]+)"', row)}


def test_leaderboard_cells(runs):
    html = create_viewer(runs).test_client().get("/leaderboard").data.decode()
    assert "world: meridian" in html and "world: lumen" in html
    for a in ("app: drive", "app: tickets", "app: crm"):
        assert a in html
    o = cells(html, "oracle")
    # r1: T1 passes 1 of 2 (scores 1.0, 0.5); T2 passes 2 of 2 (1.0, 1.0)
    assert o["all"] == (0.75, 0.875)
    assert o["world:meridian"] == (0.5, 0.75) and o["app:drive"] == (0.5, 0.75)
    assert o["world:lumen"] == (1.0, 1.0) and o["app:tickets"] == (1.0, 1.0)
    assert "app:crm" not in o
    c = cells(html, "claude")
    # r2: T1 fail 0.25; T2 pass 1.0; T3 fail 0.0
    assert c["world:meridian"] == (0.0, 0.25)
    assert c["world:lumen"] == (0.5, 0.5)
    assert c["app:crm"] == (0.0, 0.0) and c["app:tickets"] == (1.0, 1.0)
    assert c["all"] == (0.3333, 0.4167)
    assert "x" not in re.findall(r'data-agent="([^"]+)"', html)   # unreadable runs are left out


def test_compare_deltas(runs):
    c = create_viewer(runs).test_client()
    assert c.get("/compare").status_code == 200
    html = c.get("/compare?a=r1&b=r2").data.decode()
    order = re.findall(r'class="cmp-row [^"]*" data-task="([^"]+)"', html)
    assert order[0] == T1                                     # largest change first
    assert set(order) == {T1, T2, T3}
    t1 = row_of(html, "data-task", T1)
    assert 'data-delta="-0.5"' in t1 and "-0.50" in t1 and "worse" in t1 and "1/2" in t1 and "fail" in t1
    t2 = row_of(html, "data-task", T2)
    assert 'data-delta="0.0"' in t2 and "same" in t2
    t3 = row_of(html, "data-task", T3)
    assert "only-b" in t3
    totals = re.search(r'id="totals".*?</div>\s*</div>', html, re.S).group(0)
    assert "0.88 → 0.62" in totals or "0.88 → 0.63" in totals
    assert '<span class="total-delta">-0.25</span>' in totals
    assert "75% → 50%" in totals


def test_run_pages_live_under_run_prefix(runs):
    c = create_viewer(runs).test_client()
    page = c.get("/run/r1/").data.decode()
    assert T1 in page and 'href="/run/r1/episode/meridian/gross-tonnage/1"' in page
    assert 'href="/run/r1/qc"' in page and 'href="/leaderboard"' in page
    ep = c.get("/run/r1/episode/meridian/gross-tonnage/1")
    assert ep.status_code == 200
    html = ep.data.decode()
    assert "✗ wrong" in html and "/run/r1/files/meridian/gross-tonnage/1/screens/0001.png" in html
    assert 'hx-post="/run/r1/episode/meridian/gross-tonnage/1/grade"' in html
    assert c.get("/run/r1/files/meridian/gross-tonnage/1/screens/0001.png").data == PNG
    assert c.get("/run/r1/files/../../r2/run.json").status_code == 404
    assert c.get("/run/r2/episode/meridian/gross-tonnage/1").status_code == 404
    assert c.get("/episode/meridian/gross-tonnage/0").status_code == 404   # no single-run routes in this mode
    token = re.search(r'name="csrf_token" value="([^"]+)"', html).group(1)
    r = c.post("/run/r1/episode/meridian/gross-tonnage/1/grade",
               data={"grader": "ann", "verdict": "fail", "csrf_token": token})
    assert r.status_code == 200 and "Saved grade by ann" in r.data.decode()
    labels = json.loads((runs / "r1" / "episodes" / "meridian" / "gross-tonnage" / "1" / "labels.json").read_text())
    assert [(l["grader"], l["passed"]) for l in labels["labels"]] == [("ann", False)]
    assert not (runs / "r2" / "episodes" / "meridian" / "gross-tonnage" / "0" / "labels.json").exists()
    assert c.get("/run/r1/qc").status_code == 200
