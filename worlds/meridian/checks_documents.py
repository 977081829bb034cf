"""Checks on the meridian documents, decks and drafts (Docs, Slides, Mail drafts).

Each check reads the final export, judges only what its task asks for, and returns vouches for
exactly the parts it examined and wanted changed (``harness.verify.artifacts``): the paragraphs
it read and found right, the slide it found, the notes it read. Every other change inside the
same document or deck is then left to the collateral-damage guard. Figures are read with
``states()`` — the way a person reads them — so a hedge ("$8,760,000 or $9,636,000") or a
competing value fails. Expected figures come from the world's own files (``checks.py``).
"""
from __future__ import annotations

import re
import unicodedata
from datetime import date
from pathlib import Path

from harness.verify import artifacts as A
from harness.verify.answer import states
from harness.verify.checks import world_module
from harness.verify.guard import Vouch

base = world_module(Path(__file__).parent, "checks")


# ---------------------------------------------------------------------------- helpers
def _norm(text: str | None) -> str:
    text = unicodedata.normalize("NFKC", text or "").replace("\u00a0", " ")
    return re.sub(r"\s+", " ", text).strip()


def _keeps(before: str, after: str, blanks: str) -> str | None:
    """None if every piece of ``before`` outside its blanks (the regex ``blanks``) is still in
    ``after``, in order (spacing and the punctuation at a piece's edges aside); else the piece lost."""
    at = 0
    low = _norm(after).lower()
    for piece in re.split(blanks, before):
        piece = _norm(piece).strip(" ,.;:").lower()
        if not piece:
            continue
        i = low.find(piece, at)
        if i < 0:
            return piece
        at = i + len(piece)
    return None


def _figures(text: str, wanted: dict[str, int]) -> list[str]:
    """What's wrong with how ``text`` states each wanted figure (empty: each is stated, unhedged)."""
    out = []
    for label, value in wanted.items():
        ok, why = states(text, "number", value)
        if not ok:
            out.append(f"{label} ({value:,}) not stated: {why}")
    return out


def _today(ctx) -> date:
    from harness.verify import world_day
    return world_day(ctx.initial) or date(2026, 4, 6)


def _doc(ctx, title: str, export=None):
    return A.app_key(export or ctx.final, title, "doc")


def _start_block(ctx, title: str, marker: str) -> tuple[str | None, dict | None]:
    return A.block_with(ctx.initial, _doc(ctx, title, ctx.initial), marker)


def _candidates(ctx, doc, marker: str) -> list[tuple[str, dict]]:
    return [(k, b) for k, b in A.blocks(ctx.final, doc) if marker in (b["text"] or "")]


def _filled(ctx, title: str, parts: list[tuple[str, str, dict, str]]):
    """Blanks filled in paragraphs of a document. ``parts``: (label, marker, figures, blanks) — the
    paragraph is the block containing ``marker`` (at the start and at the end), it keeps its text
    outside the blanks (regex ``blanks``), has no blank left and states ``figures`` ({label: value}).
    Every paragraph with the marker is looked at; the first that is right is vouched for (in its text
    and formatting). Returns (problems, vouched block keys, blocks gone)."""
    doc = _doc(ctx, title)
    problems, keys, gone = [], [], []
    if doc is None:
        return [f"“{title}” is gone"], [], []
    for label, marker, figures, blanks in parts:
        start_key, start = _start_block(ctx, title, marker)
        cands = _candidates(ctx, doc, marker)
        if not cands:
            problems.append(f"{label}: no paragraph with {marker!r}")
            continue
        why = []
        for key, b in cands:
            text = b["text"] or ""
            bad = []
            if re.search(blanks, text):
                bad.append("a blank is left")
            lost = _keeps(start["text"], text, blanks) if start else None
            if lost:
                bad.append(f"its own text was changed ({lost[:60]!r} is gone)")
            bad += _figures(text, figures)
            if not bad:
                keys.append(key)
                if start_key is not None and start_key != key and start_key not in A.records(ctx.final, "docs_blocks"):
                    gone.append(start_key)
                break
            why.append("; ".join(bad))
        else:
            problems.append(f"{label}: {' | '.join(why)}")
    return problems, keys, gone


# ---------------------------------------------------------------------------- claim v2
CLAIM_V2 = "Corvane Claim in Limitation – DRAFT v2"
CLAIM_BLANKS = r"\$?\[_+\]|\[AC:[^\]]*\]"


