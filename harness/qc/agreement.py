"""Verifier QC: how often the verifier agrees with the people who graded a run.

Human labels live next to each episode in ``labels.json`` (never inside the
agent's ``steps.jsonl`` / ``result.json``)::

    {"version": 1, "labels": [
        {"grader": "ana", "at": "2026-11-30T10:40:00+00:00", "passed": false,
         "criteria": {"Tone": 0.5}, "score": 0.5, "note": "answered the wrong thread"}]}

Definitions (over episodes that have at least one label; episodes whose
verifier status is ``error`` are left out — the environment broke, there is
no verdict to check):

- the *human verdict* of an episode is the majority of its graders' latest
  labels (one vote per grader); a tie counts as *failed* (the cautious call);
- the *human score* is the mean of the graders' scores; a label's score is the
  weighted mean of its criterion scores (rubric weights) when it scored
  criteria, else 1 for pass and 0 for fail;
- accuracy = episodes where verifier ``passed`` == human verdict / labelled;
- false pass = verifier passed, human failed; false fail = verifier failed,
  human passed (counts, and rates over labelled episodes);
- per criterion: a programmatic rubric criterion agrees when the verifier's
  ``passed`` equals (mean human criterion score >= 0.5); ``judge`` criteria are
  pending in the verifier, so only the human mean is reported;
- Spearman's rho between verifier and human scores, per task with >= 2
  labelled samples and over all labelled episodes (average ranks for ties;
  ``None`` when either side is constant);
- disagreements to review first: false passes, then false fails, then
  episodes whose verdicts agree but whose scores differ by >= 0.25; within a
  kind, the largest score gap first.
"""
from __future__ import annotations

import json
import math
import os
from collections import defaultdict
from datetime import datetime, timezone
from pathlib import Path

from harness.runs import layout

LABELS = layout.LABELS
SCORE_GAP = 0.25


class LabelError(ValueError):
    """A grade that cannot be saved (bad value); nothing was written."""


# ---------------------------------------------------------------- labels
def read_labels(ep_dir: Path) -> list[dict]:
    path = Path(ep_dir) / LABELS
    if not path.exists():
        return []
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError):
        return []
    labels = data.get("labels", []) if isinstance(data, dict) else data
    return [lab for lab in labels if isinstance(lab, dict) and isinstance(lab.get("passed"), bool)]


def make_label(form: dict, rubric: list[dict] | None = None, *, default_grader: str | None = None) -> dict:
    """Validate a grading form (``verdict``, ``grader``, ``note``, ``crit:<name>``) into a label."""
    verdict = (form.get("verdict") or "").strip().lower()
    if verdict not in ("pass", "fail"):
        raise LabelError("verdict must be 'pass' or 'fail'")
    grader = (form.get("grader") or default_grader or "").strip()
    if not grader:
        raise LabelError("grader name is required")
    if len(grader) > 80:
        raise LabelError("grader name is too long (80 characters at most)")
    note = (form.get("note") or "").strip()
    if len(note) > 5000:
        raise LabelError("note is too long (5000 characters at most)")
    weights = {c["name"]: float(c.get("weight", 1.0)) for c in (rubric or []) if c.get("name")}
    criteria: dict[str, float] = {}
    for key, raw in form.items():
        if not key.startswith("crit:"):
            continue
        name = key[5:]
        if name not in weights:
            raise LabelError(f"unknown rubric criterion {name!r}")
        raw = (raw or "").strip()
        if raw == "":
            continue
        try:
            v = float(raw)
        except ValueError:
            raise LabelError(f"score for {name!r} must be a number between 0 and 1, not {raw!r}") from None
        if not (0.0 <= v <= 1.0) or v != v:
            raise LabelError(f"score for {name!r} must be between 0 and 1, not {raw}")
        criteria[name] = v
    if criteria:
        tw = sum(weights[n] for n in criteria)
        score = round(sum(weights[n] * v for n, v in criteria.items()) / tw, 4)
    else:
        score = 1.0 if verdict == "pass" else 0.0
    return {"grader": grader, "at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
            "passed": verdict == "pass", "score": score, "criteria": criteria, "note": note}


def add_label(ep_dir: Path, label: dict) -> list[dict]:
    """Append ``label`` to the episode's ``labels.json`` (atomic replace); return all labels."""
    labels = read_labels(ep_dir) + [label]
    path = Path(ep_dir) / LABELS
    tmp = path.with_name(f".{LABELS}.{os.getpid()}.tmp")
    tmp.write_text(json.dumps({"version": 1, "labels": labels}, ensure_ascii=False, indent=1), encoding="utf-8")
    os.replace(tmp, path)
    return labels


def latest_per_grader(labels: list[dict]) -> list[dict]:
    out: dict[str, dict] = {}
    for lab in labels:                          # file order is the order they were given
        out[lab.get("grader", "?")] = lab
    return list(out.values())


def human_verdict(labels: list[dict]) -> tuple[bool, float]:
    votes = latest_per_grader(labels)
    yes = sum(1 for v in votes if v["passed"])
    scores = [float(v.get("score", 1.0 if v["passed"] else 0.0)) for v in votes]
    return yes > len(votes) - yes, sum(scores) / len(scores)


# ---------------------------------------------------------------- statistics
def rank(xs: list[float]) -> list[float]:
    """1-based ranks, ties get the average of the ranks they span."""
    order = sorted(range(len(xs)), key=lambda i: xs[i])
    ranks = [0.0] * len(xs)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and xs[order[j + 1]] == xs[order[i]]:
            j += 1
        avg = (i + j) / 2 + 1
        for m in range(i, j + 1):
            ranks[order[m]] = avg
        i = j + 1
    return ranks


