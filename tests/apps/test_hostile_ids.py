"""A route sweep with hostile ids: every route of every app, in every world, as the world's user.

For each rule of the app's ``url_map`` the sweep takes real values for its
arguments (harvested by crawling the app's own pages, so ``/sheets/s/<book>/
tabs/<tab>/rename`` is tried on a real book with a hostile tab), then swaps one
argument at a time for a hostile value (``2**63``, ``2**64``, ``-1``, ``0``,
``²``, 5,000 digits, ``%00`` …) and sends every method the rule takes. It also
sends each rule hostile query strings and forms (every parameter name the
route modules read, plus every form field the crawl saw) and hostile JSON.

What must hold: no response is a 5xx and no request raises; a refused request
(any 4xx) leaves the slot's database byte for byte as it was.
"""
from __future__ import annotations

import collections
import html
import re
import time
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

import pytest

from apps import create_app
from apps.web.session import session_cookie
from apps.core.store.compile import template_for
from apps.core.store.slot import Slot
from apps.core.world import load_world

WORLDS = ("meridian", "lumen")
INT64 = 2**63

# Swapped into one URL argument at a time: out of SQLite's range, its largest id, negative, zero,
# digits that are not ASCII, more digits than int() takes, NUL and invalid UTF-8 escapes.
PATH_VALUES = [str(INT64), str(INT64 - 1), "-1", "0", "²", "%00", "%FF", "9" * 5000]
# Sent as every query-string / form parameter the app reads, all at once.
FIELD_VALUES = [str(INT64), "-1", "²"]
# And one at a time for each parameter the view itself reads (a long value here, not in
# every parameter at once: a 4 MB query string only measures the form parser).
ONE_FIELD_VALUES = [str(INT64 - 1), str(2**64), "9" * 5000, "x" * 20_000]
JSON_BODIES = [None, []]          # None: a dict of the view's parameters, each set to 2**64
METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE")
# Refusals that keep what the user typed, by design, and the only tables they may write:
# a send that fails validation leaves the message as a draft (as Gmail does).
KEEPS_INPUT = {"mail.compose_send": {"mail_drafts"}}

APPS_DIR = Path(__file__).resolve().parents[2] / "apps"
_READ = re.compile(r"""(?:\.get|\.getlist|int_arg|id_arg|id_list|_form_int|\.pop)\(\s*["']([\w\-\[\]]+)["']"""
                   r"""|(?:args|form|values|files)\[\s*["']([\w\-\[\]]+)["']\]""")
_LINK = re.compile(r"""(?:href|hx-get|hx-post|hx-put|hx-delete|action|src|data-url)\s*=\s*["'](/[^"'#\s]*)""")
_FIELD = re.compile(r"""\bname\s*=\s*["']([\w\-\[\]]{1,40})["']""")


def _read_names(source: str) -> set[str]:
    return {a or b for a, b in _READ.findall(source)}


def route_param_names() -> set[str]:
    """Every request parameter name the route modules read (over-inclusive: harmless)."""
    names: set[str] = set()
    for p in [*APPS_DIR.glob("*/routes*.py"), *APPS_DIR.glob("*/views.py"), APPS_DIR / "web" / "render.py"]:
        names |= _read_names(p.read_text())
    return names


def _converter(rule, arg: str) -> str:
    return type(rule._converters[arg]).__name__


def _url(rule, values: dict[str, str]) -> str:
    out = rule.rule
    for arg, v in values.items():
        out = re.sub(r"<(?:[^<>:]+:)?%s>" % re.escape(arg), lambda _m, v=v: v, out)
    return out


