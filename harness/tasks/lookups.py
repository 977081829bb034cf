"""The names a task file can refer to, looked up once: tables, apps, pages, tools, and a world's
people, co-worker triggers and check functions.

``harness.tasks.validate`` walks a task file and asks here whether each name it meets resolves;
``known`` words the answer when it doesn't ("; did you mean 'author'? (fields: …)"). The table
schema, the apps' routes and the tools are read once per process; a world's names once per world
(``world_index``) while its ``world.yaml``, ``coworkers.yaml`` and ``*.py`` files are unchanged.
"""
from __future__ import annotations

import difflib
import functools
import importlib
import inspect
from pathlib import Path
from urllib.parse import urlsplit

from werkzeug.exceptions import MethodNotAllowed, NotFound
from werkzeug.routing import RequestRedirect

from apps import create_app
from apps.core.registry import APP_NAMES, all_tables
from apps.core.world import WorldError, load_world
from apps.coworkers.seed import load as load_coworkers
from harness.tools.registry import ToolError, get_tool, make as make_tool, registry
from harness.verify.checks import load_function, world_module
from harness.verify.conditions import CheckSpecError


def known(name: str, choices, what: str, limit: int = 16) -> str:
    """``; did you mean 'x'? (tables: a, b, …)`` for an unknown ``name`` among ``choices``: all of
    them when there are few, else the ``limit`` most like ``name``."""
    choices = sorted(set(map(str, choices)))
    close = difflib.get_close_matches(str(name), choices, n=1, cutoff=0.6)
    hint = f"; did you mean {close[0]!r}?" if close else ""
    if len(choices) > limit:
        like = lambda c: difflib.SequenceMatcher(None, str(name), c).ratio()   # noqa: E731
        shown = ", ".join(sorted(sorted(choices, key=like, reverse=True)[:limit])) \
            + f", … ({len(choices) - limit} more)"
    else:
        shown = ", ".join(choices)
    return f"{hint} ({what}: {shown or 'none'})"


# ---------------------------------------------------------------------------- process-wide lookups
@functools.cache
def tables() -> dict[str, frozenset[str]]:
    """Exported tables and their fields: what a check can read (the export's ``fields``; ``id`` is the key)."""
    return {t.name: frozenset(t.classes()) for t in all_tables() if t.exported}


@functools.cache
def app_names() -> tuple[str, ...]:
    return APP_NAMES


@functools.cache
def _routes():
    """The apps' URL map (the app is built only for its routes: no slot, no request is served)."""
    return create_app({"SLOT": _NO_SLOT}).url_map.bind("deskworld.local")


_NO_SLOT = object()


def route_problem(path: str) -> str | None:
    """Why ``path`` is no page of the apps, or None."""
    parts = urlsplit(path)
    if parts.scheme or parts.netloc or not parts.path.startswith("/"):
        return f"{path!r} is not a path of the apps (it starts with /)"
    try:
        _routes().match(parts.path, method="GET")
    except RequestRedirect:
        return None
    except MethodNotAllowed:
        return f"{parts.path!r} is no page (it takes no GET)"
    except NotFound:
        app = parts.path.strip("/").split("/", 1)[0]
        if app not in app_names():
            return f"{parts.path!r} is in no app" + known(app, app_names(), "apps")
        pages = [r.rule for r in _routes().map.iter_rules()
                 if r.rule.startswith(f"/{app}/") and "GET" in (r.methods or ())]
        return f"no page of {app} at {parts.path!r}" + known(parts.path, pages, f"pages of {app}", limit=8)
    return None


@functools.cache
def _tool_names() -> tuple[str, ...]:
    return tuple(t.name for t in registry())


@functools.cache
def tool(ref: str):
    """(the tool a solution step calls, None) or (None, why not)."""
    if ":" not in ref:
        try:
            return get_tool(ref), None
        except ToolError:
            return None, f"unknown tool {ref!r}" + known(ref, _tool_names(), "tools")
    mod, _, fn = ref.partition(":")
    if not (mod.startswith("apps.") and mod.endswith(".service")):
        return None, f"{ref!r}: a solution calls a tool (mail.reply) or an apps.<app>.service:function"
    try:
        module = importlib.import_module(mod)
    except ImportError:
        return None, f"no module {mod!r}" + known(mod, [f"apps.{a}.service" for a in app_names()], "services")
    func = getattr(module, fn, None)
    if fn.startswith("_") or not callable(func):
        public = [n for n, v in vars(module).items() if callable(v) and not n.startswith("_")
                  and f"{getattr(v, '__module__', None)}.".startswith(f"{mod}.")]
        return None, f"{mod} has no public function {fn!r}" + known(fn, public, "functions")
    try:
        return make_tool(func, ref, func.__doc__ or ref, write=True), None
    except TypeError as e:
        return None, f"{ref!r} can't be called as a tool: {e}"


