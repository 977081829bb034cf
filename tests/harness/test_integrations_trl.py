"""``harness.integrations.trl``: the TRL spec's environment class and reward functions on a real
``DeskEnv`` (no TRL here; ``examples/trl`` runs them through TRL's own ``GRPOTrainer``)."""
from __future__ import annotations

import inspect

import pytest
from PIL import Image

from harness.agents.oracle import OracleAgent
from harness.integrations.trl import DeskworldEnv, DeskworldSpec, passed_reward, score_reward
from harness.servers.envserver import EnvServer
from harness.servers.remote import RemoteError
from harness.tasks.registry import TaskError

TASK = "meridian/corvane-deductible"      # an answer task: the oracle is six actions
SIZE = (640, 400)                         # half the browser's 1280×800: points map back within a pixel
SCREEN_TOOLS = {"click", "double_click", "triple_click", "move", "drag", "scroll", "type", "key", "wait",
                "navigate", "back", "done"}


def tools_of(cls) -> set[str]:
    """The tools TRL makes of an environment class (``GRPOTrainer``: public class-level functions)."""
    return {n for n, _ in inspect.getmembers(cls, predicate=inspect.isfunction)
            if not n.startswith("_") and n not in ("reset", "get_reward")}


@pytest.fixture(scope="module")
def spec():
    return DeskworldSpec(TASK, seeds=[0, 1], image_size=SIZE, tools=True)      # a hybrid episode: Drive's tools too


@pytest.fixture(scope="module")
def env(spec):
    e = spec.environment_factory()
    yield e
    e._env.close()


def test_construction_launches_nothing_and_exposes_the_tools():
    spec = DeskworldSpec(TASK, seeds=[0, 1], image_size=SIZE)
    cls = spec.environment_factory
    assert issubclass(cls, DeskworldEnv) and cls is spec.environment_factory      # cached, one class per spec
    probe = cls()
    # What TRL does with its probe instance at init: every attribute read, properties evaluated.
    methods = dict(inspect.getmembers(probe, predicate=inspect.ismethod))
    assert "reset" in methods and "get_reward" not in methods
    assert probe._env is None and probe.result is None and probe.reward == 0.0
    assert tools_of(cls) == SCREEN_TOOLS          # corvane-deductible names no principal: no ask_user
    for name in SCREEN_TOOLS:
        fn = getattr(cls, name)
        hints = {k for k in fn.__annotations__ if k != "return"}
        params = set(inspect.signature(fn).parameters) - {"self"}
        assert params == hints, name                              # get_json_schema needs every hint
        assert all(f"{p}:" in fn.__doc__.split("Args:")[-1] for p in params), name     # and an Args: line


def test_rows_are_one_per_task_and_seed(spec):
    assert spec.rows() == [{"prompt": [{"role": "user", "content": ""}], "task": TASK, "seed": s,
                            "world": "meridian"} for s in (0, 1)]
    assert spec.reward_funcs == [score_reward]
    instances = DeskworldSpec(TASK, split="train", per_family=2, seeds=[7]).rows()
    assert len(instances) == 2 and all(r["task"].startswith(TASK + "/v") and r["seed"] == 7 for r in instances)
    assert len(DeskworldSpec(TASK, seeds=[0, 1, 2], num_tasks=2).rows()) == 2
    assert DeskworldSpec(TASK, rewards=("passed", "score")).reward_funcs == [passed_reward, score_reward]


def test_tools_bind_on_their_own_spec_only():
    hybrid = DeskworldSpec(TASK, tools=True).environment_factory
    plain = DeskworldSpec(TASK).environment_factory
    app_tools = tools_of(hybrid) - SCREEN_TOOLS
    assert {"drive_search", "drive_read"} <= app_tools and all(t.startswith("drive_") for t in app_tools)
    assert tools_of(plain) == SCREEN_TOOLS and tools_of(DeskworldEnv) == SCREEN_TOOLS
    search = hybrid.drive_search
    assert list(inspect.signature(search).parameters) == ["self", "q", "limit"]
    assert search.__annotations__["q"] is str and "Args:\n    q: Words to look for" in search.__doc__
    assert inspect.signature(search).parameters["limit"].default is None       # optional: the tool's default
    assert hybrid().drive_search.__func__ is search                              # probe sees the same function
    with_principal = DeskworldSpec("meridian/billing-day").environment_factory
    assert "ask_user" in tools_of(with_principal)
    ask = with_principal.ask_user
    assert list(inspect.signature(ask).parameters) == ["self", "text"] and ask.__name__ == "ask_user"
    assert "Args:\n            text: The question." in ask.__doc__


