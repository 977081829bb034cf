"""deskworld tasks as Harbor task folders (Harbor 0.25, task schema 1.4), and the commands their
containers run.

``export(tasks, out)`` writes one folder per task or instance, in the layout ``harbor init`` scaffolds::

    <world>-<task>[-v<n>…]/
      task.toml              schema 1.4; a separate verifier; [[verifier.collect]] snapshots the end state
      instruction.md         the task's goal as the agent reads it, and where the apps are (the start URL)
      environment/           the agent's image: Debian + Chromium + what Harbor's computer-1 needs, deskworld
        Dockerfile             (deskworld-<version>.tar.gz) and the task's world (world.tar.gz, without its
        deskworld-start.sh     tasks/: no checks or answers in the agent's image), served at START_URL
      tests/                 the verifier's image: deskworld and the whole world; test.sh runs
        Dockerfile test.sh     ``deskworld harbor grade`` → /logs/verifier/reward.json (numbers) + result.json
      solution/solve.sh      ``deskworld harbor solve``: the task's scripted oracle (its tasks.tar.gz), its end
                             state put into the served store, its final message into /logs/agent/final_answer.txt

How an episode's end reaches the verifier (Harbor's separate verifier): the collect hook runs
``deskworld harbor snapshot`` in the agent's container after the agent stops — the served store's export
(``final.json.gz``, the same export ``deskworld run`` keeps per episode) and the agent's final message
(computer-1's ``/logs/agent/final_answer.txt``) go to ``/logs/artifacts/deskworld/``, which Harbor copies
into the verifier's container; there ``grade`` verifies them against the task's start state (the world's
template, as ``deskworld regrade`` does). A final message that starts with ``INFEASIBLE:`` is the agent's
``done(status=infeasible)``.

deskworld reaches the images as a source distribution made at export time from the tree that exports
(``deskworld-<version>.tar.gz``: ``pyproject.toml``, README, ``apps/``, ``harness/``), put in each build
context and installed with pip in the image: the folder is self-contained (Harbor builds each context on
its own), needs no package index holding deskworld, and carries exactly the code that exported it — the
verifier grades with the same revision of the task and its checks; pip builds it with the project's own
build backend in the image (no wheel tooling needed where the export runs). The one world the task uses
goes in as a tarball (about 1 MB; Docker's ADD unpacks it), its template compiled while the image builds.
Tarballs keep a folder to a dozen files, which Harbor's loader and linter walk quickly.

Every script honours environment variables for its roots, so a test runs them on a host:
``DESKWORLD`` (the command), ``DESKWORLD_HARBOR_LOGS`` (``/logs``), ``DESKWORLD_STATE`` (the served store's
file), ``DESKWORLD_WORLDS`` and ``DESKWORLD_CACHE`` (deskworld's own).
"""
from __future__ import annotations

import gzip
import json
import os
import shutil
import sqlite3
from pathlib import Path

from apps.core.store.compile import template_for
from apps.core.store.export import diff as state_diff
from apps.core.store.export import export as export_store
from apps.core.store.slot import Slot, connect
from apps.core.world import load_world, worlds_root
from harness.runs import layout
from harness.tasks.schema import Task
from harness.verify import verify

FORMATS = ("harbor",)
PORT = 8780
HOST = "127.0.0.1"
START_ORIGIN = f"http://{HOST}:{PORT}"
STATE = "/var/lib/deskworld/state.sqlite"
LOGS = "/logs"
ARTIFACTS_SUB = "artifacts/deskworld"        # under the logs root: Harbor's artifacts convention dir
FINAL = "final.json.gz"
ANSWER = "final_answer.txt"
INFEASIBLE = "INFEASIBLE:"
BASE_IMAGE = "python:3.12-slim-bookworm"
# Chromium, and what computer-1 starts and acts with (harbor/agents/computer_1): an X server, a desktop,
# VNC, xdotool/wmctrl, screenshots (scrot, ImageMagick, cwebp); fonts as deskworld's own browser setup.
AGENT_APT = ("chromium fonts-liberation fonts-dejavu-core fonts-noto-color-emoji xvfb xfce4 xfce4-terminal "
             "dbus-x11 x11vnc websockify xdotool wmctrl scrot imagemagick webp curl procps")
