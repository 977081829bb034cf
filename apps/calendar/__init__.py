"""Calendar: a Google Calendar clone. Service layer in ``service.py``, GUI in ``routes.py``."""
from flask import Blueprint

from apps.core.appinfo import AppInfo

APP = AppInfo(name="calendar", title="Calendar", prefix="/calendar", icon="calendar-days", home="calendar.index")
bp = Blueprint("calendar", __name__, template_folder="templates")

from apps.calendar import routes  # noqa: E402,F401  (registers the views on bp)
