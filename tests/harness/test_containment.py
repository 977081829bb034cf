"""Containment, tried the way a hostile agent would (issue 15): through ``env.step``, and through
script a page could run (``session.page_call`` stands in for a page that got script to run).

A stand-in for a local server the agent must not reach (``deskworld view`` showing the expected
answer, the env server, another slot) listens on loopback and counts every request it receives:
whatever the page does, it must receive none, and the episode must stay on the workspace."""
from __future__ import annotations

import http.server
import socketserver
import threading
import time

import pytest

from harness.env import actions as A
from harness.env import DeskEnv

pytestmark = pytest.mark.browser

TASK = "meridian/gross-tonnage"


class Bait:
    """A loopback server serving the 'expected answer', counting the requests it gets."""

    def __init__(self):
        hits = self.hits = []

        class H(http.server.BaseHTTPRequestHandler):
            def _any(self):
                hits.append((self.command, self.path))
                self.send_response(200)
                self.send_header("Content-Type", "text/html")
                self.send_header("Access-Control-Allow-Origin", "*")
                self.end_headers()
                self.wfile.write(b"<h1>expected: 58,400</h1>")
            do_GET = do_POST = _any

            def log_message(self, *a):
                pass
        self.server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), H)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture(scope="module")
def env():
    e = DeskEnv(TASK)
    yield e
    e.close()


@pytest.fixture(scope="module")
def bait():
    b = Bait()
    yield b
    b.close()


def _pages(env) -> int:
    """Pages open once the browser has reported what it opened (a tab opens asynchronously:
    the containment closes it as soon as Chromium announces it)."""
    deadline = time.monotonic() + 10
    while True:
        n = env.session.page_call(lambda p: (p.evaluate("1"), len(p.context.pages))[1])
        if n == 1 or time.monotonic() > deadline:
            return n


def _on_workspace(obs) -> bool:
    return obs["url"].startswith("http://desk.local/")


def test_navigate_refuses_every_scheme_but_the_workspace(env, bait):
    env.reset()
    svg = ("data:image/svg+xml,<svg xmlns='http://www.w3.org/2000/svg' onload=\"location='"
           + bait.url + "'\"><script>location='" + bait.url + "'</script></svg>")
    for url in (svg, "data:text/html,<script>location='" + bait.url + "'</script>", "blob:http://desk.local/x",
                "about:blank", "about:srcdoc", bait.url, "http://localhost:8780/", "//127.0.0.1:8780/",
                "http://desk.local.evil.example/", "http://desk.local@127.0.0.1:8780/", " javascript:1"):
        obs, r, term, trunc, info = env.step({"type": "navigate", "url": url})
        assert "not allowed" in obs["last_action_error"], url
        assert _on_workspace(obs) and info["status"] == "ok", url
    assert bait.hits == []


def test_a_page_that_leaves_is_brought_back_and_stays_back(env, bait):
    env.reset()
    start = env.episode_state()["url"]
    # A page that got off the workspace and keeps navigating (what an SVG's script did).
    chain = ("data:text/html,<script>setTimeout(() => location.href = 'about:blank', 30);"
             "setTimeout(() => location.href = '" + bait.url + "', 60)</script>")
    env.session.page_call(lambda p: p.goto(chain, wait_until="commit"))
    obs, *_ = env.step({"type": "wait", "ms": 200})
    assert "outside the workspace" in obs["last_action_error"] and _on_workspace(obs)
    for _ in range(3):                         # nothing left running brings it off again
        obs, *_ = env.step({"type": "wait", "ms": 100})
        assert obs["url"] == start and obs["last_action_error"] == ""
    for js in (f"location.href = '{bait.url}'", "location.href = 'about:blank'", "history.pushState({}, '', '/x')"):
        env.session.page_call(lambda p, js=js: p.evaluate(f"() => {{ {js} }}"))
        obs, *_ = env.step({"type": "wait", "ms": 50})
        assert _on_workspace(obs), js
    assert bait.hits == []


def test_no_request_from_any_page_reaches_another_local_server(env, bait):
    env.reset()
    out = env.session.page_call(lambda p: p.evaluate("""async (u) => {
        const r = [];
        r.push(await fetch(u).then(x => 'read ' + x.status).catch(() => 'refused'));
        r.push(await fetch(u, {method: 'POST', mode: 'no-cors', headers: {'Content-Type': 'text/plain'},
                               body: '{"session_id": "x"}'}).then(() => 'sent').catch(() => 'refused'));
        const img = new Image(); img.src = u + 'img';
        const f = document.createElement('iframe'); f.src = u + 'frame'; document.body.appendChild(f);
        const form = document.createElement('form'); form.method = 'POST'; form.action = u + 'form';
        form.enctype = 'text/plain'; form.target = 'x'; document.body.appendChild(form); form.submit();
        navigator.sendBeacon(u + 'beacon', 'x');
        await new Promise(res => setTimeout(res, 300));
        return r;
    }""", bait.url))
    assert out == ["refused", "refused"]
    obs, *_ = env.step({"type": "wait", "ms": 100})
    assert _on_workspace(obs)
    assert bait.hits == []
    # A WebSocket to anywhere is closed.
    env.session.page_call(lambda p: p.evaluate("(u) => { new WebSocket(u.replace('http', 'ws')); }", bait.url))
    obs, *_ = env.step({"type": "wait", "ms": 100})
    assert "blocked" in obs["last_action_error"]


