"""Exporting a recorded run to open training/analysis formats.

``export_run(run_dir, out_dir, fmt)`` reads a run folder (the *deskworld run
layout v1*, below) and writes one of:

- ``imagefolder`` — a Hugging Face ImageFolder dataset::

      OUT/metadata.jsonl                     one row per step
      OUT/<world>__<task>__<sample>__<step:04d>.png

  Each row pairs step *n*'s action with the screenshot the agent saw when it
  chose it (``screens/<n-1>``): ``file_name`` (relative path, required by
  ImageFolder), ``task``, ``world``, ``sample``, ``step``, ``action`` (JSON
  string), ``action_type``, ``thought`` (model reasoning when recorded, else
  ""), ``url`` and ``error`` (after the action), ``goal`` (the task prompt),
  ``episode_score``, ``episode_passed``, ``episode_status``, ``episode_steps``,
  ``observation`` (the source screenshot inside the episode folder). Every
  row has the same keys and JSON scalar values, so
  ``datasets.load_dataset("imagefolder", data_dir=OUT)`` loads it.

- ``messages`` — OpenAI-style chat conversations for supervised fine-tuning,
  ``OUT/messages.jsonl`` with one line per episode::

      {"id": "<world>/<task>/<sample>", "task", "world", "sample", "score", "passed", "status",
       "goal", "messages": [
         {"role": "system", "content": harness.env.actions.describe()},
         {"role": "user", "content": [{"type": "text", "text": goal},
                                      {"type": "image_url", "image_url": {"url": "data:image/png;base64,…"}}]},
         {"role": "assistant", "content": "[reasoning\\n]{action JSON}"},     # step 1
         {"role": "user", "content": [text: URL + action error, image: screen after step 1]},
         ...
         {"role": "assistant", "content": "{last action JSON}"}]}            # ends on the last action

  The conversation ends with the last assistant action (the screenshot after
  the final ``done`` is not an observation any model acts on). With
  ``images="files"`` the PNGs are copied to ``OUT/images/`` and the image
  parts reference them by relative path (``images/<...>.png``) instead of a
  data URL. Raw model outputs, when recorded, are kept per step in the
  line's ``raw`` list (``null`` where none was recorded).

An episode whose files are missing or corrupt (``steps.jsonl``,
``result.json``, a screenshot it refers to) is skipped and reported; export
never stops because of one bad episode. The run folder is read through
``harness.runs.layout``, whose docstring carries the layout's schema
(``harness.runs.layout.run_layout_schema()``: Markdown, versioned).

"""
from __future__ import annotations

import base64
import json
import shutil
from pathlib import Path

from harness.env.actions import describe
from harness.runs import layout
from harness.tasks.registry import load_task

FORMATS = ("imagefolder", "messages")
IMAGE_MODES = ("inline", "files")
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
THOUGHT_KEYS = ("thought", "reasoning")
RAW_KEYS = ("raw", "output")


class ExportError(ValueError):
    """The export cannot start at all (bad format, not a run folder)."""


# ---------------------------------------------------------------- reading a run
def _png(ep: Path, rel: str) -> Path:
    """The screenshot file ``rel`` of an episode (a path the layout checked), checked to be a PNG."""
    p = ep / rel
    try:
        with open(p, "rb") as f:
            head = f.read(8)
    except OSError:
        raise layout.Unreadable(f"{rel} is missing") from None
    if head != PNG_MAGIC:
        raise layout.Unreadable(f"{rel} is not a PNG")
    return p


def _goal(task_id: str, *sources: dict) -> tuple[str, str]:
    """(goal, where it came from): the task file's prompt, else a prompt recorded in the run."""
    try:
        return load_task(task_id).prompt, "task"
    except Exception:
        pass
    for src in sources:
        for key in ("goal", "prompt", "instruction"):
            v = src.get(key) if isinstance(src, dict) else None
            if isinstance(v, str) and v.strip():
                return v, "run"
    return "", "none"


