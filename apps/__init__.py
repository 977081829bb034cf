"""deskworld apps: Flask + htmx clones of the workspace apps, one blueprint each.

``create_app(config)`` is the only place blueprints, the slot and settings
meet. Config keys:

- ``WORLD``       world name or folder (default ``meridian``)
- ``SLOT``        an ``apps.core.store.slot.Slot`` to serve (else one is made)
- ``SLOT_PATH``   file for the slot made here (default: in memory)
- ``AUTO_LOGIN``  sign a visitor in as ``USER`` (``deskworld serve``); off in
                  agent mode, where the harness injects the session cookie
- ``USER``        person id for ``AUTO_LOGIN`` (default: the world's user)
- ``TICK_ON_REQUEST`` run ``world.tick()`` after every write request
                  (``deskworld serve``); the harness ticks per agent step
- ``SECRET_KEY``  signs sessions (random per process when absent)

The floors: ``apps.core`` (store, worlds, files, people, errors, the list of
apps) imports neither Flask nor any app; ``apps.web`` (render, session,
templating, the shared templates and the workspace's JS/CSS) imports no app;
each app (``apps.<name>``, and the workspace shell ``apps.shell``) has its
blueprint in ``blueprint.py`` and its views in ``routes*.py``.
"""
from __future__ import annotations

import importlib
import pkgutil
import secrets
from collections.abc import Mapping


def create_app(config: Mapping | None = None):
    # Imported here: every ``import apps.…`` (the harness, the tools, the world compiler)
    # runs this package first, and must not pay for Flask and every app's views.
    from flask import Flask
    from htmx_flask import Htmx

    from apps.core.errors import ServiceError
    from apps.core.registry import APP_NAMES
    from apps.core.store.compile import template_for
    from apps.core.store.slot import Slot
    from apps.core.world import load_world
    from apps.coworkers import hooks as coworkers
    from apps.shell.blueprint import bp as shell
    from apps.web import session as sessions
    from apps.web import templating
    from apps.web.render import service_error_page
    from apps.web.routing import IdConverter

    app = Flask("apps.web", static_folder="static", static_url_path="/static",
                template_folder="templates")
    app.config.update(WORLD="meridian", AUTO_LOGIN=False, TICK_ON_REQUEST=False, USER=None, SLOT=None, SLOT_PATH=None,
                      SECRET_KEY=secrets.token_hex(32), SESSION_COOKIE_NAME="deskworld_session",
                      SESSION_COOKIE_SAMESITE="Lax", MAX_CONTENT_LENGTH=30 * 1024 * 1024)
    app.config.update(config or {})
    app.url_map.converters["int"] = IdConverter     # every <int:…> is an id SQLite can hold, else 404
    if app.config["SLOT"] is None:
        world = load_world(app.config["WORLD"])
        app.config["SLOT"] = Slot(template_for(world), path=app.config["SLOT_PATH"])
    Htmx(app)
    templating.init_app(app)
    # Before the session's hooks: Flask runs after_request hooks last registered first, so the
    # tick's HX-Trigger comes after the session's headers, as it always has.
    coworkers.init_app(app)
    sessions.init_app(app)
    app.register_error_handler(ServiceError, service_error_page)
    _import_views("apps.shell")
    app.register_blueprint(shell)
    app.extensions["deskworld.apps"] = []
    for name in APP_NAMES:
        _import_views(f"apps.{name}")
        gui = importlib.import_module(f"apps.{name}.blueprint")
        app.register_blueprint(gui.bp, url_prefix=gui.APP.prefix)
        app.extensions["deskworld.apps"].append(gui.APP)
    return app


def _import_views(package: str) -> None:
    """Import an app's view modules — ``routes.py`` and every ``routes_*.py`` of the package, in
    name order — so each registers its views on the app's blueprint."""
    names = sorted(m.name for m in pkgutil.iter_modules(importlib.import_module(package).__path__))
    for name in names:
        if name == "routes" or name.startswith("routes_"):
            importlib.import_module(f"{package}.{name}")
