"""CRM: a Salesforce-like app. Service layer in ``service.py``, GUI in ``routes.py``."""
from flask import Blueprint

from apps.core.appinfo import AppInfo

APP = AppInfo(name="crm", title="CRM", prefix="/crm", icon="briefcase", home="crm.index")
bp = Blueprint("crm", __name__, template_folder="templates")

from apps.crm import routes  # noqa: E402,F401  (registers the views on bp)