def _claim_figures(ctx) -> dict:
    return {"rate": base.rate_2025(ctx), "gross tonnage": base.gross_tonnage(ctx),
            "limit": base.copla_limit(ctx), "shortfall": base.fund_shortfall(ctx)}


def claim_v2_paragraph_12(ctx):
    """¶ 12 of claim v2 states the rate, the gross tonnage, the limit and the shortfall, with its
    own text kept and no blank left."""
    problems, keys, gone = _filled(ctx, CLAIM_V2, [("¶ 12", "The fund is inadequate", _claim_figures(ctx),
                                                    CLAIM_BLANKS)])
    if problems:
        return False, "; ".join(problems)
    return True, "¶ 12 complete", A.block_vouches(ctx, keys, gone=gone)


def claim_v2_prayer_c(ctx):
    """Item (c) of the prayer for relief states the shortfall; the rest of the prayer is kept."""
    problems, keys, gone = _filled(ctx, CLAIM_V2, [("the prayer", "WHEREFORE",
                                                    {"shortfall": base.fund_shortfall(ctx)}, CLAIM_BLANKS)])
    if problems:
        return False, "; ".join(problems)
    return True, "prayer (c) complete", A.block_vouches(ctx, keys, gone=gone)


# ---------------------------------------------------------------------------- Pryce letter
PRYCE_LETTER = "Letter to J. Pryce re Limitation Fund – DRAFT"
PRYCE_BLANKS = r"\[(?:limit|fund|shortfall|date)\]"


def pryce_letter_filled(ctx):
    """Every blank of the letter filled: the limit in ¶ 2, the fund and the shortfall in ¶ 3, the
    shortfall and the limit in the request, and today's date; the letter's own text kept."""
    limit, fund, short = base.copla_limit(ctx), base.fund_constituted(ctx), base.fund_shortfall(ctx)
    problems, keys, gone = _filled(ctx, PRYCE_LETTER, [
        ("¶ 2", "The limit.", {"limit": limit}, PRYCE_BLANKS),
        ("¶ 3", "The fund.", {"fund": fund, "shortfall": short}, PRYCE_BLANKS),
        ("the request", "We ask that Owners", {"shortfall": short, "limit": limit}, PRYCE_BLANKS),
    ])
    # The date line: the block that was "[date]" (or the one that replaced it right there).
    doc = _doc(ctx, PRYCE_LETTER)
    start_key, _ = _start_block(ctx, PRYCE_LETTER, "[date]")
    today = _today(ctx)
    end = dict(A.blocks(ctx.final, doc)) if doc else {}
    line = end.get(start_key)
    if line is None:
        problems.append("the date line is gone")
    else:
        text = _norm(line["text"])
        ok, why = states(text, "date", today)
        if not ok or re.search(PRYCE_BLANKS, text) or len(text) > 40:
            problems.append(f"the date line reads {text[:60]!r}, not today's date ({today:%B} {today.day}, {today.year})")
        else:
            keys.append(start_key)
    if problems:
        return False, "; ".join(problems)
    return True, "letter complete and dated", A.block_vouches(ctx, keys, gone=gone)


# ---------------------------------------------------------------------------- objection
OBJECTION = "Objection to Amount of Limitation Fund – DRAFT"
MAX_WORDS = 120         # "keep it to two short paragraphs"


def objection_shortfall_written(ctx):
    """The Shortfall section, in place of the placeholder: one or two short paragraphs stating the
    fund as constituted, the limit and the difference."""
    doc = _doc(ctx, OBJECTION)
    section = A.section(ctx.final, doc, "The Shortfall")
    paras = [(k, b) for k, b in section if (b["text"] or "").strip()]
    text = "\n".join(b["text"] for _, b in paras)
    problems = []
    if not paras:
        return False, "The Shortfall is empty or gone"
    if "[Alex to draft" in text:
        problems.append("the placeholder is still there")
    if len(paras) > 2:
        problems.append(f"{len(paras)} paragraphs (Eleanor asked for two short ones)")
    long_ = [len(b["text"].split()) for _, b in paras if len(b["text"].split()) > MAX_WORDS]
    if long_:
        problems.append(f"a paragraph of {long_[0]} words is not short")
    problems += _figures(text, {"fund": base.fund_constituted(ctx), "limit": base.copla_limit(ctx),
                                "shortfall": base.fund_shortfall(ctx)})
    if problems:
        return False, "; ".join(problems)
    start_key, _ = _start_block(ctx, OBJECTION, "[Alex to draft")
    keys = [k for k, _ in section]
    gone = [start_key] if start_key is not None and start_key not in A.records(ctx.final, "docs_blocks") else []
    return True, f"{len(paras)} paragraph(s) with the fund, the limit and the shortfall", \
        A.block_vouches(ctx, keys, gone=gone)


