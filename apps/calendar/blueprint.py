"""Calendar's blueprint and its place in the workspace (the app switcher, error titles).

The views are registered on ``bp`` by the app's ``routes*.py`` modules, which ``apps.create_app``
imports; its pages load their own scripts and styles from ``static/`` (``url_for("calendar.static", ...)``).
"""
from flask import Blueprint

from apps.core.appinfo import AppInfo

APP = AppInfo(name="calendar", title="Calendar", prefix="/calendar", icon="calendar-days", home="calendar.index",
              error_titles={403: "You can't do that"})
bp = Blueprint("calendar", __name__, template_folder="templates", static_folder="static")
