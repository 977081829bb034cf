"""Checks on the meridian documents, decks and drafts (Docs, Slides, Mail drafts).

Each check reads the final export, judges only what its task asks for, and returns vouches for
exactly the parts it examined and wanted changed (``harness.verify.artifacts``): the paragraphs
it read and found right, the slide it found, the notes it read. Every other change inside the
same document or deck is then left to the collateral-damage guard. Figures are read with
``states()`` — the way a person reads them — so a hedge ("$8,760,000 or $9,636,000") or a
competing value fails. Expected figures come from the world's own files (``checks.py``).

Paragraphs with blanks are judged where they stood at the start: the paragraph itself (or, if it
was deleted, the one new paragraph put in its place), never a copy made next to it; a copy that
still carries the paragraph's marker, or a blank anywhere, fails. Each blank is read on its own:
the text between the kept pieces of the original sentence must state *that* blank's figure, so
figures put in each other's blanks fail. In free text (a section, a draft, a bullet) each figure
is tied to the label it is written against ("the fund … is $X").
"""
from __future__ import annotations

import re
import unicodedata
from datetime import date
from pathlib import Path

from harness.verify import artifacts as A
from harness.verify import world_day
from harness.verify.answer import NEGATION, answer_text, date_cands, normalise, number_cands, states
from harness.verify.checks import world_module
from harness.verify.guard import Vouch

base = world_module(Path(__file__).parent, "checks")


# ---------------------------------------------------------------------------- helpers
def _norm(text: str | None) -> str:
    text = unicodedata.normalize("NFKC", text or "").replace("\u00a0", " ")
    return re.sub(r"\s+", " ", text).strip()


REFERENCE = re.compile(r"(?:§§?|¶¶?|\bsections?|\bparagraphs?|\bparas?\.|\bNos?\.|\bDkt\.|\bVol\.|\bPub\. Act|"
                       r"\bNotice)\s*[\d(][\w()\-–—.,]*(?:\s*(?:and|to|through|[-–—,])\s*[\d(][\w()\-–.]*)*"
                       r"|\b\d+(?:\([a-z0-9]+\))+|(?<![$\d,.])\b(?:19|20)\d\d\b(?![,.]\d)", re.I)


def _paragraphs(text: str) -> list[str]:
    """A text's paragraphs (blank lines between them; each bullet or block line its own) with the
    numbers of references masked — "§ 7(a)", "¶¶ 15–16", "Notice No. 2025-02", years — so that an
    "or" in "on or after" between a section number and a figure is not read as an alternative."""
    text = REFERENCE.sub(lambda m: re.sub(r"\d", "x", m.group(0)), _clean(text))
    out = []
    for para in re.split(r"\n\s*\n|\n(?=\s*[-•*]\s)", text):
        if para.strip():
            out.append(" ".join(para.split()))
    return out


def _figures(text: str, wanted: dict[str, int]) -> list[str]:
    """What's wrong with how ``text`` states each wanted figure (empty: each is stated, unhedged), read
    paragraph by paragraph as a person reads a letter: the figure stated in a paragraph, and no
    paragraph that carries it offering it with a hedge or another value beside it."""
    out = []
    paras = _paragraphs(text)
    for label, value in wanted.items():
        said, bad = [], []
        for para in paras:
            ok, why = states(para, "number", value)
            if not ok and why.startswith("the expected value is set aside"):
                # "applies the superseded 2022 rate and is short by $8,760,000": the word that sets a value
                # aside belongs to another part of the sentence; read the part the figure stands in.
                ok = False
                for part in re.split(r",\s+|\s+and\s+|\s+[—–]\s+", para):
                    at = next((c.start for c in number_cands(part, words=False) if abs(c.value - value) < 0.5), None)
                    if at is not None and not NEGATION.search(part[:at]) and states(part, "number", value)[0]:
                        ok = True
            if ok:
                said.append(para)
            elif any(abs(c.value - value) < 0.5 for c in number_cands(para, words=False)):
                bad.append(why)
            elif re.match(r"\W*(?:or|alternatively|otherwise|unless|if|but|possibly|perhaps|maybe|either)\b", para, re.I) \
                    and any(_money_like(para, c) and not any(abs(c.value - v) < 0.5 for v in wanted.values())
                            for c in number_cands(para, words=False)):
                bad.append(f"another figure offered in a paragraph of its own: {para[:80]!r}")
        if bad:
            out.append(f"{label} ({value:,}) not stated: {bad[0]}")
        elif not said:
            out.append(f"{label} ({value:,}) not stated in {' '.join(paras)[:120]!r}")
    return out


def _clean(text: str | None) -> str:
    """The text as a person reads its figures: normalised, currency codes as "$", and asides that set a
    value aside ("(not $9,636,000)") taken out, as the answer matcher reads them."""
    text = normalise(text).replace("US$", "$").replace("USD ", "$").replace(" USD", "")
    return re.sub(r"\s*\((?:not|rather than|instead of)\b(?!\s+(?:sure|certain|clear))[^()]*\)", "", text, flags=re.I)


def _today(ctx) -> date:
    return world_day(ctx.initial) or date(2026, 4, 6)


def _doc(ctx, title: str, export=None):
    return A.app_key(export or ctx.final, title, "doc")


def _start_block(ctx, title: str, marker: str) -> tuple[str | None, dict | None]:
    return A.block_with(ctx.initial, _doc(ctx, title, ctx.initial), marker)


# ---------------------------------------------------------------------------- the paragraph itself
def _stand_in(ctx, doc, start_key: str, marker: str | None = None):
    """The block that stands at the end for the start block ``start_key``: the block itself if it is
    still there; else the one block added in its place (between its surviving neighbours, of its type,
    with ``marker`` if given). Returns (key, block, gone, problem): ``gone`` the start block when it
    was replaced."""
    end = A.blocks(ctx.final, doc)
    by = dict(end)
    if start_key in by:
        return start_key, by[start_key], [], None
    start = A.blocks(ctx.initial, doc)
    keys0 = [k for k, _ in start]
    first = dict(start)[start_key]
    i = keys0.index(start_key)
    prev = next((k for k in reversed(keys0[:i]) if k in by), None)
    nxt = next((k for k in keys0[i + 1:] if k in by), None)
    keys1 = [k for k, _ in end]
    lo = keys1.index(prev) + 1 if prev is not None else 0
    hi = keys1.index(nxt) if nxt is not None else len(keys1)
    added = ctx.added("docs_blocks")
    cands = [k for k in keys1[lo:hi] if k in added and by[k]["type"] == first["type"]
             and (marker is None or marker in (by[k]["text"] or ""))]
    if len(cands) != 1:
        what = "nothing stands" if not cands else f"{len(cands)} paragraphs stand"
        return None, None, [], f"the paragraph “{_norm(first['text'])[:50]}…” was deleted and {what} in its place"
    return cands[0], by[cands[0]], [start_key], None


