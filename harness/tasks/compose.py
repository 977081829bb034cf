"""Long tasks made of parts: a day's work as a sequence of tasks the world already has.

A task file may list ``parts:`` — other tasks of its world, in the order a person would do them::

    parts:
      - {task: onboard-nico, as: nico}
      - {task: triage-five-new-incidents, as: triage}

The composite is those tasks done in one episode (after its ``prelude:`` oracle and solution
steps, when it has them: a question to the principal first), under its own prompt (written for a person, as
any prompt), ``max_steps``, principal, scenario and any checkpoints, checks, allowances and
adversaries of its own. From each part it takes, rendered in the same variant:

- its **oracle** and **tool solution**, in order, without their ``done`` (the composite ends with
  its own); each part's oracle starts from that part's start page (a ``goto``);
- its work as **checkpoints**: a part with checkpoints keeps them (renamed ``<as>-<name>``); a part
  scored by a rubric of checks gives one checkpoint per criterion (``<as>-<n>``, its name and
  weight), then ``<as>-done``: every check of the part holds, after all of them; otherwise one checkpoint per check
  that isn't a gate. Its gates stay gates, bound to its checkpoints (``binds``: a rule that doesn't
  hold before any work — no bar date left at the draft order's date — binds once one of them is reached, so it
  doesn't zero a day stopped before that part; a rule that holds at the start always binds);
- its ``allow`` queries, ``coworkers`` scenario triggers and apps; its ``progress`` documents (those
  whose blanks it fills) on each of its checkpoints, so a day stopped with half a letter filled
  keeps the rest of its credit (the half letter earns nothing);
- its own adversaries that still mean the same in the composite: those on the solved state
  (``base: solution``: one more write on top of all the work) and those that must fail from the
  start (doing part of the work with a flaw can't pass the whole), with the clause of the prompt each
  tests when the composite's prompt says it too. An adversary that expects a
  pass or partial credit from the start is about that part alone, and is left out. One the day
  changes the meaning of (a close date moved in the CRM must now also move in the forecast) is
  restated in the composite's own ``adversaries:`` under the same ``<as>:<name>``, which replaces it.

A part can't ask for an answer (the composite has one ending) or itself have parts; its judge
criteria are left out (they never decide a pass, and the composite scores by checkpoints).
"""
from __future__ import annotations

import re

PART_KEYS = {"task", "as"}


class CompositionError(ValueError):
    """The ``parts:`` of a task file can't be composed (the message names the part)."""


def part_specs(raw: dict) -> list[tuple[str, str]]:
    specs = raw.get("parts")
    if not isinstance(specs, list) or not specs:
        raise CompositionError("parts: a list of {task: <name>, as: <short name>}")
    out = []
    for i, p in enumerate(specs):
        if not isinstance(p, dict) or set(p) - PART_KEYS or "task" not in p:
            raise CompositionError(f"parts.{i}: {{task: <a task of this world>, as: <short name>}}, not {p!r}")
        short = str(p.get("as") or p["task"])
        if not re.fullmatch(r"[a-z0-9][a-z0-9-]*", short):
            raise CompositionError(f"parts.{i}.as: lower-case letters, digits and hyphens, not {short!r}")
        out.append((str(p["task"]), short))
    shorts = [s for _, s in out]
    if len(set(shorts)) != len(shorts):
        raise CompositionError("parts: each part needs its own 'as' name")
    return out


def _dump(model) -> dict:
    return model.model_dump(mode="python", by_alias=True, exclude_none=True, exclude_defaults=True)


