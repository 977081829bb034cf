"""Episode media: an animated preview and a contact sheet per recorded episode.

For an episode folder ``DIR/episodes/<world>/<task>/<sample>/`` this writes, next
to ``steps.jsonl``:

- ``preview.gif`` (and ``preview.webp`` when this Pillow can write animated
  WebP): frame 0 is the start screen, frame *n* is the screen the agent saw
  before step *n* with action *n* drawn on it (click rings and crosshair, drag
  polylines with an arrowhead, scroll arrows, typed text, key chips) and a
  caption strip ``step n/N · action``; the last frame is held longer.
- ``contact.png``: every frame of the preview (without the strip) in a grid,
  each captioned with its step number and action.

Overlay geometry comes from ``harness.runs.overlay``, as the viewer's does, so the two always
agree; the episode is read through ``harness.runs.layout`` (an unreadable one is skipped with the
reason, ``Unreadable``).
Output is deterministic: the same episode gives the same bytes. Files are
written to a temporary name and renamed, so a live viewer never sees half a GIF.
Only Pillow and the Roboto font of ``font_roboto`` are used.
"""
from __future__ import annotations

import math
import os
import warnings
from functools import lru_cache
from pathlib import Path

import font_roboto
from PIL import Image, ImageDraw, ImageFont, UnidentifiedImageError, features

from harness.runs.layout import EPISODES, Unreadable, episode_dirs, read_episode
from harness.runs.overlay import overlays

FRAME_WIDTH = 640            # preview frames: screen scaled to this width (1280×800 → 640×400) …
CAPTION_H = 28               # … plus a caption strip below it
FRAME_MS = 900               # per-frame duration
FIRST_MS = 1200              # the start screen
LAST_MS = 3000               # hold on the last frame
THUMB_WIDTH = 320            # contact sheet cells
SHEET_COLUMNS = 4
SHEET_PAD = 10
SHEET_CAP = 22
PREVIEW_GIF, PREVIEW_WEBP, CONTACT_SHEET = "preview.gif", "preview.webp", "contact.png"   # in the episode folder
MEDIA_FILES = (PREVIEW_GIF, PREVIEW_WEBP, CONTACT_SHEET)

ACCENT = (220, 38, 38)
HALO = (255, 255, 255)
INK = (31, 31, 31)


class Exported(list):
    """The paths written by :func:`export_media` (a plain list), plus what was skipped and why."""

    def __init__(self):
        super().__init__()
        self.warnings: list[str] = []      # "world/task/sample: why" for each unreadable episode
        self.unchanged: list[Path] = []    # episodes whose media already existed (overwrite=False)


# ---------------------------------------------------------------- shared with harness.bench.gallery

@lru_cache(maxsize=None)
def roboto(size: int, weight: str = "Regular"):
    """Roboto from the ``font_roboto`` package at ``size`` px (weight: Regular, Medium, Bold…)."""
    return ImageFont.truetype(str(Path(font_roboto.__file__).parent / "files" / f"Roboto-{weight}.ttf"), size)


def action_label(action) -> str:
    """A short human label for an action, e.g. ``click (100, 200)``, ``type 'hello'``, ``key ctrl+a``."""
    a = action if isinstance(action, dict) else {"type": str(action)}
    kind = str(a.get("type", "?"))
    try:
        if kind in ("click", "double_click", "triple_click", "move", "mouse_down", "mouse_up") and "x" in a:
            mods = "+".join(a.get("modifiers") or [])
            btn = a.get("button")
            return (f"{mods + '+' if mods else ''}{kind} ({a['x']:g}, {a['y']:g})"
                    + (f" {btn}" if btn and btn != "left" else ""))
        if kind == "drag":
            path = a.get("path") or []
            return f"drag {len(path)} points"
        if kind == "scroll":
            return f"scroll dx={float(a.get('dx', 0) or 0):g} dy={float(a.get('dy', 0) or 0):g}"
        if kind == "type":
            return f"type {str(a.get('text', ''))[:40]!r}"
        if kind == "key":
            return f"key {a.get('keys', a.get('key', ''))}"
        if kind == "navigate":
            return f"navigate {a.get('url', '')}"
        if kind == "wait":
            return f"wait {a.get('ms', '')} ms"
        if kind == "done":
            answer = a.get("answer")
            return f"done ({a.get('status', 'complete')})" + (f" {str(answer)[:30]!r}" if answer else "")
    except (TypeError, ValueError):
        pass
    return kind