def _copies(ctx, doc, keep: str | None, marker: str) -> list[str]:
    """Blocks other than ``keep`` that carry ``marker``: a copy of the paragraph left next to it."""
    return [k for k, b in A.blocks(ctx.final, doc) if k != keep and marker in (b["text"] or "")]


def _slots(before: str, after: str, blanks: str) -> tuple[list[str] | None, str | None]:
    """The text standing in each blank of ``before`` (regex ``blanks``) in ``after``: the pieces of
    ``before`` between its blanks must all be in ``after``, in order, with nothing added before the
    first or after the last (spacing and the punctuation at a piece's edges aside). Returns (fills, None)
    or (None, what was lost)."""
    spans = list(re.finditer(blanks, before))
    cuts = [0] + [x for m in spans for x in (m.start(), m.end())] + [len(before)]
    pieces = [before[cuts[i]:cuts[i + 1]] for i in range(0, len(cuts), 2)]
    text = _norm(after)
    at, bounds = 0, []
    for piece in pieces:
        p = _norm(piece).strip(" ,.;:")
        if not p:
            bounds.append(None)
            continue
        m = re.compile(re.escape(p), re.I).search(text, at)
        if m is None:
            return None, f"its own text was changed ({p[:60]!r} is gone)"
        bounds.append((m.start(), m.end()))
        at = m.end()
    if bounds[0] is not None and text[:bounds[0][0]].strip(" ,.;:*"):
        return None, f"text was put before it: {text[:bounds[0][0]][:60]!r}"
    if bounds[-1] is not None and text[bounds[-1][1]:].strip(" ,.;:*"):
        return None, f"text was added after it: {text[bounds[-1][1]:][:60]!r}"
    fills = []
    for i in range(len(spans)):
        if bounds[i] is None and i > 0:
            return None, "two blanks side by side"
        lo = bounds[i][1] if bounds[i] is not None else 0
        hi = bounds[i + 1][0] if bounds[i + 1] is not None else len(text)
        fills.append(text[lo:hi])
    return fills, None


def _money_like(text: str, c) -> bool:
    v = float(c.value)
    return "$" in text[c.start:c.end] or (abs(v) >= 1000 and not (v.is_integer() and 1900 <= v <= 2100))


def _fill_problems(fill: str, label: str, kind: str, value, blanks: str, unit: str | None = None,
                   today: date | None = None, known: set = frozenset()) -> list[str]:
    """What's wrong with the text standing in one blank: it must state that blank's value, as a phrase
    (no sentence of its own), with no money figure beside it other than the task's own figures."""
    out = []
    if re.search(blanks, fill):
        return [f"the {label} blank is still there"]
    if not fill.strip(" ,.;:*()"):
        return [f"the {label} blank was deleted, not filled"]
    if re.search(r"(?<!\bNo)(?<!\bno)[.;!?]\s+[A-Z\d$]", fill.strip()):
        out.append(f"the {label} blank holds more than a figure: {fill.strip()[:60]!r}")
    if kind == "number":
        t = _clean(fill)
        stray = [c for c in number_cands(t, words=False) if _money_like(t, c)
                 and not any(abs(c.value - k) < 0.5 for k in set(known) | {value})]
        if stray:
            other = t[stray[0].start:stray[0].end]
            out.append(f"the {label} blank offers another figure ({other}): {fill.strip()[:60]!r}")
    ok, why = states(_clean(fill) if kind == "number" else fill, kind, value, unit=unit, today=today)
    if not ok:
        shown = f"{value:,}" if isinstance(value, int) else f"{value}"
        out.append(f"the {label} blank reads {fill.strip()[:60]!r}, not the {label} ({shown}): {why}")
    return out


def _filled(ctx, title: str, parts: list[tuple[str, str, list[tuple], str]]):
    """Blanks filled in paragraphs of a document. ``parts``: (name, marker, blanks in order as
    (label, kind, value, unit), blank regex). The paragraph judged is the one that had ``marker`` at
    the start (or the one new paragraph put in its place); no other paragraph may still carry the
    marker, and no blank may be left anywhere in the document. Returns (problems, vouched keys, gone)."""
    doc = _doc(ctx, title)
    problems, keys, gone = [], [], []
    if doc is None:
        return [f"“{title}” is gone"], [], []
    today = _today(ctx)
    gt, fund = base.gross_tonnage(ctx), base.fund_constituted(ctx)
    known = {base.rate_2025(ctx), gt, base.copla_limit(ctx), fund, base.fund_shortfall(ctx), fund / gt}
    for name, marker, want, blanks in parts:
        start_key, start = _start_block(ctx, title, marker)
        key, block, was, problem = _stand_in(ctx, doc, start_key, marker)
        if problem:
            problems.append(f"{name}: {problem}")
            continue
        bad = []
        copies = _copies(ctx, doc, key, marker)
        if copies:
            bad.append(f"another paragraph still carries {marker!r} (a copy next to it)")
        fills, lost = _slots(start["text"], block["text"] or "", blanks)
        if lost:
            bad.append(lost)
        elif len(fills) != len(want):
            bad.append(f"{len(fills)} blanks, not {len(want)}")
        else:
            for fill, (label, kind, value, unit) in zip(fills, want):
                bad += _fill_problems(fill, label, kind, value, blanks, unit, today, known)
        if bad:
            problems.append(f"{name}: {'; '.join(bad)}")
        else:
            keys.append(key)
            gone += was
    left = [b["text"] for _, b in A.blocks(ctx.final, doc)
            if any(re.search(bl, b["text"] or "") for _, _, _, bl in parts)]
    if left:
        problems.append(f"a blank is left in {_norm(left[0])[:70]!r}")
    return problems, keys, gone


# ---------------------------------------------------------------------------- figures and their labels
LABELS = {"limit": re.compile(r"\blimit\b", re.I),
          "fund": re.compile(r"\bfund\b", re.I),
          "shortfall": re.compile(r"\bshort(?:fall|age)?\b|\bdeficien\w*|\binsufficien\w*|\bdifference\b", re.I)}
