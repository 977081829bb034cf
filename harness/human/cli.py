"""``deskworld record``: see ``harness.human``."""
from __future__ import annotations

import click


@click.command()
@click.option("--tasks", "pattern", required=True, help="Task ids or globs, comma-separated.")
@click.option("--name", required=True, help="Who is recording (the run's agent is human:<name>).")
def record(pattern: str, name: str) -> None:
    """A person does tasks in the agent's own screenshots and actions, recorded as agent human:<name>."""
    raise click.ClickException("deskworld record is being built")
