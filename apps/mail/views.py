"""What Mail's pages share: which list the user came from, that list's URL, and the
context every page's template needs.

The route modules (``routes``, ``routes_compose``, ``routes_files``) import these
from here, never from one another.
"""
from __future__ import annotations

from flask import g, request, url_for

from apps.mail.service import FOLDER_TITLES, Folder, counts, labels, snooze_choices


def current_view() -> str:
    """Which list the user came from (``?v=``): "inbox", "label:5", "search:<q>"."""
    return request.values.get("v") or "inbox"


def view_url(view: str, page: int = 1) -> str:
    """The URL of a list named as ``current_view`` names it (an unknown name: the Inbox)."""
    extra = {"page": page} if page > 1 else {}
    if view.startswith("label:"):
        return url_for("mail.label_view", label_id=int(view[6:]), **extra)
    if view.startswith("search:"):
        return url_for("mail.search", q=view[7:], **extra)
    if view in {f.value for f in Folder}:
        return url_for("mail.folder", folder=view, **extra)
    return url_for("mail.folder", folder="inbox")


def context(**extra) -> dict:
    """The template context of a Mail page: the sidebar's labels and unread counts, the
    search box (``q``), and ``extra``."""
    store, user = g.store, g.caller.user
    q = extra.get("q", "")
    return {
        "app_name": "mail",
        "sidebar_label": "Mail folders",
        "labels": labels(store, user),
        "counts": counts(store, user),
        "folder_titles": FOLDER_TITLES,
        "snooze_choices": snooze_choices(store),
        "search": {"action": url_for("mail.search"), "placeholder": "Search mail", "q": q,
                   "clear": url_for("mail.folder", folder="inbox")},
        **extra,
    }
