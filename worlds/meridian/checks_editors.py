"""Checks of the meridian tasks that need the editors' newer features: suggested edits, charts, tables,
objects on slides. Expected values come from the world's start state (the clause as it stood, the claims
on the model's Claims tab), never typed by hand; the guard fails any write a check does not vouch for.
"""
from __future__ import annotations

import copy
import re
from datetime import date
from pathlib import Path

from apps.docs.suggest import apply as apply_suggestions
from harness.verify import artifacts as A
from harness.verify.answer import states
from harness.verify.checks import world_module
from harness.verify.guard import Vouch

D = world_module(Path(__file__).parent, "checks_documents")


def settlement_suggested_not_made(ctx):
    """Laura's change to clause 5 (delete the bracketed offer to rank Corvane's claim after the
    Cooperative's) proposed as suggested edits by the user, pending, on clause 5 itself: accepted, they
    leave the clause word for word as it was without the offer. The document's text is not changed (the
    guard: a changed block is not vouched for), and no suggestion touches another paragraph."""
    doc = D._doc(ctx, D.SETTLEMENT)
    start_key, start = D._start_block(ctx, D.SETTLEMENT, D.CLAUSE_5)
    if start_key is None:
        return False, "clause 5 is not in the start state", []
    block = A.records(ctx.final, "docs_blocks").get(str(start_key))
    if block is None:
        return False, "clause 5's paragraph is gone", []
    new = {k: r for k, r in ctx.added_by_agent("docs_suggestions").items() if str(r.get("doc")) == str(doc)}
    pending = {k: r for k, r in new.items() if r.get("status") == "pending"}
    if not pending:
        decided = sorted({r.get("status") for r in new.values()})
        return False, "no pending suggested edit in the settlement draft" + (f" ({decided})" if decided else ""), []
    elsewhere = [r for r in pending.values() if str(r.get("block")) != str(start_key)]
    if elsewhere:
        return False, f"{len(elsewhere)} suggested edit(s) outside clause 5: {elsewhere[0].get('text')!r:.80}", []
    suggestions = [{**r, "id": int(k)} for k, r in pending.items()]
    accepted = apply_suggestions({"type": block.get("type", "p"), "text": block["text"] or "",
                                  "level": block.get("level", 0), "marks": []},
                                 suggestions, {s["id"] for s in suggestions})[0]["text"]
    want = D._norm(D.SUBORDINATION.sub("", start["text"]))
    if D._norm(accepted) != want:
        return False, f"accepted, clause 5 would read {D._norm(accepted)[-160:]!r}; want {want[-120:]!r}", []
    withdrawn = [k for k, r in new.items() if r.get("status") == "rejected"]      # taken back: nothing
    return True, f"{len(pending)} suggested edit(s) delete the offer; the text itself unchanged", \
        [Vouch.of("docs_suggestions", k) for k in [*pending, *withdrawn]]


# ---------------------------------------------------------------------------- the exhibit table
EXHIBIT_TABLE = "Exhibit table – Fund Adequacy Hearing"


def _cells(text: str) -> list[list[str]]:
    return [row.split("\t") for row in (text or "").split("\n")]


DOCUMENT_WORDS = re.compile(r"vessel particulars|notice no\.?\s*20\d\d|\b(?:2025|2022)\s*[-–]\s*0\d\b|complaint\s*¶|"
                            r"letter (?:of|dated) (?:march|31)", re.I)


def _heading_names_a_document(text: str) -> bool:
    """A heading that says which document an exhibit is ("Exhibits A–G (D: Notice No. 2025-02)") — a
    heading that just names the exhibits ("Exhibits A–G, hearing of April 22") is fine."""
    return DOCUMENT_WORDS.search(D._norm(text)) is not None