class Sweep:
    def __init__(self, world: str):
        self.world = load_world(world)
        self.slot = Slot(template_for(self.world))
        self.app = create_app({"SLOT": self.slot, "TESTING": True, "SECRET_KEY": "sweep"})
        self.user = self.world.spec.user
        self.adapter = self.app.url_map.bind("localhost")
        self.requests = 0
        self.statuses: collections.Counter = collections.Counter()
        self.failures: list[str] = []
        self.client = None
        self.state = b""
        self.pages: list[str] = []          # the HTML pages the crawl reached
        self.reset()

    def reset(self) -> None:
        self.slot.restore()
        self.state = self.slot.serialize()
        self.client = self.app.test_client()
        name, value = session_cookie(self.app, self.user, self.slot.generation)
        self.client.set_cookie(name, value, domain="localhost")

    # ------------------------------------------------------------ real argument values
    def crawl(self, limit: int = 200) -> tuple[dict[str, dict], dict[str, str], set[str]]:
        """Real arguments per endpoint (and per argument name), and the form field names seen."""
        by_endpoint: dict[str, dict] = {}
        by_arg: dict[str, str] = {}
        fields: set[str] = set()
        seen_endpoints: collections.Counter = collections.Counter()
        queue = ["/"] + [f"{a.prefix}/" for a in self.app.extensions["deskworld.apps"]]
        visited: set[str] = set()
        while queue and len(visited) < limit:
            url = queue.pop(0)
            if url in visited:
                continue
            visited.add(url)
            r = self.client.get(url, headers={"Accept": "text/html"})
            if r.status_code != 200 or not r.mimetype.startswith("text/html"):
                continue
            self.pages.append(url)
            text = r.get_data(as_text=True)
            fields |= set(_FIELD.findall(text))
            for raw in _LINK.findall(text):
                link = html.unescape(raw)
                parts = urlsplit(link)
                fields |= {k for k, _ in parse_qsl(parts.query)}
                for method in ("GET", "POST"):
                    try:
                        endpoint, args = self.adapter.match(parts.path, method=method)
                    except Exception:
                        continue
                    if args and (endpoint not in by_endpoint or len(args) > len(by_endpoint[endpoint])):
                        by_endpoint[endpoint] = {k: str(v) for k, v in args.items()}
                    for k, v in args.items():
                        by_arg.setdefault(k, str(v))
                    if method == "GET" and link not in visited and seen_endpoints[endpoint] < 2:
                        seen_endpoints[endpoint] += 1
                        queue.append(link)
                    break
        return by_endpoint, by_arg, fields

    # ------------------------------------------------------------ one request
    def _changes(self) -> int:
        with self.slot.store() as st:
            return st.conn.total_changes

    def _seq(self) -> int:
        with self.slot.store() as st:
            return st.scalar("SELECT coalesce(max(seq), 0) FROM _writes")

    def _tables_since(self, seq: int) -> set[str]:
        with self.slot.store() as st:
            return {r[0] for r in st.all("SELECT DISTINCT tbl FROM _writes WHERE seq>?", (seq,))}

    def send(self, endpoint: str, method: str, url: str, **kw) -> None:
        # total_changes counts every row written, even in a savepoint later rolled back: when it
        # hasn't moved nothing was written; when it has, the bytes say whether anything stuck.
        changes, seq = self._changes(), self._seq()
        self.requests += 1
        what = f"{method} {url[:120]}" + (f" {sorted(kw)}" if kw else "")
        try:
            r = self.client.open(url, method=method, **kw)
        except Exception as e:                                  # TESTING propagates app exceptions
            self.failures.append(f"{what}: raised {type(e).__name__}: {str(e)[:200]}")
            self.statuses["raised"] += 1
            self.reset()
            return
        self.statuses[r.status_code] += 1
        if r.status_code >= 500:
            self.failures.append(f"{what}: {r.status_code}")
        if self._changes() == changes:
            return
        after = self.slot.serialize()
        if 400 <= r.status_code < 500 and after != self.state and not (
                endpoint in KEEPS_INPUT and self._tables_since(seq) <= KEEPS_INPUT[endpoint]):
            self.failures.append(f"{what}: refused with {r.status_code} but wrote to the store")
        self.state = after

    # ------------------------------------------------------------ the sweep
    def run(self) -> None:
        by_endpoint, by_arg, fields = self.crawl()
        all_names = sorted(route_param_names() | fields)
        rules = [r for r in self.app.url_map.iter_rules()]
        self.rules = len(rules)
        for rule in rules:
            self.reset()
            methods = [m for m in METHODS if m in rule.methods]
            base = {}
            for arg in rule.arguments:
                real = by_endpoint.get(rule.endpoint, {}).get(arg) or by_arg.get(arg)
                base[arg] = real or ("1" if _converter(rule, arg) == "IdConverter" else "x")
            # hostile path arguments, one at a time
            for arg in sorted(rule.arguments):
                for v in PATH_VALUES:
                    url = _url(rule, {**base, arg: v})
                    for m in methods:
                        self.send(rule.endpoint, m, url)
            # hostile query strings and forms on the real URL
            url = _url(rule, base)
            view = self.app.view_functions.get(rule.endpoint)
            own = sorted(_read_names(_source(view)))
            for v in FIELD_VALUES:
                every = {n: v for n in all_names}
                for m in methods:
                    if m == "GET":
                        self.send(rule.endpoint, m, url, query_string=every)
                    else:
                        self.send(rule.endpoint, m, url, data=every)
            for n in own:
                for v in ONE_FIELD_VALUES:
                    for m in methods:
                        if m == "GET":
                            self.send(rule.endpoint, m, url, query_string={n: v})
                        else:
                            self.send(rule.endpoint, m, url, data={n: v})
            for m in methods:
                if m == "GET":
                    continue
                self.send(rule.endpoint, m, url, data={})
                for body in JSON_BODIES:
                    self.send(rule.endpoint, m, url, json={n: 2**64 for n in own or ["x"]} if body is None else body)