OPERATOR = r"(?:[-−–×x*+=/]|minus|less|times|equals)"
SENTENCE = re.compile(r"[.;!?](?=\s+[A-Z(\[“\"$])|\n")


def _role(text: str, c, cands) -> str | None:
    """The label a figure is written against: "the fund … is $X", "$X fund", "short … by $X",
    "increase … to $X"; None for a figure that is a term of a sum shown ("$X − $Y = $Z") or unlabelled."""
    if re.match(rf"\s*{OPERATOR}\s*\$?\s*\d", text[c.end:], re.I) or \
            re.search(rf"\d[\d,.]*\s*(?:million|m|bn|k)?\s*\)?\s*{OPERATOR}\s*$", text[:c.start], re.I):
        return None
    after = re.match(r"\s*(?:limitation\s+)?(fund|limit|short(?:fall)?)\b", text[c.end:c.end + 30], re.I)
    if after:
        w = after.group(1).lower()
        return "shortfall" if w.startswith("short") else w
    cs = max([m.end() for m in SENTENCE.finditer(text, 0, c.start)] + [0])
    window = text[max(cs, c.start - 90):c.start]
    if re.search(r"\bbetween\s*(?:\$?\s*[\d,.]+\s*(?:million|m|bn)?\s*and\s*)?$", window, re.I):
        return None                      # "the difference between $L and $F": the terms of a sum
    if re.search(r"\bby\s*$", window, re.I):
        return "shortfall" if re.search(r"short|deficien|insufficien|increase|differ", window, re.I) else None
    if re.search(r"\bto\s*$", window, re.I) and re.search(r"\bincreas\w*", window, re.I):
        return "limit"
    big = [o for o in cands if o is not c and abs(o.value) >= 1000]
    best, at = None, -1
    off = c.start - len(window)
    bare = re.sub(r"\([^()]*\)", lambda m: " " * len(m.group(0)), window)     # "Shortfall (limit − fund):"
    for label, rx in LABELS.items():
        for m in rx.finditer(bare):
            s, e = off + m.start(), off + m.end()
            if any(o.end <= s and re.fullmatch(r"\s*(?:limitation\s+)?", text[o.end:s], re.I) for o in big):
                continue                 # "$151.84 million fund": the label belongs to the figure before it
            if e > at and not any(e <= o.start < c.start for o in big):
                best, at = label, e
    return best


ATTRIBUTED = re.compile(r"\b(?:comput\w*|calculat\w*|plead\w*|contend\w*|argu\w*|says?|said|claim(?:s|ed)|"
                        r"supersed\w*|2022|would|not|never|rather than|instead of)\b", re.I)


OTHER_AMOUNT = re.compile(r"\b(?:minimum|floor|at least|above|over|exceed\w*|per|rate)\b", re.I)


def _mislabelled(text: str, wanted: dict[str, int]) -> list[str]:
    """Figures written against another figure's label ("the fund … is $8,760,000"), and a figure that is
    none of them written against one's label ("the shortfall is $9,640,000 … $8.76M is another figure"):
    that label's figure given wrong, whatever else the text states."""
    text = _clean(text)
    cands = number_cands(text, words=False)
    out = []
    for c in cands:
        mine = [label for label, v in wanted.items() if abs(c.value - v) < 0.5]
        if not mine and (not _money_like(text, c) or abs(c.value) < 100_000):
            continue
        cs = max([m.end() for m in SENTENCE.finditer(text, 0, c.start)] + [0])
        if ATTRIBUTED.search(text[cs:c.start]):
            continue                     # "Halcyon computed its limit at $151,840,000": their figure, not ours
        if not mine and OTHER_AMOUNT.search(text[max(cs, c.start - 40):c.start]):
            continue                     # another amount ("the $23.3M minimum")
        role = _role(text, c, cands)
        if role not in wanted or role in mine:
            continue
        out.append(f"{text[max(0, c.start - 50):c.end].strip()!r} gives the {mine[0]} as the {role}" if mine else
                   f"{text[max(0, c.start - 50):c.end].strip()!r} gives the {role} as {c.value:,.0f} "
                   f"(it is {wanted[role]:,.0f})")
    return out


def _differences(text: str, limit: int, fund: int, short: int) -> list[tuple[int, int, str]]:
    """Where the sum is shown in ``_clean(text)``: "$160,600,000 − $151,840,000 = $8,760,000", the
    shortfall then the sum in brackets, or "the difference between $L and $F is $S" — as (start, end,
    the shortfall as written)."""
    text = _clean(text)
    cs = number_cands(text, words=False)
    eq = lambda c, v: abs(c.value - v) < 0.5
    minus = r"\s*\)?\s*(?:[-−–]|minus\b|less\b)[^$\d.;=]{0,30}?"
    result = (r"\s*\)?\s*,?\s*(?:=|equals?\b|leav\w*|giv\w*|is\b|comes? to|amounts? to|makes?\b|yields?\b|"
              r"i\.e\.|that is|or\b|resulting in|for a)[^$\d.;=]{0,40}?")
    out = []
    for a, b, c in zip(cs, cs[1:], cs[2:]):
        if eq(a, limit) and eq(b, fund) and eq(c, short):
            between = text[a.end:b.start]
            lead = re.search(r"(?:the\s+)?difference between\s*$", text[max(0, a.start - 40):a.start], re.I)
            if re.fullmatch(result, text[b.end:c.start], re.I):
                if re.fullmatch(minus, between, re.I):
                    out.append((a.start, c.end, text[c.start:c.end]))
                elif re.fullmatch(r"\s*and\s*", between, re.I) and lead:
                    out.append((a.start - len(lead.group(0)), c.end, text[c.start:c.end]))
    for f, a, c in zip(cs, cs[1:], cs[2:]):        # "subtracting $F from $L gives $S"
        if eq(f, fund) and eq(a, limit) and eq(c, short) and re.fullmatch(r"\s*from\s*", text[f.end:a.start], re.I) \
                and re.search(r"\b(?:subtract\w*|deduct\w*|take\w*)\s*(?:away\s*)?$", text[max(0, f.start - 20):f.start],
                              re.I) \
                and re.fullmatch(result, text[a.end:c.start], re.I):
            out.append((f.start, c.end, text[c.start:c.end]))
    for a, b in zip(cs, cs[1:]):                     # "… falls $S short of its limit ($L − $F)."
        if eq(a, limit) and eq(b, fund) and re.fullmatch(minus, text[a.end:b.start], re.I) \
                and re.search(r"\(\s*$", text[:a.start]) and re.match(r"\s*\)", text[b.end:]):
            cs0 = max([x.end() for x in SENTENCE.finditer(text, 0, a.start)] + [0])
            ce = SENTENCE.search(text, b.end)
            sentence = range(cs0, ce.start() if ce else len(text))
            if any(eq(c, short) and c.start in sentence for c in cs):
                out.append((a.start - 1, b.end + re.match(r"\s*\)", text[b.end:]).end(), ""))
    for s_, a, b in zip(cs, cs[1:], cs[2:]):
        if eq(s_, short) and eq(a, limit) and eq(b, fund) and re.fullmatch(minus, text[a.end:b.start], re.I) \
                and re.fullmatch(r"\s*[(:,]?\s*(?:=|i\.e\.,?|being|that is,?)?\s*\(?\s*", text[s_.end:a.start], re.I):
            close = re.match(r"\s*\)", text[b.end:])
            out.append((s_.start, b.end + (close.end() if close else 0), text[s_.start:s_.end]))
    return out