NORTHGATE = re.compile(r"Northgate.{0,80}?2019\s*PCAC\s*27|2019\s*PCAC\s*27.{0,80}?Northgate", re.I | re.S)


def _insertions(before: str, after: str) -> tuple[str, str | None]:
    """(what ``after`` adds to ``before``, what of ``before`` it drops, rewrites or breaks into, if
    anything). Added sentences must sit between sentences of ``before`` (or replace only the
    punctuation at a seam, "2025." → "2025; see …"); words inside a sentence are not to be touched."""
    import difflib
    a = re.findall(r"\w+|[^\w\s]", _norm(before))
    b = re.findall(r"\w+|[^\w\s]", _norm(after))
    added, lost = [], []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if op == "equal":
            continue
        added += b[j1:j2]
        words = [t for t in a[i1:i2] if re.match(r"\w", t)]
        if words:
            lost += words
        elif op == "insert" and not (i1 == 0 or i1 == len(a) or a[i1 - 1] in ".;:"):
            lost.append(f"(text put inside the sentence ending {' '.join(a[max(0, i1 - 4):i1 + 1])!r})")
    return " ".join(added), (" ".join(lost) or None)


def objection_cites_northgate(ctx):
    """Northgate Shipping (2019 PCAC 27) cited in a sentence added where Priya's comment sits (¶ 9),
    the paragraph's own text on the Notice kept as it was: added to ¶ 9 or in a new plain paragraph
    right after it."""
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
    if NORTHGATE.search(added):
        return True, "cited in ¶ 9", A.block_vouches(ctx, [start_key])
    nxt = end[i + 1] if i + 1 < len(end) else None
    if not added and nxt is not None and nxt[0] in ctx.added("docs_blocks") and nxt[1]["type"] == "paragraph" \
            and NORTHGATE.search(nxt[1]["text"] or ""):
        return True, "cited in a paragraph right after ¶ 9", A.block_vouches(ctx, [nxt[0]])
    return False, "no sentence citing Northgate Shipping (2019 PCAC 27) added to ¶ 9 or right after it"


# ---------------------------------------------------------------------------- settlement
SETTLEMENT = "Draft Settlement and Release – Calder Bay Fishermen's Cooperative (DRAFT)"
SUBORDINATION = re.compile(r"\s*\[Corvane agrees that its own claim against the Fund shall rank after[^\]]*\]")


def settlement_subordination_removed(ctx):
    """Clause 5 without the bracketed offer to rank Corvane's claim after the Cooperative's, and
    otherwise word for word as it was."""
    doc = _doc(ctx, SETTLEMENT)
    start_key, start = _start_block(ctx, SETTLEMENT, "Ranking in the Limitation Proceeding")
    want = _norm(SUBORDINATION.sub("", start["text"]))
    cands = _candidates(ctx, doc, "Ranking in the Limitation Proceeding")
    for key, b in cands:
        if _norm(b["text"]) == want:
            return True, "the option is deleted, the clause otherwise kept", A.block_vouches(ctx, [key])
    found = cands[0][1]["text"] if cands else "nothing"
    return False, f"clause 5 reads {found[-160:]!r}; want {want[-120:]!r}"


# ---------------------------------------------------------------------------- exhibit list
EXHIBIT_LIST = "Exhibit list – Fund Adequacy Hearing"
EXHIBITS = [   # letter, what the item must name (regexes, all of them)
    ("A", [r"vessel particulars"]),
    ("B", [r"copla", r"7\D{1,6}9\D{1,6}12"]),
    ("C", [r"2025\s*[-‐‑–]\s*0?2\b"]),
    ("D", [r"2022\s*[-‐‑–]\s*0?1\b"]),
    ("E", [r"complaint", r"14\s*(?:[-–—]|to|through)\s*16"]),
    ("F", [r"brightwater"]),
    ("G", [r"corvane", r"letter", r"brightwater"]),
]


def _title_key(name: str) -> str:
    return re.sub(r"\s*[-‐‑–—]\s*", " - ", _norm(name)).lower()


def _exhibit_item(letter: str, text: str) -> bool:
    t = _norm(text)
    return re.match(rf"(?:exhibit\s+)?{letter}\b(?!['’])", t, re.I) is not None or \
        re.search(rf"\bexhibit\s+{letter}\b", t, re.I) is not None


