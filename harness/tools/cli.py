"""``deskworld app`` and ``deskworld mcp``: the tool registry on the command line and over MCP.

``deskworld app APP VERB`` has one option per tool parameter, made from the
tool's JSON schema: ``--name value`` always; the first parameter, when it is
required and a single value, may also come bare (``mail search 'from:laura'``);
a list takes the option again per item (or one JSON list); an object is
JSON. Bad input exits 2, an app's refusal exits 1, each with the app's
message. Output is a table or text for a person (long values abbreviated in
tables), ``--json`` everything for a program.
"""
from __future__ import annotations

import json
from functools import partial

import click

from apps.core.registry import APP_NAMES

COMMON = ("world", "user", "state", "json", "as_json", "positional")    # names no tool parameter may take
SHORT = 80                      # characters shown of a value in a table or a summary line
PREFERRED = ("id", "number", "ref", "a1", "input", "name", "title", "display_title", "subject", "short_description",
             "state", "stage", "status", "kind", "response", "date", "sent_at", "start", "end", "at", "due",
             "sender", "sender_name", "author", "author_name", "owner_name", "assigned_name", "amount",
             "priority_label", "snippet", "text", "body", "display", "unread", "count")


# ---------------------------------------------------------------- deskworld app
class _Apps(click.Group):
    """The apps, each a group of verbs built from the registry only when asked for."""

    def list_commands(self, ctx):
        return list(APP_NAMES)

    def get_command(self, ctx, name):
        return _app_group(name) if name in APP_NAMES else None


class _Verbs(click.Group):
    """An app's verbs; ``list-folder`` finds ``list_folder``."""

    def get_command(self, ctx, name):
        return super().get_command(ctx, name.replace("-", "_"))


@click.group("app", cls=_Apps, invoke_without_command=True)
@click.pass_context
def app(ctx: click.Context) -> None:
    """Use the apps from the command line: deskworld app APP VERB [ARGS]...

    Each verb is a tool of the MCP server. State is in memory unless --state FILE keeps it."""
    if ctx.invoked_subcommand is None:
        from harness.tools.registry import registry
        _print_rows([{"app": a, "verbs": ", ".join(t.verb for t in registry(a))} for a in APP_NAMES],
                    title="deskworld app APP VERB --help")


def _app_group(name: str) -> click.Group:
    from harness.tools.registry import registry
    tools = registry(name)

    @click.pass_context
    def listing(ctx: click.Context) -> None:
        if ctx.invoked_subcommand is None:
            _print_rows([{"verb": t.verb, "does": "writes" if t.write else "reads", "description": t.description}
                         for t in tools], title=f"deskworld app {name} VERB --help", full=True)
    return _Verbs(name, commands=[_command(t) for t in tools], callback=listing, invoke_without_command=True,
                  help=f"{name.capitalize()}: {', '.join(t.verb for t in tools)}.")


def _common_options() -> list[click.Option]:
    return [click.Option(["--world"], help="World (default: the state file's, else meridian)."),
            click.Option(["--user"], help="Person id to act as (default: the world's user)."),
            click.Option(["--state"], type=click.Path(dir_okay=False),
                         help="Keep the world's state in this file (created from the world when missing)."),
            click.Option(["--json", "as_json"], is_flag=True, help="Print the whole result as JSON.")]


def _command(tool) -> click.Command:
    schema = tool.input_schema
    props, required = schema.get("properties", {}), set(schema.get("required", ()))
    clash = set(props) & set(COMMON)
    if clash:
        raise TypeError(f"{tool.name}: parameter {clash.pop()!r} clashes with a common option")
    first = next(iter(props), None)         # a required scalar first parameter may come first, bare
    first = first if first in required and _shape(props[first])[0] == "text" else None
    params = _common_options() + [_option(n, p, n in required) for n, p in props.items()]
    if first:
        params.append(click.Argument(["positional"], required=False, metavar=first.upper()))
    return click.Command(tool.verb, params=params, callback=partial(_run, tool, first, props),
                         help=tool.description, short_help=tool.description.split(". ")[0][:70])


