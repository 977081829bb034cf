"""The shell's blueprint, mounted at the root of the workspace (``/``, ``/search``, ``/_vendor/…``).

The views are registered on ``bp`` by ``routes.py``, which ``apps.create_app`` imports.
"""
from flask import Blueprint

bp = Blueprint("shell", __name__, template_folder="templates")
