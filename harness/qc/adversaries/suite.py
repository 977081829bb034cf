"""The adversary suite: every adversary a task's structure gives, tried with the real ``verify()``.

``run_suite(tasks)`` returns one ``TaskAdversaries`` per task. Per task it builds:

- from the **answer** (answer tasks): hedges, shotguns, ranges, wrong and memorised answers
  (the other tasks' expected answers), junk and giving up — must fail; the value explained,
  in other formats, without the marker — must pass (``answers.py``);
- from the **tool solution** (``solution:`` in the task file): the solution itself — must pass;
  stopped halfway — must fall short; duplicates, placeholders, given up, and every value its
  texts state hedged, replaced or sprayed — must fail; explained or reformatted — must pass
  (``solution.py``);
- on the solved state (the tool solution's and, when ``check`` ran it, the GUI oracle's): one
  more write of each kind the guard must catch — must fail; an event deleted and recreated —
  must pass (``writes.py``);
- the task's own ``adversaries:`` (for "don't" and "nothing else" clauses).

A task without a tool solution is a problem; so is one whose solution fails.
"""
from __future__ import annotations

import re
import traceback
from collections import Counter

from harness.qc.adversaries.answers import answer_adversaries
from harness.qc.adversaries.base import Adversary, Expect, Outcome, TaskAdversaries, verdict_ok
from harness.qc.adversaries.solution import solution_adversaries
from harness.qc.adversaries.workbench import Attempt, Benches, Ending, SolutionError, Workbench
from harness.qc.adversaries.writes import solved_base, write_adversaries
from harness.verify import expected_answer

# Words that make a negative requirement ("don't", "nothing else", "only to him", "leave … as it is",
# "keep …", "without …", "not …", "except …"): each one in a prompt needs a task adversary that breaks it.
NEGATIVE = re.compile(r"\b(don't|do not|nothing else|only\b|leave\b|leaving\b|keep(?:ing)?\b|without\b|not\b|"
                      r"no other|rather than|alone\b|never\b|except\b|excluding\b)", re.I)


def _prompt(task) -> str:
    return " ".join(task.prompt.split())


def negative_clauses(task) -> list[tuple[int, str]]:
    """(position, words around) of each negative requirement in the prompt."""
    p = _prompt(task)
    return [(m.start(), p[max(0, m.start() - 30):m.end() + 30]) for m in NEGATIVE.finditer(p)]


def uncovered_clauses(task) -> list[str]:
    """Negative requirements of the prompt that no ``expect: fail`` task adversary quotes."""
    p = _prompt(task).lower()
    spans = []
    for a in task.adversaries:
        if a.clause and a.expect == "fail":
            c = " ".join(a.clause.split()).lower()
            at = p.find(c)
            if at >= 0:
                spans.append((at, at + len(c)))
    return [words for pos, words in negative_clauses(task) if not any(s <= pos < e for s, e in spans)]


class Catalogue:
    """The expected answers of every hand-made answer task (variant 0: the published world, whose
    answers anyone can have memorised), by world and type, and by family — for memorisation
    adversaries: another task's answer, and on an instance the hand-made task's own answer."""

    def __init__(self, tasks, benches):
        self.by: dict[tuple[str, str], Counter] = {}
        self.family: dict[str, str] = {}
        for t in tasks:
            if t.answer is None or t.answer.type == "set":
                continue
            wb = benches[t.world_ref]
            v = expected_answer(t, wb.initial, wb.world.root)
            self.by.setdefault((t.world, t.answer.type), Counter())[str(v)] += 1
            self.family[t.family or t.id] = str(v)
        self.expected = {}

    @classmethod
    def for_worlds(cls, worlds) -> "Catalogue":
        """The catalogue of the hand-made tasks of ``worlds`` (world names)."""
        from harness.tasks.registry import all_tasks
        benches = Benches(keep=len(set(worlds)) or 1)
        try:
            return cls([t for t in all_tasks() if t.world in set(worlds)], benches)
        finally:
            benches.close()

    def others(self, task, expected) -> list:
        c = self.by.get((task.world, task.answer.type), Counter())
        out = [v for v, _ in c.most_common() if v != str(expected)]
        mine = self.family.get(task.family)
        if task.id != task.family and mine is not None and mine != str(expected):
            out = [mine] + [v for v in out if v != mine]          # the published instance's answer first
        return out


def try_one(task, wb: Workbench, adv: Adversary) -> Outcome:
    o = Outcome(adv.name, adv.kind, str(adv.expect))
    try:
        att = adv.build(wb)
        r = wb.score(task, att)
    except SolutionError as e:
        o.error = str(e)
        return o
    except Exception as e:          # an adversary that can't be built is reported, never a verdict
        o.error = f"{type(e).__name__}: {e} | {traceback.format_exc(limit=3)[-400:]}"
        return o
    o.passed, o.score = r.passed, r.score
    o.ok = verdict_ok(adv.expect, r.passed, r.score, any(c.get("in_progress") for c in r.checkpoints))
    bad = [line for line in r.lines if line.startswith("✗")]
    o.why = "; ".join(bad)[:600] if bad else "passed: " + "; ".join(r.lines)[:300]
    if not o.ok:
        o.why = f"[{adv.note}] " + o.why
    return o


