"""The pages of one run in ``deskworld view``: the episodes table, each episode's steps (the action
drawn on the screenshot the agent saw), grading into ``labels.json``, verifier QC and the
episode files.

Everything is read from the run folder through ``harness.runs.layout`` on each request, so a run
in progress shows its episodes as they complete; an episode the layout can't read is listed as
*unreadable* with the reason. Task files are read for prompts, apps, tags and rubrics when they
can be (``task_info``).
"""
from __future__ import annotations

import struct
from functools import lru_cache
from pathlib import Path

from flask import Flask, abort, g, render_template, request, send_from_directory

from harness.qc import agreement as QC
from harness.runs import layout
from harness.runs.media import media_links
from harness.runs.metrics import summarize
from harness.runs.overlay import overlays
from harness.tasks.registry import load_task

RUN_ENDPOINTS = {"index", "episode", "grade", "qc_page", "files"}     # under /run/<run> with several runs
SCREEN = (1280, 800)          # the size assumed for a screenshot whose PNG header can't be read

# What model agents record on a step, shown under it (harness.agents.model).
EXTRA_KEYS = ("thought", "reasoning", "safety_checks", "invalid_actions", "raw", "model", "output", "message",
              "text", "usage", "model_calls")


@lru_cache(maxsize=512)
def task_info(task_id: str) -> dict:
    """Prompt, apps, tags and rubric of a task from its file — or {} when it can't be read."""
    try:
        t = load_task(task_id)
    except Exception:                            # a missing/broken task file never breaks the viewer
        return {}
    return {"title": t.title, "prompt": t.prompt, "apps": list(t.apps), "tags": list(t.tags),
            "difficulty": str(t.difficulty), "revision": t.revision,
            "rubric": [{"name": c.name, "weight": c.weight, "kind": "judge" if c.judge else "check",
                        "instruction": c.judge} for c in t.rubric]}


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
    return SCREEN


def frames(episode: layout.Episode) -> list[dict]:
    """Frame 0 is the start; frame n shows action n on the screenshot the agent saw (the latest before
    it), and the screen after it."""
    shots = episode.screens

    def shown(n: int) -> str | None:
        return episode.screen_before(n) or shots.get(n)

    def size(n: int) -> tuple[int, int]:
        shot = shown(n)
        return _png_size(episode.dir / shot) if shot else SCREEN

    out = [{"n": 0, "step": None, "before": shots.get(0), "after": shots.get(0), "ov": None}]
    for i, (s, ov) in enumerate(zip(episode.steps, overlays(episode.steps, size)), 1):
        extras = {k: v for k, v in s.items() if k in EXTRA_KEYS}
        ordered = sorted(extras.items(), key=lambda kv: (EXTRA_KEYS.index(kv[0]), kv[0]))
        out.append({"n": i, "step": s, "before": episode.screen_before(i), "after": shots.get(i), "ov": ov,
                    "size": size(i), "extras": extras, "extras_ordered": ordered})
    return out


def register_run_pages(app: Flask, base: Path, prefix: str) -> None:
    """Add one run's pages to the viewer ``app`` under ``prefix`` ("" for a single run, else
    ``/run/<run>``: the run folder is then ``g.run_root``)."""

    def cur_root() -> Path:
        return g.get("run_root") or base

    def ep_dir(world: str, task: str, sample: int) -> Path:
        try:
            return layout.episode_dir(cur_root(), layout.task_id_of(world, task), sample)
        except layout.Unreadable:
            abort(404)

    def index():
        root = cur_root()
        rows = layout.read_results(root)
        try:
            run = layout.read_run_json(root)
        except layout.Unreadable:
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
            try:
                world, task = layout.task_folder(str(r["task"]))
            except layout.Unreadable:
                continue
            try:
                sample = int(r.get("sample", 0))
            except (TypeError, ValueError):
                continue
            ep, why, failures = root, None, []
            try:
                ep = layout.episode_dir(root, str(r["task"]), sample)
                result = layout.read_episode(ep).result
            except layout.Unreadable as e:
                why = str(e)
            else:
                try:
                    failures = [ln for ln in result.get("lines", []) if isinstance(ln, str) and ln.startswith("✗")]
                except TypeError:
                    pass
            info = task_info(r["task"])
            labels = QC.read_labels(ep) if why is None else []
            episodes.append({**r, "world": world, "name": task, "sample": sample,
                             "status": "unreadable" if why else r.get("status", "?"),
                             "run_status": r.get("status"), "unreadable": why,
                             "apps": info.get("apps", []), "tags": info.get("tags", []),
                             "failures": failures, "labels": labels})
        facets = {"status": {}, "app": {}, "variant": {}}
        for e in episodes:
            facets["status"][e["status"]] = facets["status"].get(e["status"], 0) + 1
            if e.get("variant"):
                facets["variant"][str(e["variant"])] = facets["variant"].get(str(e["variant"]), 0) + 1
            for a in e["apps"]:
                facets["app"][a] = facets["app"].get(a, 0) + 1
        return render_template("viewer/index.html", rows=episodes, run=run, summary=summary, k=k, root=root,
                               facets=facets)

    app.add_url_rule(prefix + "/", "index", index)

    def episode_context(world: str, task: str, sample: int) -> dict:
        ep = ep_dir(world, task, sample)
        tid = layout.task_id_of(world, task)
        ctx = {"task": tid, "world": world, "name": task, "sample": sample, "base": f"{world}/{task}/{sample}",
               "info": task_info(tid), "grader": app.config["GRADER"]}
        if not ep.is_dir():
            abort(404)
        try:
            episode = layout.read_episode(ep)
            diff = episode.diff()
        except layout.Unreadable as e:
            ctx["unreadable"] = str(e)
            return ctx
        if not isinstance(diff, dict) or not isinstance(diff.get("tables"), dict):
            diff = {"tables": {}}
        result = episode.result
        ctx.update(steps=episode.steps, frames=frames(episode), result=result, diff=diff,
                   trace=(ep / layout.TRACE).is_file(), trace_path=str(ep / layout.TRACE),
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
        episodes = (cur_root() / layout.EPISODES).resolve()
        try:
            target = (episodes / rel).resolve()
        except (OSError, RuntimeError, ValueError):
            abort(404)
        if episodes not in target.parents or not target.is_file():
            abort(404)
        return send_from_directory(target.parent, target.name)