def _shows_difference(text: str, limit: int, fund: int, short: int) -> bool:
    return bool(_differences(text, limit, fund, short))


def _figures_with_sums(text: str, wanted: dict[str, int], limit: int, fund: int, short: int) -> list[str]:
    """``_figures``, reading a sum shown as the figure it gives: the terms of "$L − $F = $S" (or "the
    difference between $L and $F is $S") are not values competing with the fund stated elsewhere."""
    out = _figures(text, wanted)
    if not out:
        return out
    t = _clean(text)
    for s_, e, result in sorted(_differences(text, limit, fund, short), reverse=True):
        t = t[:s_] + result + t[e:]
    again = _figures(t, wanted)
    return [p for p in out if p.split(" (")[0] in {q.split(" (")[0] for q in again}]


# ---------------------------------------------------------------------------- claim v2
CLAIM_V2 = "Corvane Claim in Limitation – DRAFT v2"
CLAIM_BLANKS = r"\$?\[_+\]|\[AC:[^\]]*\]"


def claim_v2_paragraph_12(ctx):
    """¶ 12 of claim v2, where it stood: each blank holds its own figure — the rate (per gross ton),
    the gross tonnage, the limit, the shortfall — with its own text kept and no blank left."""
    want = [("rate", "number", base.rate_2025(ctx), "per gross ton"),
            ("gross tonnage", "number", base.gross_tonnage(ctx), "GT"),
            ("limit", "number", base.copla_limit(ctx), None),
            ("shortfall", "number", base.fund_shortfall(ctx), None)]
    problems, keys, gone = _filled(ctx, CLAIM_V2, [("¶ 12", "The fund is inadequate", want, CLAIM_BLANKS)])
    if problems:
        return False, "; ".join(problems)
    return True, "¶ 12 complete", A.block_vouches(ctx, keys, gone=gone)


def claim_v2_prayer_c(ctx):
    """Item (c) of the prayer for relief, where it stood, holds the shortfall; the rest of the prayer is
    kept."""
    want = [("shortfall", "number", base.fund_shortfall(ctx), None)]
    problems, keys, gone = _filled(ctx, CLAIM_V2, [("the prayer", "WHEREFORE", want, CLAIM_BLANKS)])
    if problems:
        return False, "; ".join(problems)
    return True, "prayer (c) complete", A.block_vouches(ctx, keys, gone=gone)


# ---------------------------------------------------------------------------- Pryce letter
PRYCE_LETTER = "Letter to J. Pryce re Limitation Fund – DRAFT"
PRYCE_BLANKS = r"\[(?:limit|fund|shortfall|date)\]"


def pryce_letter_filled(ctx):
    """Every blank of the letter filled with its own figure: the limit in ¶ 2, the fund and the
    shortfall in ¶ 3, the shortfall and the limit in the request, today's date on the date line; the
    letter's own text kept, in the paragraphs that were there."""
    limit, fund, short = base.copla_limit(ctx), base.fund_constituted(ctx), base.fund_shortfall(ctx)
    L, F, S = ("limit", "number", limit, None), ("fund", "number", fund, None), ("shortfall", "number", short, None)
    problems, keys, gone = _filled(ctx, PRYCE_LETTER, [
        ("¶ 2", "The limit.", [L], PRYCE_BLANKS),
        ("¶ 3", "The fund.", [F, S], PRYCE_BLANKS),
        ("the request", "We ask that Owners", [S, L], PRYCE_BLANKS),
    ])
    # The date line: the block that was "[date]" (or the one new block put in its place), a date alone.
    doc = _doc(ctx, PRYCE_LETTER)
    today = _today(ctx)
    start_key, _ = _start_block(ctx, PRYCE_LETTER, "[date]")
    key, line, was, problem = _stand_in(ctx, doc, start_key) if doc else (None, None, [], "the letter is gone")
    if problem:
        problems.append(f"the date line: {problem}")
    else:
        text = _norm(line["text"])
        ok, why = states(text, "date", today)
        if not ok or re.search(PRYCE_BLANKS, text) or len(text) > 40:
            problems.append(f"the date line reads {text[:60]!r}, not today's date "
                            f"({today:%B} {today.day}, {today.year})")
        else:
            keys.append(key)
            gone += was
    if problems:
        return False, "; ".join(problems)
    return True, "letter complete and dated", A.block_vouches(ctx, keys, gone=gone)


# ---------------------------------------------------------------------------- objection
OBJECTION = "Objection to Amount of Limitation Fund – DRAFT"
MAX_WORDS = 120         # "keep it to two short paragraphs"
PLACEHOLDER = "[Alex to draft"


def _section_at(export: dict, doc, heading_key: str) -> list[tuple[str, dict]] | None:
    """The blocks under the heading block ``heading_key`` (up to the next heading of its level or
    higher); None when the heading is gone."""
    bs = A.blocks(export, doc)
    keys = [k for k, _ in bs]
    if heading_key not in keys:
        return None
    i = keys.index(heading_key)
    level = bs[i][1]["level"]
    out = []
    for k, b in bs[i + 1:]:
        if b["type"] in ("heading", "title") and b["level"] <= level:
            break
        out.append((k, b))
    return out


