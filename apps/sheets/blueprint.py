"""Sheets' blueprint and its place in the workspace (the app switcher, error titles).

The views are registered on ``bp`` by the app's ``routes*.py`` modules, which ``apps.create_app``
imports; its pages load their own scripts and styles from ``static/`` (``url_for("sheets.static", ...)``).
"""
from flask import Blueprint

from apps.core.appinfo import AppInfo

APP = AppInfo(name="sheets", title="Sheets", prefix="/sheets", icon="table-cells", home="sheets.index",
              error_titles={403: "You need access"}, json_errors=True)
bp = Blueprint("sheets", __name__, template_folder="templates", static_folder="static")
