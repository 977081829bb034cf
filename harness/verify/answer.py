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
  million/M/bn/k; a number that merely contains the digits is another number.
- Dates are read in any common format (en-US first: 4/5 is April 5); a date
  without a year takes the year that puts it nearest the world clock.
- Names match with titles and honorifics ("Judge Rourke" for Imelda Rourke);
  ids match with their titles ("KB0001207 – Backfill after …").
- Sets: every expected item and nothing else, any order or separator; an item
  explicitly excluded ("(not 5S)", "(… are closed)") is not an extra.

``states(text, kind, value)`` applies the same reading to a message or a cell
a check looks at (the ``says`` condition), without the ``ANSWER:`` split.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from datetime import date

from harness.verify.dates import find_date_spans, nearest_day, parse_date

JUNK = {"", "n/a", "na", "none", "null", "unknown", "-", "?", "i don't know", "idk", "tbd", "tbc"}
SCALE = {"million": 1e6, "mn": 1e6, "mm": 1e6, "m": 1e6, "billion": 1e9, "bn": 1e9, "b": 1e9, "thousand": 1e3,
         "k": 1e3}
NUMBER = re.compile(
    r"(?<![\w.,/\d])(?P<sign>[-−]\s?)?(?P<cur>[$€£¥])?\s?(\d{1,3}(?:,\d{3})+|\d{1,3}(?:[ \u202f]\d{3})+(?![\d,.])|\d+)"
    r"(\.\d+)?(?:\s?(million|mn|mm|billion|bn|thousand|m|b|k)\b)?"
    r"(?![\w]|,\d|\.\d)", re.I)
# Units an answer may carry, by what they measure: one of another kind than the task's is another quantity.
UNITS = {"bbl": "bbl", "barrel": "bbl", "barrels": "bbl", "litres": "l", "liters": "l", "litre": "l", "liter": "l",
         "gallons": "gal", "gal": "gal", "m3": "m3", "tonnes": "t", "t": "t", "metric": "t", "mt": "t", "gt": "gt",
         "gross": "gt", "nt": "nt",
         "net": "nt", "dwt": "dwt", "deadweight": "dwt"}
ZERO_WORDS = re.compile(r"\b(nil|zero|nothing)\b", re.I)
HONORIFICS = {"hon", "honorable", "honourable", "the", "judge", "justice", "dr", "doctor", "mr", "ms", "mrs", "miss",
              "capt", "captain", "prof", "professor", "sir", "dame", "madam"}

# Words that make the answer uncertain wherever they stand near another value (its clause).
HEDGE_WORDS = re.compile(r"\b(possibly|perhaps|maybe|probably|likely|unsure|not sure|uncertain|either|"
                         r"could (?:also )?be|might (?:be|mean)|or so|or thereabouts|or more|or less|plus or minus|"
                         r"i think|i believe|i guess|i'm guessing|guessing|arguably|unknown|unclear|not known)\b|±|\?",
                         re.I)
# A value another party or event moves the answer to: "continued to April 28", "Owners say $0".
MOVED_TO = re.compile(r"\b(?:continued|adjourned|postponed|moved|rescheduled|extended|pushed(?: back)?|deferred|"
                      r"brought forward)\s+(?:\w+\s+){0,2}(?:to|until|till)\s*$|\b\w+\s+(?:say|says|said|claim|claims)\s*$",
                      re.I)
# A bound written right before a value is not the value ("at least $8,760,000").
BOUND = re.compile(r"\b(at least|at most|up to|no more than|no less than|not more than|not less than|more than|"
                   r"less than|over|under|above|below)\s*$", re.I)
# Words that offer another value as an alternative when they stand between the two (or just before it).
ALTERNATIVE = re.compile(r"\b(or|either|alternatively|alt|otherwise|else|if|unless|in which case|but|depending|"
                         r"whereas|while)\b", re.I)
