"""The ``deskworld`` command line: one Click group, so later commands slot in."""
from __future__ import annotations

import sys

import click


@click.group()
@click.version_option(package_name="deskworld")
def main() -> None:
    """deskworld — worlds, workspace apps and tasks for computer-use agents."""


@main.command()
@click.option("--world", "world", default="meridian", show_default=True, help="World to serve.")
@click.option("--port", default=8765, show_default=True, type=int)
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--user", default=None, help="Person id to sign in as (default: the world's user).")
@click.option("--state", type=click.Path(dir_okay=False), default=None,
              help="Keep the state in this file (default: in memory, reset on restart).")
def serve(world: str, port: int, host: str, user: str | None, state: str | None) -> None:
    """Serve the apps for a person to use in a browser."""
    from werkzeug.serving import run_simple

    from apps import create_app
    from apps.common.world import WorldError

    try:
        app = create_app({"WORLD": world, "AUTO_LOGIN": True, "USER": user, "SLOT_PATH": state})
    except WorldError as e:
        raise click.ClickException(str(e)) from None
    click.echo(f"deskworld: serving world '{world}' at http://{host}:{port}/  (Mail: /mail/  Drive: /drive/)")
    run_simple(host, port, app, threaded=True, use_reloader=False)


@main.command()
@click.argument("world", default="meridian")
@click.option("--rebuild", is_flag=True, help="Build even if the cache has this version.")
def compile(world: str, rebuild: bool) -> None:
    """Compile a world into its template database and print the path."""
    import time

    from apps.common.store.compile import template_for
    from apps.common.world import WorldError
    t0 = time.perf_counter()
    try:
        path = template_for(world, rebuild=rebuild)
    except WorldError as e:
        raise click.ClickException(str(e)) from None
    click.echo(f"{path}  ({path.stat().st_size / 1e6:.1f} MB, {time.perf_counter() - t0:.2f} s)")


@main.command()
@click.option("--out", default="screenshots", show_default=True, type=click.Path(file_okay=False))
@click.argument("names", nargs=-1)
def screenshots(out: str, names: tuple[str, ...]) -> None:
    """Regenerate the screenshot gallery (screenshots/*.png)."""
    from pathlib import Path

    from harness.gallery import take
    for p in take(Path(out), list(names) or None):
        click.echo(p)


if __name__ == "__main__":
    sys.exit(main())
