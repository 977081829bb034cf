"""All tasks of all worlds, loaded from ``worlds/<world>/tasks/*.yaml``.

Errors name the file and the field:
``worlds/meridian/tasks/x.yaml: answer.type: Input should be 'number', 'date', …``
"""
from __future__ import annotations

import fnmatch
from pathlib import Path

from pydantic import ValidationError

from apps.common.world import WorldError, load_yaml, validation_message, world_names, worlds_root
from harness.tasks.schema import Task


class TaskError(Exception):
    """A task file is invalid or a task id is unknown."""


def task_path(task_id: str, root: Path | None = None) -> Path:
    world, _, name = task_id.partition("/")
    if not world or not name:
        raise TaskError(f"task ids look like <world>/<name>, not {task_id!r}")
    return (root or worlds_root()) / world / "tasks" / f"{name}.yaml"


def load_task_file(path: Path, world: str) -> Task:
    try:
        raw = load_yaml(path)
    except WorldError as e:
        raise TaskError(str(e)) from None
    if not isinstance(raw, dict):
        raise TaskError(f"{path}: a task file is a mapping of fields")
    try:
        task = Task.model_validate(raw)
    except ValidationError as e:
        raise TaskError(validation_message(path, e)) from None
    task.id = f"{world}/{path.stem}"
    task.world = world
    return task


def load_task(task_id: str, root: Path | None = None) -> Task:
    path = task_path(task_id, root)
    if not path.is_file():
        raise TaskError(f"no task {task_id!r} (expected {path})")
    return load_task_file(path, task_id.split("/", 1)[0])


def all_tasks(root: Path | None = None, world: str | None = None) -> list[Task]:
    root = root or worlds_root()
    out = []
    for w in world_names(root):
        if world and w != world:
            continue
        for path in sorted((root / w / "tasks").glob("*.yaml")):
            out.append(load_task_file(path, w))
    return out


def select(pattern: str | None = None, root: Path | None = None) -> list[Task]:
    """Tasks whose id matches a glob (``meridian/*``, ``*/reply-*``) or a world name."""
    tasks = all_tasks(root)
    if not pattern:
        return tasks
    pats = [p.strip() for p in pattern.split(",") if p.strip()]
    out = []
    for t in tasks:
        if any(fnmatch.fnmatchcase(t.id, p) or t.world == p or t.id == p for p in pats):
            out.append(t)
    if not out:
        raise TaskError(f"no task matches {pattern!r}")
    return out
