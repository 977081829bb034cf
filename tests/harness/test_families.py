"""Task families: instances, ids, splits, selection, and their QC (harness/tasks/families.py, splits.py).

A copy of lumen with a family of its own: the Harrowgate renewal's close date (the fact ``hg_close``)
asked by one of six colleagues (a param drawn from an added fact), over every variant."""
from __future__ import annotations

import re
import shutil
from collections import Counter
from pathlib import Path

import pytest

from harness.tasks import splits
from harness.tasks.families import FamilyError, family_of
from harness.tasks.registry import (TaskError, load_task, sample_instances, select, select_instances)

ROOT = Path(__file__).resolve().parents[2]

ASKER = ("  asker: {value: [{id: miguel, name: Miguel}, {id: dana, name: Dana}, {id: owen, name: Owen}, "
         "{id: rachel, name: Rachel}, {id: leo, name: Leo}, {id: tessa, name: Tessa}]}\n")

FAMILY = """\
variants: all
params:
  who: {from: "asker", key: id, default: miguel}
revision: 1
title: When does the Harrowgate renewal close?
apps: [crm]
start: crm
prompt: |
  {{ who.name }} asks: what is the close date of Harrowgate Logistics' FY27 renewal opportunity?
max_steps: 20
answer: {type: date, value_from: "checks:toy_close"}
oracle:
  - fill: {target: {role: textbox, name: "Search CRM records…"}, text: "Harrowgate"}
  - press: Enter
  - click: {role: link, name: "Harrowgate – FY27 Renewal", exact: true}
  - expect: {text: "Close Date {{ hg_close | date:%-m/%-d/%Y }}"}
  - done: {answer: "ANSWER: {{ hg_close | date:%B %-d, %Y }}"}
solution:
  - call: crm.get
    args: {obj: opportunities, record: harrowgate-fy27-renewal}
  - done: {answer: "It closes on {{ hg_close | date:%-d %B %Y }}. ANSWER: {{ hg_close }}"}
"""

TOY_CHECK = '''

def toy_close(ctx):
    import datetime as _dt
    import yaml as _yaml
    opps = _yaml.safe_load((Path(ctx.world_root) / "crm" / "opportunities.yaml").read_text(encoding="utf-8"))["opportunities"]
    return _dt.date.fromisoformat(next(o for o in opps if o["id"] == "harrowgate-fy27-renewal")["close_date"])
'''


@pytest.fixture(scope="module")
def toy(tmp_path_factory):
    mp = pytest.MonkeyPatch()
    root = tmp_path_factory.mktemp("worlds")
    world = root / "lumen"
    shutil.copytree(ROOT / "worlds" / "lumen", world, ignore=shutil.ignore_patterns("__pycache__"))
    facts = (world / "facts.yaml").read_text(encoding="utf-8")
    assert "\nfacts:\n" in facts
    (world / "facts.yaml").write_text(facts.replace("\nfacts:\n", "\nfacts:\n" + ASKER, 1), encoding="utf-8")
    with open(world / "checks.py", "a", encoding="utf-8") as f:
        f.write(TOY_CHECK)
    (world / "tasks" / "toy-close-date.yaml").write_text(FAMILY, encoding="utf-8")
    plain = FAMILY.split("revision: 1\n", 1)[1].replace("{{ who.name }}", "Miguel").replace("{{ hg_close | date:%-m/%-d/%Y }}", "6/30/2026")
    plain = plain.replace("{{ hg_close | date:%B %-d, %Y }}", "June 30, 2026").replace("{{ hg_close | date:%-d %B %Y }}", "30 June 2026")
    (world / "tasks" / "toy-plain.yaml").write_text("revision: 1\n" + plain.replace("{{ hg_close }}", "2026-06-30"),
                                                   encoding="utf-8")
    mp.setenv("DESKWORLD_WORLDS", str(root))
    yield world
    mp.undo()


def test_a_family_lists_its_instances_with_stable_ids_and_splits(toy):
    refs = select_instances("lumen/toy-close-date")
    ids = [r.id for r in refs]
    assert "lumen/toy-close-date" in ids                      # the hand-made instance keeps the family's id
    assert len(ids) == len(set(ids))
    assert all(r.id == "lumen/toy-close-date" or r.id.startswith("lumen/toy-close-date/v") for r in refs)
    assert {r.split for r in refs} == {"train", "dev", "test"}
    # no test instance shares a variant or a split param value with a train instance
    train = [r for r in refs if r.split == "train"]
    test = [r for r in refs if r.split == "test"]
    assert not {r.variant for r in train} & {r.variant for r in test}
    assert not {r.keys for r in train} & {r.keys for r in test}
    assert select_instances("lumen/toy-close-date") == refs     # the same every time


