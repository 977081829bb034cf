"""The run folder: where each file of a recorded run lives, and reading and writing them.

A run (``deskworld run --out DIR``) is plain JSON, JSONL, gzip JSON and PNG, laid out as the
schema below says (``run_layout_schema()``, also appended to this docstring). This module is the
one place that knows the layout: the recorder and the runner write through it; ``regrade``, the
viewer, ``export``, ``media`` and the replay agent read through it. A file that can't be used is
reported the same way by every reader: ``Unreadable``, whose message names the file and why
("steps.jsonl line 3 is corrupt", "result.json is missing").

Writes that a reader could see half-done are atomic (a temporary name, then a rename):
``run.json``, ``summary.json``, a rewritten ``results.jsonl``, the gzip states. An episode is
written into a hidden folder and renamed into place by ``harness.runs.recorder``; readers skip
dot-names.
"""
from __future__ import annotations

import gzip
import json
import os
import re
from dataclasses import dataclass
from pathlib import Path

LAYOUT_VERSION = 1                 # run.json's "schema"

RUN_JSON = "run.json"
RESULTS = "results.jsonl"
SUMMARY = "summary.json"
STATES = "states"
EPISODES = "episodes"
STEPS = "steps.jsonl"
SCREENS = "screens"
START_SCREEN = f"{SCREENS}/0000.png"
RESULT = "result.json"
DIFF = "diff.json"
FINAL = "final.json.gz"
TRACE = "trace.zip"
LABELS = "labels.json"              # human grades (deskworld view, harness.qc.agreement)

_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._~-]*$")
INSTANCE_SEP = "~"          # meridian/fund-shortfall/v17 is kept in episodes/meridian/fund-shortfall~v17/
_MISSING = object()


class Unreadable(Exception):
    """A file of a run that can't be used; the message says which and why."""


# ---------------------------------------------------------------- paths
def is_name(segment) -> bool:
    """A world, task or run folder name that is one plain path segment (no dot-name, no separator)."""
    return isinstance(segment, str) and _NAME.match(segment) is not None


def task_folder(task_id: str) -> tuple[str, str]:
    """A task id's world and folder name: ``meridian/fund-shortfall`` → ``("meridian", "fund-shortfall")``,
    an instance ``meridian/fund-shortfall/v17`` → ``("meridian", "fund-shortfall~v17")``;
    ``Unreadable("bad task id")`` unless every part is a plain name."""
    parts = str(task_id).split("/")
    if len(parts) not in (2, 3) or not all(is_name(p) and INSTANCE_SEP not in p for p in parts):
        raise Unreadable("bad task id")
    return parts[0], INSTANCE_SEP.join(parts[1:])


def task_id_of(world: str, folder: str) -> str:
    """The task id a world and task folder name stand for (``task_folder``'s inverse)."""
    return f"{world}/{folder.replace(INSTANCE_SEP, '/', 1)}"


def episode_dir(run_dir: str | Path, task_id: str, sample: int) -> Path:
    """``DIR/episodes/<world>/<task>/<sample>`` (an instance's task folder is ``<family>~<instance>``);
    ``Unreadable("bad task id")`` unless the id is ``<world>/<task>`` or ``<world>/<family>/<instance>``
    of plain names (so no id names a folder outside ``episodes/``)."""
    world, name = task_folder(task_id)
    return Path(run_dir) / EPISODES / world / name / str(int(sample))


def partial_dir(run_dir: str | Path, task_id: str, sample: int, pid: int) -> Path:
    """The hidden folder an episode is written into before it is renamed into place."""
    final = episode_dir(run_dir, task_id, sample)
    return final.parent / f".{final.name}.partial-{pid}"


def partial_dirs(run_dir: str | Path, task_id: str, sample: int) -> list[Path]:
    """What any process left of an episode it did not finish (its hidden partial folders)."""
    final = episode_dir(run_dir, task_id, sample)
    return sorted(final.parent.glob(f".{final.name}.partial-*"))


def screen_name(index: int) -> str:
    """Where screenshot ``index`` of an episode is kept: ``screens/0000.png`` is the start screen,
    ``screens/NNNN.png`` the screen after action NNNN."""
    return f"{SCREENS}/{index:04d}.png"


def is_run_dir(path: Path) -> bool:
    """A run folder: has run.json, results.jsonl or episodes/."""
    path = Path(path)
    return (path / RUN_JSON).exists() or (path / RESULTS).exists() or (path / EPISODES).is_dir()