def exhibit_table_doc(ctx):
    """A new Doc named “Exhibit table – Fund Adequacy Hearing” in the matter's 06 Internal Memos: a heading,
    at most one short note naming no exhibit, then one table — a header row Exhibit | Document, then
    exhibits A to G, one row each, in order, each naming its document (C the 2025 notice, D the superseded
    2022 one, F the letter of March 31, 2026) — and nothing else."""
    memos = A.item_key(ctx.final, "06 Internal Memos", "folder")
    found = []
    for key, it in ctx.records("drive_items", which="new").items():
        if it["kind"] != "doc" or it.get("trashed"):
            continue
        if D._title_key(it["name"]) != D._title_key(EXHIBIT_TABLE):
            found.append(f"a new doc named {it['name']!r}")
            continue
        if str(it.get("parent")) != str(memos):
            found.append(f"“{it['name']}” is not in 06 Internal Memos")
            continue
        doc = next((k for k, r in A.records(ctx.final, "docs_documents").items() if str(r["item"]) == key), None)
        blocks = [b for _, b in A.blocks(ctx.final, doc) if (b["text"] or "").strip()]
        shape = "".join("h" if b["type"] in ("heading", "title") else "t" if b["type"] == "table"
                        else "p" if b["type"] == "paragraph" else "x" for b in blocks)
        bad = []
        if not re.fullmatch(r"h{1,2}p?tp?", shape):
            bad.append("not a heading, an optional short note and one table, and nothing else "
                       f"({', '.join(b['type'] for b in blocks)})")
        for b in blocks:
            if b["type"] in ("heading", "title") and _heading_names_a_document(b["text"]):
                bad.append(f"the heading names an exhibit's document: {b['text'][:60]!r}")
            if b["type"] == "paragraph" and (len(b["text"].split()) > D.INTRO_WORDS or D._names_an_exhibit(b["text"])):
                bad.append(f"the note is not a short note naming no exhibit: {b['text'][:60]!r}")
        tables = [b for b in blocks if b["type"] == "table"]
        rows = [[D._norm(c) for c in r] for r in _cells(tables[0]["text"])] if tables else []
        rows = [r for r in rows if any(r)]                                 # an empty last row is nothing
        if rows and [c.lower() for c in rows[0] if c] != ["exhibit", "document"]:
            bad.append(f"the header row is {rows[0]}, not Exhibit | Document")
        body = rows[1:]
        if tables and len(body) != len(D.EXHIBITS):
            bad.append(f"{len(body)} rows under the header, not {len(D.EXHIBITS)}")
        tonnage = world_module(Path(__file__).parent, "checks").gross_tonnage(ctx)
        for (letter, needs, nots), row in zip(D.EXHIBITS, body):
            cells = row
            if len([c for c in cells if c]) != 2 or len(cells) < 2 or any(cells[2:]):
                bad.append(f"the row for exhibit {letter} is not two cells: {cells}")
                continue
            first, doc_text = cells[0], cells[1]
            if not re.fullmatch(rf"(?:(?:exhibit|ex\.?)\s+)?{letter}\.?", first, re.I):
                bad.append(f"the row for exhibit {letter} is headed {first!r}")
            elif (why := D.exhibit_problem(letter, needs, nots, doc_text)):
                bad.append(why)
            tons = [int(x.replace(",", "")) for x in re.findall(r"(\d[\d,]{2,})\s*(?:gross\s*ton|GT\b)", doc_text, re.I)]
            if any(t != tonnage for t in tons):
                bad.append(f"exhibit {letter} gives a tonnage that is not the gross tonnage: {doc_text[:60]!r}")
        if not bad:
            return True, f"“{it['name']}” tables exhibits A–G", {"drive_items": [key], "docs_documents": [doc]}
        found.append(f"“{it['name']}”: {'; '.join(bad)}")
    return False, "; ".join(found) or f"no new document “{EXHIBIT_TABLE}” in 06 Internal Memos"


# ---------------------------------------------------------------------------- the claims chart
DAMAGES = "Damages Model – Aurelia Dawn"
CLAIMS_CHART_TITLE = "Third-party claims against the fund"


def _grid(export: dict, tab: str) -> dict[tuple[int, int], dict]:
    return {(c["row"], c["col"]): c for c in A.records(export, "sheets_cells").values() if str(c["tab"]) == str(tab)}


def live_third_party_claims(export: dict) -> list[tuple[str, float]]:
    """(claim ID, amount) of the Claims tab's rows whose Type is Third party, in the sheet's order."""
    tab = A.tab_key(export, A.app_key(export, DAMAGES, "sheet"), "Claims")
    grid = _grid(export, tab)
    head = {str(c.get("value") or "").strip(): col for (r, col), c in grid.items() if r == 1}
    rows = sorted(r for (r, col) in grid if r > 1 and col == head["Claim ID"])
    return [(grid[(r, head["Claim ID"])]["value"], grid[(r, head["Amount (USD)"])]["value"]) for r in rows
            if str((grid.get((r, head["Type"])) or {}).get("value") or "").strip().lower() == "third party"]


def _title(text) -> str:
    """A title as a person reads it: any dash a hyphen, spacing and case and a closing full stop ignored."""
    return re.sub(r"[\u2010-\u2015]", "-", D._norm(text)).rstrip(".").strip().lower()


