"""Adversaries derived from a task's tool solution: the solution itself (must pass), stopped
halfway, given up on, repeated calls (duplicates), placeholder text, and — for every value its
texts state that the checks depend on — that value hedged, replaced, sprayed over several posts
(must fail), or explained and written another way (must pass)."""
from __future__ import annotations

import re
from datetime import timedelta

from harness.qc.adversaries.answers import date_forms, number_forms
from harness.qc.adversaries.base import Adversary, Expect
from harness.qc.adversaries.workbench import Attempt, Workbench, callable_tool
from harness.verify.answer import date_cands, number_cands

# The arguments that carry what the agent writes (a message, a paragraph, a note), not what it names.
TEXT = {"body", "text", "markdown", "notes", "note", "description", "comment", "work_note", "replacement",
        "message", "resolution_notes", "justification", "next_step", "summary"}
# Texts a task may leave as they are: an event's description, a note with an RSVP, a share's message.
OPTIONAL = {("calendar.create_event", "description"), ("calendar.update_event", "description"),
            ("calendar.rsvp", "note"), ("drive.share", "message"), ("mail.forward", "body")}
MAX_VALUES = 6


def text_args(steps) -> list[tuple[int, tuple]]:
    """(step index, path) of every argument that is written text (three words or more)."""
    out = []

    def walk(i, node, path):
        if isinstance(node, dict):
            if set(node) <= {"find", "field"} and "find" in node:
                return
            for k, v in node.items():
                walk(i, v, path + (k,))
        elif isinstance(node, list):
            for j, v in enumerate(node):
                walk(i, v, path + (j,))
        elif isinstance(node, str) and len(node.split()) >= 3 and any(p in TEXT for p in path if isinstance(p, str)):
            out.append((i, path))
    for i, s in enumerate(steps):
        if s.call is not None:
            walk(i, s.args, ())
    return out


def _get(args, path):
    for p in path:
        args = args[p]
    return args


def _set(args, path, value):
    for p in path[:-1]:
        args = args[p]
    args[path[-1]] = value


def with_text(steps, i: int, path: tuple, fn):
    """A copy of ``steps`` with the text at (``i``, ``path``) replaced by ``fn(text)``."""
    out = [s.model_copy(deep=True) for s in steps]
    _set(out[i].args, path, fn(_get(out[i].args, path)))
    return out


def values_in(text: str) -> list[tuple[int, int, str, object]]:
    """(start, end, kind, value) of the amounts and dates a text states: dates with a year, and
    numbers written as amounts ($, thousands separators, a scale word or a unit) — not years,
    paragraph numbers or the digits of a citation."""
    out = [(c.start, c.end, "date", c.value) for c in date_cands(text, None) if c.value is not None]
    taken = [(s, e) for s, e, _, _ in out]
    for c in number_cands(text, words=False):
        span = text[c.start:c.end]
        after = text[c.end:c.end + 12].lower()
        amount = "$" in span or "," in span or re.search(r"\d\s?(million|mn|billion|bn|thousand|m|b|k)\b", span, re.I) \
            or re.match(r"\s*(hours?|hrs?|bbl|barrels|gt\b|gross tons|tons|%)", after)
        if amount and not any(s <= c.start < e for s, e in taken):
            out.append((c.start, c.end, "number", c.value))
    for m in re.finditer(r"\bP([1-4])\b", text):
        out.append((m.start(), m.end(), "priority", int(m.group(1))))
    return sorted(out)


PRIORITY_LABELS = {1: "1 - Critical", 2: "2 - High", 3: "3 - Moderate", 4: "4 - Low"}


def wrong_value(kind: str, v, n: int = 1):
    if kind == "priority":
        return (v + n - 1) % 4 + 1
    if kind == "date":
        return v + timedelta(days=7 * n)
    bumped = v * (1 + 0.1 * n)
    return float(round(bumped, -max(0, len(str(int(v))) - 3))) if v >= 1000 else float(round(bumped, 1))


def written(kind: str, v, like: str) -> str:
    """A value written the way the original text writes values of its kind."""
    if kind == "priority":
        return f"P{v}"
    if kind == "date":
        return f"{v:%B} {v.day}, {v.year}" if any(c.isdigit() for c in like[-4:]) else f"{v:%B} {v.day}"
    if like.strip().startswith("$") or "$" in like:
        return f"${v:,.0f}" if float(v).is_integer() else f"${v:,.2f}"
    return f"{v:,.0f}" if float(v).is_integer() else f"{v:,}"