# Conditional alternatives that a "not" in them doesn't set aside ("(if not, April 21)").
CONDITIONAL = re.compile(r"\b(if not|if so|unless|otherwise|or else|in which case|failing that)\b", re.I)
# Zero-width and other format characters, and Latin look-alikes from other scripts.
CONFUSABLE = str.maketrans("оОаАеЕрРсСхХуіІјӏԁһԛѕԝκνοτ", "oOaAeEpPcCxXyiIjldhqswkvot")
# Words that set another value aside (a correction, an exclusion, context that isn't an answer).
# The old value of a change, right before it: "revised from $4,125,000 (to …)", "formerly 12,000".
CHANGED_FROM = re.compile(r"(\b(?:revised|changed|moved|went|rose|fell|increased|decreased|grew|dropped|up|down|"
                          r"corrected|amended|updated|raised|lowered|cut)\b[^.;\n]{0,30}\bfrom|\bformerly|\bpreviously)\s*$",
                          re.I)
NEGATION = re.compile(r"(\bnot\b(?!\s+(?:sure|certain|clear|know))|n't\b(?!\s+(?:sure|know|tell))|\bnever\b|\brather than\b|\binstead of\b|\bexclud\w*|\bexcept\b|\bother than\b|"
                      r"\bsupersed\w*|\bwrong\b|\bincorrect\b|\bmistaken\b|\boutdated\b|\bwithdrawn\b|\bclosed\b|"
                      r"\bno longer\b|\bminus\b|\bless\b)", re.I)
CLAUSE_END = re.compile(r"[.;!?](?:\s|$)|\n")


@dataclass
class AnswerResult:
    passed: bool
    expected: str
    found: str

    def line(self) -> str:
        mark = "✓" if self.passed else "✗"
        return f"{mark} answer: expected {self.expected}; found {self.found}"


class Foreign(float):
    """An amount in another currency: never equal to a dollar figure."""

    def __new__(cls, v, cur):
        obj = super().__new__(cls, v)
        obj.cur = cur
        return obj


@dataclass
class Cand:
    start: int
    end: int
    value: object


# ---------------------------------------------------------------------------- text
def normalise(text: str | None) -> str:
    text = unicodedata.normalize("NFKC", text or "").replace("\u00a0", " ").replace("\u2009", " ")
    text = "".join(ch for ch in text if unicodedata.category(ch) != "Cf").translate(CONFUSABLE)
    text = re.sub(r"(\*\*|__|`)", "", text)
    text = re.sub(r"(?<!\w)[*_](?=\S)|(?<=\S)[*_](?!\w)", "", text)
    return text


CORRECTION = re.compile(r"\b(wait|correction|correct(?:ed|ing)?|actually|sorry|on reflection|re-?read\w*|mistake|"
                        r"wrong|not|instead|rather|update\w*|revis\w*|confirm\w*|final\w*)\b", re.I)


def answer_text(answer: str | None) -> str:
    text = normalise(answer)
    idx = text.upper().rfind("ANSWER:")
    if idx >= 0:
        text = text[idx + len("ANSWER:"):]
    return text.strip().strip("\"'“”").strip()


def earlier_answers(answer: str | None) -> list[str]:
    """The answers given before the last ``ANSWER:`` that no correction withdraws ("ANSWER: X (if …)
    ANSWER: Y (if …)" offers two answers; "ANSWER: X — wait, that's the fund. ANSWER: Y" corrects one)."""
    text = normalise(answer)
    marks = [m.end() for m in re.finditer(r"ANSWER:", text, re.I)]
    out = []
    for a, b in zip(marks, marks[1:]):
        between = text[a:b - len("ANSWER:")]
        if not CORRECTION.search(between):
            out.append(between.strip())
    return out


def _clause(text: str, pos: int) -> tuple[int, int]:
    start = 0
    for m in CLAUSE_END.finditer(text):
        if m.end() <= pos:
            start = m.end()
        elif m.start() >= pos:
            return start, m.start()
    return start, len(text)


