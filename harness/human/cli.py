"""``deskworld record``: see ``harness.human``."""
from __future__ import annotations

import click


@click.command()
@click.option("--tasks", "pattern", required=True, help="Task ids, instance ids or globs (meridian/*, a world name), comma-separated.")
@click.option("--name", required=True, help="Who is recording: the run's agent is human:<name>.")
@click.option("--out", default=None, type=click.Path(file_okay=False),
              help="Run folder (default runs/human-<name>). Run again with the same folder to go on with the "
                   "tasks not done yet.")
@click.option("--variant", default=None, metavar="AXIS=VALUE,...",
              help="The screen the person sees (viewport=1440x900,scale=2,zoom=1.25; see deskworld run --variant).")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to serve the page on (over SSH: ssh -L 8777:localhost:8777 host, then open "
                   "http://localhost:8777/ on your own machine).")
@click.option("--port", default=8777, show_default=True, type=int)
@click.option("--verdict/--no-verdict", "show_verdict", default=True, show_default=True,
              help="Show the person the verifier's verdict after each task (--no-verdict: only that it was "
                   "submitted, for a study that must not teach people as they go).")
@click.option("--direct", is_flag=True,
              help="Use the apps in a real browser window on this machine's screen instead of on the page's "
                   "screenshot; every gesture there is still recorded as one of the agent's actions (the page "
                   "keeps the task and the Done buttons). Needs a display.")
def record(pattern: str, name: str, out: str | None, variant: str | None, host: str, port: int,
           show_verdict: bool, direct: bool) -> None:
    """A person does tasks in the agent's own screenshots and actions; recorded as agent human:<name>,
    graded by the verifier, the verdict shown after each task."""
    import logging
    import re
    import secrets
    import threading
    from pathlib import Path

    from werkzeug.serving import make_server

    from harness.human.recording import Recording
    from harness.human.server import create_record_app
    from harness.runs.runner import ResumeMismatch
    from harness.tasks.registry import TaskError, select

    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}", name):
        raise click.ClickException(f"--name {name!r}: use letters, digits, dots, dashes or underscores "
                                   "(it names the run's agent, human:<name>)")
    try:
        tasks = select(pattern)
    except TaskError as e:
        raise click.ClickException(str(e)) from None
    if not tasks:
        raise click.ClickException(f"no task matches {pattern!r}")
    from harness.env.variant import Variant, VariantError
    try:
        chosen = Variant.parse(variant) if variant else None
    except VariantError as e:
        raise click.ClickException(f"--variant: {e}") from None
    if direct:
        from harness.human.direct import display_problem
        problem = display_problem()
        if problem:
            raise click.ClickException(problem)
    out_dir = Path(out or f"runs/human-{name}")
    rec = Recording(tasks, name, out_dir, variant=chosen, direct=direct)
    try:
        rec.prepare()
    except ResumeMismatch as e:
        raise click.ClickException(str(e)) from None
    left = len(tasks) - len(rec.done_before())
    if left == 0:
        click.echo(f"{name} has done all {len(tasks)} tasks in {out_dir}/ already.")
        return
    loopback = host in ("127.0.0.1", "localhost", "::1")
    key = None if loopback else secrets.token_urlsafe(16)      # reachable beyond this machine: a key
    try:
        server = make_server(host, port, create_record_app(rec.live, name=name, key=key, show_verdict=show_verdict,
                                                     direct=direct),
                             threaded=True)
    except OSError as e:
        raise click.ClickException(f"can't serve on {host}:{port}: {e.strerror or e}; choose another --port") from None
    logging.getLogger("werkzeug").setLevel(logging.WARNING)     # no line per request
    threading.Thread(target=server.serve_forever, name="deskworld-record-page", daemon=True).start()
    rec.start()
    address = f"http://{host}:{port}/" + (f"?key={key}" if key else "")
    click.echo(f"deskworld: {name}, {left} task{'s' if left != 1 else ''} to do. Open {address} "
               f"in a browser (Ctrl+C here stops; what is done is kept in {out_dir}/)."
               + (" The apps open in their own window: work there, finish on the page." if direct else ""))
    try:
        while rec.thread.is_alive():
            rec.thread.join(0.5)
        rec.live.wait_seen(5.0)                  # the page's waiting request takes the summary
    except KeyboardInterrupt:
        click.echo("\nstopped: the task under way is dropped; run the same command again to go on.")
    finally:
        rec.stop()
        server.shutdown()
        server.server_close()
    if rec.error:
        raise click.ClickException(f"the environment failed: {rec.error}")
    s = rec.summary()
    click.echo(f"Recorded {s['tasks']} task{'s' if s['tasks'] != 1 else ''} of {name} in {out_dir}/: "
               f"{s['passed']} passed, mean score {s['score']}  ·  view it: .venv/bin/deskworld view {out_dir}")
