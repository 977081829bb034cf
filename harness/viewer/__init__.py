"""``deskworld view DIR``: browse a recorded run — the episodes table, each
episode's steps with what the agent saw and did (the action drawn on the
screenshot), the verifier's verdict and state diff, human grading
(``labels.json``) and verifier QC (``/qc``).

It reads the run folder on every request, so it can watch a run in progress
(episodes appear when they are complete). It never imports agent code; task
files are read (for prompts, apps, tags, rubrics) when they can be, and the
viewer still works when they can't. An episode whose files are missing or
corrupt is shown as *unreadable* with the reason, never as a server error.

It refuses the agent's browser (``harness.servers.netguard``): the Host must be its own
address, an Origin its own origin, and a page of another site (``Sec-Fetch-Site``
cross-site or same-site: the apps on another loopback port, a ``data:`` page) can
neither load nor frame it (``X-Frame-Options: DENY``, ``frame-ancestors 'none'``).
Every POST carries the server's CSRF token (a per-process secret in each form;
missing or wrong: 403, nothing written). It serves only files inside a run's
``episodes/`` folder, and bodies of at most 1 MB.
"""
from __future__ import annotations

import getpass
import hmac
import json
import os
import re
import secrets
import struct
from functools import lru_cache
from pathlib import Path

from flask import Flask, abort, g, render_template, request, send_from_directory

from harness.qc import agreement as QC
from harness.runs.media import media_links
from harness.runs.metrics import summarize
from harness.runs.recorder import read_results

_SEG = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")
MAX_BODY = 1024 * 1024
CSRF_FIELD, CSRF_HEADER = "csrf_token", "X-CSRF-Token"


class Unreadable(Exception):
    """An episode folder that cannot be shown; the message says why."""


def _load_json(path: Path, what: str, required: bool = True, default=None):
    if not path.exists():
        if required:
            raise Unreadable(f"{what} is missing")
        return default
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise Unreadable(f"{what} is corrupt ({type(e).__name__}: {str(e)[:120]})") from None


def _read_steps(path: Path) -> list[dict]:
    if not path.exists():
        raise Unreadable("steps.jsonl is missing")
    steps = []
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as e:
        raise Unreadable(f"steps.jsonl is unreadable ({e})") from None
    for i, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            s = json.loads(line)
        except json.JSONDecodeError as e:
            raise Unreadable(f"steps.jsonl line {i} is corrupt ({e.msg})") from None
        if not isinstance(s, dict):
            raise Unreadable(f"steps.jsonl line {i} is not an object")
        steps.append(s)
    return steps


def _png_size(path: Path) -> tuple[int, int]:
    try:
        with open(path, "rb") as f:
            head = f.read(24)
        if head[:8] == b"\x89PNG\r\n\x1a\n":
            w, h = struct.unpack(">II", head[16:24])
            if w > 1 and h > 1:
                return w, h
    except OSError:
        pass
    return 1280, 800


def _pt(p) -> tuple[float, float] | None:
    if isinstance(p, dict) and "x" in p and "y" in p:
        return float(p["x"]), float(p["y"])
    if isinstance(p, (list, tuple)) and len(p) >= 2:
        return float(p[0]), float(p[1])
    return None


# What model agents record on a step, shown under it (harness.agents.model).
EXTRA_KEYS = ("thought", "reasoning", "safety_checks", "invalid_actions", "raw", "model", "output", "message",
              "text", "usage", "model_calls")


