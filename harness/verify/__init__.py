"""Verifiers: pure functions of (task, initial state, final state, diff, answer).

``verify`` never touches the store or the page. It returns a ``Result``:

- ``passed`` = every check holds ∧ no collateral damage ∧ the answer matches
  (where asked) — for an infeasible task: the agent said ``infeasible``;
- ``score`` = weighted mean of the rubric (checks and the answer count as
  criteria of weight 1 when there is no rubric), 0 on collateral damage, a
  failed ``gate`` check (a constraint: it must hold, but earns nothing) or a
  wrong, hedged or missing answer;
  ``judge`` criteria are ``pending`` until a judge grades them and never
  count as passed;
- ``lines``: one line per check saying what was expected and what was found.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from datetime import datetime
from enum import StrEnum
from pathlib import Path
from zoneinfo import ZoneInfo

from harness.verify.answer import match_answer, normalise
from harness.verify.artifacts import progress_vouches
from harness.verify.checks import CheckResult, Ctx, _select, allow_vouches, load_function, run_check
from harness.verify.conditions import match
from harness.verify.dates import reading_locale
from harness.verify.guard import Vouch, agent_changes, collateral, describe

MAX_EVIDENCE_RECORDS = 20


class Status(StrEnum):
    """How an episode ended, as ``result.json`` and ``results.jsonl`` say it (the strings themselves)."""
    PASSED = "passed"
    FAILED = "failed"
    ERROR = "error"          # the environment broke: never counted as an agent failure


@dataclass
class Result:
    status: Status
    passed: bool
    score: float
    lines: list[str] = field(default_factory=list)
    checks: list[dict] = field(default_factory=list)
    answer: dict | None = None
    rubric: list[dict] = field(default_factory=list)
    collateral: list[dict] = field(default_factory=list)
    done_status: str | None = None
    error: str | None = None
    zeroed: bool = False             # the score was set to 0 (collateral damage, a failed gate, a wrong infeasible)
    checkpoints: list[dict] = field(default_factory=list)   # tasks with checkpoints: each one's state at the end

    def to_dict(self) -> dict:
        d = asdict(self)
        d["status"] = str(self.status)
        return d


def error_result(message: str) -> Result:
    return Result(Status.ERROR, False, 0.0, [f"! environment error: {message}"], error=message)


def world_day(export: dict):
    """The world's local date at the start (dates written without a year are read against it)."""
    clock = export.get("clock")
    if not clock:
        return None
    tz = export.get("timezone")
    at = datetime.fromisoformat(clock.replace("Z", "+00:00"))
    return (at.astimezone(ZoneInfo(tz)) if tz else at).date()


def world_time(export: dict, stamp) -> datetime:
    """A stored time (UTC, "…Z") as the world's local wall-clock time (naive); a local one as it is."""
    raw = str(stamp)
    if not (raw.endswith("Z") or "+" in raw[10:]):
        return datetime.fromisoformat(raw)
    at = datetime.fromisoformat(raw.replace("Z", "+00:00"))
    tz = export.get("timezone")
    return (at.astimezone(ZoneInfo(tz)) if tz else at).replace(tzinfo=None)


def people_names(export: dict) -> list[str]:
    return [p["name"] for p in export["tables"].get("people", {}).get("records", {}).values() if p.get("name")]


def org_names(export: dict) -> list[str]:
    return [o["name"] for o in export["tables"].get("orgs", {}).get("records", {}).values() if o.get("name")]


def expected_answer(task, initial: dict, world_root: Path | None):
    spec = task.answer
    if spec.value_from:
        fn = load_function(spec.value_from, world_root)
        return fn(Ctx(initial=initial, final=initial, diff={"tables": {}}, world_root=world_root, task=task))
    return spec.value


def verify(task, initial: dict, final: dict, diff: dict, *, answer: str | None = None,
           done_status: str | None = None, world_root: Path | None = None, locale: str | None = None) -> Result:
    """Grade an episode's end state and answer. ``locale``: the regional formats the episode was seen in
    (an appearance variant): the answer's ambiguous dates and German-written numbers are read as that
    page wrote them (``harness.verify.dates.reading_locale``)."""
    with reading_locale(locale):
        return _verify(task, initial, final, diff, answer=answer, done_status=done_status, world_root=world_root)


