"""Typed matching of the agent's final answer, as a person reads it (worlds/README.md).

- The answer is what follows the last ``ANSWER:`` (any case; "Final answer:" too),
  or the whole final message when there is none. Unicode is NFKC-normalised,
  markdown emphasis dropped.
- The expected value must be stated, and nothing may compete with it: a value
  followed by an explanation matches ("17,950 barrels (not 18,400)",
  "$8,760,000 ($160.6M − $151.84M)", "58,400 × $2,750 = $160,600,000"); a
  hedge fails — another candidate offered as an alternative ("… or nil if …",
  "between $8.7M and $8.8M", "17,950–18,400", "either … or …", a bare list of
  values, "possibly …", "I'm not sure whether …").
- Numbers lose currency signs, codes and separators and understand
  million/M/bn/k; a number that merely contains the digits is another number;
  an amount in another currency (€, EUR, "euros") is never a dollar figure.
- Asked to N decimals (``decimals``), a figure passes when it rounds right and, written to more
  decimals, is right to them ("11.07" for 11.0667; not "11.03").
- After ``ANSWER:`` a number answer is the figure it leads with: the result of
  its working ("58,400 × $2,750 = $160,600,000") or its first figure before a
  bracket, semicolon or sentence end; a different figure of the same order
  there fails ("$420m (Rheinwerk's $423.75m needs sign-off)").
- Dates are read in any common format (en-US first: 4/5 is April 5); a date
  without a year takes the year that puts it nearest the world clock.
- Names match with titles and honorifics ("Judge Rourke" for Imelda Rourke);
  ids match with their titles ("KB0001207 – Backfill after …").
- Sets: every expected item and nothing else, any order or separator; an item
  explicitly excluded ("(not 5S)", "(… are closed)") is not an extra.

``states(text, kind, value)`` applies the same reading to a message or a cell
a check looks at (the ``says`` condition), without the ``ANSWER:`` split.

This module is the API of answer matching: ``match_answer``, ``states``, ``states_by_label`` and
the matcher of each kind; the reading they share — normalising, candidates, what competes — is
``harness.verify.reading``, and the parts of it a world's checks build on are exported here too
(``__all__``).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

from harness.verify.dates import parse_date
from harness.verify.reading import (CLAUSE_END, CONDITIONAL, HEDGE_WORDS, HONORIFICS, NEGATION, Cand, Foreign,
                                    answer_text, clause, competes, date_cands, earlier_answers, format_number,
                                    id_shape, name_like, negated, normalise, number_cands, numbers_in, phrase_hits,
                                    Figure, show_value, stated_alone, title_hits, tokens, withdrawn)

__all__ = [
    # matching
    "AnswerResult", "match_answer", "states", "states_by_label", "within", "comparable", "approximate",
    # the reading a world's checks build on (harness.verify.reading)
    "CLAUSE_END", "NEGATION", "Cand", "answer_text", "clause", "competes", "date_cands", "id_shape", "name_like",
    "negated", "normalise", "number_cands", "numbers_in", "phrase_hits", "show_value",
]

JUNK = {"", "n/a", "na", "none", "null", "unknown", "-", "?", "i don't know", "idk", "tbd", "tbc"}
# Units an answer may carry, by what they measure: one of another kind than the task's is another quantity.
UNITS = {"bbl": "bbl", "barrel": "bbl", "barrels": "bbl", "litres": "l", "liters": "l", "litre": "l", "liter": "l",
         "gallons": "gal", "gal": "gal", "m3": "m3", "tonnes": "t", "t": "t", "metric": "t", "mt": "t", "gt": "gt",
         "gross": "gt", "nt": "nt",
         "net": "nt", "dwt": "dwt", "deadweight": "dwt",
         "x": "x", "times": "x", "%": "%", "percent": "%", "pct": "%"}   # a multiple is not a percentage
@dataclass
class AnswerResult:
    passed: bool
    expected: str
    found: str

    def line(self) -> str:
        mark = "✓" if self.passed else "✗"
        return f"{mark} answer: expected {self.expected}; found {self.found}"


def within(value: float, expected: float, tolerance: float) -> bool:
    """|value − expected| ≤ tolerance, a tolerance's own edge included: 423.8 is within 0.05 of 423.75 though
    the floats differ by 0.0500000000000114."""
    return abs(value - expected) <= tolerance + 1e-9 + 1e-12 * abs(expected)


# A label that puts the figures in thousands: "401,548 ($000s)", "$000s 401,548", "in thousands".
THOUSANDS = re.compile(r"\$\s?000s?\b|\(000s?\)|'000s?\b|\bin thousands\b|\bUSD\s?000s?\b", re.I)


def _number(text: str, expected: float, tolerance: float, unit: str | None = None,
            scale: float | None = None, precise: bool = False) -> tuple[bool, str]:
    cands = [_thousands(text, c) if scale and scale > 1000 and _labelled_thousands(text, c) else _in_scale(text, c, scale)
             for c in number_cands(text)]
    if unit:
        word = re.sub(r"^per\s+", "", unit.lower()).split()[0]
        kind = UNITS.get(word, UNITS.get(word.rstrip("s")))
        for c in cands:
            m = re.match(r"\s*(?:per\s+)?(%|[a-z0-9]+)", text[c.end:c.end + 16], re.I)
            said = UNITS.get(m.group(1).lower()) if m else None
            if kind and said and said != kind and within(c.value, expected, tolerance):
                return False, f"{show_value(c.value)} {m.group(1)}: another quantity than {unit}"
    held = (lambda v: stated(v, tolerance)) if precise else (lambda v: tolerance)
    return stated_alone(text, cands, lambda v: not isinstance(v, Foreign) and within(v, expected, held(v)))


def stated(v: float, tolerance: float) -> float:
    """The tolerance a figure is held to: the task's, or less when the figure is written more precisely —
    "11.03" claims two decimals, so it must be right to two (11.0667 ± 0.05 takes "11.1" and "11.07",
    not "11.03")."""
    half = getattr(v, "half", None)
    return min(tolerance, half) if half is not None else tolerance


SCALED = re.compile(r"\d\s?(million|mn|mm|billion|bn|thousand|m|b|k)\b", re.I)


def _in_scale(text: str, c: Cand, scale: float | None) -> Cand:
    """Asked in $m: "401.5" is $401.5m; "$401,548,000" and "$401.5m" are read as written."""
    if scale and isinstance(c.value, float) and not isinstance(c.value, Foreign) and 0 < abs(c.value) < scale \
            and not SCALED.search(text[c.start:c.end]):
        half = getattr(c.value, "half", None)
        return Cand(c.start, c.end, Figure(c.value * scale, half * scale) if half is not None else c.value * scale)
    return c


def _labelled_thousands(text: str, c: Cand) -> bool:
    """"401,548 ($000s)", "$000s 401,548": a thousands label right by the figure (not a note elsewhere
    that the model is in $000s, and not when the answer also says $m or million)."""
    near = text[max(0, c.start - 10):c.end + 12]
    return THOUSANDS.search(near) is not None and not re.search(r"(?i)\$\s?m\b|\bmillion\b|\bmn\b", text)


def _thousands(text: str, c: Cand) -> Cand:
    """Under a "$000s" label a bare figure is in thousands: "401,548 ($000s)" is $401,548,000."""
    if isinstance(c.value, float) and not isinstance(c.value, Foreign) and not SCALED.search(text[c.start:c.end]):
        half = getattr(c.value, "half", None)
        return Cand(c.start, c.end, Figure(c.value * 1000, half * 1000) if half is not None else c.value * 1000)
    return c


def org_forms(name: str) -> list[str]:
    """How people write an organisation's name: in full, and by its first one or two words ("Kestrel",
    "Granite Harbor" for Granite Harbor Partners)."""
    words = name.replace(",", " ").split()
    forms = [name]
    if len(words) >= 3:
        forms.append(" ".join(words[:2]))
    if len(words) >= 2 and len(words[0]) > 3 and words[0][0].isupper() and words[0].lower() not in {"the", "first"}:
        forms.append(words[0])
    return forms


def _string(text: str, value: str, aliases: list[str], names: list[str], orgs: list[str] = ()) -> tuple[bool, str]:
    accepted = [value, *aliases]
    low = {a.lower() for a in accepted}
    mine = [o for o in orgs if low & {f.lower() for f in org_forms(o)}]
    person = name_like(value) and not mine          # "Granite Harbor" is a firm, not a person
    if person:                     # "Rourke, Imelda" and "Imelda M. Rourke" are her too
        first, last = value.split()[0], value.split()[-1]
        accepted += [f"{last}, {first}"]
        for m in re.finditer(rf"\b{re.escape(first)}\s+[A-Z]\.?\s+{re.escape(last)}\b", text):
            accepted.append(m.group(0))
    hits = [h for a in accepted for h in phrase_hits(text, a)]
    if person:
        hits += title_hits(text, value)
    hits.sort(key=lambda c: c.start)
    if not hits:
        return False, repr(text[:120])
    # Other candidates of the same kind.
    others: list[Cand] = []
    shape = id_shape(value)
    if shape is not None:
        for m in shape.finditer(text):
            if not any(h.start <= m.start() < h.end for h in hits):
                others.append(Cand(m.start(), m.end(), m.group(0)))
    elif person:
        for n in names:
            if n.lower() in {a.lower() for a in accepted}:
                continue
            for c in phrase_hits(text, n) + (title_hits(text, n) if name_like(n) else []):
                if not any(h.start <= c.start < h.end for h in hits):
                    others.append(c)
        # Names outside the directory joined to the answer ("Imelda Rourke, Harold Abernathy").
        firms = {f.lower() for o in orgs for f in org_forms(o)}
        for m in re.finditer(r"(?:\b(?:Judge|Hon\.?|Dr\.?|Mr\.?|Ms\.?|Mrs\.?)\s+)?\b[A-Z][a-z'’-]+(?:\s+[A-Z]\.)?\s+[A-Z][a-z'’-]+\b"
                             r"(?!\s+[A-Z&])", text):
            if m.group(0).lower() in firms:                  # "Elise Monroe, Granite Harbor": her firm, not a person
                continue
            if all(w.lower().rstrip(".") in HONORIFICS for w in m.group(0).split()) \
                    or re.search(r"[A-Z][\w&'’-]*\s+$", text[:m.start()]) \
                    or re.search(r"\b(Court|LLP|Inc|Ltd|Group|Association|Board|Department|Office|Services|Bank|"
                                 r"Notice|Report|Register|Act|Council|Authority)$", m.group(0)):
                continue
            if not any(h.start <= m.start() < h.end or m.start() <= h.start < m.end() for h in hits) \
                    and not any(o.start == m.start() for o in others):
                others.append(Cand(m.start(), m.end(), m.group(0)))
    else:
        # Another organisation of the world named beside it ("Granite Harbor, Kestrel") competes with it.
        if mine:
            taken = {f.lower() for o in mine for f in org_forms(o)}
            for o in orgs:
                if o in mine:
                    continue
                for f in org_forms(o):
                    if f.lower() in taken:
                        continue
                    for c in phrase_hits(text, f):
                        if not any(h.start <= c.start < h.end or c.start <= h.start < c.end for h in hits + others):
                            others.append(c)
        # A capitalised word joined to the answer by "and", "or", "," or "/" competes with it.
        for h in hits:
            # (past a bracketed aside too: "Logistics ($1.32M), Fintech ($1.1M)" names two)
            after = re.match(r"\s*(?:\([^()]*\)\s*)?(,|;|/|&|\band\b|\bor\b)\s+(?:maybe\s+|possibly\s+)?([A-Z][\w&.'’-]*)",
                             text[h.end:])
            before = re.search(r"([A-Z][\w&.'’-]*)\s*(?:\([^()]*\)\s*)?(,|;|/|&|\band\b|\bor\b)\s*$", text[:h.start])
            for m, pos in ((after, h.end + (after.start(2) if after else 0)), (before, before.start(1) if before else 0)):
                if m:
                    others.append(Cand(pos, pos + len(m.group(2) if m is after else m.group(1)), m.group(0).strip()))
    # A list of short candidates ("Wei Zhang; KB0001207; Tidewatch"): a shotgun, whatever their kind.
    items = [i.strip(" .") for i in re.split(r";|\n|\s/\s", text) if i.strip(" .")]
    if len(items) > 1:
        for item in items:
            if not any(phrase_hits(item, a) for a in accepted) and len(item.split()) <= 3 \
                    and re.match(r"[-•*\s]*[A-Z0-9]", item) and not NEGATION.search(item):
                return False, f"a hedge (a list of candidates: {item!r}) in {text[:120]!r}"
    others.sort(key=lambda c: c.start)
    cands = sorted(hits + others, key=lambda c: c.start)
    for o in others:
        for h in hits:
            why = competes(text, h, o, cands)
            if why:
                return False, f"a hedge ({why}: {o.value!r}) in {text[:120]!r}"
    if person:            # another person named outside brackets and role labels ("— with Judge X standing in")
        for o in others:
            inside = text.rfind("(", 0, o.start) > text.rfind(")", 0, o.start)
            labelled = re.search(r"\b[\w-]+:\s*$", text[max(0, o.start - 30):o.start]) or re.match(
                r"\s*(?:\(|,)?\s*(?:is|was|as|being)?\s*(?:the\s+)?(?:secondary|backup|deputy|clerk|primary|manager|lead|"
                r"owner|cover|standby|assistant|handing over|handed over)\b", text[o.end:o.end + 30], re.I)
            if not inside and not labelled and not negated(text, o):
                return False, f"another person named in the answer: {o.value!r}"
    first, last = min(h.start for h in hits), max(h.end for h in hits)
    if re.search(r"\bor\b", text[max(0, first - 12):first] + " " + text[last:last + 12], re.I) \
            and not NEGATION.search(text[last:last + 20]):
        return False, f"a hedge ('or' next to the answer) in {text[:120]!r}"
    if re.search(r"\(\s*(?:also|or|and|plus)\s+[A-Z0-9]", text):
        return False, f"a hedge (another candidate added in brackets) in {text[:120]!r}"
    # The answer only inside brackets after something else: "In re Northgate Shipping (see Ostrander)".
    outside = re.sub(r"\([^()]*\)", " ", text)
    if not any(phrase_hits(outside, a) for a in accepted) and not (person and title_hits(outside, value)) \
            and re.search(r"[A-Za-z0-9]", outside):
        return False, f"the answer names something else first in {text[:120]!r}"
    # "X if …; Y if …", "X — but Y on their reading": another answer offered on a condition.
    if CONDITIONAL.search(text) or re.search(r"\b(if|but|whereas)\b[^.;]*?(\b[A-Z][\w&'’-]+|\d)", text[last:]) \
            or (re.search(r";\s*[A-Z0-9]", text[last:]) and re.search(r"\b(if|unless|should)\b", text, re.I)):
        return False, f"a hedge (another answer on a condition) in {text[:120]!r}"
    if HEDGE_WORDS.search(text):
        return False, f"a hedge ({HEDGE_WORDS.search(text).group(0)!r}) in {text[:120]!r}"
    if all(negated(text, h) for h in hits):
        return False, f"the expected value is set aside in {text[:120]!r}"
    # A different first name before the surname ("Ingrid Rourke") is another person.
    return True, repr(text[:120])


# ---------------------------------------------------------------------------- sets
FILLER = {"and", "the", "both", "tank", "tanks", "cargo", "incident", "incidents", "open", "are", "is", "were", "was",
          "breached", "numbers", "number", "plus", "also", "ones", "only", "items", "of", "them"}


def _set(text: str, values: list[str]) -> tuple[bool, str]:
    shapes = [s for s in (id_shape(v) for v in values) if s is not None]
    numeric = all(re.fullmatch(r"\d+(?:\.\d+)?", v) for v in values)
    if numeric:         # figures: "$362.6m" is 362.6; "Contacted: 29" labels its figure
        text = re.sub(r"[$€£]\s?(?=\d)", "", text)
        text = re.sub(r"(\d)\s?(?:m|mn|million|x|×)\b", r"\1", text)
    text = re.sub(r"\b(\d+)\s+([A-Za-z])\b", r"\1\2", text)           # "3 P" is 3P
    # Set-aside parentheticals ("(not 5S)", "(INC0010342 and INC0010389 are closed)") are not items.
    body = re.sub(r"\(([^()]*)\)", lambda m: " " if NEGATION.search(m.group(1)) else " " + m.group(1) + " ", text)
    body = " ".join(part for part in re.split(r"(?<=[.;—])\s|\s—\s", body)
                    if not NEGATION.search(part) or not any(sh.search(part) for sh in shapes)
                    or any(phrase_hits(part, v) for v in values))
    body = re.sub(r"(?i)\b(not|except|excluding)\b[^,;.\n]*", " ", body)
    if HEDGE_WORDS.search(body) or re.search(r"\bor\b", body, re.I):
        return False, f"a hedge in {text[:120]!r}"
    found, extra = set(), []
    # An id written by its number alone ("10421" for INC0010421) is that id.
    numbered = {str(int(re.sub(r"\D", "", v))): v for v in values if re.fullmatch(r"[A-Za-z]{2,}\d{4,}", v)}
    for m in re.finditer(r"(?<![\w])\d{4,}(?![\w])", body):
        if str(int(m.group(0))) in numbered:
            found.add(numbered[str(int(m.group(0)))])
        elif numbered:
            extra.append(m.group(0))
    for item in re.split(r",|;|/|&|\band\b|\+|\n", body, flags=re.I):
        item = re.sub(r"^\s*(?:[-•*]|\d{1,2}[.)])\s*(?=\S)", "", item)          # list bullets, "1." / "2)"
        item = (re.split(r"\s[—–-]\s", item)[0] if numeric else re.split(r"\s[—–-]\s|:\s", item)[0]).strip(" .")
        if not item or (numbered and re.fullmatch(r"\d{4,}", item)):
            continue
        toks = [t for t, _, _ in tokens(item)]
        got = [v for v in values if phrase_hits(item, v)]
        if got:
            found |= set(got)
            for sh in shapes:
                for m in sh.finditer(item):
                    if not any(phrase_hits(m.group(0), v) for v in values):
                        extra.append(m.group(0))
            continue
        if shapes and any(sh.search(item) for sh in shapes):
            extra.append(item)
        elif toks and not all(t in FILLER or re.fullmatch(r"p\d", t) for t in toks):
            extra.append(item)
    for sh in shapes:                 # every id of the answer's shape anywhere in it ("3P 4P 5S", "3P-4P-5S")
        for m in sh.finditer(body):
            tok = re.sub(r"\s+", "", m.group(0)).lower()
            if tok in {re.sub(r"\s+", "", v).lower() for v in values}:
                found |= {v for v in values if re.sub(r"\s+", "", v).lower() == tok}
            elif m.group(0) not in extra:
                extra.append(m.group(0))
    missing = [v for v in values if v not in found]
    if missing or extra:
        return False, ", ".join(sorted(found)) + (f"; missing {missing}" if missing else "") + \
            (f"; also {list(dict.fromkeys(extra))}" if extra else "")
    return True, ", ".join(v for v in values)


# ---------------------------------------------------------------------------- entry points
def match_answer(spec, given: str | None, expected_value=None, *, today: date | None = None,
                 names: list[str] = (), orgs: list[str] = ()) -> AnswerResult:
    """``spec`` is the task's AnswerSpec; ``expected_value`` overrides ``spec.value`` (computed by
    ``value_from``); ``today`` resolves dates written without a year; ``names`` are the people a
    name answer could be confused with (the world's directory), ``orgs`` the organisations a firm's name
    could (world.yaml's orgs)."""
    text = answer_text(given)
    expected = spec.value if expected_value is None else expected_value
    shown = _show(spec, expected)
    if text.lower().strip(" .!") in JUNK:
        return AnswerResult(False, shown, repr(text) if text else "no answer")
    how = dict(tolerance=spec.tolerance, aliases=spec.aliases, values=spec.values, today=today, names=names,
               unit=spec.unit, orgs=orgs, scale=spec.scale, precise=spec.decimals is not None)
    ok, found = states(text, spec.type, expected, **how)
    if ok and spec.type == "number" and re.search(r"ANSWER:", normalise(given or ""), re.I):
        head = headline_figure(text, scale=spec.scale)
        if head is not None and not within(head, _num(expected), spec.tolerance or 0) and comparable(head, _num(expected)):
            return AnswerResult(False, shown, f"the answer's own figure is {show_value(head)} in {text[:120]!r}")
    if ok and spec.type == "number" and spec.exact:
        approx = approximate(text, _num(expected), spec.tolerance or 0, spec.scale)
        if approx:
            return AnswerResult(False, shown, f"the exact figure is asked, and {approx!r} offers it as approximate")
    if ok:
        for before in earlier_answers(given):
            if _offers(before, spec.type, today, _num(expected) if spec.type == "number" else None) \
                    and not states(before, spec.type, expected, **how)[0]:
                return AnswerResult(False, shown, f"two answers: {before[:60]!r} and {text[:60]!r}")
    return AnswerResult(ok, shown, found)


APPROX = re.compile(r"(?:\b(?:approximately|approx\.?|about|around|roughly|circa|c\.|ca\.|nearly|almost|"
                    r"close to|some|in the region of|on the order of|just (?:over|under))|~)\s*(?:US\$|\$|USD\s?)?\s*$", re.I)


def approximate(text: str, expected: float, tolerance: float, scale: float | None = None) -> str | None:
    """The words that offer the expected figure as approximate ("about $424.5m", "~424,490,000"), when
    every statement of it is so offered; else None."""
    hits = [c for c in number_cands(text) if not isinstance(c.value, Foreign)
            and within(float(_in_scale(text, c, scale).value), expected, tolerance)]
    said = [text[max(0, c.start - 24):c.end] for c in hits if APPROX.search(text[max(0, c.start - 24):c.start])]
    return said[0].strip() if hits and len(said) == len(hits) else None


RESULT = re.compile(r"=|≈|→|⇒|\bgives\b|\bcomes to\b|\bso\b", re.I)
# "so" leads to the result only after working: "PV of FCF $104.9m plus PV of TV $296.7m, so EV is $401.5m"
# (not "11.5x, so slightly above the 10.9x median").
ARITHMETIC = re.compile(r"[+×*/÷−]|\s-\s|\b(?:plus|minus|less|times|divided by|add(?:ed|ing)?|deduct\w*)\b", re.I)
# A count of things before the figure: "Median of the 6 deals: 11.5x", "across the 8 peers".
COUNT = re.compile(r"\s+(?!(?:x|times|percent|pct|million|billion|thousand|mn|bn|m|b|k|usd|dollars?)\b)[a-z]+", re.I)


def headline_figure(text: str, scale: float | None = None) -> float | None:
    """The figure an answer leads with: in its lead (up to the first bracket, semicolon, line or sentence
    end) the result of its working ("58,400 × $2,750 = $160,600,000") or else its first figure. What follows
    the lead explains it; a different figure there is not the answer ("$420m (Rheinwerk's $423.75m needs
    sign-off)")."""
    body = text.lstrip(" \n-•*")
    lead = re.split(r"[(\[;\n]|\.\s+(?=[A-Z])", body, maxsplit=1)[0]
    results = [m for m in RESULT.finditer(lead)
               if m.group(0).lower() != "so" or ARITHMETIC.search(lead[:m.start()])]
    cut = results[-1].end() if results else 0
    part = lead[cut:]
    at = len(text) - len(body) + cut                 # where ``part`` starts in ``text``
    cands = [c for c in number_cands(part, words=False) if not negated(part, c) and not isinstance(c.value, Foreign)
             and not withdrawn(text, Cand(c.start + at, c.end + at, c.value)) and not _a_count(part, c)]
    if not cands:
        return None
    if scale and scale > 1000 and _labelled_thousands(part, cands[0]):
        return float(_thousands(part, cands[0]).value)
    return float(_in_scale(part, cands[0], scale).value)


def _a_count(text: str, c: Cand) -> bool:
    """A whole number after "the" / "of" / "across" and before the noun it counts ("of the 6 deals", "across
    the 8 peers"), not a figure; "742 employees" leading the answer is the answer."""
    return float(c.value).is_integer() and abs(c.value) < 1000 and "$" not in text[max(0, c.start - 2):c.end] \
        and COUNT.match(text, c.end) is not None \
        and re.search(r"(?i)\b(?:the|all|across|among|of|for)\s+$", text[max(0, c.start - 12):c.start]) is not None


def comparable(a: float, b: float) -> bool:
    """Figures of one order of magnitude (a count before an amount, "3 deals totalling $4.5M", is not a
    rival headline)."""
    return a != 0 and b != 0 and (a > 0) == (b > 0) and 0.1 <= abs(a / b) <= 10


def _offers(text: str, kind: str, today, expected: float | None = None) -> bool:
    """Does this text offer a value of the answer's kind the way an answer does — first, within its
    first few words (an earlier answer, not a sentence quoting the instruction)?"""
    words = [m.start() for m in re.finditer(r"\S+", text)]
    head = words[3] if len(words) > 3 else len(text)
    if kind == "number":
        cands = number_cands(text, words=False)
    elif kind == "date":
        cands = date_cands(text, today)
    else:
        return 0 < len(words) <= 8
    if cands and cands[0].start <= head:
        return True
    # "ANSWER: On a forward basis it is 10.3x": a figure of the answer's order in the first line's first words
    line = text.split("\n")[0]
    first = [m.start() for m in re.finditer(r"\S+", line)]
    far = first[8] if len(first) > 8 else len(line)
    return kind == "number" and expected is not None and any(
        c.start <= far and not isinstance(c.value, Foreign) and comparable(float(c.value), float(expected))
        for c in cands[:1])


def states(text: str, kind: str, expected, *, tolerance: float = 0, aliases=(), values=(), today: date | None = None,
           names=(), unit: str | None = None, orgs=(), scale: float | None = None,
           precise: bool = False) -> tuple[bool, str]:
    """Does ``text`` state ``expected`` (of ``kind`` number, date, string or set) with nothing competing?
    ``unit``: what a number measures ("bbl", "GT"): the value given in another unit is another quantity;
    ``precise``: a figure written more precisely than the tolerance must be right to its own precision."""
    text = normalise(text)
    if kind == "number":
        return _number(text, _num(expected), tolerance, unit, scale, precise)
    if kind == "date":
        exp = expected if isinstance(expected, date) else parse_date(str(expected))
        if exp is None:
            raise ValueError(f"expected date {expected!r} can't be read")
        ok, found = stated_alone(text, date_cands(text, today or exp), lambda v: v == exp)
        if ok:      # "April 22 or 28", "April 20–28": another day offered right after the date
            for c in date_cands(text, today or exp):
                if c.value == exp and re.match(r"\s*[(,]?\s*(or|–|-|to|/|through)\s*(?:the\s+)?\d{1,2}(st|nd|rd|th)?\b(?![,.]?\d)",
                                               text[c.end:], re.I):
                    return False, f"a hedge (another day right after it) in {text[:120]!r}"
        return ok, found
    if kind == "string":
        return _string(text, str(expected), list(aliases), list(names), list(orgs))
    if kind == "set":
        return _set(text, list(values or expected))
    raise ValueError(f"unknown answer type {kind}")


def _num(v) -> float:
    return float(str(v).replace(",", "").replace("$", "").strip())


def _show(spec, expected) -> str:
    if spec.type == "number":
        return format_number(_num(expected)) + (f" ± {spec.tolerance:g}" if spec.tolerance else "")
    if spec.type == "set":
        return ", ".join(spec.values)
    return repr(str(expected))


def states_by_label(text: str, labels: dict[str, tuple[str, object]], kind: str = "number", **kw) -> tuple[bool, str]:
    """Each labelled figure stated where its label is: ``labels`` maps a name to (a regex for its label,
    the value). The figure a label names is the first one after it in its clause (not set aside, not
    past another label), or, when none follows, the nearest before it; it must be the label's value,
    and the clause must state it without a hedge. So "the revised claim is $123.3M and the total
    $4.31M" (swapped) fails where "Revised claim: $4.31M; the third-party total is now $123.3M" and
    "$2.5M is the deductible" pass. (Keyword arguments go to ``states``.)"""
    text = normalise(text)
    marks = sorted((m.start(), m.end(), name) for name, (rx, _) in labels.items()
                   for m in re.finditer(rx, text, re.I))
    today = kw.get("today")
    cands = number_cands(text, words=False) if kind == "number" else date_cands(text, today) if kind == "date" else []
    problems = []
    for name, (rx, value) in labels.items():
        mine = [mk for mk in marks if mk[2] == name]
        if not mine:
            problems.append(f"no {name}")
            continue
        good = False
        for s0, e0, _ in mine:
            cs, ce = clause(text, s0)
            nxt = min([s2 for s2, _, n2 in marks if n2 != name and s2 > e0] + [ce])
            prv = max([e2 for _, e2, n2 in marks if n2 != name and e2 <= s0] + [cs])
            if kind in ("number", "date"):
                after = [c for c in cands if e0 <= c.start < nxt and not negated(text, c)]
                before = [c for c in cands if prv <= c.start and c.end <= s0 and not negated(text, c)]
                pick = after[0] if after else (before[-1] if before else None)
                if pick is None:
                    continue
                exp = float(value) if kind == "number" else (value if isinstance(value, date) else parse_date(str(value)))
                same = within(pick.value, exp, kw.get("tolerance", 0)) if kind == "number" else pick.value == exp
                if same and states(text[prv:nxt], kind, value, **kw)[0]:
                    good = True
                    break
            elif states(text[s0:nxt], kind, value, **kw)[0]:
                good = True
                break
        if not good:
            problems.append(f"{name} not stated as {show_value(float(value)) if kind == 'number' else value}: "
                            f"{text[mine[0][0]:mine[0][0] + 80]!r}")
    return not problems, "; ".join(problems) or "each figure where its label is"