def _shape(prop: dict) -> tuple[str, list | None]:
    """How a parameter is given on the command line: flag, list, json, choice or text."""
    opts = [p for p in prop.get("anyOf", [prop]) if p.get("type") != "null"]
    kinds = {p.get("type") for p in opts}
    if kinds == {"boolean"}:
        return "flag", None
    if kinds == {"array"} and opts[0].get("items", {}).get("type") in ("string", "integer", "number"):
        return "list", None
    if kinds & {"object", "array"}:
        return "json", None
    if len(opts) == 1 and "enum" in opts[0]:
        return "choice", opts[0]["enum"]
    return "text", None


def _option(name: str, prop: dict, required: bool) -> click.Option:
    flag = "--" + name.replace("_", "-")
    kind, choices = _shape(prop)
    text = (prop.get("description") or "") + (" Repeat for each, or give a JSON list." if kind == "list" else "") \
        + (" (required)" if required else "")
    if kind == "flag":
        return click.Option([f"{flag}/--no-{flag[2:]}", name], default=None, help=text)
    if kind == "list":
        return click.Option([flag, name], multiple=True, help=text)
    if kind == "json":
        return click.Option([flag, name], metavar="JSON", help=text)
    return click.Option([flag, name], type=click.Choice(choices) if choices else None, help=text)


def _run(tool, first: str | None, props: dict, world, user, state, as_json, positional=None, **values) -> None:
    from apps.core.world import WorldError
    from harness.tools.registry import ToolError
    from harness.tools.session import SessionError, open_session
    args = _arguments(props, values)
    if positional is not None:
        if first in args:
            raise click.UsageError(f"{first.upper()} is given twice: as an argument and as --{first}.")
        args[first] = positional
    try:
        tool.parse(args)
        session = open_session(world, user, state)
    except (ToolError, SessionError, WorldError) as e:
        raise click.UsageError(str(e)) from None
    try:
        out = session.call(tool, args)
    except ToolError as e:
        raise click.ClickException(e.message) from None
    if as_json:
        click.echo(json.dumps(out, indent=2, ensure_ascii=False))
    else:
        render(out)
    if tool.write and state is None:
        click.echo("note: without --state FILE this change lived in memory and is gone now.", err=True)


def _arguments(props: dict, values: dict) -> dict:
    """Option values as tool arguments: unset ones left out, JSON parsed."""
    args = {}
    for name, value in values.items():
        if value is None or value == ():
            continue
        kind, _ = _shape(props[name])
        if kind == "list" and len(value) == 1 and value[0].lstrip().startswith("["):
            value = _json(name, value[0])
        elif kind == "list":
            value = list(value)
        elif kind == "json":
            value = _json(name, value)
        args[name] = value
    return args


def _json(name: str, text: str):
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise click.UsageError(f"--{name.replace('_', '-')} takes JSON: {e}") from None


# ---------------------------------------------------------------- output for a person
def render(value) -> None:
    """A result as a person reads it: text as is, records as a table (or, when they hold long
    text like a message body, one after another), the rest as JSON."""
    from rich.console import Console
    console = Console()
    if isinstance(value, str):
        console.print(value, markup=False, highlight=False)
    elif _records(value):
        _print_rows(value)
    elif isinstance(value, dict):
        _print_mapping(value, console)
    else:
        console.print_json(json.dumps(value, ensure_ascii=False))


def _records(value) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(v, dict) for v in value)


def _print_mapping(value: dict, console) -> None:
    short = {k: v for k, v in value.items() if _short(v)}
    if short:
        console.print(_line(short), highlight=False)
    for k, v in value.items():
        if k in short or v in ({}, [], None):
            continue
        if _records(v):
            _print_rows(v, title=k)
        elif isinstance(v, list) and all(isinstance(r, list) for r in v):
            _print_grid(v, title=k)
        elif isinstance(v, dict):
            console.print(f"[bold]{k}[/bold] · " + _line(_telling(v)), highlight=False)
        elif _scalar(v):
            console.rule(k)
            console.print(str(v), markup=False, highlight=False)
        else:
            console.print(f"[bold]{k}[/bold]: " + _cell(json.dumps(v, ensure_ascii=False), 2000), highlight=False)