def test_bad_input_is_named():
    with pytest.raises(TaskError, match="no task 'meridian/no-such-task'"):
        DeskworldSpec("meridian/no-such-task")
    with pytest.raises(TaskError, match="unknown split 'tran'"):
        DeskworldSpec(TASK, split="tran")
    with pytest.raises(ValueError, match="rewards: choose among"):
        DeskworldSpec(TASK, rewards="accuracy")
    with pytest.raises(TypeError, match=r"seeds=\[3\]"):
        DeskworldSpec(TASK, seeds=3)
    with pytest.raises(ValueError, match="image_size is"):
        DeskworldSpec(TASK, image_size=(10, 10))
    with pytest.raises(TypeError, match="environment_factory"):
        DeskworldEnv()
    with pytest.raises(ValueError, match="no tool carries out a 'mouse_down'"):
        DeskworldSpec(TASK).tool_call({"type": "mouse_down", "x": 1, "y": 2})
    with pytest.raises(ValueError, match="the click tool takes no modifiers"):
        DeskworldSpec(TASK).tool_call({"type": "click", "x": 1, "y": 2, "modifiers": ["ctrl"]})
    probe = DeskworldSpec(TASK).environment_factory()
    with pytest.raises(RuntimeError, match="call reset"):
        probe.click(1, 2)
    with pytest.raises(ValueError, match="needs the row's task id"):
        probe.reset(prompt=[], seed=0)
    with pytest.raises(ValueError, match="environment_factory"):
        score_reward(prompts=["p"])
    with pytest.raises(ValueError, match="AsyncGRPOTrainer passes none"):
        passed_reward(environment_reward=[1.0])


def test_points_map_between_the_model_screenshot_and_the_screen():
    """tool_call maps a screen point into the model's screenshot and the tools map it back (``Screen``)."""
    spec = DeskworldSpec(TASK, image_size=SIZE)
    probe = spec.environment_factory()                      # before any reset: the browser's 1280×800
    for x, y in [(0, 0), (641, 399), (1279, 799)]:
        call = spec.tool_call({"type": "click", "x": x, "y": y})
        assert call["name"] == "click" and 0 <= call["arguments"]["x"] < 640 and 0 <= call["arguments"]["y"] < 400
        back = probe._point(call["arguments"]["x"], call["arguments"]["y"])
        assert abs(back["x"] - x) <= 1 and abs(back["y"] - y) <= 1, (x, y, call, back)
    drag = spec.tool_call({"type": "drag", "path": [{"x": 100, "y": 200}, {"x": 300, "y": 201}]})
    assert drag == {"name": "drag", "arguments": {"start_x": 50, "start_y": 100, "end_x": 150, "end_y": 100}}
    assert spec.tool_call({"type": "scroll", "x": 640, "y": 400, "dy": 300})["arguments"] == {
        "x": 320, "y": 200, "dx": 0, "dy": 150}
    with pytest.raises(ValueError, match="not along 3 points"):
        spec.tool_call({"type": "drag", "path": [{"x": 1, "y": 1}] * 3})


def _oracle_run(spec, env) -> list:
    """The task's oracle, its actions sent through the environment's tools (as a model's tool calls)."""
    oracle = OracleAgent(env._env)
    oracle.reset(env._env.unwrapped.task)
    outs = []
    while env.result is None:
        call = spec.tool_call(oracle.act({}), screen=env._view.source)
        outs.append(getattr(env, call["name"])(**call["arguments"]))
        assert len(outs) < 20, "the oracle did not end the episode"
    return outs


