"""Checkpoints, milestone rewards and ``ask_user`` (harness.verify.milestones, apps.coworkers.principal).

Without a browser: the schema's rules, partial credit, milestones judged step by step on a live
store (the rewards sum to the score), the principal's answers (the same question, the same bytes).
In a browser: the oracle of a checkpointed task reaches every checkpoint in order with rewards that
sum to 1, the first half of its actions scores strictly between 0 and 1 and fails, the env server
and a vector env return the same milestone rewards, and a task that needs a question fails when
the agent guesses and passes when it asks.
"""
from __future__ import annotations

import gymnasium as gym
import pytest
from pydantic import ValidationError

from apps.core.store.export import export
from harness.agents.oracle import OracleAgent
from harness.env import DeskEnv, make_env
from harness.qc.adversaries.workbench import Workbench
from harness.tasks.registry import load_task
from harness.tasks.schema import Task
from harness.verify.milestones import Milestones

LONG = "lumen/onboard-nico"                        # five checkpoints, a gate, Elise as the principal
ASK = "lumen/lineage-addon-agreed-amount"          # the figure only Elise knows


def _task(**over) -> dict:
    base = {"revision": 1, "title": "t", "apps": ["crm"], "prompt": "p", "oracle": [{"done": {}}],
            "checkpoints": [{"name": "a", "checks": [{"absent": {"table": "crm_leads", "where": {"id": 0}}}]}]}
    return {**base, **over}


@pytest.mark.parametrize("over, says", [
    ({"checkpoints": [{"name": "a", "checks": [{"python": "x:y"}]}, {"name": "b", "after": ["c"], "checks": [{"python": "x:y"}]}]},
     "after 'c', which is not an earlier checkpoint"),
    ({"checkpoints": [{"name": "a", "checks": [{"python": "x:y"}]}, {"name": "a", "checks": [{"python": "x:y"}]}]},
     "listed twice"),
    ({"checks": [{"python": "x:y"}]}, "top-level checks are gates"),
    ({"answer": {"type": "number", "value": 3}}, "give it a checkpoint with answer: true"),
    ({"checkpoints": [{"name": "a"}]}, "needs checks (or answer: true)"),
    ({"rubric": [{"name": "r", "check": {"python": "x:y"}}]}, "checkpoints or by a rubric, not both"),
])
def test_the_schema_says_what_is_wrong_with_checkpoints(over, says):
    with pytest.raises(ValidationError, match=says.replace("(", r"\(").replace(")", r"\)")):
        Task.model_validate(_task(**over))


def test_the_long_tasks_checkpoints_load():
    t = load_task(LONG)
    assert [c.name for c in t.checkpoints] == ["laptop", "first-access", "second-access", "session", "welcome"]
    assert t.principal.person == "elise.moreau" and not t.rubric and all(s.get("gate") for s in t.checks)


def test_partial_credit_is_the_weighted_share_of_checkpoints_reached():
    t = load_task(LONG)
    bench = Workbench("lumen")
    try:
        steps = [s for s in t.solution if s.done is None]
        full = bench.score(t, bench.attempt(t, t.solution))
        assert full.passed and full.score == 1.0 and all(c["reached"] for c in full.checkpoints)
        nothing = bench.score(t, bench.attempt(t, []))
        assert not nothing.passed and nothing.score == 0.0
        # The laptop and the first access request only (the search, the read, the catalogue before them).
        part = bench.score(t, bench.attempt(t, steps[:5]))
        reached = [c["name"] for c in part.checkpoints if c["reached"]]
        assert reached == ["laptop", "first-access"] and not part.passed and part.score == pytest.approx(2 / 5)
        assert any(line.startswith("✗ checkpoint session") for line in part.lines)
    finally:
        bench.close()


def _step_by_step(bench, t, steps, then=None):
    """``steps`` one agent step at a time on a fresh slot, the milestones judged after each (``then(st)``
    once they are done); the rewards, the checkpoints in the order reached, the tracker, the verdict."""
    from apps.core.store.export import diff
    from harness.verify import verify
    ms = Milestones(t, bench.world.root)
    rewards, order = [], []
    with bench.fresh(t) as st:
        for i, s in enumerate(steps, 1):
            bench.run_steps(st, t, [s])
            r, new = ms.after_step(i, st, bench.initial)
            rewards.append(r)
            order += new
        if then is not None:
            then(st)
        final = export(st)
    result = verify(t, bench.initial, final, diff(bench.initial, final), world_root=bench.world.root)
    return rewards, order, ms, result


