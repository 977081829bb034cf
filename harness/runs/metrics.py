"""pass@k, pass^k and the run summary.

pass@k is the unbiased estimator of Chen et al. (2021): with n samples of
which c passed, ``1 - C(n-c, k) / C(n, k)`` — the chance that at least one of
k samples passes. pass^k (tau-bench) is ``C(c, k) / C(n, k)`` — the chance
that all k pass. Episodes with status ``error`` (the environment broke) are
left out of both and counted separately.
"""
from __future__ import annotations

from collections import defaultdict
from math import comb

from harness.verify import Status


def pass_at_k(n: int, c: int, k: int) -> float:
    if n == 0 or k > n:
        return float("nan")
    if n - c < k:
        return 1.0
    return 1.0 - comb(n - c, k) / comb(n, k)


def pass_hat_k(n: int, c: int, k: int) -> float:
    if n == 0 or k > n:
        return float("nan")
    return comb(c, k) / comb(n, k)


def _mean(xs):
    xs = [x for x in xs if x == x]
    return sum(xs) / len(xs) if xs else float("nan")


def family_of(task_id: str) -> str:
    """``meridian/fund-shortfall/v17`` → ``meridian/fund-shortfall`` (a hand-made task is its own family)."""
    return "/".join(task_id.split("/")[:2])


def _task_stats(rs: list[dict], k: int) -> dict:
    ok = [r for r in rs if r["status"] != Status.ERROR]
    n, c = len(ok), sum(1 for r in ok if r["passed"])
    return {
        "samples": n, "passes": c, "errors": len(rs) - n,
        "pass@1": pass_at_k(n, c, 1), f"pass@{k}": pass_at_k(n, c, k), f"pass^{k}": pass_hat_k(n, c, k),
        "mean_score": _mean([r["score"] for r in ok]), "mean_steps": _mean([r["steps"] for r in ok]),
        "trainable": 0 < c < n,
    }


def summarize(rows: list[dict], k: int, tasks: dict | None = None) -> dict:
    """``rows`` are results.jsonl lines; ``tasks`` maps id -> Task (for apps and tags). Rows that name
    an appearance ``variant`` also give ``per_variant``: each variant's tasks scored on its own samples
    (pass@k over that variant's k), and ``per_task_variant`` ({task: {variant: stats}})."""
    by_task: dict[str, list[dict]] = defaultdict(list)
    for r in rows:
        by_task[r["task"]].append(r)
    per_task = {tid: _task_stats(rs, k) for tid, rs in sorted(by_task.items())}

    def agg(ids, table=per_task):
        ts = [table[t] for t in ids if table[t]["samples"]]
        return {"tasks": len(ts), "pass@1": _mean([t["pass@1"] for t in ts]),
                f"pass@{k}": _mean([t[f"pass@{k}"] for t in ts]), f"pass^{k}": _mean([t[f"pass^{k}"] for t in ts]),
                "mean_score": _mean([t["mean_score"] for t in ts]), "mean_steps": _mean([t["mean_steps"] for t in ts])}

    groups: dict[str, dict] = {"app": defaultdict(list), "tag": defaultdict(list), "family": defaultdict(list),
                               "split": defaultdict(list)}
    split_of = {r["task"]: r["split"] for r in rows if r.get("split")}
    for tid in per_task:
        groups["family"][family_of(tid)].append(tid)
        t = (tasks or {}).get(tid)
        split = t.split if t is not None else split_of.get(tid)
        if split:
            groups["split"][split].append(tid)
        if t is None:
            continue
        for a in t.apps:
            groups["app"][a].append(tid)
        for tag in t.tags:
            groups["tag"][tag].append(tid)
    episodes = len(rows)
    errors = sum(1 for r in rows if r["status"] == Status.ERROR)
    usage = usage_totals(rows)
    variant_part = {}
    if any(r.get("variant") for r in rows):
        by_tv: dict[str, dict[str, list[dict]]] = defaultdict(lambda: defaultdict(list))
        for r in rows:
            by_tv[r.get("variant") or "default"][r["task"]].append(r)
        per_tv = {v: {tid: _task_stats(rs, k) for tid, rs in sorted(ts.items())} for v, ts in by_tv.items()}
        variant_part = {
            "per_variant": {v: {**agg(list(table), table), "episodes": sum(len(rs) for rs in by_tv[v].values()),
                                "errors": sum(t["errors"] for t in table.values())}
                            for v, table in per_tv.items()},
            "per_task_variant": {tid: {v: per_tv[v][tid] for v in per_tv if tid in per_tv[v]} for tid in per_task},
        }
    return {
        **({"usage": usage} if usage else {}),
        **variant_part,
        "k": k,
        "overall": {**agg(per_task), "episodes": episodes, "errors": errors,
                    "error_rate": errors / episodes if episodes else 0.0},
        "per_app": {a: agg(ids) for a, ids in sorted(groups["app"].items())},
        "per_tag": {t: agg(ids) for t, ids in sorted(groups["tag"].items())},
        "per_family": {f: agg(ids) for f, ids in sorted(groups["family"].items())},
        "per_split": {s: agg(ids) for s, ids in sorted(groups["split"].items())},
        "per_task": per_task,
        "trainable": sorted(t for t, v in per_task.items() if v["trainable"]),
    }


USAGE_FIELDS = ("calls", "input_tokens", "cache_read_tokens", "cache_write_tokens", "output_tokens",
                "reasoning_tokens", "retries")


def usage_totals(rows: list[dict]) -> dict | None:
    """Tokens and cost of a run's model agent, summed per model over episodes (``None``: no model agent)."""
    per: dict[str, dict] = {}
    for r in rows:
        u = r.get("usage")
        if not isinstance(u, dict):
            continue
        m = per.setdefault(u.get("model") or "?", {f: 0 for f in USAGE_FIELDS} | {"episodes": 0, "cost_usd": 0.0})
        m["episodes"] += 1
        for f in USAGE_FIELDS:
            m[f] += int(u.get(f) or 0)
        if u.get("cost_usd") is None or m["cost_usd"] is None:
            m["cost_usd"] = None
        else:
            m["cost_usd"] += float(u["cost_usd"])
    for m in per.values():
        if m["cost_usd"] is not None:
            m["cost_usd"] = round(m["cost_usd"], 4)
            m["cost_per_episode_usd"] = round(m["cost_usd"] / m["episodes"], 4) if m["episodes"] else None
    return per or None
