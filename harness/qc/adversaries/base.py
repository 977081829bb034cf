"""What an adversary is, and the verdict it must get.

An adversary is one attempt at a task, built from the task's own structure
(its checks, answer, tool solution, world), with the verdict a careful human
grader would give it:

- ``fail``: must not pass and must score 0 (hedges, spam, duplicates,
  collateral writes, literals for formulas, memorised answers, infeasible…) — or, in a task
  scored by checkpoints, leave the flawed work as an unreached checkpoint's work in progress
  (blanks filled wrong in its document: no credit for it, the rest of the day still scored);
- ``below``: must not pass and must score below 1 (the work stopped halfway);
- ``pass``: must pass with score 1 (the task done another right way).

A verifier that passes a ``fail`` adversary has a **false pass**; one that
fails a ``pass`` adversary has a **false fail**.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum

from harness.qc.adversaries.workbench import Attempt, Workbench


class Expect(StrEnum):
    FAIL = "fail"
    BELOW = "below"
    PASS = "pass"


@dataclass
class Adversary:
    name: str                                   # "answer:hedge-or", "text:hedge:1:8,760,000"
    kind: str                                   # the class: hedge, duplicate, collateral, …
    expect: Expect
    build: Callable[[Workbench], Attempt]       # makes the attempt on the workbench
    note: str = ""


@dataclass
class Outcome:
    name: str
    kind: str
    expect: str
    passed: bool | None = None
    score: float | None = None
    ok: bool = False
    error: str | None = None                    # the adversary could not be built
    why: str = ""                               # the verifier's failing lines, or what passed

    @property
    def false_pass(self) -> bool:
        return self.error is None and not self.ok and self.expect in (Expect.FAIL, Expect.BELOW)

    @property
    def false_fail(self) -> bool:
        return self.error is None and not self.ok and self.expect == Expect.PASS


def verdict_ok(expect: Expect, passed: bool, score: float, in_progress: bool = False) -> bool:
    """``in_progress``: the result counts some of the attempt's edits as an unreached checkpoint's
    work in progress (harness.verify), the one way a flawed attempt keeps the rest of its credit."""
    if expect == Expect.FAIL:
        return not passed and (score == 0 or in_progress)
    if expect == Expect.BELOW:
        return not passed and score < 1
    return passed and score == 1


@dataclass
class TaskAdversaries:
    task: str
    outcomes: list[Outcome] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)     # e.g. the tool solution fails

    @property
    def tried(self) -> int:
        return sum(o.error is None for o in self.outcomes)

    @property
    def false_passes(self) -> list[Outcome]:
        return [o for o in self.outcomes if o.false_pass]

    @property
    def false_fails(self) -> list[Outcome]:
        return [o for o in self.outcomes if o.false_fail]

    @property
    def errors(self) -> list[Outcome]:
        return [o for o in self.outcomes if o.error is not None]

    @property
    def ok(self) -> bool:
        return not (self.false_passes or self.false_fails or self.errors or self.problems)

    def to_dict(self) -> dict:
        return {"task": self.task, "tried": self.tried, "false_passes": [o.name for o in self.false_passes],
                "false_fails": [o.name for o in self.false_fails], "errors": [f"{o.name}: {o.error}" for o in self.errors],
                "problems": self.problems,
                "outcomes": [o.__dict__ for o in self.outcomes]}
