"""What the workspace needs to know about an app: its name, title, prefix, icon and home page for the
app switcher, and how it words a service error (``apps.web.render.service_error_page``)."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True)
class AppInfo:
    name: str          # "mail": also the name of the app's blueprint
    title: str         # "Mail"
    prefix: str        # "/mail"
    icon: str          # heroicon name
    home: str          # endpoint of the app's first page
    # The title of a service error's page by status, where the app words it its own way
    # ({403: "You need access"}); other statuses get the workspace's titles.
    error_titles: Mapping[int, str] = field(default_factory=dict, hash=False)
    # A JSON request's service error is answered in JSON, ``{"error", "field"}`` (the Sheets grid).
    json_errors: bool = False
