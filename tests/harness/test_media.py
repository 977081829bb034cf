"""Episode media: the animated preview (one frame per step plus the start, overlays drawn), the contact
sheet grid, byte-for-byte determinism, and unreadable episodes skipped and reported."""
from __future__ import annotations

import io
import json

from PIL import Image, ImageSequence

from harness.runs.media import (CAPTION_H, SHEET_CAP, SHEET_PAD, THUMB_WIDTH, action_label, episode_media,
                           export_media, webp_supported)
from harness.runs.layout import append_result
from harness.runs.recorder import EpisodeRecorder

TASK = "meridian/gross-tonnage"
ACTIONS = [
    {"type": "click", "x": 100, "y": 200},
    {"type": "drag", "path": [{"x": 10, "y": 10}, {"x": 300, "y": 40}, {"x": 500, "y": 300}]},
    {"type": "scroll", "x": 640, "y": 400, "dx": 0, "dy": 300},
    {"type": "type", "text": "58,400 GT"},
    {"type": "key", "keys": "ctrl+a"},
    {"type": "double_click", "x": 900, "y": 600},
    {"type": "triple_click", "x": 300, "y": 500},
    {"type": "done", "status": "complete", "answer": "58,400"},
]


def png(i: int) -> bytes:
    im = Image.new("RGB", (1280, 800), (235, 240 - 10 * i, 250))
    im.paste((60, 90, 160), (0, 0, 1280, 56))                       # a "toolbar"
    buf = io.BytesIO()
    im.save(buf, format="PNG")
    return buf.getvalue()


def record(run, task=TASK, sample=0, steps=ACTIONS):
    (run / "run.json").write_text(json.dumps({"agent": "oracle", "k": 1}))
    rec = EpisodeRecorder(run, task, sample)
    rec.screen(0, png(0))
    for i, a in enumerate(steps, 1):
        rec.step({"step": i, "action": a, "url": f"http://desk.local/p{i}", "error": "",
                  "screenshot": rec.screen(i, png(i))})
    ep = rec.finish({"status": "passed", "passed": True, "score": 1.0, "lines": []}, {"tables": {}})
    append_result(run, {"task": task, "sample": sample, "score": 1.0, "passed": True, "steps": len(steps),
                        "status": "passed"})
    return ep


def test_preview_and_contact_sheet(tmp_path):
    ep = record(tmp_path)
    out = export_media(tmp_path)
    assert out.warnings == []
    names = sorted(p.name for p in out)
    assert names == sorted(["preview.gif", "contact.png"] + (["preview.webp"] if webp_supported() else []))
    assert all(p.parent == ep for p in out)

    gif = Image.open(ep / "preview.gif")
    frames = [f.convert("RGB") for f in ImageSequence.Iterator(gif)]
    assert len(frames) == len(ACTIONS) + 1                           # start + one per step
    assert gif.size == (640, 400 + CAPTION_H)
    assert gif.info.get("loop") == 0
    Image.open(ep / "preview.gif").seek(len(ACTIONS))               # last frame exists

    # Frame 1 is step 1 (click at 100,200) drawn on the start screen: the click point differs from the raw
    # screenshot scaled the same way, while a far corner does not.
    raw = Image.open(ep / "screens" / "0000.png").convert("RGB").resize((640, 400))
    x, y = 50, 100
    ring = [(x + dx, y + dy) for dx in range(-16, 17) for dy in range(-16, 17)]
    assert any(max(abs(a - b) for a, b in zip(frames[1].getpixel(p), raw.getpixel(p))) > 60 for p in ring)
    assert max(abs(a - b) for a, b in zip(frames[1].getpixel((600, 350)), raw.getpixel((600, 350)))) < 24
    # Frame 0 (start) carries no overlay at the click point.
    assert all(max(abs(a - b) for a, b in zip(frames[0].getpixel(p), raw.getpixel(p))) < 24 for p in ring[::7])

    sheet = Image.open(ep / "contact.png")
    cols, rows = 4, -(-(len(ACTIONS) + 1) // 4)
    th = 200
    assert sheet.size == (cols * (THUMB_WIDTH + SHEET_PAD) + SHEET_PAD, rows * (th + SHEET_CAP + SHEET_PAD) + SHEET_PAD)

    if webp_supported():
        webp = Image.open(ep / "preview.webp")
        assert getattr(webp, "n_frames", 1) == len(ACTIONS) + 1


def test_media_is_deterministic_and_respects_overwrite(tmp_path):
    ep = record(tmp_path)
    first = {p.name: p.read_bytes() for p in export_media(tmp_path)}
    again = export_media(tmp_path)                                   # already there: left alone
    assert list(again) == [] and again.unchanged == [ep]
    second = {p.name: p.read_bytes() for p in export_media(tmp_path, overwrite=True)}
    assert first == second
    assert {p.name: p.read_bytes() for p in episode_media(ep)} == first


def test_corrupt_episodes_are_skipped_and_reported(tmp_path):
    good = record(tmp_path, sample=0, steps=ACTIONS[:2])
    bad_steps = record(tmp_path, sample=1, steps=ACTIONS[:2])
    (bad_steps / "steps.jsonl").write_text('{"step": 1, "action": {"type": "cli')
    bad_png = record(tmp_path, "meridian/hearing-date", 0, steps=ACTIONS[:2])
    (bad_png / "screens" / "0001.png").write_bytes(b"\x89PNG\r\n\x1a\nnot really")
    partial = EpisodeRecorder(tmp_path, "meridian/hearing-date", 1)       # never finished: hidden, ignored
    partial.screen(0, png(0))
    out = export_media(tmp_path)
    assert {p.parent for p in out} == {good}
    assert len(out.warnings) == 2
    assert any(w.startswith("meridian/gross-tonnage/1: steps.jsonl line 1 is corrupt") for w in out.warnings)
    assert any(w.startswith("meridian/hearing-date/0: screenshot screens/0001.png is corrupt") for w in out.warnings)
    assert not (bad_steps / "preview.gif").exists()
    only = export_media(tmp_path, episodes=["meridian/gross-tonnage/0", "nope/x/0"], overwrite=True)
    assert {p.parent for p in only} == {good} and only.warnings == ["nope/x/0: no such episode"]
    assert export_media(tmp_path / "missing").warnings


def test_action_labels():
    assert action_label({"type": "click", "x": 100, "y": 200}) == "click (100, 200)"
    assert action_label({"type": "key", "keys": "ctrl+a"}) == "key ctrl+a"
    assert action_label({"type": "scroll", "x": 1, "y": 2, "dy": 300}) == "scroll dx=0 dy=300"
    assert action_label({"type": "type", "text": "hi"}) == "type 'hi'"
    assert action_label("weird") == "weird"


def test_cli_writes_media_and_the_viewer_links_it(tmp_path):
    from click.testing import CliRunner

    from harness.cli import main
    from harness.viewer import create_viewer
    record(tmp_path)
    world, task = TASK.split("/")
    viewer = create_viewer(tmp_path).test_client()
    assert b"No preview yet" in viewer.get(f"/episode/{world}/{task}/0").data
    res = CliRunner().invoke(main, ["export-media", str(tmp_path)])
    assert res.exit_code == 0, res.output
    assert "preview.gif" in res.output and "0 skipped" in res.output
    page = viewer.get(f"/episode/{world}/{task}/0").data
    assert b"preview.gif" in page and b"contact.png" in page
    assert viewer.get(f"/files/{world}/{task}/0/preview.gif").data[:6] == b"GIF89a"