def objection_shortfall_written(ctx):
    """The Shortfall section — the one the draft had, under its own heading — in place of the
    placeholder: one or two short paragraphs stating the fund as constituted, the limit and the
    difference, each figure against its own label, with the arithmetic shown (limit − fund = shortfall),
    as Eleanor's comment asks."""
    doc = _doc(ctx, OBJECTION)
    start = A.blocks(ctx.initial, _doc(ctx, OBJECTION, ctx.initial))
    head = next((k for k, b in start if b["type"] == "heading" and _norm(b["text"]).lower() == "the shortfall"), None)
    section = _section_at(ctx.final, doc, head) if doc else None
    if section is None:
        return False, "the heading “The Shortfall” is gone"
    paras = [(k, b) for k, b in section if (b["text"] or "").strip()]
    text = "\n".join(b["text"] for _, b in paras)
    if not paras:
        return False, "The Shortfall is empty"
    problems = []
    if any(PLACEHOLDER in (b["text"] or "") for _, b in A.blocks(ctx.final, doc)):
        problems.append("the placeholder is still there")
    if len(paras) > 2:
        problems.append(f"{len(paras)} paragraphs (Eleanor asked for two short ones)")
    if any(b["type"] != "paragraph" for _, b in paras):
        problems.append("not written as paragraphs: " + ", ".join(sorted({b["type"] for _, b in paras})))
    long_ = [len(b["text"].split()) for _, b in paras if len(b["text"].split()) > MAX_WORDS]
    if long_:
        problems.append(f"a paragraph of {long_[0]} words is not short")
    limit, fund, short = base.copla_limit(ctx), base.fund_constituted(ctx), base.fund_shortfall(ctx)
    wanted = {"fund": fund, "limit": limit, "shortfall": short}
    problems += _figures_with_sums(text, wanted, limit, fund, short)
    problems += _mislabelled(text, wanted)
    if not _shows_difference(text, limit, fund, short):
        problems.append("the arithmetic is not shown (limit − fund = shortfall), which Eleanor asked for in full")
    if problems:
        return False, "; ".join(problems)
    start_key, _ = _start_block(ctx, OBJECTION, PLACEHOLDER)
    keys = [k for k, _ in section]
    gone = [start_key] if start_key is not None and start_key not in A.records(ctx.final, "docs_blocks") else []
    return True, f"{len(paras)} paragraph(s): the fund, the limit and the shortfall, with the sum", \
        A.block_vouches(ctx, keys, gone=gone)


NORTHGATE = re.compile(r"Northgate.{0,80}?2019\s*PCAC\s*27|2019\s*PCAC\s*27.{0,80}?Northgate", re.I | re.S)
PINPOINT = re.compile(r"2019\s*PCAC\s*27\W{0,12}(?:at\s+)?(?:¶|para(?:graph)?s?\.?|at)\s*22\b", re.I)


def _insertions(before: str, after: str) -> tuple[str, str | None]:
    """(what ``after`` adds to ``before``, what of ``before`` it drops, rewrites or breaks into, if
    anything). Added sentences must sit between sentences of ``before`` (or replace only the full stop
    at a seam, "2025." → "2025; see …"); nothing inside a sentence is to be touched — not a word, not a
    quotation mark."""
    import difflib
    a = re.findall(r"\w+|[^\w\s]", _norm(before))
    b = re.findall(r"\w+|[^\w\s]", _norm(after))
    added, lost = [], []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if op == "equal":
            continue
        added += b[j1:j2]
        gone = a[i1:i2]
        seam = i2 == len(a) or re.match(r"[A-Z]", a[i2]) is not None
        if gone and not (len(gone) == 1 and gone[0] in ".;" and seam):
            lost += gone
        elif op == "insert" and not (i1 == 0 or i1 == len(a) or a[i1 - 1] in ".;:"):
            lost.append(f"(text put inside the sentence ending {' '.join(a[max(0, i1 - 4):i1 + 1])!r})")
    return " ".join(added), (" ".join(lost) or None)


def _cites(text: str) -> str | None:
    """What's missing from a citation of Northgate as Priya gave it (2019 PCAC 27, ¶ 22)."""
    if not NORTHGATE.search(text):
        return "no citation of Northgate Shipping (2019 PCAC 27)"
    if not PINPOINT.search(text):
        return "Northgate is cited without the ¶ 22 pinpoint Priya gave"
    return None


def objection_cites_northgate(ctx):
    """Northgate Shipping (2019 PCAC 27, ¶ 22) cited in a sentence added where Priya's comment sits
    (¶ 9), the paragraph's own text on the Notice kept as it was, quotation marks and all: added to ¶ 9
    between its sentences or in a new plain paragraph right after it."""
    doc = _doc(ctx, OBJECTION)
    start_key, start = _start_block(ctx, OBJECTION, "Halcyon's only answer")
    end = A.blocks(ctx.final, doc)
    keys = [k for k, _ in end]
    if start_key not in keys:
        return False, "¶ 9 (Halcyon's only answer …) is gone"
    i = keys.index(start_key)
    added, lost = _insertions(start["text"], end[i][1]["text"] or "")
    if lost:
        return False, f"¶ 9's own text was changed: {lost[:100]}"
    if added:
        missing = _cites(added)
        if missing:
            return False, f"the sentence added to ¶ 9: {missing}"
        return True, "cited in ¶ 9", A.block_vouches(ctx, [start_key])
    nxt = end[i + 1] if i + 1 < len(end) else None
    if nxt is not None and nxt[0] in ctx.added("docs_blocks") and nxt[1]["type"] == "paragraph":
        missing = _cites(nxt[1]["text"] or "")
        if missing:
            return False, f"the paragraph after ¶ 9: {missing}"
        return True, "cited in a paragraph right after ¶ 9", A.block_vouches(ctx, [nxt[0]])
    return False, "no sentence citing Northgate Shipping (2019 PCAC 27, ¶ 22) added to ¶ 9 or right after it"


# ---------------------------------------------------------------------------- settlement
SETTLEMENT = "Draft Settlement and Release – Calder Bay Fishermen's Cooperative (DRAFT)"
SUBORDINATION = re.compile(r"\s*\[Corvane agrees that its own claim against the Fund shall rank after[^\]]*\]")
CLAUSE_5 = "Ranking in the Limitation Proceeding"