def _source(fn) -> str:
    import inspect
    try:
        return inspect.getsource(fn)
    except (OSError, TypeError):
        return ""


@pytest.mark.parametrize("world", WORLDS)
def test_hostile_ids_and_params_never_500_nor_write_when_refused(world):
    t0 = time.monotonic()
    sweep = Sweep(world)
    sweep.run()
    took = time.monotonic() - t0
    print(f"\n{world}: {sweep.rules} routes, {sweep.requests} requests in {took:.1f}s: "
          f"{dict(sorted(sweep.statuses.items(), key=str))}")
    assert sweep.rules > 200 and sweep.requests > 2000
    assert not sweep.failures, f"{len(sweep.failures)} failures:\n" + "\n".join(sweep.failures[:60])


@pytest.mark.parametrize("world", WORLDS)
def test_every_crawled_page_also_renders_as_an_htmx_fragment(world):
    """The block a page renders for an htmx request must render on its own (a macro imported
    outside the block is undefined there: the editors' list pages answered htmx with a 500)."""
    sweep = Sweep(world)
    sweep.crawl()
    assert len(sweep.pages) > 50, len(sweep.pages)       # every GET endpoint a link reaches, twice at most
    broken = []
    for url in sweep.pages:
        try:
            r = sweep.client.get(url, headers={"HX-Request": "true"})
        except Exception as e:            # the test app propagates a template error
            broken.append(f"{url}: {type(e).__name__}: {e}")
            continue
        if r.status_code >= 500:
            broken.append(f"{url}: {r.status_code}")
    assert not broken, broken


_USE = re.compile(r"""<use\b[^>]*\bhref\s*=\s*["']#([^"']+)["']""")
_ID_ATTR = re.compile(r"""\bid\s*=\s*["']([^"']+)["']""")


@pytest.mark.parametrize("world", WORLDS)
def test_every_icon_a_response_draws_resolves_in_that_response(world):
    """An icon is a <use href="#i-…"> into symbols a page defines once; a response swapped into a page (an
    htmx fragment, a dialog or panel fetched on its own) must bring the symbols it uses, or the icon is
    blank — the compose popup's ✕ and paperclip, the pickers' folders, the share dialog's chevrons were.
    Every crawled page and every link it reaches, fetched whole and as htmx: each <use> has its target."""
    sweep = Sweep(world)
    sweep.crawl()
    blank = []
    for url in sweep.pages:
        for headers in ({"Accept": "text/html"}, {"HX-Request": "true"}):
            r = sweep.client.get(url, headers=headers)
            if r.status_code != 200 or not r.mimetype.startswith("text/html"):
                continue
            text = r.get_data(as_text=True)
            missing = set(_USE.findall(text)) - set(_ID_ATTR.findall(text))
            if missing:
                blank.append(f"{url}{' (htmx)' if 'HX-Request' in headers else ''}: {sorted(missing)[:4]}")
    assert not blank, f"{len(blank)} responses draw icons they don't define:\n" + "\n".join(blank[:40])


def test_int_converter_is_the_id_converter(app):
    """Every ``<int:…>`` in every blueprint goes through the range-checked converter."""
    from werkzeug.routing import IntegerConverter

    from apps.web.routing import IdConverter
    convs = [c for r in app.url_map.iter_rules() for c in r._converters.values() if isinstance(c, IntegerConverter)]
    assert len(convs) > 80 and all(isinstance(c, IdConverter) for c in convs)


@pytest.mark.parametrize("v,ok", [("1", 1), (str(INT64 - 1), INT64 - 1), ("0", 0), (str(INT64), None),
                                  (str(2**64), None), ("-1", None), ("²", None), ("١٢", None), ("9" * 5000, None),
                                  (" 12 ", 12), ("1.0", None), ("", None), (INT64, None), (-1, None), (True, None)])
def test_as_id(v, ok):
    from apps.core.ids import as_id
    assert as_id(v) == ok


def test_out_of_range_ids_are_404_not_500(client):
    for url in (f"/mail/thread/{INT64}", f"/sheets/s/{2**64}", "/drive/file/-1", f"/tickets/kb/{INT64}",
                "/docs/d/99999999999999999999", f"/crm/o/accounts/{INT64}", "/chat/c/" + "9" * 5000):
        assert client.get(url).status_code == 404, url


def test_out_of_range_form_ints_are_422_naming_the_field(client):
    r = client.get(f"/mail/inbox?page={2**64}")
    assert r.status_code == 422 and b"page" in r.data
