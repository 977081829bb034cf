"""The run viewer reads a run folder (even one still being written): the episodes table, the episode page
with its step scrubber and overlays, grading into labels.json, and the verifier QC page."""
from __future__ import annotations

import json
import re

import pytest

from harness.runs.layout import append_result
from harness.runs.recorder import EpisodeRecorder
from harness.viewer import create_viewer

PNG = (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x02\x00\x00\x00\x90wS\xde"
       b"\x00\x00\x00\x0cIDATx\x9cc\xf8\x0f\x00\x00\x01\x01\x00\x05\x18\xd8N\x00\x00\x00\x00IEND\xaeB`\x82")

TASK = "meridian/gross-tonnage"
ACTIONS = [
    {"type": "click", "x": 100, "y": 200},
    {"type": "drag", "path": [{"x": 10, "y": 10}, {"x": 300, "y": 40}]},
    {"type": "scroll", "x": 640, "y": 400, "dx": 0, "dy": 300},
    {"type": "type", "text": "58,400 <b>GT</b>"},
    {"type": "key", "keys": "ctrl+a"},
    {"type": "double_click", "x": 5, "y": 6},
    {"type": "done", "status": "complete", "answer": "58,400"},
]


def csrf(client, page: str = "/") -> str:
    """The viewer's CSRF token, as a form carries it (every POST needs it)."""
    html = client.get(page).data.decode()
    return re.search(r'name="csrf_token" value="([^"]+)"', html).group(1) if 'name="csrf_token"' in html \
        else re.search(r'"X-CSRF-Token": "([^"]+)"', html).group(1)


def record(run, task=TASK, sample=0, *, passed=True, score=1.0, rubric=None, steps=ACTIONS, extra=None, variant=None):
    rec = EpisodeRecorder(run, task, sample)
    rec.screen(0, PNG)
    for i, a in enumerate(steps, 1):
        rec.step({"step": i, "action": a, "url": f"http://desk.local/drive/p{i}", "error": "bad key" if i == 5 else "",
                  "screenshot": rec.screen(i, PNG), "ms": {"agent": 1.0, "env": 100}, **(extra or {})})
    ep = rec.finish({"status": "passed" if passed else "failed", "passed": passed, "score": score,
                     "lines": ["✓ answer: expected 58,400" if passed else "✗ answer: expected 58,400; found 12"],
                     "rubric": rubric or [], **({"variant": variant} if variant else {})},
                    {"tables": {"drive_files": {
                        "added": [{"actor": "agent", "key": "99", "record": {"name": "Notes.txt"}}],
                        "removed": [{"actor": "agent", "key": "7", "record": {"name": "Old.txt"}}],
                        "changed": [{"key": "58", "fields": {"starred": {"actor": "agent", "before": False,
                                                                        "after": True, "class": "content"}}}]}}})
    append_result(run, {"task": task, "sample": sample, "score": score, "passed": passed, "steps": len(steps),
                        "seconds": 1.2, "status": "passed" if passed else "failed", "agent": "oracle",
                        **({"variant": variant["name"]} if variant else {})})
    return ep


def test_viewer_lists_episodes_and_shows_steps(tmp_path):
    (tmp_path / "run.json").write_text(json.dumps({"agent": "oracle", "k": 1}))
    rec = EpisodeRecorder(tmp_path, TASK, 0)
    rec.screen(0, PNG)
    rec.step({"step": 1, "action": {"type": "click", "x": 1, "y": 2}, "url": "http://desk.local/drive/",
              "error": "", "screenshot": rec.screen(1, PNG), "ms": {"env": 100}})
    # Not finished yet: the viewer must not show half an episode.
    app = create_viewer(tmp_path).test_client()
    assert b"No finished episodes yet" in app.get("/").data
    assert app.get("/episode/meridian/gross-tonnage/0").status_code == 404
    rec.finish({"status": "passed", "passed": True, "score": 1.0, "lines": ["✓ answer: expected 58,400"]},
               {"tables": {}})
    append_result(tmp_path, {"task": TASK, "sample": 0, "score": 1.0, "passed": True,
                             "steps": 1, "seconds": 1.2, "status": "passed", "agent": "oracle"})
    page = app.get("/").data.decode()
    assert TASK in page and "pass@1" in page
    assert 'data-apps="drive"' in page                        # apps come from the task file
    ep = app.get("/episode/meridian/gross-tonnage/0")
    assert ep.status_code == 200 and b"expected 58,400" in ep.data
    assert app.get("/files/meridian/gross-tonnage/0/screens/0001.png").data == PNG
    assert app.get("/files/../../run.json").status_code == 404
    assert app.get("/_vendor/htmx.min.js").status_code == 200