def test_popups_and_tabs_are_closed_as_they_open_and_never_survive_reset(env, bait):
    env.reset()
    env.session.page_call(lambda p: p.evaluate("(u) => { window.open('/mail/inbox'); window.open(u); }", bait.url))
    # Reported by the step during which Chromium announces the window (on a loaded machine, the next).
    said = [env.step({"type": "wait", "ms": 100})[0]["last_action_error"] for _ in range(3)]
    assert any("new window" in e for e in said) and _pages(env) == 1, said
    # Clicks that open tabs: ctrl-, shift- and middle-click on a link.
    box = env.session.page_call(lambda p: p.locator("a[href^='/']:visible").first.bounding_box())
    x, y = int(box["x"] + box["width"] / 2), int(box["y"] + box["height"] / 2)
    for action in ({"type": "click", "x": x, "y": y, "modifiers": ["ctrl"]},
                   {"type": "click", "x": x, "y": y, "modifiers": ["shift"]},
                   {"type": "click", "x": x, "y": y, "button": "middle"}):
        obs, r, term, trunc, info = env.step(action)
        assert info["status"] == "ok", (action, info.get("error"))
        assert _pages(env) == 1, action
    # A pop-up opened just before reset is gone after it.
    env.session.page_call(lambda p: p.evaluate("() => { window.open('/drive/my-drive'); }"))
    env.reset()
    assert _pages(env) == 1
    assert bait.hits == []


def test_keys_a_page_refuses_and_a_download_are_the_agents_errors(env):
    env.reset()
    for keys in ("\x00", "😀", "é", "ctrl+é", "\t"):
        obs, r, term, trunc, info = env.step({"type": "key", "keys": keys})
        assert obs["last_action_error"] and info["status"] == "ok" and not trunc, keys
    with env.session.store() as st:
        item = st.one("SELECT id FROM drive_items WHERE kind = 'file' AND owner = 'alex.chen' AND trashed = 0 ORDER BY id LIMIT 1")["id"]
    obs, r, term, trunc, info = env.step({"type": "navigate", "url": f"/drive/file/{item}/download"})
    assert "download" in obs["last_action_error"] and info["status"] == "ok" and _on_workspace(obs)
    obs, r, term, trunc, info = env.step({"type": "wait", "ms": 0})
    assert info["status"] == "ok" and obs["last_action_error"] == ""


def test_huge_key_and_drag_actions_are_refused_and_every_step_is_bounded(env):
    env.reset()
    obs, r, term, trunc, info = env.step({"type": "key", "keys": " ".join(["a"] * 15_000)})
    assert "at most 2000 characters" in obs["last_action_error"] and info["status"] == "ok"
    obs, r, term, trunc, info = env.step({"type": "key", "keys": " ".join(["Down"] * 51)})
    assert f"at most {A.MAX_KEY_PRESSES}" in obs["last_action_error"] and info["status"] == "ok"
    path = [{"x": 10 + i % 1000, "y": 100 + i % 600} for i in range(300)]
    obs, r, term, trunc, info = env.step({"type": "drag", "path": path})
    assert "path" in obs["last_action_error"] and info["status"] == "ok"
    # The longest actions that are allowed still end within the step deadline.
    longest = {"type": "drag", "path": path[:A.MAX_DRAG_POINTS]}
    obs, r, term, trunc, info = env.step(longest)
    assert info["status"] == "ok"


def test_no_webrtc_and_no_button_or_key_held_across_reset(env):
    env.reset()
    assert env.session.page_call(lambda p: p.evaluate(
        "() => [typeof RTCPeerConnection, typeof webkitRTCPeerConnection, typeof RTCDataChannel]")) == \
        ["undefined"] * 3
    env.session.page_call(lambda p: p.evaluate("""() => { window.__buttons = [];
        document.addEventListener('mousedown', e => window.__buttons.push(e.buttons), true); }"""))
    env.step({"type": "mouse_down", "x": 640, "y": 700, "button": "middle"})
    env.session.page_call(lambda p: p.keyboard.down("Shift"))
    env.reset()
    env.session.page_call(lambda p: p.evaluate("""() => { window.__seen = [];
        document.addEventListener('mousedown', e => window.__seen.push([e.buttons, e.shiftKey]), true); }"""))
    env.step({"type": "click", "x": 640, "y": 700})
    assert env.session.page_call(lambda p: p.evaluate("() => window.__seen")) == [[1, False]]


def test_errors_name_the_public_origin_only(env):
    env.reset()
    real = env.session.desk().server.url
    obs, *_ = env.step({"type": "navigate", "url": "/" + "x" * 8000})
    obs2, *_ = env.step({"type": "navigate", "url": "/" + "x" * 9000})
    assert "at most 8192 characters" in obs2["last_action_error"]
    env.session.page_call(lambda p: p.evaluate("() => { window.open('/drive/my-drive'); }"))
    later = [env.step({"type": "wait", "ms": 50})[0] for _ in range(3)]
    for o in (obs, obs2, *later):
        assert real not in o["last_action_error"] and real not in o["url"]
    assert any("new window" in o["last_action_error"] for o in later)