SOURCE_FILES = ("pyproject.toml", "README.md", "LICENSE")
SOURCE_DIRS = ("apps", "harness")
WORLD_TAR = "world.tar.gz"               # in environment/ (without tasks/) and tests/ (with them)
TASKS_TAR = "tasks.tar.gz"               # in solution/: the world's tasks, for the oracle


class HarborExportError(Exception):
    """The export can't be made (nothing chosen, a bad --out, no source tree); nothing was written."""


# ---------------------------------------------------------------- names
def folder_name(task: Task) -> str:
    """``meridian/corvane-deductible/v1`` → ``meridian-corvane-deductible-v1``."""
    return task.id.replace("/", "-")


def harbor_name(task: Task) -> str:
    return f"deskworld/{folder_name(task)}"


def start_url(task: Task) -> str:
    return START_ORIGIN + task.start_path


def logs_root() -> Path:
    return Path(os.environ.get("DESKWORLD_HARBOR_LOGS") or LOGS)


def state_path() -> Path:
    return Path(os.environ.get("DESKWORLD_STATE") or STATE)


# ---------------------------------------------------------------- the folder's files
def _s(value) -> str:
    """A TOML value (strings, numbers, booleans and lists of them: JSON's spelling is TOML's)."""
    return json.dumps(value, ensure_ascii=False)


def task_toml(task: Task) -> str:
    meta = {"world": task.world, "world_ref": task.world_ref, "task_id": task.id, "family": task.family or task.id,
            "variant": task.variant, "split": task.split, "revision": task.revision, "title": task.title,
            "apps": list(task.apps), "difficulty": str(getattr(task.difficulty, "value", task.difficulty)),
            "tags": list(task.tags), "max_steps": task.max_steps, "answer_task": task.answer is not None,
            "infeasible_task": bool(task.infeasible), "start_url": start_url(task)}
    lines = ['schema_version = "1.4"', "artifacts = []", "", "[task]", f"name = {_s(harbor_name(task))}",
             'version = "1.0.0"', f"description = {_s(task.title)}", f"keywords = {_s(['deskworld', task.world, *task.apps])}",
             "", "[[task.authors]]", 'name = "deskworld"', "", "[metadata]"]
    lines += [f"{k} = {_s(v)}" for k, v in meta.items()]
    lines += ["", "[verifier]", "timeout_sec = 600.0", 'environment_mode = "separate"', "",
              "# After the agent: the served store's export and the agent's final message into /logs/artifacts/deskworld/",
              "[[verifier.collect]]", 'command = "deskworld harbor snapshot"', "timeout_sec = 120.0", "",
              "[verifier.env]", "", "[agent]", f"timeout_sec = {float(max(900, task.max_steps * 30))}", "",
              "[environment]", 'network_mode = "public"', "build_timeout_sec = 1800.0", 'os = "linux"',
              "cpus = 2", "memory_mb = 4096", "mcp_servers = []", "",
              "# The world is served once the container has started (deskworld-start.sh)",
              "[environment.healthcheck]", f'command = "curl -fsS -o /dev/null {START_ORIGIN}/"',
              "interval_sec = 2.0", "timeout_sec = 10.0", "start_period_sec = 60.0", "retries = 30", "",
              "[environment.env]", "", "[solution.env]", ""]
    return "\n".join(lines)


def instruction_md(task: Task) -> str:
    return (f"{task.goal.strip()}\n\n---\n\n"
            f"The workspace apps ({', '.join(task.apps)}) run in this machine's Chromium at "
            f"<{start_url(task)}>; you are already signed in. Everything the task needs is there.\n\n"
            "Your final message is your answer: end it with `ANSWER:` followed by the answer when the task asks "
            f"for information. If the task can't be done, begin your final message with `{INFEASIBLE}` and say why.\n")


