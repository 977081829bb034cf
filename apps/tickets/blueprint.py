"""Service Desk's blueprint and its place in the workspace (the app switcher, error titles).

The views are registered on ``bp`` by the app's ``routes*.py`` modules, which ``apps.create_app``
imports; its pages load their own scripts and styles from ``static/`` (``url_for("tickets.static", ...)``).
"""
from flask import Blueprint

from apps.core.appinfo import AppInfo

APP = AppInfo(name="tickets", title="Service Desk", prefix="/tickets", icon="lifebuoy", home="tickets.index",
              error_titles={404: "Record not found"})
bp = Blueprint("tickets", __name__, template_folder="templates", static_folder="static")