def test_an_instance_renders_its_variant_and_params(toy):
    ref = next(r for r in select_instances("lumen/toy-close-date", split="test"))
    task = load_task(ref.id)
    assert task.id == ref.id and task.family == "lumen/toy-close-date" and task.variant == ref.variant
    assert task.world_ref == f"lumen@{ref.variant}" and task.split == "test"
    assert task.prompt.startswith(task.param_values["who"]["name"] + " asks:")
    from apps.core.world import load_world
    close = load_world(task.world_ref).facts()["hg_close"]
    assert task.oracle[-1].done["answer"] == f"ANSWER: {close:%B} {close.day}, {close.year}"
    published = load_task("lumen/toy-close-date")
    assert published.variant == 0 and published.prompt.startswith("Miguel asks:")
    assert published.oracle[-1].done["answer"] == "ANSWER: June 30, 2026"


def test_bad_instance_ids_are_named(toy):
    with pytest.raises(TaskError, match=r"no instance 'lumen/toy-close-date/v9999-miguel'.*v<variant>-<who>"):
        load_task("lumen/toy-close-date/v9999-miguel")
    with pytest.raises(TaskError, match="family of one"):
        load_task("lumen/toy-plain/v3")
    with pytest.raises(TaskError, match="unknown split 'holdout'"):
        select_instances("lumen/*", split="holdout")


@pytest.mark.parametrize("text, message", [
    ("variants: some\n", "variants: 'all'"),
    ("variants: all\nparams:\n  who: {values: []}\n", "params.who.values: a non-empty list"),
    ("variants: all\nparams:\n  who: {from: x, values: [1]}\n", "either from"),
    ("variants: all\nparams:\n  who: {from: nope}\n", "unknown fact 'nope'"),
    ("variants: all\nparams:\n  who: {from: asker, key: email}\n", "has no field 'email'"),
    ("variants: all\nparams:\n  who: {from: asker, key: id, default: zed}\n", "default: 'zed' is not one of"),
    ("variants: all\nparams:\n  who: {from: asker, flavour: 1}\n", "unknown key 'flavour'"),
    ("params: {{ x }}\n", "can't use"),
])
def test_bad_family_blocks_are_named(toy, text, message):
    with pytest.raises(FamilyError, match=message):
        family_of(toy / "tasks" / "bad.yaml", "lumen", text + "title: x\n")


def test_a_hand_made_task_is_a_family_of_one(toy):
    refs = select_instances("lumen/toy-plain")
    assert [(r.id, r.variant, r.split) for r in refs] == [("lumen/toy-plain", 0, "train")]
    assert [t.id for t in select("lumen/toy-close-date")] == ["lumen/toy-close-date"]


def test_sampling_is_seeded_and_prefers_other_variants(toy):
    refs = select_instances("lumen/toy-close-date")
    a = sample_instances(refs, 2, seed=0)
    assert a == sample_instances(refs, 2, seed=0) and len(a) == 2
    assert all(r.variant != 0 for r in a)
    assert sample_instances(refs, 2, seed=1) != a
    assert len(sample_instances(refs, 2, seed=0, published=True)) == 3


def test_the_check_runs_on_instances_and_catches_a_memorised_answer(toy):
    """The tool solution passes on other variants; the published instance's answer given on them fails."""
    from harness.qc.check import check
    ids = [r.id for r in sample_instances(select_instances("lumen/toy-close-date"), 2, seed=0)]
    reports, overall = check(ids, tools_only=True, adversaries=True)
    assert overall == []
    for r in reports:
        assert r.ok, (r.task, r.problems, [o.why for o in r.adversaries.false_passes + r.adversaries.false_fails])
        names = {o.name: o for o in r.adversaries.outcomes}
        first = names["answer:memorised-0"]          # the published instance's answer comes first
        assert first.expect == "fail" and not first.passed and first.kind == "memorised"
        assert names["tools"].passed


def test_split_assignment_is_pinned():
    """The committed seed fixes every split; a change here reshuffles every published split."""
    assert splits.SEED == "deskworld-splits-2026-12-01"
    assert [splits.variant_split("meridian", v) for v in range(1, 13)] == PINNED_MERIDIAN
    shares = Counter(splits.variant_split("lumen", v) for v in range(1, 2001))
    assert 0.55 < shares["train"] / 2000 < 0.65 and 0.2 < shares["test"] / 2000 < 0.3
    ks = splits.key_splits("w/f", "who", ("a", "b", "c", "d", "e", "f"), "a")
    assert ks["a"] == "train" and Counter(ks.values()) == {"train": 3, "test": 2, "dev": 1}
    assert splits.key_splits("w/f", "who", ("a", "b"), "a") == {"a": None, "b": None}


