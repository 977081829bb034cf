"""``deskworld record``: a person does a task on the record page, in the agent's own screenshots and actions.

The browser test plays the person with real input on the page (mouse clicks, double clicks, wheel, keys
and typing on the screenshot, the address bar, the Done button) — never calls to the env. Where to click
comes from the task's oracle, which reads the episode's page as it always does; the person's gestures
are turned into actions by the page's own script. The run it writes replays to the same verdict, and the
viewer's leaderboard shows its human row.
"""
from __future__ import annotations

import json
import re

import pytest
from werkzeug.serving import make_server

from harness.human.live import Busy, Live
from harness.human.recording import Recording
from harness.human.server import create_record_app
from harness.runs import layout
from harness.tasks.registry import load_task

TASK = "meridian/dm-third-party-total"          # Drive, Sheets and Chat: read a figure, DM it


# ---------------------------------------------------------------- the page's server (Flask client)
@pytest.fixture
def live_app():
    live = Live()
    app = create_record_app(live, name="ana")
    return live, app, app.test_client()


def _csrf(client) -> dict:
    html = client.get("/", headers={"Host": "localhost"}).get_data(as_text=True)
    token = re.search(r'csrf: "([^"]+)"', html).group(1)
    return {"X-CSRF-Token": token, "Host": "localhost"}


def test_the_page_and_its_bad_inputs(live_app):
    live, app, client = live_app
    page = client.get("/", headers={"Host": "localhost"})
    assert page.status_code == 200 and "Recording as <b>ana</b>" in page.get_data(as_text=True)
    h = _csrf(client)
    assert client.post("/act", json={"action": {"type": "click", "x": 1, "y": 1}},
                       headers={"Host": "localhost"}).status_code == 403          # no CSRF token
    r = client.post("/act", data="click", headers=h)
    assert r.status_code == 422 and "JSON object" in r.get_json()["message"]
    r = client.post("/act", json={"action": {"type": "tool_call", "tool": "mail.send"}}, headers=h)
    assert r.status_code == 422 and "'tool_call' is not an action a person sends" in r.get_json()["message"]
    r = client.post("/act", json={"action": {"type": "key", "keys": "ctrl+nosuchkey"}}, headers=h)
    assert r.status_code == 422 and "nosuchkey" in r.get_json()["message"]
    r = client.post("/act", json={"action": {"type": "click", "x": "left"}}, headers=h)
    assert r.status_code == 422 and "click" in r.get_json()["message"]
    for timing in ({"look_ms": -1}, {"look_ms": "soon"}, {"think": 3}, [1, 2]):
        r = client.post("/act", json={"action": {"type": "wait", "ms": 0}, "timing": timing}, headers=h)
        assert r.status_code == 422 and "timing is {look_ms, gesture_ms}" in r.get_json()["message"]
    # a good action while no task waits for one: 409, and nothing is handed on
    r = client.post("/act", json={"action": {"type": "click", "x": 5, "y": 5}}, headers=h)
    assert r.status_code == 409 and "no task is waiting" in r.get_json()["message"]
    assert live._action is None
    assert client.post("/next", headers=h).status_code == 409
    assert client.get("/state?after=x", headers={"Host": "localhost"}).status_code == 422
    assert client.get("/screen.png", headers={"Host": "localhost"}).status_code == 404
    # the agent's browser (a page of another site) can't reach it
    assert client.get("/state", headers={"Host": "localhost", "Sec-Fetch-Site": "cross-site"}).status_code == 403


def test_beyond_this_machine_the_page_needs_its_key():
    app = create_record_app(Live(), name="ana", key="s3cret")
    c = app.test_client()
    h = {"Host": "localhost"}
    assert c.get("/", headers=h).status_code == 403
    assert c.get("/state", headers=h).status_code == 403
    assert c.get("/?key=wrong", headers=h).status_code == 403
    r = c.get("/?key=s3cret", headers=h)
    assert r.status_code == 302 and "deskworld_record_key=s3cret" in r.headers["Set-Cookie"]
    assert c.get("/state", headers=h).status_code == 200            # the cookie carries it from now on