def agent_dockerfile(task: Task, sdist: str) -> str:
    return f"""\
# The agent's machine for {task.id}: Debian, Chromium and what Harbor's computer-1 agent needs (X server,
# desktop, VNC, xdotool, screenshots), deskworld, and the task's world served at {START_ORIGIN}.
# The world is copied without its tasks/ folder: no checks or answers in the agent's image.
FROM {BASE_IMAGE}

ENV DEBIAN_FRONTEND=noninteractive
RUN apt-get update \\
    && apt-get install -y --no-install-recommends {AGENT_APT} \\
    && rm -rf /var/lib/apt/lists/*

COPY {sdist} /opt/deskworld/
RUN python -m pip install --no-cache-dir /opt/deskworld/{sdist}

ADD {WORLD_TAR} /opt/deskworld/worlds/
ENV DESKWORLD_WORLDS=/opt/deskworld/worlds \\
    DESKWORLD_CACHE=/opt/deskworld/cache \\
    DESKWORLD_STATE={STATE} \\
    DESKWORLD_HARBOR_LOGS={LOGS}
RUN deskworld compile {task.world_ref}

COPY deskworld-start.sh /usr/local/bin/deskworld-start.sh
RUN chmod +x /usr/local/bin/deskworld-start.sh
WORKDIR /root
# Harbor replaces the command (sleep infinity), not the entrypoint: the world is served first.
ENTRYPOINT ["/usr/local/bin/deskworld-start.sh"]
CMD ["sleep", "infinity"]
"""


def start_script(task: Task) -> str:
    cw = f" --coworkers {_sh(','.join(task.coworkers))}" if task.coworkers else ""
    user = f" --user {_sh(task.user)}" if task.user else ""
    return f"""\
#!/bin/sh
# Serve {task.id}'s seeded world at {START_ORIGIN} (its store in $DESKWORLD_STATE), then run the
# container's command (Harbor's sleep infinity). On a host (tests): DESKWORLD_PORT, DESKWORLD_RUN (the
# server's pid and log) and DESKWORLD (the command) redirect it.
RUN="${{DESKWORLD_RUN:-/var/run/deskworld}}"
mkdir -p "$RUN"
${{DESKWORLD:-deskworld}} harbor serve --world {_sh(task.world_ref)}{user}{cw} --host {HOST} --port "${{DESKWORLD_PORT:-{PORT}}}" \\
    >"$RUN/serve.log" 2>&1 &
echo $! >"$RUN/serve.pid"
exec "$@"
"""


def _sh(text: str) -> str:
    import shlex
    return shlex.quote(text)


def verifier_dockerfile(task: Task, sdist: str) -> str:
    return f"""\
# The verifier's machine for {task.id}: deskworld and the whole world (its tasks and checks), no browser.
FROM {BASE_IMAGE}

COPY {sdist} /opt/deskworld/
RUN python -m pip install --no-cache-dir /opt/deskworld/{sdist}

ADD {WORLD_TAR} /opt/deskworld/worlds/
ENV DESKWORLD_WORLDS=/opt/deskworld/worlds \\
    DESKWORLD_CACHE=/opt/deskworld/cache \\
    DESKWORLD_HARBOR_LOGS={LOGS}
RUN deskworld compile {task.world_ref}

WORKDIR /app

COPY . /tests/
"""


def test_sh(task: Task) -> str:
    return f"""\
#!/bin/bash
# Grade {task.id}: the agent's end state and final message, collected by [[verifier.collect]] into
# /logs/artifacts/deskworld/, verified with deskworld's verifier against the task's start state.
# Writes /logs/verifier/reward.json (numbers only: reward, passed, checks_passed, checks_total) and the
# detailed checks in /logs/verifier/result.json.
LOGS="${{DESKWORLD_HARBOR_LOGS:-{LOGS}}}"
mkdir -p "$LOGS/verifier"
${{DESKWORLD:-deskworld}} harbor grade {_sh(task.id)} --artifacts "$LOGS/{ARTIFACTS_SUB}" --out "$LOGS/verifier"
"""


def solve_sh(task: Task) -> str:
    return f"""\
#!/bin/bash
# {task.id}'s scripted solution (deskworld's oracle) on the served world: its end state goes into the
# served store ($DESKWORLD_STATE), its final message into /logs/agent/final_answer.txt.
set -e
HERE="$(cd "$(dirname "$0")" && pwd)"
LOGS="${{DESKWORLD_HARBOR_LOGS:-{LOGS}}}"
mkdir -p "$LOGS/agent"
${{DESKWORLD:-deskworld}} harbor solve {_sh(task.id)} --tasks-from "$HERE/{TASKS_TAR}" --answer-out "$LOGS/agent/{ANSWER}"
"""


