"""Task quality control: ``deskworld check [PATTERN]``.

For each task: the file is valid; the oracle scores 1; doing nothing scores 0;
junk answers (empty, "0", "N/A", a hedge listing several values) score 0; for
an infeasible task, ``done(status=infeasible)`` scores 1 and ``complete`` 0.
Across all tasks, at most 10% are infeasible. For each world: every
co-worker text trigger accepts each phrasing it lists (and none of its
counterexamples), and every scenario trigger a task names exists.

``variants`` (``deskworld check --variants``): the oracle also runs once on each appearance
variant given (``harness.env.variant``: by default one value of each axis beyond the default,
``VARIANT_AXES``) and must score 1 there too; ``TaskReport.variants`` holds each one's result.
"""
from __future__ import annotations

import itertools
import json
import multiprocessing as mp
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path

from apps.core.store.compile import template_for
from apps.core.store.slot import Slot
from apps.core.world import load_world
from apps.coworkers import engine
from apps.coworkers.seed import load
from harness.agents import make
from harness.env import DeskEnv
from harness.env.variant import ANY, Variant
from harness.qc.adversaries.suite import Catalogue, run_task
from harness.qc.adversaries.workbench import Benches, Ending
from harness.runs.episode import run_episode
from harness.tasks.registry import all_tasks, load_task
from harness.verify import Status, expected_answer, verify

MAX_INFEASIBLE = 0.10
CHUNK = 12              # tasks a worker checks before its reports come back (one browser per chunk)
# check --variants: one value of each axis beyond the default (``all``: every value, Variant.axis_values).
VARIANT_AXES = ("viewport=1920x1080", "scale=2", "zoom=1.25", "theme=dark", "density=compact", "shuffle=1",
                "locale=de-DE")


def variant_set(which: str | None, tools_only: bool = False) -> list[str]:
    """``--variants`` (``axes``: ``VARIANT_AXES``; ``all``: every axis value beyond the default) as variant names."""
    if not which:
        return []
    if tools_only:
        import click
        raise click.UsageError("--variants runs the oracle in the browser: not with --tools-only")
    if which == "all":
        return [str(v) for _, v in Variant.axis_values()]
    return list(VARIANT_AXES)


@dataclass
class TaskReport:
    task: str
    problems: list[str] = field(default_factory=list)
    oracle_steps: int = 0
    oracle_score: float | None = None
    noop_score: float | None = None
    lines: list[str] = field(default_factory=list)
    adversaries: object = None             # harness.qc.adversaries.base.TaskAdversaries
    variants: dict = field(default_factory=dict)   # variant name -> {"score", "status", "steps", "error"?}

    @property
    def ok(self) -> bool:
        return not self.problems and (self.adversaries is None or self.adversaries.ok)


def junk_answers(task, expected) -> list[str]:
    spec = task.answer
    junk = ["", "0", "N/A"]
    if spec.type == "number":
        v = float(str(expected).replace(",", ""))
        junk.append(f"{v:,.0f}, {v + 1:,.0f} or {v * 2:,.0f}")
    elif spec.type == "date":
        junk.append(f"{expected} or 2026-01-01")
    elif spec.type == "string":
        junk.append(f"{expected} or something else")
    elif spec.type == "set":
        junk.append(", ".join(spec.values + ["ZZ-nothing"]))
    return junk


class _Recording:
    """An agent whose actions are kept (the oracle's, to replay the first half of them)."""

    def __init__(self, agent):
        self.agent, self.actions = agent, []
        self.name = agent.name

    def reset(self, task) -> None:
        self.actions = []
        self.agent.reset(task)

    def act(self, obs):
        out = self.agent.act(obs)
        self.actions += out if isinstance(out, list) else [out]
        return out


LONG_HORIZON = "long-horizon"          # the tier's tag: its tasks earn partial credit along the way


