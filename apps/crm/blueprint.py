"""CRM's blueprint and its place in the workspace (the app switcher, error titles).

The views are registered on ``bp`` by the app's ``routes*.py`` modules, which ``apps.create_app``
imports; its pages load their own scripts and styles from ``static/`` (``url_for("crm.static", ...)``).
"""
from flask import Blueprint

from apps.core.appinfo import AppInfo

APP = AppInfo(name="crm", title="CRM", prefix="/crm", icon="briefcase", home="crm.index")
bp = Blueprint("crm", __name__, template_folder="templates", static_folder="static")
