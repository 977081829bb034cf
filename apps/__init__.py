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
"""
from __future__ import annotations

import secrets
from collections.abc import Mapping


def create_app(config: Mapping | None = None):
    from flask import Flask
    from htmx_flask import Htmx

    from apps.web import session as sessions
    from apps.web import shell, templating
    from apps.core.ids import IdConverter
    from apps.core.store.compile import template_for
    from apps.core.store.slot import Slot
    from apps.core.world import load_world
    from apps.core.registry import app_packages

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
    sessions.init_app(app)
    app.register_blueprint(shell.bp)
    app.extensions["deskworld.apps"] = []
    for pkg in app_packages():
        app.register_blueprint(pkg.bp, url_prefix=pkg.APP.prefix)
        app.extensions["deskworld.apps"].append(pkg.APP)
    return app