def readme_md(task: Task) -> str:
    return (f"# {harbor_name(task)}\n\n{task.title} — deskworld task `{task.id}` (revision {task.revision}, "
            f"split {task.split}), exported by `deskworld export-tasks --format harbor`.\n\n"
            f"The apps are served at {start_url(task)} inside the agent's container.\n\n"
            "```\nharbor run -p . -a oracle\n"
            f"harbor run -p . -a computer-1 -m <model> --ak start_url={start_url(task)}\n```\n")


# ---------------------------------------------------------------- writing
def source_root() -> Path:
    """deskworld's source tree (a checkout or an editable install): what goes into the images."""
    import apps
    root = Path(apps.__file__).resolve().parents[1]
    if not (root / "pyproject.toml").is_file():
        raise HarborExportError(f"deskworld's source tree is not next to its installed package ({root} has no "
                                "pyproject.toml): export from a checkout or an editable install "
                                "(pip install -e .), whose code goes into the task images")
    return root


_IGNORE = shutil.ignore_patterns("__pycache__", "*.pyc", ".pytest_cache", "*.egg-info")


def _skip(info):
    name = Path(info.name).name
    return None if name in ("__pycache__", ".pytest_cache") or name.endswith((".pyc", ".egg-info")) else info


def make_sdist(root: Path, dest: Path) -> Path:
    """deskworld's source distribution (``deskworld-<version>/`` with pyproject.toml, README, apps, harness):
    pip builds and installs it in the image."""
    import tarfile
    import tomllib
    version = tomllib.loads((root / "pyproject.toml").read_text())["project"]["version"]
    top = f"deskworld-{version}"
    path = dest / f"{top}.tar.gz"
    with tarfile.open(path, "w:gz") as tar:
        for name in SOURCE_FILES + SOURCE_DIRS:
            if (root / name).exists():
                tar.add(root / name, arcname=f"{top}/{name}", filter=_skip)
    return path


def world_tar(world: str, path: Path, *, with_tasks: bool) -> Path:
    """The world's folder as ``<world>/…`` in a tarball (Docker's ADD unpacks it)."""
    import tarfile

    def keep(info):
        parts = Path(info.name).parts
        if not with_tasks and len(parts) > 1 and parts[1] == "tasks":
            return None
        return _skip(info)
    with tarfile.open(path, "w:gz") as tar:
        tar.add(worlds_root() / world, arcname=world, filter=keep)
    return path


def _untar(path: Path, dest: Path) -> None:
    import tarfile
    dest.mkdir(parents=True, exist_ok=True)
    with tarfile.open(path) as tar:
        tar.extractall(dest, filter="data")


def _write(path: Path, text: str, executable: bool = False) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    if executable:
        path.chmod(0o755)


def check_out_dir(out: Path) -> None:
    if out.exists() and not out.is_dir():
        raise HarborExportError(f"--out {out} is a file, not a folder")
    if out.is_dir() and any(out.iterdir()):
        raise HarborExportError(f"--out {out} is not empty: give a new or empty folder")


def export(tasks: list[Task], out: str | Path) -> list[Path]:
    """Write one Harbor task folder per task into ``out`` (new or empty); the folders written."""
    out = Path(out)
    if not tasks:
        raise HarborExportError("no task to export")
    check_out_dir(out)
    names = [folder_name(t) for t in tasks]
    dup = sorted({n for n in names if names.count(n) > 1})
    if dup:
        raise HarborExportError(f"the same task twice: {', '.join(dup)}")
    root = source_root()
    created = not out.exists()
    out.mkdir(parents=True, exist_ok=True)
    written = []
    import tempfile
    try:
        with tempfile.TemporaryDirectory(prefix="deskworld-sdist-") as tmp:
            sdist = make_sdist(root, Path(tmp))
            for task in tasks:
                written.append(_export_one(task, out / folder_name(task), sdist))
    except BaseException:
        for d in written + [out / folder_name(t) for t in tasks]:
            shutil.rmtree(d, ignore_errors=True)
        if created:
            shutil.rmtree(out, ignore_errors=True)
        raise
    return written


