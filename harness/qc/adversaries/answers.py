"""Adversaries against a task's answer: hedges, shotguns, ranges, memorised answers of other tasks,
junk and giving up must fail; the value with a short explanation, in another format, or without
the ``ANSWER:`` marker must pass."""
from __future__ import annotations

import re
from datetime import date, timedelta
from decimal import Decimal

from harness.qc.adversaries.base import Adversary, Expect
from harness.qc.adversaries.workbench import Attempt
from harness.verify.answer import comparable, id_shape, name_like, within
from harness.verify.dates import parse_date


def _money(v: float) -> str:
    return f"${v:,.0f}" if float(v).is_integer() else f"${v:,.2f}"


def number_forms(v: float) -> list[str]:
    plain = f"{v:,.0f}" if float(v).is_integer() else f"{v:,.2f}"
    out = [plain, _money(v), f"USD {plain}"]
    if float(v).is_integer():
        out.append(str(int(v)))
    if v >= 1e6 and (v / 1e6) == round(v / 1e6, 3):
        out += [f"${_decimal(v, 6)} million", f"${_decimal(v, 6)}M"]
    elif v >= 1e4 and (v / 1e3) == round(v / 1e3, 2):
        out.append(f"${_decimal(v, 3)}k")
    return list(dict.fromkeys(out))


def _decimal(v: float, places: int) -> str:
    """``v`` ÷ 10^places, every digit kept (1,234,567,000 → ``1234.567`` millions, not ``1234.57``)."""
    return format((Decimal(str(v)) / (Decimal(10) ** places)).normalize(), "f")


def date_forms(d: date) -> list[str]:
    return [d.isoformat(), f"{d:%B} {d.day}, {d.year}", f"{d.day} {d:%B} {d.year}", f"{d.month}/{d.day}/{d.year}",
            f"{d:%a}, {d:%b} {d.day}, {d.year}", f"{d:%B} {d.day}"]


def _id_title(initial: dict, value: str) -> str | None:
    """The title of the record whose id is ``value`` (a KB article, an incident), for "ID – title"."""
    for t in initial["tables"].values():
        for rec in t["records"].values():
            if any(isinstance(v, str) and v.strip().lower() == value.lower() for v in rec.values()):
                for f in ("title", "short_description", "name", "subject"):
                    if isinstance(rec.get(f), str) and rec[f].strip() and rec[f].strip().lower() != value.lower():
                        return rec[f].strip()
    return None


def _person_title(initial: dict, name: str) -> str | None:
    for p in initial["tables"].get("people", {}).get("records", {}).values():
        if p.get("name") == name and p.get("title"):
            return p["title"]
    return None


def string_forms(initial: dict, value: str) -> list[str]:
    out = [value.upper(), f"{value}."]
    if id_shape(value) is not None:
        title = _id_title(initial, value)
        if title:
            out += [f"{value} – {title}", f'{value} ("{title}")']
    elif name_like(value):
        title = _person_title(initial, value)
        if title:
            out.append(f"{value} ({title})")
    return out


def competitors(kind: str, expected, others: list, tolerance: float = 0) -> list:
    """Wrong values of the answer's kind: other tasks' answers first, then near misses. A number within the
    answer's tolerance is not wrong (another variant's 10.8 is right for this one's 10.7717 ± 0.05)."""
    out = [o for o in others if o != expected]
    if kind == "number":
        v = float(expected)
        out += [round(v * 1.1), v + (10 ** max(0, len(str(int(v))) - 2))]
        out = [float(o) for o in out if _is_num(o) and not within(float(o), v, tolerance)]
    elif kind == "date":
        d = parse_date(str(expected))
        out = [parse_date(str(o)) for o in out] + [d + timedelta(days=7), d - timedelta(days=1)]
        out = [o for o in out if o is not None and o != d]
    elif kind == "string":
        if id_shape(str(expected)) is not None:
            bumped = re.sub(r"\d(?=\D*$)", lambda m: str((int(m.group(0)) + 1) % 10), str(expected))
            out.append(bumped)
        out = [str(o) for o in out if str(o).strip().lower() != str(expected).strip().lower()]
    return list(dict.fromkeys(out))