def _verify(task, initial: dict, final: dict, diff: dict, *, answer: str | None = None,
            done_status: str | None = None, world_root: Path | None = None) -> Result:
    ctx = Ctx(initial=initial, final=final, diff=diff, answer=answer, world_root=world_root, task=task)
    lines: list[str] = []
    criteria: list[tuple[str, float, bool | None]] = []      # (name, weight, passed or None=pending)

    if task.infeasible:
        ok = done_status == "infeasible"
        lines.append(f"{'✓' if ok else '✗'} infeasible task: expected done(status=infeasible); "
                     f"found {done_status or 'no done'}")
        if ok and task.explain is not None:
            said = " ".join(normalise(answer).split())          # the whole message: the reason may come first
            if not match(said, task.explain):
                ok = False
                lines.append(f"✗ the explanation doesn't say why: expected {task.explain}; found {said[:160]!r}")
            else:
                lines.append("✓ the explanation says why")
        extra = agent_changes(initial, final, diff)
        if extra and task.guard:
            ok = False
            lines.append(f"✗ nothing should change: found {describe(extra)}")
        return Result(Status.PASSED if ok else Status.FAILED, ok, 1.0 if ok else 0.0, lines,
                      collateral=extra if task.guard else [], done_status=done_status)

    # A check marked ``gate: true`` is a constraint, not a criterion: it must
    # hold for the task to pass, and when it fails the score is 0, but holding
    # it earns nothing (so doing nothing can't score by not breaking a rule).
    checks: list[CheckResult] = []
    gates_ok = True
    vouches: list[Vouch] = []
    bound: list[tuple[dict, CheckResult]] = []        # gates bound to checkpoints: judged below
    for spec in task.checks:
        c = run_check(ctx, {k: v for k, v in spec.items() if k not in ("gate", "binds")})
        checks.append(c)
        if c.passed:
            vouches += c.vouches
        if spec.get("binds"):
            bound.append((spec, c))
            continue
        lines.append(c.line() + ("  (gate)" if spec.get("gate") else ""))
        if spec.get("gate"):
            gates_ok &= c.passed
        else:
            criteria.append((c.name, 1.0, c.passed))

    ans = None
    if task.answer is not None:
        exp = expected_answer(task, initial, world_root)
        ans = match_answer(task.answer, answer, exp, today=world_day(initial), names=people_names(initial),
                           orgs=org_names(initial))
        lines.append(ans.line())
        criteria.append(("answer", 1.0, ans.passed))

    cps_out: list[dict] = []
    if task.checkpoints:
        criteria = []
        cps_out, cp_vouches = checkpoint_states(ctx, task, None if ans is None else ans.passed)
        vouches += cp_vouches
        # Work in progress: blanks filled in an unreached checkpoint's documents earn nothing, cost nothing.
        for cp, row in zip(task.checkpoints, cps_out):
            if row["reached"] or not cp.progress or not task.guard:
                continue
            wip = [v for title in cp.progress for v in progress_vouches(ctx, title)]
            if wip:
                vouches += wip
                row["in_progress"] = True
        for c in cps_out:
            criteria.append((c["name"], c["weight"], c["reached"]))
            lines.append(f"{'✓' if c['reached'] else '✗'} checkpoint {c['name']}"
                         + (f" ({c['title']})" if c.get("title") else "")
                         + ("" if c["reached"] or not c.get("blocked") else f": waits for {', '.join(c['blocked'])}"))
            lines += [f"    {line}" for line in c["lines"]]
            if c.get("in_progress"):
                lines.append("    … work in progress: blanks filled in its document, not finished (no credit, no damage)")
    # A gate that ``binds`` checkpoints (a composite's part's rule) zeroes the score when it fails and
    # either holds at the start (a pure constraint: it always binds) or one of its checkpoints was
    # reached (its part was started); a rule that needs the part's work doesn't bind before it.
    reached = {c["name"] for c in cps_out if c["reached"]}
    for spec, c in bound:
        binding = bool(set(spec["binds"]) & reached)
        if not c.passed and not binding:
            start = Ctx(initial=initial, final=initial, diff={"tables": {}}, world_root=world_root, task=task)
            binding = run_check(start, {k: v for k, v in spec.items() if k not in ("gate", "binds")}).passed
        if binding:
            gates_ok &= c.passed
        lines.append(c.line() + ("  (gate)" if binding or c.passed else "  (gate, not binding: its part wasn't started)"))

    rubric_out = []
    if task.rubric:
        criteria = []
        for crit in task.rubric:
            if crit.check is not None:
                r = run_check(ctx, {**crit.check, "name": crit.name})
                if r.passed:
                    vouches += r.vouches
                criteria.append((crit.name, crit.weight, r.passed))
                rubric_out.append({"name": crit.name, "weight": crit.weight, "kind": "check", "passed": r.passed,
                                   "line": r.line()})
            else:
                criteria.append((crit.name, crit.weight, None))
                rubric_out.append({"name": crit.name, "weight": crit.weight, "kind": "judge", "passed": None,
                                   "pending": True, "instruction": crit.judge,
                                   "evidence": [evidence(ctx, q) for q in crit.evidence]})
                lines.append(f"… {crit.name}: pending judge")

    damage = []
    if task.guard:
        for query in task.allow:
            vouches += allow_vouches(ctx, query)
        damage = collateral(initial, final, diff, vouches, user=task.user or initial.get("user") or "")
    if damage:
        lines.append(f"✗ collateral damage: {describe(damage)}")
    elif task.guard:
        lines.append("✓ no collateral damage")

    gave_up = done_status == "infeasible"
    if gave_up:
        lines.append("✗ the agent said the task is infeasible; it is not")
    graded = [(w, p) for _, w, p in criteria if p is not None]
    total = sum(w for w, _ in graded)
    score = (sum(w for w, p in graded if p) / total) if total else 0.0
    # A wrong, hedged or missing answer earns nothing: the answer is what the task asked for.
    # With checkpoints the answer is one checkpoint among others: a wrong one earns nothing for itself.
    zeroed = bool(damage or gave_up or not gates_ok
                  or (ans is not None and not ans.passed and not task.checkpoints))
    if zeroed:
        score = 0.0
    passed = all(c.passed for c in checks) and not damage and not gave_up and (ans is None or ans.passed)
    if task.rubric or task.checkpoints:
        passed = passed and all(p for _, _, p in criteria if p is not None)
    return Result(Status.PASSED if passed else Status.FAILED, passed, round(score, 4), lines,
                  checks=[{"name": c.name, "passed": c.passed, "expected": c.expected, "found": c.found} for c in checks],
                  answer=None if ans is None else {"passed": ans.passed, "expected": ans.expected, "found": ans.found},
                  rubric=rubric_out, collateral=damage, done_status=done_status, zeroed=zeroed,
                  checkpoints=cps_out)