def test_milestones_on_a_live_store_pay_each_checkpoint_once_and_sum_to_the_score():
    t = load_task(LONG)
    bench = Workbench("lumen")
    try:
        rewards, order, ms, result = _step_by_step(bench, t, [s for s in t.solution if s.done is None])
        last, _ = ms.finish(len(rewards) + 1, result)
        assert order == [c.name for c in t.checkpoints] and ms.in_order()
        assert sum(rewards) == pytest.approx(1.0) and last == pytest.approx(0.0)
        assert sum(rewards) + last == pytest.approx(result.score) == 1.0
        assert sorted(set(rewards) - {0.0}) == [pytest.approx(0.2)]            # five equal weights
        assert [c["at_step"] for c in result.checkpoints] == [ms.reached[c.name] for c in t.checkpoints]
    finally:
        bench.close()


def test_a_milestone_undone_before_the_end_is_taken_back_on_the_last_step():
    t = load_task(LONG)
    bench = Workbench("lumen")

    def empty_the_request(st):                         # the laptop request emptied again: nothing holds
        req = st.one("SELECT id FROM tk_requests ORDER BY id DESC")
        st.update("tk_requests", req["id"], "agent", variables={})
    try:
        steps = [s for s in t.solution if s.done is None]
        rewards, _, ms, result = _step_by_step(bench, t, steps[:4], then=empty_the_request)
        assert ms.reached == {"laptop": 4} and sum(rewards) == pytest.approx(0.2)
        last, _ = ms.finish(5, result)
        assert result.score == 0.0 and last == pytest.approx(-0.2) and sum(rewards) + last == pytest.approx(0.0)
        assert result.checkpoints[0]["undone_after"] == 4
    finally:
        bench.close()


COMPOSITE = "lumen/mondays-backlog"               # three tasks in one day, Elise's message mid-morning
ACTION_COST = {"fill": 3, "expect": 0, "expect_url": 0}  # a fill is click, select-all, type


def test_a_composite_takes_its_parts_work_checkpoints_and_their_own_adversaries():
    t = load_task(COMPOSITE)
    parts = [load_task(f"lumen/{p}") for p in ("onboard-nico", "triage-five-new-incidents", "qualify-new-leads")]
    names = [c.name for c in t.checkpoints]
    assert names[:5] == [f"nico-{c.name}" for c in parts[0].checkpoints]
    assert names[5:12] == [*(f"triage-{n}" for n in range(1, 7)), "triage-done"]
    assert names[12:] == [*(f"leads-{n}" for n in range(1, 8)), "leads-done", "nico-in-revops"]
    assert 10 <= len(t.checkpoints) <= 30
    assert t.checkpoints[names.index("triage-done")].after == [f"triage-{n}" for n in range(1, 7)]
    # Every part's gates stay gates, bound to the part's checkpoints; its oracle and solution come in
    # order, each part from its start page.
    assert [c["name"] for c in t.checks] == [g["name"] for p in parts for g in p.checks if g.get("gate")]
    for g in t.checks:
        short = g["binds"][0].split("-")[0]
        assert g["gate"] and g["binds"] == [c.name for c in t.checkpoints[:-1] if c.name.startswith(short + "-")]
    gotos = [s.goto for s in t.oracle if s.goto is not None]
    assert gotos[0] == "/mail/inbox" and sum(ACTION_COST.get(s.kind, 1) for s in t.oracle) >= 150
    assert t.max_steps >= 3 * sum(ACTION_COST.get(s.kind, 1) for s in t.oracle)
    assert [s.call for s in t.solution if s.call][:3] == [s.call for s in parts[0].solution if s.call][:3]
    # Adversaries on the solved state and those that must fail from the start; not a part's own passes.
    adv = {a.name: a for a in t.adversaries}
    assert "nico:admin-console-too" in adv and "nico:nico-added-to-revops-first" not in adv
    assert t.coworkers == ["elise.moreau:monday-nico-revops"] and t.principal.person == "elise.moreau"


