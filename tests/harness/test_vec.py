"""DeskEnv in Gymnasium vector envs: task pools drawn by seed, pickling without a
browser, text through shared memory, and ``make_vec`` with two async sub-envs
(dict and pixels observations)."""
from __future__ import annotations

import pickle

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.vector.utils import create_shared_memory, read_from_shared_memory, write_to_shared_memory

import harness
from harness.env import DeskEnv, make_env
from harness.env.spaces import AnyText

CORVANE, PELAGIC = "meridian/corvane-deductible", "meridian/pelagic-hearing-date"
TASKS = [CORVANE, PELAGIC]
ANSWERS = {CORVANE: "ANSWER: $2,500,000", PELAGIC: "ANSWER: 2026-04-28"}
SPAWN = {"context": "spawn"}           # the test process may run browsers: never fork it (DeskEnv docstring)


def draws(env: DeskEnv, seed: int, n: int = 8) -> list[str]:
    """The tasks ``n`` resets would run after ``reset(seed=seed)``, without starting a browser."""
    gym.Env.reset(env, seed=seed)
    return [env._pick_task(None).id for _ in range(n)]


def test_a_task_pool_is_drawn_by_seed_and_the_env_pickles_without_its_browser():
    env = DeskEnv(tasks=TASKS)
    assert [t.id for t in env.tasks] == TASKS and env.task is None
    assert draws(env, 0) == draws(env, 0) and set(draws(env, 0)) == set(TASKS)
    assert draws(env, 0) != draws(env, 1)
    assert env._pick_task({"task": PELAGIC}).id == PELAGIC
    assert [t.id for t in DeskEnv(tasks="meridian/corvane-*").tasks] == [CORVANE]
    copy = pickle.loads(pickle.dumps(env))
    assert not copy.session.running and draws(copy, 0) == draws(env, 0)
    with pytest.raises(ValueError, match="either task= .* or tasks="):
        DeskEnv()
    with pytest.raises(ValueError, match="pixels"):
        make_env(CORVANE, obs_mode="pixels", axtree=True)


def test_text_goes_through_shared_memory_as_a_live_view():
    space = AnyText(max_length=64, min_length=0)
    mem = create_shared_memory(space, n=2)
    view = read_from_shared_memory(space, mem, n=2)            # read once, as AsyncVectorEnv does
    write_to_shared_memory(space, 0, "http://desk.local/chat — Zoë 😀", mem)
    write_to_shared_memory(space, 1, "", mem)
    assert tuple(view) == ("http://desk.local/chat — Zoë 😀", "")
    write_to_shared_memory(space, 0, "/mail", mem)
    assert view[0] == "/mail" and pickle.loads(pickle.dumps(view)) == ("/mail", "")


@pytest.mark.browser
def test_make_vec_async_draws_tasks_by_seed_scores_and_autoresets():
    envs = gym.make_vec(harness.ENV_ID, num_envs=2, vectorization_mode="async", tasks=TASKS, vector_kwargs=SPAWN)
    try:
        obs, info = envs.reset(seed=3)
        first = list(info["task"])
        assert obs["screenshot"].shape == (2, 800, 1280, 3) and obs["screenshot"].dtype == np.uint8
        assert obs in envs.observation_space and all(u.startswith("http://desk.local/") for u in obs["url"])
        obs, reward, term, trunc, info = envs.step([{"type": "done", "answer": ANSWERS[t]} for t in first])
        assert list(reward) == [1.0, 1.0] and term.all() and not trunc.any()
        assert info["_result"].all() and list(info["result"]["passed"]) == [True, True]
        # Next-step autoreset: the action is ignored, each sub-env starts its next (drawn) task.
        obs, reward, term, trunc, info = envs.step([{"type": "wait", "ms": 0}] * 2)
        assert list(reward) == [0.0, 0.0] and not term.any() and list(info["step"]) == [0, 0]
        assert info["_task"].all()
        obs, info = envs.reset(seed=3)                           # the same seed replays the same tasks
        assert list(info["task"]) == first
    finally:
        envs.close()


@pytest.mark.browser
def test_make_vec_pixels_batches_screenshots_and_keeps_the_goal_in_info():
    envs = gym.make_vec(harness.ENV_ID, num_envs=2, vectorization_mode="async", tasks=TASKS, obs_mode="pixels",
                        vector_kwargs=SPAWN)
    try:
        assert envs.single_observation_space == gym.spaces.Box(0, 255, (800, 1280, 3), np.uint8)
        obs, info = envs.reset(seed=0, options={"task": PELAGIC})
        assert isinstance(obs, np.ndarray) and obs.shape == (2, 800, 1280, 3) and obs in envs.observation_space
        assert list(info["task"]) == [PELAGIC] * 2 and info["goal"][0].startswith("Owen asked")
        assert list(info["url"]) == ["http://desk.local/chat/c/1"] * 2
        obs, reward, term, _, info = envs.step([{"type": "done", "answer": ANSWERS[PELAGIC]},
                                                {"type": "click", "x": 5000, "y": 0}])
        assert list(reward) == [1.0, 0.0] and list(term) == [True, False]
        assert "outside the screen" in info["last_action_error"][1]
    finally:
        envs.close()