def _negated(text: str, c: Cand) -> bool:
    """A value set aside by what comes just before it in its clause ("not $X", "(… $X … are closed)")."""
    cs, ce = _clause(text, c.start)
    before = text[max(cs, c.start - 45):c.start]
    # Only what binds to this value: the words after the last break before it ("…2022 rate and is
    # short by $X" is not setting $X aside).
    cut = [m.end() for m in re.finditer(r"[,;:(—]|\b(?:and|is|are|was|by|of|at|so|therefore)\b", before)]
    if NEGATION.search(before[cut[-1]:] if cut else before) or CHANGED_FROM.search(text[max(cs, c.start - 60):c.start]):
        return True
    # "We will NOT be at Harbour Exchange", "is not at $X": a negation bound to the preposition before it;
    # "instead of X", "rather than X" (the break at "of" would hide it).
    if re.search(r"(?:\bnot|n't|\bnever|\bno longer)\s+(?:\w+\s+){0,2}?(?:at|by|of|on|in)\s*$"
                 r"|\b(?:instead of|rather than|other than|except(?: for)?)\s*$", before, re.I):
        return True
    # "(INC0010342 and INC0010389 are closed)": a parenthetical that sets its values aside — but not one
    # the value opens, whose negation comes after a break ("(Harbour Exchange — not Corvane HQ)").
    open_ = text.rfind("(", cs, c.start)
    if open_ >= 0 and text.find(")", open_, c.start) < 0:
        close = text.find(")", c.end)
        after = text[c.end:close if close >= 0 else ce]
        neg = NEGATION.search(after)
        if NEGATION.search(text[open_:c.start]) or (neg and not re.search(r"[,;—–]|\s-\s", after[:neg.start()])):
            return True
    return False


def _between(text: str, a: Cand, b: Cand) -> str:
    first, second = (a, b) if a.start < b.start else (b, a)
    return text[first.end:second.start]


def _competes(text: str, hit: Cand, other: Cand, ordered: list[Cand]) -> str | None:
    """Why ``other`` is offered as an alternative to ``hit``, or None."""
    gap = _between(text, hit, other)
    cs, ce = _clause(text, other.start)
    near = text[max(cs, other.start - 24):other.start]
    after = text[other.end:min(ce, other.end + 30)]
    short_gap = len(gap) <= 80 and not CLAUSE_END.search(gap)
    if HEDGE_WORDS.search(text[cs:ce]) or (short_gap and HEDGE_WORDS.search(gap)):
        return "hedged"
    if (short_gap and CONDITIONAL.search(gap)) or CONDITIONAL.search(near):
        return "a conditional alternative"
    if MOVED_TO.search(near):
        return "another value the answer may move to"
    if re.match(r"\s*(?:\)\s*)?(?:if|unless|should|in case)\b", after, re.I) and not _negated(text, other):
        return "a conditional alternative"
    if _negated(text, other):
        return None
    bare = _strip_units(gap).strip().lower()
    same_clause = _clause(text, hit.start) == _clause(text, other.start)
    adjacent = not any(min(hit.start, other.start) < c.start < max(hit.start, other.start) for c in ordered)
    if adjacent and re.fullmatch(r"(,|;|/|&|\+?and|or|either|, or|; or|and/or|\|)?", bare) and bare not in ("+",):
        if bare in ("", ):
            return "two values side by side"
        return f"{bare!r} between two values" if bare not in (",", ";", "and", "&") else "a list of values"
    if adjacent and re.fullmatch(r"[–-]|to|through|–|—", bare):
        lo, hi = (hit, other) if hit.start < other.start else (other, hit)
        if _rank(lo.value) < _rank(hi.value) and "=" not in text[slice(*_clause(text, hit.start))]:
            return "a range"
    if same_clause and re.search(r"\bbetween\b", text[_clause(text, hit.start)[0]:min(hit.start, other.start)], re.I) \
            and re.fullmatch(r"and", bare):
        return "a range"
    alt = (ALTERNATIVE.search(gap) if short_gap else None) or ALTERNATIVE.search(near)
    if alt and not NEGATION.search(gap[alt.end():] if alt.re is ALTERNATIVE else ""):
        return f"{alt.group(0)!r} offers another value"
    return None