def test_every_part_is_rendered_in_the_composite_s_variant_hand_made_ones_too():
    """quarry-lane-closed-lost is a hand-made task (variant 0 only) with the competitor templated in its
    oracle; inside pipeline-review's instance for another variant it must name that variant's competitor."""
    from pathlib import Path
    from harness.tasks.families import _facts
    from harness.tasks.registry import load_instance, select_instances
    LUMEN = Path(__file__).resolve().parents[2] / "worlds" / "lumen"
    v = next(r for r in select_instances("lumen/pipeline-review")
             if _facts(LUMEN, "lumen", r.variant)["quarry_competitor"] != "Tidewatch")
    want = _facts(LUMEN, "lumen", v.variant)["quarry_competitor"]
    steps = [s.expect.text for s in load_instance(v).oracle if s.expect is not None and s.expect.text
             and "they chose" in s.expect.text]
    assert steps == [f"re:they chose {want}"]


def test_a_part_rule_that_needs_its_work_binds_once_the_part_is_started():
    """hearing-week: no bar date may be left at the draft order's date (a gate of its part, which fails
    at the start). Stopped before that part, the rule doesn't zero the day; a bar date copied instead
    of moved (its part started, its rule broken) does."""
    from harness.qc.adversaries.workbench import Attempt
    from apps.core.store.db import AGENT
    t = load_task("meridian/hearing-week")
    bench = Workbench("meridian")
    try:
        steps = [s for s in t.solution if s.done is None]
        cut = next(i for i, s in enumerate(steps) if s.call == "chat.create_channel")
        early = bench.score(t, bench.attempt(t, steps[:cut]))
        assert not early.passed and 0 < early.score < 1 and not early.zeroed
        # "no bar date left at the draft order's date" fails before the work (the event is there):
        # it binds once its part is started, not on a day that hasn't reached it.
        nothing = bench.score(t, bench.attempt(t, []))
        assert any("draft order's date" in line and "not binding" in line for line in nothing.lines)
        assert not any("draft order's date" in line and "not binding" in line for line in early.lines)
        # The channel made, its message not posted yet: nothing denies the venue, the day isn't zeroed.
        made = bench.score(t, bench.attempt(t, steps[:cut + 1]))
        assert not made.passed and early.score < made.score < 1 and not made.zeroed

        def copy_bar_date(st):
            ev = st.one("SELECT id FROM cal_events WHERE title LIKE 'Claims bar date%' ORDER BY id")
            row = st.get("cal_events", ev["id"])
            st.insert("cal_events", AGENT, **{k: v for k, v in row.items() if k in st.table("cal_events").by_name
                                               and k != "id"})
            bench_row = bench.initial["tables"]["cal_events"]["records"][str(ev["id"])]
            st.update("cal_events", ev["id"], AGENT, start=bench_row["start"], end=bench_row["end"])
        copied = bench.score(t, bench.attempt(t, t.solution, then=copy_bar_date))
        assert not copied.passed and copied.score == 0 and copied.zeroed
    finally:
        bench.close()


def test_blanks_filled_is_a_placeholder_replaced_and_nothing_else():
    from harness.verify.artifacts import blanks_filled
    assert blanks_filled("limit is $[__________].", "limit is $160,600,000.")
    assert blanks_filled("No. 2025-02 [AC: insert rate] to the", "No. 2025-02, namely $2,750 per gross ton, to the")
    assert blanks_filled("by [fund] and [shortfall].", "by $1 and [shortfall].")          # some of them
    assert not blanks_filled("by [fund] and [shortfall].", "by $1 or [shortfall].")      # a word between changed
    assert not blanks_filled("By [fund].", "By $1.\n\nAlso $9m, by the way")           # text after the last one
    assert not blanks_filled("The limit. By [limit].", "Our limit. By $1.")                 # its own words changed
    assert not blanks_filled("No blanks here.", "No blanks here at all.")
    assert not blanks_filled("by [fund].", "by [fund].")


