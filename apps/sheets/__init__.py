"""Sheets: a Google Sheets clone. Formula engine in ``formula.py``, service layer in
``service.py``, GUI in ``routes.py``."""
from flask import Blueprint

from apps.core.appinfo import AppInfo

APP = AppInfo(name="sheets", title="Sheets", prefix="/sheets", icon="table-cells", home="sheets.index")
bp = Blueprint("sheets", __name__, template_folder="templates", static_folder="static", static_url_path="/static")

from apps.sheets import routes  # noqa: E402,F401  (registers the views on bp)
