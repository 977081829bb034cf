"""Drive: a Google Drive clone. Service layer in ``service.py``, GUI in ``routes.py``."""
from flask import Blueprint

from apps.core.appinfo import AppInfo

APP = AppInfo(name="drive", title="Drive", prefix="/drive", icon="folder", home="drive.index")
bp = Blueprint("drive", __name__, template_folder="templates")

from apps.drive import routes  # noqa: E402,F401  (registers the views on bp)