def _export_one(task: Task, d: Path, sdist: Path) -> Path:
    _write(d / "task.toml", task_toml(task))
    _write(d / "instruction.md", instruction_md(task))
    _write(d / "README.md", readme_md(task))
    _write(d / ".gitignore", "__pycache__/\n")
    env, tests, sol = d / "environment", d / "tests", d / "solution"
    _write(env / "Dockerfile", agent_dockerfile(task, sdist.name))
    _write(env / "deskworld-start.sh", start_script(task), executable=True)
    shutil.copyfile(sdist, env / sdist.name)
    world_tar(task.world, env / WORLD_TAR, with_tasks=False)
    _write(tests / "Dockerfile", verifier_dockerfile(task, sdist.name))
    _write(tests / "test.sh", test_sh(task), executable=True)
    shutil.copyfile(sdist, tests / sdist.name)
    world_tar(task.world, tests / WORLD_TAR, with_tasks=True)
    _write(sol / "solve.sh", solve_sh(task), executable=True)
    import tarfile
    with tarfile.open(sol / TASKS_TAR, "w:gz") as tar:
        tar.add(worlds_root() / task.world / "tasks", arcname="tasks", filter=_skip)
    return d


# ---------------------------------------------------------------- in the containers
def served_app(world_ref: str, state: Path, *, user: str | None = None, coworkers: list[str] = ()):
    """The apps over the world's start state in the file ``state`` (made anew), the task's co-worker
    scenario turned on, every visitor signed in as the task's user (``deskworld serve``'s settings)."""
    from apps import create_app
    from apps.coworkers.engine import set_scenario
    world = load_world(world_ref)
    slot = Slot(template_for(world), path=state)
    with slot.store() as st:
        set_scenario(st, list(coworkers))
    return create_app({"WORLD": world_ref, "SLOT": slot, "AUTO_LOGIN": True, "USER": user,
                       "TICK_ON_REQUEST": True})


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


def snapshot(state: Path, logs: Path) -> Path:
    """The served store's export and the agent's final message into ``<logs>/artifacts/deskworld/``."""
    dest = logs / ARTIFACTS_SUB
    dest.mkdir(parents=True, exist_ok=True)
    final = read_store(state)
    with gzip.open(dest / FINAL, "wt", encoding="utf-8") as f:
        f.write(layout.dumps(final))
    answer = logs / "agent" / ANSWER
    if answer.is_file():
        shutil.copyfile(answer, dest / ANSWER)
    return dest


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
    """(answer, done status) from a final message: ``INFEASIBLE: why`` is ``done(status=infeasible)``."""
    if not path.is_file():
        return None, None
    text = path.read_text(encoding="utf-8", errors="replace").strip()
    if text.upper().startswith(INFEASIBLE):
        return text[len(INFEASIBLE):].strip(), "infeasible"
    return text, "complete"


def grade(task: Task, artifacts: Path, out: Path) -> dict:
    """Verify the collected end state; write ``reward.json`` (numbers only) and ``result.json`` into ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    answer, status = read_answer(artifacts / ANSWER)
    detail = {"task": task.id, "revision": task.revision, "answer": answer, "done_status": status}
    final_path = artifacts / FINAL
    if not final_path.is_file():
        reward = {"reward": 0.0, "passed": 0, "checks_passed": 0, "checks_total": 0}
        detail.update(status="error", error=f"no end state collected ({final_path} is missing): the "
                      "[[verifier.collect]] snapshot did not run or the served world was down")
    else:
        with gzip.open(final_path, "rt", encoding="utf-8") as f:
            final = json.load(f)
        initial, root = start_state(task)
        res = verify(task, initial, final, state_diff(initial, final), answer=answer, done_status=status,
                     world_root=root)
        items = [*res.checks, *([res.answer] if res.answer else []), *res.rubric]
        passed = sum(1 for i in items if isinstance(i, dict) and i.get("passed"))
        reward = {"reward": float(res.score), "passed": int(bool(res.passed)), "checks_passed": passed,
                  "checks_total": len(items)}
        detail.update(res.to_dict())
    (out / "result.json").write_text(layout.dumps(detail), encoding="utf-8")
    (out / "reward.json").write_text(json.dumps(reward), encoding="utf-8")
    return reward


def install_tasks(task_world: str, tasks_from: Path | None) -> None:
    """The solution's copy of the world's tasks, where the agent's image has none (the oracle needs them)."""
    dest = worlds_root() / task_world / "tasks"
    if dest.is_dir() or tasks_from is None:
        return
    if not tasks_from.is_file():
        raise FileNotFoundError(f"no tasks tarball at {tasks_from}")
    _untar(tasks_from, dest.parent)


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