def _uncertain(text: str, hit: Cand) -> bool:
    """"at least $X", "$X?", "$X (I think)": the value itself offered with doubt."""
    cs, ce = _clause(text, hit.start)
    return HEDGE_WORDS.search(text[cs:ce]) is not None or text[hit.end:hit.end + 2].lstrip().startswith("?") \
        or BOUND.search(text[max(cs, hit.start - 20):hit.start]) is not None


def _strip_units(gap: str) -> str:
    """A gap without the unit words of the values around it ("barrels; " is a bare separator)."""
    return re.sub(r"(?i)\b(usd|dollars?|bbl|barrels?|gt|nt|dwt|gross tons?|net tons?|tons?|hours?|hrs?|"
                  r"per gross ton|per ton|each|per occurrence)\b\.?", " ", gap)


def _rank(v):
    return v.toordinal() if isinstance(v, date) else v


def _judge(text: str, cands: list[Cand], equal) -> tuple[bool, str]:
    hits = [c for c in cands if equal(c.value)]
    if not hits:
        shown = ", ".join(dict.fromkeys(_show_value(c.value) for c in cands)) or "nothing"
        return False, f"{shown} in {text[:120]!r}"
    others = [c for c in cands if not equal(c.value)]
    for o in others:
        for h in hits:
            why = _competes(text, h, o, cands)
            if why:
                return False, f"a hedge ({why}: {_show_value(o.value)}) in {text[:120]!r}"
    if all(_uncertain(text, h) for h in hits):
        return False, f"an uncertain answer in {text[:120]!r}"
    if all(_negated(text, h) for h in hits):
        return False, f"the expected value is set aside in {text[:120]!r}"
    return True, _show_value(hits[0].value)


# ---------------------------------------------------------------------------- numbers
def number_cands(text: str, *, words: bool = True) -> list[Cand]:
    """Numbers written in ``text`` (not dates, times or the digits of ids), with "nil"/"zero" as 0."""
    masked = text.replace("US$", " $ ").replace("USD", "   ")
    for s, e in find_date_spans(masked):
        masked = masked[:s] + " " * (e - s) + masked[e:]
    masked = re.sub(r"\b\d{1,2}:\d{2}\b", lambda m: " " * len(m.group(0)), masked)       # times
    out = []
    for m in NUMBER.finditer(masked):
        whole, frac, unit = m.group(3), m.group(4) or "", (m.group(5) or "").lower()
        v = float(re.sub(r"[ ,\u202f]", "", whole) + frac)
        if unit in SCALE:
            v *= SCALE[unit]
        before = masked[:m.start()].rstrip()
        start = m.start()
        if m.group("sign"):
            if re.search(r"[\d)A-Za-z]\s*$", before):      # "160.6 − 151.84": an operator, not a sign
                start = m.start() + len(m.group("sign"))
            else:                                             # "-$8,760,000"
                v = -v
        if m.group("cur") and m.group("cur") != "$":
            v = Foreign(v, m.group("cur"))
        out.append(Cand(start, m.end(), v))
    if words:
        out += [Cand(m.start(), m.end(), 0.0) for m in ZERO_WORDS.finditer(masked)]
    return sorted(out, key=lambda c: c.start)


def numbers_in(text: str) -> list[float]:
    """The distinct numbers written in a text (dates and times left out), in order."""
    return list(dict.fromkeys(c.value for c in number_cands(normalise(text), words=False)))