def settlement_subordination_removed(ctx):
    """Clause 5 — the clause itself, where it stood — without the bracketed offer to rank Corvane's
    claim after the Cooperative's, and otherwise word for word as it was; no copy of the clause, and no
    paragraph still offering the subordination."""
    doc = _doc(ctx, SETTLEMENT)
    start_key, start = _start_block(ctx, SETTLEMENT, CLAUSE_5)
    want = _norm(SUBORDINATION.sub("", start["text"]))
    key, block, gone, problem = _stand_in(ctx, doc, start_key, CLAUSE_5)
    if problem:
        return False, f"clause 5: {problem}"
    problems = []
    if _norm(block["text"]) != want:
        problems.append(f"clause 5 reads {(block['text'] or '')[-160:]!r}; want {want[-120:]!r}")
    if _copies(ctx, doc, key, CLAUSE_5):
        problems.append("a second clause 5 (a copy next to it)")
    offers = [b["text"] for _, b in A.blocks(ctx.final, doc)
              if re.search(r"shall rank after the claims", b["text"] or "", re.I)]
    if offers:
        problems.append(f"a paragraph still offers the subordination: {_norm(offers[0])[:80]!r}")
    if problems:
        return False, "; ".join(problems)
    return True, "the option is deleted, the clause otherwise kept", A.block_vouches(ctx, [key], gone=gone)


# ---------------------------------------------------------------------------- exhibit list
EXHIBIT_LIST = "Exhibit list – Fund Adequacy Hearing"
DASH = r"\s*[-‐‑–]\s*"
EXHIBITS = [   # letter, what the item must name (regexes, all of them), what it must not name
    ("A", [r"vessel particulars"], []),
    ("B", [r"copla|coastal oil pollution liability act", r"7\D{1,6}9\D{1,6}12"], []),
    ("C", [rf"2025{DASH}0?2\b|notice\b.*\b2025\b"], [r"\b2022\b"]),
    ("D", [rf"2022{DASH}0?1\b|notice\b.*\b2022\b"], [r"\b2025\b"]),
    ("E", [r"complaint", r"14\s*(?:[-–—]|to|through)\s*16|14,?\s*15,?\s*(?:and|&)\s*16"], []),
    ("F", [r"brightwater"], [r"\bto brightwater", r"\bcorvane['’]s\b"]),
    ("G", [r"corvane", r"letter", r"brightwater"], []),
]
# What an item says the superseding or superseded notice is ("2022-01 (superseded by Notice No. 2025-02)") is
# not the item naming that notice.
ASIDE = re.compile(r"\(?\b(?:superseded by|superseding|supersedes|replaced by|replacing|in place of)\b[^,;)]*\)?", re.I)


def exhibit_problem(letter: str, needs: list[str], nots: list[str], text: str) -> str | None:
    """What is wrong with an item or row for exhibit ``letter`` (None: it names that exhibit): every ``needs``
    pattern, no ``nots`` outside an aside on what supersedes what; exhibit F the letter of March 31, 2026;
    exhibit G (whose date is still a blank) no date."""
    t = _norm(text)
    bare = ASIDE.sub("", t)
    missing = [n for n in needs if not re.search(n, t, re.I)] + [n for n in nots if re.search(n, bare, re.I)]
    if missing:
        return f"exhibit {letter} reads {text[:60]!r}"
    if letter == "F" and not states(text, "date", date(2026, 3, 31))[0]:
        return f"exhibit F is not the letter of March 31, 2026: {text[:60]!r}"
    if letter == "G" and date_cands(t, date(2026, 4, 6)):
        return f"exhibit G's letter has no date yet: {text[:60]!r}"
    return None


INTRO_WORDS = 60


def _title_key(name: str) -> str:
    return re.sub(r"\s*[-‐‑–—]\s*", " - ", _norm(name)).lower()


def _exhibit_item(letter: str, text: str) -> bool:
    t = _norm(text)
    return re.match(rf"(?:(?:exhibit|ex\.?)\s+)?{letter}\b(?!['’])", t, re.I) is not None or \
        re.search(rf"\b(?:exhibit|ex\.?)\s+{letter}\b", t, re.I) is not None


def _names_an_exhibit(text: str) -> bool:
    t = _norm(text)
    return re.search(r"(?i:\bexhibits?)\s+[A-H]\b", t) is not None or \
        any(all(re.search(n, t, re.I) for n in needs) for _, needs, _ in EXHIBITS if len(needs) > 1) or \
        re.search(r"vessel particulars|notice no\.?\s*20\d\d|\b(?:2025|2022)\s*[-–]\s*0\d\b|complaint\s*¶|"
                  r"letter (?:of|dated) (?:march|31)", t, re.I) is not None


def exhibit_list_doc(ctx):
    """A new Doc named “Exhibit list – Fund Adequacy Hearing” in the matter's 06 Internal Memos: a
    heading, at most one short note under it that names no exhibit, and exhibits A to G as a numbered
    list, one exhibit per item, in order — and nothing else."""
    memos = A.item_key(ctx.final, "06 Internal Memos", "folder")
    found = []
    for key, it in ctx.records("drive_items", which="new").items():
        if it["kind"] != "doc" or it.get("trashed"):
            continue
        if _title_key(it["name"]) != _title_key(EXHIBIT_LIST):
            found.append(f"a new doc named {it['name']!r}")
            continue
        if str(it.get("parent")) != str(memos):
            found.append(f"“{it['name']}” is not in 06 Internal Memos")
            continue
        doc = next((k for k, r in A.records(ctx.final, "docs_documents").items() if str(r["item"]) == key), None)
        blocks = [b for _, b in A.blocks(ctx.final, doc) if (b["text"] or "").strip()]
        bad = []
        shape = "".join("h" if b["type"] in ("heading", "title") else "n" if b["type"] == "numbered"
                        else "p" if b["type"] == "paragraph" else "x" for b in blocks)
        if not re.fullmatch(r"hp?n+", shape):
            bad.append("not a heading, an optional short note and the numbered list, and nothing else "
                       f"({', '.join(b['type'] for b in blocks)})")
        if "p" in shape and shape.startswith("hp"):
            intro = blocks[1]["text"]
            if len(intro.split()) > INTRO_WORDS or _names_an_exhibit(intro):
                bad.append(f"the note under the heading is not a short note naming no exhibit: {intro[:60]!r}")
        items = [b["text"] or "" for b in blocks if b["type"] == "numbered"]
        if len(items) != len(EXHIBITS):
            bad.append(f"{len(items)} numbered items, not {len(EXHIBITS)}")
        for (letter, needs, nots), text in zip(EXHIBITS, items):
            if not _exhibit_item(letter, text):
                bad.append(f"item for exhibit {letter} reads {text[:60]!r}")
            elif (why := exhibit_problem(letter, needs, nots, text)):
                bad.append(why)
        if not bad:
            return True, f"“{it['name']}” lists exhibits A–G", {"drive_items": [key], "docs_documents": [doc]}
        found.append(f"“{it['name']}”: {'; '.join(bad)}")
    return False, "; ".join(found) or f"no new document “{EXHIBIT_LIST}” in 06 Internal Memos"