def child_runs(base: Path) -> list[Path]:
    """The run folders directly inside ``base`` (a folder of runs), sorted by name."""
    try:
        return sorted(p for p in Path(base).iterdir() if p.is_dir() and is_name(p.name) and is_run_dir(p))
    except OSError:
        return []


def episode_dirs(run_dir: str | Path, task: str | None = None) -> list[Path]:
    """Every finished episode folder of a run (or of one ``task``), by world, task and sample number;
    hidden folders (episodes being written) are skipped."""
    root = Path(run_dir) / EPISODES
    if not root.is_dir():
        return []
    if task is not None:
        world, name = task_folder(task)
        tasks = [root / world / name]
    else:
        tasks = [t for w in sorted(p for p in root.iterdir() if p.is_dir() and not p.name.startswith("."))
                 for t in sorted(p for p in w.iterdir() if p.is_dir() and not p.name.startswith("."))]
    out = []
    for t in tasks:
        if t.is_dir():
            out += sorted((p for p in t.iterdir() if p.is_dir() and p.name.isdigit()), key=lambda p: int(p.name))
    return out


# ---------------------------------------------------------------- JSON
def dumps(obj) -> str:
    """The layout's JSON: one line, keys sorted, UTF-8 as is (``results.jsonl``, ``steps.jsonl``,
    ``result.json``, ``diff.json``, the states)."""
    return json.dumps(obj, ensure_ascii=False, sort_keys=True, default=str)


def _replace(path: Path, text: str, tmp: Path | None = None) -> None:
    tmp = tmp or path.with_name(f".{path.name}-{os.getpid()}")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)                          # a reader never sees half a file


def write_json(path: Path, obj) -> None:
    """``obj`` in the layout's JSON, replacing ``path`` atomically."""
    path = Path(path)
    _replace(path, dumps(obj), path.with_name(f".{path.name}.tmp"))


def read_json(path: Path, *, default=_MISSING):
    """The JSON document in ``path``; ``default`` when it is missing, if given. Unreadable when it is
    missing (without a default), can't be read or isn't JSON."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        if default is not _MISSING:
            return default
        raise Unreadable(f"{path.name} is missing") from None
    except (OSError, UnicodeDecodeError) as e:
        raise Unreadable(f"{path.name} is unreadable ({type(e).__name__})") from None
    try:
        return json.loads(text)
    except ValueError as e:
        raise Unreadable(f"{path.name} is corrupt ({type(e).__name__}: {str(e)[:120]})") from None


def read_object(path: Path, **kw) -> dict:
    """``read_json`` of a file that must hold a JSON object."""
    data = read_json(path, **kw)
    if not isinstance(data, dict):
        raise Unreadable(f"{Path(path).name} is not an object")
    return data


def _lines(path: Path) -> list[str]:
    try:
        return path.read_text(encoding="utf-8").splitlines()
    except FileNotFoundError:
        raise Unreadable(f"{path.name} is missing") from None
    except (OSError, UnicodeDecodeError) as e:
        raise Unreadable(f"{path.name} is unreadable ({type(e).__name__})") from None


# ---------------------------------------------------------------- run.json, results.jsonl, summary.json
def read_run_json(run_dir: str | Path) -> dict:
    """The run's ``run.json``; Unreadable when missing, corrupt or not an object."""
    return read_object(Path(run_dir) / RUN_JSON)


def write_run_json(run_dir: str | Path, data: dict) -> None:
    """Replace the run's ``run.json`` (indented, keys sorted) atomically."""
    path = Path(run_dir) / RUN_JSON
    _replace(path, json.dumps(data, indent=2, sort_keys=True), path.with_name(f".{RUN_JSON}-{os.getpid()}"))


def write_summary(run_dir: str | Path, summary: dict) -> None:
    """The run's ``summary.json`` as ``deskworld run`` writes it (indented, keys sorted)."""
    _replace(Path(run_dir) / SUMMARY, json.dumps(summary, indent=2, sort_keys=True, default=str))


def result_lines(run_dir: str | Path) -> list:
    """Every line of ``results.jsonl`` parsed, in order, ``None`` for a line that isn't JSON (a line cut
    short by a crash); blank lines are skipped. Unreadable when the file is missing or can't be read."""
    out = []
    for line in _lines(Path(run_dir) / RESULTS):
        if line.strip():
            try:
                out.append(json.loads(line))
            except json.JSONDecodeError:
                out.append(None)
    return out