def _number(text: str, expected: float, tolerance: float, unit: str | None = None) -> tuple[bool, str]:
    cands = number_cands(text)
    if unit:
        word = re.sub(r"^per\s+", "", unit.lower()).split()[0]
        kind = UNITS.get(word, UNITS.get(word.rstrip("s")))
        for c in cands:
            m = re.match(r"\s*(?:per\s+)?([a-z0-9]+)", text[c.end:c.end + 16], re.I)
            said = UNITS.get(m.group(1).lower()) if m else None
            if kind and said and said != kind and abs(c.value - expected) <= tolerance:
                return False, f"{_show_value(c.value)} {m.group(1)}: another quantity than {unit}"
    return _judge(text, cands, lambda v: not isinstance(v, Foreign) and abs(v - expected) <= tolerance)


# ---------------------------------------------------------------------------- dates
def date_cands(text: str, today: date | None) -> list[Cand]:
    out = []
    for s, e in find_date_spans(text):
        d = parse_date(text[s:e], today=today)
        if d is not None:
            out.append(Cand(s, e, d))
    if today is not None:         # "6/30" without a year: month and day, the year nearest the world clock
        for m in re.finditer(r"(?<![\w/.$])(\d{1,2})/(\d{1,2})(?![\w/.,]|,\d)", text):
            if not any(c.start <= m.start() < c.end for c in out) and 1 <= int(m[1]) <= 12:
                d = nearest_day(int(m[1]), int(m[2]), today)
                if d is not None:
                    out.append(Cand(m.start(), m.end(), d))
        out.sort(key=lambda c: c.start)
    return out


# ---------------------------------------------------------------------------- strings
def _tokens(text: str) -> list[tuple[str, int, int]]:
    return [(m.group(0).lower(), m.start(), m.end()) for m in re.finditer(r"[^\W_]+", text)]


def _phrase_hits(text: str, phrase: str) -> list[Cand]:
    toks = _tokens(text)
    want = [t for t, _, _ in _tokens(phrase)]
    while want and want[0] in ("the", "a", "an"):
        want = want[1:]
    out = []
    if not want:
        return out
    for i in range(len(toks) - len(want) + 1):
        if [t for t, _, _ in toks[i:i + len(want)]] == want:
            out.append(Cand(toks[i][1], toks[i + len(want) - 1][2], phrase))
    return out


def _name_like(value: str) -> bool:
    words = value.split()
    return 2 <= len(words) <= 4 and all(re.fullmatch(r"[A-Z][a-z'’-]+\.?", w) for w in words)


def _title_hits(text: str, value: str) -> list[Cand]:
    """"Judge Rourke", "Dr. Zhang": an honorific or title then the surname."""
    surname = value.split()[-1].lower()
    toks = _tokens(text)
    out = []
    for i, (t, s, e) in enumerate(toks):
        if t == surname and i > 0 and toks[i - 1][0] in HONORIFICS:
            out.append(Cand(toks[i - 1][1], e, value))
    return out


def _shape(value: str) -> re.Pattern | None:
    """Ids and citations: letters kept, digit runs as digits ("KB0001207" → KB\\d+)."""
    if not re.search(r"\d", value):
        return None
    parts = []
    for tok in re.findall(r"[A-Za-z]+|\d+|\S", value):
        parts.append(r"\d+" if tok.isdigit() else r"[A-Za-z]" if len(tok) == 1 and tok.isalpha() else re.escape(tok))
    return re.compile(r"(?<![\w])" + r"\s*".join(parts) + r"(?![\w])", re.I)


