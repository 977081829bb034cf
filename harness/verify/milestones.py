"""Milestone rewards: a task's checkpoints judged after every step, paid on the step each first holds.

``Milestones(task, world_root)`` follows one episode. After each step, when the agent (or a
co-worker) wrote something since the last look — a step that only clicked, scrolled or read
costs one ``SELECT`` — it judges the checkpoints not reached yet (those marked ``at_end`` and
the answer checkpoint wait for the end) on a lazy export of the live store: only the tables
their checks read are exported. A checkpoint counts only once every checkpoint it comes
``after`` has been reached. Its weight's share of the total is the step's reward
(``DeskEnv(reward="milestones")``); ``reached`` keeps the step each was first reached at
(the viewer marks them on the step scrubber; ``deskworld check`` asks that the oracle reaches
them in order).

The last step's reward is the final score minus what was paid before, so an episode's rewards
always sum to the verifier's score: a milestone undone later, collateral damage or a broken
gate is taken back at the end. The end is what counts; the milestones only make the reward
arrive earlier.
"""
from __future__ import annotations

from pathlib import Path

from apps.core.store.export import lazy_diff, lazy_export
from harness.verify import checkpoint_states
from harness.verify.checks import Ctx

REWARDS = ("final", "milestones")


class Milestones:
    def __init__(self, task, world_root: Path | None):
        self.task = task
        self.world_root = world_root
        self.total = sum(c.weight for c in task.checkpoints) or 1.0
        self.reached: dict[str, int] = {}          # checkpoint → step first reached
        self.paid = 0.0
        self._seen_seq: int | None = None

    @property
    def active(self) -> bool:
        return bool(self.task.checkpoints)

    def after_step(self, step: int, store, initial: dict) -> tuple[float, list[str]]:
        """Judge the open checkpoints on the live store after ``step``: (reward, newly reached)."""
        if not self.active:
            return 0.0, []
        seq = int(store.scalar("SELECT COALESCE(MAX(seq), 0) FROM _writes") or 0)
        if seq == self._seen_seq:
            return 0.0, []
        self._seen_seq = seq
        final = lazy_export(store)
        ctx = Ctx(initial=initial, final=final, diff=lazy_diff(initial, final), world_root=self.world_root,
                  task=self.task)
        states, _ = checkpoint_states(ctx, self.task, None, final=False, skip=set(self.reached))
        new = [s["name"] for s in states if s["reached"] and s["name"] not in self.reached]
        for name in new:
            self.reached[name] = step
        reward = sum(s["weight"] for s in states if s["name"] in new) / self.total
        self.paid += reward
        return reward, new

    def finish(self, step: int, result) -> tuple[float, list[str]]:
        """The last step: the checkpoints the verifier found reached at the end that were not
        reached before are reached now; the reward is what the score still owes (or takes back)."""
        new = []
        for s in result.checkpoints:
            if s["reached"] and s["name"] not in self.reached:
                self.reached[s["name"]] = step
                new.append(s["name"])
            s["at_step"] = self.reached.get(s["name"]) if s["reached"] else None
            if not s["reached"] and s["name"] in self.reached:
                s["undone_after"] = self.reached[s["name"]]     # held at that step, not at the end
        reward = float(result.score) - self.paid
        self.paid = float(result.score)
        return reward, new

    def in_order(self) -> bool:
        """Was every checkpoint first reached no earlier than the checkpoints it comes ``after``?
        The order a task declares is that partial order (where its prompt lets the work be done in
        any order, the list's order is only how it reads); judging enforces it as it goes, so this
        holds for every episode: it is what the viewer and the run report rely on."""
        got = self.reached
        return all(c.name not in got or (d in got and got[d] <= got[c.name])
                   for c in self.task.checkpoints for d in c.after)

    def late(self, last_step: int) -> list[str]:
        """Checkpoints judged along the way that were first reached only on ``last_step`` (the
        episode's end): a reward that could have come earlier came only at the end."""
        return [c.name for c in self.task.checkpoints
                if not (c.at_end or c.answer) and self.reached.get(c.name) == last_step]