def read_results(run_dir: str | Path) -> list:
    """The results rows of a run (none when it has no ``results.jsonl``); a line that isn't JSON is
    not a result."""
    if not (Path(run_dir) / RESULTS).exists():
        return []
    return [r for r in result_lines(run_dir) if r is not None]


def append_result(run_dir: str | Path, row: dict) -> None:
    """Add one episode's row to ``results.jsonl``, on disk before this returns."""
    with open(Path(run_dir) / RESULTS, "a", encoding="utf-8") as f:
        f.write(dumps(row) + "\n")
        f.flush()
        os.fsync(f.fileno())


def write_results(run_dir: str | Path, rows: list[dict]) -> None:
    """Replace ``results.jsonl`` with ``rows`` atomically."""
    path = Path(run_dir) / RESULTS
    _replace(path, "".join(dumps(r) + "\n" for r in rows), path.with_name(f"{RESULTS}.tmp"))


# ---------------------------------------------------------------- an episode
def read_steps(path: Path) -> list[dict]:
    """The steps of ``steps.jsonl`` (the file, or the episode folder holding it), one object a line."""
    path = Path(path)
    if path.is_dir():
        path = path / STEPS
    steps = []
    for i, line in enumerate(_lines(path), 1):
        if not line.strip():
            continue
        try:
            s = json.loads(line)
        except json.JSONDecodeError:
            raise Unreadable(f"{STEPS} line {i} is corrupt") from None
        if not isinstance(s, dict):
            raise Unreadable(f"{STEPS} line {i} is not an object")
        steps.append(s)
    return steps


def screens(ep_dir: Path, steps: list[dict]) -> dict[int, str]:
    """The screenshots of an episode by step (0: the start screen, when there is one), as paths
    relative to its folder; Unreadable for a screenshot path that isn't one inside it."""
    shots = {0: START_SCREEN} if (Path(ep_dir) / START_SCREEN).exists() else {}
    for i, s in enumerate(steps, 1):
        rel = s.get("screenshot")
        if not rel:
            continue
        if not isinstance(rel, str) or rel.startswith(("/", "\\")) or ".." in Path(rel).parts:
            raise Unreadable(f"bad screenshot path {rel!r}")
        shots[i] = rel
    return shots


@dataclass
class Episode:
    """A finished episode folder, read: its steps, its result and its screenshots."""
    dir: Path
    steps: list[dict]
    result: dict
    screens: dict[int, str]          # step → screenshot path relative to ``dir``; 0 is the start screen

    def screen_before(self, n: int) -> str | None:
        """The screenshot the agent looked at when it chose action ``n`` (the latest one before it)."""
        return next((self.screens[j] for j in range(n - 1, -1, -1) if j in self.screens), None)

    def diff(self) -> dict:
        """``diff.json`` (no changes when the episode has none)."""
        return read_json(self.dir / DIFF, default={"tables": {}})


def read_episode(ep_dir: str | Path) -> Episode:
    """The episode in ``ep_dir``; Unreadable when its folder, ``steps.jsonl`` or ``result.json`` is
    missing or corrupt, or a screenshot path is bad."""
    ep = Path(ep_dir)
    if not ep.is_dir():
        raise Unreadable("episode folder is missing")
    steps = read_steps(ep / STEPS)
    result = read_object(ep / RESULT)
    return Episode(ep, steps, result, screens(ep, steps))


# ---------------------------------------------------------------- end states (final.json.gz, states/)
def _write_gz(path: Path, obj) -> None:
    tmp = path.with_name(f".{path.name}-{os.getpid()}")
    with gzip.open(tmp, "wt", encoding="utf-8", compresslevel=6) as f:
        f.write(dumps(obj))
    os.replace(tmp, path)


def _read_gz(path: Path):
    with gzip.open(path, "rt", encoding="utf-8") as f:
        return json.load(f)


def _start_name(export: dict) -> str:
    return f"{export.get('world')}-{(export.get('template') or 'unknown')[:16]}.json.gz"


