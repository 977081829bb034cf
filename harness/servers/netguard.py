"""What deskworld's local HTTP servers accept: one WSGI policy for the env server, the viewer and
the apps' own server, so that none of them can be driven from the agent's browser.

The agent's browser reaches every loopback port of the machine (its proxy only keeps it off the
network), so each server checks, before the application sees the request:

- **Host** is the server's own address: the host and port it is bound to (``SERVER_NAME`` /
  ``SERVER_PORT``; a Host without a port means that port), with ``localhost``, ``127.0.0.1`` and
  ``::1`` as aliases of a loopback address. A DNS-rebound name (``evil.example:8000``) is refused. A server bound to a wildcard
  address (``0.0.0.0``) can't know the names it is reached by and checks only the rest;
- **Origin**, when present, is the server's own origin (``http://`` + the Host it was asked as);
  a page of another origin — ``http://desk.local``, the apps at ``http://127.0.0.1:<other port>``,
  a ``data:`` page (``Origin: null``) — is refused, on every request or (``origin="unsafe"``, the
  apps) on POST/PUT/PATCH/DELETE only;
- **Sec-Fetch-Site** (sent by browsers, never by API clients): with ``browsers=False`` a request
  a page of another site made (``cross-site``, ``same-site`` — another loopback port is the same
  site) is refused, navigations included; typing the address (``none``) and the server's own
  pages (``same-origin``) are fine;
- **size**: a body over ``max_body`` bytes is refused from its Content-Length before a byte of it
  is read (413); a body without a length (chunked) is refused (411);
- **Content-Type**: with ``json=True`` a POST/PUT/PATCH/DELETE body must be ``application/json``
  (415): a page can post ``text/plain`` or a form without a CORS preflight, never JSON;
- **token** (optional): every path but ``open_paths`` needs ``Authorization: Bearer <token>`` (401).

Refusals are 4xx with a message naming what was wrong, as JSON (``{"message", "detail", "code"}``)
or plain text.
"""
from __future__ import annotations

import hmac
import json
from dataclasses import dataclass, field

LOOPBACK = frozenset({"127.0.0.1", "localhost", "::1"})
WILDCARD = frozenset({"", "0.0.0.0", "::"})
UNSAFE = frozenset({"POST", "PUT", "PATCH", "DELETE"})
MB = 1024 * 1024


@dataclass(frozen=True)
class Policy:
    max_body: int | None = MB            # bytes; None: no limit here
    json: bool = False                   # unsafe methods' bodies must be application/json
    origin: str = "all"                  # "all": check Origin on every request; "unsafe": on POST/PUT/PATCH/DELETE
    browsers: bool = True                # False: refuse requests a page of another site made (Sec-Fetch-Site)
    token: str | None = None             # when set, Authorization: Bearer <token> on every path but open_paths
    open_paths: frozenset = field(default_factory=frozenset)
    no_framing: bool = False             # X-Frame-Options: DENY, CSP frame-ancestors 'none' on every response
    json_errors: bool = True             # refusals as JSON, else text/plain


class Refusal(Exception):
    def __init__(self, status: int, code: str, message: str, headers: dict | None = None):
        super().__init__(message)
        self.status, self.code, self.message, self.headers = status, code, message, headers or {}


REASONS = {400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 411: "Length Required",
           413: "Payload Too Large", 415: "Unsupported Media Type"}


def split_host(value: str) -> tuple[str, int | None]:
    """``host[:port]`` (``[v6]:port`` too) → (lower-case host, port or None); ValueError if malformed."""
    value = value.strip().lower()
    if value.startswith("["):
        end = value.index("]")
        host, rest = value[1:end], value[end + 1:]
        if rest and not rest.startswith(":"):
            raise ValueError(value)
        port = rest[1:] if rest else None
    elif value.count(":") == 1:
        host, port = value.split(":")
    elif ":" in value:                   # a bare IPv6 literal is not a valid Host
        raise ValueError(value)
    else:
        host, port = value, None
    if not host or (port is not None and not port.isdigit()):
        raise ValueError(value)
    return host, int(port) if port is not None else None


def _own(environ) -> tuple[str, int]:
    return str(environ.get("SERVER_NAME") or "").lower().strip("[]"), int(environ.get("SERVER_PORT") or 80)


def own_origin(environ) -> str:
    name, port = _own(environ)
    if name in WILDCARD or name in LOOPBACK:
        name = "127.0.0.1" if ":" not in name else "[::1]"
    elif ":" in name:
        name = f"[{name}]"
    return f"http://{name}:{port}"


def check_host(environ) -> tuple[str, int]:
    raw = environ.get("HTTP_HOST")
    if not raw:
        raise Refusal(403, "FORBIDDEN", "the request has no Host header")
    try:
        host, port = split_host(raw)
    except ValueError:
        raise Refusal(403, "FORBIDDEN", f"Host {raw!r} is malformed") from None
    name, own_port = _own(environ)
    # No port: the port it arrived on (browsers always name a port other than 80; simple-websocket's
    # client names none). The name still has to be this server's, which is what defeats DNS rebinding.
    port = own_port if port is None else port
    if name in WILDCARD:
        return host, port                # bound to every address: any name may reach it
    names = LOOPBACK if name in LOOPBACK else {name}
    if host not in names or port != own_port:
        raise Refusal(403, "FORBIDDEN", f"Host {raw} is not this server's address ({own_origin(environ)})")
    return host, port


