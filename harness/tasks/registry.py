"""All tasks of all worlds, loaded from ``worlds/<world>/tasks/*.yaml``.

A file is valid when it is UTF-8 YAML, matches the schema (``schema.py``) and every name it refers
to resolves (``validate.py``: tables, fields, check and ``value_from`` functions, people, co-worker
scenario triggers, the start app or page, the oracle's pages, the solution's tools). Errors name
the file and the field:
``worlds/meridian/tasks/x.yaml: answer.type: Input should be 'number', 'date', …``
``worlds/meridian/tasks/x.yaml: checks.2.exists.table: unknown table 'mails'; did you mean 'mail_boxes'? (…)``
"""
from __future__ import annotations

import fnmatch
from pathlib import Path

import yaml
from pydantic import ValidationError

from apps.core.world import validation_message, world_names, worlds_root
from harness.tasks.schema import Task
from harness.tasks.validate import problems

# libyaml when it is there: the same documents (every shipped task parses identically), several times
# faster than the pure-Python parser.
_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class TaskError(Exception):
    """A task file is invalid or a task id is unknown."""


class TaskReferenceError(TaskError):
    """A task file names something that doesn't exist (a table, a field, a function, a scenario, a page…).
    ``problems``: ``(field path, message)`` for each, the same lines as the message without the file."""

    def __init__(self, path: Path, problems: list[tuple[str, str]]):
        self.path = path
        self.problems = problems
        super().__init__("\n".join(f"{path}: {where}: {msg}" for where, msg in problems))

    def __reduce__(self):                 # picklable (worker processes send errors back)
        return type(self), (self.path, self.problems)


def read_task_yaml(path: Path) -> object:
    """The YAML document in ``path``; a file that isn't UTF-8 or isn't YAML is a ``TaskError`` naming it."""
    try:
        data = Path(path).read_bytes()
    except FileNotFoundError:
        raise TaskError(f"{path}: file not found") from None
    except OSError as e:
        raise TaskError(f"{path}: can't be read: {e.strerror or e}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        col = len(data[data.rfind(b"\n", 0, e.start) + 1:e.start].decode("utf-8")) + 1   # valid up to the error
        raise TaskError(f"{path}: not UTF-8: byte 0x{data[e.start]:02x} at offset {e.start} "
                        f"(line {line}, column {col}): {e.reason}; task files are UTF-8 text") from None
    try:
        return yaml.load(text.removeprefix("\ufeff"), Loader=_Loader)
    except yaml.YAMLError as e:
        raise TaskError(f"{path}: invalid YAML: {e}") from None


def task_path(task_id: str, root: Path | None = None) -> Path:
    world, _, name = task_id.partition("/")
    if not world or not name:
        raise TaskError(f"task ids look like <world>/<name>, not {task_id!r}")
    return (root or worlds_root()) / world / "tasks" / f"{name}.yaml"


def load_task_file(path: Path, world: str, *, check_refs: bool = True) -> Task:
    """The task in ``path`` (of ``world``, whose folder is the file's grandparent); ``check_refs=False``
    skips resolving the names it refers to (the schema is always checked)."""
    path = Path(path)
    raw = read_task_yaml(path)
    if not isinstance(raw, dict):
        raise TaskError(f"{path}: a task file is a mapping of fields")
    try:
        task = Task.model_validate(raw)
    except ValidationError as e:
        raise TaskError(validation_message(path, e)) from None
    task.id = f"{world}/{path.stem}"
    task.world = world
    if check_refs:
        found = problems(task, path.parent.parent)
        if found:
            raise TaskReferenceError(path, [(p.where, p.message) for p in found])
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
