"""Chat: a Slack clone. Service layer in ``service.py``, GUI in ``routes.py``."""
from flask import Blueprint

from apps.core.appinfo import AppInfo

APP = AppInfo(name="chat", title="Chat", prefix="/chat", icon="chat-bubble-left-right", home="chat.index")
bp = Blueprint("chat", __name__, template_folder="templates")

from apps.chat import routes  # noqa: E402,F401  (registers the views on bp)
