"""What the appearance-variant tests share: a page fetched with (or without) a variant's cookie."""
from __future__ import annotations

from apps.web.session import session_cookie
from tests.conftest import USER


def page_with_cookie(client, url: str, name: str, value=None) -> str:
    """``url``'s HTML on the world as compiled (the slot is restored first: a visit can change what the
    next one shows, e.g. chat's read marker), with the cookie ``name`` set to ``value`` (None: absent)."""
    app = client.application
    app.config["SLOT"].restore()
    session, signed = session_cookie(app, USER, app.config["SLOT"].generation)
    client.set_cookie(session, signed, domain="localhost")
    if value is None:
        client.delete_cookie(name, domain="localhost")
    else:
        client.set_cookie(name, str(value), domain="localhost")
    r = client.get(url, follow_redirects=True)
    assert r.status_code == 200, (url, r.status_code)
    return r.get_data(as_text=True)
