"""Checks of the meridian tasks that need the editors' newer features: suggested edits, charts, tables,
objects on slides. Expected values come from the world's start state (the clause as it stood, the claims
on the model's Claims tab), never typed by hand; the guard fails any write a check does not vouch for.
"""
from __future__ import annotations

import re
from datetime import date
from pathlib import Path

from apps.docs.suggest import apply as apply_suggestions
from harness.verify import artifacts as A
from harness.verify.answer import states
from harness.verify.checks import world_module
from harness.verify.guard import Vouch

D = world_module(Path(__file__).parent, "checks_documents")


def _new(ctx, table: str) -> dict[str, dict]:
    mine = ctx.by_agent(table)
    return {k: r for k, r in ctx.records(table, which="new").items() if k in mine}


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
    new = {k: r for k, r in _new(ctx, "docs_suggestions").items() if str(r.get("doc")) == str(doc)}
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
    return True, f"{len(pending)} suggested edit(s) delete the offer; the text itself unchanged", \
        [Vouch.of("docs_suggestions", k) for k in pending]


# ---------------------------------------------------------------------------- the exhibit table
EXHIBIT_TABLE = "Exhibit table – Fund Adequacy Hearing"


def _cells(text: str) -> list[list[str]]:
    return [row.split("\t") for row in (text or "").split("\n")]


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
        if not re.fullmatch(r"hp?t", shape):
            bad.append("not a heading, an optional short note and one table, and nothing else "
                       f"({', '.join(b['type'] for b in blocks)})")
        if shape.startswith("hp"):
            intro = blocks[1]["text"]
            if len(intro.split()) > D.INTRO_WORDS or D._names_an_exhibit(intro):
                bad.append(f"the note under the heading is not a short note naming no exhibit: {intro[:60]!r}")
        tables = [b for b in blocks if b["type"] == "table"]
        rows = [[D._norm(c) for c in r] for r in _cells(tables[0]["text"])] if tables else []
        rows = [r for r in rows if any(r)]                                 # an empty last row is nothing
        if rows and [c.lower() for c in rows[0] if c] != ["exhibit", "document"]:
            bad.append(f"the header row is {rows[0]}, not Exhibit | Document")
        body = rows[1:]
        if tables and len(body) != len(D.EXHIBITS):
            bad.append(f"{len(body)} rows under the header, not {len(D.EXHIBITS)}")
        for (letter, needs, nots), row in zip(D.EXHIBITS, body):
            cells = row
            if len([c for c in cells if c]) != 2 or len(cells) < 2 or any(cells[2:]):
                bad.append(f"the row for exhibit {letter} is not two cells: {cells}")
                continue
            first, doc_text = cells[0], cells[1]
            missing = [n for n in needs if not re.search(n, doc_text, re.I)] + \
                [n for n in nots if re.search(n, doc_text, re.I)]
            if not re.fullmatch(rf"(?:exhibit\s+)?{letter}\.?", first, re.I) or missing:
                bad.append(f"the row for exhibit {letter} reads {cells}")
            elif letter == "F" and not states(doc_text, "date", date(2026, 3, 31))[0]:
                bad.append(f"exhibit F is not the letter of March 31, 2026: {doc_text[:60]!r}")
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


def claims_chart(ctx):
    """One new column chart on the damages model's Claims tab, titled “Third-party claims against the fund”,
    plotting one series: the amount of each third-party claim (CL-001 … CL-005 — not Corvane's own, not the
    withdrawn marina claim), one column per claim labelled by its ID, in the tab's order. The figures are
    not changed (the guard)."""
    from apps.sheets.service.charts import plot_data
    book = A.app_key(ctx.final, DAMAGES, "sheet")
    tabs = {k for k, t in A.records(ctx.final, "sheets_tabs").items() if str(t["book"]) == str(book)}
    new = {k: r for k, r in _new(ctx, "sheets_charts").items() if str(r.get("tab")) in tabs}
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
    if D._norm(ch.get("title")).lower().replace("–", "-") != CLAIMS_CHART_TITLE.lower():
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
    h, m = when.split(":")
    problems = []
    if not re.search(rf"(?<![\d:])0?{int(h)}[:.]{m}(?!\d)", text):
        problems.append(f"the grounding time {when} is not stated")
    dists = {float(x) for pair in NM.findall(text) for x in pair if x}
    if dists != {miles}:
        problems.append(f"distances stated {sorted(dists)} nm, not {miles} nm alone")
    if not re.search(r"\beast\b", text, re.I):
        problems.append("not said which side of the route (east)")
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
    return True, f"{len(edits)} suggested edits decided", vouch + A.block_vouches(ctx, blocks_touched)