def checkpoint_problems(env, task, milestones, actions: list, *, truncated: bool = True) -> list[str]:
    """A task with checkpoints: the oracle reached every one (each judged along the way before its
    last step, ``done``); for the
    long-horizon tier (``truncated``), the first half of its actions (then ``done``) scores
    strictly between 0 and 1 and does not pass."""
    out = []
    missing = [c.name for c in task.checkpoints if c.name not in milestones.reached]
    if missing:
        out.append(f"the oracle never reached checkpoint{'s' if len(missing) > 1 else ''} {', '.join(missing)}")
    else:
        late = milestones.late(len(actions))
        if late:
            out.append(f"checkpoint{'s' if len(late) > 1 else ''} {', '.join(late)} held only when the oracle "
                       "ended: a checkpoint judged along the way should hold once its work is done (or be at_end)")
    if not truncated:
        return out
    half = [a for a in actions[: len(actions) // 2] if not (isinstance(a, dict) and a.get("type") == "done")]
    obs, _ = env.reset(options={"task": task})
    end = None
    for a in [*half, {"type": "done", "status": "complete"}]:
        obs, _, term, trunc, info = env.step(a)
        if term or trunc:
            end = env.unwrapped.episode.result
            break
    if end is None or end.status == Status.ERROR:
        out.append("the first half of the oracle's actions did not end in a verdict")
    elif end.passed or not 0 < end.score < 1:
        out.append(f"the first half of the oracle's actions ({len(half)} of {len(actions)}) scores {end.score}"
                   f"{' and passes' if end.passed else ''}: a truncated run should earn partial credit, not all or none")
    return out


def variant_problems(env, task, variants: list[str], rep: TaskReport) -> list[str]:
    """The oracle on each appearance variant (``env`` made with ``variant="any"``): it must score 1."""
    out = []
    for name in variants:
        row = run_episode(env, make("oracle", env=env), task, variant=name)
        rep.variants[name] = {"score": row["score"], "status": row["status"], "steps": row["steps"],
                              **({"error": row["error"]} if row.get("error") else {})}
        if row["status"] == Status.ERROR or not row["passed"] or row["score"] != 1.0:
            res = env.unwrapped.episode.result
            detail = row.get("error") or "; ".join(l for l in (res.lines if res else []) if l.startswith("✗")) \
                or "not passed"
            out.append(f"variant {name}: oracle scores {row['score']} ({row['status']}): {detail}")
    return out


def variant_table(reports: list[TaskReport], variants: list[str]):
    """``check --variants``: per variant, how many oracles passed and which tasks failed (a rich Table)."""
    from rich.table import Table
    vt = Table(title="oracle per appearance variant")
    for col in ("variant", "tasks", "oracle passes", "failures", "errors", "failed tasks"):
        vt.add_column(col)
    for name in variants:
        got = [(r.task, r.variants[name]) for r in reports if name in r.variants]
        bad = [t for t, v in got if v["score"] != 1.0 or v["status"] == Status.ERROR]
        vt.add_row(name, str(len(got)), str(len(got) - len(bad)), str(len(bad)),
                   str(sum(1 for _, v in got if v["status"] == Status.ERROR)), ", ".join(bad)[:300])
    return vt


def check_task(env, task, bench=None, catalogue=None, variants: list[str] | None = None) -> TaskReport:
    """One task's QC; with a workbench (``harness.qc.adversaries``) its adversaries too; with
    ``variants`` (names), the oracle on each of them too."""
    rep = TaskReport(task.id)
    oracle = _Recording(make("oracle", env=env))
    row = run_episode(env, oracle, task)
    rep.oracle_steps = row["steps"]
    rep.oracle_score = row["score"]
    episode, session = env.unwrapped.episode, env.unwrapped.session
    res = episode.result
    rep.lines = res.lines if res else []
    snapshot = None
    if bench is not None and row["status"] != "error":
        snapshot = (session.snapshot(), Ending(episode.answer, res.done_status or "complete" if res else "complete"))
    if row["status"] == Status.ERROR or not row["passed"] or row["score"] != 1.0:
        detail = row.get("error") or "; ".join(l for l in rep.lines if l.startswith("✗")) or "not passed"
        rep.problems.append(f"oracle scores {row['score']} ({row['status']}): {detail}")
    if task.checkpoints and row["status"] != Status.ERROR:
        rep.problems += checkpoint_problems(env, task, episode.milestones, oracle.actions,
                                            truncated=LONG_HORIZON in task.tags)
    noop = run_episode(env, make("noop"), task)
    rep.noop_score = noop["score"]
    if noop["status"] == "error":
        rep.problems.append(f"do-nothing run errored: {noop.get('error')}")
    elif noop["passed"] or noop["score"] != 0:
        rep.problems.append(f"doing nothing scores {noop['score']} (passed={noop['passed']})")
    initial = session.initial_state(task.world_ref)
    world_root = session.desk(task.world_ref).world.root
    empty = {"tables": {}}
    if task.answer is not None:
        exp = expected_answer(task, initial, world_root)
        for junk in junk_answers(task, exp):
            r = verify(task, initial, initial, empty, answer=junk, done_status="complete", world_root=world_root)
            if r.passed or r.score > 0:
                rep.problems.append(f"junk answer {junk!r} scores {r.score}")
    if task.infeasible:
        # Giving up with the oracle's explanation scores 1 (and without one, when none is asked for).
        said = (task.oracle[-1].done or {}).get("answer") if task.explain else None
        r = verify(task, initial, initial, empty, answer=said, done_status="infeasible", world_root=world_root)
        if not r.passed or r.score != 1:
            rep.problems.append("done(status=infeasible) with the oracle's explanation does not score 1")
        if task.explain:
            r = verify(task, initial, initial, empty, answer=None, done_status="infeasible", world_root=world_root)
            if r.passed or r.score != 0:
                rep.problems.append("done(status=infeasible) without the explanation the task asks for scores above 0")
        r = verify(task, initial, initial, empty, answer=None, done_status="complete", world_root=world_root)
        if r.passed or r.score != 0:
            rep.problems.append("done(status=complete) scores above 0 on an infeasible task")
    if bench is not None:
        rep.adversaries = run_task(task, bench, catalogue, oracle=snapshot)
    if variants:
        rep.problems += variant_problems(env, task, variants, rep)
    return rep


def coworker_problems(world_name: str, tasks) -> tuple[list[str], str]:
    """Problems with a world's co-workers (phrasings, references) and the tasks'
    scenario triggers; plus a one-line summary."""
    world = load_world(world_name)
    spec = load(world)
    slot = Slot(template_for(world))
    try:
        with slot.store() as st:
            problems = [f"{world_name} co-workers: {p}" for p in engine.validate(st, spec)]
    finally:
        slot.close()
    scenario = {f"{c.id}:{t.id}" for c in spec.coworkers for t in c.triggers if t.scenario}
    for t in tasks:
        for name in t.coworkers:
            if name not in scenario:
                problems.append(f"{t.id}: coworkers names {name!r}, which is not a scenario trigger "
                                f"in {world_name}/coworkers.yaml")
    text = [t for c in spec.coworkers for t in c.triggers if t.when == "message"]
    summary = (f"{world_name}: {len(spec.coworkers)} co-workers, {len(text)} text triggers, "
               f"{sum(len(t.examples) for t in text)} phrasings accepted, "
               f"{sum(len(t.counterexamples) for t in text)} counterexamples refused")
    return problems, summary


def check(tasks, *, progress=None, workers: int = 1, adversaries: bool = False,
          tools_only: bool = False, variants: list[str] | None = None,
          on_report=None) -> tuple[list[TaskReport], list[str]]:
    """QC every task; ``workers`` > 1 checks them in that many spawned processes (one browser each),
    reports in the tasks' order. ``adversaries``: the adversary suite too; ``tools_only``: only it;
    ``variants``: appearance variant names the oracle must also pass on (``variant_set``);
    ``on_report(report)``: called with each task's report as soon as it is checked (``--log``)."""
    variants = [str(Variant.of(v)) for v in variants or []]
    overall = []
    ids = [t if isinstance(t, str) else t.id for t in tasks]
    families = {i.split("/")[0] + "/" + i.split("/")[1] for i in ids}
    hand_made = [t for t in all_tasks() if t.id in families]      # the files' scenario triggers, once each
    for world_name in sorted({t.world for t in hand_made}):
        problems, summary = coworker_problems(world_name, [t for t in hand_made if t.world == world_name])
        overall += problems
        if progress and not problems:
            progress(summary)
    infeasible = [t for t in hand_made if t.infeasible]
    if hand_made and len(infeasible) / len(hand_made) > MAX_INFEASIBLE and len(hand_made) >= 10:
        overall.append(f"{len(infeasible)} of {len(hand_made)} tasks are infeasible (at most {MAX_INFEASIBLE:.0%})")
    mode = "tools" if tools_only else ("adversaries" if adversaries else "plain")
    if workers <= 1 or len(tasks) < 2:
        return _check_all(tasks, progress, mode, variants, on_report), overall
    # One variant at a time to each worker (it compiles and holds only that one), in chunks, the biggest
    # first; each chunk's reports come back as soon as it is checked, so a long run shows its progress
    # (and what it found) as it goes, the workers share the work evenly, and a stopped run has reported
    # what it finished (every chunk but the ones under way).
    groups: dict[str, list[str]] = {}
    for i in ids:
        groups.setdefault(_ref_of(i), []).append(i)
    chunks = [g[k:k + CHUNK] for g in groups.values() for k in range(0, len(g), CHUNK)]
    with ProcessPoolExecutor(max_workers=workers, mp_context=mp.get_context("spawn")) as pool:
        futures = [pool.submit(_check_ids, g, mode, variants) for g in sorted(chunks, key=len, reverse=True)]
        done = []
        for f in as_completed(futures):
            part = f.result()
            done.append(part)
            for r in part:
                if progress:
                    progress(r)
                if on_report:
                    on_report(r)
    by_id = {r.task: r for part in done for r in part}
    return [by_id[i] for i in ids], overall


def _ref_of(task_id: str) -> str:
    """The world reference an instance id is set in (``meridian/x/v17-a`` → ``meridian@17``)."""
    parts = task_id.split("/")
    if len(parts) >= 3 and parts[2][:1] == "v":
        digits = "".join(itertools.takewhile(str.isdigit, parts[2][1:]))
        if digits and digits != "0":
            return f"{parts[0]}@{digits}"
    return parts[0]


def _check_ids(ids: list[str], mode: str = "plain", variants: list[str] | None = None) -> list[TaskReport]:
    return _check_all(ids, None, mode, variants)


_CATALOGUES: dict[frozenset, Catalogue] = {}       # a worker's, built once for all its chunks


def _catalogue(worlds) -> Catalogue:
    key = frozenset(worlds)
    if key not in _CATALOGUES:
        _CATALOGUES[key] = Catalogue.for_worlds(key)
    return _CATALOGUES[key]


def _check_all(tasks, progress, mode: str = "plain", variants: list[str] | None = None,
               on_report=None) -> list[TaskReport]:
    """``tasks``: Task objects or ids (loaded one at a time: a worker given a thousand instances
    renders each when it comes to it)."""
    benches, catalogue = Benches(), None
    if mode != "plain":
        catalogue = _catalogue({(t if isinstance(t, str) else t.id).split("/", 1)[0] for t in tasks})
    env = None
    reports = []
    try:
        for t in tasks:
            tid = t if isinstance(t, str) else t.id
            try:
                if isinstance(t, str):
                    t = load_task(t)
                if progress:
                    progress(t)
                if mode == "tools":
                    reports.append(TaskReport(t.id, adversaries=run_task(t, benches[t.world_ref], catalogue)))
                else:
                    if env is None:
                        env = DeskEnv(t, variant=ANY if variants else None)
                    reports.append(check_task(env, t, benches[t.world_ref] if mode != "plain" else None, catalogue,
                                              variants))
            except Exception as e:
                r = TaskReport(tid)
                r.problems.append(f"{type(e).__name__}: {e}")
                reports.append(r)
            if on_report:
                on_report(reports[-1])
    finally:
        if env is not None:
            env.close()
        benches.close()
    return reports


def print_reports(console, reports: list[TaskReport], suites: list, *, tools_only: bool = False, verbose: bool = False,
                  variants: list[str] | None = None) -> None:
    """``deskworld check``'s tables: one row per task, the adversaries by kind (and each wrong verdict, or
    every one with ``verbose``), and with ``variants`` the oracle per appearance variant."""
    from rich.table import Table

    from harness.qc.adversaries.suite import totals
    table = Table(title=f"deskworld check ({len(reports)} tasks)")
    cols = ("task",) + (() if tools_only else ("oracle", "noop", "steps")) + \
        (("adversaries", "false pass", "false fail") if suites else ()) + ("result",)
    for col in cols:
        table.add_column(col)
    for r in reports:
        a = r.adversaries
        problems = r.problems + (a.problems + [f"false pass: {o.name}" for o in a.false_passes]
                                 + [f"false fail: {o.name}" for o in a.false_fails]
                                 + [f"can't build {o.name}" for o in a.errors] if a else [])
        row = [r.task]
        if not tools_only:
            row += ["—" if r.oracle_score is None else f"{r.oracle_score:g}",
                    "—" if r.noop_score is None else f"{r.noop_score:g}", str(r.oracle_steps)]
        if suites:
            row += [str(a.tried), str(len(a.false_passes)), str(len(a.false_fails))] if a else ["—"] * 3
        row.append("[green]ok[/green]" if r.ok else "[red]" + "; ".join(problems)[:400] + "[/red]")
        table.add_row(*row)
    console.print(table)
    if suites:
        t = totals(suites)
        kinds = Table(title="adversaries by kind")
        for col in ("kind", "tried", "false passes", "false fails"):
            kinds.add_column(col)
        for k, v in sorted(t["by_kind"].items()):
            kinds.add_row(k, str(v["tried"]), str(v["false_passes"]), str(v["false_fails"]))
        console.print(kinds)
        console.print(f"{t['tried']} adversaries over {t['tasks']} tasks: {t['false_passes']} false passes, "
                      f"{t['false_fails']} false fails, {t['errors']} not built, {t['problems']} task problems")
        for a in suites:
            for o in a.outcomes if verbose else a.false_passes + a.false_fails + a.errors:
                tag = ("false pass" if o.false_pass else "false fail" if o.false_fail
                       else "not built" if o.error else "ok")
                console.print(f"  {a.task} {o.name} [{o.expect}]: {tag} — {(o.error or o.why)[:300]}",
                              markup=False, highlight=False)
    if variants:
        console.print(variant_table(reports, variants))


# ------------------------------------------------------------------ check --log FILE: a run that goes on
class LogMismatch(ValueError):
    """``--log FILE`` written by a check with other options: going on with it would mix two checks."""


def report_row(r: TaskReport) -> dict:
    """A task's report as a line of ``--log`` (and of ``--json``)."""
    return {"task": r.task, "ok": r.ok, "problems": r.problems, "oracle_score": r.oracle_score,
            "noop_score": r.noop_score, **({"adversaries": r.adversaries.to_dict()} if r.adversaries else {}),
            **({"variants": r.variants} if r.variants else {})}


class CheckLog:
    """``deskworld check --log FILE``: each task's report appended (a JSON line) as soon as it is checked,
    after a first line naming the check's options. Run the same command again with the same file and it
    goes on: a task already checked there without a problem is not checked again (one with a problem is).
    A file written by a check with other options is refused, naming them, before anything is checked."""

    def __init__(self, path, options: dict):
        self.path = Path(path)
        self.before: dict[str, dict] = {}
        if self.path.exists() and self.path.stat().st_size:
            lines = self.path.read_text().splitlines()
            try:
                head = json.loads(lines[0])
                rows = [json.loads(x) for x in lines[1:] if x.strip()]
            except (json.JSONDecodeError, IndexError):
                raise LogMismatch(f"{self.path} is not a check log (JSON lines): give a new file") from None
            was = head.get("check") if isinstance(head, dict) else None
            if not isinstance(was, dict):
                raise LogMismatch(f"{self.path} is not a check log (its first line names no check): give a new file")
            if was != options:
                differ = "; ".join(f"{k} was {was.get(k)!r}, now {options.get(k)!r}"
                                   for k in sorted(set(was) | set(options)) if was.get(k) != options.get(k))
                raise LogMismatch(f"{self.path} was written by a check with other options ({differ}): "
                                  f"give a new file, or the same options")
            for row in rows:                   # the last line of a task is its report
                if isinstance(row, dict) and "task" in row:
                    self.before[row["task"]] = row
        else:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.path.write_text(json.dumps({"check": options}) + "\n")

    def done(self) -> set[str]:
        """Tasks checked before without a problem."""
        return {t for t, row in self.before.items() if row.get("ok")}

    def write(self, r: TaskReport) -> None:
        with self.path.open("a") as f:
            f.write(json.dumps(report_row(r), default=str) + "\n")
