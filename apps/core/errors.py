"""Errors the service layer raises; routes turn them into pages and inline messages.

``NotFound`` is also what a user gets for another user's private record, so
a 404 never reveals that something exists.
"""
from __future__ import annotations


class ServiceError(Exception):
    status = 400

    def __init__(self, message: str, field: str | None = None):
        super().__init__(message)
        self.message = message
        self.field = field


class NotFound(ServiceError):
    status = 404


class Forbidden(ServiceError):
    status = 403


class Invalid(ServiceError):
    """Bad input: shown inline next to ``field``; nothing was written."""
    status = 422

    def __init__(self, message: str, field: str | None = None, errors: dict[str, str] | None = None):
        super().__init__(message, field)
        self.errors = errors or ({field: message} if field else {})