def test_a_half_filled_letter_is_work_in_progress_in_a_long_task_and_a_rewrite_is_still_damage():
    """hearing-week stopped halfway through the letter to Pryce: the blanks filled so far earn nothing
    and cost nothing (the letter's checkpoint says so), the rest of the day keeps its credit. A
    paragraph without blanks rewritten is damage as before; the letter's own task (pass or fail)
    scores a half letter 0."""
    from harness.qc.adversaries.base import Expect, verdict_ok
    from harness.tasks.schema import SolutionStep
    t = load_task("meridian/hearing-week")
    letter = "Letter to J. Pryce re Limitation Fund – DRAFT"
    assert next(c for c in t.checkpoints if c.name.startswith("letter-")).progress == [letter]
    bench = Workbench("meridian")
    try:
        steps = [s for s in t.solution if s.done is None]
        fills = [i for i, s in enumerate(steps) if s.call == "docs.replace_text" and s.args["doc"] == letter]
        half = steps[:fills[1] + 1]                        # [limit] and [fund] filled, [shortfall] and [date] not
        before = bench.score(t, bench.attempt(t, steps[:fills[0]]))
        wip = bench.score(t, bench.attempt(t, half))
        assert not wip.passed and not wip.zeroed and wip.score == before.score > 0
        row = next(c for c in wip.checkpoints if c["name"].startswith("letter-"))
        assert not row["reached"] and row["in_progress"]
        assert verdict_ok(Expect.FAIL, wip.passed, wip.score, True) and not verdict_ok(Expect.FAIL, wip.passed, wip.score)
        rewrite = SolutionStep(call="docs.replace_text", args={
            "doc": letter, "find": "is irrelevant.", "replacement": "is beside the point."})
        damaged = bench.score(t, bench.attempt(t, [*half, rewrite]))
        assert damaged.zeroed and damaged.score == 0 and damaged.collateral
        single = load_task("meridian/pryce-letter-figures")
        part = [s for s in single.solution if s.done is None]
        cut = [i for i, s in enumerate(part) if s.call == "docs.replace_text"][1] + 1
        assert bench.score(single, bench.attempt(single, part[:cut])).score == 0
    finally:
        bench.close()


def test_a_checkpoint_waiting_for_another_vouches_for_nothing():
    """model-and-board: "pin your message with the corrected figures" comes after "the message gives
    the corrected total". A hedged message that is pinned passes the pin's check, but the pin waits for
    the message's checkpoint, so it vouches for nothing and the hedged message is damage (score 0)."""
    t = load_task("meridian/model-and-board")
    bench = Workbench("meridian")
    try:
        def hedge(call, args):
            if call == "chat.post" and "Port Calder" in args.get("text", ""):
                return {**args, "text": args["text"] + " (possibly $135,000,000 on the draft register)"}
            return args
        r = bench.score(t, bench.attempt(t, t.solution, transform=hedge))
        pin = next(c for c in r.checkpoints if c["name"] == "update-pinned")
        assert not pin["reached"] and pin["blocked"] == ["fix-2"]
        assert r.score == 0 and r.zeroed and r.collateral
    finally:
        bench.close()


def test_a_composite_can_start_by_asking_its_principal_and_drops_its_parts_judge_criteria():
    t = load_task("lumen/harrowgate-day")
    assert t.oracle[0].ask and t.solution[0].ask and t.principal.person == "miguel.santos"
    risk = load_task("lumen/harrowgate-renewal-risk")
    assert any(c.judge for c in risk.rubric) and not t.rubric
    assert len([c for c in t.checkpoints if c.name.startswith("risk-")]) == \
        len([c for c in risk.rubric if c.check is not None]) + 1
    # The call's points are only Miguel's: the prompt doesn't say them, his answer does.
    assert "root-cause" not in t.prompt and "ready to sign" not in t.prompt