def test_a_hidden_verdict_says_only_that_the_task_was_submitted():
    live = Live()
    c = create_record_app(live, name="ana", show_verdict=False).test_client()
    live.publish("verdict", verdict={"passed": True, "score": 1.0, "status": "passed", "steps": 7, "seconds": 30.0,
                                     "lines": ["✓ the DM gives $122,755,000"]})
    st = c.get("/state", headers={"Host": "localhost"}).get_json()
    assert st["verdict"] == {"hidden": True, "steps": 7, "seconds": 30.0, "status": "passed"}
    live.publish("finished", summary={"tasks": 1, "passed": 1, "score": 1.0, "seconds": 30.0})
    st = c.get("/state", headers={"Host": "localhost"}).get_json()
    assert st["summary"] == {"tasks": 1, "hidden": True} and "122,755,000" not in json.dumps(st)


def test_live_hands_one_action_to_the_episode_and_waits_for_its_step():
    import threading
    live = Live()
    live.publish("acting", png=b"png0", step=0)
    got = []

    def episode():
        got.append(live.take_action())
        live.publish("acting", png=b"png1", step=1)
    t = threading.Thread(target=episode)
    t.start()
    st = live.submit({"type": "wait", "ms": 0}, {"look_ms": 1200, "gesture_ms": 80})
    t.join(5)
    assert got == [({"type": "wait", "ms": 0}, {"look_ms": 1200, "gesture_ms": 80})]
    assert st["phase"] == "acting" and st["step"] == 1
    assert live.png == b"png1"
    live.publish("stepping")
    with pytest.raises(Busy):
        live.submit({"type": "wait", "ms": 0})


# ---------------------------------------------------------------- a person, in a real browser
def _serve(app):
    server = make_server("127.0.0.1", 0, app, threaded=True)
    import threading
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_port}"


class Person:
    """Real input on the record page, aimed as the oracle aims."""

    def __init__(self, page):
        self.page = page
        self.shot = page.locator("#shot")

    def at(self, x: int, y: int) -> tuple[float, float]:
        box = self.shot.bounding_box()
        w, h = self.shot.evaluate("(i) => [i.naturalWidth, i.naturalHeight]")
        return box["x"] + x * box["width"] / w, box["y"] + y * box["height"] / h

    def idle(self):
        from playwright.sync_api import expect
        expect(self.page.locator("body")).to_have_attribute("data-idle", "true", timeout=30_000)

    def keyboard_on_screen(self):
        if not self.page.evaluate("document.activeElement && document.activeElement.id === 'screen'"):
            self.page.locator("#screen").focus()

    def do(self, a: dict) -> None:
        from harness.env.actions import normalize_keys
        m, kind = self.page.mouse, a["type"]
        if kind == "click":
            m.click(*self.at(a["x"], a["y"]), button=a.get("button", "left"))
        elif kind == "double_click":
            m.dblclick(*self.at(a["x"], a["y"]))
        elif kind == "move":
            m.move(*self.at(a["x"], a["y"]))
        elif kind == "scroll":
            m.move(*self.at(a["x"], a["y"]))
            m.wheel(a.get("dx", 0), a.get("dy", 0))
        elif kind == "drag":
            (x0, y0), (x1, y1) = self.at(a["path"][0]["x"], a["path"][0]["y"]), \
                self.at(a["path"][-1]["x"], a["path"][-1]["y"])
            m.move(x0, y0)
            m.down()
            m.move(x1, y1, steps=8)
            m.up()
        elif kind == "type":
            self.keyboard_on_screen()
            self.page.keyboard.type(a["text"])
        elif kind == "key":
            self.keyboard_on_screen()
            for press in normalize_keys(a["keys"]):
                self.page.keyboard.press(press)
        elif kind == "navigate":
            self.page.locator("#address").fill(a["url"])
            self.page.locator("#address").press("Enter")
        elif kind == "done":
            if a.get("answer"):
                self.page.get_by_label("Your answer").fill(a["answer"])
            self.page.get_by_role("button", name="Can't be done" if a.get("status") == "infeasible"
                                  else "Done", exact=True).click()
        else:
            raise AssertionError(f"the test person can't do {kind}")