def task_adversaries(task, wb: Workbench, catalogue: Catalogue | None = None, *,
                     oracle: tuple[bytes, Ending] | None = None) -> list[Adversary]:
    """Every adversary of ``task``; ``oracle``: the GUI oracle's end state and ending, when known."""
    advs: list[Adversary] = []
    steps = list(task.solution)
    has_calls = any(s.call for s in steps)
    if task.infeasible:
        advs += _infeasible(task, wb, oracle)
    tools_base = solved_base(task, wb, "tools", steps=steps) if has_calls else None
    if steps and not task.infeasible:
        advs += solution_adversaries(task, wb)
        if tools_base is not None:
            advs += write_adversaries(task, tools_base)
    if oracle is not None and not task.infeasible:
        snap, ending = oracle
        base = solved_base(task, wb, "oracle", snapshot=snap, ending=ending)
        if any(base.changed()) or any(t["added"] or t["removed"] for t in base.diff["tables"].values()):
            advs += write_adversaries(task, base)
        advs.append(Adversary("oracle:infeasible", "infeasible", Expect.FAIL,
                              lambda bench: Attempt(base.final, ending.answer, "infeasible"), "the oracle's work, then 'infeasible'"))
    if task.answer is not None:
        exp = expected_answer(task, wb.initial, wb.world.root)
        others = catalogue.others(task, exp) if catalogue else []
        base_make = (lambda bench: tools_base.make(bench)) if tools_base is not None else None
        advs += answer_adversaries(task, exp, wb.initial, others, base_make)
    for spec in task.adversaries:
        advs.append(_custom(task, spec))
    return advs


def _infeasible(task, wb: Workbench, oracle) -> list[Adversary]:
    def end(answer, status, then=None):
        return lambda bench: bench.attempt(task, [], ending=Ending(answer, status), then=then)

    out = [Adversary("infeasible:complete", "wrong", Expect.FAIL, end("Done.", "complete"), "claims it is done"),
           Adversary("infeasible:complete-answer", "wrong", Expect.FAIL, end("ANSWER: sent", "complete"), "claims it is done"),
           Adversary("infeasible:always", "infeasible", Expect.FAIL if task.explain else Expect.PASS,
                     end("INFEASIBLE: I can't do this.", "infeasible"), "gives up without saying why")]
    if task.solution:
        out.append(Adversary("tools", "tools", Expect.PASS, lambda bench: bench.attempt(task, task.solution),
                             "the tool solution"))
        # Giving up but changing something on the way is not clean.
        from apps.core.store.db import AGENT, Caller

        def stray(st):
            from apps.mail import compose
            compose.send(st, Caller(wb.user_of(task), AGENT), to=["eleanor.vance@meridianshaw.com"]
                         if task.world == "meridian" else [st.one("SELECT email FROM people LIMIT 1")["email"]],
                         subject="Couldn't do it", body="I could not find it.")
        sol_end = next((s.done for s in task.solution if s.done), {}) or {}
        out.append(Adversary("infeasible:with-a-write", "collateral", Expect.FAIL,
                             end(sol_end.get("answer"), "infeasible", stray), "infeasible, after mailing someone"))
    return out


def _custom(task, spec) -> Adversary:
    expect = Expect(spec.expect)

    def build(bench: Workbench):
        base = list(task.solution) if spec.base == "solution" else []
        body = [s for s in base if s.done is None]
        ends = [s for s in list(spec.steps) if s.done is not None] or [s for s in base if s.done is not None]
        steps = body + [s for s in spec.steps if s.done is None] + ends[-1:]
        return bench.attempt(task, steps)
    return Adversary(f"task:{spec.name}", "custom", expect, build, spec.why or spec.clause or spec.name)


def run_task(task, wb: Workbench, catalogue: Catalogue | None = None, *, oracle=None) -> TaskAdversaries:
    rep = TaskAdversaries(task.id)
    if not task.solution:
        rep.problems.append("no tool solution (solution: in the task file)")
    for words in uncovered_clauses(task):
        rep.problems.append(f"the prompt says “…{words}…” and no task adversary (clause:, expect: fail) breaks it")
    try:
        advs = task_adversaries(task, wb, catalogue, oracle=oracle)
    except SolutionError as e:
        rep.problems.append(f"the tool solution can't be carried out: {e}")
        return rep
    for adv in advs:
        rep.outcomes.append(try_one(task, wb, adv))
    tools = next((o for o in rep.outcomes if o.name == "tools"), None)
    if tools is not None and not tools.ok and tools.error is None:
        rep.problems.append(f"the tool solution does not pass: {tools.why}")
    return rep


def run_suite(tasks, *, oracles: dict | None = None, progress=None) -> list[TaskAdversaries]:
    catalogue = Catalogue.for_worlds({t.world for t in tasks})
    benches = Benches()
    out = []
    try:
        for t in tasks:
            if progress:
                progress(t)
            out.append(run_task(t, benches[t.world_ref], catalogue, oracle=(oracles or {}).get(t.id)))
    finally:
        benches.close()
    return out


def totals(reports: list[TaskAdversaries]) -> dict:
    kinds: dict[str, dict] = {}
    for r in reports:
        for o in r.outcomes:
            k = kinds.setdefault(o.kind, {"tried": 0, "false_passes": 0, "false_fails": 0})
            if o.error is None:
                k["tried"] += 1
                k["false_passes"] += o.false_pass
                k["false_fails"] += o.false_fail
    return {"tasks": len(reports), "tried": sum(r.tried for r in reports),
            "false_passes": sum(len(r.false_passes) for r in reports),
            "false_fails": sum(len(r.false_fails) for r in reports),
            "errors": sum(len(r.errors) for r in reports),
            "problems": sum(len(r.problems) for r in reports), "by_kind": kinds}