# ---------------------------------------------------------------- capability

def webp_supported() -> bool:
    """Whether this Pillow can write animated WebP (``webp_anim`` before Pillow 11, any WebP after)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            if "webp_anim" in getattr(features, "features", {}):
                return bool(features.check("webp_anim"))
            return bool(features.check("webp"))
        except Exception:  # noqa: BLE001 - a broken codec is simply "no WebP"
            return False


# ---------------------------------------------------------------- frames

def _load_screen(ep: Path, rel: str):
    path = (ep / rel)
    try:
        if ep.resolve() not in path.resolve().parents:
            raise Unreadable(f"screenshot {rel!r} is outside the episode")
        with Image.open(path) as im:
            im.load()
            return im.convert("RGB")
    except FileNotFoundError:
        raise Unreadable(f"screenshot {rel} is missing") from None
    except (OSError, UnidentifiedImageError, SyntaxError, ValueError) as e:
        raise Unreadable(f"screenshot {rel} is corrupt ({type(e).__name__})") from None


def episode_frames(ep_dir: Path) -> list[tuple[object, str]]:
    """The frames of an episode as (RGB image at FRAME_WIDTH with overlays, caption) pairs, without the strip.

    Raises Unreadable when the episode cannot be read."""
    episode = read_episode(ep_dir)
    ep, steps, shots = episode.dir, episode.steps, episode.screens
    cache: dict[str, object] = {}

    def screen(rel):
        if rel not in cache:
            cache[rel] = _load_screen(ep, rel)
        return cache[rel]

    if not shots:
        raise Unreadable("no screenshots recorded")
    first = screen(shots[min(shots)])
    w, h = first.size
    scale = FRAME_WIDTH / w
    size = (FRAME_WIDTH, max(1, round(h * scale)))

    def scaled(rel):
        im = screen(rel)
        return im.resize(size, Image.Resampling.LANCZOS)

    def drawn_on(n: int) -> str:
        return episode.screen_before(n) or shots[min(shots)]

    frames = [(scaled(shots[min(shots)]), "start")]
    n = len(steps)
    for i, (s, ov) in enumerate(zip(steps, overlays(steps, lambda k: screen(drawn_on(k)).size)), 1):
        rel = drawn_on(i)
        base = scaled(rel)
        action = s.get("action")
        _draw_overlay(base, ov, FRAME_WIDTH / screen(rel).size[0])
        caption = f"step {s.get('step', i)}/{n} · {action_label(action)}"
        if s.get("error"):
            caption += f" · error: {str(s['error'])[:40]}"
        frames.append((base, caption))
    return frames


def _line(draw, pts, width):
    draw.line(pts, fill=HALO, width=width + 3, joint="curve")
    draw.line(pts, fill=ACCENT, width=width, joint="curve")


def _arrowhead(draw, tail, tip, size=12):
    ang = math.atan2(tip[1] - tail[1], tip[0] - tail[0])
    left = (tip[0] - size * math.cos(ang - 0.45), tip[1] - size * math.sin(ang - 0.45))
    right = (tip[0] - size * math.cos(ang + 0.45), tip[1] - size * math.sin(ang + 0.45))
    draw.polygon([tip, left, right], fill=ACCENT, outline=HALO)


def _label_box(draw, xy, text, font, *, fill=(255, 255, 255), ink=INK, outline=ACCENT, clamp=None):
    x, y = xy
    l, _, r, _ = draw.textbbox((0, 0), text, font=font)
    _, t, _, b = draw.textbbox((0, 0), "Ag", font=font)      # one height for every box of a font
    bw, bh = r - l + 12, b - t + 10
    if clamp:
        x = max(2, min(x, clamp[0] - bw - 2))
        y = max(2, min(y, clamp[1] - bh - 2))
    draw.rounded_rectangle((x, y, x + bw, y + bh), radius=5, fill=fill, outline=outline, width=2)
    draw.text((x + 6 - l, y + 5 - t), text, fill=ink, font=font)
    return x + bw


def _draw_overlay(im, ov: dict, s: float) -> None:
    draw = ImageDraw.Draw(im)
    W, H = im.size
    font = roboto(13, "Medium")
    if ov.get("point") and ov.get("type") != "scroll":
        x, y = ov["point"][0] * s, ov["point"][1] * s
        for k in range(int(ov.get("rings", 1))):
            r = 9 + 6 * k
            draw.ellipse((x - r, y - r, x + r, y + r), outline=HALO, width=5)
            draw.ellipse((x - r, y - r, x + r, y + r), outline=ACCENT, width=3)
        arm = 9 + 6 * int(ov.get("rings", 1)) + 6
        for a, b in (((x - arm, y), (x - 4, y)), ((x + 4, y), (x + arm, y)),
                     ((x, y - arm), (x, y - 4)), ((x, y + 4), (x, y + arm))):
            _line(draw, [a, b], 2)
        draw.ellipse((x - 2, y - 2, x + 2, y + 2), fill=ACCENT)
    if ov.get("path"):
        pts = [(px * s, py * s) for px, py in ov["path"]]
        if len(pts) == 1:
            pts = pts * 2
        _line(draw, pts, 3)
        x0, y0 = pts[0]
        draw.ellipse((x0 - 5, y0 - 5, x0 + 5, y0 + 5), fill=ACCENT, outline=HALO, width=2)
        tail = next((p for p in reversed(pts[:-1]) if p != pts[-1]), None)
        if tail:
            _arrowhead(draw, tail, pts[-1])
    if ov.get("type") == "scroll" and ov.get("point") and ov.get("arrow"):
        p = (ov["point"][0] * s, ov["point"][1] * s)
        q = (ov["arrow"][0] * s, ov["arrow"][1] * s)
        if p != q:
            _line(draw, [p, q], 4)
            _arrowhead(draw, p, q, 14)
        draw.ellipse((p[0] - 4, p[1] - 4, p[0] + 4, p[1] + 4), fill=ACCENT, outline=HALO)
        _label_box(draw, (p[0] + 10, p[1] - 28), ov.get("label", "scroll")[len("scroll "):], font, clamp=(W, H))
    if ov.get("textbox"):
        tb = ov["textbox"]
        _label_box(draw, (tb["x"] * s, tb["y"] * s), tb["text"] or " ",
                   roboto(14), fill=(255, 251, 230), clamp=(W, H))
    if ov.get("chips"):
        x = 12
        y = H - 34
        for chip in ov["chips"]:
            if chip == "+":
                draw.text((x, y + 1), "+", fill=HALO, font=roboto(16, "Bold"), stroke_width=2, stroke_fill=INK)
                x += 14
                continue
            x = _label_box(draw, (x, y), chip, roboto(14, "Medium"), fill=(40, 44, 52), ink=(255, 255, 255),
                           outline=(255, 255, 255)) + 6


def _with_caption(im, caption: str):
    out = Image.new("RGB", (im.width, im.height + CAPTION_H), (24, 28, 36))
    out.paste(im, (0, 0))
    ImageDraw.Draw(out).text((10, im.height + 6), caption[:90], fill=(240, 240, 240), font=roboto(14, "Medium"))
    return out


def contact_sheet(frames, columns: int = SHEET_COLUMNS):
    """All frames in a grid of THUMB_WIDTH-wide cells, each captioned, as one RGB image."""
    columns = max(1, min(columns, len(frames)))
    rows = -(-len(frames) // columns)
    w, h = frames[0][0].size
    tw, th = THUMB_WIDTH, round(h * THUMB_WIDTH / w)
    sheet = Image.new("RGB", (columns * (tw + SHEET_PAD) + SHEET_PAD, rows * (th + SHEET_CAP + SHEET_PAD) + SHEET_PAD),
                      (246, 248, 252))
    draw = ImageDraw.Draw(sheet)
    font = roboto(13)
    for i, (im, caption) in enumerate(frames):
        x = SHEET_PAD + (i % columns) * (tw + SHEET_PAD)
        y = SHEET_PAD + (i // columns) * (th + SHEET_CAP + SHEET_PAD)
        text = caption if i else "0 · start"
        if i:
            text = caption.removeprefix("step ")
            text = text.split(" · ", 1)[0].split("/")[0] + " · " + text.split(" · ", 1)[-1]
        while text and draw.textlength(text, font=font) > tw:
            text = text[:-2] + "…" if len(text) > 2 else ""
        draw.text((x, y + 4), text, fill=INK, font=font)
        sheet.paste(im.resize((tw, th), Image.Resampling.LANCZOS), (x, y + SHEET_CAP))
        draw.rectangle((x - 1, y + SHEET_CAP - 1, x + tw, y + SHEET_CAP + th), outline=(200, 204, 212))
    return sheet


# ---------------------------------------------------------------- writing

def _atomic(target: Path, write) -> Path:
    tmp = target.with_name(f".{target.name}.tmp-{os.getpid()}")
    try:
        write(tmp)
        os.replace(tmp, target)
    finally:
        tmp.unlink(missing_ok=True)
    return target


def episode_media(ep_dir: str | Path, *, webp: bool | None = None) -> list[Path]:
    """(Re)generate preview.gif, preview.webp (when supported) and contact.png for one episode folder.

    Returns the paths written; raises Unreadable when the episode cannot be read."""
    ep = Path(ep_dir)
    frames = episode_frames(ep)
    strip = [_with_caption(im, cap) for im, cap in frames]
    durations = [FIRST_MS] + [FRAME_MS] * (len(strip) - 1)
    durations[-1] = LAST_MS
    written = []

    def save_anim(fmt, **kw):
        def write(tmp):
            strip[0].save(tmp, format=fmt, save_all=True, append_images=strip[1:], duration=durations, loop=0, **kw)
        return write

    written.append(_atomic(ep / PREVIEW_GIF, save_anim("GIF", optimize=False, disposal=1)))
    if webp is None:
        webp = webp_supported()
    if webp:
        written.append(_atomic(ep / PREVIEW_WEBP, save_anim("WEBP", quality=70, method=4)))
    else:
        (ep / PREVIEW_WEBP).unlink(missing_ok=True)
    sheet = contact_sheet(frames)
    written.append(_atomic(ep / CONTACT_SHEET, lambda tmp: sheet.save(tmp, format="PNG", optimize=True)))
    return written


def media_links(ep_dir: str | Path) -> dict[str, str]:
    """The media files that exist for an episode, by name → path relative to the episode folder."""
    ep = Path(ep_dir)
    return {name: name for name in MEDIA_FILES if (ep / name).is_file()}


def export_media(run_dir: str | Path, *, episodes=None, overwrite: bool = False) -> Exported:
    """Write the media of every finished episode of a run (or of ``episodes``: ids like
    ``world/task/sample`` or ``world/task``, or episode folders). Unreadable episodes are skipped and
    listed in ``.warnings``; episodes whose media exist are left alone unless ``overwrite``.

    Returns the written paths (a list, with ``.warnings`` and ``.unchanged``)."""
    run = Path(run_dir)
    result = Exported()
    if not run.is_dir():
        result.warnings.append(f"{run}: not a folder")
        return result
    all_eps = episode_dirs(run)
    if episodes is None:
        chosen = all_eps
    else:
        chosen = []
        for e in episodes:
            p = Path(e)
            if p.is_absolute() or p.is_dir():
                matches = [p] if p.is_dir() else []
            else:
                key = str(e).strip("/")
                matches = [d for d in all_eps
                           if d.relative_to(run / EPISODES).as_posix() == key
                           or d.relative_to(run / EPISODES).as_posix().startswith(key + "/")]
            if not matches:
                result.warnings.append(f"{e}: no such episode")
            chosen += [m for m in matches if m not in chosen]
    webp = webp_supported()
    for ep in chosen:
        try:
            name = ep.relative_to(run / EPISODES).as_posix()
        except ValueError:
            name = str(ep)
        wanted = [PREVIEW_GIF, CONTACT_SHEET] + ([PREVIEW_WEBP] if webp else [])
        if not overwrite and all((ep / f).is_file() for f in wanted):
            result.unchanged.append(ep)
            continue
        try:
            result += episode_media(ep, webp=webp)
        except Unreadable as e:
            result.warnings.append(f"{name}: {e}")
        except Exception as e:  # noqa: BLE001 - one bad episode never stops the export
            result.warnings.append(f"{name}: {type(e).__name__}: {e}")
    return result