@pytest.mark.browser
@pytest.mark.browser_context_args(viewport={"width": 1720, "height": 1000})
def test_a_person_records_a_multi_app_task_that_replays_to_the_same_verdict(tmp_path, page):
    from playwright.sync_api import expect

    from harness.agents.oracle import OracleAgent
    from harness.env.appserver import AppServer
    from harness.runs.runner import run
    from harness.viewer import create_viewer

    task = load_task(TASK)
    assert len(task.apps) >= 2
    study = tmp_path / "study"
    rec = Recording([task], "ana", study / "ana")
    rec.prepare()
    server, url = _serve(create_record_app(rec.live, name="ana"))
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        rec.start()
        page.goto(url + "/")
        person = Person(page)
        person.idle()
        expect(page.locator("#goal")).to_contain_text("Sofia")
        oracle = OracleAgent(rec.env)
        oracle.reset(task)
        kinds = set()
        for _ in range(60):
            action = oracle.act({})
            kinds.add(action["type"])
            person.do(action)
            if action["type"] == "done":
                break
            person.idle()
        expect(page.get_by_role("dialog")).to_be_visible(timeout=30_000)
        expect(page.locator("#verdict-title")).to_have_text("Passed")
        assert {"click", "double_click", "navigate", "type", "key", "done"} <= kinds, kinds
    finally:
        rec.stop()
        server.shutdown()
    assert not errors, errors

    # the run: agent human:ana, one passed episode whose steps time the person apart from the env
    rows = layout.read_results(study / "ana")
    assert [(r["agent"], r["task"], r["passed"], r["status"]) for r in rows] == [("human:ana", TASK, True, "passed")]
    assert layout.read_run_json(study / "ana")["agent"] == "human:ana"
    assert json.loads((study / "ana" / "summary.json").read_text())["overall"]["pass@1"] == 1.0
    steps = layout.read_steps(layout.episode_dir(study / "ana", TASK, 0) / layout.STEPS)
    assert len(steps) == rows[0]["steps"] >= 6
    assert all(s["ms"]["agent"] > 0 and s["ms"]["env"] > 0 for s in steps)
    # the page's own timing of each gesture: from the screen it was made on appearing, and the gesture itself
    assert all(set(s["person"]) == {"look_ms", "gesture_ms"} and min(s["person"].values()) >= 0 for s in steps)
    typed = [s for s in steps if s["action"]["type"] == "type"]
    assert typed and all(s["person"]["gesture_ms"] > 0 for s in typed)     # typing takes time; a click ~none
    assert steps[-1]["action"]["type"] == "done"

    # replayed in DeskEnv: the same end state's verdict
    again = run(f"replay:{study / 'ana'}", [task], out=study / "replay", progress=False)
    assert [(r["passed"], r["score"]) for r in again] == [(True, rows[0]["score"])]
    mine = layout.read_object(layout.episode_dir(study / "ana", TASK, 0) / layout.RESULT)
    theirs = layout.read_object(layout.episode_dir(study / "replay", TASK, 0) / layout.RESULT)
    assert mine["lines"] == theirs["lines"]
    same_end = [json.loads((layout.episode_dir(study / run_, TASK, 0) / layout.DIFF).read_text())
                for run_ in ("ana", "replay")]
    assert same_end[0] == same_end[1] and same_end[0]["tables"], "the replay ends in the same state"

    # SFT data, as for an agent's run: one example per step the person took
    from harness.runs.export import export_run
    for fmt in ("messages", "imagefolder"):
        rep = export_run(study / "ana", tmp_path / f"sft-{fmt}", fmt)
        assert rep["episodes"] == 1 and not rep["skipped"], rep
    assert rep["rows"] == len(steps)

    # the viewer's leaderboard: a human row beside the agents'
    viewer = AppServer(create_viewer(study)).start()
    try:
        page.goto(viewer.url + "/leaderboard")
        human = page.locator("tr.human-row")
        expect(human).to_have_count(1)
        expect(human).to_contain_text("human")
        expect(human).to_contain_text("100%")
    finally:
        viewer.stop()


