"""How different a family's instances are: the distinct expected outcomes among a sample of them.

An instance's outcome is what passing it takes: the expected answer (computed from the instance's
own state, as the verifier computes it) for an answer task, else the checks and allowances as
rendered for it. A family whose fifty instances all expect the same thing teaches nothing a policy
can't memorise, so ``deskworld tasks --instances --outcomes`` prints the count per family.
"""
from __future__ import annotations

import json

from harness.qc.adversaries.workbench import Benches
from harness.tasks.registry import load_instance, sample_instances
from harness.verify import expected_answer


def outcome(task, benches: Benches) -> str:
    if task.answer is not None:
        wb = benches[task.world_ref]
        return "answer:" + json.dumps(expected_answer(task, wb.initial, wb.world.root), default=str, sort_keys=True)
    return "state:" + json.dumps({"checks": task.checks, "allow": task.allow, "infeasible": task.infeasible,
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