def _episode_list(run: Path) -> tuple[list[tuple[str, int, dict]], list[dict]]:
    """(task id, sample, results row) for every finished episode, and the ones skipped up front."""
    skipped: list[dict] = []
    rows: dict[tuple[str, int], dict] = {}
    for r in layout.read_results(run):
        if not isinstance(r, dict):
            continue
        tid = r.get("task")
        try:
            sample = int(r.get("sample", 0))
        except (TypeError, ValueError):
            skipped.append({"episode": f"{tid}/?", "reason": "results.jsonl row has a bad sample"})
            continue
        if not isinstance(tid, str) or tid.count("/") != 1:
            skipped.append({"episode": f"{tid}/{sample}", "reason": "results.jsonl row has a bad task id"})
            continue
        rows[(tid, sample)] = r                      # the last line for an episode wins
    if not rows:                                     # no results.jsonl: every finished episode folder
        for ep in layout.episode_dirs(run):
            rows[(f"{ep.parent.parent.name}/{ep.parent.name}", int(ep.name))] = {}
    return [(t, s, r) for (t, s), r in sorted(rows.items())], skipped


def _load_episode(run: Path, tid: str, sample: int) -> dict:
    episode = layout.read_episode(layout.episode_dir(run, tid, sample))
    world, name = layout.task_folder(tid)
    return {"dir": episode.dir, "world": world, "name": name, "steps": episode.steps, "result": episode.result,
            "shots": {i: _png(episode.dir, rel) for i, rel in episode.screens.items()}}


def _before(shots: dict, n: int) -> Path | None:
    """The screenshot the agent looked at when choosing action n (the latest one before it)."""
    return next((shots[j] for j in range(n - 1, -1, -1) if j in shots), None)


def _text(v) -> str:
    if v is None:
        return ""
    return v if isinstance(v, str) else json.dumps(v, ensure_ascii=False, sort_keys=True, default=str)


def _first(s: dict, keys) -> str:
    for k in keys:
        if s.get(k) not in (None, ""):
            return _text(s[k])
    return ""


def _score(v) -> float:
    try:
        return float(v)
    except (TypeError, ValueError):
        return 0.0


def _action_json(a) -> str:
    return json.dumps(a, ensure_ascii=False, sort_keys=True, default=str)


def _slug(tid: str, sample: int, n: int) -> str:
    return f"{tid.replace('/', '__')}__{sample}__{n:04d}.png"


# ---------------------------------------------------------------- writers
def _episode_fields(tid: str, sample: int, row: dict, ep: dict) -> dict:
    res = ep["result"]
    goal, source = _goal(tid, res, row, ep["steps"][0] if ep["steps"] else {})
    status = res.get("status", row.get("status", ""))
    return {"goal": goal, "goal_source": source,
            "score": _score(res.get("score", row.get("score"))),
            "passed": bool(res.get("passed", row.get("passed", False))),
            "status": str(status or "")}


def _imagefolder(run: Path, out: Path, episodes, report: dict) -> None:
    with open(out / "metadata.jsonl", "w", encoding="utf-8") as meta:
        for tid, sample, row, ep in episodes:
            f = _episode_fields(tid, sample, row, ep)
            world, _ = tid.split("/", 1)
            n_rows = 0
            for n, s in enumerate(ep["steps"], 1):
                src = _before(ep["shots"], n)
                if src is None:
                    report["warnings"].append(f"{tid}/{sample} step {n}: no screenshot before it; row left out")
                    continue
                name = _slug(tid, sample, n)
                shutil.copyfile(src, out / name)
                action = s.get("action")
                meta.write(json.dumps({
                    "file_name": name, "task": tid, "world": world, "sample": sample,
                    "step": int(s.get("step", n)) if str(s.get("step", n)).isdigit() else n,
                    "action": _action_json(action),
                    "action_type": str(action.get("type", "")) if isinstance(action, dict) else "",
                    "thought": _first(s, THOUGHT_KEYS),
                    "url": _text(s.get("url")), "error": _text(s.get("error")),
                    "goal": f["goal"], "episode_score": f["score"], "episode_passed": f["passed"],
                    "episode_status": f["status"], "episode_steps": len(ep["steps"]),
                    "observation": src.relative_to(ep["dir"]).as_posix(),
                }, ensure_ascii=False) + "\n")
                n_rows += 1
            report["rows"] += n_rows
            report["episodes"] += 1


def _image_part(src: Path, out: Path, images: str, name: str) -> dict:
    if images == "files":
        (out / "images").mkdir(exist_ok=True)
        shutil.copyfile(src, out / "images" / name)
        url = f"images/{name}"
    else:
        url = "data:image/png;base64," + base64.b64encode(src.read_bytes()).decode("ascii")
    return {"type": "image_url", "image_url": {"url": url}}