def _string(text: str, value: str, aliases: list[str], names: list[str]) -> tuple[bool, str]:
    accepted = [value, *aliases]
    person = _name_like(value)
    if person:                     # "Rourke, Imelda" and "Imelda M. Rourke" are her too
        first, last = value.split()[0], value.split()[-1]
        accepted += [f"{last}, {first}"]
        for m in re.finditer(rf"\b{re.escape(first)}\s+[A-Z]\.?\s+{re.escape(last)}\b", text):
            accepted.append(m.group(0))
    hits = [h for a in accepted for h in _phrase_hits(text, a)]
    if person:
        hits += _title_hits(text, value)
    hits.sort(key=lambda c: c.start)
    if not hits:
        return False, repr(text[:120])
    # Other candidates of the same kind.
    others: list[Cand] = []
    shape = _shape(value)
    if shape is not None:
        for m in shape.finditer(text):
            if not any(h.start <= m.start() < h.end for h in hits):
                others.append(Cand(m.start(), m.end(), m.group(0)))
    elif person:
        for n in names:
            if n.lower() in {a.lower() for a in accepted}:
                continue
            for c in _phrase_hits(text, n) + (_title_hits(text, n) if _name_like(n) else []):
                if not any(h.start <= c.start < h.end for h in hits):
                    others.append(c)
        # Names outside the directory joined to the answer ("Imelda Rourke, Harold Abernathy").
        for m in re.finditer(r"(?:\b(?:Judge|Hon\.?|Dr\.?|Mr\.?|Ms\.?|Mrs\.?)\s+)?\b[A-Z][a-z'’-]+(?:\s+[A-Z]\.)?\s+[A-Z][a-z'’-]+\b"
                             r"(?!\s+[A-Z&])", text):
            if all(w.lower().rstrip(".") in HONORIFICS for w in m.group(0).split()) \
                    or re.search(r"[A-Z][\w&'’-]*\s+$", text[:m.start()]) \
                    or re.search(r"\b(Court|LLP|Inc|Ltd|Group|Association|Board|Department|Office|Services|Bank|"
                                 r"Notice|Report|Register|Act|Council|Authority)$", m.group(0)):
                continue
            if not any(h.start <= m.start() < h.end or m.start() <= h.start < m.end() for h in hits) \
                    and not any(o.start == m.start() for o in others):
                others.append(Cand(m.start(), m.end(), m.group(0)))
    else:
        # A capitalised word joined to the answer by "and", "or", "," or "/" competes with it.
        for h in hits:
            after = re.match(r"\s*(,|;|/|&|\band\b|\bor\b)\s+(?:maybe\s+|possibly\s+)?([A-Z][\w&.'’-]*)", text[h.end:])
            before = re.search(r"([A-Z][\w&.'’-]*)\s*(,|;|/|&|\band\b|\bor\b)\s*$", text[:h.start])
            for m, pos in ((after, h.end + (after.start(2) if after else 0)), (before, before.start(1) if before else 0)):
                if m:
                    others.append(Cand(pos, pos + len(m.group(2) if m is after else m.group(1)), m.group(0).strip()))
    # A list of short candidates ("Wei Zhang; KB0001207; Tidewatch"): a shotgun, whatever their kind.
    items = [i.strip(" .") for i in re.split(r";|\n|\s/\s", text) if i.strip(" .")]
    if len(items) > 1:
        for item in items:
            if not any(_phrase_hits(item, a) for a in accepted) and len(item.split()) <= 3 \
                    and re.match(r"[-•*\s]*[A-Z0-9]", item) and not NEGATION.search(item):
                return False, f"a hedge (a list of candidates: {item!r}) in {text[:120]!r}"
    others.sort(key=lambda c: c.start)
    cands = sorted(hits + others, key=lambda c: c.start)
    for o in others:
        for h in hits:
            why = _competes(text, h, o, cands)
            if why:
                return False, f"a hedge ({why}: {o.value!r}) in {text[:120]!r}"
    if person:            # another person named outside brackets and role labels ("— with Judge X standing in")
        for o in others:
            inside = text.rfind("(", 0, o.start) > text.rfind(")", 0, o.start)
            labelled = re.search(r"\b[\w-]+:\s*$", text[max(0, o.start - 30):o.start]) or re.match(
                r"\s*(?:\(|,)?\s*(?:is|was|as|being)?\s*(?:the\s+)?(?:secondary|backup|deputy|clerk|primary|manager|lead|"
                r"owner|cover|standby|assistant|handing over|handed over)\b", text[o.end:o.end + 30], re.I)
            if not inside and not labelled and not _negated(text, o):
                return False, f"another person named in the answer: {o.value!r}"
    first, last = min(h.start for h in hits), max(h.end for h in hits)
    if re.search(r"\bor\b", text[max(0, first - 12):first] + " " + text[last:last + 12], re.I) \
            and not NEGATION.search(text[last:last + 20]):
        return False, f"a hedge ('or' next to the answer) in {text[:120]!r}"
    if re.search(r"\(\s*(?:also|or|and|plus)\s+[A-Z0-9]", text):
        return False, f"a hedge (another candidate added in brackets) in {text[:120]!r}"
    # The answer only inside brackets after something else: "In re Northgate Shipping (see Ostrander)".
    outside = re.sub(r"\([^()]*\)", " ", text)
    if not any(_phrase_hits(outside, a) for a in accepted) and not (person and _title_hits(outside, value)) \
            and re.search(r"[A-Za-z0-9]", outside):
        return False, f"the answer names something else first in {text[:120]!r}"
    # "X if …; Y if …", "X — but Y on their reading": another answer offered on a condition.
    if CONDITIONAL.search(text) or re.search(r"\b(if|but|whereas)\b[^.;]*?(\b[A-Z][\w&'’-]+|\d)", text[last:]) \
            or (re.search(r";\s*[A-Z0-9]", text[last:]) and re.search(r"\b(if|unless|should)\b", text, re.I)):
        return False, f"a hedge (another answer on a condition) in {text[:120]!r}"
    if HEDGE_WORDS.search(text):
        return False, f"a hedge ({HEDGE_WORDS.search(text).group(0)!r}) in {text[:120]!r}"
    if all(_negated(text, h) for h in hits):
        return False, f"the expected value is set aside in {text[:120]!r}"
    # A different first name before the surname ("Ingrid Rourke") is another person.
    return True, repr(text[:120])