# ---------------------------------------------------------------------------- per-world lookups
class WorldIndex:
    """A world's names, each read on first use: people, co-worker triggers, check functions."""

    def __init__(self, root: Path):
        self.root = root
        self._people: tuple[frozenset[str], str | None] | None = None
        self._triggers: tuple[dict[str, dict[str, bool]], str | None] | None = None
        self._functions: dict[str, str | None] = {}

    def people(self) -> tuple[frozenset[str], str | None]:
        """(person ids, None) or (empty, why the world can't be read)."""
        if self._people is None:
            try:
                self._people = (frozenset(load_world(self.root).people), None)
            except WorldError as e:
                self._people = (frozenset(), str(e))
        return self._people

    def triggers(self) -> tuple[dict[str, dict[str, bool]], str | None]:
        """({co-worker: {trigger id: is a scenario trigger}}, None) or ({}, why not)."""
        if self._triggers is None:
            try:
                spec = load_coworkers(load_world(self.root))
                self._triggers = ({c.id: {t.id: t.scenario for t in c.triggers} for c in spec.coworkers}, None)
            except WorldError as e:
                self._triggers = ({}, str(e))
        return self._triggers

    def function(self, ref: str) -> str | None:
        """Why ``module:function`` doesn't resolve the way the verifier resolves it, or None."""
        if ref not in self._functions:
            self._functions[ref] = self._resolve(ref)
        return self._functions[ref]

    def _resolve(self, ref: str) -> str | None:
        mod, sep, name = ref.partition(":")
        modules = sorted(p.stem for p in self.root.glob("*.py"))
        if not sep or not mod or not name:
            return f"{ref!r}: a function is module:function, e.g. checks:{name or mod or 'x'}" \
                   + known(mod, modules, "world modules")
        try:
            fn = load_function(ref, self.root)
        except CheckSpecError:
            module = world_module(self.root, mod) if (self.root / f"{mod}.py").is_file() else None
            names = [n for n, v in vars(module).items() if callable(v) and not n.startswith("_")
                     and getattr(v, "__module__", None) == module.__name__] if module else []
            return f"{mod} has no function {name!r}" + known(name, names, f"functions in {mod}")
        except ModuleNotFoundError as e:
            if e.name == mod:
                return f"no module {mod!r} (not a file of {self.root.name}/ nor importable)" \
                       + known(mod, modules, "world modules")
            return f"{mod} can't be imported: {type(e).__name__}: {e}"
        except Exception as e:                         # the module itself is broken
            return f"{mod} can't be imported: {type(e).__name__}: {e}"
        if not callable(fn):
            return f"{ref} is not a function"
        try:
            inspect.signature(fn).bind(None)
        except TypeError:
            return f"{ref} must take one argument (the check context)"
        except ValueError:
            pass                                       # no signature to read (a builtin)
        return None


_WORLDS: dict[Path, tuple[tuple, WorldIndex]] = {}
_MODULE_FILES: dict[Path, tuple[int | None, tuple[Path, ...]]] = {}


def world_index(root: Path) -> WorldIndex:
    """The cached index of the world at ``root``, rebuilt when one of its files changes."""
    root = Path(root)
    try:
        listed = root.stat().st_mtime_ns                 # files added or removed change the folder
    except OSError:
        listed = None
    modules = _MODULE_FILES.get(root)
    if modules is None or modules[0] != listed:
        modules = _MODULE_FILES[root] = (listed, tuple(sorted(root.glob("*.py"))))
    sig = [listed]
    for p in (root / "world.yaml", root / "coworkers.yaml", *modules[1]):
        try:
            sig.append((p.name, p.stat().st_mtime_ns))
        except OSError:
            sig.append((p.name, None))
    sig = tuple(sig)
    hit = _WORLDS.get(root)
    if hit is None or hit[0] != sig:
        hit = _WORLDS[root] = (sig, WorldIndex(root))
    return hit[1]
