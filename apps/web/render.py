"""One way to answer a request: the full page, or a fragment of it for htmx.

``render(template, block=...)`` returns only ``block`` when the request came from htmx (and is not
a boosted navigation), else the whole page; ``render(template, partial=True)`` always returns a
fragment (a dialog, a list's rows, a region that re-fetches itself). Extra fragments (toasts,
counters) are appended to a fragment as out-of-band swaps with ``oob=[...]``. Every answer sets
``Vary: HX-Request``.

This module is the only reader of the ``HX-*`` request headers: views ask ``is_htmx()`` and
``triggered_by(element_id)``.
"""
from __future__ import annotations

from urllib.parse import quote

from flask import Response, current_app, flash, g, jsonify, make_response, redirect, render_template, request
from jinja2_fragments.flask import render_block
from markupsafe import Markup

from apps.core.errors import Invalid, ServiceError
from apps.core.ids import as_id, parse_int
from apps.web.templating import icon_sprite


def is_htmx() -> bool:
    return bool(getattr(request, "htmx", False)) and not request.htmx.boosted


def triggered_by(element_id: str) -> bool:
    """The htmx request was made by the element ``element_id`` itself (a region re-fetching itself
    on an event), not by a click elsewhere that targets it."""
    return is_htmx() and request.htmx.trigger == element_id


def render(template: str, block: str | None = None, *, partial: bool = False, status: int = 200,
           oob: list[str] | None = None, headers: dict | None = None, **ctx):
    fragment = partial or bool(block and is_htmx())
    if fragment:
        g.pop("_icons", None)                 # fragments inline their icons
        html = render_block(template, block, **ctx) if block else render_template(template, **ctx)
    else:
        g._icons = set()                       # a whole page: one sprite at the end
        g._sprite = False
        html = render_template(template, **ctx)
        if g._icons and not g._sprite:         # a template that is not a page (a dialog, a panel):
            html = Markup(html) + icon_sprite()   # its icons' symbols come with it
    if oob and (partial or is_htmx()):
        html = Markup(html) + Markup("".join(oob))
    resp = make_response(html, status)
    resp.vary.add("HX-Request")
    for k, v in (headers or {}).items():
        resp.headers[k] = v
    return resp


def toast(message: str, *, undo: dict | None = None, link: tuple[str, str] | None = None) -> str:
    """An out-of-band toast ("Conversation archived. Undo")."""
    return render_template("_toast.html", message=message, undo=undo, link=link, oob=True)


def flash_toast(message: str, *, undo: dict | None = None, link: tuple[str, str] | None = None) -> None:
    """A toast for the next page (after a redirect)."""
    flash({"message": message, "undo": undo, "link": list(link) if link else None}, "toast")


def toast_response(message: str, status: int = 200):
    """Only a toast: the rest of the page stays as it is."""
    resp = make_response(toast(message), status)
    resp.headers["HX-Reswap"] = "none"
    resp.vary.add("HX-Request")
    return resp


def error_page(status: int, title: str, detail: str = ""):
    if is_htmx():
        # Show the error as a toast instead of replacing part of the page.
        return toast_response(detail or title, status)
    resp = make_response(render_template("error.html", status=status, title=title, detail=detail), status)
    resp.vary.add("HX-Request")
    return resp


ERROR_TITLES = {404: "Not found", 403: "Not allowed", 422: "Check your input"}


def service_error_page(e: ServiceError):
    """The answer to a service-layer error a view let through (``create_app`` registers it for
    ``ServiceError``): the error page, or a toast for htmx, titled as the app the request is for
    words it (``AppInfo.error_titles``, found by the request's blueprint); a JSON request to an app
    with ``json_errors`` gets ``{"error", "field"}``."""
    info = next((a for a in current_app.extensions.get("deskworld.apps", []) if a.name == request.blueprint), None)
    if info is not None and info.json_errors and \
            (request.is_json or request.headers.get("Accept", "").startswith("application/json")):
        return jsonify(error=e.message, field=e.field), e.status
    titles = info.error_titles if info is not None else {}
    title = titles.get(e.status) or ERROR_TITLES.get(e.status, "Something went wrong")
    return error_page(e.status, title, e.message)


def int_arg(name: str, default: int | None = None) -> int | None:
    """A non-negative integer request value (an id, a page); a malformed or
    out-of-range one (``abc``, ``-1``, ``2**63``) is a 422 naming the field."""
    v = request.values.get(name)
    if v is None or not v.strip():
        return default
    return parse_int(v, name)


def id_arg(name: str) -> int | None:
    """An optional id in the query string or form, for views that fall back when it is
    absent or not an id (``?tab=``, ``?slide=``): anything but an id is ``None``."""
    return as_id(request.values.get(name))


def id_list(name: str, what: str) -> list[int]:
    """Every id in the request's ``name`` values (each may be comma-separated); one
    that is not an id is a 422: “…” is not a ``what``."""
    out = []
    for v in request.values.getlist(name):
        for part in v.split(","):
            if not part.strip():
                continue
            n = as_id(part)
            if n is None:
                shown = part if len(part) <= 40 else part[:40] + "…"
                raise Invalid(f"“{shown}” is not {what}.", name)
            out.append(n)
    return out


def go(url: str):
    """Navigate: an HX-Redirect for htmx, a plain redirect otherwise."""
    if is_htmx():
        return "", 204, {"HX-Redirect": url}
    return redirect(url)


def attachment(data: bytes, mime: str, filename: str, *, inline: bool = False):
    """A download (``inline``: a file the browser shows), with the file name encoded for any characters (RFC 5987)."""
    resp = Response(data, mimetype=mime)
    resp.headers["Content-Disposition"] = f"{'inline' if inline else 'attachment'}; filename*=UTF-8''{quote(filename)}"
    return resp
