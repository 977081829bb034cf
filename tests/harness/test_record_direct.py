"""``deskworld record --direct``: a person uses the apps in a real browser window, and their input there is
recorded as the agent's actions (``harness.human.direct``).

The browser tests run the window on a virtual display (Xvfb) and play the person with real input on it —
xdotool moves the X pointer and presses X keys, as a mouse and keyboard would; nothing is dispatched into the
page by the test. They check what makes the mode worth having: the page only ever gets the recorded
actions' input (the person's own events are stopped, the action's are let through, and only as many as it
makes), so the run replays to the same end state and verdict.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
from urllib.parse import quote, urlsplit

import pytest
from click.testing import CliRunner

import harness.env.actions as A
from harness.env.variant import Variant
from harness.human.direct import display_problem, pass_spec, pressed_keys, typed_keys, window_script
from harness.runs import layout
from harness.tasks.registry import load_task

TASK = "meridian/dm-third-party-total"          # Drive, Sheets and Chat: read a figure, DM it


# ---------------------------------------------------------------- what the page lets through
def test_an_action_lets_through_its_own_input_and_no_more():
    v = Variant()
    assert pass_spec(A.parse({"type": "click", "x": 10, "y": 20}), v) == {
        "points": [[10, 20]], "moves": False, "keys": None,
        "budget": {"pointerdown": 1, "mousedown": 1, "pointerup": 1, "mouseup": 1, "click": 1, "dblclick": 0,
                   "auxclick": 0, "contextmenu": 0}}
    right = pass_spec(A.parse({"type": "click", "x": 10, "y": 20, "button": "right"}), v)["budget"]
    assert right["click"] == 0 and right["contextmenu"] == 1 and right["auxclick"] == 1
    double = pass_spec(A.parse({"type": "double_click", "x": 1, "y": 2}), v)["budget"]
    assert double["mousedown"] == 2 and double["click"] == 2 and double["dblclick"] == 1
    assert pass_spec(A.parse({"type": "triple_click", "x": 1, "y": 2}), v)["budget"]["mousedown"] == 3
    drag = pass_spec(A.parse({"type": "drag", "path": [{"x": 1, "y": 2}, {"x": 30, "y": 40}]}), v)
    assert drag["points"] == [[1, 2], [30, 40]] and drag["moves"] and drag["budget"]["mousedown"] == 1
    assert pass_spec(A.parse({"type": "scroll", "x": 5, "y": 6, "dy": 300}), v)["budget"] == {"wheel": 1}
    assert pass_spec(A.parse({"type": "move", "x": 5, "y": 6}), v)["budget"] == {}
    # a click with modifiers lets its modifier keys through (and no other key)
    assert pass_spec(A.parse({"type": "click", "x": 1, "y": 1, "modifiers": ["ctrl"]}), v)["keys"] == []
    # points are the page's CSS pixels: a scale-2 screenshot's (200, 100) is (100, 50)
    assert pass_spec(A.parse({"type": "click", "x": 200, "y": 100}, screen=(2560, 1600)),
                     Variant.parse("scale=2"))["points"] == [[100, 50]]
    # keys: Playwright's presses, in order; text it inserts without a key press (é) has none
    assert typed_keys("Hi, é\n\t!") == ["H", "i", ",", " ", "Enter", "Tab", "!"]
    assert pressed_keys("ctrl+a Return shift+Tab Page_Down") == ["a", "Enter", "Tab", "PageDown"]
    assert pressed_keys("shift") == []
    assert pass_spec(A.parse({"type": "type", "text": "ok"}), v)["keys"] == ["o", "k"]
    assert pass_spec(A.parse({"type": "navigate", "url": "/mail/"}), v) == {
        "points": [], "moves": False, "budget": {}, "keys": None}


def test_direct_without_a_display_is_refused_naming_it(tmp_path, monkeypatch):
    from harness.cli import main
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    assert "DISPLAY is not set" in display_problem()
    out = tmp_path / "ana"
    r = CliRunner().invoke(main, ["record", "--tasks", TASK, "--name", "ana", "--direct", "--out", str(out)])
    assert r.exit_code != 0 and "--direct opens a real browser window" in r.output and "DISPLAY" in r.output
    assert not out.exists()                       # nothing written
    monkeypatch.setenv("DISPLAY", ":0")
    assert display_problem() is None


# ---------------------------------------------------------------- a real window on a virtual display
@pytest.fixture(scope="module")
def display():
    """An Xvfb display for this module's windows (DISPLAY set while it runs)."""
    for tool in ("Xvfb", "xdotool"):
        assert shutil.which(tool), f"{tool} is missing: `make setup` installs it (make display)"
    proc = subprocess.Popen(["Xvfb", "-displayfd", "1", "-screen", "0", "1920x1200x24", "-nolisten", "tcp"],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    number = proc.stdout.readline().decode().strip()
    assert number.isdigit(), "Xvfb did not start"
    old = os.environ.get("DISPLAY")
    os.environ["DISPLAY"] = f":{number}"
    yield os.environ["DISPLAY"]
    if old is None:
        os.environ.pop("DISPLAY", None)
    else:
        os.environ["DISPLAY"] = old
    proc.terminate()
    proc.wait(10)


X_KEYS = {"Enter": "Return", "Control": "ctrl", "Shift": "shift", "Alt": "alt", "Meta": "super",
          "ArrowDown": "Down", "ArrowUp": "Up", "ArrowLeft": "Left", "ArrowRight": "Right", "PageDown": "Next",
          "PageUp": "Prior", "Backspace": "BackSpace", " ": "space", "Space": "space"}


class Hands:
    """A person's mouse and keyboard: real X input (xdotool) on the window, at a screenshot's pixels."""

    def __init__(self, evaluate, f: float = 1.0):
        self.evaluate, self.f = evaluate, f
        self.ox = self.oy = 0
        for i in range(100):                      # where the page's top-left corner is on the X screen
            self.x("mousemove", str(240 + i % 2), "260")             # (a pointer that doesn't move sends nothing)
            last = evaluate("window.__dwDirect && window.__dwDirect.last")
            if last:
                self.ox, self.oy = last["screenX"] - last["clientX"], last["screenY"] - last["clientY"]
                return
            time.sleep(0.1)
        raise AssertionError("the window never saw the pointer")

    @staticmethod
    def x(*args: str) -> None:
        subprocess.run(["xdotool", *args], check=True)

    def at(self, x: float, y: float) -> list[str]:
        return [str(round(self.ox + x / self.f)), str(round(self.oy + y / self.f))]

    def click(self, x, y, button: str = "left") -> None:
        self.x("mousemove", *self.at(x, y), "click", {"left": "1", "middle": "2", "right": "3"}[button])

    def double_click(self, x, y) -> None:
        self.x("mousemove", *self.at(x, y), "click", "--repeat", "2", "--delay", "80", "1")

    def drag(self, x0, y0, x1, y1) -> None:
        self.x("mousemove", *self.at(x0, y0), "mousedown", "1")
        for i in range(1, 9):
            self.x("mousemove", *self.at(x0 + (x1 - x0) * i / 8, y0 + (y1 - y0) * i / 8))
        self.x("mouseup", "1")

    def type(self, text: str) -> None:
        self.x("type", "--delay", "30", "--", text)

    def key(self, keys: str) -> None:
        for press in A.normalize_keys(keys):
            self.x("key", "+".join(X_KEYS.get(k, k) for k in (["+"] if press == "+" else press.split("+"))))

    def address_bar(self, url: str) -> None:
        """The window's own address bar (above the page: not the page's input)."""
        self.x("mousemove", str(self.ox + 300), str(self.oy - 20), "click", "1")
        self.x("key", "ctrl+a")
        self.x("type", "--delay", "10", "--", url)
        self.x("key", "Return")


def _wait(cond, what: str, timeout: float = 30.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        got = cond()
        if got:
            return got
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


@pytest.mark.browser
@pytest.mark.parametrize("variant", ["", "scale=2"])
def test_the_window_gives_the_page_only_the_recorded_actions_input(display, variant, playwright):
    """On a plain page: the person's click reaches no page handler and becomes an action (in the
    screenshot's pixels: twice the page's at scale 2); carried out, it reaches the page once; a second
    click of theirs on the same spot while it is carried out is stopped and recorded; a scroll bar they
    drag is put back and the drag recorded; the page's own script's events are its own; keys pass only
    as the action presses them."""
    from harness.env.browser import launch_args
    v = Variant.parse(variant) if variant else Variant()
    f = v.px_per_css
    got: list[dict] = []

    def px(x, y):                                   # the page's CSS pixels → the screenshot's
        return {"x": round(x * f), "y": round(y * f)}

    def spec(action):
        return pass_spec(A.parse(action, screen=v.screen), v)
    # (pytest-playwright's Playwright: a second one in this thread would refuse to start)
    browser = playwright.chromium.launch(**launch_args(headed=True), env=dict(os.environ))   # its DISPLAY
    try:
        ctx = browser.new_context(**v.context_args())
        ctx.expose_binding("__dwSend", lambda source, m: got.append(m))
        ctx.add_init_script(window_script(v))
        page = ctx.new_page()
        page.goto("data:text/html," + quote(
            "<body style='margin:0'><button id=b style='position:absolute;left:100px;top:100px;width:200px;"
            "height:60px' onclick='window.clicks=(window.clicks||0)+1'>Press</button>"
            "<input id=i style='position:absolute;left:100px;top:300px'>"
            "<div id=s style='position:absolute;left:500px;top:100px;width:200px;height:300px;overflow:auto'>"
            "<div style='height:3000px'>rows</div></div></body>"))
        hands = Hands(page.evaluate, f)

        def actions(n):
            # (the binding's calls arrive while Playwright is called: wait inside the page)
            _wait(lambda: (page.wait_for_timeout(30), len(got) >= n and not page.evaluate("window.__dwDirect.busy()"))[1],
                  f"{n} actions")
            return [m["action"] for m in got]

        # the pointer resting in the window is no action: nothing gathers after the calibration's move
        assert not page.evaluate("window.__dwDirect.busy()")
        hands.click(200 * f, 130 * f)
        assert actions(1) == [{"type": "click", **px(200, 130)}]       # (no hover before it)
        assert page.evaluate("window.clicks || 0") == 0               # the person's own click: stopped
        # deskworld carries it out: held, the executor's click passes (once)
        page.evaluate("(s) => window.__dwDirect.hold(s)", spec(got[-1]["action"]))
        page.mouse.click(200, 130)
        assert page.evaluate("window.clicks") == 1
        # the person clicks the same spot again while the action is still held: not let through, recorded
        hands.click(200 * f, 130 * f)
        assert actions(2)[-1] == {"type": "click", **px(200, 130)}
        assert page.evaluate("window.clicks") == 1
        page.evaluate("window.__dwDirect.release()")
        # the page's own script's events are its own
        page.evaluate("document.getElementById('b').click()")
        assert page.evaluate("window.clicks") == 2
        # keys: the person's typing reaches no field by itself; the action's presses pass in their order,
        # and a key of the person's that isn't the next one is stopped
        page.evaluate("document.getElementById('i').focus()")
        hands.type("xy")
        assert actions(3)[-1] == {"type": "type", "text": "xy"}
        assert page.evaluate("document.getElementById('i').value") == ""
        page.evaluate("(s) => window.__dwDirect.hold(s)", spec({"type": "type", "text": "xy"}))
        page.keyboard.type("x")
        hands.key("q")                                            # the person's, meanwhile
        page.keyboard.type("y")
        assert page.evaluate("document.getElementById('i').value") == "xy"
        assert actions(4)[-1] == {"type": "type", "text": "q"}
        page.evaluate("window.__dwDirect.release()")
        # a scroll bar dragged: put back, and the drag recorded
        assert page.evaluate("document.getElementById('s').scrollTop") == 0
        hands.drag(695 * f, 110 * f, 695 * f, 250 * f)
        drag = actions(5)[-1]
        assert drag["type"] == "drag" and drag["path"][0] == px(695, 110) and drag["path"][-1] == px(695, 250)
        assert page.evaluate("document.getElementById('s').scrollTop") == 0
        assert all(set(m["timing"]) == {"look_ms", "gesture_ms"} for m in got)
    finally:
        browser.close()


@pytest.mark.browser
def test_a_person_in_a_real_window_records_a_multi_app_task_that_replays_to_the_same_verdict(display, tmp_path, page):
    """The multi-app task done in the window with a real mouse and keyboard (where to click comes from the
    oracle, which reads the episode's page); the address box, Done and the answer on the record page."""
    from playwright.sync_api import expect
    from werkzeug.serving import make_server

    from harness.agents.oracle import OracleAgent
    from harness.human.recording import Recording
    from harness.human.server import create_record_app
    from harness.runs.runner import run

    task = load_task(TASK)
    out = tmp_path / "bo"
    rec = Recording([task], "bo", out, direct=True)
    rec.prepare()
    server = make_server("127.0.0.1", 0, create_record_app(rec.live, name="bo", direct=True), threaded=True)
    import threading
    threading.Thread(target=server.serve_forever, daemon=True).start()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        rec.start()
        page.goto(f"http://127.0.0.1:{server.server_port}/")
        expect(page.locator("#direct-note")).to_contain_text("Work in the deskworld window")
        expect(page.locator("#screen")).to_be_hidden()
        _wait(lambda: rec.live.state()["phase"] == "acting" and rec.agent is not None, "the task to start", 60)
        expect(page.locator("#goal")).to_contain_text("Sofia")
        sess = rec.env.unwrapped.session

        def evaluate(js):
            return sess.page_call(lambda p: p.evaluate(js))
        hands = Hands(evaluate)

        def quiet() -> bool:
            st = rec.live.state()
            return st["phase"] != "acting" or (rec.agent.waiting and not evaluate(
                "window.__dwDirect ? window.__dwDirect.busy() : true"))

        def settled(before: int) -> int:
            """The person's gesture has become an action and its step is over (a gesture may become more
            than one action: a pause in typing splits it), nothing of theirs waits: the new step count."""
            _wait(lambda: rec.live.state()["step"] > before and quiet(), f"a step after {before}", 60)
            return rec.live.state()["step"]
        oracle = OracleAgent(rec.env)
        oracle.reset(task)
        kinds, n = set(), 0
        for _ in range(80):
            a = oracle.act({})
            kinds.add(a["type"])
            if a["type"] == "done":
                # first the window's own address bar (not the page's input): recorded as a navigate
                parts = urlsplit(sess.page_call(lambda p: p.url))
                hands.address_bar(f"{parts.scheme}://{parts.netloc}/mail/")
                n = settled(n)
                if a.get("answer"):
                    page.get_by_label("Your answer").fill(a["answer"])
                page.get_by_role("button", name="Done", exact=True).click()
                break
            if a["type"] == "navigate":
                page.locator("#address").fill(a["url"])
                page.locator("#address").press("Enter")
            elif a["type"] == "click":
                hands.click(a["x"], a["y"], a.get("button", "left"))
            elif a["type"] == "double_click":
                hands.double_click(a["x"], a["y"])
            elif a["type"] == "type":
                hands.type(a["text"])
            elif a["type"] == "key":
                hands.key(a["keys"])
            else:
                raise AssertionError(f"the test person can't do {a['type']}")
            n = settled(n)
        expect(page.locator("#verdict-title")).to_have_text("Passed", timeout=60_000)
        assert {"click", "navigate", "type", "done"} <= kinds, kinds
    finally:
        rec.stop()
        server.shutdown()
    assert not errors, errors

    rows = layout.read_results(out)
    assert [(r["agent"], r["passed"]) for r in rows] == [("human:bo", True)]
    assert layout.read_run_json(out)["human"]["mode"] == "direct"
    steps = layout.read_steps(layout.episode_dir(out, TASK, 0) / layout.STEPS)
    recorded = [s["action"] for s in steps]
    assert len(steps) == rows[0]["steps"] == n + 1
    # the window's own address bar: the page it opened (/mail/ redirects to the inbox)
    assert recorded[-2] == {"type": "navigate", "url": "/mail/inbox"}, recorded[-4:]
    # the person's gestures were timed in the window, the env's step apart
    assert all(s["ms"]["env"] > 0 for s in steps)
    assert [s for s in steps if s["action"]["type"] == "type" and s.get("person", {}).get("gesture_ms", 0) > 0]

    # replayed in DeskEnv (headless): the same end state and verdict
    again = run(f"replay:{out}", [task], out=tmp_path / "replay", progress=False)
    assert [(r["passed"], r["score"]) for r in again] == [(True, rows[0]["score"])]
    ends = [json.loads((layout.episode_dir(d, TASK, 0) / layout.DIFF).read_text()) for d in (out, tmp_path / "replay")]
    assert ends[0] == ends[1] and ends[0]["tables"], "the replay ends in the same state"


@pytest.mark.browser
def test_a_window_closed_mid_task_starts_the_task_again_and_records_nothing_of_it(display, tmp_path):
    """Closed with Ctrl+W mid-task: that episode is dropped, the task starts again in a new window; and a
    run of text typed in the window just before a button on the page is carried out before it."""
    from harness.human.recording import Recording

    task = load_task(TASK)
    out = tmp_path / "cy"
    rec = Recording([task], "cy", out, direct=True)
    rec.prepare()
    try:
        rec.start()
        _wait(lambda: rec.live.state()["phase"] == "acting" and rec.agent is not None, "the task to start", 60)
        sess = rec.env.unwrapped.session

        def evaluate(js):
            return sess.page_call(lambda p: p.evaluate(js))
        hands = Hands(evaluate)
        hands.click(640, 400)
        _wait(lambda: rec.live.state()["step"] == 1 and rec.agent.waiting, "the click's step")
        hands.x("key", "ctrl+w")                   # the person closes the window (no page can stop that)
        _wait(lambda: "the window was closed" in (rec.live.state().get("error") or ""), "the restart")
        _wait(lambda: rec.live.state()["phase"] == "acting" and rec.live.state()["step"] == 0, "a new window", 60)
        assert not sess.page_call(lambda p: p.is_closed())
        # typing in the window, then at once "Can't be done" on the page: the typing goes first, not lost
        hands = Hands(evaluate)
        hands.type("abc")
        rec.live.submit({"type": "done", "status": "infeasible"})
        _wait(lambda: rec.live.state()["phase"] == "finished", "the verdict", 60)
    finally:
        rec.stop()
    rows = layout.read_results(out)
    assert [(r["agent"], r["steps"]) for r in rows] == [("human:cy", 2)]     # only the new window's episode
    steps = layout.read_steps(layout.episode_dir(out, TASK, 0) / layout.STEPS)
    assert [s["action"] for s in steps] == [{"type": "type", "text": "abc"}, {"type": "done", "status": "infeasible"}]
