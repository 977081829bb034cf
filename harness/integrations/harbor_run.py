"""What an exported Harbor task's containers run (``deskworld harbor serve|snapshot|grade``): the ``desk``
service serves the world and snapshots its end into its own evidence folder, plays the oracle when
solution/solve.sh asks with the folder's token; the verifier grades the collected evidence, failing closed.
See ``harness.integrations.harbor`` for the layout."""
from __future__ import annotations

import gzip
import hashlib
import hmac
import json
import sqlite3
import tempfile
from pathlib import Path

from apps.core.store.compile import template_for
from apps.core.store.export import diff as state_diff
from apps.core.store.export import export as export_store
from apps.core.store.slot import Slot, connect
from apps.core.world import load_world, parse_ref, worlds_root
from harness.integrations.harbor import (ANSWER, FINAL, INFEASIBLE, ORACLE_HEADER, SOLVE_PATH, ZERO_REWARD,
                                         untar)
from harness.runs import layout
from harness.tasks.schema import Task
from harness.verify import verify

# ---------------------------------------------------------------- the desk service
def served_app(world_ref: str, state: Path, *, user: str | None = None, coworkers: list[str] = (),
               oracle_sha256: str | None = None):
    """``deskworld serve``'s app (every visitor signed in as the task's user, co-workers ticking on requests)
    over the world's start state in the file ``state`` (made anew), the task's co-worker scenario turned on.
    With ``oracle_sha256``, ``POST /_harbor/solve?task=ID`` carrying the token whose SHA-256 it is (and the
    world's tasks as a tarball) plays the task's oracle on the served world and answers its final message."""
    from apps import create_app
    from apps.coworkers.engine import set_scenario
    app = create_app({"WORLD": world_ref, "SLOT_PATH": state, "AUTO_LOGIN": True, "USER": user,
                      "TICK_ON_REQUEST": True})
    with app.config["SLOT"].store() as st:
        set_scenario(st, list(coworkers))
    if oracle_sha256:
        app.wsgi_app = _OracleDoor(app.wsgi_app, oracle_sha256, world_ref, state)
    return app


class _OracleDoor:
    """WSGI: the one request that plays the oracle; everything else goes to the apps."""

    def __init__(self, app, sha256: str, world_ref: str, state: Path):
        self.app, self.sha256, self.world_ref, self.state = app, sha256.lower(), world_ref, state

    def __call__(self, environ, start_response):
        if environ.get("PATH_INFO") != SOLVE_PATH:
            return self.app(environ, start_response)
        from urllib.parse import parse_qs
        token = environ.get("HTTP_" + ORACLE_HEADER.upper().replace("-", "_"), "")
        given = hashlib.sha256(token.encode()).hexdigest()
        if environ.get("REQUEST_METHOD") != "POST" or not token or not hmac.compare_digest(given, self.sha256):
            return _reply(start_response, "403 Forbidden", "not the solution's token\n")
        task_id = (parse_qs(environ.get("QUERY_STRING", "")).get("task") or [""])[0]
        try:
            size = int(environ.get("CONTENT_LENGTH") or 0)
            with tempfile.TemporaryDirectory(prefix="deskworld-oracle-") as tmp:
                tasks_tar = Path(tmp) / "tasks.tar.gz"
                tasks_tar.write_bytes(environ["wsgi.input"].read(size))
                install_tasks(parse_ref(self.world_ref)[0], tasks_tar)
                from harness.tasks.registry import load_task
                task = load_task(task_id)
                if task.world_ref != self.world_ref:
                    raise ValueError(f"{task_id} is not a task of the served world {self.world_ref}")
                answer = Path(tmp) / ANSWER
                solve(task, self.state, answer)
                text = answer.read_text(encoding="utf-8")
        except Exception as e:                     # noqa: BLE001 — the oracle's failure goes back to solve.sh
            return _reply(start_response, "500 Internal Server Error", f"the oracle failed: {type(e).__name__}: {e}\n")
        return _reply(start_response, "200 OK", text)