def _is_num(v) -> bool:
    try:
        float(v)
        return True
    except (TypeError, ValueError):
        return False


def show(kind: str, v) -> str:
    if kind == "number":
        return _money(float(v)) if abs(float(v)) >= 100 else f"{float(v):g}"
    if kind == "date":
        d = v if isinstance(v, date) else parse_date(str(v))
        return f"{d:%B} {d.day}, {d.year}"
    return str(v)


def answer_adversaries(task, expected, initial: dict, others: list, base=None) -> list[Adversary]:
    """``others``: expected answers of the world's other tasks of the same type; ``base(wb)`` makes the
    end state the answer is given on (the tool solution's, or the start)."""
    spec = task.answer
    kind = spec.type

    def with_answer(text: str, status: str = "complete"):
        def build(wb):
            att = base(wb) if base else Attempt(wb.initial)
            return Attempt(att.final, text, status)
        return build

    out: list[Adversary] = []

    def add(name, k, expect, text, status="complete", note=""):
        out.append(Adversary(f"answer:{name}", k, expect, with_answer(text, status), note or text))

    if kind == "set":
        vals = list(spec.values)
        shape = id_shape(vals[0])
        extra = re.sub(r"\d", lambda m: str((int(m.group(0)) + 2) % 10), vals[-1]) if shape else "something else"
        add("set-reordered", "format", Expect.PASS, "ANSWER: " + " and ".join(reversed(vals)))
        add("set-bullets", "format", Expect.PASS, "ANSWER:\n" + "\n".join(f"- {v}" for v in vals))
        add("set-excluded-extra", "explanation", Expect.PASS, f"ANSWER: {', '.join(vals)} (not {extra})")
        add("set-missing", "wrong", Expect.FAIL, f"ANSWER: {', '.join(vals[:-1]) or 'none'}")
        add("set-extra", "shotgun", Expect.FAIL, f"ANSWER: {', '.join(vals + [extra])}")
        add("set-hedge", "hedge", Expect.FAIL, f"ANSWER: {', '.join(vals)} or {extra}")
        add("set-possibly", "hedge", Expect.FAIL, f"ANSWER: {', '.join(vals)}, and possibly {extra}")
        add("set-spaces-extra", "shotgun", Expect.FAIL, "ANSWER: " + " ".join(vals + [extra]))
        add("set-also", "shotgun", Expect.FAIL, f"ANSWER: {' and '.join(vals)} (also {extra})")
    else:
        e = show(kind, expected)
        ws = [show(kind, w) for w in competitors(kind, expected, others, spec.tolerance or 0)]
        w, w2 = (ws + ws)[:2] if ws else ("something else", "another")
        add("hedge-or", "hedge", Expect.FAIL, f"ANSWER: {e} or {w}")
        add("hedge-conditional", "hedge", Expect.FAIL, f"ANSWER: {e} — or {w} if the other reading applies")
        add("hedge-unsure", "hedge", Expect.FAIL, f"ANSWER: {e}, though I'm not sure whether it is {e} or {w}.")
        add("shotgun", "shotgun", Expect.FAIL, f"ANSWER: {w}; {e}; {w2}")
        add("wrong", "wrong", Expect.FAIL, f"ANSWER: {w}")
        add("conditional", "hedge", Expect.FAIL, f"ANSWER: {e} if the later document governs; {w} if the earlier one does")
        add("two-markers", "hedge", Expect.FAIL, f"ANSWER: {w} (on the first reading)\nANSWER: {e} (on the second reading)")
        add("could-be", "hedge", Expect.FAIL, f"ANSWER: {e} (could be {w})")
        add("but-other", "hedge", Expect.FAIL, f"ANSWER: {e} — but {w} on the other side's figures")
        add("guess", "hedge", Expect.FAIL, f"ANSWER: {e}? I think so, but I'm guessing")
        add("correction", "explanation", Expect.PASS, f"ANSWER: {w}\n\nWait — that's the wrong figure; correcting it.\n\nANSWER: {e}")
        if kind == "number":
            v = float(expected)
            lo, hi = show(kind, v * 0.99), show(kind, v * 1.01)
            add("range", "hedge", Expect.FAIL, f"ANSWER: between {lo} and {hi}")
            add("contains-digits", "wrong", Expect.FAIL, f"ANSWER: {show(kind, float('1' + str(int(v))))}")
            add("at-least", "hedge", Expect.FAIL, f"ANSWER: at least {e}")
            add("negative", "wrong", Expect.FAIL, f"ANSWER: -{e}")
            unit = spec.unit
            if unit:
                # rivals of the answer's own order (a list of multiples, not a multiple beside dollar amounts)
                us = [show(kind, x) for x in competitors(kind, expected, others, spec.tolerance or 0) if comparable(float(x), v)]
                u, u2 = (us + us)[:2] if us else (w, w2)
                add("unit-list", "shotgun", Expect.FAIL, f"ANSWER: {e} {unit}; {u} {unit}; {u2} {unit}")
                other = {"bbl": "litres", "barrels": "litres", "gt": "DWT", "per gross ton": "per net ton"}.get(
                    unit.lower(), "DWT" if "gross" in unit.lower() else None)
                if other:
                    add("other-unit", "wrong", Expect.FAIL, f"ANSWER: {f'{v:,.0f}'} {other}")
                if unit.lower() == "x":
                    add("as-percent", "wrong", Expect.FAIL, f"ANSWER: {e}%")
            if spec.exact:
                add("approximately", "hedge", Expect.FAIL, f"ANSWER: approximately {e}")
                add("roughly-then-exact", "explanation", Expect.PASS, f"Roughly {e} — exactly: ANSWER: {e}")
            for i, f in enumerate(number_forms(v)):
                add(f"format-{i}", "format", Expect.PASS, f"ANSWER: {f}")
        if kind == "date":
            d = parse_date(str(expected))
            add("range", "hedge", Expect.FAIL, f"ANSWER: {d:%B} {d.day}–{(d + timedelta(days=3)).day}, {d.year}")
            for i, f in enumerate(date_forms(d)):
                add(f"format-{i}", "format", Expect.PASS, f"ANSWER: {f}")
        if kind == "string":
            for i, f in enumerate(string_forms(initial, str(expected))):
                add(f"format-{i}", "format", Expect.PASS, f"ANSWER: {f}")
            add("also-other", "hedge", Expect.FAIL, f"ANSWER: {e} (also {w})")
            add("other-first", "wrong", Expect.FAIL, f"ANSWER: {w} (see {e})")
        add("explained-not", "explanation", Expect.PASS, f"ANSWER: {e} (not {w})")
        add("explained-after", "explanation", Expect.PASS, f"ANSWER: {e}. The other figure, {w}, is superseded.")
        add("no-marker", "format", Expect.PASS, f"The answer is {e}.")
        add("reasoning-first", "format", Expect.PASS, f"I checked the documents; {w} is the wrong one.\n\nANSWER: {e}")
        for i, m in enumerate(ws[:4]):
            add(f"memorised-{i}", "memorised", Expect.FAIL, f"ANSWER: {m}")
    add("junk-na", "junk", Expect.FAIL, "ANSWER: N/A")
    add("junk-dunno", "junk", Expect.FAIL, "I don't know.")
    right = f"ANSWER: {', '.join(spec.values)}" if kind == "set" else f"ANSWER: {show(kind, expected)}"
    add("infeasible", "infeasible", Expect.FAIL, right, status="infeasible")
    return out
