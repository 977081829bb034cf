"""The BrowserGym adapter, in its own virtualenv (``make test``): browsergym-core 0.14.3 and
its Playwright 1.44 driving the Chromium deskworld finds.

Envs are made the way AgentLab's ``EnvArgs.make_env`` makes them (``gym.make`` with the
agent's action mapping, ``max_episode_steps``, no env checker)."""
from __future__ import annotations

import re

import gymnasium as gym
import pytest
from browsergym.core.action.highlevel import HighLevelActionSet
from browsergym.utils.obs import flatten_axtree_to_str

import deskworld_browsergym as dbg
from harness.tasks.registry import all_tasks, load_task
from harness.tasks.schema import ANSWER_SENTENCE

ACTIONS = HighLevelActionSet(subsets=["chat", "infeas", "bid", "coord", "nav"], multiaction=False)


def make(task_id: str, **kwargs):
    """As ``browsergym.experiments.EnvArgs.make_env`` does for ``task_name=deskworld.<world>.<task>``."""
    return gym.make(dbg.gym_id(task_id), disable_env_checker=True, max_episode_steps=30, headless=True,
                    wait_for_user_message=False, action_mapping=ACTIONS.to_python_code, **kwargs)


def bid(obs, pattern: str) -> str:
    """The BrowserGym element id of the first axtree line matching ``pattern``."""
    tree = flatten_axtree_to_str(obs["axtree_object"])
    m = re.search(r"\[([^\]]+)\] " + pattern, tree)
    assert m, f"{pattern!r} not in the page's accessibility tree:\n{tree[:3000]}"
    return m.group(1)


# ---------------------------------------------------------------------------- no browser
def test_every_task_is_registered():
    ids = {dbg.gym_id(t.id) for t in all_tasks()}
    assert ids == set(dbg.TASK_IDS)
    assert "browsergym/deskworld.meridian.corvane-deductible" in gym.registry
    assert ids <= set(gym.registry)


def test_deskworld_actions_become_browsergym_actions():
    origin = "http://127.0.0.1:5000"
    to = dbg.to_browsergym_action
    assert to({"type": "click", "x": 10, "y": 20}, origin) == "mouse_click(10, 20, 'left')"
    assert to({"type": "key", "keys": "ctrl+a Return"}, origin) == "keyboard_press('Control+a')\nkeyboard_press('Enter')"
    assert to({"type": "type", "text": 'say "hi"'}, origin) == "keyboard_type('say \"hi\"')"
    assert to({"type": "scroll", "x": 5, "y": 6, "dx": 0, "dy": 300}, origin) == "scroll_at(5, 6, 0, 300)"
    assert to({"type": "navigate", "url": "/mail/inbox"}, origin) == "goto('http://127.0.0.1:5000/mail/inbox')"
    drag = to({"type": "drag", "path": [{"x": 0, "y": 0}, {"x": 10, "y": 20}]}, origin)
    assert drag.splitlines() == ["mouse_down(0, 0)", "mouse_move(5, 10)", "mouse_move(10, 20)", "mouse_up(10, 20)"]
    with pytest.raises(ValueError):
        to({"type": "navigate", "url": "https://example.com/"}, origin)
    # Every one of them is an action BrowserGym parses.
    for line in drag.splitlines():
        dbg.ACTION_SET.to_python_code(line)


def test_the_agents_last_chat_message_ends_the_episode():
    greeting = {"role": "assistant", "message": "Hi! I am your UI assistant"}
    goal = {"role": "user", "message": "What deductible…"}
    assert dbg.agent_reply([greeting, goal]) is None
    assert dbg.agent_reply([greeting, goal, {"role": "assistant", "message": "ANSWER: 1"}])["message"] == "ANSWER: 1"
    assert dbg.agent_reply([greeting, goal, {"role": "infeasible", "message": "no"}])["role"] == "infeasible"
    assert dbg.agent_reply([{"role": "assistant", "message": "ANSWER: 1"}])["message"] == "ANSWER: 1"   # a cheat's list