def overlay(action, last_xy: tuple[float, float] | None, size: tuple[int, int]) -> dict:
    """What to draw for one action, in screenshot pixels (the template turns it into SVG)."""
    a = action if isinstance(action, dict) else {"type": str(action)}
    t = str(a.get("type", "?"))
    w, h = size
    out: dict = {"type": t, "label": t.replace("_", " ")}
    try:
        if t in ("click", "double_click", "triple_click", "move", "mouse_down", "mouse_up") and "x" in a:
            out["point"] = (float(a["x"]), float(a["y"]))
            out["rings"] = {"double_click": 2, "triple_click": 3}.get(t, 1)
            btn = a.get("button")
            mods = a.get("modifiers") or []
            out["label"] = "+".join([*mods, t.replace("_", " ")]) + (f" ({btn})" if btn and btn != "left" else "")
        elif t == "drag":
            pts = [q for q in (_pt(p) for p in a.get("path") or []) if q]
            if pts:
                out["path"] = pts
                out["points_attr"] = " ".join(f"{x:.0f},{y:.0f}" for x, y in pts)
        elif t == "scroll":
            x, y = float(a.get("x", w / 2)), float(a.get("y", h / 2))
            dx, dy = float(a.get("dx", 0) or 0), float(a.get("dy", 0) or 0)
            mag = (dx * dx + dy * dy) ** 0.5 or 1.0
            length = min(160.0, max(50.0, mag / 4))
            out["point"] = (x, y)
            out["arrow"] = (x + dx / mag * length, y + dy / mag * length)
            out["label"] = f"scroll dx={dx:g} dy={dy:g}"
        elif t == "type":
            text = str(a.get("text", ""))
            x, y = last_xy or (w / 2 - 200, 60)
            shown = text if len(text) <= 60 else text[:57] + "…"
            bw = 40 + 9 * len(shown)
            out["textbox"] = {"x": max(4, min(x - 20, w - bw - 4)), "y": max(4, min(y + 24, h - 40)),
                              "text": shown, "w": bw}
            out["label"] = f"type {len(text)} chars"
        elif t == "key":
            keys = str(a.get("keys") or a.get("key") or "")
            out["chips"] = [c for c in re.split(r"(\+| )", keys) if c and c != " "]
            out["label"] = f"key {keys}"
        elif t == "navigate":
            out["label"] = f"navigate {a.get('url', '')}"
        elif t == "done":
            out["label"] = f"done ({a.get('status', 'complete')})"
        elif t == "wait":
            out["label"] = f"wait {a.get('ms', '')} ms"
    except (TypeError, ValueError):
        pass
    return out


@lru_cache(maxsize=512)
def _task_info(task_id: str) -> dict:
    """Prompt, apps, tags and rubric of a task from its file — or {} when it can't be read."""
    try:
        from harness.tasks.registry import load_task
        t = load_task(task_id)
    except Exception:                            # a missing/broken task file never breaks the viewer
        return {}
    return {"title": t.title, "prompt": t.prompt, "apps": list(t.apps), "tags": list(t.tags),
            "difficulty": str(t.difficulty), "revision": t.revision,
            "rubric": [{"name": c.name, "weight": c.weight, "kind": "judge" if c.judge else "check",
                        "instruction": c.judge} for c in t.rubric]}


def default_grader() -> str:
    try:
        return os.environ.get("USER") or getpass.getuser()
    except Exception:
        return ""


def is_run_dir(path: Path) -> bool:
    """A run folder: has run.json, results.jsonl or episodes/."""
    return (path / "run.json").exists() or (path / "results.jsonl").exists() or (path / "episodes").is_dir()


def _child_runs(base: Path) -> list[Path]:
    try:
        return sorted(p for p in base.iterdir() if p.is_dir() and _SEG.match(p.name) and is_run_dir(p))
    except OSError:
        return []


