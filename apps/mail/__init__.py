"""Mail: a Gmail clone. Service layer in ``service.py``/``compose.py``, GUI in ``routes.py``."""
from flask import Blueprint

from apps.core.appinfo import AppInfo

APP = AppInfo(name="mail", title="Mail", prefix="/mail", icon="envelope", home="mail.index")
bp = Blueprint("mail", __name__, template_folder="templates")

from apps.mail import routes, routes_compose, routes_files  # noqa: E402,F401  (register the views on bp)
