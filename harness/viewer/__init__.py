"""``deskworld view DIR``: browse a recorded run — the results table, each
episode's steps with what the agent saw and did, and the verifier's verdict.

It reads the run folder on every request, so it can watch a run in progress
(episodes appear when they are complete).
"""
from __future__ import annotations

import json
from pathlib import Path

from flask import Flask, abort, render_template, send_from_directory

from harness.metrics import summarize
from harness.recorder import read_results


def create_viewer(run_dir: str | Path) -> Flask:
    root = Path(run_dir).resolve()
    app = Flask(__name__, template_folder="templates")

    def load_json(path: Path, default=None):
        try:
            return json.loads(path.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError):
            return default

    @app.get("/")
    def index():
        rows = read_results(root)
        run = load_json(root / "run.json", {})
        k = run.get("k", 1)
        summary = summarize(rows, k) if rows else None
        return render_template("viewer/index.html", rows=rows, run=run, summary=summary, k=k, root=root)

    @app.get("/episode/<world>/<task>/<int:sample>")
    def episode(world: str, task: str, sample: int):
        ep = root / "episodes" / world / task / str(sample)
        if not ep.is_dir():
            abort(404)
        steps = [json.loads(line) for line in (ep / "steps.jsonl").read_text(encoding="utf-8").splitlines() if line.strip()]
        result = load_json(ep / "result.json", {})
        diff = load_json(ep / "diff.json", {"tables": {}})
        return render_template("viewer/episode.html", steps=steps, result=result, diff=diff,
                               task=f"{world}/{task}", sample=sample, base=f"{world}/{task}/{sample}")

    @app.get("/files/<path:rel>")
    def files(rel: str):
        target = (root / "episodes" / rel).resolve()
        if root not in target.parents or not target.is_file():
            abort(404)
        return send_from_directory(target.parent, target.name)

    return app
