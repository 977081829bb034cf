"""deskworld tasks as Harbor task folders (Harbor 0.25, task schema 1.4), and the commands their
containers run (``harbor_run``; a trial on this machine: ``harbor_trial``).

``export(tasks, out)`` writes one folder per task or instance, in the layout ``harbor init`` scaffolds,
with the world in a Docker Compose sidecar (Harbor's ``environment/docker-compose.yaml``)::

    <world>-<task>[-v<n>…]/
      task.toml              schema 1.4; a separate verifier; two [[verifier.collect]] hooks and the desk's
                             evidence folder as an artifact of the ``desk`` service
      instruction.md         the goal, where the apps are (http://desk:8780/…), how to answer, the step budget
      environment/           the agent's service (``main``): Debian + Chromium + what computer-1 needs and
        Dockerfile             nothing of deskworld — no code, no world, no store (.dockerignore keeps desk/
        .dockerignore          out of its build context)
        docker-compose.yaml    ``main`` waits for ``desk`` to be healthy; ``desk`` is built from desk/
        desk/Dockerfile        the world's service: deskworld (its sdist) and the world without its tasks,
        desk/deskworld-….tar.gz  served at http://desk:8780 (``deskworld harbor serve``); its store and the
        desk/world.tar.gz        collected evidence live in its own filesystem
      tests/                 the verifier's image: deskworld and the whole world; test.sh runs
        Dockerfile test.sh     ``deskworld harbor grade`` → /logs/verifier/reward.json (numbers) + result.json
      solution/solve.sh      the oracle: asks the desk service (a token only solution/ holds) to play the
      solution/tasks.tar.gz  task's scripted solution on the served world; its final message → final_answer.txt

How an episode's end reaches the verifier: after the agent, Harbor runs the ``main`` hook (the agent's final
message, computer-1's ``/logs/agent/final_answer.txt``, copied into ``/logs/artifacts/deskworld/``), stops
the agent's container, then runs the ``desk`` hook (``deskworld harbor snapshot``: the served store's export
into the desk's own ``/var/lib/deskworld/evidence/``) and collects that folder from the desk's filesystem —
a channel the agent cannot write to (Harbor's ``_collect_artifacts_phased``). In the verifier's container
``grade`` reads the end state from ``/var/lib/deskworld/evidence`` only (never from ``/logs/artifacts``) and
verifies it against the task's start state; any failure is reward 0 with the reason in result.json.

deskworld reaches the desk's and the verifier's images as a source distribution made at export time from the
tree that exports (``deskworld-<version>.tar.gz``: ``pyproject.toml``, README, ``apps/``, ``harness/``),
installed with pip in the image: the folder is self-contained and carries exactly the code that exported it.

Every script honours environment variables for its roots, so a test runs them on a host:
``DESKWORLD`` (the command), ``DESKWORLD_HARBOR_LOGS`` (``/logs``), ``DESKWORLD_STATE`` (the served store's
file), ``DESKWORLD_EVIDENCE`` (the desk's evidence folder), ``DESKWORLD_DESK`` (the desk's URL, for solve.sh),
``DESKWORLD_WORLDS`` and ``DESKWORLD_CACHE`` (deskworld's own).
"""
from __future__ import annotations

import hashlib
import json
import secrets
import shlex
import shutil
from pathlib import Path

from apps.core.world import worlds_root
from harness.tasks.schema import Task

DESK = "desk"                            # the world's compose service
MAIN_SERVICE = "main"                    # Harbor's name for the agent's service
PORT = 8780
START_ORIGIN = f"http://{DESK}:{PORT}"   # as the agent's container reaches the desk service
STATE = "/var/lib/deskworld/state.sqlite"
EVIDENCE = "/var/lib/deskworld/evidence"  # in the desk service; the verifier gets it at the same path
LOGS = "/logs"
ARTIFACTS_SUB = "artifacts/deskworld"    # under the logs root: Harbor's artifacts convention dir
FINAL = "final.json.gz"
ANSWER = "final_answer.txt"
INFEASIBLE = "INFEASIBLE:"
SOLVE_PATH = "/_harbor/solve"            # the desk's oracle door (solution/solve.sh holds its token)
ORACLE_HEADER = "X-Deskworld-Oracle"
BASE_IMAGE = "python:3.12-slim-bookworm"
# Chromium, and what computer-1 starts and acts with (harbor/agents/computer_1): an X server, a desktop,
# VNC, xdotool/wmctrl, screenshots (scrot, ImageMagick, cwebp); fonts as deskworld's own browser setup.
AGENT_APT = ("chromium fonts-liberation fonts-dejavu-core fonts-noto-color-emoji xvfb xfce4 xfce4-terminal "
             "dbus-x11 x11vnc websockify xdotool wmctrl scrot imagemagick webp curl procps")
