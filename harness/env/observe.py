"""What an agent sees: the screenshot, and optionally an accessibility tree and
set-of-marks (numbered boxes over the interactive elements, with a list)."""
from __future__ import annotations

import base64
import io
import json

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from harness.env.browser import VIEWPORT

# Interactive elements, as a person would count them; boxes are in viewport pixels.
MARKS_JS = """
() => {
  const sel = 'a[href], button, input:not([type=hidden]), select, textarea, summary, [role=button], [role=link],' +
              '[role=checkbox], [role=option], [role=menuitem], [role=menuitemcheckbox], [role=tab], [role=row][aria-selected],' +
              '[contenteditable=""], [contenteditable=true], [tabindex]:not([tabindex="-1"])';
  const out = [];
  const seen = new Set();
  for (const el of document.querySelectorAll(sel)) {
    if (seen.has(el)) continue;
    seen.add(el);
    const r = el.getBoundingClientRect();
    if (r.width < 2 || r.height < 2) continue;
    if (r.bottom <= 0 || r.right <= 0 || r.top >= innerHeight || r.left >= innerWidth) continue;
    const cs = getComputedStyle(el);
    if (cs.visibility === 'hidden' || cs.display === 'none' || Number(cs.opacity) === 0) continue;
    const cx = Math.min(innerWidth - 1, Math.max(0, r.left + r.width / 2));
    const cy = Math.min(innerHeight - 1, Math.max(0, r.top + r.height / 2));
    const top = document.elementFromPoint(cx, cy);
    if (top && top !== el && !el.contains(top) && !top.contains(el)) continue;
    const name = (el.getAttribute('aria-label') || el.innerText || el.value || el.placeholder ||
                  el.getAttribute('title') || '').trim().replace(/\\s+/g, ' ').slice(0, 80);
    const role = el.getAttribute('role') || ({A: 'link', BUTTON: 'button', SELECT: 'combobox', TEXTAREA: 'textbox',
                 SUMMARY: 'button'}[el.tagName]) || (el.tagName === 'INPUT' ? (el.type === 'checkbox' ? 'checkbox' : 'textbox') : el.tagName.toLowerCase());
    out.push({role, name, box: [Math.round(r.left), Math.round(r.top), Math.round(r.width), Math.round(r.height)]});
  }
  return out;
}
"""


def png_size(png: bytes) -> tuple[int, int]:
    """(width, height) of a PNG, from its header."""
    return int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")


def fit_png(png: bytes, size: tuple[int, int]) -> bytes:
    """The PNG cut (or padded with black) to ``size``: a variant whose CSS viewport was rounded up
    (``harness.env.variant``) draws a pixel more than its screen; the screenshot is the screen."""
    if png_size(png) == tuple(size):
        return png
    im = Image.open(io.BytesIO(png)).convert("RGB")
    canvas = Image.new("RGB", tuple(size))
    canvas.paste(im.crop((0, 0, min(im.width, size[0]), min(im.height, size[1]))), (0, 0))
    buf = io.BytesIO()
    canvas.save(buf, "PNG", compress_level=1)
    return buf.getvalue()


def screenshot_png(page, cdp=None, variant=None) -> bytes:
    """PNG of the viewport. Through CDP with ``optimizeForSpeed`` when we have a
    session (about twice as fast as ``page.screenshot``; still lossless).

    Under an appearance variant (``harness.env.variant``) with more than one device pixel per
    CSS pixel, Playwright's own capture in device pixels, clipped to the variant's CSS viewport
    (``viewport / zoom``, fractional), which makes it exactly the variant's screen; ``fit_png``
    only guards the size.

    This copies the last composited frame as it is: call it on a settled page
    (``harness.env.settle.wait_settled``: fonts ready, images decoded, two frames
    drawn after). No second capture to check the frame is stable: the frames
    that differed between runs were stable (two captures identical) but
    rasterized differently (partial raster, see harness/env/settle.py), so a
    comparison would only have cost a capture per step."""
    f = variant.px_per_css if variant is not None else 1.0
    if cdp is not None and f == 1.0:
        data = cdp.send("Page.captureScreenshot", {"format": "png", "optimizeForSpeed": True,
                                                   "captureBeyondViewport": False})["data"]
        png = base64.b64decode(data)
    else:
        # Playwright's capture, on the session that emulates the scale factor (a capture from another
        # DevTools session comes out in CSS pixels, and a scaled clip there resets the page's
        # devicePixelRatio to 1). The clip is the variant's exact CSS viewport (fractional under a zoom).
        clip = None
        if variant is not None and f != 1.0:
            w, h = variant.screen
            clip = {"x": 0, "y": 0, "width": w / f, "height": h / f}
        png = page.screenshot(type="png", scale="device", caret="initial", clip=clip)
    return fit_png(png, variant.screen) if variant is not None else png


def to_array(png: bytes, size: tuple[int, int] | None = None) -> np.ndarray:
    """The PNG as an (H, W, 3) uint8 array of ``size`` (width, height; default 1280×800), cut or
    padded with black if the PNG is another size."""
    img = Image.open(io.BytesIO(png)).convert("RGB")
    arr = np.asarray(img, dtype=np.uint8)
    w0, h0 = size or (VIEWPORT["width"], VIEWPORT["height"])
    if arr.shape != (h0, w0, 3):
        canvas = np.zeros((h0, w0, 3), dtype=np.uint8)
        h, w = min(arr.shape[0], h0), min(arr.shape[1], w0)
        canvas[:h, :w] = arr[:h, :w]
        arr = canvas
    return arr


def axtree(page) -> str:
    try:
        return page.aria_snapshot(mode="ai", timeout=5000)
    except Exception as e:           # a page mid-navigation has no tree yet
        return f"(accessibility tree unavailable: {type(e).__name__})"


def marks(page, variant=None) -> list[dict]:
    """The interactive elements, boxes in screenshot pixels (CSS boxes mapped through ``variant``)."""
    try:
        els = page.evaluate(MARKS_JS)
    except Exception:
        return []
    f = variant.px_per_css if variant is not None else 1.0
    for i, e in enumerate(els, 1):
        e["id"] = i
        if f != 1.0:
            x, y, w, h = e["box"]
            e["box"] = [round(x * f), round(y * f), round(w * f), round(h * f)]
    return els


def draw_marks(arr: np.ndarray, elements: list[dict]) -> np.ndarray:
    img = Image.fromarray(arr).copy()
    d = ImageDraw.Draw(img)
    font = ImageFont.load_default()
    for e in elements:
        x, y, w, h = e["box"]
        d.rectangle([x, y, x + w, y + h], outline=(230, 0, 90), width=2)
        label = str(e["id"])
        tw = 7 * len(label) + 4
        d.rectangle([x, max(0, y - 12), x + tw, max(12, y)], fill=(230, 0, 90))
        d.text((x + 2, max(0, y - 12)), label, fill=(255, 255, 255), font=font)
    return np.asarray(img, dtype=np.uint8)


def marks_text(elements: list[dict]) -> str:
    return "\n".join(f"[{e['id']}] {e['role']} {json.dumps(e['name'], ensure_ascii=False)} at "
                     f"({e['box'][0] + e['box'][2] // 2}, {e['box'][1] + e['box'][3] // 2})" for e in elements)
