"""Tools: the apps' public service functions, typed and described for agents.

A ``Tool`` wraps one function of an app's service layer (or a thin adapter
in ``harness/tools/<app>.py`` that composes them, e.g. to find a
spreadsheet by its title): the parameters after ``store`` and the bound
``user`` / ``caller`` become a pydantic model, so the MCP server, the CLI
and Python callers all validate arguments the same way and agents see one
JSON schema. Service errors (``ServiceError`` and the ``ValueError``s of
the search and formula parsers) come back as ``ToolError`` with the
message a person would see in the GUI, never as a traceback.

``call_tool`` is the entry point for a slot: it holds the slot's store for
the call, like a GUI request does, and after a write tool it runs the
co-worker tick — as ``deskworld serve`` does after each write request, so
co-workers answer what an agent sends over MCP or the CLI. World time does
not move (no browser steps happen); that is the harness's job per step.
"""
from __future__ import annotations

import functools
import importlib
import inspect
import json
import math
import sqlite3
import typing
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, field, is_dataclass
from datetime import date, datetime, time
from enum import Enum

from pydantic import BaseModel, ConfigDict, Field, ValidationError, create_model

from apps.core.errors import ServiceError
from apps.core.store.db import AGENT, Caller, Store
from apps.core.store.slot import Slot
from apps.core.registry import APP_NAMES

BOUND = ("user", "caller")      # after ``store``: who acts, supplied by the session, never by the agent


class ToolError(Exception):
    """A tool call that could not be done: bad arguments, or the app refused
    (not found, not allowed, invalid input). The message is for the agent."""

    def __init__(self, message: str, field: str | None = None):
        super().__init__(message)
        self.message = message
        self.field = field


@dataclass(frozen=True)
class Tool:
    name: str                       # "<app>.<verb>"
    fn: Callable
    description: str
    write: bool
    params: type[BaseModel] = field(repr=False)
    binds: tuple[str, ...] = ()     # what follows ``store``: ("user",), ("caller",) or nothing

    @property
    def app(self) -> str:
        return self.name.split(".", 1)[0]

    @property
    def verb(self) -> str:
        return self.name.split(".", 1)[1]

    @property
    def mcp_name(self) -> str:
        """Some MCP clients reject dots in tool names."""
        return self.name.replace(".", "_")

    @functools.cached_property
    def input_schema(self) -> dict:
        """The parameters' JSON schema, without pydantic's generated titles (noise for a model)."""
        schema = self.params.model_json_schema()
        schema.pop("title", None)
        for prop in schema.get("properties", {}).values():
            prop.pop("title", None)
        return schema

    def parse(self, args: Mapping | None) -> dict:
        """Validated keyword arguments for the function, or ``ToolError`` naming each bad one."""
        try:
            model = self.params.model_validate(dict(args or {}))
        except ValidationError as e:
            raise ToolError(f"{self.name}: {_explain(e, self.params)}") from None
        return {k: getattr(model, k) for k in self.params.model_fields}

    def call(self, store: Store, user: str, args: Mapping | None = None, actor: str = AGENT):
        """Run the tool as ``user`` (writes logged as ``actor``); returns JSON-ready data.
        All or nothing: a call that fails writes nothing."""
        kwargs = self.parse(args)
        who = {"caller": Caller(user=user, actor=actor), "user": user}
        try:
            with store.transaction():
                out = self.fn(store, *(who[p] for p in self.binds), **kwargs)
        except ServiceError as e:
            raise ToolError(e.message, e.field) from None
        except ValueError as e:          # the mail search parser, cell references, formulas
            raise ToolError(str(e)) from None
        return to_json(out)


def _explain(e: ValidationError, params: type[BaseModel]) -> str:
    known = ", ".join(f.alias or n for n, f in params.model_fields.items()) or "none"
    parts = []
    for err in e.errors():
        where = ".".join(str(x) for x in err["loc"]) or "arguments"
        if err["type"] == "extra_forbidden":
            parts.append(f"unknown argument {where!r} (arguments: {known})")
        elif err["type"] == "missing":
            parts.append(f"{where} is required")
        else:
            parts.append(f"{where}: {err['msg']}")
    return "; ".join(parts)


