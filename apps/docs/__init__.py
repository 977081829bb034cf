"""Docs: a Google Docs clone. Service layer in ``service.py`` (blocks in ``blocks.py``), GUI in ``routes.py``."""
from flask import Blueprint

from apps.core.appinfo import AppInfo

APP = AppInfo(name="docs", title="Docs", prefix="/docs", icon="document-text", home="docs.index")
bp = Blueprint("docs", __name__, template_folder="templates", static_folder="static", static_url_path="/static")

from apps.docs import routes  # noqa: E402,F401  (registers the views on bp)