# ---------------------------------------------------------------------------- in the browser
def test_reset_shows_the_start_page_actions_make_progress_and_the_answer_is_graded():
    task = load_task("meridian/corvane-deductible")
    env = make(task.id)
    try:
        obs, info = env.reset(seed=0)
        assert obs["url"].endswith("/drive/my-drive")
        assert obs["goal"] == task.goal and obs["goal"].endswith(ANSWER_SENTENCE)
        assert obs["screenshot"].shape == (800, 1280, 3)
        assert info["task_info"]["deskworld_task"] == task.id
        search = bid(obs, r"(?:textbox|searchbox|combobox) 'Search in Drive'")

        obs, reward, terminated, truncated, info = env.step(f"fill({search!r}, 'harbor crest')")
        assert obs["last_action_error"] == ""
        obs, reward, terminated, truncated, info = env.step("keyboard_press('Enter')")
        assert obs["last_action_error"] == ""
        assert (reward, terminated) == (0.0, False)
        assert info["task_info"]["step"] == 2
        assert "harbor" in obs["url"].lower()                     # the search ran in the app
        # The page is still laid out at the viewport the screenshots show (fix_screenshot_viewport).
        assert env.unwrapped.page.evaluate("() => [innerWidth, innerHeight]") == [1280, 800]
        bid(obs, r"link 'Harbor Crest Marine Liability Policy – Declarations\.pdf'")

        obs, reward, terminated, truncated, info = env.step('send_msg_to_user("The deductible is $2.5m. ANSWER: $2,500,000")')
        assert terminated and reward == 1.0
        result = info["task_info"]["result"]
        assert result["passed"]
        assert any("2,500,000" in line for line in result["lines"])
    finally:
        env.close()


def test_cheat_runs_the_oracle_and_validate_scores_one():
    env = make("meridian/pelagic-hearing-date")
    try:
        env.reset(seed=0)
        bgenv = env.unwrapped
        start_url = bgenv.page.url
        messages: list[dict] = []                           # as WorkArena's cheats are called
        bgenv.task.cheat(bgenv.page, messages)
        assert bgenv.page.url != start_url                  # the oracle acted in the page (it opened the channel)
        assert messages == [{"role": "assistant", "message": "ANSWER: 2026-04-28"}]
        reward, done, user_message, info = bgenv.task.validate(bgenv.page, messages)
        assert (reward, done) == (1.0, True)
        assert info["result"]["passed"]
    finally:
        env.close()


def test_doing_nothing_scores_zero():
    env = make("meridian/pelagic-hearing-date", task_kwargs={"max_steps": 2})
    try:
        obs, info = env.reset(seed=0)
        start = obs["url"]
        # Leaving the workspace goes nowhere (the dead proxy) and the page is brought back.
        obs, reward, terminated, truncated, info = env.step("goto('http://example.com/')")
        assert (reward, terminated) == (0.0, False)
        assert obs["url"] == start
        assert info["task_info"]["blocked"] and "outside the workspace" in obs["chat_messages"][-1]["message"]
        obs, reward, terminated, truncated, info = env.step("noop(0)")
        assert terminated and reward == 0.0                  # max_steps: graded all the same
        assert info["task_info"]["truncated"]
        assert not info["task_info"]["result"]["passed"]
        # Same env, next episode: a fresh start state, and an answer that is wrong scores 0.
        obs, info = env.reset(seed=1)
        obs, reward, terminated, truncated, info = env.step('report_infeasible("I cannot find it")')
        assert terminated and reward == 0.0
    finally:
        env.close()


def test_a_message_that_asks_is_ask_user_and_the_principal_answers_in_the_chat():
    env = make("lumen/lineage-addon-agreed-amount", task_kwargs={"max_steps": 5})
    question = 'send_msg_to_user("ASK_USER: What figure did you and Miguel agree for the Harrowgate Lineage add-on?")'
    try:
        answers = []
        for seed in (0, 0):                                  # the same question, the same answer, byte for byte
            obs, info = env.reset(seed=seed)
            obs, reward, terminated, truncated, info = env.step(question)
            assert (reward, terminated) == (0.0, False)      # asking doesn't end the episode
            assert info["task_info"]["asked"].startswith("What figure did you and Miguel agree")
            last = obs["chat_messages"][-1]
            assert last["role"] == "user" and last["message"].startswith("Elise Moreau: $")
            assert "Miguel's sending Greta the quote today" in last["message"]
            answers.append(last["message"])
        assert answers[0] == answers[1]
        obs, reward, terminated, truncated, info = env.step('send_msg_to_user("Done.")')
        assert terminated and reward == 0.0                  # an answer without the CRM change
    finally:
        env.close()