def claims_chart(ctx):
    """One new column chart on the damages model's Claims tab, titled “Third-party claims against the fund”,
    plotting one series: the amount of each third-party claim (CL-001 … CL-005 — not Corvane's own, not the
    withdrawn marina claim), one column per claim labelled by its ID, in the tab's order. The figures are
    not changed (the guard)."""
    from apps.sheets.service.charts import plot_data
    book = A.app_key(ctx.final, DAMAGES, "sheet")
    tabs = {k for k, t in A.records(ctx.final, "sheets_tabs").items() if str(t["book"]) == str(book)}
    new = {k: r for k, r in ctx.added_by_agent("sheets_charts").items() if str(r.get("tab")) in tabs}
    if not new:
        return False, "no new chart in the damages model", []
    if len(new) > 1:
        return False, f"{len(new)} new charts", []
    key, ch = next(iter(new.items()))
    claims_tab = A.tab_key(ctx.final, book, "Claims")
    if str(ch["tab"]) != str(claims_tab):
        return False, "the chart is not on the Claims tab", []
    if ch.get("type") != "column":
        return False, f"a {ch.get('type')} chart, not a column chart", []
    if _title(ch.get("title")) != _title(CLAIMS_CHART_TITLE):
        return False, f"titled {ch.get('title')!r}", []
    data = plot_data(_grid(ctx.final, claims_tab), ch["range"])
    want = live_third_party_claims(ctx.initial)
    if len(data["series"]) != 1:
        return False, f"{len(data['series'])} series ({[s['name'] for s in data['series']]}), not the amounts alone", []
    got = list(zip(data["categories"], data["series"][0]["values"]))
    if got != want:
        return False, f"it plots {got}, not {want}", []
    return True, f"a column chart of the {len(want)} third-party claims by ID", [Vouch.of("sheets_charts", key)]


# ---------------------------------------------------------------------------- the grounding slide
GROUNDING_TITLE = "What happened on Tern Reef"
GROUNDING_IMAGE = "Tern Reef grounding position.png"
SURVEY = ("sofia.marchetti/Matters/Corvane – Aurelia Dawn (M-2026-0147)/02 Vessel & Casualty/"
          "Final Survey Report – Calder Marine Surveys (2026-03-06).pdf.md")
NM = re.compile(r"(\d+(?:\.\d+)?)(?:\s*(?:[-–—/]|to|or|and)\s*(\d+(?:\.\d+)?))?\s*(?:nm\b|n\.\s?m\.|nautical miles?)",
                re.I)


def grounding_facts(ctx) -> tuple[str, float]:
    """When she grounded (hh:mm) and how far east of her planned route (nm), as the final survey's
    deviation finding states them."""
    text = (Path(ctx.world_root) / "drive" / SURVEY).read_text(encoding="utf-8")
    m = re.search(r"At (\d\d:\d\d) she grounded at a position \*\*(\d+(?:\.\d+)?) nm east of the planned route",
                  text)
    if m is None:
        raise LookupError("the survey's deviation finding is not where the check reads it")
    return m.group(1), float(m.group(2))


TIME = re.compile(r"(?<![\d:.,$])(\d{1,2})(?:[:.h](\d{2})|(\d{2})(?=\s*(?:hrs?\b|hours\b|h\b|lt\b|local\b)))"
                  r"(?!\d)\s*(a\.?m\.?|p\.?m\.?)?", re.I)
HEDGE = re.compile(r"\b(?:or|possibly|maybe|perhaps|either|might|may have|unclear|disputed)\b|\?", re.I)
DECIMAL = re.compile(r"(?<![\d.,])\d+\.\d+(?![\d.])")


def _clauses(text: str) -> list[str]:
    return [c for c in re.split(r"(?<=[.;!?])\s+|\n", text) if c.strip()]


