"""Co-workers inside real episodes: the reply shows up on the page within the
episode, only because of what the agent did, and the same actions give the
same final state byte for byte."""
from __future__ import annotations

import json

import pytest

from apps import create_app
from apps.core.store.export import export
from harness.agents import make
from harness.env import DeskEnv
from harness.runs.episode import run_episode
from harness.tasks.registry import load_task

pytestmark = pytest.mark.browser

TASK = "meridian/answer-laura-deductible"


def _final(env) -> bytes:
    initial, final, diff = env.unwrapped.session.final_state()
    return json.dumps({"final": final, "diff": diff}, sort_keys=True, ensure_ascii=False).encode()


def test_an_oracle_episode_with_a_coworker_replays_byte_for_byte():
    task = load_task(TASK)
    env = DeskEnv(task)
    try:
        first = run_episode(env, make("oracle", env=env), task)
        a = _final(env)
        second = run_episode(env, make("oracle", env=env), task)
        b = _final(env)
        session = env.unwrapped.session
        refreshes = session.driver.refreshes
        shot = session.call(session.driver.screenshot)
    finally:
        env.close()
    assert first["passed"] and second["passed"]
    assert a == b
    diff = json.loads(a)["diff"]["tables"]["chat_messages"]["added"]
    assert [(r["actor"], r["record"]["author"]) for r in diff] == [("agent", "alex.chen"),
                                                                    ("laura.whitfield", "laura.whitfield")]
    assert refreshes >= 1 and shot[:8] == b"\x89PNG\r\n\x1a\n"


def test_doing_nothing_wakes_nobody():
    task = load_task(TASK)
    env = DeskEnv(task)
    try:
        env.reset()
        for _ in range(3):
            env.step({"type": "scroll", "x": 600, "y": 400, "dx": 0, "dy": 200})
        initial, final, diff = env.unwrapped.session.final_state()
        refreshes = env.unwrapped.session.driver.refreshes
    finally:
        env.close()
    assert "chat_messages" not in diff["tables"] and refreshes == 0


def test_serve_mode_ticks_after_a_write_and_tells_htmx(template):
    from apps.core.store.slot import Slot
    slot = Slot(template)
    app = create_app({"SLOT": slot, "AUTO_LOGIN": True, "TICK_ON_REQUEST": True})
    client = app.test_client()
    with slot.store() as st:
        conv = st.one("SELECT c.id FROM chat_conversations c JOIN chat_members m ON m.conversation=c.id "
                      "WHERE c.kind='dm' AND m.person='priya.raman'")["id"]
    client.get("/chat/")
    resp = client.post(f"/chat/c/{conv}/messages", data={"text": "Which case do we cite for gross negligence?"},
                       headers={"HX-Request": "true", "X-Requested-By": "deskworld"})
    assert resp.status_code == 200 and resp.headers.get("HX-Trigger") == "deskworld:refresh"
    with slot.store() as st:
        [reply] = st.select("chat_messages", "conversation=? AND author='priya.raman' AND text LIKE '%Grayling%'",
                            (conv,))
        assert export(st)["tables"]["chat_messages"]["records"][str(reply["id"])]["author"] == "priya.raman"
    resp = client.get("/chat/")                                       # reads never tick
    assert "HX-Trigger" not in resp.headers
    slot.close()


def test_gallery_takes_a_named_shot(tmp_path):
    from concurrent.futures import ThreadPoolExecutor

    from harness.bench.gallery import take
    with ThreadPoolExecutor(1) as pool:               # its own thread: Playwright's sync API is per thread
        [path] = pool.submit(take, tmp_path, ["tickets-list.png"]).result()
    assert path.name == "tickets-list.png" and path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