PINNED_MERIDIAN = ['train', 'dev', 'test', 'dev', 'dev', 'test', 'train', 'train', 'train', 'train', 'test', 'train']


def test_the_env_draws_instances_of_a_split_and_their_oracles_pass(toy):
    """DeskEnv(tasks=…, split=…) draws instances; one env serves several variants of the world in a
    row (one app server, the slot retargeted), and each instance's GUI oracle scores 1 on its variant."""
    from harness.agents import make
    from harness.env import DeskEnv
    from harness.runs.episode import run_episode
    env = DeskEnv(tasks="lumen/toy-close-date", split="test")
    try:
        assert {r.split for r in env.tasks} == {"test"}
        _, info = env.reset(seed=3)
        first = env.unwrapped.task
        assert first.split == "test" and first.variant != 0 and info["task"] == first.id
        other = next(r for r in env.tasks if r.variant != first.variant)
        for task in (first, load_task(other.id), load_task("lumen/toy-close-date")):
            row = run_episode(env, make("oracle", env=env), task)
            assert (row["passed"], row["score"]) == (True, 1.0), (task.id, row)
            assert env.unwrapped.session.desk(task.world_ref).world.variant == task.variant
    finally:
        env.close()
    with pytest.raises(ValueError, match="split= selects instances from a pool"):
        DeskEnv("lumen/toy-close-date", split="test")


def test_the_cli_lists_checks_and_runs_instances(toy, tmp_path):
    import json

    from click.testing import CliRunner

    from harness.cli import main
    r = CliRunner().invoke(main, ["tasks", "--instances", "--json", "lumen/toy-close-date"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    assert data["totals"]["instances"] == len(select_instances("lumen/toy-close-date"))
    assert set(data["instances"][0]) == {"id", "family", "world", "variant", "params", "split"}
    r = CliRunner().invoke(main, ["tasks", "--instances", "--split", "test", "--outcomes", "4", "lumen/toy-close-date"])
    assert r.exit_code == 0 and "outcomes" in r.output and re.search(r"[1-4] of 4", r.output), r.output
    r = CliRunner().invoke(main, ["check", "--tools-only", "--adversaries", "--instances", "1", "--split", "dev",
                                  "lumen/toy-close-date"])
    assert r.exit_code == 0 and "1 instances of 1 families checked" in r.output, r.output
    r = CliRunner().invoke(main, ["check", "--instances", "many"])
    assert r.exit_code != 0 and "a number of instances per family, or all — not 'many'" in r.output
    out = tmp_path / "run"
    r = CliRunner().invoke(main, ["run", "--agent", "noop", "--tasks", "lumen/toy-close-date", "--split", "test",
                                  "--instances", "2", "--out", str(out)])
    assert r.exit_code == 0, r.output
    rows = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert len(rows) == 2 and all("/v" in row["task"] for row in rows)
    summary = json.loads((out / "summary.json").read_text())
    assert summary["per_family"]["lumen/toy-close-date"]["tasks"] == 2 and list(summary["per_split"]) == ["test"]
    assert all((out / "episodes" / "lumen" / row["task"].split("/", 1)[1].replace("/", "~") / "0").is_dir()
               for row in rows)
    assert "by family" in r.output
    from harness.viewer import create_viewer
    c = create_viewer(out).test_client()
    page = c.get("/").get_data(as_text=True)
    assert "By family" in page and "lumen/toy-close-date" in page and "split test" in page
    first = rows[0]["task"]
    link = f"/episode/lumen/{first.split('/', 1)[1].replace('/', '~')}/0"
    assert link in page or first.split("/", 1)[1].replace("/", "~") in page


def test_gym_make_the_vector_env_and_the_env_server_take_a_split(toy):
    import gymnasium as gym

    import harness  # noqa: F401  (registers deskworld/Desk-v0)
    from harness.servers.envserver import EnvServer
    env = gym.make("deskworld/Desk-v0", tasks="lumen/toy-close-date", split="dev")
    try:
        assert env.unwrapped.tasks and {r.split for r in env.unwrapped.tasks} == {"dev"}
    finally:
        env.close()
    server = EnvServer(port=0, tasks="lumen/toy-close-date", split="test")
    assert server.tasks and {r.split for r in server.tasks} == {"test"}
    some = server.tasks[0].id
    seed, options, _ = server._reset_args({"task": some})
    assert options["task"].id == some