def test_episode_page_overlays_prompt_diff_and_trace(tmp_path):
    ep = record(tmp_path, extra={"thought": "The tonnage is on page 2", "raw": "RAW-MODEL-OUTPUT"})
    (ep / "trace.zip").write_bytes(b"PK")
    c = create_viewer(tmp_path).test_client()
    html = c.get("/episode/meridian/gross-tonnage/0").data.decode()
    assert html.count('class="frame"') == len(ACTIONS) + 1       # start + one frame per step
    for kind in ("click", "drag", "scroll", "type", "key", "double_click", "done"):
        assert f"overlay-{kind}" in html
    assert "scroll dx=0 dy=300" in html and "polyline" in html and ">ctrl<" in html
    assert "58,400 &lt;b&gt;GT&lt;/b&gt;" in html                  # typed text escaped
    assert "The tonnage is on page 2" in html and "RAW-MODEL-OUTPUT" in html
    assert "http://desk.local/drive/p3" in html and "bad key" in html
    assert "gross tonnage" in html.lower()                       # the task prompt from the task file
    assert "starred" in html and "Notes.txt" in html and "removed" in html
    assert "trace.zip" in html and "playwright show-trace" in html
    assert 'id="slider"' in html and 'max="7"' in html


def test_bad_input_unreadable_episodes(tmp_path):
    record(tmp_path, "meridian/gross-tonnage", 0)
    bad1 = record(tmp_path, "meridian/hearing-date", 0)
    bad2 = record(tmp_path, "meridian/answer-laura-deductible", 0)
    (bad1 / "steps.jsonl").unlink()
    (bad2 / "result.json").write_text("{truncated")
    with open(tmp_path / "results.jsonl", "a") as f:
        f.write('{"task": "meridian/cut-short\n')                 # a torn last line is not a result
    c = create_viewer(tmp_path).test_client()
    page = c.get("/")
    assert page.status_code == 200
    html = page.data.decode()
    assert html.count('data-status="unreadable"') == 2 and html.count('data-status="passed"') == 1
    assert "steps.jsonl is missing" in html and "result.json is corrupt" in html
    for path, why in (("/episode/meridian/hearing-date/0", "steps.jsonl is missing"),
                      ("/episode/meridian/answer-laura-deductible/0", "result.json is corrupt")):
        r = c.get(path)
        assert r.status_code in (200, 404) and why in r.data.decode()
        assert c.post(path + "/grade", data={"verdict": "pass", "grader": "ana",
                                             "csrf_token": csrf(c)}).status_code == 409
    assert c.get("/episode/meridian/no-such-task/0").status_code == 404
    assert c.get("/episode/meridian/gross-tonnage/0").status_code == 200
    assert c.get("/qc").status_code == 200


def test_grading_saves_labels_and_rejects_bad_values(tmp_path):
    rubric = [{"name": "Tone", "weight": 1.0, "kind": "judge", "passed": None, "pending": True,
               "instruction": "polite"}, {"name": "Answer", "weight": 2.0, "kind": "check", "passed": True}]
    ep = record(tmp_path, rubric=rubric)
    before = {p.name: p.read_bytes() for p in ep.iterdir() if p.is_file()}
    c = create_viewer(tmp_path).test_client()
    url = "/episode/meridian/gross-tonnage/0/grade"
    html = c.get("/episode/meridian/gross-tonnage/0").data.decode()
    token = csrf(c, "/episode/meridian/gross-tonnage/0")
    assert 'name="crit:Tone"' in html and "pending judge" in html and "Not graded yet" in html
    for bad, msg in (({"verdict": "perhaps", "grader": "ana"}, "verdict"),
                     ({"verdict": "pass", "grader": ""}, "grader"),
                     ({"verdict": "pass", "grader": "ana", "crit:Tone": "7"}, "between 0 and 1"),
                     ({"verdict": "pass", "grader": "ana", "crit:Tone": "abc"}, "number"),
                     ({"verdict": "pass", "grader": "ana", "crit:Bogus": "1"}, "unknown rubric criterion")):
        r = c.post(url, data={**bad, "csrf_token": token})
        assert r.status_code == 422 and msg in r.data.decode(), bad
        assert not (ep / "labels.json").exists()
    r = c.post(url, data={"verdict": "fail", "grader": "ana", "note": "wrong tone", "crit:Tone": "0",
                          "crit:Answer": "1", "csrf_token": token}, headers={"HX-Request": "true"})
    assert r.status_code == 200 and "Saved grade by ana" in r.data.decode()
    c.post(url, data={"verdict": "pass", "grader": "bo"}, headers={"X-CSRF-Token": token})   # htmx's header
    labels = json.loads((ep / "labels.json").read_text())["labels"]
    assert [(l["grader"], l["passed"]) for l in labels] == [("ana", False), ("bo", True)]
    assert labels[0]["criteria"] == {"Tone": 0.0, "Answer": 1.0} and labels[0]["score"] == pytest.approx(2 / 3, abs=1e-4)
    assert labels[0]["at"] and labels[0]["note"] == "wrong tone"
    after = {p.name: p.read_bytes() for p in ep.iterdir() if p.is_file() and p.name != "labels.json"}
    assert after == before                                      # the agent's record is untouched
    page = c.get("/episode/meridian/gross-tonnage/0").data.decode()
    assert "wrong tone" in page and "bo" in page
    qc = c.get("/qc").data.decode()
    assert 'id="qc-labelled">1<' in qc and "Tone" in qc