# ---------------------------------------------------------------------------- sets
FILLER = {"and", "the", "both", "tank", "tanks", "cargo", "incident", "incidents", "open", "are", "is", "were", "was",
          "breached", "numbers", "number", "plus", "also", "ones", "only", "items", "of", "them"}


def _set(text: str, values: list[str]) -> tuple[bool, str]:
    shapes = [s for s in (_shape(v) for v in values) if s is not None]
    text = re.sub(r"\b(\d+)\s+([A-Za-z])\b", r"\1\2", text)           # "3 P" is 3P
    # Set-aside parentheticals ("(not 5S)", "(INC0010342 and INC0010389 are closed)") are not items.
    body = re.sub(r"\(([^()]*)\)", lambda m: " " if NEGATION.search(m.group(1)) else " " + m.group(1) + " ", text)
    body = " ".join(part for part in re.split(r"(?<=[.;—])\s|\s—\s", body)
                    if not NEGATION.search(part) or not any(sh.search(part) for sh in shapes)
                    or any(_phrase_hits(part, v) for v in values))
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
        item = re.split(r"\s[—–-]\s|:\s", item)[0].strip(" .")
        if not item or (numbered and re.fullmatch(r"\d{4,}", item)):
            continue
        toks = [t for t, _, _ in _tokens(item)]
        got = [v for v in values if _phrase_hits(item, v)]
        if got:
            found |= set(got)
            for sh in shapes:
                for m in sh.finditer(item):
                    if not any(_phrase_hits(m.group(0), v) for v in values):
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
                 names: list[str] = ()) -> AnswerResult:
    """``spec`` is the task's AnswerSpec; ``expected_value`` overrides ``spec.value`` (computed by
    ``value_from``); ``today`` resolves dates written without a year; ``names`` are the people a
    name answer could be confused with (the world's directory)."""
    text = answer_text(given)
    expected = spec.value if expected_value is None else expected_value
    shown = _show(spec, expected)
    if text.lower().strip(" .!") in JUNK:
        return AnswerResult(False, shown, repr(text) if text else "no answer")
    ok, found = states(text, spec.type, expected, tolerance=spec.tolerance, aliases=spec.aliases,
                       values=spec.values, today=today, names=names, unit=spec.unit)
    if ok:
        for before in earlier_answers(given):
            if _offers(before, spec.type, today) and not states(before, spec.type, expected, tolerance=spec.tolerance, aliases=spec.aliases,
                                     values=spec.values, today=today, names=names, unit=spec.unit)[0]:
                return AnswerResult(False, shown, f"two answers: {before[:60]!r} and {text[:60]!r}")
    return AnswerResult(ok, shown, found)


