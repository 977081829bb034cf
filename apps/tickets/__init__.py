"""Service desk: a ServiceNow-like app. Service layer in ``service.py``, GUI in ``routes.py``."""
from flask import Blueprint

from apps.core.appinfo import AppInfo

APP = AppInfo(name="tickets", title="Service Desk", prefix="/tickets", icon="lifebuoy", home="tickets.index")
bp = Blueprint("tickets", __name__, template_folder="templates")

from apps.tickets import routes  # noqa: E402,F401  (registers the views on bp)