@pytest.mark.browser
def test_reset_tools_and_rewards_on_a_real_env(spec, env):
    row = spec.rows()[0]
    first = env.reset(**row)                                  # TRL passes the whole row, prompt included
    image, text = first
    assert image["type"] == "image" and isinstance(image["image"], Image.Image) and image["image"].size == SIZE
    assert len(image["image"].getcolors(SIZE[0] * SIZE[1])) > 20          # the page itself, not a blank frame
    assert text["type"] == "text" and "Corvane" in text["text"] and "URL: http://desk.local/drive/" in text["text"]
    assert "640×400 pixels" in text["text"]

    # Bad arguments: a point outside the model's screenshot is refused, naming the argument; a bad key
    # goes to the env, which reports it (and the episode goes on).
    with pytest.raises(ValueError, match=r"x=640 is outside the screenshot \(0\.\.639\)"):
        env.click(640, 10)
    with pytest.raises(ValueError, match="y must be a whole number"):
        env.move(3, "up")
    out = env.key("NoSuchKey")
    assert out[0]["image"].size == SIZE and "Error: unknown key 'NoSuchKey'" in out[1]["text"]
    # An app's tool (tools=True): its result comes back as text beside the screenshot; a bad argument
    # is the tool's refusal, naming it.
    out = env.drive_search(q="harbor crest declarations")
    assert out[0]["type"] == "image" and "Result: " in out[1]["text"]
    assert "Harbor Crest Marine Liability Policy" in out[1]["text"]
    out = env._call_app_tool("drive.search", {"query": "x"})
    assert "Error: " in out[1]["text"] and "unknown argument 'query'" in out[1]["text"]

    # The oracle, replayed through the tools: score 1.
    env.reset(**row)
    outs = _oracle_run(spec, env)
    assert [o[0]["type"] for o in outs] == ["image"] * len(outs)
    assert "The episode is over (done was called)" in outs[-1][1]["text"]
    assert env.result["passed"] is True
    assert score_reward(environments=[env]) == [1.0] and passed_reward(environments=[env]) == [1.0]
    # Once over, the tools act no more.
    assert env.click(5, 5) == [{"type": "text", "text": "The episode is over (done was called); "
                                                        "no more actions are taken."}]

    # A reset that fails leaves nothing of the last episode's verdict to read (it scored 1 above).
    with pytest.raises(TaskError, match="no task 'meridian/no-such-task'"):
        env.reset(task="meridian/no-such-task", seed=0)
    assert env.result is None and score_reward(environments=[env]) == [0.0] and passed_reward(environments=[env]) == [0.0]
    assert "its reset failed" in env.click(5, 5)[0]["text"]

    # Doing nothing: done without an answer scores 0, and so does a rollout that never calls done.
    env.reset(**spec.rows()[1])
    assert env.result is None and score_reward(environments=[env]) == [0.0]
    env.done()
    assert env.result is not None and env.result["passed"] is False
    assert score_reward(environments=[env]) == [0.0] and passed_reward(environments=[env]) == [0.0]

    # The browser dies mid-episode: the environment failed, not the policy, so no reward (None: TRL
    # leaves the rollout out of the group's baseline) rather than a 0 the policy would learn from.
    env.reset(**row)
    session = env._env.unwrapped.session
    session.call(lambda: session.browser.close())
    assert "The episode is over (the environment failed)" in env.click(5, 5)[1]["text"]
    assert env.result["status"] == "error" and env.reward is None
    assert score_reward(environments=[env]) == [None] and passed_reward(environments=[env]) == [None]


def test_tools_on_an_env_server_need_its_tools():
    """tools=True with server=: a server started without --tools is named when the spec is made (its
    sessions would refuse every tool call), as is one that isn't there."""
    server = EnvServer(port=0, capacity=1, idle_timeout=None, tasks=TASK).start()     # no browser until a session
    try:
        with pytest.raises(ValueError, match=r"tools=True: the env server at http://\S+ serves no app tools; "
                                             r"start it with --tools"):
            DeskworldSpec(TASK, tools=True, server=server.url)
        assert DeskworldSpec(TASK, server=server.url).server == server.url           # without tools: fine
    finally:
        server.shutdown()
    with pytest.raises(RemoteError, match="cannot reach a deskworld env-server at http://127.0.0.1:9"):
        DeskworldSpec(TASK, tools=True, server="http://127.0.0.1:9")


@pytest.mark.browser
def test_episodes_on_an_env_server():
    server = EnvServer(port=0, capacity=1, idle_timeout=None, tasks=TASK, tools=True).start()
    try:
        spec = DeskworldSpec(TASK, server=server.url, image_size=SIZE, tools=True)
        env = spec.environment_factory()
        assert env._env is None                                     # no session before the first reset
        image, text = env.reset(**spec.rows()[0])
        assert image["image"].size == SIZE and "URL: http://desk.local/drive/my-drive" in text["text"]
        # An app's tool, carried out by the server's session (a tool_call step there).
        out = env.drive_search(q="harbor crest declarations")
        assert out[0]["type"] == "image" and "Harbor Crest Marine Liability Policy" in out[1]["text"]
        out = env.done(answer="It is $2,500,000. ANSWER: $2,500,000")
        assert "The episode is over (done was called)" in out[1]["text"]
        assert score_reward(environments=[env]) == [1.0] and passed_reward(environments=[env]) == [1.0]
        env._env.close()
    finally:
        server.shutdown()
