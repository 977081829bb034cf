"""The icon sweep every browser test runs (tests/conftest.py ICON_SWEEP): an icon whose symbol the page
doesn't define is reported, whether the page drew it, a fragment swapped it in or a script added it;
and each app's main surfaces, opened as a user would, draw none."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.conftest import USER, signed_in

pytestmark = pytest.mark.browser


def test_the_sweep_reports_an_icon_whose_symbol_is_missing_and_not_one_that_resolves(page, live_server, live_slot):
    errors = signed_in(page, live_server, USER)
    page.goto(live_server.url + "/drive/my-drive")
    expect(page.get_by_role("main")).to_be_visible()
    assert not errors                                              # a whole page: every icon resolves
    with page.expect_console_message(lambda m: "no-such-icon" in m.text):
        page.evaluate("""() => { const s = document.createElement('span');
            s.innerHTML = '<svg width="20" height="20"><use href="#i-outline-no-such-icon"></use></svg>' +
                          '<svg width="20" height="20"><use href="' + '#' + document.querySelector('symbol').id + '"></use></svg>';
            document.body.appendChild(s); }""")
    assert [e for e in errors if "no-such-icon" in e] and len(errors) == 1, errors