def _offers(text: str, kind: str, today) -> bool:
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
    return bool(cands) and cands[0].start <= head


def states(text: str, kind: str, expected, *, tolerance: float = 0, aliases=(), values=(), today: date | None = None,
           names=(), unit: str | None = None) -> tuple[bool, str]:
    """Does ``text`` state ``expected`` (of ``kind`` number, date, string or set) with nothing competing?
    ``unit``: what a number measures ("bbl", "GT"): the value given in another unit is another quantity."""
    text = normalise(text)
    if kind == "number":
        return _number(text, _num(expected), tolerance, unit)
    if kind == "date":
        exp = expected if isinstance(expected, date) else parse_date(str(expected))
        if exp is None:
            raise ValueError(f"expected date {expected!r} can't be read")
        ok, found = _judge(text, date_cands(text, today or exp), lambda v: v == exp)
        if ok:      # "April 22 or 28", "April 20–28": another day offered right after the date
            for c in date_cands(text, today or exp):
                if c.value == exp and re.match(r"\s*[(,]?\s*(or|–|-|to|/|through)\s*(?:the\s+)?\d{1,2}(st|nd|rd|th)?\b(?![,.]?\d)",
                                               text[c.end:], re.I):
                    return False, f"a hedge (another day right after it) in {text[:120]!r}"
        return ok, found
    if kind == "string":
        return _string(text, str(expected), list(aliases), list(names))
    if kind == "set":
        return _set(text, list(values or expected))
    raise ValueError(f"unknown answer type {kind}")


def _num(v) -> float:
    return float(str(v).replace(",", "").replace("$", "").strip())


def _fmt(v: float) -> str:
    return f"{v:,.0f}" if float(v).is_integer() else f"{v:,}"


def _show_value(v) -> str:
    if isinstance(v, float):
        return _fmt(v)
    return str(v)


def _show(spec, expected) -> str:
    if spec.type == "number":
        return _fmt(_num(expected)) + (f" ± {spec.tolerance:g}" if spec.tolerance else "")
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
            cs, ce = _clause(text, s0)
            nxt = min([s2 for s2, _, n2 in marks if n2 != name and s2 > e0] + [ce])
            prv = max([e2 for _, e2, n2 in marks if n2 != name and e2 <= s0] + [cs])
            if kind in ("number", "date"):
                after = [c for c in cands if e0 <= c.start < nxt and not _negated(text, c)]
                before = [c for c in cands if prv <= c.start and c.end <= s0 and not _negated(text, c)]
                pick = after[0] if after else (before[-1] if before else None)
                if pick is None:
                    continue
                exp = float(value) if kind == "number" else (value if isinstance(value, date) else parse_date(str(value)))
                same = abs(pick.value - exp) <= kw.get("tolerance", 0) if kind == "number" else pick.value == exp
                if same and states(text[prv:nxt], kind, value, **kw)[0]:
                    good = True
                    break
            elif states(text[s0:nxt], kind, value, **kw)[0]:
                good = True
                break
        if not good:
            problems.append(f"{name} not stated as {_show_value(float(value)) if kind == 'number' else value}: "
                            f"{text[mine[0][0]:mine[0][0] + 80]!r}")
    return not problems, "; ".join(problems) or "each figure where its label is"