def create_viewer(run_dir: str | Path) -> Flask:
    """DIR is either one run folder, or a folder of run folders (each a subfolder with run.json):
    then ``/`` lists the runs, ``/leaderboard`` and ``/compare`` compare them, and each run's pages
    live under ``/run/<name>/…``."""
    base = Path(run_dir).resolve()
    multi = not is_run_dir(base) and bool(_child_runs(base))
    from harness.servers.netguard import UNSAFE, Guard, Policy
    app = Flask(__name__, template_folder="templates", static_folder="static", static_url_path="/_static")
    app.config["GRADER"] = default_grader()
    app.config["MULTI"] = multi
    app.config["MAX_CONTENT_LENGTH"] = MAX_BODY
    app.config["CSRF_TOKEN"] = csrf = secrets.token_urlsafe(32)
    app.wsgi_app = Guard(app.wsgi_app, Policy(max_body=MAX_BODY, origin="all", browsers=False, no_framing=True,
                                              json_errors=False))

    @app.before_request
    def _csrf():
        if request.method in UNSAFE:
            given = request.headers.get(CSRF_HEADER) or request.form.get(CSRF_FIELD) or ""
            if not hmac.compare_digest(given.encode(), csrf.encode()):
                return ("the form's CSRF token is missing or wrong: reload the page and submit it again\n", 403,
                        {"Content-Type": "text/plain; charset=utf-8"})
        return None
    prefix = "/run/<run>" if multi else ""
    RUN_ENDPOINTS = {"index", "episode", "grade", "qc_page", "files"}

    @app.url_value_preprocessor
    def _pull_run(endpoint, values):
        g.run_name = None
        g.run_root = base
        if multi and values is not None and "run" in values:
            name = values.pop("run")
            if not _SEG.match(str(name)) or not is_run_dir(base / name):
                abort(404)
            g.run_name = name
            g.run_root = base / name

    @app.url_defaults
    def _add_run(endpoint, values):
        if multi and endpoint in RUN_ENDPOINTS and "run" not in values and g.get("run_name"):
            values["run"] = g.run_name

    @app.context_processor
    def _ctx():
        return {"multi": multi, "run_name": g.get("run_name"), "csrf_token": csrf, "csrf_field": CSRF_FIELD,
                "csrf_header": CSRF_HEADER}

    def cur_root() -> Path:
        return g.get("run_root") or base

    def ep_dir(world: str, task: str, sample: int) -> Path:
        if not (_SEG.match(world) and _SEG.match(task)):
            abort(404)
        return cur_root() / "episodes" / world / task / str(sample)

    def check_episode(ep: Path) -> str | None:
        """None when the episode can be shown, else why not."""
        if not ep.is_dir():
            return "episode folder is missing"
        try:
            _read_steps(ep / "steps.jsonl")
            r = _load_json(ep / "result.json", "result.json")
            if not isinstance(r, dict):
                raise Unreadable("result.json is not an object")
        except Unreadable as e:
            return str(e)
        return None

    @app.get("/_vendor/htmx.min.js")
    def htmx_js():
        from apps.shell.vendor import HTMX_DIR
        return send_from_directory(HTMX_DIR, "htmx.min.js", mimetype="text/javascript", max_age=3600)

    def index():
        root = cur_root()
        rows = read_results(root)
        try:
            run = json.loads((root / "run.json").read_text(encoding="utf-8"))
            run = run if isinstance(run, dict) else {}
        except (OSError, ValueError):
            run = {}
        k = int(run.get("k", 1) or 1)
        good = [r for r in rows if isinstance(r, dict) and {"task", "status", "score", "passed", "steps"} <= r.keys()]
        try:
            summary = summarize(good, k) if good else None
        except Exception:
            summary = None
        episodes = []
        for r in rows:
            if not isinstance(r, dict) or "/" not in str(r.get("task", "")):
                continue
            world, task = str(r["task"]).split("/", 1)
            try:
                sample = int(r.get("sample", 0))
            except (TypeError, ValueError):
                continue
            ep = ep_dir(world, task, sample) if (_SEG.match(world) and _SEG.match(task)) else root
            why = check_episode(ep) if (_SEG.match(world) and _SEG.match(task)) else "bad task id"
            info = _task_info(r["task"])
            failures = []
            if why is None:
                try:
                    res = json.loads((ep / "result.json").read_text(encoding="utf-8"))
                    failures = [ln for ln in res.get("lines", []) if isinstance(ln, str) and ln.startswith("✗")]
                except Exception:
                    pass
            labels = QC.read_labels(ep) if why is None else []
            episodes.append({**r, "world": world, "name": task, "sample": sample,
                             "status": "unreadable" if why else r.get("status", "?"),
                             "run_status": r.get("status"), "unreadable": why,
                             "apps": info.get("apps", []), "tags": info.get("tags", []),
                             "failures": failures, "labels": labels})
        facets = {"status": {}, "app": {}}
        for e in episodes:
            facets["status"][e["status"]] = facets["status"].get(e["status"], 0) + 1
            for a in e["apps"]:
                facets["app"][a] = facets["app"].get(a, 0) + 1
        return render_template("viewer/index.html", rows=episodes, run=run, summary=summary, k=k, root=root,
                               facets=facets)

    app.add_url_rule(prefix + "/", "index", index)

    def episode_context(world: str, task: str, sample: int) -> dict:
        ep = ep_dir(world, task, sample)
        tid = f"{world}/{task}"
        ctx = {"task": tid, "world": world, "name": task, "sample": sample, "base": f"{world}/{task}/{sample}",
               "info": _task_info(tid), "grader": app.config["GRADER"]}
        if not ep.is_dir():
            abort(404)
        try:
            steps = _read_steps(ep / "steps.jsonl")
            result = _load_json(ep / "result.json", "result.json")
            if not isinstance(result, dict):
                raise Unreadable("result.json is not an object")
            diff = _load_json(ep / "diff.json", "diff.json", required=False, default={"tables": {}})
        except Unreadable as e:
            ctx["unreadable"] = str(e)
            return ctx
        if not isinstance(diff, dict) or not isinstance(diff.get("tables"), dict):
            diff = {"tables": {}}
        # Frames: 0 is the start; frame n shows action n on the screenshot the agent saw (n-1), and n's result.
        shots = {0: "screens/0000.png"} if (ep / "screens" / "0000.png").exists() else {}
        for i, s in enumerate(steps, 1):
            if s.get("screenshot"):
                shots[i] = s["screenshot"]
        frames = [{"n": 0, "step": None, "before": shots.get(0), "after": shots.get(0), "ov": None}]
        last_xy = None
        for i, s in enumerate(steps, 1):
            before = next((shots[j] for j in range(i - 1, -1, -1) if j in shots), None)
            shot = before or shots.get(i)
            size = _png_size(ep / shot) if shot else (1280, 800)
            ov = overlay(s.get("action"), last_xy, size)
            if ov.get("point"):
                last_xy = ov["point"]
            elif ov.get("path"):
                last_xy = ov["path"][-1]
            extras = {k: v for k, v in s.items() if k in EXTRA_KEYS}
            ordered = sorted(extras.items(), key=lambda kv: (EXTRA_KEYS.index(kv[0]), kv[0]))
            frames.append({"n": i, "step": s, "before": before, "after": shots.get(i), "ov": ov, "size": size,
                           "extras": extras, "extras_ordered": ordered})
        ctx.update(steps=steps, frames=frames, result=result, diff=diff,
                   trace=(ep / "trace.zip").is_file(), trace_path=str(ep / "trace.zip"),
                   media=media_links(ep),
                   labels=QC.read_labels(ep), rubric=result.get("rubric") or ctx["info"].get("rubric") or [])
        return ctx

    @app.get(prefix + "/episode/<world>/<task>/<int:sample>")
    def episode(world: str, task: str, sample: int):
        ctx = episode_context(world, task, sample)
        return render_template("viewer/episode.html", **ctx)

    @app.post(prefix + "/episode/<world>/<task>/<int:sample>/grade")
    def grade(world: str, task: str, sample: int):
        ctx = episode_context(world, task, sample)
        if ctx.get("unreadable"):
            return render_template("viewer/_grading.html", error=f"cannot grade: {ctx['unreadable']}",
                                   **ctx), 409
        form = {k: v for k, v in request.form.items()}
        try:
            label = QC.make_label(form, ctx["rubric"], default_grader=None)
        except QC.LabelError as e:
            return render_template("viewer/_grading.html", error=str(e), form=form, **ctx), 422
        ctx["labels"] = QC.add_label(ep_dir(world, task, sample), label)
        ctx["grader"] = label["grader"]
        return render_template("viewer/_grading.html", saved=True, **ctx)

    @app.get(prefix + "/qc")
    def qc_page():
        root = cur_root()
        report = QC.compute(root)
        return render_template("viewer/qc.html", r=report, root=root)

    @app.get(prefix + "/files/<path:rel>")
    def files(rel: str):
        """A file inside the run's episodes/ folder; anything that resolves outside it (``..``, a
        symlink) is 404."""
        episodes = (cur_root() / "episodes").resolve()
        try:
            target = (episodes / rel).resolve()
        except (OSError, RuntimeError, ValueError):
            abort(404)
        if episodes not in target.parents or not target.is_file():
            abort(404)
        return send_from_directory(target.parent, target.name)

    if multi:
        from harness.viewer.runs import register_runs
        register_runs(app, base)
    return app