def spearman(xs: list[float], ys: list[float]) -> float | None:
    """Spearman's rho: Pearson correlation of the (tie-averaged) ranks; None if undefined."""
    if len(xs) != len(ys) or len(xs) < 2:
        return None
    rx, ry = rank(xs), rank(ys)
    n = len(xs)
    mx, my = sum(rx) / n, sum(ry) / n
    sxy = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    sxx = sum((a - mx) ** 2 for a in rx)
    syy = sum((b - my) ** 2 for b in ry)
    if sxx == 0 or syy == 0:
        return None
    return sxy / math.sqrt(sxx * syy)


def _agreement(items: list[tuple[bool, bool]]) -> dict:
    """items: (verifier passed, human passed)."""
    n = len(items)
    agree = sum(1 for v, h in items if v == h)
    fp = sum(1 for v, h in items if v and not h)
    ff = sum(1 for v, h in items if not v and h)
    return {"n": n, "agree": agree, "accuracy": agree / n if n else None,
            "false_pass": fp, "false_fail": ff,
            "false_pass_rate": fp / n if n else None, "false_fail_rate": ff / n if n else None}


# ---------------------------------------------------------------- the report
def _load_json(path: Path):
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError, UnicodeDecodeError):
        return None


def labelled_episodes(run_dir: Path) -> list[dict]:
    """Every episode folder with labels: task, sample, verifier verdict and score, labels."""
    out = []
    for ep in layout.episode_dirs(run_dir):
        labels = read_labels(ep) if (ep / LABELS).exists() else None
        if not labels:
            continue
        result = _load_json(ep / layout.RESULT)
        world, task = ep.parent.parent.name, ep.parent.name
        out.append({"task": f"{world}/{task}", "sample": int(ep.name), "labels": labels,
                    "result": result if isinstance(result, dict) else None})
    return out


def compute(run_dir: Path) -> dict:
    eps = labelled_episodes(run_dir)
    rows, skipped = [], []
    for e in eps:
        r = e["result"]
        if r is None:
            skipped.append({"task": e["task"], "sample": e["sample"], "reason": "result.json unreadable"})
            continue
        if r.get("status") == "error":
            skipped.append({"task": e["task"], "sample": e["sample"], "reason": "environment error"})
            continue
        hp, hs = human_verdict(e["labels"])
        rows.append({"task": e["task"], "sample": e["sample"], "verifier_passed": bool(r.get("passed")),
                     "verifier_score": float(r.get("score") or 0.0), "human_passed": hp, "human_score": hs,
                     "graders": len(latest_per_grader(e["labels"])), "labels": e["labels"],
                     "rubric": r.get("rubric") or [], "lines": r.get("lines") or []})

    overall = _agreement([(x["verifier_passed"], x["human_passed"]) for x in rows])
    overall["spearman"] = spearman([x["verifier_score"] for x in rows], [x["human_score"] for x in rows])

    by_task: dict[str, list[dict]] = defaultdict(list)
    for x in rows:
        by_task[x["task"]].append(x)
    per_task = {}
    for tid, xs in sorted(by_task.items()):
        a = _agreement([(x["verifier_passed"], x["human_passed"]) for x in xs])
        a["spearman"] = spearman([x["verifier_score"] for x in xs], [x["human_score"] for x in xs]) \
            if len(xs) >= 2 else None
        per_task[tid] = a

    crit: dict[tuple[str, str], dict] = {}
    for x in rows:
        for c in x["rubric"]:
            name = c.get("name")
            scores = [lab["criteria"][name] for lab in latest_per_grader(x["labels"])
                      if isinstance(lab.get("criteria"), dict) and name in lab["criteria"]]
            if not name or not scores:
                continue
            hmean = sum(scores) / len(scores)
            d = crit.setdefault((x["task"], name), {"task": x["task"], "criterion": name,
                                                   "kind": c.get("kind", "check"), "items": [], "human": []})
            d["human"].append(hmean)
            if c.get("passed") is not None:
                d["items"].append((bool(c["passed"]), hmean >= 0.5))
    per_criterion = []
    for d in crit.values():
        a = _agreement(d["items"])
        per_criterion.append({"task": d["task"], "criterion": d["criterion"], "kind": d["kind"],
                              "graded": len(d["human"]), "human_mean": sum(d["human"]) / len(d["human"]), **a})
    per_criterion.sort(key=lambda c: (c["task"], c["criterion"]))

    dis = []
    for x in rows:
        gap = abs(x["verifier_score"] - x["human_score"])
        if x["verifier_passed"] and not x["human_passed"]:
            kind, sev = "false pass", 0
        elif not x["verifier_passed"] and x["human_passed"]:
            kind, sev = "false fail", 1
        elif gap >= SCORE_GAP:
            kind, sev = "score gap", 2
        else:
            continue
        notes = [lab.get("note") for lab in x["labels"] if lab.get("note")]
        dis.append({"kind": kind, "severity": sev, "task": x["task"], "sample": x["sample"],
                    "verifier_passed": x["verifier_passed"], "verifier_score": x["verifier_score"],
                    "human_passed": x["human_passed"], "human_score": round(x["human_score"], 4),
                    "gap": round(gap, 4), "note": notes[-1] if notes else "",
                    "failures": [ln for ln in x["lines"] if ln.startswith("✗")]})
    dis.sort(key=lambda d: (d["severity"], -d["gap"], d["task"], d["sample"]))
    episodes = [{k: v for k, v in x.items() if k not in ("labels", "rubric", "lines")} for x in rows]
    return {"labelled": len(rows), "skipped": skipped, "overall": overall, "per_task": per_task,
            "per_criterion": per_criterion, "disagreements": dis, "episodes": episodes}
