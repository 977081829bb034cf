"""``deskworld export-tasks --format harbor`` and ``deskworld harbor …``, the commands the exported
folders' containers run (serve the world, snapshot its end, grade it) and a trial on this machine: see
``harness.integrations.harbor``."""
from __future__ import annotations

from pathlib import Path

import click


def _chosen(pattern: str, split: str | None, per_family: str | None, seed: int) -> list:
    """As ``deskworld run`` chooses: the hand-made tasks matching ``pattern`` (ids, globs, worlds, instance
    ids); with ``--split`` or ``--instances`` (``N`` or ``all``) the matching families' instances."""
    from harness.tasks.registry import (TaskError, load_instance, load_task, sample_instances, select,
                                        select_instances)
    if split is None and per_family is None:
        out = []
        for p in (p.strip() for p in pattern.split(",")):
            if p.count("/") >= 1 and not set(p) & set("*?["):
                out.append(load_task(p))            # an id: loaded alone (a glob reads every task)
            elif p:
                out += select(p)
        if not out:
            raise TaskError(f"no task matches {pattern!r}")
        return out
    if per_family is not None and per_family != "all" and not (per_family.isdigit() and int(per_family) > 0):
        raise click.BadParameter(f"a number of instances per family, or all — not {per_family!r}",
                                 param_hint="--instances")
    refs = select_instances(pattern, split=split)
    refs = sample_instances(refs, None if per_family in (None, "all") else int(per_family), seed)
    return [load_instance(r) for r in refs]


@click.command("export-tasks")
@click.option("--format", "fmt", required=True, type=click.Choice(["harbor"]),
              help="harbor: one Harbor task folder (task.toml, instruction.md, environment/, tests/, solution/) per task.")
@click.option("--tasks", "pattern", required=True,
              help="Task ids, instance ids or globs (meridian/*, a world name), comma-separated.")
@click.option("--split", default=None, type=click.Choice(["train", "dev", "test"]),
              help="The instances of the matching families in this split.")
@click.option("--instances", "per_family", default=None, metavar="N|all",
              help="N instances of each matching family (drawn with --seed), or all.")
@click.option("--seed", default=0, show_default=True, type=int, help="With --instances N: which are drawn.")
@click.option("--out", required=True, type=click.Path(), help="A new or empty folder to write the task folders in.")
def export_tasks(fmt: str, pattern: str, split: str | None, per_family: str | None, seed: int, out: str) -> None:
    """Export tasks for another harness: Harbor task folders (harbor run -p DIR -a oracle / -a computer-1)."""
    from harness.integrations.harbor import HarborExportError, check_out_dir, export
    from harness.tasks.registry import TaskError
    try:
        check_out_dir(Path(out))
        tasks = _chosen(pattern, split, per_family, seed)
        written = export(tasks, out)
    except (TaskError, HarborExportError) as e:
        raise click.ClickException(str(e)) from None
    for d in written:
        click.echo(str(d))
    click.echo(f"wrote {len(written)} Harbor task folder{'s' if len(written) != 1 else ''} in {out}/  ·  "
               f"run one: harbor run -p {written[0]} -a oracle")


@click.group("harbor")
def harbor() -> None:
    """What an exported Harbor task's containers run: serve its world (with the oracle's door), snapshot the
    end, grade it."""


def _task(task_id: str):
    from harness.tasks.registry import TaskError, load_task
    try:
        return load_task(task_id)
    except TaskError as e:
        raise click.ClickException(str(e)) from None


@harbor.command("serve")
@click.option("--world", "world_ref", required=True, help="The task's world (meridian, or an instance's meridian@17).")
@click.option("--user", default=None, help="Person id every visitor is signed in as (default: the world's user).")
@click.option("--coworkers", default="", help="The task's co-worker scenario triggers, comma-separated.")
@click.option("--state", envvar="DESKWORLD_STATE", required=True, type=click.Path(dir_okay=False),
              help="The store's file, made anew from the world's start ($DESKWORLD_STATE).")
