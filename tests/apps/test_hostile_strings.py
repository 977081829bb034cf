"""Data that can't break a page: hostile strings in every field of every app.

Each app's service layer is given strings made to break a page — an HTML
comment opener before ``<script>`` (which makes the HTML parser swallow the
rest of a ``<script>`` element), a closing ``</script>``, attribute breakouts
with ``onerror`` handlers, template syntax, U+2028/U+2029, RTL overrides,
control characters, emoji and a 10 kB string — and each page that shows the
field is then opened in Chromium. What must hold: the page shows the text as
text, no script ran (``window.__x`` stays undefined), the page raised no
JavaScript error, and the Sheets grid still has its cells after a reload.

The first tests need no browser: JSON embedded in a page carries no ``<``,
``>``, ``&`` or ``'``, so nothing a user typed can end a ``<script>`` element.
"""
from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect

from apps.core.store.db import Caller
from apps.core.text import html_json

USER = "alex.chen"
ALEX = Caller(user=USER)

# (what is written, a piece of it that must then be visible as text)
HOSTILE = [
    ("<!--<script>", "<!--<script>"),
    ("</script><script>window.__x=1</script>", "</script><script>window.__x=1</script>"),
    ("\"'><img src=x onerror=window.__x=1>", "\"'><img src=x onerror=window.__x=1>"),
    ("<svg/onload=window.__x=1>", "<svg/onload=window.__x=1>"),
    ("{{7*7}} ${7*7} {% raw %}", "{{7*7}} ${7*7} {% raw %}"),
    ("&amp; &lt;b&gt; &#x3c;", "&amp; &lt;b&gt; &#x3c;"),
    ("javascript:window.__x=1", "javascript:window.__x=1"),
    ("line\u2028sep\u2029para", "line"),
    ("emoji 🎉 👩‍👩‍👧 ✓", "🎉"),
    ("\u202eRTL override\u202c \u200fmark\u200e", "RTL override"),
    ("ctl\x01\x07\x1b\x7f end", "end"),
]
TEN_KB = ("10 kB <!--<script> & \"' " * 500)[:10_240]


def tagged(i: int, text: str) -> str:
    """A hostile string behind a marker (``hz03``) to find it by on the page."""
    return f"hz{i:02d} {text}"


def all_hostile() -> str:
    return "\n".join(tagged(i, s) for i, (s, _) in enumerate(HOSTILE))


# ---------------------------------------------------------------- without a browser
def test_html_json_escapes_what_could_end_a_script_element():
    value = {"A1": {"i": "<!--<script>"}, "A2": "</script><b>&'\u2028\u2029", "n": [1, None, True]}
    text = html_json(value)
    assert not set(text) & set("<>&'") and "\u2028" not in text and "\u2029" not in text
    assert json.loads(text) == value


def _script_json(body: str, element_id: str) -> str:
    m = re.search(rf'<script type="application/json" id="{element_id}">(.*?)</script>', body, re.S)
    assert m, f"no #{element_id} script in the page"
    return m.group(1)


def test_sheet_cell_with_comment_and_script_opener_keeps_the_grid_json_parsable(client, store):
    """The reported break: ``<!--<script>`` in a cell put the HTML parser into the
    script's "double escaped" state, so the ``</script>`` that closed the grid's JSON
    no longer did and the grid had no cells after a reload."""
    from apps.sheets import service as S
    book = S.create(store, ALEX, title="Hostile")
    tab = S.tabs(store, book)[0]["id"]
    S.set_cells(store, ALEX, book, tab, {(1, 1): "<!--<script>", (1, 2): "</script><script>x</script>", (1, 3): "&'"})
    body = client.get(f"/sheets/s/{book}").get_data(as_text=True)
    raw = _script_json(body, "sheet-data")
    assert "<" not in raw and ">" not in raw and "&" not in raw      # the tokenizer can't leave script data
    data = json.loads(raw)
    assert data["A1"]["i"] == "<!--<script>" and data["B1"]["i"] == "</script><script>x</script>"
    assert data["C1"]["i"] == "&'"


def test_no_script_element_of_any_page_holds_markup(client, store):
    """Every inline ``<script>`` in the pages below is JSON without ``<`` (a chat channel's
    composer and the sheet above are the pages that embed data)."""
    from apps.chat import service as C
    from apps.sheets import service as S
    conv = store.scalar("SELECT conversation FROM chat_members WHERE person=? ORDER BY id", (USER,))
    C.post_message(store, ALEX, conv, "<!--<script> </script>")
    book = S.create(store, ALEX, title="Hostile")
    S.set_cells(store, ALEX, book, S.tabs(store, book)[0]["id"], {(1, 1): "<!--<script>"})
    for url in (f"/chat/c/{conv}", f"/sheets/s/{book}", "/mail/inbox"):
        body = client.get(url).get_data(as_text=True)
        for attrs, inner in re.findall(r"<script([^>]*)>(.*?)</script>", body, re.S):
            if "src=" not in attrs:
                assert "<" not in inner, (url, attrs, inner[:200])