def _messages(run: Path, out: Path, episodes, report: dict, images: str) -> None:
    system = describe()
    with open(out / "messages.jsonl", "w", encoding="utf-8") as fh:
        for tid, sample, row, ep in episodes:
            f = _episode_fields(tid, sample, row, ep)
            steps, shots = ep["steps"], ep["shots"]
            first: list[dict] = [{"type": "text", "text": f["goal"] or "(no task prompt recorded)"}]
            start = _before(shots, 1) if steps else shots.get(0)
            if start is not None:
                first.append(_image_part(start, out, images, _slug(tid, sample, 0)))
            msgs = [{"role": "system", "content": system}, {"role": "user", "content": first}]
            raw = []
            for n, s in enumerate(steps, 1):
                thought = _first(s, THOUGHT_KEYS)
                act = _action_json(s.get("action"))
                msgs.append({"role": "assistant", "content": f"{thought}\n{act}" if thought else act})
                r = _first(s, RAW_KEYS)
                raw.append(r or None)
                if n == len(steps):
                    break                              # the conversation ends on the last action
                lines = []
                if s.get("url"):
                    lines.append(f"URL: {_text(s['url'])}")
                if s.get("error"):
                    lines.append(f"Action error: {_text(s['error'])}")
                part: list[dict] = [{"type": "text", "text": "\n".join(lines) or "OK"}]
                if n in shots:
                    part.append(_image_part(shots[n], out, images, _slug(tid, sample, n)))
                else:
                    part[0]["text"] += "\n(no screenshot)"
                msgs.append({"role": "user", "content": part})
            line = {"id": f"{tid}/{sample}", "task": tid, "world": ep["world"], "sample": sample,
                    "score": f["score"], "passed": f["passed"], "status": f["status"], "goal": f["goal"],
                    "messages": msgs}
            if any(raw):
                line["raw"] = raw
            fh.write(json.dumps(line, ensure_ascii=False) + "\n")
            report["rows"] += 1
            report["episodes"] += 1


def export_run(run_dir, out_dir, fmt: str, *, images: str = "inline") -> dict:
    """Export the run in ``run_dir`` to ``out_dir`` as ``fmt`` ("imagefolder" or "messages").

    ``images`` ("inline" or "files") only applies to ``messages``. Returns a report::

        {"format", "out", "episodes": exported, "rows": metadata rows / message lines,
         "skipped": [{"episode": "<world>/<task>/<sample>", "reason"}], "warnings": [str]}

    Raises ExportError only when nothing can be exported at all (unknown format or
    images mode, ``run_dir`` not a folder); bad episodes are skipped and reported.
    """
    if fmt not in FORMATS:
        raise ExportError(f"unknown format {fmt!r}; use one of {', '.join(FORMATS)}")
    if images not in IMAGE_MODES:
        raise ExportError(f"unknown images mode {images!r}; use one of {', '.join(IMAGE_MODES)}")
    run, out = Path(run_dir), Path(out_dir)
    if not run.is_dir():
        raise ExportError(f"{run} is not a run folder")
    if out.resolve() == run.resolve() or (run / layout.EPISODES).resolve() in (out.resolve(), *out.resolve().parents):
        raise ExportError("write the export outside the run folder's episodes (and not over the run folder)")
    out.mkdir(parents=True, exist_ok=True)
    report = {"format": fmt, "out": str(out), "episodes": 0, "rows": 0, "skipped": [], "warnings": []}
    listed, report["skipped"] = _episode_list(run)
    episodes = []
    for tid, sample, row in listed:
        try:
            episodes.append((tid, sample, row, _load_episode(run, tid, sample)))
        except layout.Unreadable as e:
            report["skipped"].append({"episode": f"{tid}/{sample}", "reason": str(e)})
        except Exception as e:                       # never let one episode stop the export
            report["skipped"].append({"episode": f"{tid}/{sample}", "reason": f"{type(e).__name__}: {e}"})
    if fmt == "imagefolder":
        _imagefolder(run, out, episodes, report)
    else:
        _messages(run, out, episodes, report, images)
    return report

