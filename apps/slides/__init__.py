"""Slides: a Google Slides clone. Service layer in ``service.py``, GUI in ``routes.py``."""
from flask import Blueprint

from apps.core.appinfo import AppInfo

APP = AppInfo(name="slides", title="Slides", prefix="/slides", icon="presentation-chart-bar", home="slides.index")
bp = Blueprint("slides", __name__, template_folder="templates", static_folder="static", static_url_path="/static")

from apps.slides import routes  # noqa: E402,F401  (registers the views on bp)