# ---------------------------------------------------------------- in the browser
def _text(page) -> str:
    """What the page shows: its rendered text and what its form fields hold."""
    return " ".join(page.evaluate("""() => [document.body.innerText,
        ...[...document.querySelectorAll("input:not([type=hidden]), textarea")].map(e => e.value)].join(" ")""").split())


def assert_shown(page, *texts: str) -> None:
    """Each text is on the page as text (whitespace folded); no injected script ran."""
    shown = _text(page)
    for t in texts:
        want = " ".join(t.split())
        assert want in shown, f"{want[:80]!r} is not shown on {page.url}"
    assert page.evaluate("typeof window.__x") == "undefined", f"a hostile string ran script on {page.url}"
    assert not page.errors, f"JavaScript errors on {page.url}: {page.errors}"


def shown_pieces(i0: int = 0) -> list[str]:
    return [tagged(i, shown) if shown == text else shown for i, (text, shown) in enumerate(HOSTILE, start=i0)]


def _coworker(st) -> dict:
    return dict(st.one("SELECT slug, name, email FROM people WHERE slug<>? ORDER BY id", (USER,)))


browser = pytest.mark.browser


@browser
def test_mail_subject_and_body(desk, live_slot):
    from apps.mail.delivery import deliver
    with live_slot.store() as st:
        who = _coworker(st)
        me = st.scalar("SELECT email FROM people WHERE slug=?", (USER,))
        for i, (s, _) in enumerate(HOSTILE):
            deliver(st, actor=who["slug"], sender=who["email"], sender_name=who["name"], to=[me],
                    subject=tagged(i, s), body=f"{tagged(i, s)}\n{all_hostile()}")
        thread = st.scalar("SELECT thread FROM mail_messages WHERE subject LIKE 'hz00%'")
        deliver(st, actor=who["slug"], sender=who["email"], sender_name=who["name"], to=[me],
                subject="hz99 long", body=TEN_KB, thread=thread)
    desk.goto("/mail/inbox")
    expect(desk.get_by_text("hz00", exact=False).first).to_be_visible()
    assert_shown(desk, *shown_pieces())
    desk.goto(f"/mail/thread/{thread}")
    expect(desk.get_by_text("hz00", exact=False).first).to_be_visible()
    assert_shown(desk, *shown_pieces(), TEN_KB[:2000])


@browser
def test_chat_messages(desk, live_slot):
    from apps.chat import service as C
    with live_slot.store() as st:
        conv = st.scalar("SELECT m.conversation FROM chat_members m JOIN chat_conversations c ON c.id=m.conversation"
                         " WHERE m.person=? AND c.kind='channel' AND c.archived=0 ORDER BY m.id", (USER,))
        for i, (s, _) in enumerate(HOSTILE):
            C.post_message(st, ALEX, conv, tagged(i, s))
        C.post_message(st, ALEX, conv, TEN_KB)
    desk.goto(f"/chat/c/{conv}")
    expect(desk.get_by_text("hz00", exact=False).first).to_be_visible()
    assert_shown(desk, *shown_pieces(), TEN_KB[:2000])


@browser
def test_calendar_event_title_location_description(desk, live_slot):
    from apps.calendar import service as K
    with live_slot.store() as st:
        day = st.now().date().isoformat()
        ids = [K.create_event(st, ALEX, title=tagged(i, s), location=s, description=f"{all_hostile()}\n{TEN_KB[:7000]}",
                              start=f"{day}T{8 + i // 2:02d}:{30 * (i % 2):02d}", end=f"{day}T{8 + i // 2:02d}:{30 * (i % 2) + 29:02d}")
               for i, (s, _) in enumerate(HOSTILE)]
    desk.goto(f"/calendar/week/{day}")
    expect(desk.get_by_text("hz00", exact=False).first).to_be_visible()
    assert_shown(desk, "hz00", "hz05")
    desk.goto(f"/calendar/event/{ids[0]}")
    assert_shown(desk, tagged(0, HOSTILE[0][0]), *shown_pieces(), TEN_KB[:2000])


@browser
def test_drive_names(desk, live_slot):
    from apps.drive import service as D
    with live_slot.store() as st:
        for i, (s, _) in enumerate(HOSTILE):
            D.create_folder(st, ALEX, None, tagged(i, s))
    desk.goto("/drive/")
    expect(desk.get_by_text("hz00", exact=False).first).to_be_visible()
    assert_shown(desk, *[p for p in shown_pieces() if "\n" not in p])


