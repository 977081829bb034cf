"""The env server's wire format (OpenEnv 0.3 conventions): errors, observations, actions, results.

What both transports of ``deskworld env-server`` send and accept (``harness.servers.envserver``):
a refusal (``Refused``: HTTP status, OpenEnv's ``WSErrorCode``, a message a person can act on),
an observation with its images as base64 PNG strings (never nested lists), the action inside a
step message, and the verifier's result as a client without the server's token may see it.
"""
from __future__ import annotations

import base64
import io
import secrets

SESSION_HEADER = "X-Session-Id"
MAX_BODY = 1024 * 1024           # bytes per HTTP body and per WebSocket message
# What /state tells a client without the token about the verifier's result (never what it expected).
PUBLIC_RESULT = ("status", "passed", "score", "done_status", "zeroed", "error")

# OpenEnv's WSErrorCode values.
INVALID_JSON = "INVALID_JSON"
UNKNOWN_TYPE = "UNKNOWN_TYPE"
VALIDATION_ERROR = "VALIDATION_ERROR"
EXECUTION_ERROR = "EXECUTION_ERROR"
CAPACITY_REACHED = "CAPACITY_REACHED"
SESSION_ERROR = "SESSION_ERROR"


class Refused(Exception):
    """A request the server turns down: HTTP status, OpenEnv error code, a message a person can act on."""

    def __init__(self, status: int, code: str, message: str, **extra):
        super().__init__(message)
        self.status, self.code, self.message, self.extra = status, code, message, extra

    def body(self) -> dict:
        """The error as both transports send it (HTTP body; WebSocket ``error`` data)."""
        return {"message": self.message, "detail": self.message, "code": self.code, **self.extra}


def png_b64(arr) -> str:
    """An image array as a base64 PNG string."""
    from PIL import Image               # Pillow only when a server encodes an image (the CLI imports this module)
    buf = io.BytesIO()
    Image.fromarray(arr).save(buf, format="PNG", compress_level=1)
    return base64.b64encode(buf.getvalue()).decode("ascii")


def wire_observation(env, obs: dict) -> dict:
    """The dict observation with its images as base64 PNG strings."""
    out = {k: v for k, v in obs.items() if k not in ("screenshot", "som")}
    # The env keeps the PNG the browser sent for the observation it returned last
    # (also after an environment error, which repeats that observation); only a blank
    # observation (an error before any screenshot) has none and is encoded here.
    png = env.unwrapped.session.last_png()
    out["screenshot"] = base64.b64encode(png).decode("ascii") if png is not None else png_b64(obs["screenshot"])
    if "som" in obs:
        out["som"] = {"image": png_b64(obs["som"]["image"]), "elements": obs["som"]["elements"]}
    return out


def action_from(data):
    """The action in a step message: OpenEnv sends the action object itself as ``data``
    (its ``metadata`` field is not part of a deskworld action); HTTP's ``{"action": ...}``
    and JSON text are accepted too."""
    if isinstance(data, dict) and "action" in data and "type" not in data:
        data = data["action"]
    if isinstance(data, dict):
        data = {k: v for k, v in data.items() if k != "metadata"}
    return data


def public_result(result: dict | None) -> dict | None:
    """The verifier's result without its checks, answer, lines or rubric (they show what was expected)."""
    if not isinstance(result, dict):
        return result
    return {**{k: result[k] for k in PUBLIC_RESULT if k in result},
            "redacted": "checks, lines and expected values need the server's token"}


def new_session_id() -> str:
    """A session id nobody can guess (the server issues them)."""
    return secrets.token_urlsafe(24)