# ---------------------------------------------------------------- a trial on this machine (no Docker)
def host_trial(folder: str | Path, work: str | Path, *, agents: tuple[str, ...] = ("oracle",), port: int,
               timeout: float = 120.0) -> list[dict]:
    """Play an exported folder's trial the way Harbor's docker environment does, with every root redirected
    into ``work`` (new or empty): the agent's and the verifier's worlds copied from the build contexts, the
    entrypoint's server started and its start URL awaited (the healthcheck); then for each of ``agents`` in
    turn on that served world — ``oracle``: ``solution/solve.sh``; ``nothing``: the agent does nothing — the
    ``[[verifier.collect]]`` commands, the artifacts copied to a fresh verifier side, ``tests/test.sh``.
    Returns one ``{"reward": reward.json, "result": result.json, "reward_json": path}`` per agent; the
    server is stopped."""
    import signal
    import subprocess
    import sys
    import time
    import tomllib
    import urllib.request
    folder, work = Path(folder).resolve(), Path(work).resolve()
    config = tomllib.loads((folder / "task.toml").read_text())
    agent_logs, run = work / "agent-logs", work / "run"
    _untar(folder / "environment" / WORLD_TAR, work / "agent-worlds")       # as the images' ADD
    _untar(folder / "tests" / WORLD_TAR, work / "verifier-worlds")
    for d in (agent_logs / "agent", agent_logs / "artifacts", run):
        d.mkdir(parents=True, exist_ok=True)
    base = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    agent_env = {**base, "DESKWORLD_WORLDS": str(work / "agent-worlds"), "DESKWORLD_HARBOR_LOGS": str(agent_logs),
                 "DESKWORLD_STATE": str(work / "state" / "state.sqlite"), "DESKWORLD_RUN": str(run),
                 "DESKWORLD_PORT": str(port)}
    subprocess.run(["sh", str(folder / "environment" / "deskworld-start.sh"), "true"], env=agent_env, check=True)
    pid = int((run / "serve.pid").read_text())
    out = []
    try:
        url = config["metadata"]["start_url"].replace(f":{PORT}/", f":{port}/", 1)
        deadline = time.monotonic() + timeout
        while True:
            try:
                with urllib.request.urlopen(url, timeout=5) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"the served world never answered at {url}: "
                                   + (run / "serve.log").read_text()[-2000:])
            time.sleep(0.2)
        for i, agent in enumerate(agents):
            if agent == "oracle":
                subprocess.run(["bash", str(folder / "solution" / "solve.sh")], env=agent_env, check=True)
            elif agent != "nothing":
                raise ValueError(f"agent {agent!r}: oracle or nothing")
            for hook in config.get("verifier", {}).get("collect", []):
                subprocess.run(["sh", "-c", hook["command"]], env=agent_env, check=True,
                               timeout=hook.get("timeout_sec"))
            logs = work / f"verifier-logs-{i}-{agent}"
            (logs / "verifier").mkdir(parents=True)
            shutil.copytree(agent_logs / "artifacts", logs / "artifacts")     # Harbor: into the verifier
            subprocess.run(["bash", str(folder / "tests" / "test.sh")], check=True,
                           env={**base, "DESKWORLD_WORLDS": str(work / "verifier-worlds"),
                                "DESKWORLD_HARBOR_LOGS": str(logs)})
            out.append({"reward": json.loads((logs / "verifier" / "reward.json").read_text()),
                        "result": json.loads((logs / "verifier" / "result.json").read_text()),
                        "reward_json": logs / "verifier" / "reward.json"})
    finally:
        os.kill(pid, signal.SIGTERM)
    return out
