"""How different a family's instances are: the distinct expected outcomes among a sample of them.

An instance's outcome is what passing it takes: the expected answer (computed from the instance's
own state, as the verifier computes it) for an answer task; else the end state its tool solution
reaches — every record it adds or removes and every field it changes (what it computes too, such
as a total's value), but not view state — or, for a task without one,
the checks as rendered for it. A family whose fifty instances all expect the same thing teaches nothing a policy
can't memorise, so ``deskworld tasks --instances --outcomes`` prints the count per family.
"""
from __future__ import annotations

import json

from harness.qc.adversaries.workbench import Benches
from harness.qc.adversaries.writes import solved_base
from harness.tasks.registry import load_instance, sample_instances
from harness.verify import expected_answer


def outcome(task, benches: Benches) -> str:
    wb = benches[task.world_ref]
    if task.answer is not None:
        exp = expected_answer(task, wb.initial, wb.world.root)
        if exp is None:                  # a set answer keeps its key in ``values``
            exp = task.answer.values
        return "answer:" + json.dumps(exp, default=str, sort_keys=True)
    if any(s.call for s in task.solution):
        base = solved_base(task, wb, "tools", steps=task.solution)
        end = {}
        for name, t in base.diff["tables"].items():    # content and derived values (a total's result)
            end[name] = ([r["record"] for r in t["added"]],
                         [(r["key"], {f: c["after"] for f, c in r["fields"].items() if c["class"] != "ephemeral"})
                          for r in t["changed"]], [r["key"] for r in t["removed"]])
        return "end:" + json.dumps(end, default=str, sort_keys=True)
    return "checks:" + json.dumps({"checks": task.checks, "allow": task.allow, "infeasible": task.infeasible,
                                  "rubric": [c.model_dump() for c in task.rubric]}, default=str, sort_keys=True)


def distinct_outcomes(refs, n: int = 50, seed: int = 0) -> dict[str, tuple[int, int]]:
    """For each family among ``refs``: (distinct outcomes, instances sampled) over up to ``n`` instances."""
    chosen = sample_instances(refs, n, seed, published=False)
    seen: dict[str, set] = {}
    count: dict[str, int] = {}
    benches = Benches()
    try:
        for ref in chosen:
            task = load_instance(ref)
            seen.setdefault(ref.family, set()).add(outcome(task, benches))
            count[ref.family] = count.get(ref.family, 0) + 1
    finally:
        benches.close()
    return {f: (len(seen[f]), count[f]) for f in seen}