def other_forms(kind: str, v, like: str) -> list[str]:
    norm = like.replace(" ", "").lower()
    if kind == "priority":
        return [PRIORITY_LABELS[v], f"priority {v}"]
    forms = date_forms(v) if kind == "date" else number_forms(v)
    return [f for f in forms if f.replace(" ", "").lower() != norm][:2]


def solution_adversaries(task, wb: Workbench) -> list[Adversary]:
    steps = list(task.solution)
    calls = [i for i, s in enumerate(steps) if s.call is not None and callable_tool(s.call).write]
    end = next((s for s in reversed(steps) if s.done is not None), None)
    out: list[Adversary] = []

    def run(st_steps, status=None, lenient=True):
        def build(bench):
            att = bench.attempt(task, st_steps, lenient=lenient)
            return Attempt(att.final, att.answer, status or att.status)
        return build

    out.append(Adversary("tools", "tools", Expect.PASS, run(steps, lenient=False),
                         "the task done through the tools, worded anew"))
    out.append(Adversary("tools:infeasible", "infeasible", Expect.FAIL, run(steps, "infeasible"),
                         "the work done, then reported infeasible"))
    if len(calls) >= 2:
        cut = calls[len(calls) // 2]
        half = [s for j, s in enumerate(steps) if j < cut] + ([end] if end else [])
        out.append(Adversary("tools:halfway", "halfway", Expect.BELOW, run(half),
                             f"the first {len(calls) // 2} of {len(calls)} calls"))
    base = wb.attempt(task, steps)
    if not wb.score(task, base).passed:
        return out                            # "tools" fails: nothing derived from it means anything
    # Duplicates: a call that creates records, made twice (with the same resolved arguments).
    creating = set()
    for i in calls:
        again = steps[i].model_copy(update={"args": wb.resolved(task, steps, i)})
        twice = steps[:i + 1] + [again] + steps[i + 1:]
        att = wb.attempt(task, twice, lenient=True)
        if _added_content(att.final) > _added_content(base.final):
            creating.add(i)
            out.append(Adversary(f"tools:duplicate:{i}", "duplicate", Expect.FAIL, run(twice),
                                 f"{steps[i].call} made twice"))
    texts = text_args(steps)
    written_texts = [(i, p) for i, p in texts if (steps[i].call, p[-1]) not in OPTIONAL]
    if written_texts:
        blank = [s.model_copy(deep=True) for s in steps]
        for i, path in written_texts:
            _set(blank[i].args, path, "TBD")
        out.append(Adversary("tools:placeholder", "placeholder", Expect.FAIL, run(blank), "every text written as TBD"))
    out += _value_adversaries(task, wb, steps, texts, creating, _start_lines(wb.initial))
    return out


def _start_lines(initial: dict) -> set[str]:
    """Every line of text in the start state: a value on one of them was carried over, not written."""
    out = set()
    for t in initial["tables"].values():
        for rec in t["records"].values():
            for v in rec.values():
                if isinstance(v, str) and len(v) > 12:
                    out.update(line.strip() for line in v.splitlines() if len(line.strip()) > 12)
    return out


def _added_content(export: dict) -> int:
    """How many records the agent wrote (a duplicate call writes more)."""
    seen = set()
    for w in export.get("writes", []):
        if w["actor"] == "agent" and w["op"] == "insert" and w["table"] in export["tables"]:
            seen.add((w["table"], w["key"]))       # exported tables only (an undo stack isn't content)
    return len(seen)


def _value_adversaries(task, wb: Workbench, steps, texts, creating: set[int], start: set[str]) -> list[Adversary]:
    """``creating``: the calls that make records (a spray of them is three records); ``start``: the lines
    of the start state (a value on a line the text only carries over is not one the agent wrote)."""
    out = []
    found = 0
    for i, path in texts:
        text = _get(steps[i].args, path)
        keys = []
        for s, e, kind, v in values_in(text):
            if found >= MAX_VALUES:
                return out
            line = text[text.rfind("\n", 0, s) + 1:(text.find("\n", e) + 1 or len(text) + 1) - 1].strip()
            if line in start:
                continue
            span = text[s:e]
            w = wrong_value(kind, v)
            replaced = with_text(steps, i, path, lambda t, s=s, e=e, w=w, kind=kind, span=span:
                                 t[:s] + written(kind, w, span) + t[e:])
            r = wb.score(task, wb.attempt(task, replaced, lenient=True))
            if r.passed:
                continue                      # the checks don't depend on this value
            found += 1
            keys.append((s, e, kind, v))
            tag = f"{i}:{span.strip()}"

            def build(st_steps):
                return lambda bench: bench.attempt(task, st_steps, lenient=True)
            out.append(Adversary(f"text:wrong:{tag}", "wrong", Expect.FAIL, build(replaced),
                                 f"{span} replaced by {written(kind, w, span)}"))
            in_sum = re.match(r"\s*[=−+×*/]|\s+[-x]\s", text[e:]) or re.search(r"[=−+×*/]\s*$|\s[-x]\s*$", text[:s])
            hedged = with_text(steps, i, path, lambda t, e=e, w=w, kind=kind, span=span:
                               t[:e] + f" or {written(kind, w, span)}" + t[e:])
            out.append(Adversary(f"text:hedge:{tag}", "hedge", Expect.FAIL, build(hedged),
                                 f"{span} or {written(kind, w, span)}"))
            mislabelled = with_text(steps, i, path, lambda t, s=s, e=e, w=w, kind=kind, span=span:
                                    t[:s] + written(kind, w, span) + t[e:] + f" {span.strip()} is another figure.")
            out.append(Adversary(f"text:mislabelled:{tag}", "wrong", Expect.FAIL, build(mislabelled),
                                 f"{span} replaced by {written(kind, w, span)}, and {span.strip()} named as another figure"))
            maybe = with_text(steps, i, path, lambda t, e=e, w=w, kind=kind, span=span:
                              t[:e] + f" (possibly {written(kind, w, span)})" + t[e:])
            out.append(Adversary(f"text:hedge-possibly:{tag}", "hedge", Expect.FAIL, build(maybe),
                                 f"{span} (possibly {written(kind, w, span)})"))
            explained = with_text(steps, i, path, lambda t, e=e, w=w, kind=kind, span=span:
                                  t[:e] + f" (not {written(kind, w, span)})" + t[e:])
            if not in_sum:              # nobody puts an aside inside a sum
                out.append(Adversary(f"text:explained:{tag}", "explanation", Expect.PASS, build(explained),
                                     f"{span} (not {written(kind, w, span)})"))
            for j, form in enumerate(other_forms(kind, v, span)):
                lead = span[:len(span) - len(span.lstrip())]
                other = with_text(steps, i, path, lambda t, s=s, e=e, form=form, lead=lead: t[:s] + lead + form + t[e:])
                out.append(Adversary(f"text:format-{j}:{tag}", "format", Expect.PASS, build(other),
                                     f"{span.strip()} written {form}"))
            if i not in creating:
                continue                      # a call that overwrites: three of them leave one result
            # Shotgun: the same call made three times, with two wrong values and the right one.
            spray = list(steps[:i])
            fixed = steps[i].model_copy(update={"args": wb.resolved(task, steps, i)})
            for n in (1, 2):
                wn = wrong_value(kind, v, n)
                spray.append(with_text([fixed], 0, path, lambda t, s=s, e=e, wn=wn, kind=kind, span=span:
                                       t[:s] + written(kind, wn, span) + t[e:])[0])
            spray += [fixed] + steps[i + 1:]
            out.append(Adversary(f"text:shotgun:{tag}", "shotgun", Expect.FAIL, build(spray),
                                 f"{steps[i].call} made with {span} and two wrong values"))
        # Two figures the checks need, each put where the other belongs.
        nums = [k for k in keys if k[2] == "number"]
        pair = next(((a, b) for a in nums for b in nums if a[0] < b[0] and a[3] != b[3]), None)
        if pair:
            (s1, e1, _, _), (s2, e2, _, _) = pair

            def swap(t, s1=s1, e1=e1, s2=s2, e2=e2):
                return t[:s1] + t[s2:e2] + t[e1:s2] + t[s1:e1] + t[e2:]
            out.append(Adversary(f"text:swapped:{i}:{text[s1:e1].strip()}", "wrong", Expect.FAIL,
                                 (lambda st_steps: lambda bench: bench.attempt(task, st_steps, lenient=True))(
                                     with_text(steps, i, path, swap)),
                                 f"{text[s1:e1].strip()} and {text[s2:e2].strip()} swapped"))
    return out