def check_origin(environ, host: tuple[str, int]) -> None:
    origin = environ.get("HTTP_ORIGIN")
    if origin is None:
        return
    ok = False
    if origin.startswith("http://"):
        try:
            o_host, o_port = split_host(origin[len("http://"):].rstrip("/"))
            ok = (o_host, 80 if o_port is None else o_port) == host
        except ValueError:
            ok = False
    if not ok:
        raise Refusal(403, "FORBIDDEN", f"Origin {origin} is not allowed: only pages of this server "
                                        f"({own_origin(environ)}) may call it")


def check_fetch_site(environ) -> None:
    site = environ.get("HTTP_SEC_FETCH_SITE")
    if site in ("cross-site", "same-site"):
        raise Refusal(403, "FORBIDDEN", f"a request made by another site's page (Sec-Fetch-Site: {site}) is "
                                        "not allowed: open this server's address directly")


def check_body(environ, policy: Policy) -> None:
    method = environ.get("REQUEST_METHOD", "GET").upper()
    length = environ.get("CONTENT_LENGTH") or ""
    chunked = "chunked" in str(environ.get("HTTP_TRANSFER_ENCODING", "")).lower()
    if chunked and policy.max_body is not None:
        raise Refusal(411, "LENGTH_REQUIRED", "a body without Content-Length (chunked) is not accepted: "
                                              "send Content-Length")
    try:
        size = int(length) if length.strip() else 0
    except ValueError:
        raise Refusal(400, "BAD_REQUEST", f"Content-Length {length!r} is not a number") from None
    if policy.max_body is not None and size > policy.max_body:
        raise Refusal(413, "PAYLOAD_TOO_LARGE", f"body of {size} bytes exceeds the {policy.max_body}-byte limit")
    if policy.json and method in UNSAFE:
        ctype = str(environ.get("CONTENT_TYPE") or "").strip()
        mime = ctype.split(";", 1)[0].strip().lower()
        if (ctype or size or chunked) and mime != "application/json":
            shown = ctype or "(none)"
            raise Refusal(415, "UNSUPPORTED_MEDIA_TYPE", f"Content-Type {shown}: send application/json")


def check_token(environ, policy: Policy) -> None:
    if not policy.token or environ.get("PATH_INFO", "/") in policy.open_paths:
        return
    auth = str(environ.get("HTTP_AUTHORIZATION") or "")
    scheme, _, given = auth.partition(" ")
    if scheme.lower() != "bearer" or not given.strip():
        raise Refusal(401, "UNAUTHORIZED", "this server needs its token: send Authorization: Bearer <token>",
                      {"WWW-Authenticate": 'Bearer realm="deskworld"'})
    if not hmac.compare_digest(given.strip().encode(), policy.token.encode()):
        raise Refusal(401, "UNAUTHORIZED", "the bearer token is wrong",
                      {"WWW-Authenticate": 'Bearer realm="deskworld", error="invalid_token"'})


def has_token(environ, token: str | None) -> bool:
    """True when the request carries ``token`` as its bearer token (False when there is none)."""
    if not token:
        return False
    scheme, _, given = str(environ.get("HTTP_AUTHORIZATION") or "").partition(" ")
    return scheme.lower() == "bearer" and hmac.compare_digest(given.strip().encode(), token.encode())


def refusal(environ, policy: Policy) -> Refusal | None:
    """Why the request is refused, or None."""
    try:
        host = check_host(environ)
        method = environ.get("REQUEST_METHOD", "GET").upper()
        if policy.origin == "all" or method in UNSAFE:
            check_origin(environ, host)
        if not policy.browsers:
            check_fetch_site(environ)
        check_body(environ, policy)
        check_token(environ, policy)
    except Refusal as r:
        return r
    return None


FRAME_HEADERS = (("X-Frame-Options", "DENY"), ("Content-Security-Policy", "frame-ancestors 'none'"))


class Guard:
    """WSGI middleware: ``app.wsgi_app = Guard(app.wsgi_app, Policy(...))``."""

    def __init__(self, app, policy: Policy):
        self.app, self.policy = app, policy

    def __call__(self, environ, start_response):
        r = refusal(environ, self.policy)
        if r is None:
            if not self.policy.no_framing:
                return self.app(environ, start_response)

            def framed(status, headers, exc_info=None):
                names = {k.lower() for k, _ in headers}
                headers = list(headers) + [(k, v) for k, v in FRAME_HEADERS if k.lower() not in names]
                return start_response(status, headers, exc_info) if exc_info else start_response(status, headers)
            return self.app(environ, framed)
        if self.policy.json_errors:
            body = json.dumps({"message": r.message, "detail": r.message, "code": r.code}).encode()
            ctype = "application/json"
        else:
            body = (r.message + "\n").encode()
            ctype = "text/plain; charset=utf-8"
        headers = [("Content-Type", ctype), ("Content-Length", str(len(body))), *r.headers.items(),
                   *(FRAME_HEADERS if self.policy.no_framing else ())]
        if environ.get("CONTENT_LENGTH") or environ.get("HTTP_TRANSFER_ENCODING"):
            headers.append(("Connection", "close"))     # the unread body is never parsed as a next request
        start_response(f"{r.status} {REASONS.get(r.status, 'Refused')}", headers)
        return [body]
