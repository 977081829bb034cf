"""One way to answer a request: the full page, or one block of it for htmx.

``render(template, block=...)`` returns only ``block`` when the request
came from htmx (and is not a boosted navigation), else the whole page, and
sets ``Vary: HX-Request`` either way. Extra fragments (toasts, counters) are
appended as out-of-band swaps with ``oob=[...]``.
"""
from __future__ import annotations

from flask import flash, g, make_response, render_template, request
from jinja2_fragments.flask import render_block
from markupsafe import Markup


def is_htmx() -> bool:
    return bool(getattr(request, "htmx", False)) and not request.htmx.boosted


def render(template: str, block: str | None = None, *, status: int = 200,
           oob: list[str] | None = None, headers: dict | None = None, **ctx):
    if block and is_htmx():
        g.pop("_icons", None)                 # fragments inline their icons
        html = render_block(template, block, **ctx)
    else:
        g._icons = set()                       # a whole page: one sprite at the end
        html = render_template(template, **ctx)
    if oob and is_htmx():
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


def service_error_page(e, **titles: str):
    """The page (or toast) for a service-layer error; apps may rename a status's title
    (``forbidden="You need access"``, ``not_found="Record not found"``)."""
    names = {404: titles.get("not_found"), 403: titles.get("forbidden"), 422: titles.get("invalid")}
    title = names.get(e.status) or ERROR_TITLES.get(e.status, "Something went wrong")
    return error_page(e.status, title, e.message)


def int_arg(name: str, default: int | None = None) -> int | None:
    """A non-negative integer request value (an id, a page); a malformed or
    out-of-range one (``abc``, ``-1``, ``2**63``) is a 422 naming the field."""
    from flask import request

    from apps.core.ids import parse_int
    v = request.values.get(name)
    if v is None or not v.strip():
        return default
    return parse_int(v, name)


def id_arg(name: str) -> int | None:
    """An optional id in the query string or form, for views that fall back when it is
    absent or not an id (``?tab=``, ``?slide=``): anything but an id is ``None``."""
    from flask import request

    from apps.core.ids import as_id
    return as_id(request.values.get(name))


def id_list(name: str, what: str) -> list[int]:
    """Every id in the request's ``name`` values (each may be comma-separated); one
    that is not an id is a 422: “…” is not a ``what``."""
    from flask import request

    from apps.core.errors import Invalid
    from apps.core.ids import as_id
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
    from flask import redirect
    if is_htmx():
        return "", 204, {"HX-Redirect": url}
    return redirect(url)


def attachment(data: bytes, mime: str, filename: str, *, inline: bool = False):
    """A download (``inline``: a file the browser shows), with the file name encoded for any characters (RFC 5987)."""
    from urllib.parse import quote

    from flask import Response
    resp = Response(data, mimetype=mime)
    resp.headers["Content-Disposition"] = f"{'inline' if inline else 'attachment'}; filename*=UTF-8''{quote(filename)}"
    return resp