def _print_rows(rows: list[dict], title: str | None = None, full: bool = False) -> None:
    """Records as a table of their most telling short columns (``full``: every column, whole);
    records with long text are printed one by one, the text in full."""
    from rich.console import Console
    from rich.table import Table
    console = Console()
    keys = [k for k in rows[0] if all(_scalar(r.get(k)) for r in rows)]
    cols = keys if full else ([k for k in PREFERRED if k in keys] or keys)[:8]
    if not full and any(not _short(r.get(k)) for r in rows for k in cols):
        if title:
            console.rule(title)
        for r in rows:
            console.print(_line({k: r.get(k) for k in cols if _short(r.get(k))}), highlight=False)
            for k in cols:
                if not _short(r.get(k)):
                    console.print(str(r[k]).strip() + "\n", markup=False, highlight=False)
        return
    table = Table(title=title, title_justify="left", show_lines=full)
    for k in cols:
        table.add_column(k, overflow="fold")
    for r in rows:
        table.add_row(*(str(r.get(k)) if full else _cell(r.get(k)) for k in cols))
    console.print(table)


def _print_grid(rows: list[list], title: str) -> None:
    from rich.console import Console
    from rich.table import Table
    table = Table(title=title, title_justify="left", show_header=False)
    for _ in range(max((len(r) for r in rows), default=0)):
        table.add_column(overflow="fold")
    for r in rows:
        table.add_row(*(_cell(x) for x in r))
    Console().print(table)


def _telling(d: dict) -> dict:
    """A nested record's most telling short fields, for one line."""
    short = {k: v for k, v in d.items() if _short(v)}
    return {k: short[k] for k in [k for k in PREFERRED if k in short] or list(short)[:8]}


def _line(fields: dict) -> str:
    from rich.markup import escape
    return "  ".join(f"[bold]{escape(str(k))}[/bold]: {escape(_cell(v))}" for k, v in fields.items())


def _scalar(v) -> bool:
    return v is None or isinstance(v, (str, int, float, bool))


def _short(v) -> bool:
    return _scalar(v) and len(str(v)) <= SHORT and "\n" not in str(v)


def _cell(v, width: int = SHORT) -> str:
    s = "" if v is None else " ".join(str(v).split())
    return s if len(s) <= width else s[:width - 1] + "…"


# ---------------------------------------------------------------- deskworld mcp
@click.command("mcp")
@click.argument("app_name", metavar="APP", type=click.Choice([*APP_NAMES, "all"]))
@click.option("--world", default=None, help="World (default: the state file's, else meridian).")
@click.option("--user", default=None, help="Person id to act as (default: the world's user).")
@click.option("--state", type=click.Path(dir_okay=False), default=None,
              help="Keep the state in this file across restarts (default: in memory while the server runs).")
@click.option("--transport", type=click.Choice(["stdio", "http"]), default="stdio", show_default=True,
              help="stdio for a client that starts the server; http for streamable HTTP at /mcp.")
@click.option("--host", default="127.0.0.1", show_default=True, help="http: the address to listen on.")
@click.option("--port", default=8766, show_default=True, type=int, help="http: the port.")
def mcp(app_name: str, world: str | None, user: str | None, state: str | None, transport: str, host: str,
        port: int) -> None:
    """Serve an app's tools (or all apps': APP=all) to MCP clients, acting as the world's user."""
    try:
        from harness.tools.mcp import serve
    except ImportError:
        raise click.ClickException("the MCP server needs the mcp package: pip install 'deskworld[mcp]'") from None
    from apps.core.world import WorldError
    from harness.tools.registry import registry
    from harness.tools.session import SessionError, open_session
    try:
        session = open_session(world, user, state)
    except (SessionError, WorldError) as e:
        raise click.UsageError(str(e)) from None
    tools = registry(None if app_name == "all" else app_name)
    where = "stdio" if transport == "stdio" else f"http://{host}:{port}/mcp"
    click.echo(f"deskworld mcp: {len(tools)} {app_name} tools on world '{session.world}' as {session.user} "
               f"over {where}" + (f", state in {state}" if state else ""), err=True)
    serve(session, tools, transport, host, port)