DESK_APT = "chromium fonts-liberation fonts-dejavu-core fonts-noto-color-emoji"   # the oracle's own browser
SOURCE_FILES = ("pyproject.toml", "README.md", "LICENSE")
SOURCE_DIRS = ("apps", "harness")
WORLD_TAR = "world.tar.gz"               # in environment/desk/ (without tasks/) and tests/ (with them)
TASKS_TAR = "tasks.tar.gz"               # in solution/: the world's tasks, for the oracle
ZERO_REWARD = {"reward": 0.0, "passed": 0, "checks_passed": 0, "checks_total": 0}   # reward.json, failing closed


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


# ---------------------------------------------------------------- the folder's files
def _s(value) -> str:
    """A TOML value (strings, numbers, booleans and lists of them: JSON's spelling is TOML's)."""
    return json.dumps(value, ensure_ascii=False)


def _sh(text: str) -> str:
    return shlex.quote(text)


# The main service's hook: the agent's final message (its own output) next to Harbor's artifacts.
ANSWER_HOOK = (f'L="${{DESKWORLD_HARBOR_LOGS:-{LOGS}}}"; mkdir -p "$L/{ARTIFACTS_SUB}" && '
               f'if [ -f "$L/agent/{ANSWER}" ]; then cp "$L/agent/{ANSWER}" "$L/{ARTIFACTS_SUB}/{ANSWER}"; fi')
SNAPSHOT_HOOK = "deskworld harbor snapshot"


def task_toml(task: Task) -> str:
    meta = {"world": task.world, "world_ref": task.world_ref, "task_id": task.id, "family": task.family or task.id,
            "variant": task.variant, "split": task.split, "revision": task.revision, "title": task.title,
            "apps": list(task.apps), "difficulty": str(getattr(task.difficulty, "value", task.difficulty)),
            "tags": list(task.tags), "max_steps": task.max_steps, "answer_task": task.answer is not None,
            "infeasible_task": bool(task.infeasible), "start_url": start_url(task)}
    lines = ['schema_version = "1.4"',
             "# The desk service's evidence (the served store's end state), collected from its own filesystem",
             f'artifacts = [{{ source = {_s(EVIDENCE)}, service = {_s(DESK)} }}]', "",
             "[task]", f"name = {_s(harbor_name(task))}",
             'version = "1.0.0"', f"description = {_s(task.title)}", f"keywords = {_s(['deskworld', task.world, *task.apps])}",
             "", "[[task.authors]]", 'name = "deskworld"', "", "[metadata]"]
    lines += [f"{k} = {_s(v)}" for k, v in meta.items()]
    lines += ["", "[verifier]", "timeout_sec = 600.0", 'environment_mode = "separate"', "",
              "# After the agent, in its container: its final message into /logs/artifacts/deskworld/",
              "[[verifier.collect]]", f"command = {_s(ANSWER_HOOK)}", "timeout_sec = 30.0", "",
              f"# Then, with the agent's container stopped, in the {DESK} service: the served store's end state",
              f"# into {EVIDENCE}/",
              "[[verifier.collect]]", f"command = {_s(SNAPSHOT_HOOK)}", f"service = {_s(DESK)}", "timeout_sec = 120.0", "",
              "[verifier.env]", "", "[agent]", f"timeout_sec = {float(max(900, task.max_steps * 30))}", "",
              "[environment]", 'network_mode = "public"', "build_timeout_sec = 1800.0", 'os = "linux"',
              "cpus = 2", "memory_mb = 4096", "mcp_servers = []", "",
              f"# The world answers at {START_ORIGIN} (the {DESK} service)",
              "[environment.healthcheck]", f'command = "curl -fsS -o /dev/null {START_ORIGIN}/"',
              "interval_sec = 2.0", "timeout_sec = 10.0", "start_period_sec = 60.0", "retries = 30", "",
              "[environment.env]", "", "[solution.env]", ""]
    return "\n".join(lines)