@pytest.mark.parametrize("parts, says", [
    ("[{task: no-such-task}]", "no task lumen/no-such-task"),
    ("[{task: deal-amount}]", "has params"),
    ("[{task: harrowgate-arr}]", "can't ask for an answer"),
    ("[{task: onboard-nico, as: A}]", "lower-case letters"),
    ("[{task: onboard-nico}, {task: onboard-nico}]", "its own 'as' name"),
    ("onboard-nico", "a list of"),
    ("[{task: onboard-nico}]\nprelude: [1]", "prelude:"),
])
def test_bad_parts_are_named(tmp_path, monkeypatch, parts, says):
    import shutil
    from pathlib import Path
    from harness.tasks.registry import TaskError
    root = Path(__file__).resolve().parents[2] / "worlds"
    world = tmp_path / "lumen"
    shutil.copytree(root / "lumen", world, ignore=shutil.ignore_patterns("__pycache__"))
    (world / "tasks" / "bad-composite.yaml").write_text(
        f"revision: 1\ntitle: t\napps: [crm]\nprompt: p\nparts: {parts}\n", encoding="utf-8")
    monkeypatch.setenv("DESKWORLD_WORLDS", str(tmp_path))
    with pytest.raises(TaskError, match=says) as e:
        load_task("lumen/bad-composite")
    assert "bad-composite.yaml" in str(e.value)


def _figure(task) -> int:
    return int(task.checkpoints[0].checks[0]["exists"]["where"]["amount"])


def test_the_principal_answers_the_same_question_with_the_same_bytes_and_cant_help_otherwise():
    t = load_task(ASK)
    bench = Workbench("lumen")
    try:
        said = []
        for _ in range(2):
            with bench.fresh(t) as st:
                before = st.scalar("SELECT MAX(id) FROM chat_messages")
                bench.ask(st, t, "What figure did you and Miguel agree for the Harrowgate Lineage Add-on?")
                bench.ask(st, t, "Should I also update the forecast sheet?")
                said.append([(r["author"], r["text"]) for r in st.all(
                    "SELECT author, text FROM chat_messages WHERE id > ? ORDER BY id", (before,))])
                asks = [(r["principal"], r["trigger"]) for r in st.all("SELECT * FROM user_asks ORDER BY id")]
                actors = {r["actor"] for r in st.all("SELECT actor FROM _writes WHERE tbl='chat_messages' AND seq > "
                                                     "(SELECT MIN(seq) FROM _writes WHERE tbl='user_asks') - 1")}
        assert said[0] == said[1]
        q1, a1, q2, a2 = said[0]
        assert q1 == ("jordan.blake", "What figure did you and Miguel agree for the Harrowgate Lineage Add-on?")
        assert a1[0] == "elise.moreau" and f"${_figure(t):,}" in a1[1]
        assert q2[0] == "jordan.blake" and a2 == ("elise.moreau", t.principal.cant_help)
        assert asks == [("elise.moreau", "lineage-figure"), ("elise.moreau", "cant_help")]
        assert "agent" not in actors                     # asking is never the agent's collateral write
    finally:
        bench.close()


def test_the_guessed_figure_fails_the_agreed_one_passes_and_a_second_question_breaks_the_rule():
    t = load_task(ASK)
    bench = Workbench("lumen")
    try:
        assert bench.score(t, bench.attempt(t, t.solution)).passed
        assert _figure(t) != 72000                       # the figure on the record is never the agreed one
        guess = [s for s in t.solution if s.ask is None]
        guessed = [s.model_copy(update={"args": {**s.args, "fields": {"amount": "72000"}}})
                   if s.call == "crm.update" else s for s in guess]
        assert not bench.score(t, bench.attempt(t, guessed)).passed   # the only figure without asking
        r = bench.score(t, bench.attempt(t, guess))
        assert r.passed                                  # the agreed figure passes however it was learnt…
        twice = [t.solution[0], t.solution[0], *t.solution[1:]]
        r = bench.score(t, bench.attempt(t, twice))
        assert not r.passed and r.zeroed                 # …and two questions break the one-question rule
    finally:
        bench.close()


# ---------------------------------------------------------------------------- in a browser
def _oracle_actions(task_id: str) -> tuple[list[dict], list[float], dict]:
    """The oracle's actions on a milestone env, with each step's reward and the result."""
    env = DeskEnv(task_id, reward="milestones")
    try:
        obs, _ = env.reset()
        agent = OracleAgent(env)
        agent.reset(env.task)
        actions, rewards = [], []
        while True:
            a = agent.act(obs)
            actions.append(a)
            obs, r, term, trunc, info = env.step(a)
            rewards.append(r)
            if term or trunc:
                return actions, rewards, {"result": env.episode.result, "ms": env.episode.milestones}
    finally:
        env.close()


