"""The multi-run pages of ``deskworld view DIR`` when DIR holds several run folders: the runs table,
the leaderboard (one row per agent/model and one for every person's recordings, a column per world and per
app) and a side-by-side compare
of two runs. A run whose run.json or results.jsonl is missing or corrupt is listed as unreadable."""
from __future__ import annotations

from pathlib import Path

from flask import Flask, abort, render_template, request

from harness.runs import layout
from harness.runs.metrics import summarize
from harness.viewer.episodes import task_info

_NEED = {"task", "status", "score", "passed", "steps"}


def _nan(x) -> bool:
    return not isinstance(x, (int, float)) or x != x


def _mean(xs):
    xs = [x for x in xs if not _nan(x)]
    return sum(xs) / len(xs) if xs else float("nan")


def load_run(path: Path) -> dict:
    """One run's metadata and summary; ``unreadable`` says why it can't be used (else None)."""
    out = {"name": path.name, "path": path, "unreadable": None, "run": {}, "rows": [], "summary": None,
           "k": 1, "agent": "?", "model": None, "date": None}
    try:
        run = layout.read_run_json(path)
    except layout.Unreadable as e:
        out["unreadable"] = str(e)
        return out
    out["run"] = run
    out["agent"] = str(run.get("agent") or "?")
    out["model"] = run.get("model") or None
    out["date"] = run.get("start") or run.get("date") or run.get("end")
    try:
        out["k"] = max(1, int(run.get("k", 1) or 1))
    except (TypeError, ValueError):
        out["k"] = 1
    try:
        lines = layout.result_lines(path)
    except layout.Unreadable as e:
        out["unreadable"] = str(e)
        return out
    rows, bad = [], 0
    for r in lines:
        if isinstance(r, dict) and _NEED <= r.keys() and "/" in str(r["task"]) \
                and _plain_id(str(r["task"])):
            rows.append(r)
        else:
            bad += 1
    # One cut-short last line is a crash mid-write, not corruption; anything else is.
    if bad and (bad > 1 or not rows):
        out["unreadable"] = f"results.jsonl is corrupt ({bad} bad line{'s' if bad != 1 else ''})"
        return out
    out["rows"] = rows
    try:
        out["summary"] = summarize(rows, out["k"]) if rows else None
    except Exception as e:                        # odd values in rows: list the run, don't crash
        out["unreadable"] = f"results.jsonl has bad values ({type(e).__name__})"
        out["summary"] = None
    return out


def _task_apps(tid: str) -> list[str]:
    return list(task_info(tid).get("apps") or [])


def _plain_id(task_id: str) -> bool:
    try:
        layout.task_folder(task_id)
        return True
    except layout.Unreadable:
        return False


def _median(xs):
    xs = sorted(x for x in xs if not _nan(x))
    if not xs:
        return float("nan")
    mid = len(xs) // 2
    return xs[mid] if len(xs) % 2 else (xs[mid - 1] + xs[mid]) / 2


HUMAN = "human"


def _group(agent: str) -> str:
    """Every ``human:<name>`` run is one human row; agents keep their own."""
    return HUMAN if agent == HUMAN or agent.startswith(HUMAN + ":") else agent


def leaderboard(runs: list[dict]) -> dict:
    """Rows per (agent, model) over all their readable runs — every ``human:*`` run in one ``human`` row (the
    people named in ``people``); cells per world and app: pass@1 and mean score (each the mean over tasks of
    the per-task value, as in the run summary) and the median time and steps per task (each task's median
    over its episodes, then the median over tasks; environment errors left out)."""
    groups: dict[tuple, list[dict]] = {}
    for r in runs:
        if r["unreadable"] or not r["rows"]:
            continue
        groups.setdefault((_group(r["agent"]), r["model"] or ""), []).append(r)
    worlds, apps, out = set(), set(), []
    for (agent, model), rs in sorted(groups.items(), key=lambda kv: (kv[0][0] != HUMAN, kv[0])):
        rows = [row for r in rs for row in r["rows"]]
        per_task = summarize(rows, 1)["per_task"]
        effort: dict[str, tuple[float, float]] = {}
        for tid in per_task:
            ok = [row for row in rows if row["task"] == tid and row.get("status") != "error"]
            effort[tid] = (_median([row.get("seconds", float("nan")) for row in ok]),
                           _median([row.get("steps", float("nan")) for row in ok]))
        cols: dict[str, list] = {}
        for tid, v in per_task.items():
            if not v["samples"]:
                continue
            keys = ["world:" + tid.split("/", 1)[0]] + ["app:" + a for a in _task_apps(tid)]
            for key in ["all", *keys]:
                cols.setdefault(key, []).append((tid, v))
        cells = {key: {"tasks": len(vs), "pass1": _mean([v["pass@1"] for _, v in vs]),
                       "score": _mean([v["mean_score"] for _, v in vs]),
                       "seconds": _median([effort[t][0] for t, _ in vs]),
                       "steps": _median([effort[t][1] for t, _ in vs])} for key, vs in cols.items()}
        worlds |= {k[6:] for k in cells if k.startswith("world:")}
        apps |= {k[4:] for k in cells if k.startswith("app:")}
        people = sorted({r["agent"].split(":", 1)[1] for r in rs if ":" in r["agent"]}) if agent == HUMAN else []
        out.append({"agent": agent, "model": model, "runs": [r["name"] for r in rs], "cells": cells,
                    "episodes": len(rows), "human": agent == HUMAN, "people": people})
    return {"rows": out, "worlds": sorted(worlds), "apps": sorted(apps)}


