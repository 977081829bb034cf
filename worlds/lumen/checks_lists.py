"""Reading a list of names sent to a colleague over one or more messages, as the colleague would.

Used for the accounts each CSM takes over (lumen/leo-book-handover) and the leads Tessa hands to the AEs
(lumen/webinar-leads). A name counts as written in full or by its first word when that word is a name of
its own among the candidates ("Bluewater Shipping" and "Bluewater" for Bluewater Shipping Co.). Messages
are read in order, each adding to what the colleague was told — "…go to Dana as well", "PS: Starboard is
the biggest of them" — unless it says it replaces what came before ("ignore my earlier note", "corrected
list"). In a sentence that sets names aside — a denial ("aren't yours", "no longer"), another person
named as taking them ("Grace takes the rest: …", "…go to Dana"), or a status that isn't the list's ("still Working: …")
— the names are taken off the list, not put on it. A name offered with doubt ("possibly X", "not sure")
is a hedge: the list fails.
"""
from __future__ import annotations

import re

from harness.verify.answer import normalise
from harness.verify.reading import phrase_hits

SENTENCE = re.compile(r"(?<!\bCo)(?<!\bInc)(?<!\bDr)\.(?=\s|$)|[!?\n]")
NEGATION = re.compile(r"\bnot\b(?! sure)|n['’]t\b|\bno longer\b|\bexcept\b|\binstead of\b|\brather than\b|\bother than\b", re.I)
RESET = re.compile(r"\bignore (?:my|the) (?:earlier|previous|last)\b|\bscratch (?:that|my)\b|\bcorrected (?:list|version)\b|"
                   r"\bupdated (?:list|version)\b|\breplaces? (?:my|the) (?:earlier|previous|last)\b|\bfull list\b", re.I)
# Clauses of a sentence: a doubt binds to the names in its own clause ("…and possibly X, not sure yet"),
# not to advice about them ("Starboard is the biggest, so maybe start there").
CLAUSE = re.compile(r"[,;:()—]|\s-\s|\b(?:so|but|because|since)\b", re.I)
HEDGE = re.compile(r"\bpossibly\b|\bmaybe\b|\bperhaps\b|\bnot sure\b|\bmight\b|\bprobably\b|\bTBC\b|\bto be confirmed\b", re.I)


def _hits(text: str, names: dict[str, str]) -> dict[str, list]:
    """Where each candidate is named: in full, or by its first word when no other candidate shares it."""
    firsts: dict[str, list[str]] = {}
    for k, n in names.items():
        firsts.setdefault(n.split()[0].lower(), []).append(k)
    out = {}
    for k, n in names.items():
        spots = phrase_hits(text, n)
        first = n.split()[0]
        if not spots and len(firsts[first.lower()]) == 1 and len(first) >= 5:
            spots = phrase_hits(text, first)
        if spots:
            out[k] = spots
    return out


def told(messages: list[str], names: dict[str, str], others: list[str], off: re.Pattern | None = None) -> tuple[set, str]:
    """(the candidates the colleague was told are theirs, a problem or ""). ``names``: key → name;
    ``others``: words that name someone else taking names ("Grace", "Grace Okoro"); ``off``: words of a
    status that isn't the list's ("Working", "Unqualified")."""
    state: set = set()
    who = "(?:" + "|".join(re.escape(o) for o in sorted(others, key=len, reverse=True)) + ")"
    # someone else as the one taking them: "to Dana", "for Grace", "Grace takes the rest", "Dana's accounts"
    other = re.compile(rf"\b(?:to|for|with)\s+{who}\b|\b{who}(?:['’]s\b|\s+(?:takes?|gets?|has|have|keeps?|will|is taking)\b)",
                       re.I) if others else None
    for raw in messages:
        text = normalise(raw)
        if RESET.search(text):
            state = set()
        bounds = [0] + [m.end() for m in SENTENCE.finditer(text)] + [len(text)]
        for a, b in zip(bounds, bounds[1:]):
            sentence = text[a:b]
            hits = _hits(sentence, names)
            if not hits:
                continue
            cuts = [0] + [m.end() for m in CLAUSE.finditer(sentence)] + [len(sentence)]
            doubted = [k for k, spots in hits.items() for sp in spots
                       for a2, b2 in zip(cuts, cuts[1:]) if a2 <= sp.start < b2 and HEDGE.search(sentence[a2:b2])]
            if doubted or (HEDGE.search(sentence) and re.search(r"\bnot sure\b|\bTBC\b|\bto be confirmed\b", sentence, re.I)):
                return state, "a hedge: " + ", ".join(sorted({names[k] for k in (doubted or hits)})) + " offered with doubt"
            aside = NEGATION.search(sentence) or (other and other.search(sentence)) or (off and off.search(sentence))
            if aside:
                state -= set(hits)
                continue
            state |= set(hits)
    return state, ""
