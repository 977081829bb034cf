"""The observations beyond the base dict are Gymnasium wrappers, reached through ``gym.make``'s
keyword arguments: for every flag combination the space is the one ``DeskEnv`` had when they
were constructor flags (``old_observation_space`` below is that function, as it was), the
wrappers go on in one order, and ``env.unwrapped`` is the ``DeskEnv``. No browser starts."""
from __future__ import annotations

import itertools
import pickle

import gymnasium as gym
import numpy as np
import pytest
from gymnasium import spaces

import harness
from harness.env import DeskEnv, make_env, observation_space
from harness.env.spaces import AnyText
from harness.env.wrappers import AddAxTree, AddSetOfMarks, HybridTools, PixelsOnly

TASK = "meridian/gross-tonnage"
SCREEN_SHAPE = (800, 1280, 3)


def old_observation_space(*, axtree=False, som=False, obs_mode="dict", tools=False):
    """``harness.env.desk.observation_space`` before the wrappers (step 1 of the refactoring)."""
    if obs_mode not in ("dict", "pixels"):
        raise ValueError(f"obs_mode must be one of ('dict', 'pixels'), not {obs_mode!r}")
    screen = spaces.Box(0, 255, SCREEN_SHAPE, dtype=np.uint8)
    if obs_mode == "pixels":
        if axtree or som:
            raise ValueError('obs_mode="pixels" is the screenshot alone: it cannot carry axtree or som')
        return screen
    obs = {
        "screenshot": screen,
        "url": AnyText(max_length=8192, min_length=0),
        "goal": AnyText(max_length=50_000, min_length=0),
        "last_action_error": AnyText(max_length=8192, min_length=0),
        # Added since, on purpose: the principal's answer to an ask_user action ("" on other steps).
        "user_reply": AnyText(max_length=8192, min_length=0),
    }
    if axtree:
        obs["axtree"] = AnyText(max_length=2_000_000, min_length=0)
    if tools:
        obs["tool_result"] = AnyText(max_length=200_000, min_length=0)
    if som:
        obs["som"] = spaces.Dict({"image": spaces.Box(0, 255, SCREEN_SHAPE, dtype=np.uint8),
                                  "elements": AnyText(max_length=500_000, min_length=0)})
    return spaces.Dict(obs)


FLAGS = [dict(axtree=a, som=s, obs_mode=m, tools=t)
         for a, s, m, t in itertools.product([False, True], [False, True], ["dict", "pixels"], [False, True])]


def _space_or_error(fn, **flags):
    try:
        return fn(**flags)
    except ValueError as e:
        return f"ValueError: {e}"


@pytest.mark.parametrize("flags", FLAGS, ids=lambda f: "-".join(f"{k}={v}" for k, v in f.items()))
def test_every_flag_combination_has_the_space_it_had(flags):
    old = _space_or_error(old_observation_space, **flags)
    assert _space_or_error(observation_space, **flags) == old
    assert repr(_space_or_error(observation_space, **flags)) == repr(old)     # the same order of keys too
    if isinstance(old, str):
        with pytest.raises(ValueError, match="cannot carry axtree or som"):
            make_env(TASK, **flags)
        with pytest.raises(ValueError, match="cannot carry axtree or som"):
            gym.make(harness.ENV_ID, task=TASK, **flags)
        return
    env = gym.make(harness.ENV_ID, task=TASK, **flags)
    try:
        assert env.observation_space == old and isinstance(env.unwrapped, DeskEnv)
        assert make_env(TASK, **flags).observation_space == old
        assert env.spec.kwargs == {"task": TASK, **flags}
        again = env.spec.make()                                  # the spec rebuilds it: no wrapper twice
        assert str(again) == str(env) and again.observation_space == old
    finally:
        env.close()


def _chain(env) -> list[type]:
    out = []
    while env is not env.unwrapped:
        out.append(type(env))
        env = env.env
    return out + [type(env)]


def test_the_wrappers_go_on_in_one_order():
    env = make_env(TASK, tools=True, axtree=True, som=True)
    assert _chain(env) == [AddSetOfMarks, AddAxTree, HybridTools, DeskEnv]
    assert _chain(make_env(TASK, tools=True, obs_mode="pixels")) == [PixelsOnly, HybridTools, DeskEnv]
    assert type(make_env(TASK)) is DeskEnv                        # no flags: the base env itself
    assert env.unwrapped.session.tools                            # HybridTools let tool_call actions through
    assert not DeskEnv(TASK).session.tools
    with pytest.raises(ValueError, match="obs_mode must be one of"):
        make_env(TASK, obs_mode="rgb")
    with pytest.raises(ValueError, match="inside PixelsOnly"):
        AddAxTree(PixelsOnly(DeskEnv(TASK)))


def test_make_vec_reads_the_same_spaces():
    envs = gym.make_vec(harness.ENV_ID, num_envs=2, vectorization_mode="sync", task=TASK, som=True)
    try:
        assert envs.single_observation_space == old_observation_space(som=True)
    finally:
        envs.close()


def test_a_wrapped_env_pickles_without_its_browser():
    env = make_env(TASK, tools=True, som=True)
    copy = pickle.loads(pickle.dumps(env))
    assert copy.observation_space == env.observation_space and not copy.unwrapped.session.running
    assert copy.unwrapped.session.tools