def checkpoint_states(ctx: Ctx, task, answer_passed: bool | None, *, final: bool = True,
                      skip: set[str] = frozenset()) -> tuple[list[dict], list[Vouch]]:
    """Each checkpoint's state on ``ctx``: ``reached`` when its checks hold (the answer checkpoint:
    when the answer matched) and every checkpoint it comes ``after`` is reached. Mid-episode
    (``final=False``) the ``at_end`` and answer checkpoints are not judged (``reached`` None),
    nor are those in ``skip`` (already reached: the caller keeps them). Returns the states and
    what the reached checkpoints' checks vouch for (the guard's allowances)."""
    out: list[dict] = []
    vouches: list[Vouch] = []
    reached: dict[str, bool] = {}
    for cp in task.checkpoints:
        row = {"name": cp.name, "weight": cp.weight, **({"title": cp.title} if cp.title else {}),
               **({"at_end": True} if cp.at_end or cp.answer else {}), "lines": []}
        blocked = [d for d in cp.after if not reached.get(d)]
        if cp.name in skip:
            row["reached"] = True
        elif not final and (cp.at_end or cp.answer):
            row["reached"] = None
        elif cp.answer:
            row["reached"] = bool(answer_passed) and not blocked
        else:
            ok, mine = True, []
            for spec in cp.checks:
                r = run_check(ctx, spec)
                row["lines"].append(r.line())
                if r.passed:
                    mine += r.vouches
                ok &= r.passed
            row["reached"] = ok and not blocked
            if row["reached"]:             # a checkpoint waiting for another vouches for nothing yet
                vouches += mine
        if blocked and row["reached"] is False:
            row["blocked"] = blocked
        reached[cp.name] = bool(row["reached"])
        out.append(row)
    return out, vouches


def evidence(ctx: Ctx, query: dict) -> dict:
    """The final-state records a judge is shown for one evidence query (at most 20)."""
    found = _select(ctx, query)
    keys = list(found)[:MAX_EVIDENCE_RECORDS]
    return {"table": query["table"], "query": {k: v for k, v in query.items() if k != "table"},
            "records": {k: found[k] for k in keys}, **({"more": len(found) - len(keys)} if len(found) > len(keys) else {})}