def exhibit_list_doc(ctx):
    """A new Doc named “Exhibit list – Fund Adequacy Hearing” in the matter's 06 Internal Memos, with a
    heading and exhibits A to G as a numbered list, one exhibit per item, in order."""
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
        blocks = A.blocks(ctx.final, doc)
        items = [b["text"] or "" for _, b in blocks if b["type"] == "numbered"]
        bad = []
        if not any(b["type"] in ("heading", "title") and (b["text"] or "").strip() for _, b in blocks):
            bad.append("no heading")
        if len(items) != len(EXHIBITS):
            bad.append(f"{len(items)} numbered items, not {len(EXHIBITS)}")
        for (letter, needs), text in zip(EXHIBITS, items):
            missing = [n for n in needs if not re.search(n, _norm(text), re.I)]
            if not _exhibit_item(letter, text) or missing:
                bad.append(f"item for exhibit {letter} reads {text[:60]!r}")
            if letter == "F" and not states(text, "date", date(2026, 3, 31))[0]:
                bad.append(f"exhibit F is not the letter of March 31, 2026: {text[:60]!r}")
        if not bad:
            return True, f"“{it['name']}” lists exhibits A–G", {"drive_items": [key], "docs_documents": [doc]}
        found.append(f"“{it['name']}”: {'; '.join(bad)}")
    return False, "; ".join(found) or f"no new document “{EXHIBIT_LIST}” in 06 Internal Memos"


# ---------------------------------------------------------------------------- draft to Pryce
PRYCE = "jonathan.pryce@brightwaterkessler.com"


def pryce_demand_draft(ctx):
    """A draft (not sent) to Jonathan Pryce in Alex's Drafts stating the shortfall and the limit."""
    limit, short = base.copla_limit(ctx), base.fund_shortfall(ctx)
    found = []
    for key, d in ctx.records("mail_drafts", which="new").items():
        if d.get("owner") != "alex.chen" or PRYCE not in [a.lower() for a in (d.get("to") or [])]:
            continue
        bad = _figures(d.get("body") or "", {"shortfall": short, "limit": limit})
        if not bad:
            return True, "the draft states the shortfall and the limit", [Vouch.of("mail_drafts", key)]
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
    """On “The claims picture”, “[to confirm]” replaced by the third-party total from the register;
    the rest of the box as it was."""
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
    if not ok or "\n" in middle.strip():
        return False, f"the total reads {middle.strip()!r}; want {want:,} ({why})"
    return True, f"Third-party total: {middle.strip()}", A.slide_vouches(ctx, end, fields=(), boxes=("left",))


def shortfall_slide_added(ctx):
    """A new title-and-body slide right after “Halcyon's limit vs. the fund it put up”, titled “The
    shortfall”, with three bullets: the limit, the fund and the shortfall, each with its figure."""
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
    body = new["boxes"].get("body", "")
    lines = [ln for ln in body.splitlines() if ln.strip()]
    if len(lines) != 3 or not all(ln.lstrip().startswith(("- ", "• ", "* ")) for ln in lines):
        problems.append(f"the body is not three bullet points: {body!r}")
    wanted = {"limit": base.copla_limit(ctx), "fund": base.fund_constituted(ctx),
              "shortfall": base.fund_shortfall(ctx)}
    problems += _figures(body, wanted)
    for label, v in wanted.items():
        if not any(states(ln, "number", v)[0] for ln in lines):
            problems.append(f"no bullet states the {label}")
    if problems:
        return False, "; ".join(problems)
    return True, f"slide {new['seq']}: The shortfall", A.slide_vouches(ctx, new)


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
S9 = re.compile(r"§\s*9|section\s+9", re.I)


def board_deck_without_s9(ctx):
    """The §9 slide deleted; the notes of “Corvane's position” keep what was there and add that §9
    will be covered orally."""
    before = _slides(ctx, CLIENT_UPDATE, ctx.initial)
    after = {s["key"]: s for s in _slides(ctx, CLIENT_UPDATE)}
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
            extra = new.replace(old, "", 1)
            if not (S9.search(extra) and re.search(r"\boral(ly)?\b", extra, re.I)):
                problems.append(f"the added note doesn't say §9 is covered orally: {extra[:140]!r}")
    if problems:
        return False, "; ".join(problems)
    return True, "§9 slide deleted, note added", \
        [Vouch.of("slides_slides", s9["key"])] + A.slide_vouches(ctx, end, fields=("notes",))