def _reply(start_response, status: str, text: str):
    body = text.encode("utf-8")
    start_response(status, [("Content-Type", "text/plain; charset=utf-8"), ("Content-Length", str(len(body)))])
    return [body]


def read_store(state: Path) -> dict:
    """The export of the store in the file ``state`` (a served world's, read while it runs)."""
    from apps.core.registry import all_tables
    from apps.core.store.db import Store
    if not state.is_file():
        raise FileNotFoundError(f"no served store at {state}")
    conn = connect(state)
    try:
        return export_store(Store(conn, {t.name: t for t in all_tables()}))
    finally:
        conn.close()


def snapshot(state: Path, evidence: Path) -> Path:
    """The served store's export into ``<evidence>/final.json.gz`` (the desk service's own folder)."""
    final = read_store(state)
    evidence.mkdir(parents=True, exist_ok=True)
    tmp = evidence / (FINAL + ".part")
    with gzip.open(tmp, "wt", encoding="utf-8") as f:
        f.write(layout.dumps(final))
    tmp.replace(evidence / FINAL)
    return evidence


def install_tasks(task_world: str, tasks_from: Path | None) -> None:
    """The solution's copy of the world's tasks, where the served world has none (the oracle needs them)."""
    dest = worlds_root() / task_world / "tasks"
    if dest.is_dir() or tasks_from is None:
        return
    if not tasks_from.is_file():
        raise FileNotFoundError(f"no tasks tarball at {tasks_from}")
    untar(tasks_from, dest.parent)


def solve(task: Task, state: Path, answer_out: Path) -> dict:
    """Run the task's oracle in deskworld's env (its own browser on its own copy of the start state), then
    put its end state into the served store and its final message into ``answer_out``; the episode's row."""
    from harness.agents.oracle import OracleAgent
    from harness.env import make_env
    from harness.runs.episode import run_episode
    env = make_env(task)
    try:
        agent = OracleAgent(env)
        row = run_episode(env, agent, task)
        if row["status"] == "error":
            raise RuntimeError(f"the oracle's episode failed: {row.get('error')}")
        ep = env.unwrapped.episode
        db = env.unwrapped.session.snapshot()
    finally:
        env.close()
    mem = sqlite3.connect(":memory:")
    mem.deserialize(db)
    dst = sqlite3.connect(str(state))
    try:
        mem.backup(dst)                  # SQLite's own copy: the served app's connection sees the new pages
    finally:
        dst.close()
        mem.close()
    answer_out.parent.mkdir(parents=True, exist_ok=True)
    text = ep.answer or ""
    if task.infeasible:
        text = f"{INFEASIBLE} {text}".strip()
    answer_out.write_text(text + "\n", encoding="utf-8")
    return row


# ---------------------------------------------------------------- the verifier
def start_state(task: Task) -> tuple[dict, Path]:
    """The task's start state (its world's template, before any co-worker scenario) and the world's root."""
    world = load_world(task.world_ref)
    slot = Slot(template_for(world))
    try:
        with slot.store() as st:
            return export_store(st), world.root
    finally:
        slot.close()


def read_answer(path: Path) -> tuple[str | None, str | None]:
    """(answer, done status) from a final message, read as deskworld's own model agents' closing text is
    (``harness.agents.model.final_action``: a line starting ``INFEASIBLE`` means ``done(status=infeasible)``);
    a question (``ASK_USER:``) has nobody to answer it here, so it stands as the answer."""
    from harness.agents.model import final_action
    if not path.is_file():
        return None, None
    text = path.read_text(encoding="utf-8", errors="replace").strip()
    done = final_action(text)
    return done.get("answer", text or None), done.get("status", "complete")


class GradeError(Exception):
    """The collected evidence can't be graded as this task's end state."""


