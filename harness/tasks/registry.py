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
import re
from functools import lru_cache
from pathlib import Path

import yaml
from pydantic import ValidationError

from apps.core.world import validation_message, worlds_root
from harness.tasks.compose import CompositionError, compose, part_specs
from harness.tasks.families import Family, FamilyError, InstanceRef, all_families, load_family, task_files
from harness.tasks.schema import Task
from harness.tasks.splits import SPLITS, instance_split
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
    """The task in ``path`` (of ``world``, whose folder is the file's grandparent): for a family, its
    hand-made instance (variant 0, default params); ``check_refs=False`` skips resolving the names it
    refers to (the schema is always checked)."""
    path = Path(path)
    read_task_yaml(path)                     # a file that isn't UTF-8 YAML is named as such first
    fam = _family(path, world)
    return _instance_task(fam, 0, fam.default_keys(), check_refs)


def _family(path: Path, world: str) -> Family:
    try:
        return load_family(path, world)
    except FamilyError as e:
        raise TaskError(str(e)) from None


def _instance_task(fam: Family, variant: int, keys: tuple, check_refs: bool = True) -> Task:
    """The instance's task: rendered and validated once per file version, a fresh copy each call
    (a caller may change its copy)."""
    st = fam.path.stat()
    return _instance_cached(str(fam.path), st.st_mtime_ns, fam.world, variant, keys, check_refs).model_copy(deep=True)


@lru_cache(maxsize=512)
def _instance_cached(path_s: str, mtime: int, world: str, variant: int, keys: tuple, check_refs: bool) -> Task:
    path = Path(path_s)
    fam = _family(path, world)
    try:
        text, values = fam.render(variant, keys)
    except FamilyError as e:
        raise TaskError(str(e)) from None
    try:
        raw = yaml.load(text, Loader=_Loader)
    except yaml.YAMLError as e:
        where = "" if variant == 0 and keys == fam.default_keys() else f" (instance {fam.instance_id(variant, keys)})"
        raise TaskError(f"{path}{where}: invalid YAML: {e}") from None
    if not isinstance(raw, dict):
        raise TaskError(f"{path}: a task file is a mapping of fields")
    part_ids = []
    if "parts" in raw:
        raw, part_ids = _composed(path, world, variant, raw)     # names a bad part as a TaskError
    try:
        task = Task.model_validate(raw)
    except ValidationError as e:
        raise TaskError(validation_message(path, e)) from None
    task.id = fam.instance_id(variant, keys)
    task.parts_of = part_ids
    task.world = world
    task.family = fam.id
    task.variant = variant
    task.param_values = values
    task.split = instance_split(fam, variant, keys) or "train"
    if check_refs:
        found = problems(task, path.parent.parent)
        if found:
            raise TaskReferenceError(path, [(p.where, p.message) for p in found])
    return task


def _composed(path: Path, world: str, variant: int, raw: dict) -> tuple[dict, list[str]]:
    """A composite task (``parts:``, harness.tasks.compose): its fields with its parts rendered in the
    same variant folded in, and the parts' ids."""
    try:
        specs = part_specs(raw)
        parts = []
        for name, short in specs:
            ppath = path.parent / f"{name}.yaml"
            if not ppath.is_file():
                raise CompositionError(f"parts: no task {world}/{name} (expected {ppath})")
            if ppath == path:
                raise CompositionError(f"parts: {world}/{name} is this task")
            pfam = _family(ppath, world)
            if pfam.params:
                raise CompositionError(f"parts: {world}/{name} has params; compose tasks without them")
            if re.search(r"(?m)^parts:", pfam.text):
                raise CompositionError(f"parts: {world}/{name} has parts of its own")
            # every part in the composite's variant, hand-made ones too: a figure templated in one ("they
            # chose {{ quarry_competitor }}") must be the variant's, whatever its own file is instanced over
            parts.append((short, _instance_task(pfam, variant, pfam.default_keys(), check_refs=False)))
        return compose(raw, parts), [f"{world}/{name}" for name, _ in specs]
    except CompositionError as e:
        raise TaskError(f"{path}: {e}") from None