def test_run_page_facets_and_failures(tmp_path):
    record(tmp_path, "meridian/gross-tonnage", 0)
    record(tmp_path, "meridian/gross-tonnage", 1, passed=False, score=0.0)
    html = create_viewer(tmp_path).test_client().get("/").data.decode()
    assert 'name="status" value="failed"' in html and 'name="app" value="drive"' in html
    assert "✗ answer: expected 58,400; found 12" in html
    assert 'data-key="score"' in html and 'class="sortable' in html


def test_a_persons_step_shows_how_long_they_looked_and_acted(tmp_path):
    record(tmp_path, extra={"person": {"look_ms": 3200, "gesture_ms": 400}})
    ep = create_viewer(tmp_path).test_client().get("/episode/meridian/gross-tonnage/0").data.decode()
    assert 'class="muted person-timing">looked 3.2 s · gesture 0.4 s</dd>' in ep


def test_run_and_episode_pages_show_the_variant(tmp_path):
    record(tmp_path, "meridian/gross-tonnage", 0, variant={"name": "default", "screen": [1280, 800]})
    record(tmp_path, "meridian/gross-tonnage", 1, passed=False, score=0.0,
           variant={"name": "scale=2", "scale": 2.0, "screen": [2560, 1600]})
    c = create_viewer(tmp_path).test_client()
    html = c.get("/").data.decode()
    assert 'id="variants"' in html and 'data-variant="scale=2"><td>' in html       # the By variant table
    assert 'name="variant" value="scale=2"' in html and 'name="variant" value="default"' in html
    assert html.count('<span class="pill variant">scale=2</span>') == 2               # its table row and its episode
    ep = c.get("/episode/meridian/gross-tonnage/1").data.decode()
    assert 'variant: <span class="pill variant">scale=2</span> · screen 2560×1600' in ep
    plain = tmp_path / "plain"
    record(plain, "meridian/gross-tonnage", 0)
    html = create_viewer(plain).test_client().get("/").data.decode()
    assert 'id="variants"' not in html and 'name="variant"' not in html


# ---------------------------------------------------------------- browser
@pytest.mark.browser
def test_browser_scrub_grade_and_qc(tmp_path, page):
    from playwright.sync_api import expect

    from harness.env.appserver import AppServer
    record(tmp_path)
    server = AppServer(create_viewer(tmp_path)).start()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        base = server.url
        page.goto(f"{base}/episode/meridian/gross-tonnage/0")
        expect(page.locator("#stepno")).to_have_text("start")
        page.keyboard.press("ArrowRight")
        page.keyboard.press("ArrowRight")
        expect(page.locator("#stepno")).to_have_text("step 2 / 7")
        frame = page.locator(".frame.on")
        expect(frame.locator(".step-url")).to_have_text("http://desk.local/drive/p2")
        expect(frame.locator("svg.overlay-drag")).to_have_count(1)
        page.keyboard.press("End")
        expect(page.locator("#stepno")).to_have_text("step 7 / 7")
        page.keyboard.press("Home")
        expect(page.locator("#stepno")).to_have_text("start")

        page.goto(f"{base}/qc")
        expect(page.locator("#qc-labelled")).to_have_text("0")
        page.goto(f"{base}/episode/meridian/gross-tonnage/0")
        page.get_by_label("Grader").fill("ana")
        page.get_by_role("button", name="Save grade").click()           # no verdict: 422, shown in place
        expect(page.get_by_role("alert")).to_contain_text("verdict must be")
        page.get_by_label("Fail").check()
        page.get_by_label("Note").fill("answered from the wrong report")
        page.get_by_label("Grader").fill("ana")
        page.get_by_role("button", name="Save grade").click()
        expect(page.get_by_role("status")).to_contain_text("Saved grade by ana")
        page.goto(f"{base}/qc")
        expect(page.locator("#qc-labelled")).to_have_text("1")
        expect(page.locator("#qc-accuracy")).to_have_text("0%")
        expect(page.locator("#qc-false-pass")).to_have_text("1")
        expect(page.get_by_text("answered from the wrong report")).to_be_visible()
        assert not errors, errors
    finally:
        server.stop()
