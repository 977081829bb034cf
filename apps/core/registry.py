"""The list of apps, in one place: their names, tables and seeders.

``APP_NAMES`` is the order the app switcher shows (``apps.create_app`` mounts
each app's blueprint in that order); ``SEED_ORDER`` the order worlds are seeded
in (Drive before Mail: mail attachments point at Drive files).
"""
from __future__ import annotations

import importlib
import pkgutil

from apps.core.store.schema import CORE_TABLES, Table

APP_NAMES = ("mail", "chat", "calendar", "drive", "docs", "sheets", "slides", "crm", "tickets")
SEED_ORDER = ("drive", "mail", "docs", "sheets", "slides", "chat", "calendar", "crm", "tickets")
# Packages with tables and a seeder but no GUI; seeded after the apps.
ENGINES = ("coworkers",)

# World files that become app items in Drive: suffix -> (kind, module with ``import_file``).
APP_FILES = {".gdoc.md": ("doc", "apps.docs.seed"), ".gsheet.yaml": ("sheet", "apps.sheets.seed"),
             ".gslides.yaml": ("deck", "apps.slides.seed")}


def all_tables() -> list[Table]:
    tables = list(CORE_TABLES)
    for name in (*APP_NAMES, *ENGINES):
        tables += importlib.import_module(f"apps.{name}.schema").TABLES
    return tables


def seeders():
    return [importlib.import_module(f"apps.{name}.seed").seed for name in (*SEED_ORDER, *ENGINES)]


def compiler_sources() -> list[str]:
    """Modules whose code shapes the template: a change to any rebuilds it.

    A package stands for every module in it (subpackages included), so a module split into a
    package keeps all of its parts in the list.
    """
    roots = ["apps.core.registry", "apps.core.store.schema", "apps.core.store.db",
             "apps.core.store.compile", "apps.core.world", "apps.core.files",
             "apps.core.pdfdoc", "apps.docs.blocks", "apps.sheets.formula", "apps.sheets.service",
             "apps.slides.service"]
    for name in (*APP_NAMES, *ENGINES):
        roots += [f"apps.{name}.schema", f"apps.{name}.seed"]
    roots += ["apps.coworkers.spec", "apps.coworkers.match", "apps.coworkers.engine", "apps.chat.service",
              "apps.calendar.service", "apps.tickets.service"]
    return [mod for root in roots for mod in _with_submodules(root)]


def _with_submodules(name: str) -> list[str]:
    """``name``, then, if it is a package, every module under it (in file-name order)."""
    path = getattr(importlib.import_module(name), "__path__", None)
    if path is None:
        return [name]
    return [name, *(m.name for m in pkgutil.walk_packages(path, prefix=f"{name}."))]