# ---------------------------------------------------------------- the command and its folder
def test_record_refuses_bad_input_by_name(tmp_path):
    from click.testing import CliRunner

    from harness.cli import main
    r = CliRunner().invoke(main, ["record", "--tasks", TASK, "--name", "ana smith", "--out", str(tmp_path / "x")])
    assert r.exit_code != 0 and "--name 'ana smith'" in r.output
    r = CliRunner().invoke(main, ["record", "--tasks", "meridian/no-such-task", "--name", "ana",
                                  "--out", str(tmp_path / "x")])
    assert r.exit_code != 0 and "no task matches 'meridian/no-such-task'" in r.output
    assert not (tmp_path / "x").exists()


def test_a_folder_goes_on_with_the_tasks_not_done_and_is_refused_to_someone_else(tmp_path):
    from harness.runs.runner import ResumeMismatch
    tasks = [load_task(TASK), load_task("meridian/tanks-breached")]
    out = tmp_path / "ana"
    Recording(tasks, "ana", out).prepare()
    layout.append_result(out, {"task": TASK, "revision": tasks[0].revision, "agent": "human:ana", "sample": 0,
                               "score": 1.0, "passed": True, "steps": 5, "seconds": 60.0, "status": "passed"})
    again = Recording(tasks, "ana", out)
    again.prepare()
    assert again.done_before() == {TASK}
    assert layout.read_run_json(out)["resumes"], "going on is recorded as a resume"
    with pytest.raises(ResumeMismatch, match="human:ana"):
        Recording(tasks, "bo", out).prepare()
    with pytest.raises(ResumeMismatch, match="variants"):
        Recording(tasks, "ana", out, variant="scale=2").prepare()     # another screen: another run


@pytest.mark.browser
def test_a_person_on_a_variant_sees_its_screen_and_clicks_land(tmp_path, page):
    """At scale 2 the screenshot is 2560x1600, shown smaller on the page: a click on the picture lands on
    the element under it, in the screenshot's pixels."""
    from playwright.sync_api import expect

    from harness.agents.oracle import OracleAgent
    task = load_task("meridian/gross-tonnage")
    rec = Recording([task], "ana", tmp_path / "ana", variant="scale=2")
    rec.prepare()
    server, url = _serve(create_record_app(rec.live, name="ana"))
    try:
        rec.start()
        page.goto(url + "/")
        person = Person(page)
        person.idle()
        assert person.shot.evaluate("(i) => [i.naturalWidth, i.naturalHeight]") == [2560, 1600]
        oracle = OracleAgent(rec.env)
        oracle.reset(task)
        for _ in range(40):
            action = oracle.act({})
            person.do(action)
            if action["type"] == "done":
                break
            person.idle()
        expect(page.locator("#verdict-title")).to_have_text("Passed", timeout=30_000)
    finally:
        rec.stop()
        server.shutdown()
    rows = layout.read_results(tmp_path / "ana")
    assert [(r["passed"], r.get("variant")) for r in rows] == [(True, "scale=2")]


@pytest.mark.browser
def test_stopping_mid_task_publishes_nothing_of_it(tmp_path):
    rec = Recording([load_task(TASK)], "ana", tmp_path / "ana")
    rec.prepare()
    rec.start()
    st = rec.live.state()
    while st["phase"] != "acting":
        st = rec.live.wait_change(st["version"], 60)
        assert st["phase"] != "failed", st
    rec.stop()
    assert not rec.thread.is_alive()
    assert layout.read_results(tmp_path / "ana") == []
    assert not layout.episode_dir(tmp_path / "ana", TASK, 0).exists()
    assert not layout.partial_dirs(tmp_path / "ana", TASK, 0)


# ---------------------------------------------------------------- every gesture, against a scripted episode
def _blank_png(w=1280, h=800) -> bytes:
    import io

    from PIL import Image
    buf = io.BytesIO()
    Image.new("RGB", (w, h), "white").save(buf, "PNG")
    return buf.getvalue()