def compare(a: dict, b: dict) -> dict:
    pa = a["summary"]["per_task"] if a["summary"] else {}
    pb = b["summary"]["per_task"] if b["summary"] else {}
    rows = []
    for tid in sorted(set(pa) | set(pb)):
        x, y = pa.get(tid), pb.get(tid)

        def side(v):
            if not v or not v["samples"]:
                return None
            return {"passes": v["passes"], "samples": v["samples"], "pass1": v["pass@1"],
                    "score": v["mean_score"]}
        sa, sb = side(x), side(y)
        delta = (sb["score"] - sa["score"]) if sa and sb else None
        dpass = (sb["pass1"] - sa["pass1"]) if sa and sb else None
        change = "same"
        if sa and sb:
            if dpass > 0 or (dpass == 0 and delta > 0):
                change = "better"
            elif dpass < 0 or (dpass == 0 and delta < 0):
                change = "worse"
        else:
            change = "only-a" if sa else "only-b"
        rows.append({"task": tid, "a": sa, "b": sb, "delta": delta, "dpass": dpass, "change": change})
    rows.sort(key=lambda r: (r["delta"] is None, -abs(r["delta"] or 0), -abs(r["dpass"] or 0), r["task"]))
    both = [r for r in rows if r["a"] and r["b"]]
    totals = {
        "tasks_a": sum(1 for r in rows if r["a"]), "tasks_b": sum(1 for r in rows if r["b"]), "both": len(both),
        "pass1_a": _mean([r["a"]["pass1"] for r in both]), "pass1_b": _mean([r["b"]["pass1"] for r in both]),
        "score_a": _mean([r["a"]["score"] for r in both]), "score_b": _mean([r["b"]["score"] for r in both]),
        "better": sum(1 for r in both if r["change"] == "better"),
        "worse": sum(1 for r in both if r["change"] == "worse"),
        "same": sum(1 for r in both if r["change"] == "same"),
    }
    totals["delta"] = (totals["score_b"] - totals["score_a"]) if both else float("nan")
    totals["dpass"] = (totals["pass1_b"] - totals["pass1_a"]) if both else float("nan")
    return {"rows": rows, "totals": totals}


def register_runs(app: Flask, base: Path) -> None:
    """Add the runs table, the leaderboard and the compare page of a folder of runs to the viewer ``app``."""

    def all_runs() -> list[dict]:
        return [load_run(p) for p in layout.child_runs(base)]

    @app.template_filter("pct")
    def pct(x):
        return "—" if _nan(x) else f"{x * 100:.0f}%"

    @app.template_filter("num2")
    def num2(x):
        return "—" if _nan(x) else f"{x:.2f}"

    @app.template_filter("secs")
    def secs(x):
        return "—" if _nan(x) else f"{x:.0f} s" if x < 120 else f"{x / 60:.1f} min"

    @app.template_filter("steps")
    def steps(x):
        return "—" if _nan(x) else f"{x:g} steps"

    @app.template_filter("signed")
    def signed(x):
        return "—" if _nan(x) else f"{x:+.2f}"

    @app.get("/")
    def runs():
        return render_template("viewer/runs.html", runs=all_runs(), base=base)

    @app.get("/leaderboard", endpoint="leaderboard")
    def leaderboard_page():
        return render_template("viewer/leaderboard.html", lb=leaderboard(all_runs()), base=base)

    @app.get("/compare")
    def compare_page():
        rs = {r["name"]: r for r in all_runs()}
        a, b = request.args.get("a", ""), request.args.get("b", "")
        names = sorted(rs)
        if not a or not b:
            return render_template("viewer/compare.html", names=names, a=a, b=b, cmp=None, error=None)
        if a not in rs or b not in rs:
            abort(404)
        bad = [f"{r['name']}: {r['unreadable']}" for r in (rs[a], rs[b]) if r["unreadable"]]
        if bad:
            return render_template("viewer/compare.html", names=names, a=a, b=b, cmp=None,
                                   error="unreadable run — " + "; ".join(bad)), 409
        return render_template("viewer/compare.html", names=names, a=a, b=b, ra=rs[a], rb=rs[b],
                               cmp=compare(rs[a], rs[b]), error=None)