# ---------------------------------------------------------------------------- draft to Pryce
PRYCE = "jonathan.pryce@brightwaterkessler.com"


def pryce_demand_draft(ctx):
    """A draft (not sent) in Alex's Drafts, to Jonathan Pryce alone — no cc or bcc, nothing attached —
    stating the shortfall and the limit, each against its own label."""
    limit, short = base.copla_limit(ctx), base.fund_shortfall(ctx)
    wanted = {"shortfall": short, "limit": limit, "fund": base.fund_constituted(ctx)}
    files = A.records(ctx.final, "mail_draft_files")
    found = []
    for key, d in ctx.records("mail_drafts", which="new").items():
        to = [a.strip().lower() for a in (d.get("to") or [])]
        if d.get("owner") != "alex.chen" or PRYCE not in to:
            continue
        bad = []
        if to != [PRYCE]:
            bad.append(f"addressed to {', '.join(to)}, not to Pryce alone")
        if d.get("cc") or d.get("bcc"):
            bad.append(f"copied to {', '.join((d.get('cc') or []) + (d.get('bcc') or []))}")
        attached = [f["name"] for f in files.values() if str(f.get("draft")) == str(key)]
        if attached:
            bad.append(f"attachments ({', '.join(attached)[:80]})")
        body = d.get("body") or ""
        bad += _figures(body, {"shortfall": short, "limit": limit})
        bad += _mislabelled(body, wanted)
        if not bad:
            return True, "the draft states the shortfall and the limit", \
                [Vouch.of("mail_drafts", key, to=[PRYCE])]
        found.append("; ".join(bad))
    return False, " | ".join(found) or "no new draft to Jonathan Pryce"


# ---------------------------------------------------------------------------- decks
CLIENT_UPDATE = "Client Update – Aurelia Dawn (April 2026)"
STRATEGY = "Case Strategy – Limitation and §9"


def _deck(ctx, title: str, export=None):
    return A.app_key(export or ctx.final, title, "deck")


def _slides(ctx, title: str, export=None) -> list[dict]:
    export = export or ctx.final
    return A.slides(export, _deck(ctx, title, export))


def _by_title(slides: list[dict], title: str) -> list[dict]:
    return [s for s in slides if _norm(s["boxes"].get("title")).lower() == _norm(title).lower()]


def client_update_total_confirmed(ctx):
    """On “The claims picture”, “[to confirm]” replaced by the third-party total from the register —
    that figure alone, no second total beside it; the rest of the box as it was."""
    want = base.third_party_total(ctx)
    start = _by_title(_slides(ctx, CLIENT_UPDATE, ctx.initial), "The claims picture")[0]
    before = start["boxes"]["left"]
    head, _, tail = before.partition("[to confirm]")
    end = next((s for s in _slides(ctx, CLIENT_UPDATE) if s["key"] == start["key"]), None)
    if end is None:
        return False, "the claims picture slide is gone"
    after = end["boxes"].get("left", "")
    a, h, t = after.replace("\r", ""), head.rstrip(), tail.strip()
    if not (a.startswith(h) and a.rstrip().endswith(t)) or len(a.rstrip()) < len(h) + len(t):
        return False, f"the left column was changed beyond “[to confirm]”: {after[-160:]!r}"
    middle = a[len(h):len(a.rstrip()) - len(t)] if t else a[len(h):]
    if "[to confirm]" in middle:
        return False, "still [to confirm]"
    ok, why = states(middle, "number", want)
    others = [c.value for c in number_cands(_clean(middle), words=False) if abs(c.value - want) >= 0.5]
    if not ok or "\n" in middle.strip() or others:
        extra = f"; another figure beside it: {others[0]:,.0f}" if ok and others else ""
        return False, f"the total reads {middle.strip()!r}; want {want:,} alone ({why}{extra})"
    return True, f"Third-party total: {middle.strip()}", A.slide_vouches(ctx, end, fields=(), boxes=("left",))


BULLET = ("- ", "• ", "* ")


def shortfall_slide_added(ctx):
    """A new title-and-body slide right after “Halcyon's limit vs. the fund it put up”, titled “The
    shortfall”, with three bullets — the limit, the fund and the shortfall, each bullet stating the
    figure of the thing it names — and no speaker notes (none were asked for)."""
    slides = _slides(ctx, CLIENT_UPDATE)
    anchor = "Halcyon's limit vs. the fund it put up"
    titles = [_norm(s["boxes"].get("title")) for s in slides]
    if anchor not in titles:
        return False, f"“{anchor}” is gone: {titles}"
    i = titles.index(anchor)
    new = slides[i + 1] if i + 1 < len(slides) else None
    added = ctx.added("slides_slides")
    if new is None or new["key"] not in added:
        return False, f"no new slide right after “{anchor}”: {titles}"
    problems = []
    if new["layout"] != "title_body":
        problems.append(f"layout {new['layout']}")
    if _norm(new["boxes"].get("title")).lower() != "the shortfall":
        problems.append(f"titled {new['boxes'].get('title')!r}")
    if _norm(new.get("notes")):
        problems.append(f"speaker notes were added, which nobody asked for: {_norm(new['notes'])[:80]!r}")
    body = new["boxes"].get("body", "")
    lines = [ln for ln in body.splitlines() if ln.strip()]
    if len(lines) != 3 or not all(ln.lstrip().startswith(BULLET) for ln in lines):
        problems.append(f"the body is not three bullet points: {body!r}")
    wanted = {"limit": base.copla_limit(ctx), "fund": base.fund_constituted(ctx),
              "shortfall": base.fund_shortfall(ctx)}
    problems += _figures(body, wanted)
    for ln in lines:
        problems += _mislabelled(ln, wanted)
    for label, v in wanted.items():
        if not any(_bullet_label(ln, wanted) == label and states(ln, "number", v)[0] for ln in lines):
            problems.append(f"no bullet gives the {label} with its figure")
    if problems:
        return False, "; ".join(problems)
    return True, f"slide {new['seq']}: The shortfall", A.slide_vouches(ctx, new)


def _bullet_label(line: str, wanted: dict[str, int]) -> str | None:
    """What a bullet is about: the label its first figure is written against."""
    text = _clean(line)
    cands = number_cands(text, words=False)
    for c in cands:
        if any(abs(c.value - v) < 0.5 for v in wanted.values()):
            role = _role(text, c, cands)
            if role:
                return role
    bare = re.sub(r"\([^()]*\)", " ", text)
    first = min(((m.start(), label) for label, rx in LABELS.items() for m in rx.finditer(bare)), default=None)
    return first[1] if first else None