@pytest.mark.browser
@pytest.mark.browser_context_args(viewport={"width": 1720, "height": 1000})
def test_each_gesture_on_the_page_is_one_action(page):
    """What the page sends for each gesture, read by a scripted episode on the other side of Live."""
    import threading
    live = Live()
    got: list[dict] = []
    png = _blank_png()

    def episode():
        from harness.human.live import Stopped
        try:
            while True:
                live.publish("acting", png=png, step=len(got), can_ask=True, goal="Try every gesture.",
                             screen=[1280, 800])
                got.append(live.take_action()[0])
        except Stopped:
            pass
    t = threading.Thread(target=episode, daemon=True)
    t.start()
    server, url = _serve(create_record_app(live, name="ana"))
    try:
        page.goto(url + "/")
        person = Person(page)
        person.idle()
        m, kb = page.mouse, page.keyboard

        def sent(n_before):
            person.idle()
            assert len(got) == n_before + 1, got[n_before:]
            return got[-1]
        n = len(got); m.click(*person.at(100, 200))
        assert sent(n) == {"type": "click", "x": 100, "y": 200}
        n = len(got); m.dblclick(*person.at(300, 40))
        assert sent(n) == {"type": "double_click", "x": 300, "y": 40}
        n = len(got); m.click(*person.at(500, 500), click_count=3)
        assert sent(n)["type"] == "triple_click"
        n = len(got); m.click(*person.at(640, 400), button="right")
        assert sent(n) == {"type": "click", "x": 640, "y": 400, "button": "right"}
        n = len(got); kb.down("Control"); m.click(*person.at(20, 30)); kb.up("Control")
        assert sent(n) == {"type": "click", "x": 20, "y": 30, "modifiers": ["ctrl"]}
        n = len(got); m.move(*person.at(100, 100)); m.down(); m.move(*person.at(400, 300), steps=10); m.up()
        d = sent(n)
        assert d["type"] == "drag" and d["path"][0] == {"x": 100, "y": 100} and d["path"][-1] == {"x": 400, "y": 300}
        assert len(d["path"]) > 2
        n = len(got); m.move(*person.at(700, 300)); m.wheel(0, 120); m.wheel(0, 280)
        assert sent(n) == {"type": "scroll", "x": 700, "y": 300, "dx": 0, "dy": 400}
        person.keyboard_on_screen()
        n = len(got); kb.type("Hello, Sofia!")
        assert sent(n) == {"type": "type", "text": "Hello, Sofia!"}
        n = len(got); kb.press("Enter")
        assert sent(n) == {"type": "key", "keys": "Enter"}
        n = len(got); kb.press("Control+a")
        assert sent(n) == {"type": "key", "keys": "ctrl+a"}
        n = len(got); kb.press("Shift+Tab")
        assert sent(n) == {"type": "key", "keys": "shift+Tab"}
        n = len(got); m.move(*person.at(900, 600), steps=3)      # and the pointer rests: a hover
        assert sent(n) == {"type": "move", "x": 900, "y": 600}
        n = len(got); page.get_by_role("button", name="← Back").click()
        assert sent(n) == {"type": "back"}
        n = len(got); page.locator("#address").fill("/drive/")
        page.locator("#address").press("Enter")
        assert sent(n) == {"type": "navigate", "url": "/drive/"}
        n = len(got); page.get_by_role("button", name="Wait 1 s").click()
        assert sent(n) == {"type": "wait", "ms": 1000}
        n = len(got); page.get_by_label("Ask the person who gave you the task").fill("Which figure?")
        page.get_by_role("button", name="Ask", exact=True).click()
        assert sent(n) == {"type": "ask_user", "text": "Which figure?"}
        n = len(got); page.get_by_role("button", name="Can't be done").click()
        assert sent(n) == {"type": "done", "status": "infeasible"}
        n = len(got); page.get_by_label("Your answer").fill("ANSWER: 42")
        page.get_by_role("button", name="Done", exact=True).click()
        assert sent(n) == {"type": "done", "status": "complete", "answer": "ANSWER: 42"}
    finally:
        live.stop()
        server.shutdown()


def test_live_knows_when_a_page_has_seen_the_latest_state():
    live = Live()
    live.publish("finished", summary={"tasks": 1})
    assert live.wait_seen(0) is False
    live.state()
    assert live.wait_seen(0) is True
