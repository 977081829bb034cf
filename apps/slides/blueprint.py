"""Slides' blueprint and its place in the workspace (the app switcher, error titles).

The views are registered on ``bp`` by the app's ``routes*.py`` modules, which ``apps.create_app``
imports; its pages load their own scripts and styles from ``static/`` (``url_for("slides.static", ...)``).
"""
from flask import Blueprint

from apps.core.appinfo import AppInfo

APP = AppInfo(name="slides", title="Slides", prefix="/slides", icon="presentation-chart-bar", home="slides.index",
              error_titles={403: "You need access"})
bp = Blueprint("slides", __name__, template_folder="templates", static_folder="static")