def _grounding_problems(text: str, when: str, miles: float) -> list[str]:
    """What is wrong with how the slide's text states the grounding: every time of day given is the
    grounding time (03:40: not 3:40 pm, not the pilot's 04:30, not "03:40 or 04:30"); every distance, with
    a unit or as a bare decimal, is the 0.8 miles and east of the route (not west); any date is the 14th of
    February 2026; nothing about them hedged."""
    from harness.verify.answer import date_cands
    from harness.verify.reading import negated
    set_aside = lambda at: re.search(r"\b(?:not|rather than|instead of|never)\s*\(?$", text[max(0, at - 16):at], re.I)  # noqa: E731
    problems = []
    gh, gm = (int(x) for x in when.split(":"))
    times = []
    for m in TIME.finditer(text):
        if set_aside(m.start()):
            continue
        h, mins = int(m.group(1)), int(m.group(2) or m.group(3))
        if h > 23 or mins > 59:
            continue
        ampm = (m.group(4) or "").lower().replace(".", "")
        if ampm == "pm" and h < 12:
            h += 12
        elif ampm == "am" and h == 12:
            h = 0
        times.append((h, mins))
    if (gh, gm) not in times:
        problems.append(f"the grounding time {when} is not stated")
    if any(t != (gh, gm) for t in times):
        problems.append(f"another time is given ({', '.join(f'{h:02d}:{m:02d}' for h, m in times if (h, m) != (gh, gm))})")
    dists = [float(m.group()) for m in DECIMAL.finditer(text) if not set_aside(m.start())] + \
        [float(x) for m in NM.finditer(text) if not set_aside(m.start()) for x in m.groups() if x]
    if miles not in dists:
        problems.append(f"the distance {miles} nm is not stated")
    if any(abs(d - miles) > 1e-9 for d in dists):
        problems.append(f"another distance is given ({sorted({d for d in dists if abs(d - miles) > 1e-9})})")
    for c in _clauses(text):
        if any(abs(float(x) - miles) < 1e-9 for x in DECIMAL.findall(c)):
            if not re.search(r"\beast", c, re.I) or re.search(r"\bwest", c, re.I):
                problems.append(f"not east of the route: {c[:80]!r}")
        if (TIME.search(c) or DECIMAL.search(c)) and HEDGE.search(re.sub(r"\bnot\b[^,;)]*", "", c)):
            problems.append(f"hedged: {c[:80]!r}")
    wrong_days = {str(d.value) for d in date_cands(text, date(2026, 2, 14)) if not negated(text, d)} - {"2026-02-14"}
    if wrong_days:
        problems.append(f"another date ({', '.join(sorted(wrong_days))})")
    return problems


def grounding_slide(ctx):
    """A new slide right after the client update's title slide, titled “What happened on Tern Reef”, with the
    Tern Reef grounding-position image from the data room and text (a text box or the layout's body) giving
    the grounding time (03:40) and the distance east of the planned route (0.8 nm) — no other distance in
    nautical miles, one image, nothing on the other slides (the guard)."""
    deck = D._deck(ctx, D.CLIENT_UPDATE)
    before = {s["key"] for s in A.slides(ctx.initial, D._deck(ctx, D.CLIENT_UPDATE, ctx.initial))}
    final = A.slides(ctx.final, deck)
    new = [s for s in final if s["key"] not in before]
    if len(new) != 1:
        return False, f"{len(new)} new slides in the client update", []
    s = new[0]
    pos = [x["key"] for x in final].index(s["key"]) + 1
    if pos != 2:
        return False, f"the new slide is slide {pos}, not right after the title slide", []
    if D._norm(s["boxes"].get("title")).lower() != GROUNDING_TITLE.lower():
        return False, f"its title is {s['boxes'].get('title')!r}", []
    objs = [o for o in A.records(ctx.final, "slides_objects").values() if str(o["slide"]) == s["key"]]
    image = A.item_key(ctx.final, GROUNDING_IMAGE, "file")
    images = [o for o in objs if o["kind"] == "image"]
    if [str(o.get("item")) for o in images] != [str(image)]:
        return False, f"{len(images)} image(s) on it, not the grounding-position image alone", []
    texts = [D._norm(o.get("text")) for o in objs if o["kind"] in ("text", "shape") and D._norm(o.get("text"))]
    if len(set(texts)) != len(texts):
        return False, "the same text box twice", []
    text = "\n".join([o.get("text") or "" for o in objs if o["kind"] in ("text", "shape")]
                     + [t for role, t in s["boxes"].items() if role != "title"])
    when, miles = grounding_facts(ctx)
    problems = _grounding_problems(D._norm(text.replace("\n", ". ")), when, miles)
    if problems:
        return False, "; ".join(problems) + f" — text: {D._norm(text)[:120]!r}", []
    return True, f"slide 2: the image and {when}, {miles} nm east", A.slide_vouches(ctx, s)


# ---------------------------------------------------------------------------- Priya's suggested edits
OUTLINE = "Hearing Outline – Fund Adequacy Hearing (April 22)"
B = world_module(Path(__file__).parent, "checks")