def instruction_md(task: Task) -> str:
    return (f"{task.goal.strip()}\n\n---\n\n"
            f"The workspace apps ({', '.join(task.apps)}) are served at <{start_url(task)}>: open it in this "
            "machine's Chromium; you are already signed in. Everything the task needs is there, and only the "
            "apps' own pages count: work through them.\n\n"
            f"You have {task.max_steps} steps (actions or turns) at most.\n\n"
            "Your final message is your answer: end it with `ANSWER:` followed by the answer when the task asks "
            f"for information. If the task can't be done, begin your final message with `{INFEASIBLE}` and say "
            f"why. Agents without a final message of their own (shell agents) write it to `{LOGS}/agent/{ANSWER}`; "
            "computer-1 writes that file itself.\n")


def _apt(packages: str) -> str:
    """A Dockerfile's Debian packages layer (on BASE_IMAGE)."""
    return f"""\
ENV DEBIAN_FRONTEND=noninteractive
RUN apt-get update \\
    && apt-get install -y --no-install-recommends {packages} \\
    && rm -rf /var/lib/apt/lists/*
"""


def _deskworld(task: Task, sdist: str, **env: str) -> str:
    """A Dockerfile's deskworld layers: its sdist installed, the world's tarball unpacked and compiled,
    deskworld's roots (and ``env``) in the image's environment."""
    env = {"DESKWORLD_WORLDS": "/opt/deskworld/worlds", "DESKWORLD_CACHE": "/opt/deskworld/cache", **env}
    lines = " \\\n    ".join(f"{k}={v}" for k, v in env.items())
    return f"""\
COPY {sdist} /opt/deskworld/
RUN python -m pip install --no-cache-dir /opt/deskworld/{sdist}

ADD {WORLD_TAR} /opt/deskworld/worlds/
ENV {lines}
RUN deskworld compile {task.world_ref}
"""


def agent_dockerfile(task: Task) -> str:
    return f"""\
# The agent's machine for {task.id}: Debian, Chromium and what Harbor's computer-1 agent needs (X server,
# desktop, VNC, xdotool, screenshots). Nothing of deskworld: the world is the {DESK} service at {START_ORIGIN}.
FROM {BASE_IMAGE}

{_apt(AGENT_APT)}
WORKDIR /root
"""


def compose_yaml(task: Task) -> str:
    return f"""\
# {task.id}: merged on top of Harbor's base compose file, which configures the agent's service (main).
# The world is the {DESK} service, built from ./{DESK}; main starts once it answers.
services:
  main:
    depends_on:
      {DESK}:
        condition: service_healthy
  {DESK}:
    build:
      context: ./{DESK}
    expose:
      - "{PORT}"
    healthcheck:
      test: ["CMD", "python", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:{PORT}/')"]
      interval: 2s
      timeout: 10s
      start_period: 60s
      retries: 30
"""


def desk_dockerfile(task: Task, sdist: str, token_sha256: str) -> str:
    cmd = ["deskworld", "harbor", "serve", "--world", task.world_ref]
    if task.user:
        cmd += ["--user", task.user]
    if task.coworkers:
        cmd += ["--coworkers", ",".join(task.coworkers)]
    cmd += ["--host", "0.0.0.0", "--port", str(PORT)]
    return f"""\
# The world's service for {task.id}: deskworld and the task's world (without its tasks/ folder), served at
# {START_ORIGIN}; its store ({STATE}) and the collected evidence ({EVIDENCE}) stay in this container.
# Chromium is the oracle's (solution/solve.sh asks this service to play the task's scripted solution).
FROM {BASE_IMAGE}

{_apt(DESK_APT)}
{_deskworld(task, sdist, DESKWORLD_STATE=STATE, DESKWORLD_EVIDENCE=EVIDENCE, DESKWORLD_ORACLE_SHA256=token_sha256)}
EXPOSE {PORT}
CMD {json.dumps(cmd)}
"""


def verifier_dockerfile(task: Task, sdist: str) -> str:
    return f"""\
# The verifier's machine for {task.id}: deskworld and the whole world (its tasks and checks), no browser.
FROM {BASE_IMAGE}

{_deskworld(task, sdist, DESKWORLD_HARBOR_LOGS=LOGS, DESKWORLD_EVIDENCE=EVIDENCE)}
WORKDIR /app

COPY . /tests/
"""