def load_task(task_id: str, root: Path | None = None) -> Task:
    """A task by id: a hand-made task (``meridian/fund-shortfall``) or an instance of a family
    (``meridian/fund-shortfall/v17``, ``meridian/claim-figure/v17-tourism``)."""
    world, _, rest = task_id.partition("/")
    name, _, inst = rest.partition("/")
    path = task_path(f"{world}/{name}", root)
    if not path.is_file():
        raise TaskError(f"no task {task_id!r} (expected {path})")
    if not inst:
        return load_task_file(path, world)
    fam = _family(path, world)
    for ref in fam.instances():
        if ref.id == task_id:
            return _instance_task(fam, ref.variant, ref.keys)
    m = re.fullmatch(r"v(\d+)(?:-.*)?", inst)
    hint = ("it is a family of one (only the hand-made task)" if fam.is_family_of_one else
            f"its instances look like {fam.id}/v<variant>" + ("-<" + ">-<".join(p.name for p in fam.params) + ">"
                                                             if fam.params else "")
            + (f"; variant {m.group(1)} exists but that combination is not an instance (splits)" if m and
               int(m.group(1)) in fam.variants() else ""))
    raise TaskError(f"no instance {task_id!r} of {fam.id}: {hint}")


def load_instance(ref: InstanceRef, root: Path | None = None) -> Task:
    fam = _family(task_path(ref.family, root), ref.world)
    return _instance_task(fam, ref.variant, ref.keys)


def all_tasks(root: Path | None = None, world: str | None = None) -> list[Task]:
    """The hand-made tasks (each family's instance at variant 0 with its default params)."""
    return [load_task_file(path, w) for path, w in task_files(root, world)]


def _instance_id(pattern: str) -> bool:
    """An instance's id (``meridian/fund-shortfall/v17``), not a glob or a family."""
    return pattern.count("/") >= 2 and not any(c in pattern for c in "*?[")


def _matches(pats: list[str], ident: str, world: str) -> bool:
    return any(fnmatch.fnmatchcase(ident, p) or world == p or ident == p for p in pats)


def select(pattern: str | None = None, root: Path | None = None) -> list[Task]:
    """Hand-made tasks whose id matches a glob (``meridian/*``, ``*/reply-*``) or a world name; an
    instance id (``meridian/fund-shortfall/v17``) selects that instance."""
    pats = [p.strip() for p in (pattern or "").split(",") if p.strip()]
    out = [load_task(p, root) for p in pats if _instance_id(p)]
    pats = [p for p in pats if not _instance_id(p)]
    if pats or not pattern:
        out += [t for t in all_tasks(root) if not pats or _matches(pats, t.id, t.world)]
    if not out:
        raise TaskError(f"no task matches {pattern!r}")
    return out


def select_instances(pattern: str | None = None, split: str | None = None,
                     root: Path | None = None) -> list[InstanceRef]:
    """Instances of the families whose id matches ``pattern`` (a glob, a world, or instance ids),
    in ``split`` (``train``, ``dev``, ``test``; None: all), in a fixed order."""
    if split is not None and split not in SPLITS:
        raise TaskError(f"unknown split {split!r}; splits: {', '.join(SPLITS)}")
    pats = [p.strip() for p in (pattern or "").split(",") if p.strip()]
    fam_pats = [p for p in pats if not _instance_id(p)]
    inst_pats = [p for p in pats if _instance_id(p)]
    out = []
    for fam in all_families(root):
        whole = not pats or _matches(fam_pats, fam.id, fam.world)
        try:
            refs = fam.instances()
        except FamilyError as e:
            raise TaskError(str(e)) from None
        for ref in refs:
            if (whole or _matches(inst_pats, ref.id, fam.world)) and (split is None or ref.split == split):
                out.append(ref)
    if not out:
        raise TaskError(f"no instance matches {pattern!r}" + (f" in the {split} split" if split else ""))
    return out


def sample_instances(refs: list[InstanceRef], per_family: int | None, seed: int = 0,
                     published: bool = False) -> list[InstanceRef]:
    """``per_family`` instances of each family drawn with a generator seeded by ``seed`` (None: all),
    ordered by world variant. A family of more than one instance gives instances of non-zero variants
    first; ``published`` adds each family's hand-made task as well."""
    import random
    by: dict[str, list[InstanceRef]] = {}
    for r in refs:
        by.setdefault(r.family, []).append(r)
    out = []
    for fam, rs in by.items():
        rng = random.Random(f"{seed}:{fam}")
        if per_family is None:
            chosen = list(rs)
        else:
            others = [r for r in rs if r.id != fam]
            own = [r for r in rs if r.id == fam]
            pool = rng.sample(others, min(per_family, len(others)))
            chosen = pool + (own if published or len(pool) < per_family else [])
            chosen = chosen[:per_family + (1 if published else 0)]
        out += chosen
    return sorted(out, key=lambda r: (r.world, r.variant, r.id))
