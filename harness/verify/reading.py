"""How a person reads a value in a text: the candidate values it states, and whether one competes.

The building blocks of answer matching (``harness.verify.answer``, which is the API and re-exports
what checks use from here): text normalised as it reads (``normalise``; ``answer_text`` is what
follows the last ``ANSWER:``), the candidates a text offers — numbers, dates, phrases, names with
their titles, ids by their shape (``number_cands``, ``date_cands``, ``phrase_hits``, ``title_hits``,
``id_shape``), each a ``Cand`` (where it stands, its value) — and the rules that decide whether a
candidate is offered as an alternative to another (``competes``), offered with doubt
(``uncertain``) or set aside (``negated``), within its ``clause``. ``stated_alone`` puts them
together: the expected value is stated and nothing competes with it.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from decimal import Decimal
from datetime import date

from harness.verify.dates import READING_LOCALE, find_date_spans, nearest_day, parse_date

SCALE = {"million": 1e6, "mn": 1e6, "mm": 1e6, "m": 1e6, "billion": 1e9, "bn": 1e9, "b": 1e9, "thousand": 1e3,
         "k": 1e3}
NUMBER = re.compile(
    r"(?<![\w.,/\d])(?P<sign>[-−]\s?)?(?P<cur>[$€£¥])?\s?(\d{1,3}(?:,\d{3})+|\d{1,3}(?:[ \u202f]\d{3})+(?![\d,.])|\d+)"
    r"(\.\d+)?(?:\s?(million|mn|mm|billion|bn|thousand|m|b|k)\b)?"
    r"(?:[x×](?![\w]))?"                      # a multiple: "11.66x", "10.9×" (EV / EBITDA, leverage)
    r"(?![\w]|,\d|\.\d)", re.I)
ZERO_WORDS = re.compile(r"\b(nil|zero|nothing)\b", re.I)
HONORIFICS = {"hon", "honorable", "honourable", "the", "judge", "justice", "dr", "doctor", "mr", "ms", "mrs", "miss",
              "capt", "captain", "prof", "professor", "sir", "dame", "madam"}

# Words that make the answer uncertain wherever they stand near another value (its clause).
HEDGE_WORDS = re.compile(r"\b(possibly|perhaps|maybe|probably|likely|unsure|not sure|uncertain|either|"
                         r"could (?:also |equally )?be|might (?:be|mean)|or so|or thereabouts|or more|or less|plus or minus|"
                         r"i think|i believe|i guess|i'm guessing|guessing|arguably|unknown|unclear|not known)\b|±|\?",
                         re.I)
# Doubt written right before the answer itself ("presumably 11.0x", "from memory, $401.5m"): words that
# elsewhere in the clause are about something else ("the draft presumably used the wrong tonnage").
DOUBT_BEFORE = re.compile(r"\b(presumably|my (?:best )?guess(?: is)?|best guess|at a guess|i'd estimate|i reckon|"
                          r"i suspect|it (?:seems|appears) to be|tentatively|if i had to (?:pick|guess|choose)|"
                          r"pending confirmation|from memory|without (?:access|seeing|opening)[^.;]*?)\W*(?:\S+\W+){0,3}$", re.I)
# Words after another value that offer it too ("10.3x also fine", "11.1x is equally defensible").
ALSO_RIGHT = re.compile(r"^\s*\)?\s*(?:is|are|would be|'d be|could be|seems)?\s*(?:also|equally|just as)\s+"
                        r"(?:defensible|fine|acceptable|possible|valid|ok|okay|correct|right|reasonable|arguable|good)\b",
                        re.I)
# Another value offered on another reading: "11.0x (11.2x on the other basis)".
OTHER_BASIS = re.compile(r"^\s*\)?\s*(?:on|under|at|using|with|by)\s+(?:the\s+|an?\s+)?(?:other|another|different|"
                         r"alternative|second)\s+(?:basis|reading|view|case|approach|definition|method)\b", re.I)
# What withdraws the figure right before it, in its own clause: "X is wrong; it's Y", "X — no, wait, Y",
# "X (scratch that: Y)", "X — sorry, that's the wrong one; … Y". Not past a sentence end, and only with
# a replacement figure after it (``withdrawn``).
RETRACTED = re.compile(r"^[ \t]*\)?[ \t]*(?:[,;:—–-]|\(|\s-\s)?[ \t]*(?:"
                       r"(?:is|was|would be|'s)\s+(?:\w+\s+)?(?:wrong|incorrect|mistaken|a mistake|not right|not correct)\b"
                       r"|no,?\s+wait\b|wait,?\s+no\b|actually,?\s+no\b|no,?\s+actually\b|scratch that|strike that"
                       r"|sorry,?\s+(?:that'?s|that is|it'?s|it is)\s+(?:the\s+)?(?:wrong|not right|a mistake|my mistake)"
                       r"|on second thoughts?"
                       r"|\.\s+(?:hmm+,?\s+)?(?:actually,?\s+no|no,?\s+wait|wait,?\s+no|scratch that|strike that|"
                       r"on second thoughts?)\b"
                       r"|\.?\s*correction:?\s+(?:use|it'?s|it is|the (?:right|correct) (?:figure|answer) is)\b)", re.I)
# A value another party or event moves the answer to: "continued to April 28", "Owners say $0".
MOVED_TO = re.compile(r"\b(?:continued|adjourned|postponed|moved|rescheduled|extended|pushed(?: back)?|deferred|"
                      r"brought forward)\s+(?:\w+\s+){0,2}(?:to|until|till)\s*$|\b\w+\s+(?:say|says|said|claim|claims)\s*$",
                      re.I)
# A bound written right before a value is not the value ("at least $8,760,000").
BOUND = re.compile(r"\b(at least|at most|up to|no more than|no less than|not more than|not less than|more than|"
                   r"less than|over|under|above|below)\s*$", re.I)
# Words that offer another value as an alternative when they stand between the two (or just before it).
ALTERNATIVE = re.compile(r"\b(or|either|alternatively|alt|otherwise|else|if|unless|in which case|but|depending|"
                         r"whereas|while|i'd (?:show|use|go with|put|pick))\b", re.I)
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


class Foreign(float):
    """An amount in another currency: never equal to a dollar figure."""

    def __new__(cls, v, cur):
        obj = super().__new__(cls, v)
        obj.cur = cur
        return obj


class Figure(float):
    """A number as written, with its precision: ``half`` is half a unit of its last stated digit ("11.07"
    ± 0.005, "$401.5m" ± $50,000, "$401,548,000" ± $500 — trailing zeros of a whole number are not digits
    stated)."""

    def __new__(cls, v, half):
        obj = super().__new__(cls, v)
        obj.half = half
        return obj


def _half_unit(whole: str, frac: str, scale: float) -> float:
    if frac.rstrip("0") not in ("", "."):              # "11.50" states one decimal, "$401.50m" too
        return 0.5 * 10 ** -(len(frac.rstrip("0")) - 1) * scale
    if frac:
        return 0.5 * scale
    digits = re.sub(r"\D", "", whole)
    zeros = len(digits) - len(digits.rstrip("0")) if digits.strip("0") else 0
    return 0.5 * 10 ** zeros * scale


@dataclass
class Cand:
    """A candidate value in a text: where it stands (``text[start:end]``) and what it is."""
    start: int
    end: int
    value: object


# ---------------------------------------------------------------------------- text
def normalise(text: str | None) -> str:
    """The text as it reads: NFKC, no invisible characters, look-alike letters mapped, no markdown emphasis."""
    text = unicodedata.normalize("NFKC", text or "").replace("\u00a0", " ").replace("\u2009", " ")
    text = "".join(ch for ch in text if unicodedata.category(ch) != "Cf").translate(CONFUSABLE)
    text = re.sub(r"(\*\*|__|`)", "", text)
    text = re.sub(r"(?<!\w)[*_](?=\S)|(?<=\S)[*_](?!\w)", "", text)
    return text


CORRECTION = re.compile(r"\b(wait|correction|correct(?:ed|ing)?|actually|sorry|on reflection|re-?(?:read|check)\w*|"
                        r"mistake\w*|wrong|incorrect|not|instead|scratch that|ignore (?:that|this|the above)|update\w*|"
                        r"revis\w*|confirm\w*|final\w*|supersed\w*|interim|hold on)\b", re.I)


def answer_text(answer: str | None) -> str:
    """The answer in a final message: what follows the last ``ANSWER:`` (the whole message without one)."""
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
        first = between.strip().split("\n")[0]
        # withdrawn by a correction, unless the earlier answer is offered on a condition on its own line
        # ("ANSWER: 10.6x (final if you use the other basis)")
        if not CORRECTION.search(between) or re.search(r"\b(if|unless|depending)\b", first, re.I):
            out.append(between.strip())
    return out


def clause(text: str, pos: int) -> tuple[int, int]:
    """The (start, end) of the clause of ``text`` that holds position ``pos``."""
    start = 0
    for m in CLAUSE_END.finditer(text):
        if m.end() <= pos:
            start = m.end()
        elif m.start() >= pos:
            return start, m.start()
    return start, len(text)


def negated(text: str, c: Cand) -> bool:
    """A value set aside by what comes just before it in its clause ("not $X", "(… $X … are closed)")."""
    cs, ce = clause(text, c.start)
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


def withdrawn(text: str, c: Cand) -> bool:
    """A value its writer takes back right after it, in its clause, for another ("11.1x is wrong; it's
    11.2x", "$380.3m — no, wait, $356.6m", "$401.5m (scratch that: $375.3m)")."""
    m = RETRACTED.match(text[c.end:c.end + 60])
    if m is None:
        return False
    rest = text[c.end + m.end():c.end + m.end() + 120]
    return re.search(r"\d", rest) is not None


def _between(text: str, a: Cand, b: Cand) -> str:
    first, second = (a, b) if a.start < b.start else (b, a)
    return text[first.end:second.start]


def competes(text: str, hit: Cand, other: Cand, ordered: list[Cand]) -> str | None:
    """Why ``other`` is offered as an alternative to ``hit``, or None."""
    gap = _between(text, hit, other)
    cs, ce = clause(text, other.start)
    near = text[max(cs, other.start - 24):other.start]
    after = text[other.end:min(ce, other.end + 30)]
    short_gap = len(gap) <= 80 and not CLAUSE_END.search(gap)
    if withdrawn(text, other):
        return None
    if HEDGE_WORDS.search(text[cs:ce]) or (short_gap and HEDGE_WORDS.search(gap)):
        return "hedged"
    if ALSO_RIGHT.match(text[other.end:other.end + 40]):
        return "offered as also right"
    ob = OTHER_BASIS.match(text[other.end:other.end + 40])
    if ob and not NEGATION.search(text[other.end + ob.end():ce]):
        return "a conditional alternative"
    if (short_gap and CONDITIONAL.search(gap)) or CONDITIONAL.search(near):
        return "a conditional alternative"
    if MOVED_TO.search(near):
        return "another value the answer may move to"
    if re.match(r"\s*(?:\)\s*)?(?:if|unless|should|in case)\b", after, re.I) and not negated(text, other):
        return "a conditional alternative"
    if negated(text, other):
        return None
    # a bracketed aside between them doesn't separate them: "Logistics ($1.32M), Fintech ($1.1M)" is a list
    bare = re.sub(r"\s*\([^()]*\)\s*", " ", _strip_units(gap)).strip().lower()
    same_clause = clause(text, hit.start) == clause(text, other.start)
    adjacent = not any(min(hit.start, other.start) < c.start < max(hit.start, other.start) for c in ordered)
    if adjacent and re.fullmatch(r"[ \t]*\n\s*(?:[-•*]|\d{1,2}[.)])?\s*", gap):
        return "a list of values"                         # "- 11.8x\n- 11.0x": one per line
    if adjacent and re.fullmatch(r"(,|;|/|&|\+?and|or|either|, or|; or|and/or|\|)?", bare) and bare not in ("+",):
        if bare in ("", ):
            return "two values side by side"
        return f"{bare!r} between two values" if bare not in (",", ";", "and", "&") else "a list of values"
    if adjacent and re.fullmatch(r"[–-]|to|through|–|—", bare):
        lo, hi = (hit, other) if hit.start < other.start else (other, hit)
        if "=" not in text[slice(*clause(text, hit.start))]:
            if _rank(lo.value) < _rank(hi.value):
                return "a range"
            # high to low: "$431.5m to $401.5m", "11.2–11.0x" — a dash with no spaces between figures of one
            # size (a spaced " — " starts a comment; far-apart figures are a subtraction), never dates
            a, b = _rank(lo.value), _rank(hi.value)
            raw_gap = text[lo.end:hi.start]
            tight = bare in ("–", "-") and raw_gap.strip() == raw_gap and not isinstance(lo.value, date)
            if (bare in ("to", "through") and not isinstance(lo.value, date)) or \
                    (tight and isinstance(a, (int, float)) and a > 0 and b > 0 and b / a >= 0.5):
                return "a range"
    if same_clause and re.search(r"\bbetween\b", text[clause(text, hit.start)[0]:min(hit.start, other.start)], re.I) \
            and re.fullmatch(r"and", bare):
        return "a range"
    alt = (ALTERNATIVE.search(gap) if short_gap else None) or ALTERNATIVE.search(near)
    if alt and not NEGATION.search(gap[alt.end():] if alt.re is ALTERNATIVE else ""):
        return f"{alt.group(0)!r} offers another value"
    return None


def uncertain(text: str, hit: Cand) -> bool:
    """"at least $X", "$X?", "$X (I think)": the value itself offered with doubt."""
    cs, ce = clause(text, hit.start)
    return HEDGE_WORDS.search(text[cs:ce]) is not None or text[hit.end:hit.end + 2].lstrip().startswith("?") \
        or BOUND.search(text[max(cs, hit.start - 20):hit.start]) is not None \
        or DOUBT_BEFORE.search(text[max(cs, hit.start - 60):hit.start]) is not None


def _strip_units(gap: str) -> str:
    """A gap without the unit words of the values around it ("barrels; " is a bare separator; so is the
    "x; " of a list of multiples, though "36.4 x 11.66" is a product)."""
    gap = re.sub(r"(?i)^\s*(?:x|×|times|%)(?=\s*(?:[,;/&|]|and\b|or\b))", " ", gap)
    return re.sub(r"(?i)\b(usd|dollars?|bbl|barrels?|gt|nt|dwt|gross tons?|net tons?|tons?|hours?|hrs?|"
                  r"per gross ton|per ton|each|per occurrence)\b\.?", " ", gap)


def _rank(v):
    return v.toordinal() if isinstance(v, date) else v


def stated_alone(text: str, cands: list[Cand], equal) -> tuple[bool, str]:
    """(True, what was found) when a candidate ``equal`` accepts is stated and no other competes with it,
    none is offered with doubt and not all are set aside; else (False, why)."""
    taken_back = [c for c in cands if equal(c.value) and withdrawn(text, c)]
    hits = [c for c in cands if equal(c.value) and c not in taken_back]
    if not hits and taken_back:
        return False, f"the expected value is taken back in {text[:120]!r}"
    if not hits:
        shown = ", ".join(dict.fromkeys(show_value(c.value) for c in cands)) or "nothing"
        return False, f"{shown} in {text[:120]!r}"
    others = [c for c in cands if not equal(c.value)]
    for o in others:
        for h in hits:
            why = competes(text, h, o, cands)
            if why:
                return False, f"a hedge ({why}: {show_value(o.value)}) in {text[:120]!r}"
    if all(uncertain(text, h) for h in hits):
        return False, f"an uncertain answer in {text[:120]!r}"
    if all(negated(text, h) for h in hits):
        return False, f"the expected value is set aside in {text[:120]!r}"
    return True, show_value(hits[0].value)


# ---------------------------------------------------------------------------- numbers
CODES = r"EUR|GBP|CHF|JPY|CAD|MXN|AUD|CNY|SEK|NOK|DKK|INR"
CODE_BEFORE = re.compile(rf"\b({CODES})\s?(?=[\d.])")
CODE_AFTER = re.compile(rf"\s?(?:{CODES}|euros?|pounds?(?: sterling)?|(?:swiss )?francs?|yen|pesos?)\b", re.I)


# A number only German separators make sense of: dots grouping thousands (with or without a decimal
# comma), or one comma before one, two or four-plus digits ("1,250" stays 1250: the English reading).
GERMAN = re.compile(r"(?<![\d.,])(?:\d{1,3}(?:\.\d{3})+(?:,\d+)?|\d+,(?:\d{1,2}|\d{4,}))(?![\d.,]*\d)"
                    r"(?!\s?(?:[mkb]n?|mm|million|billion|thousand)\b)", re.I)   # "$4.169 million" stays English
_SWAP = str.maketrans(".,", ",.")


def number_cands(text: str, *, words: bool = True) -> list[Cand]:
    """Numbers written in ``text`` (not dates, times or the digits of ids), with "nil"/"zero" as 0. An
    amount in another currency ("EUR 374m", "€374m", "374 million euros") is ``Foreign``."""
    masked = text.replace("US$", " $ ").replace("USD", "   ")
    masked = CODE_BEFORE.sub(lambda m: " " * (len(m.group(0)) - 1) + "€", masked)   # "EUR 374" → "   €374"
    for s, e in find_date_spans(masked):
        masked = masked[:s] + " " * (e - s) + masked[e:]
    masked = re.sub(r"\b\d{1,2}:\d{2}\b", lambda m: " " * len(m.group(0)), masked)       # times
    if READING_LOCALE.get() == "de-DE":             # "1.250.000,5" and "12,5" as a German page writes them
        masked = GERMAN.sub(lambda m: m.group(0).translate(_SWAP), masked)
    masked = re.sub(r"(?i)(\b(?:calendar|fiscal|financial|FY|CY|year)\s+)((?:19|20)\d{2})\b(?![\d.,]\d)",
                    lambda m: m.group(1) + " " * len(m.group(2)), masked)             # "calendar 2025": a year
    out = []
    for m in NUMBER.finditer(masked):
        whole, frac, unit = m.group(3), m.group(4) or "", (m.group(5) or "").lower()
        digits = re.sub(r"[ ,\u202f]", "", whole) + frac
        # "$16.1K", "$4.169 million": scaled in decimal, so 16.1 × 1,000 is 16,100, not 16,099.999…
        v = float(Decimal(digits) * Decimal(int(SCALE[unit]))) if unit in SCALE else float(digits)
        before = masked[:m.start()].rstrip()
        start = m.start()
        if re.search(r"(?i)\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec|fy|cy|h[12]|q[1-4])-$",
                     masked[:m.start()] if not m.group("sign") else masked[:m.start() + 1]):
            continue                                          # "Mar-26", "FY-25": part of a label
        if m.group("sign"):
            if re.search(r"[\d)A-Za-z]\s*$", before):      # "160.6 − 151.84": an operator, not a sign
                start = m.start() + len(m.group("sign"))
            elif m.group("sign") == "- " and re.search(r"(?:^|[\n:])\s*$", masked[:m.start()]):
                start = m.start() + 2                         # a list bullet: "ANSWER:\n- 11.0x"
            else:                                             # "-$8,760,000"
                v = -v
        if m.group("cur") and m.group("cur") != "$":
            v = Foreign(v, m.group("cur"))
        elif not m.group("cur") and (code := CODE_AFTER.match(masked, m.end())):
            v = Foreign(v, code.group(0).strip())
        else:
            v = Figure(v, _half_unit(whole, frac, SCALE.get(unit, 1)))
        out.append(Cand(start, m.end(), v))
    if words:
        out += [Cand(m.start(), m.end(), 0.0) for m in ZERO_WORDS.finditer(masked)]
    return sorted(out, key=lambda c: c.start)


def numbers_in(text: str) -> list[float]:
    """The distinct numbers written in a text (dates and times left out), in order."""
    return list(dict.fromkeys(c.value for c in number_cands(normalise(text), words=False)))


# ---------------------------------------------------------------------------- dates
def date_cands(text: str, today: date | None) -> list[Cand]:
    """Dates written in ``text``; ``today`` gives a date without a year the year nearest it."""
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
def tokens(text: str) -> list[tuple[str, int, int]]:
    """The words of ``text``, lower-cased, with where each starts and ends."""
    return [(m.group(0).lower(), m.start(), m.end()) for m in re.finditer(r"[^\W_]+", text)]


def phrase_hits(text: str, phrase: str) -> list[Cand]:
    """Where ``phrase`` occurs in ``text`` word for word (any case; a leading article optional)."""
    toks = tokens(text)
    want = [t for t, _, _ in tokens(phrase)]
    while want and want[0] in ("the", "a", "an"):
        want = want[1:]
    out = []
    if not want:
        return out
    for i in range(len(toks) - len(want) + 1):
        if [t for t, _, _ in toks[i:i + len(want)]] == want:
            out.append(Cand(toks[i][1], toks[i + len(want) - 1][2], phrase))
    return out


def name_like(value: str) -> bool:
    """Whether ``value`` looks like a person's name ("Imelda Rourke": two to four capitalised words)."""
    words = value.split()
    return 2 <= len(words) <= 4 and all(re.fullmatch(r"[A-Z][a-z'’-]+\.?", w) for w in words)


def title_hits(text: str, value: str) -> list[Cand]:
    """"Judge Rourke", "Dr. Zhang": an honorific or title then the surname."""
    surname = value.split()[-1].lower()
    toks = tokens(text)
    out = []
    for i, (t, s, e) in enumerate(toks):
        if t == surname and i > 0 and toks[i - 1][0] in HONORIFICS:
            out.append(Cand(toks[i - 1][1], e, value))
    return out


def id_shape(value: str) -> re.Pattern | None:
    """Ids and citations: letters kept, digit runs as digits ("KB0001207" → KB\\d+)."""
    if not re.search(r"\d", value):
        return None
    parts = []
    for tok in re.findall(r"[A-Za-z]+|\d+|\S", value):
        parts.append(r"\d+" if tok.isdigit() else r"[A-Za-z]" if len(tok) == 1 and tok.isalpha() else re.escape(tok))
    return re.compile(r"(?<![\w])" + r"\s*".join(parts) + r"(?![\w])", re.I)


# ---------------------------------------------------------------------------- showing values
def format_number(v: float) -> str:
    """A number as an answer line shows it: 58,400 or 1,234.5."""
    return f"{v:,.0f}" if float(v).is_integer() else f"{v:,}"


def show_value(v) -> str:
    """A candidate's value as an answer line shows it."""
    if isinstance(v, float):
        return format_number(v)
    return str(v)
