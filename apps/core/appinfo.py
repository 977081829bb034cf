"""What the shell needs to know about an app: name, title, prefix, icon, home endpoint."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class AppInfo:
    name: str          # "mail"
    title: str         # "Mail"
    prefix: str        # "/mail"
    icon: str          # heroicon name
    home: str          # endpoint of the app's first page