@browser
def test_doc_title_and_text(desk, live_slot):
    from apps.docs import blocks as B
    from apps.docs import service as S
    with live_slot.store() as st:
        doc = S.create(st, ALEX, title=tagged(0, HOSTILE[0][0]),
                       blocks=[B.block("paragraph", tagged(i, s)) for i, (s, _) in enumerate(HOSTILE)]
                       + [B.block("paragraph", TEN_KB)])
    desk.goto(f"/docs/d/{doc}")
    expect(desk.get_by_text("hz00", exact=False).first).to_be_visible()
    assert_shown(desk, *shown_pieces(), TEN_KB[:2000])
    assert desk.title().startswith("hz00 <!--<script>")


@browser
def test_sheet_cells_survive_a_reload(desk, live_slot):
    from apps.sheets import service as S
    with live_slot.store() as st:
        book = S.create(st, ALEX, title=tagged(0, HOSTILE[0][0]))
        tab = S.tabs(st, book)[0]["id"]
        S.set_cells(st, ALEX, book, tab, {(i + 1, 1): tagged(i, s) for i, (s, _) in enumerate(HOSTILE)}
                    | {(1, 2): TEN_KB, (2, 2): "=A1"})
    desk.goto(f"/sheets/s/{book}")
    desk.reload()
    grid = desk.get_by_role("grid")
    expect(grid.get_by_role("gridcell", name="hz00 <!--<script>").first).to_be_visible()
    assert_shown(desk, *[p for p in shown_pieces() if "\n" not in p])
    data = desk.evaluate("JSON.parse(document.getElementById('sheet-data').textContent)")
    assert data["A1"]["i"] == "hz00 <!--<script>" and data["B1"]["i"] == TEN_KB and data["B2"]["i"] == "=A1"
    grid.get_by_role("gridcell", name="hz00 <!--<script>").first.click()      # the editor's script works
    expect(desk.get_by_role("textbox", name="Formula bar")).to_have_value("hz00 <!--<script>")
    # The report, as the user met it: typed into a cell, then the page reloaded.
    desk.get_by_role("textbox", name="Name box").click()
    desk.keyboard.type("D1")
    desk.keyboard.press("Enter")
    desk.keyboard.type("<!--<script>")
    desk.keyboard.press("Enter")
    expect(grid.get_by_role("gridcell", name="<!--<script>", exact=True)).to_be_visible()
    with live_slot.store() as st:
        assert S.cell(st, book, "Sheet1", "D1")["input"] == "<!--<script>"
    desk.reload()
    expect(grid.get_by_role("gridcell", name="<!--<script>", exact=True)).to_be_visible()
    expect(grid.get_by_role("gridcell", name="hz00 <!--<script>").first).to_be_visible()
    assert_shown(desk, tagged(1, HOSTILE[1][0]), tagged(2, HOSTILE[2][0]))


@browser
def test_slide_title_body_and_notes(desk, live_slot):
    from apps.slides import service as S
    with live_slot.store() as st:
        deck = S.create(st, ALEX, title=tagged(0, HOSTILE[0][0]),
                        slides=[{"layout": "title_body", "title": tagged(i, s), "body": all_hostile(),
                                 "notes": TEN_KB} for i, (s, _) in enumerate(HOSTILE)])
    desk.goto(f"/slides/p/{deck}")
    expect(desk.get_by_text("hz00", exact=False).first).to_be_visible()
    assert_shown(desk, *shown_pieces(), TEN_KB[:2000])
    desk.goto(f"/slides/p/{deck}/present")
    assert_shown(desk, "hz00")


@browser
def test_crm_record_fields(desk, live_slot):
    from apps.crm import service as S
    with live_slot.store() as st:
        ids = [S.create(st, ALEX, "accounts", name=tagged(i, s), city=s, description=f"{all_hostile()}\n{TEN_KB}")
               for i, (s, _) in enumerate(HOSTILE)]
    desk.goto("/crm/o/accounts?q=hz")
    expect(desk.get_by_text("hz00", exact=False).first).to_be_visible()
    assert_shown(desk, *[p for p in shown_pieces() if "\n" not in p])
    desk.goto(f"/crm/o/accounts/{ids[0]}")
    assert_shown(desk, *shown_pieces(), TEN_KB[:2000])


@browser
def test_ticket_fields(desk, live_slot):
    from apps.tickets import service as S
    with live_slot.store() as st:
        recs = [S.create_incident(st, ALEX, short_description=tagged(i, s), description=f"{all_hostile()}\n{TEN_KB}",
                                  comment=s) for i, (s, _) in enumerate(HOSTILE)]
    desk.goto("/tickets/incident")
    expect(desk.get_by_text("hz00", exact=False).first).to_be_visible()
    assert_shown(desk, *[p for p in shown_pieces() if "\n" not in p])
    desk.goto(f"/tickets/incident/{recs[0]['number']}")
    assert_shown(desk, *shown_pieces(), TEN_KB[:2000])