def write_end_states(run_dir: str | Path, ep_dir: Path, initial: dict, final: dict) -> None:
    """Keep an episode's end state: the start export once per world template in ``states/``, and in
    the episode's ``final.json.gz`` the end export's tables that differ from it (and the top level)."""
    name = _start_name(initial)
    path = Path(run_dir) / STATES / name
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        _write_gz(path, initial)
    tables = {n: t for n, t in final["tables"].items() if initial["tables"].get(n) != t}
    _write_gz(Path(ep_dir) / FINAL, {**{k: v for k, v in final.items() if k != "tables"}, "start": name,
                                      "tables": tables})


def load_end_states(run_dir: str | Path, ep_dir: str | Path) -> tuple[dict, dict] | None:
    """An episode's (start, end) exports, or None when it didn't keep them (older runs, errors)."""
    path = Path(ep_dir) / FINAL
    if not path.exists():
        return None
    delta = _read_gz(path)
    initial = _read_gz(Path(run_dir) / STATES / delta["start"])
    final = {**{k: v for k, v in delta.items() if k not in ("tables", "start")},
             "tables": {**initial["tables"], **delta["tables"]}}
    return initial, final


# ---------------------------------------------------------------- the schema
_SCHEMA = """\
# deskworld run layout v{v}

A recorded run (`deskworld run --out DIR`) is plain JSON, JSONL and PNG. `run.json` carries
`"schema": {v}`; a reader should refuse a higher major version. Unknown fields must be ignored.

```
DIR/run.json
DIR/results.jsonl
DIR/summary.json
DIR/states/<world>-<template>.json.gz   the start export of each world template the run used
DIR/episodes/<world>/<task>/<sample>/
    steps.jsonl
    screens/0000.png 0001.png ...
    result.json
    diff.json
    final.json.gz      the end export: the tables that differ from the start, the write log
    [trace.zip]        Playwright trace (--trace)
    [labels.json]      human grades (deskworld view), never written by the agent or runner
```

An episode is written to a hidden folder (`.<sample>.partial-<pid>`) and renamed into place when
complete; its `results.jsonl` line is appended last. Readers should skip dot-folders.

## run.json

| field | type | meaning |
|---|---|---|
| `schema` | int | layout version ({v}) |
| `agent` | str | agent name (`oracle`, `noop`, `random`, `replay:<dir>`, …) |
| `model` | str \\| null | model name, when the agent has one |
| `deskworld` | str | package version (`dev` from a checkout) |
| `k` | int | samples per task |
| `seed` | int | the run's base seed |
| `workers` | int | worker processes |
| `worlds` | {{world: str}} | hash of each world's compiled template |
| `tasks` | {{task id: int}} | revision of each task run |
| `start`, `end` | ISO 8601 str \\| null | UTC; `end` is null while running |
| `resumes` | [{{start, end, pending, added, workers, deskworld, …}}] | each `--resume` of the run (absent if never resumed); `start` stays the first run's |
| `host` | {{python, machine, cpus}} | where it ran |
| `variants` | [{{name, viewport, scale, zoom, theme, density, shuffle, locale}}] | the appearance variants the run used (absent without); k samples on each |
| `human` | {{name, mode}} | a person's recording (`deskworld record`; agent `human:<name>`) |

## results.jsonl — one line per finished episode

| field | type | meaning |
|---|---|---|
| `task` | str | `<world>/<task>` |
| `revision` | int | task revision |
| `agent` | str | agent name (`human:<name>` for a person's recording) |
| `sample` | int | sample index, 0 … k-1 (with variants: v·k … v·k+k-1 on variant v) |
| `variant` | str | the appearance variant's canonical text (`scale=2,theme=dark`); absent without variants |
| `score` | float | 0 … 1 |
| `passed` | bool | verifier verdict |
| `steps` | int | actions taken |
| `seconds` | float | wall time |
| `status` | str | `passed` \\| `failed` \\| `error` (the environment broke; left out of pass@k) |
| `error` | str | only when status is `error` |
| `retried` | bool | present when an `error` episode was retried |

A line cut short by a crash is ignored. With `--resume`, a (task, sample) appears once.

## summary.json

`k`; `overall` {{tasks, pass@1, pass@k, pass^k, mean_score, mean_steps, episodes, errors,
error_rate}}; `per_app` and `per_tag` {{name: {{tasks, pass@1, pass@k, pass^k, mean_score,
mean_steps}}}}; `per_task` {{task: {{samples, passes, errors, pass@1, pass@k, pass^k, mean_score,
mean_steps, trainable}}}}; `trainable` [task ids where some samples pass, not all]; with variants
`per_variant` {{variant: {{tasks, pass@1, …, episodes, errors}}}} and `per_task_variant`
{{task: {{variant: {{…per_task stats}}}}}}.

## steps.jsonl — one line per action

| field | type | meaning |
|---|---|---|
| `step` | int | 1-based action index |
| `action` | object | the action (`{{"type": "click", "x": …, "y": …}}`, …; see `harness.env.actions.describe()`) |
| `url` | str | page URL after the action |
| `error` | str | why the action failed (`""` when it did not) |
| `screenshot` | str \\| null | `screens/<step:04d>.png`, the screen after the action |
| `ms` | {{agent, env}} | milliseconds the agent took to decide / the environment to act and settle |
| `reward` | float | reward returned by the env for this step |
| `terminated`, `truncated` | bool | episode ended (done / step limit) |
| `thought`, `reasoning`, `raw`, `output`, `model`, `message`, `text`, `usage` | any | optional, model agents: reasoning, raw model output, token usage |
| `person` | {{look_ms, gesture_ms}} | a person's recording: from the screen appearing to the gesture's start, and the gesture itself, as the page measured them |

Action *n* was chosen looking at `screens/<n-1>.png`; `screens/0000.png` is the start screen.

## screens/NNNN.png

PNG screenshots of the viewport (1280×800 by default; an appearance variant's screen, viewport × scale,
otherwise); `0000.png` before the first action,
`NNNN.png` after action NNNN.

## result.json — the verifier's verdict

| field | type | meaning |
|---|---|---|
| `status` | str | `passed` \\| `failed` \\| `error` |
| `passed` | bool | |
| `score` | float | weighted share of criteria met, 0 … 1 |
| `lines` | [str] | human-readable verdict, one per check (`✓`, `✗`, `…` pending, `!` error) |
| `checks` | [object] | each state check: name, passed, expected, found |
| `rubric` | [{{name, weight, kind, passed}}] | rubric criteria (`kind` `check` or `judge`; a judge's `passed` is null, pending) |
| `collateral` | [object] | what the guard found: `op` `added` \\| `removed` \\| `changed` (table, key, field, before, after) for a change nothing vouched for, `disclosed` (table, key, `to`) for something that reached an outsider no check required, `duplicated` (table, key, `of`) for a record made twice |
| `done_status` | str \\| null | status the agent gave in `done` (`complete`, `infeasible`, …) |
| `answer` | str \\| null | the answer the agent submitted |
| `error` | str \\| null | environment error message |
| `task`, `revision`, `sample`, `steps`, `seconds` | | as in results.jsonl |
| `variant` | {{name, viewport, scale, zoom, theme, density, shuffle, locale, screen}} | the episode's appearance variant (absent without) |

## diff.json — state changes from start to end

```
{{"tables": {{<table>: {{"fields": {{<field>: <class>}},
                      "added":   [{{"key", "record": {{…}}, "actor"}}],
                      "removed": [{{"key", "record": {{…}}, "actor"}}],
                      "changed": [{{"key", "fields": {{<field>: {{"before", "after", "class", "actor"}}}}}}]}}}}}}
```

Only tables that changed appear; `actor` is `agent`, a co-worker id, or `unknown`. `{{"tables": {{}}}}`
when nothing changed or the environment broke.

## final.json.gz and states/ — the end state, for regrading

`final.json.gz` (gzip JSON) is the episode's end export (`apps.core.store.export`) with only the
tables that differ from the start, plus `"start"`: the file in `DIR/states/` holding the start
export. Start ∪ end tables is the full end state; `deskworld regrade DIR` verifies it again with
today's tasks (`harness.runs.layout.load_end_states`). Episodes that ended in `error` keep none.

## labels.json — human grades (optional)

```
{{"version": 1, "labels": [{{"grader": str, "at": ISO 8601 str, "passed": bool,
                            "score": float, "criteria": {{<criterion>: float 0…1}}, "note": str}}]}}
```

Appended by the viewer's grading form; a grader's latest label counts (`deskworld qc`).
"""


def run_layout_schema() -> str:
    """The run layout's schema as Markdown, with its version number (for the README)."""
    return _SCHEMA.format(v=LAYOUT_VERSION)


__doc__ = (__doc__ or "") + "\n" + run_layout_schema()