def _check_meta(final: dict, initial: dict, task: Task) -> None:
    """The export is of this task's world, variant and template, or it is not this task's end state."""
    for key in ("world", "variant", "template"):
        if final.get(key) != initial.get(key):
            raise GradeError(f"the collected end state is not {task.id}'s: its {key} is {final.get(key)!r}, "
                             f"the task's {initial.get(key)!r}")


def own_unlogged(d: dict) -> int:
    """Attribute every change no app logged (actor ``unknown``: no ``_writes`` row) to the agent, in place;
    how many there were. Only the apps write the served store, each write logged with its actor; a change
    without one came from outside the apps, and the collateral-damage guard judges the agent's changes."""
    n = 0
    for t in d["tables"].values():
        for rec in (*t["added"], *t["removed"]):
            if rec.get("actor") == "unknown":
                rec["actor"], n = "agent", n + 1
            for f, who in list((rec.get("edits") or {}).items()):
                if who == "unknown":
                    rec["edits"][f], n = "agent", n + 1
        for rec in t["changed"]:
            for fld in rec["fields"].values():
                if fld.get("actor") == "unknown":
                    fld["actor"], n = "agent", n + 1
    return n


def grade(task: Task, evidence: Path, answer_file: Path, out: Path) -> dict:
    """Verify the collected end state (``<evidence>/final.json.gz``) and final message; write
    ``result.json`` then ``reward.json`` (numbers only) into ``out``. Never raises: whatever goes wrong
    (nothing collected, a corrupt or foreign export, a verifier error) is reward 0, status error, why."""
    out.mkdir(parents=True, exist_ok=True)
    detail: dict = {"task": task.id, "revision": task.revision}
    reward = dict(ZERO_REWARD)
    try:
        answer, status = read_answer(answer_file)
        detail.update(answer=answer, done_status=status)
        final_path = evidence / FINAL
        if not final_path.is_file():
            raise GradeError(f"no end state collected ({final_path} is missing): the desk service's "
                             "[[verifier.collect]] snapshot did not run or the served world was down")
        with gzip.open(final_path, "rt", encoding="utf-8") as f:
            final = json.load(f)
        if not isinstance(final, dict) or not isinstance(final.get("tables"), dict):
            raise GradeError(f"{final_path} is not a store export")
        initial, root = start_state(task)
        _check_meta(final, initial, task)
        d = state_diff(initial, final)
        unlogged = own_unlogged(d)
        res = verify(task, initial, final, d, answer=answer, done_status=status, world_root=root)
        items = [*res.checks, *([res.answer] if res.answer else []), *res.rubric]
        passed = sum(1 for i in items if isinstance(i, dict) and i.get("passed"))
        reward = {"reward": float(res.score), "passed": int(bool(res.passed)), "checks_passed": passed,
                  "checks_total": len(items)}
        detail.update(res.to_dict())
        detail["unlogged_changes"] = unlogged
    except Exception as e:                         # noqa: BLE001 — fail closed, and say why
        reward = dict(ZERO_REWARD)
        detail.update(status="error", error=f"{e}" if isinstance(e, GradeError) else f"{type(e).__name__}: {e}")
    try:
        _atomic(out / "result.json", layout.dumps(detail))
    finally:
        _atomic(out / "reward.json", json.dumps(reward))
    return reward


def write_error(out: Path, task_id: str, why: str) -> None:
    """reward 0 and the reason, for a grade that can't even start (an unknown task)."""
    out.mkdir(parents=True, exist_ok=True)
    _atomic(out / "result.json", json.dumps({"task": task_id, "status": "error", "error": why}))
    _atomic(out / "reward.json", json.dumps(ZERO_REWARD))


def _atomic(path: Path, text: str) -> None:
    tmp = path.with_name(path.name + ".part")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)


__all__ = ["served_app", "read_store", "snapshot", "install_tasks", "solve", "start_state", "read_answer",
           "grade", "own_unlogged", "GradeError"]