def compose(raw: dict, parts: list[tuple[str, object]]) -> dict:
    """The composite task's fields: ``raw`` (the composite file, rendered) with ``parts`` —
    ``(as, Task)`` pairs — folded in."""
    out = {k: v for k, v in raw.items() if k not in ("parts", "prelude")}
    prelude = raw.get("prelude") or {}
    if not isinstance(prelude, dict) or set(prelude) - {"oracle", "solution"}:
        raise CompositionError("prelude: {oracle: [steps], solution: [steps]}, what comes before the parts")
    said = " ".join(str(raw.get("prompt") or "").split()).lower()
    oracle, solution, checkpoints, gates, allow, coworkers, apps, adversaries = [], [], [], [], [], [], [], []
    for short, t in parts:
        where = f"parts.{short} ({t.family or t.id})"
        if t.answer is not None:
            raise CompositionError(f"{where}: a part can't ask for an answer (the composite has one ending)")
        oracle.append({"goto": t.start_path})
        oracle += [_dump(s) for s in t.oracle if s.kind != "done"]
        solution += [_dump(s) for s in t.solution if s.done is None]
        first = len(checkpoints)
        if t.checkpoints:
            for c in t.checkpoints:
                d = _dump(c)
                d["name"] = f"{short}-{c.name}"
                d["after"] = [f"{short}-{a}" for a in c.after]
                checkpoints.append(d)
        part_gates = [{k: v for k, v in spec.items() if k != "gate"} for spec in t.checks if spec.get("gate")]
        main = [{k: v for k, v in spec.items() if k != "gate"} for spec in t.checks if not spec.get("gate")]
        criteria = [c for c in t.rubric if c.check is not None]
        if t.checkpoints:
            pass
        elif criteria:
            for n, c in enumerate(criteria, 1):
                checkpoints.append({"name": f"{short}-{n}", "title": c.name, "weight": c.weight,
                                    "checks": [{**c.check, "name": c.name}]})
            if main:
                checkpoints.append({"name": f"{short}-done", "title": f"{t.title}: all of it, as asked",
                                    "checks": main, "after": [f"{short}-{n}" for n in range(1, len(criteria) + 1)]})
        else:
            for n, spec in enumerate(main, 1):
                checkpoints.append({"name": f"{short}-{n}", "title": str(spec.get("name") or f"{short} {n}"),
                                    "checks": [spec]})
        # The part's gates stay gates (breaking one zeroes the day), bound to the part: a rule that
        # needs the part's work to hold (no bar date left at the draft date) binds once the part is
        # started, so a day stopped before that part isn't zeroed by it (harness.verify).
        for d in checkpoints[first:]:              # blanks it fills: work in progress until it's reached
            d["progress"] = list(dict.fromkeys([*d.get("progress", []), *t.progress]))
            if not d["progress"]:
                d.pop("progress")
        names = [d["name"] for d in checkpoints[first:]]
        gates += [{**g, "gate": True, "binds": names} for g in part_gates]
        allow += [dict(q) for q in t.allow]
        coworkers += [c for c in t.coworkers if c not in coworkers]
        apps += [a for a in t.apps if a not in apps]
        for a in t.adversaries:
            if a.base == "solution" or a.expect == "fail":
                d = _dump(a)
                d["name"] = f"{short}:{a.name}"
                if d.get("clause") and d["clause"].lower() not in said:
                    d.pop("clause")                   # it quotes the part's prompt, which this one words otherwise
                adversaries.append(d)
    out["oracle"] = list(prelude.get("oracle") or []) + oracle + list(raw.get("oracle") or [{"done": {}}])
    out["solution"] = list(prelude.get("solution") or []) + solution + list(raw.get("solution") or [{"done": {}}])
    out["checkpoints"] = checkpoints + list(raw.get("checkpoints") or [])
    out["checks"] = gates + list(raw.get("checks") or [])
    out["allow"] = allow + list(raw.get("allow") or [])
    out["coworkers"] = coworkers + [c for c in raw.get("coworkers") or [] if c not in coworkers]
    out["apps"] = [*apps, *[a for a in raw.get("apps") or [] if a not in apps]]
    own = list(raw.get("adversaries") or [])
    restated = {a.get("name") for a in own if isinstance(a, dict)}
    out["adversaries"] = [a for a in adversaries if a["name"] not in restated] + own
    return out