def make(fn: Callable, name: str, doc: str | None = None, *, write: bool,
         args: Mapping[str, str] | None = None, types: Mapping[str, object] | None = None,
         defaults: Mapping[str, object] | None = None) -> Tool:
    """A tool over ``fn``: its parameters after the bound ones, typed from the
    signature (``types`` overrides hints like ``object``; ``defaults`` makes a
    required parameter optional), described by ``doc`` (default: the
    docstring) and ``args`` (one line per parameter)."""
    args, types, defaults = dict(args or {}), dict(types or {}), dict(defaults or {})
    hints = typing.get_type_hints(fn)
    params = list(inspect.signature(fn).parameters.values())
    if not params or params[0].name != "store":
        raise TypeError(f"{name}: {fn.__qualname__} must take the store first")
    binds = tuple(p.name for p in params[1:2] if p.name in BOUND)
    fields = {}
    for p in params[1 + len(binds):]:
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            raise TypeError(f"{name}: wrap {fn.__qualname__} in an adapter with named parameters")
        ann = types.pop(p.name, hints.get(p.name, typing.Any))
        default = defaults.pop(p.name, ... if p.default is p.empty else p.default)
        public = p.name.rstrip("_")          # ``range_``, ``starred_``: a builtin's name, for the agent
        fields[p.name] = (ann, Field(default, alias=public if public != p.name else None,
                                     description=args.pop(p.name, None)))
    if args or types or defaults:
        raise TypeError(f"{name}: no parameter {sorted({*args, *types, *defaults})[0]!r}")
    description = " ".join((doc or inspect.getdoc(fn) or "").replace("``", "`").split())
    if not description:
        raise TypeError(f"{name}: needs a description")
    model = create_model(name.replace(".", "_"), __config__=ConfigDict(extra="forbid"), **fields)
    return Tool(name, fn, description, write, model, binds)


def read(fn: Callable, name: str, doc: str | None = None, **kw) -> Tool:
    return make(fn, name, doc, write=False, **kw)


def write(fn: Callable, name: str, doc: str | None = None, **kw) -> Tool:
    return make(fn, name, doc, write=True, **kw)


# ---------------------------------------------------------------- the registry
@functools.cache
def _app_tools(app: str) -> tuple[Tool, ...]:
    return tuple(importlib.import_module(f"harness.tools.{app}").TOOLS)


def registry(app: str | None = None) -> list[Tool]:
    """The tools of one app (``None``: of every app, in the app switcher's order)."""
    if app is None:
        return [t for a in APP_NAMES for t in _app_tools(a)]
    if app not in APP_NAMES:
        raise ToolError(f"No app {app!r}; the apps are {', '.join(APP_NAMES)}.")
    return list(_app_tools(app))


def get_tool(name: str) -> Tool:
    """A tool by its CLI name (``mail.search``) or MCP name (``mail_search``)."""
    app = name.replace("_", ".").split(".", 1)[0]
    for t in registry(app) if app in APP_NAMES else ():
        if name in (t.name, t.mcp_name):
            return t
    raise ToolError(f"No tool {name!r}.")


def call_tool(target: Slot | Store, name: str | Tool, args: Mapping | None, user: str, actor: str = AGENT):
    """Call a tool on a slot (held for the call, as a request holds it) or on an
    open store; after a write tool the co-workers get their tick."""
    from apps.coworkers.engine import tick
    tool = name if isinstance(name, Tool) else get_tool(name)
    if isinstance(target, Store):
        out = tool.call(target, user, args, actor)
        if tool.write:
            tick(target)
        return out
    with target.store() as st:
        return call_tool(st, tool, args, user, actor)


# ---------------------------------------------------------------- results
def to_json(value):
    """Service results as JSON data: dataclasses and rows → dicts, enums → values,
    datetimes → ISO strings, tuples and sets → lists; bytes are left out."""
    if isinstance(value, Enum):
        return to_json(value.value)
    if value is None or isinstance(value, (str, bool, int)):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, (datetime, date, time)):
        return value.isoformat()
    if is_dataclass(value) and not isinstance(value, type):
        return to_json(asdict(value))
    if isinstance(value, sqlite3.Row):
        return to_json(dict(value))
    if isinstance(value, Mapping):
        return {_key(k): to_json(v) for k, v in value.items() if not isinstance(v, (bytes, bytearray))}
    if isinstance(value, (list, tuple, set, frozenset)):
        items = sorted(value, key=repr) if isinstance(value, (set, frozenset)) else value
        return [to_json(v) for v in items if not isinstance(v, (bytes, bytearray))]
    return str(value)


def _key(k) -> str:
    if isinstance(k, Enum):
        k = k.value
    if isinstance(k, tuple):
        return ",".join(str(x) for x in k)
    return k if isinstance(k, str) else json.dumps(k)