def _edits(export: dict, doc) -> dict[tuple, dict[str, dict]]:
    """The document's pending suggestions grouped into edits (a deletion and the insertion typed over it):
    (block, author, time) -> {key: record}."""
    out: dict[tuple, dict[str, dict]] = {}
    for k, r in A.records(export, "docs_suggestions").items():
        if str(r["doc"]) == str(doc) and r.get("status") == "pending":
            out.setdefault((str(r["block"]), r["author"], r.get("created_at")), {})[k] = r
    return out


def _applied(block: dict, recs: dict[str, dict], accept: set[str]) -> str:
    suggestions = [{**r, "id": int(k)} for k, r in recs.items()]
    return apply_suggestions({"type": block.get("type", "paragraph"), "text": block["text"] or "",
                              "level": block.get("level", 0), "marks": []},
                             suggestions, {int(k) for k in accept})[0]["text"]


def _minutes(text: str) -> int:
    m = re.search(r":\s*(\d+)\s*minutes?\b", text)
    return int(m.group(1)) if m else 0


def _edit_is_right(ctx, blocks: dict[str, dict], key: str, text: str) -> tuple[bool, str]:
    """Whether a suggested edit, applied on its own (``text``: its paragraph after it), keeps the outline
    true: the rate on the incident date is Notice No. 2025-02's, and the time plan fits the minutes the
    judge allots each side."""
    rate = re.search(r"the rate was \$([\d,]+)", text)
    if rate and B._money(rate.group(1)) != B.rate_2025(ctx):
        return False, f"the rate becomes ${rate.group(1)}, not ${B.rate_2025(ctx):,} (Notice No. 2025-02)"
    order = sorted(blocks, key=lambda k: blocks[k]["seq"])
    allot = next((int(m.group(1)) for k in order if (m := re.search(r"(\d+) minutes per side", blocks[k]["text"] or ""))),
                 None)
    plan = [k for k in order if blocks[k]["type"] in ("bullet", "bulleted") and _minutes(blocks[k]["text"] or "")
            and re.search(r"minutes?\b", blocks[k]["text"] or "")]
    if key in plan and allot is not None:
        total = sum(_minutes(text if k == key else blocks[k]["text"] or "") for k in plan)
        if total > allot:
            return False, f"the plan comes to {total} minutes, over the {allot} allotted"
    return True, "keeps the outline true"


def outline_suggestions_reviewed(ctx):
    """Every suggested edit Priya left in Eleanor's hearing outline decided, none left pending: the right
    ones accepted (the tonnage's source, "per gross ton") and the wrong ones rejected (the superseded rate as
    the rate on the incident date; a reply allowance that takes the plan over the judge's 30 minutes); the
    outline's text exactly the start text with the right edits in, and nothing else changed."""
    doc0, doc = D._doc(ctx, OUTLINE, ctx.initial), D._doc(ctx, OUTLINE)
    start_blocks = {k: b for k, b in A.blocks(ctx.initial, doc0)}
    final_recs = A.records(ctx.final, "docs_suggestions")
    edits = _edits(ctx.initial, doc0)
    if not edits:
        return False, "the outline has no suggested edits to review", []
    problems, vouch, blocks_touched = [], [], []
    by_block: dict[str, tuple[dict, set[str]]] = {}
    for (bk, author, when), recs in edits.items():
        after = _applied(start_blocks[bk], recs, set(recs))
        right, why = _edit_is_right(ctx, start_blocks, bk, after)
        want = "accepted" if right else "rejected"
        got = {(final_recs.get(k) or {}).get("status") for k in recs}
        if got != {want}:
            shown = " / ".join(f"{r['kind']} {r['text']!r}" for r in recs.values())
            problems.append(f"{shown}: {sorted(map(str, got))}, want {want} ({why})")
        allrecs, acc = by_block.setdefault(bk, ({}, set()))
        allrecs.update(recs)
        if right:
            acc.update(recs)
        vouch += [Vouch.of("docs_suggestions", k) for k in recs]
    finals = {k: b for k, b in A.blocks(ctx.final, doc)}
    for bk, (recs, acc) in by_block.items():
        want_text = _applied(start_blocks[bk], recs, acc)
        got_text = (finals.get(bk) or {}).get("text")
        if D._norm(got_text) != D._norm(want_text):
            problems.append(f"a paragraph reads {D._norm(got_text)[:80]!r}, want {D._norm(want_text)[:80]!r}")
        blocks_touched.append(bk)
    pending = [r for r in final_recs.values() if str(r["doc"]) == str(doc) and r.get("status") == "pending"]
    if pending:
        problems.append(f"{len(pending)} suggestion(s) still pending")
    if problems:
        return False, "; ".join(problems), []
    # the user's own suggestions taken back, and comments or replies on the outline (saying why an edit was
    # rejected is not editing it)
    withdrawn = [k for k, r in ctx.added_by_agent("docs_suggestions").items() if str(r["doc"]) == str(doc) and r.get("status") == "rejected"]
    notes = [Vouch.of("docs_comments", k) for k, c in ctx.added_by_agent("docs_comments").items() if str(c["doc"]) == str(doc)]
    own = {k for k, c in A.records(ctx.final, "docs_comments").items() if str(c["doc"]) == str(doc)}
    notes += [Vouch.of("docs_replies", k) for k, r in ctx.added_by_agent("docs_replies").items() if str(r["comment"]) in own]
    return True, f"{len(edits)} suggested edits decided", vouch + A.block_vouches(ctx, blocks_touched) + \
        [Vouch.of("docs_suggestions", k) for k in withdrawn] + notes


