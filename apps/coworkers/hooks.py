"""The co-workers in the web app: ``deskworld serve`` ticks the world after each write request.

``apps.create_app`` calls ``init_app``. In agent mode the harness ticks once per agent step
instead, and this hook does nothing.
"""
from __future__ import annotations

from flask import Flask, current_app, g, request

from apps.coworkers.engine import tick


def init_app(app: Flask) -> None:
    @app.after_request
    def _tick(resp):
        # ``TICK_ON_REQUEST`` (``deskworld serve``): a person at the keyboard; the world ticks
        # after each signed-in request that may have written, and htmx hears about it.
        if current_app.config["TICK_ON_REQUEST"] and request.method != "GET" and "store" in g \
                and "user" in g:
            if tick(g.store):
                resp.headers["HX-Trigger"] = "deskworld:refresh"
        return resp