@click.option("--oracle-sha256", envvar="DESKWORLD_ORACLE_SHA256", default=None,
              help="SHA-256 of the token solution/solve.sh presents to play the oracle ($DESKWORLD_ORACLE_SHA256); "
                   "without it, no oracle.")
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=8780, show_default=True, type=int)
def serve_cmd(world_ref: str, user: str | None, coworkers: str, state: str, oracle_sha256: str | None, host: str,
              port: int) -> None:
    """Serve a task's seeded world (the desk service), its store in a file that ``snapshot`` reads."""
    import logging

    from werkzeug.serving import make_server

    from apps.core.world import WorldError
    from harness.integrations.harbor_run import served_app
    try:
        app = served_app(world_ref, Path(state), user=user, coworkers=[c for c in coworkers.split(",") if c],
                         oracle_sha256=oracle_sha256)
    except WorldError as e:
        raise click.ClickException(str(e)) from None
    try:
        server = make_server(host, port, app, threaded=True)
    except OSError as e:
        raise click.ClickException(f"can't serve on {host}:{port}: {e.strerror or e}") from None
    logging.getLogger("werkzeug").setLevel(logging.WARNING)     # no line per request
    click.echo(f"deskworld: serving {world_ref} at http://{host}:{server.server_port}/ (store {state})", err=True)
    server.serve_forever()


@harbor.command("snapshot")
@click.option("--state", envvar="DESKWORLD_STATE", required=True, type=click.Path(dir_okay=False),
              help="The served store's file ($DESKWORLD_STATE).")
@click.option("--evidence", envvar="DESKWORLD_EVIDENCE", default="/var/lib/deskworld/evidence", show_default=True,
              type=click.Path(file_okay=False), help="The desk service's evidence folder ($DESKWORLD_EVIDENCE).")
def snapshot_cmd(state: str, evidence: str) -> None:
    """The served world's end state into <evidence>/final.json.gz (run in the desk service)."""
    from harness.integrations.harbor_run import snapshot
    try:
        dest = snapshot(Path(state), Path(evidence))
    except FileNotFoundError as e:
        raise click.ClickException(str(e)) from None
    click.echo(str(dest))


@harbor.command("grade")
@click.argument("task_id")
@click.option("--evidence", required=True, type=click.Path(file_okay=False),
              help="The desk service's collected evidence folder (final.json.gz).")
@click.option("--answer", "answer", required=True, type=click.Path(dir_okay=False),
              help="The agent's final message (final_answer.txt), if it wrote one.")
@click.option("--out", required=True, type=click.Path(file_okay=False), help="Where reward.json and result.json go.")
def grade_cmd(task_id: str, evidence: str, answer: str, out: str) -> None:
    """Verify a collected end state; write reward.json (numbers only) and result.json (the checks). Anything
    wrong — an unknown task included — is reward 0 with the reason in result.json."""
    from harness.integrations.harbor import ZERO_REWARD
    from harness.integrations.harbor_run import grade, write_error
    try:
        task = _task(task_id)
    except click.ClickException as e:
        write_error(Path(out), task_id, e.message)
        click.echo(" ".join(f"{k}={v:g}" for k, v in ZERO_REWARD.items()))
        raise
    reward = grade(task, Path(evidence), Path(answer), Path(out))
    click.echo(" ".join(f"{k}={v:g}" for k, v in reward.items()))


@harbor.command("try")
@click.argument("folder", type=click.Path(exists=True, file_okay=False))
@click.option("--agent", "agents", type=click.Choice(["oracle", "nothing"]), multiple=True,
              help="oracle: solution/solve.sh (the desk service plays it); nothing: the agent does nothing. Twice: one after the other on the "
                   "same served world, each graded (default: oracle).")
@click.option("--work", required=True, type=click.Path(file_okay=False),
              help="A new or empty folder for the trial's roots (worlds, logs, the served store).")
@click.option("--port", default=0, type=int, help="Port to serve the world on (default: a free one).")
def try_cmd(folder: str, agents: tuple[str, ...], work: str, port: int) -> None:
    """A trial of an exported folder on this machine, without Docker: the desk service's command, solve.sh,
    the collect hooks of each service and test.sh, with each side's roots in --work; prints the reward.json
    test.sh wrote."""
    import json
    import socket

    from harness.integrations.harbor import HarborExportError, check_out_dir
    from harness.integrations.harbor_trial import host_trial
    try:
        check_out_dir(Path(work))
    except HarborExportError as e:
        raise click.ClickException(str(e).replace("--out", "--work")) from None
    if not (Path(folder) / "task.toml").is_file():
        raise click.ClickException(f"{folder} is not a Harbor task folder (no task.toml)")
    if not port:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
    for agent, got in zip(agents or ("oracle",), host_trial(folder, work, agents=agents or ("oracle",), port=port)):
        click.echo(f"{agent}: {json.dumps(got['reward'])}  ({got['reward_json']})")