# ---------------------------------------------------------------------------- long entries in the billing tracker
BILLING = "Billing Tracker – M-2026-0147 (live)"
LONG_HOURS = 3


def _yellow(fill: str | None) -> bool:
    """A yellow fill, as Sheets' palette has them (#ffff00, #fff2cc, #ffe599, #f1c232 …): hue 40°–70°."""
    import colorsys
    m = re.fullmatch(r"#?([0-9a-fA-F]{6})", fill or "")
    if not m:
        return False
    r, g, b = (int(m.group(1)[i:i + 2], 16) / 255 for i in (0, 2, 4))
    h, s, v = colorsys.rgb_to_hsv(r, g, b)
    return 40 <= h * 360 <= 70 and s >= 0.15 and v >= 0.6


def long_entries_highlighted(ctx):
    """Conditional formatting on the live billing tracker's Entries tab that gives the Hours cell of every
    entry over 3 hours a yellow fill and formats nothing else — now, and for an entry added in the empty rows
    below (a rule, not a fill painted on today's cells). No entry changes (the guard)."""
    tab = A.tab_key_of(ctx.final, BILLING, "Entries")
    new = {k: r for k, r in ctx.added_by_agent("sheets_conditional").items() if str(r.get("tab")) == str(tab)}
    if not new:
        return False, "no conditional format rule on the Entries tab", []
    styled = A.conditional_styles(ctx.final, BILLING, "Entries")
    cells = A.cells(ctx.initial, A.tab_key_of(ctx.initial, BILLING, "Entries"))
    hours = {int(a1[1:]): A.cell_value(kc) for a1, kc in cells.items() if re.fullmatch(r"F\d+", a1) and a1 != "F1"}
    want = {f"F{r}" for r, h in hours.items() if isinstance(h, (int, float)) and not isinstance(h, bool) and h > LONG_HOURS}
    if set(styled) != want:
        extra, missing = sorted(set(styled) - want), sorted(want - set(styled))
        return False, "; ".join(([f"it also formats {extra[:4]}"] if extra else [])
                                + ([f"it misses {missing}"] if missing else [])), []
    bad = [a1 for a1, st in styled.items() if not _yellow(st.get("fill"))]
    if bad:
        return False, f"{bad[0]} gets {styled[bad[0]]}, not a yellow fill", []
    # a new entry in the first empty row, over the limit, is highlighted too
    last = max(r for r in hours if str(A.cell_value(cells.get(f"A{r}")) or "").strip())
    probe_row = last + 1
    probe = copy.deepcopy(ctx.final)
    recs = probe["tables"]["sheets_cells"]["records"]
    key = next((k for k, c in recs.items() if str(c["tab"]) == str(tab) and c["row"] == probe_row and c["col"] == 6), None)
    cell = {"tab": int(tab), "row": probe_row, "col": 6, "a1": f"F{probe_row}", "input": "4.5", "value": 4.5,
            "display": "4.50", "format": {}}
    recs[key or "probe"] = {**(recs.get(key) or {}), **cell}
    if f"F{probe_row}" not in A.conditional_styles(probe, BILLING, "Entries"):
        return False, f"a new 4.5-hour entry in row {probe_row} would not be highlighted (the rule stops short)", []
    return True, f"{len(want)} long entries highlighted, and any new one", [Vouch.of("sheets_conditional", k) for k in new]
