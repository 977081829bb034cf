"""Task files: the registry, validation errors that name file and field."""
from __future__ import annotations

import shutil

import pytest

from harness.tasks.registry import TaskError, all_tasks, load_task, select


def test_registry_loads_every_world_task():
    tasks = all_tasks()
    ids = [t.id for t in tasks]
    assert len(ids) >= 15 and len(set(ids)) == len(ids)
    assert all(t.id == f"{t.world}/{t.id.split('/', 1)[1]}" for t in tasks)
    infeasible = [t for t in tasks if t.infeasible]
    assert 1 <= len(infeasible) <= 0.1 * len(tasks)
    long = [t for t in tasks if len(t.oracle) >= 15]
    assert long, "at least one task's oracle script is long"


def test_select_by_glob_world_and_id():
    assert {t.id for t in select("meridian")} == {t.id for t in all_tasks(world="meridian")}
    assert [t.id for t in select("meridian/gross-tonnage")] == ["meridian/gross-tonnage"]
    assert all(t.id.startswith("meridian/reply") for t in select("*/reply-*"))
    with pytest.raises(TaskError):
        select("nowhere/*")
    with pytest.raises(TaskError):
        load_task("meridian/does-not-exist")
    with pytest.raises(TaskError):
        load_task("no-slash")


@pytest.fixture
def worlds(tmp_path, world):
    root = tmp_path / "worlds"
    (root / "meridian" / "tasks").mkdir(parents=True)
    shutil.copy(world.root / "world.yaml", root / "meridian" / "world.yaml")
    return root


GOOD = """revision: 1
title: t
apps: [mail]
prompt: p
answer: {type: number, value: 1}
oracle:
  - done: {answer: "1"}
"""


@pytest.mark.parametrize("text,where", [
    (GOOD.replace("revision: 1", "revision: 0"), "revision"),
    (GOOD.replace("apps: [mail]", "apps: [fax]"), "apps.0"),
    (GOOD.replace("type: number", "type: colour"), "answer.type"),
    (GOOD.replace("title: t\n", ""), "title"),
    (GOOD + "surprise: 1\n", "surprise"),
    (GOOD.replace("  - done: {answer: \"1\"}", "  - click: {role: button, label: x}"), "oracle"),
    (GOOD.replace("answer: {type: number, value: 1}\n", ""), "(top level)"),
    ("revision: [1\n", "invalid YAML"),
])
def test_malformed_task_names_file_and_field(worlds, text, where):
    (worlds / "meridian" / "tasks" / "broken.yaml").write_text(text)
    with pytest.raises(TaskError) as e:
        load_task("meridian/broken", root=worlds)
    msg = str(e.value)
    assert "broken.yaml" in msg and where in msg, msg


def test_a_good_file_loads(worlds):
    (worlds / "meridian" / "tasks" / "fine.yaml").write_text(GOOD)
    t = load_task("meridian/fine", root=worlds)
    assert t.id == "meridian/fine" and t.start_path == "/mail/inbox"


def test_every_goal_ends_with_the_answer_sentence():
    from harness.tasks.schema import ANSWER_SENTENCE
    for t in all_tasks():
        assert t.goal.startswith(t.prompt.strip()) and t.goal.endswith(ANSWER_SENTENCE), t.id
