"""The building's floors: what may import what, checked on the source.

Every first-party import counts, the ones inside functions too. Three rules:

- no import circles between modules (a package's ``__init__`` counts as a module;
  the implicit import of a parent package by its submodules does not);
- no upward imports: a module imports only from its own floor or the floors
  below it (``FLOORS``, lowest first);
- the core (``apps.core``) imports no web framework.

And one habit: no module in ``apps/`` or ``harness/`` over 600 lines.
"""
from __future__ import annotations

import ast
from collections import defaultdict
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("apps", "harness")

# Lowest first. A module's floor is the longest prefix that names it.
FLOORS: tuple[tuple[str, ...], ...] = (
    ("apps.core",),                                   # store, worlds, files, people, ids, registry
    ("apps.web",),                                    # render, session, templating, workspace assets
    ("apps.mail", "apps.chat", "apps.calendar", "apps.drive", "apps.docs", "apps.sheets",
     "apps.slides", "apps.crm", "apps.tickets", "apps.coworkers", "apps.shell"),   # the apps
    ("apps",),                                        # create_app: where blueprints meet
    ("harness.servers.netguard", "harness.runs.layout"),   # what local servers accept; the run folder's format
    ("harness.tools",),                               # the apps' service layers as tools, and over MCP
    ("harness.tasks", "harness.verify"),              # tasks and their verifiers read the store
    ("harness.env",),                                 # DeskEnv and its browser driver
    ("harness.agents",),                              # policies over the env's actions
    ("harness.runs",),                                # many episodes, recorded
    ("harness.qc", "harness.servers", "harness.viewer", "harness.human"),
    ("harness.integrations",),                        # TRL, Harbor, …: over envs, servers and checks
    ("harness.bench", "harness.cli", "harness"),      # commands
)
WEB_FRAMEWORKS = ("flask", "werkzeug", "jinja2", "jinja2_fragments", "markupsafe", "htmx_flask")
MAX_LINES = 600
TOO_LONG_BECAUSE: dict[str, str] = {}   # path -> why it stays long (none today)


@cache
def modules() -> dict[str, Path]:
    out = {}
    for pkg in PACKAGES:
        for p in sorted((ROOT / pkg).rglob("*.py")):
            parts = list(p.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            out[".".join(parts)] = p
    return out


def _owner(name: str) -> str | None:
    """The first-party module an imported name lives in (``a.b.c`` -> module ``a.b`` if c is a name)."""
    mods = modules()
    while name and name not in mods:
        name = name.rpartition(".")[0]
    return name or None


@cache
def imports() -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    """(first-party edges, third-party top-level names) per module."""
    first: dict[str, set[str]] = defaultdict(set)
    third: dict[str, set[str]] = defaultdict(set)
    for mod, path in modules().items():
        is_pkg = path.name == "__init__.py"
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = mod.split(".") if is_pkg else mod.split(".")[:-1]
                    base = base[:len(base) - (node.level - 1)]
                    pkg = ".".join(base + ([node.module] if node.module else []))
                else:
                    pkg = node.module or ""
                # ``from pkg import sub`` imports the submodule when there is one, else a name of pkg
                names = [f"{pkg}.{a.name}" if f"{pkg}.{a.name}" in modules() else pkg for a in node.names]
            else:
                continue
            for name in names:
                if name.split(".")[0] in PACKAGES:
                    target = _owner(name)
                    if target and target != mod:
                        first[mod].add(target)
                else:
                    third[mod].add(name.split(".")[0])
    return first, third


def floor(mod: str) -> int:
    best, rank = -1, None
    for i, names in enumerate(FLOORS):
        for prefix in names:
            if (mod == prefix or mod.startswith(prefix + ".")) and len(prefix) > best:
                best, rank = len(prefix), i
    assert rank is not None, f"{mod} is on no floor: add it to FLOORS in {__file__}"
    return rank


def circles(edges: dict[str, set[str]] | None = None) -> list[list[str]]:
    """Groups of modules that import each other, directly or round a circle: two modules are in
    one group when each reaches the other through imports (a few hundred modules: plain search)."""
    edges = imports()[0] if edges is None else edges

    def reach(start: str) -> set[str]:
        seen, todo = set(), [start]
        while todo:
            for nxt in edges[todo.pop()]:
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        return seen

    reaches = {m: reach(m) for m in modules()}
    groups = {frozenset({m} | {o for o in reaches[m] if m in reaches[o]}) for m in modules() if m in reaches[m]}
    return sorted(sorted(g) for g in groups)


def test_every_module_is_on_a_floor():
    for mod in modules():
        floor(mod)


def test_no_import_circles():
    edges = imports()[0]
    found = circles()
    shown = []
    for comp in found:
        inside = set(comp)
        shown.append("  " + ", ".join(f"{m} -> {sorted(edges[m] & inside)}" for m in comp))
    assert not found, "import circles:\n" + "\n".join(shown)


def upward(edges: dict[str, set[str]]) -> list[str]:
    return [f"{m} (floor {floor(m)}) imports {t} (floor {floor(t)})"
            for m in sorted(edges) for t in sorted(edges[m]) if floor(t) > floor(m)]


def test_no_upward_imports():
    bad = upward(imports()[0])
    assert not bad, "upward imports:\n  " + "\n  ".join(bad)


def test_the_core_imports_no_web_framework():
    third = imports()[1]
    bad = [f"{m} imports {sorted(third[m] & set(WEB_FRAMEWORKS))}" for m in sorted(third)
           if floor(m) == 0 and third[m] & set(WEB_FRAMEWORKS)]
    assert not bad, "\n".join(bad)


def test_no_module_over_600_lines():
    long = {str(p.relative_to(ROOT)): n for p in modules().values()
            if (n := len(p.read_text().splitlines())) > MAX_LINES}
    unexplained = {p: n for p, n in long.items() if p not in TOO_LONG_BECAUSE}
    assert not unexplained, f"over {MAX_LINES} lines (split along their sections): {unexplained}"


def test_the_checks_can_fail():
    """The rules see what they are meant to: real edges (imports inside functions too), and a
    circle or an upward import added to the real graph."""
    edges = {m: set(t) for m, t in imports()[0].items()}
    assert "apps.core.store.db" in edges["apps.core.store.slot"]
    assert "harness.tools.mcp" in edges["harness.tools.hybrid"]          # imported inside a method
    assert floor("apps.core.store.db") < floor("apps.web.render") < floor("apps.mail.service") < floor("harness.env.desk")
    edges["apps.core.store.db"].add("apps.core.store.slot")
    assert ["apps.core.store.db", "apps.core.store.slot"] in circles(edges)
    edges["apps.core.files"].add("apps.mail.service")
    assert "apps.core.files (floor 0) imports apps.mail.service (floor 2)" in upward(edges)
