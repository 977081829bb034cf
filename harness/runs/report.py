"""The results table printed after a run (and the same numbers as summary.json)."""
from __future__ import annotations

import math

from rich.console import Console
from rich.table import Table


def _f(x, pct=True) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "—"
    return f"{x * 100:.0f}%" if pct else f"{x:.1f}"


def print_summary(summary: dict, console: Console | None = None) -> None:
    console = console or Console()
    k = summary["k"]
    t = Table(title=f"deskworld results (k={k})", show_lines=False)
    rates = ["pass@1"] + ([f"pass@{k}", f"pass^{k}"] if k > 1 else [])
    for col in ("task", "n", *rates, "score", "steps", "errors", ""):
        t.add_column(col, justify="left" if col in ("task", "") else "right", overflow="fold",
                     no_wrap=col != "task")
    for tid, v in summary["per_task"].items():
        t.add_row(tid, str(v["samples"]), *(_f(v[r]) for r in rates), _f(v["mean_score"]),
                  _f(v["mean_steps"], pct=False), str(v["errors"]), "trainable" if v["trainable"] else "")
    o = summary["overall"]
    t.add_section()
    t.add_row(f"all: {o['tasks']} tasks, {o['episodes']} episodes", "", *(_f(o[r]) for r in rates),
              _f(o["mean_score"]), _f(o["mean_steps"], pct=False), str(o["errors"]), "")
    console.print(t)
    fams = summary.get("per_family") or {}
    if any(v["tasks"] > 1 for v in fams.values()):
        f = Table(title="by family (each the mean over its instances)")
        for col in ("family", "instances", *rates, "score", "steps"):
            f.add_column(col, justify="left" if col == "family" else "right", overflow="fold")
        for fid, v in fams.items():
            f.add_row(fid, str(v["tasks"]), *(_f(v[r]) for r in rates), _f(v["mean_score"]),
                      _f(v["mean_steps"], pct=False))
        splits = summary.get("per_split") or {}
        if len(splits) > 1:
            f.add_section()
            for s, v in splits.items():
                f.add_row(f"split {s}", str(v["tasks"]), *(_f(v[r]) for r in rates), _f(v["mean_score"]),
                          _f(v["mean_steps"], pct=False))
        console.print(f)
    per_variant = summary.get("per_variant") or {}
    if per_variant:
        vt = Table(title=f"by appearance variant (k={k} on each)")
        for col in ("variant", "tasks", "episodes", *rates, "score", "steps", "errors"):
            vt.add_column(col, justify="left" if col == "variant" else "right", overflow="fold")
        for name, v in per_variant.items():
            vt.add_row(name, str(v["tasks"]), str(v["episodes"]), *(_f(v[r]) for r in rates), _f(v["mean_score"]),
                       _f(v["mean_steps"], pct=False), str(v["errors"]))
        console.print(vt)
    if o["errors"]:
        console.print(f"[yellow]{o['errors']} episode(s) ended in an environment error "
                      f"({o['error_rate']:.1%}); they are excluded from pass@k.[/yellow]")
    if summary["trainable"]:
        console.print(f"Trainable band (some samples pass, not all): {', '.join(summary['trainable'])}")


def print_usage(usage: dict, console: Console | None = None) -> None:
    """The tokens-and-cost table of a model agent's run (``summary["usage"]``)."""
    console = console or Console()
    t = Table(title="model usage")
    for col in ("model", "episodes", "calls", "input", "cached", "cache write", "output", "reasoning", "retries",
                "cost", "per episode"):
        t.add_column(col, justify="left" if col == "model" else "right")
    for model, u in sorted(usage.items()):
        cost = u.get("cost_usd")
        t.add_row(model, str(u["episodes"]), str(u["calls"]), f"{u['input_tokens']:,}", f"{u['cache_read_tokens']:,}",
                  f"{u['cache_write_tokens']:,}", f"{u['output_tokens']:,}", f"{u['reasoning_tokens']:,}",
                  str(u["retries"]), "—" if cost is None else f"${cost:,.4f}",
                  "—" if cost is None else f"${u.get('cost_per_episode_usd') or 0:,.4f}")
    console.print(t)
    if any(u.get("cost_usd") is None for u in usage.values()):
        console.print("[dim]— : no price known for that model (set DESKWORLD_PRICES to a JSON price file).[/dim]")
