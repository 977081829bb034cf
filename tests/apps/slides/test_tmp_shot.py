import pytest
from playwright.sync_api import expect
from apps.slides import objects as O, service as S
from apps.core.store.db import Caller
pytestmark = pytest.mark.browser

def test_shot(desk, live_slot):
    page = desk
    with live_slot.store() as st:
        did = st.scalar("SELECT ref FROM drive_items WHERE name=? AND kind='deck'", ("Client Update – Aurelia Dawn (April 2026)",))
        sid = S.read_slides(st, did)[1]["id"]
        a = Caller(user="alex.chen")
        O.insert(st, a, sid, "shape", "ellipse", x=480, y=250, w=150, h=100, text="Risk")
        O.insert(st, a, sid, "shape", "right_arrow", x=300, y=300, w=120, h=60)
        O.insert(st, a, sid, "line", "arrow", x=100, y=380, w=300, h=-40)
        t = O.insert(st, a, sid, "text", text="A text box", x=420, y=120, w=250, h=50)
        O.set_format(st, a, sid, t, bold=True, color="#ea4335", size=24)
        img = O.images(st, "alex.chen")[0]
        O.insert(st, a, sid, "image", item=img["id"], x=560, y=20, w=140, h=90)
    page.goto(f"/slides/p/{did}?slide={sid}")
    page.locator(f'#canvas [data-kind="shape"]').first.click()
    expect(page.locator("#selframe")).to_be_visible()
    page.screenshot(path="/tmp/x.png")