def test_sh(task: Task) -> str:
    return f"""\
#!/bin/bash
# Grade {task.id}: the end state the {DESK} service's hook collected ({EVIDENCE}/, never the agent's
# /logs/artifacts) and the agent's final message (/logs/artifacts/deskworld/{ANSWER}), verified with
# deskworld's verifier against the task's start state. Writes /logs/verifier/reward.json (numbers only:
# reward, passed, checks_passed, checks_total) and the detailed checks in /logs/verifier/result.json;
# whatever goes wrong, reward 0 (fail closed).
LOGS="${{DESKWORLD_HARBOR_LOGS:-{LOGS}}}"
EVIDENCE="${{DESKWORLD_EVIDENCE:-{EVIDENCE}}}"
mkdir -p "$LOGS/verifier"
rm -f "$LOGS/verifier/reward.json"
${{DESKWORLD:-deskworld}} harbor grade {_sh(task.id)} --evidence "$EVIDENCE" \\
    --answer "$LOGS/{ARTIFACTS_SUB}/{ANSWER}" --out "$LOGS/verifier"
rc=$?
if [ ! -s "$LOGS/verifier/reward.json" ]; then
    echo '{json.dumps(ZERO_REWARD)}' >"$LOGS/verifier/reward.json"
    echo "{{\\"task\\": \\"{task.id}\\", \\"status\\": \\"error\\", \\"error\\": \\"deskworld harbor grade failed (exit $rc) without a reward\\"}}" \\
        >"$LOGS/verifier/result.json"
fi
exit 0
"""


def solve_sh(task: Task, token: str) -> str:
    return f"""\
#!/bin/bash
# {task.id}'s scripted solution (deskworld's oracle), played by the {DESK} service on the served world
# (its end state lands in the served store); its final message goes to /logs/agent/{ANSWER}.
# The token is the solution's alone: the {DESK} service keeps only its SHA-256.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
LOGS="${{DESKWORLD_HARBOR_LOGS:-{LOGS}}}"
DESK="${{DESKWORLD_DESK:-{START_ORIGIN}}}"
mkdir -p "$LOGS/agent"
curl -fsS --max-time 1200 -X POST -H "{ORACLE_HEADER}: {token}" -H "Content-Type: application/gzip" \\
    --data-binary @"$HERE/{TASKS_TAR}" "$DESK{SOLVE_PATH}?task={task.id}" -o "$LOGS/agent/{ANSWER}"
"""


def readme_md(task: Task) -> str:
    return (f"# {harbor_name(task)}\n\n{task.title} — deskworld task `{task.id}` (revision {task.revision}, "
            f"split {task.split}), exported by `deskworld export-tasks --format harbor`.\n\n"
            f"The apps are served by the `{DESK}` compose service at {start_url(task)}; the agent's container "
            "holds only the browser.\n\n"
            "```\nharbor run -p . -a oracle\n"
            f"harbor run -p . -a computer-1 -m <model> --ak start_url={start_url(task)} --ak max_turns={task.max_steps}\n```\n")


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


def untar(path: Path, dest: Path) -> None:
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
        for name in names:
            shutil.rmtree(out / name, ignore_errors=True)
        if created:
            shutil.rmtree(out, ignore_errors=True)
        raise
    return written


def _export_one(task: Task, d: Path, sdist: Path) -> Path:
    token = secrets.token_hex(24)                      # one per folder: the oracle's door into its desk
    _write(d / "task.toml", task_toml(task))
    _write(d / "instruction.md", instruction_md(task))
    _write(d / "README.md", readme_md(task))
    _write(d / ".gitignore", "__pycache__/\n")
    env, desk, tests, sol = d / "environment", d / "environment" / DESK, d / "tests", d / "solution"
    _write(env / "Dockerfile", agent_dockerfile(task))
    _write(env / ".dockerignore", f"# The {DESK} service's build context is not the agent's\n{DESK}/\n")
    _write(env / "docker-compose.yaml", compose_yaml(task))
    _write(desk / "Dockerfile", desk_dockerfile(task, sdist.name, hashlib.sha256(token.encode()).hexdigest()))
    shutil.copyfile(sdist, desk / sdist.name)
    world_tar(task.world, desk / WORLD_TAR, with_tasks=False)
    _write(tests / "Dockerfile", verifier_dockerfile(task, sdist.name))
    _write(tests / "test.sh", test_sh(task), executable=True)
    shutil.copyfile(sdist, tests / sdist.name)
    world_tar(task.world, tests / WORLD_TAR, with_tasks=True)
    _write(sol / "solve.sh", solve_sh(task, token), executable=True)
    import tarfile
    with tarfile.open(sol / TASKS_TAR, "w:gz") as tar:
        tar.add(worlds_root() / task.world / "tasks", arcname="tasks", filter=_skip)
    return d
