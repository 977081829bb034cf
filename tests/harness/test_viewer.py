"""The run viewer reads a run folder (even one still being written)."""
from __future__ import annotations

import json

from harness.recorder import EpisodeRecorder, append_result
from harness.viewer import create_viewer

PNG = (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x02\x00\x00\x00\x90wS\xde"
       b"\x00\x00\x00\x0cIDATx\x9cc\xf8\x0f\x00\x00\x01\x01\x00\x05\x18\xd8N\x00\x00\x00\x00IEND\xaeB`\x82")


def test_viewer_lists_episodes_and_shows_steps(tmp_path):
    (tmp_path / "run.json").write_text(json.dumps({"agent": "oracle", "k": 1}))
    rec = EpisodeRecorder(tmp_path, "meridian/gross-tonnage", 0)
    rec.screen(0, PNG)
    rec.step({"step": 1, "action": {"type": "click", "x": 1, "y": 2}, "url": "http://desk.local/drive/",
              "error": "", "screenshot": rec.screen(1, PNG), "ms": {"env": 100}})
    # Not finished yet: the viewer must not show half an episode.
    app = create_viewer(tmp_path).test_client()
    assert b"No finished episodes yet" in app.get("/").data
    assert app.get("/episode/meridian/gross-tonnage/0").status_code == 404
    rec.finish({"status": "passed", "passed": True, "score": 1.0, "lines": ["✓ answer: expected 58,400"]},
               {"tables": {}})
    append_result(tmp_path, {"task": "meridian/gross-tonnage", "sample": 0, "score": 1.0, "passed": True,
                             "steps": 1, "seconds": 1.2, "status": "passed", "agent": "oracle"})
    page = app.get("/").data
    assert b"meridian/gross-tonnage" in page and b"pass@1" in page
    ep = app.get("/episode/meridian/gross-tonnage/0")
    assert ep.status_code == 200 and b"expected 58,400" in ep.data and ep.data.count(b"<img") == 2
    assert app.get("/files/meridian/gross-tonnage/0/screens/0001.png").data == PNG
    assert app.get("/files/../../run.json").status_code == 404
