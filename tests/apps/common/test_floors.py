"""The floors of ``apps/``: the ground floor (``apps.core``) imports neither Flask nor any app, the
web floor (``apps.web``) imports no app, an app package imports nothing (its services, seeders
and tools run without Flask), and each app's GUI is its blueprint module plus its route modules.

Imports are read from the source (module level and inside functions alike)."""
from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from apps.core.registry import APP_NAMES, ENGINES

APPS = Path(__file__).resolve().parents[3] / "apps"
WEB_LIBS = ("flask", "jinja2", "jinja2_fragments", "markupsafe", "werkzeug", "htmx_flask", "heroicons")
APP_PACKAGES = tuple(f"apps.{name}" for name in (*APP_NAMES, *ENGINES, "shell"))


def imports(path: Path) -> set[str]:
    """Every module ``path`` imports, wherever the import statement is."""
    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            out.add(node.module)
            out |= {f"{node.module}.{a.name}" for a in node.names}
    return out


def offending(floor: str, banned: tuple[str, ...]) -> dict[str, list[str]]:
    found = {}
    for path in sorted((APPS / floor).rglob("*.py")):
        bad = sorted(m for m in imports(path) if any(m == b or m.startswith(b + ".") for b in banned))
        if bad:
            found[str(path.relative_to(APPS))] = bad
    return found


def test_the_ground_floor_imports_no_flask_no_web_and_no_app():
    assert offending("core", WEB_LIBS + ("apps.web",) + APP_PACKAGES) == {}


def test_the_web_floor_imports_no_app():
    assert offending("web", APP_PACKAGES) == {}


@pytest.mark.parametrize("name", [*APP_NAMES, *ENGINES, "shell"])
def test_an_app_package_imports_nothing(name):
    """So ``from apps.mail import service`` (a seeder, a tool, a co-worker) does not load the GUI,
    and no route module imports its package back."""
    tree = ast.parse((APPS / name / "__init__.py").read_text())
    assert not [n for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))]


@pytest.mark.parametrize("name", [*APP_NAMES, "shell"])
def test_an_apps_route_modules_take_the_blueprint_from_its_blueprint_module(name):
    routes = sorted((APPS / name).glob("routes*.py"))
    assert routes
    for path in routes:
        assert f"apps.{name}.blueprint.bp" in imports(path), path.name


def test_services_seeders_and_the_store_run_without_flask():
    code = ("import sys\n"
            "import apps.core.store.compile, apps.core.registry\n"
            + "".join(f"import apps.{n}.service, apps.{n}.seed, apps.{n}.schema\n" for n in APP_NAMES)
            + "import apps.coworkers.engine\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('flask', 'jinja2', 'werkzeug')"
            " or m.startswith('apps.web') or m.endswith(('.routes', '.blueprint'))))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=APPS.parent).stdout
    assert out.strip() == "[]"