@pytest.fixture(scope="module")
def long_oracle():
    return _oracle_actions(LONG)


@pytest.mark.browser
def test_the_oracle_reaches_every_checkpoint_in_order_and_its_rewards_sum_to_one(long_oracle):
    actions, rewards, got = long_oracle
    result, ms = got["result"], got["ms"]
    assert result.passed and result.score == 1.0
    assert ms.in_order() and list(ms.reached) == [c.name for c in load_task(LONG).checkpoints]
    assert sum(rewards) == pytest.approx(1.0)
    paying = [i for i, r in enumerate(rewards) if r > 0]
    assert len(paying) >= 3 and paying[0] < len(rewards) - 1          # rewards arrive along the way


def _replay(env, actions: list[dict]):
    env.reset()
    rewards = []
    for a in actions:
        obs, r, term, trunc, info = env.step(a)
        rewards.append(r)
        if term or trunc:
            break
    return rewards


@pytest.mark.browser
def test_half_the_oracle_scores_strictly_between_0_and_1_and_the_rewards_still_sum_to_the_score(long_oracle):
    actions = long_oracle[0]
    half = actions[: len(actions) // 2] + [{"type": "done", "status": "complete"}]
    env = DeskEnv(LONG, reward="milestones")
    try:
        rewards = _replay(env, half)
        result = env.episode.result
        assert 0 < result.score < 1 and not result.passed
        assert sum(rewards) == pytest.approx(result.score)
        # The same actions on a final-reward env: only the last step pays, the same score.
        env.reward_mode = "final"
        final = _replay(env, half)
        assert final[:-1] == [0.0] * (len(final) - 1) and final[-1] == pytest.approx(result.score)
    finally:
        env.close()


@pytest.mark.browser
def test_the_env_server_and_a_vector_env_return_the_milestone_rewards(long_oracle):
    from harness.servers.envserver import EnvServer
    from harness.servers.remote import RemoteEnv
    actions, rewards, _ = long_oracle
    half = actions[: len(actions) // 2] + [{"type": "done", "status": "complete"}]
    local = DeskEnv(LONG, reward="milestones")
    try:
        want = _replay(local, half)
    finally:
        local.close()
    server = EnvServer(port=0, capacity=1, idle_timeout=None, tasks=LONG, reward="milestones").start()
    try:
        remote = RemoteEnv(server.url, task=LONG)
        try:
            got = _replay(remote, half)
        finally:
            remote.close()
    finally:
        server.shutdown()
    assert got == pytest.approx(want) and sum(got) > 0
    envs = gym.vector.SyncVectorEnv([lambda: make_env(LONG, reward="milestones", obs_mode="pixels")])
    try:
        envs.reset(seed=0)
        vec = []
        for a in half:
            _, r, term, trunc, _ = envs.step([a])
            vec.append(float(r[0]))
            if term[0] or trunc[0]:
                break
    finally:
        envs.close()
    assert vec == pytest.approx(want)


@pytest.mark.browser
def test_ask_user_end_to_end_guessing_fails_asking_passes_and_the_answer_is_the_same_bytes():
    t = load_task(ASK)
    figure = _figure(t)
    actions, rewards, got = _oracle_actions(ASK)
    assert got["result"].passed and sum(rewards) == pytest.approx(1.0)
    assert actions[0]["type"] == "ask_user"
    env = DeskEnv(ASK)
    try:
        replies = []
        for _ in range(2):
            env.reset()
            obs, *_ = env.step(actions[0])
            replies.append(obs["user_reply"])
        assert replies[0] == replies[1] and replies[0].startswith("Elise Moreau: ") and f"${figure:,}" in replies[0]
        # The agent guesses: the same clicks without the question, the figure on the record kept.
        guessed = [a if a.get("text") != str(figure) else {**a, "text": "72000"} for a in actions[1:]]
        env.reset()
        for a in guessed:
            obs, r, term, trunc, info = env.step(a)
            if term or trunc:
                break
        assert not env.episode.result.passed and env.episode.result.score == 0.0
        # Nobody to ask in a task without a principal: the action says so, nothing is written.
        env.reset(options={"task": load_task("lumen/harrowgate-arr")})
        obs, *_ = env.step({"type": "ask_user", "text": "What is the ARR?"})
        assert "nobody to ask" in obs["last_action_error"] and obs["user_reply"] == ""
    finally:
        env.close()


def test_a_model_asks_with_an_ask_user_line_and_answers_with_answer():
    from harness.agents.model import Pending, asked_user, final_action
    a = final_action("I need one thing first.\nASK_USER: Which figure did you agree?")
    assert a == {"type": "ask_user", "text": "Which figure did you agree?"}
    assert final_action("Done. ANSWER: 4\nASK_USER: anything else?")["type"] == "done"   # an answer ends it
    assert final_action("Is there anything else I can help with?")["type"] == "done"     # no marker, no question
    assert asked_user([Pending("", a)]) and not asked_user([Pending("c1", {"type": "click", "x": 1, "y": 1})])


# ------------------------------------------------------------------ a conversation inside a long task
def _victor_flow(t, victor_steps: list[dict]):
    """lumen/quarter-close's tool solution up to the forecast, then ``victor_steps`` instead of its mails."""
    from harness.tasks.schema import SolutionStep
    steps = [s for s in t.solution if s.done is None]
    cut = next(i for i, s in enumerate(steps) if s.call == "mail.send" and "Q2 numbers" in str(s.args))
    return steps[:cut] + [SolutionStep.model_validate(s) for s in victor_steps] + [s for s in t.solution if s.done]


def test_a_stale_figure_pushed_back_and_corrected_passes_and_one_left_standing_is_zeroed():
    t = load_task("lumen/quarter-close")
    bench = Workbench("lumen")
    victor = {"find": {"table": "mail_messages", "new": True, "where": {"sender": "victor.hale@lumenanalytics.io"}}}
    stale = {"call": "mail.send", "args": {"to": ["victor.hale@lumenanalytics.io"], "subject": "Q2 board numbers",
                                           "body": "Closed won $1.72M, commit $3.31M, best case $3.88M."}}
    try:
        fixed = _victor_flow(t, [
            stale,
            {"call": "mail.reply", "args": {"message_id": victor, "body":
                "You're right, sorry. With Brightvault: closed won $2,123,000, commit $3,305,000, best case $3,785,000."}},
            {"call": "mail.reply", "args": {"message_id": {"find": {**victor["find"], "where": {
                **victor["find"]["where"], "body": {"contains": "without Harrowgate"}}}},
                "body": "Commit excluding Harrowgate: $2,825,000."}}])
        a = bench.attempt(t, fixed)
        said = [m["body"].split("\n")[0] for m in a.final["tables"]["mail_messages"]["records"].values()
                if m["sender"] == "victor.hale@lumenanalytics.io" and m["subject"].startswith("Re: Q2 board")]
        assert said[0].startswith("That closed won looks like Monday's number")      # he pushed back
        assert "what's commit without Harrowgate?" in said[1]                        # then asked back
        r = bench.score(t, a)
        assert r.passed and r.score == 1.0
        left = bench.attempt(t, _victor_flow(t, [stale]))                              # never corrected
        r = bench.score(t, left)
        assert not r.passed and r.score == 0.0 and r.zeroed
    finally:
        bench.close()


def test_the_long_horizon_tier_is_as_issue_18_asks():
    """At least 24 tasks whose oracles need 50 actions or more, 8 of them 150 or more, each with 10–30
    checkpoints, a principal and a step limit at least three times the oracle of its longest instance (a
    sample of every tenth variant)."""
    from harness.tasks.registry import all_tasks, load_instance, select_instances
    tier = [t for t in all_tasks() if "long-horizon" in t.tags]
    cost = {t.id: sum(ACTION_COST.get(s.kind, 1) for s in t.oracle) for t in tier}
    assert len(tier) >= 24 and all(c >= 50 for c in cost.values()), cost
    assert sum(c >= 150 for c in cost.values()) >= 8, cost
    for t in tier:
        assert 10 <= len(t.checkpoints) <= 30 and t.principal is not None, t.id
        longest = max(sum(ACTION_COST.get(s.kind, 1) for s in load_instance(r).oracle)
                      for r in select_instances(t.id)[::10])
        assert t.max_steps >= 3 * longest, (t.id, t.max_steps, longest)