def strategy_owners_second(ctx):
    """“Sequencing and owners” moved to slide 2; every other slide in its old order."""
    before = _slides(ctx, STRATEGY, ctx.initial)
    after = _slides(ctx, STRATEGY)
    moved = _by_title(before, "Sequencing and owners")[0]
    want = [before[0]["key"], moved["key"]] + [s["key"] for s in before[1:] if s["key"] != moved["key"]]
    got = [s["key"] for s in after]
    if got != want:
        return False, f"order {[_norm(s['boxes'].get('title')) for s in after]}"
    end = next(s for s in after if s["key"] == moved["key"])
    return True, "Sequencing and owners is slide 2", A.slide_vouches(ctx, end, fields=("seq",))


S9_TITLE = "Can Halcyon limit at all? COPLA §9"
S9 = re.compile(r"§\s*9|section\s+9|\bs\.\s*9\b", re.I)
ORALLY = re.compile(r"\boral(?:ly)?\b|\bverbal(?:ly)?\b|\bin person\b|\bin the room\b|\bat the meeting\b|"
                    r"\bspoken\b|\bby word of mouth\b|\bface[- ]to[- ]face\b", re.I)
NEGATED = re.compile(r"\bnot\b|n't\b|\bnever\b|\bno\b|\bwithout\b|\bneither\b|\bnor\b|\brather than\b|"
                     r"\binstead of\b|\bno longer\b|\bunless\b|\bif\b", re.I)
NOTE_WORDS = 40


def _grams(text: str, n: int = 5) -> set[tuple[str, ...]]:
    words = re.findall(r"\w+", _norm(text).lower())
    return {tuple(words[i:i + n]) for i in range(len(words) - n + 1)}


# What hedges a whole sentence ("if needed, …"); a negation binds only within its own clause.
HEDGED = re.compile(r"\bif\b|\bunless\b", re.I)
CLAUSE_BREAK = re.compile(r"[,;:]\s*|\s+[—–]\s+|\b(?:and|but|so|then|while|whereas)\b", re.I)


def _says_orally(note: str) -> str | None:
    """What's wrong with the added note (None: it names §9 and says, in a short note, that it will be covered
    orally — "covered orally", "in person", "at the meeting" — with no "not" in that clause and no "if" in
    that sentence: "§9 is no longer in the deck and will be covered orally" says it; "§9 will not be covered
    orally" and "if needed, §9 can be covered orally" don't)."""
    if len(note.split()) > NOTE_WORDS:
        return f"the added note is not a sentence but {len(note.split())} words"
    if S9.search(note):
        for sent in re.split(r"(?<=[.!?])\s+", note):
            for m in ORALLY.finditer(sent):
                before = sent[:m.start()]
                if not HEDGED.search(before) and not NEGATED.search(CLAUSE_BREAK.split(before)[-1]):
                    return None
    return f"the added note doesn't say §9 will be covered orally: {note[:140]!r}"


def board_deck_without_s9(ctx):
    """The §9 slide deleted and none of its analysis anywhere else in the deck; the notes of
    “Corvane's position” keep what was there and add a short sentence that §9 will be covered orally."""
    before = _slides(ctx, CLIENT_UPDATE, ctx.initial)
    after_list = _slides(ctx, CLIENT_UPDATE)
    after = {s["key"]: s for s in after_list}
    s9 = _by_title(before, S9_TITLE)[0]
    pos = _by_title(before, "Corvane's position")[0]
    problems = []
    if s9["key"] in after:
        problems.append("the §9 slide is still there")
    end = after.get(pos["key"])
    if end is None:
        problems.append("“Corvane's position” is gone")
    else:
        old, new = _norm(pos["notes"]), _norm(end["notes"])
        if old not in new:
            problems.append(f"its notes lost what was there: {new[:140]!r}")
        else:
            why = _says_orally(_norm(new.replace(old, " ", 1)))
            if why:
                problems.append(why)
    # The §9 analysis must not come back anywhere in the deck (in notes, boxes or a new slide).
    theirs = _grams(" ".join([t for r, t in s9["boxes"].items() if r != "title"] + [s9["notes"] or ""]))
    rest = set().union(*(_grams(" ".join(list(s["boxes"].values()) + [s["notes"] or ""]))
                         for s in before if s["key"] != s9["key"]))
    own = theirs - rest - _grams(ctx.task.prompt if getattr(ctx, "task", None) else "")
    for s in after_list:
        shared = own & _grams(" ".join(list(s["boxes"].values()) + [s["notes"] or ""]))
        if shared:
            title = _norm(s["boxes"].get("title"))
            problems.append(f"the §9 analysis reappears on “{title}”: {' '.join(sorted(shared)[0])!r}")
            break
    if problems:
        return False, "; ".join(problems)
    return True, "§9 slide deleted, note added", \
        [Vouch.of("slides_slides", s9["key"])] + A.slide_vouches(ctx, end, fields=("notes",))


# ---------------------------------------------------------------------------- answers
OTHER_CASES = re.compile(r"Northgate|Keel\s*&\s*Pike|Keel and Pike|Selkirk|2019\s*PCAC\s*27|2022\s*PCAC\s*41|"
                         r"2016\s*PCAC\s*9\b", re.I)
SET_ASIDE = re.compile(r"\bnot\b|n't\b|\brather than\b|\binstead of\b|\bunlike\b|\bother than\b|\bexcept\b|"
                       r"\bnor\b|\bsupersed\w*|\bwrong\b|\binstead\b", re.I)


def due_process_answer_names_one_case(ctx):
    """The answer names the due-process authority alone: another authority of the note (Northgate,
    Keel & Pike, Selkirk, or their citations) joined to it is a second answer, unless set aside
    ("not Northgate")."""
    text = answer_text(ctx.answer or "")
    for m in OTHER_CASES.finditer(text):
        cs = max([x.end() for x in re.finditer(r"[.;!?](?:\s|$)|\n|\(", text[:m.start()])] + [0])
        ce = re.compile(r"[.;!?](?:\s|$)|\n|\)").search(text, m.end())
        if not SET_ASIDE.search(text[cs:ce.start() if ce else len(text)]):
            return False, f"the answer also names {m.group(0)!r}: {text[:120]!r}"
    return True, "one authority named"
