"""Expected values and checks for the lumen world's tasks.

Expected values are computed from the world's own files (so a data edit can't make a task stale);
checks read the verifier's context (``ctx.final``, ``ctx.initial``, ``ctx.diff``,
``ctx.records(table, which=…)``) and return ``(ok, found, vouches)``: the vouches name exactly the
records — and, for records that existed, the fields — the check examined and wanted changed
(``harness.verify.guard``); every other change the agent makes is collateral damage.

Texts the agent writes (a channel summary, a page, a mail to the customer) are read the way a
person reads them: a priority may be written "P1", "Priority 1", "1 - Critical" or "critical"; a
value offered with an alternative ("P1 or P2", "Ines Duarte or Paul Novak") is a hedge and fails;
a value set aside ("P2 (not P1)") is not a competitor (``harness.verify.answer``).
"""
from __future__ import annotations

import re
from pathlib import Path


from harness.verify import world_day
from harness.verify.answer import (CLAUSE_END, NEGATION, Cand, clause, competes, normalise, phrase_hits, show_value,
                                   states)
from harness.verify.checks import world_yaml
from harness.verify.guard import Directory, Vouch
from harness.verify.mailtext import read_as_sent, recipients

Q2 = ("2026-04-01", "2026-06-30")
OPEN_STAGES = ("Prospecting", "Qualification", "Discovery", "Proposal", "Negotiation")
CLOSED_STATES = ("Resolved", "Closed")
LEAD_CONVERTED = ("status", "converted_account", "converted_contact", "converted_opportunity", "converted_at",
                  "converted_by")


def _yaml(ctx, rel: str):
    return world_yaml(Path(ctx.world_root) / rel)


def _recs(ctx, table: str, which: str = "all") -> dict[str, dict]:
    return ctx.records(table, which=which)


def _by_field(ctx, table: str, field: str, value, export: dict | None = None) -> tuple[str, dict] | tuple[None, None]:
    recs = (export or ctx.final)["tables"][table]["records"]
    for k, r in recs.items():
        if r.get(field) == value:
            return k, r
    return None, None


def _agent_keys(ctx, table: str) -> set[str]:
    """Records the agent added or changed in this episode (from the write log)."""
    return set(ctx.by_agent(table))


def _people(ctx) -> dict[str, dict]:
    return {p["slug"]: p for p in ctx.final["tables"]["people"]["records"].values()}


def _squash(s) -> str:
    return " ".join(str(s or "").replace("—", "–").replace(" - ", " – ").split()).casefold()


def today(ctx) -> str:
    """The world's local date at the start (ISO)."""
    return world_day(ctx.initial).isoformat()


# ---------------------------------------------------------------- reading texts
PRIORITY_LABEL = {1: "critical", 2: "high", 3: "moderate", 4: "low"}
_PRIORITY_PATTERNS = (
    (re.compile(r"\bP([1-4])\b"), lambda m: int(m.group(1))),
    (re.compile(r"\bpriority[ \t]*(?:[:=]|is|of|-|–)?[ \t]*P?([1-4])\b(?![ \t]*[-–][ \t]*(?:hour|day))", re.I), lambda m: int(m.group(1))),
    (re.compile(r"\b([1-4])[ \t]*[-–—][ \t]*(critical|high|moderate|low)\b", re.I),
     lambda m: int(m.group(1)) if PRIORITY_LABEL[int(m.group(1))] == m.group(2).lower() else None),
    (re.compile(r"\bpriority[ \t]*(?:[:=]|is|of|-|–)?[ \t]*(critical|high|moderate|low)\b", re.I),
     lambda m: {v: k for k, v in PRIORITY_LABEL.items()}[m.group(1).lower()]),
    (re.compile(r"(?<![-\w])critical\b", re.I), lambda m: 1),
    # "Sev 1", "Severity 2": how people page an incident (the desk's P1 is a Sev 1).
    (re.compile(r"\bsev(?:erity)?[ \t]*(?:[:=]|is|of|-|–)?[ \t]*([1-4])\b(?![ \t]*[-–][ \t]*(?:hour|day))", re.I), lambda m: int(m.group(1))),
    # "high priority", "moderate-priority": the desk's labels (not "a high-priority P1", which names the P1).
    (re.compile(r"\b(high|moderate|medium|low)[- ]priority\b(?![ \t]*\(?P[1-4])", re.I),
     lambda m: {"high": 2, "moderate": 3, "medium": 3, "low": 4}[m.group(1).lower()]),
)


def priority_mentions(text: str) -> list[Cand]:
    """The priorities a text states ("P1", "Priority 1", "1 - Critical", "critical"), one per span."""
    found: list[Cand] = []
    for rx, value in _PRIORITY_PATTERNS:
        for m in rx.finditer(text):
            v = value(m)
            if v is None:
                continue
            same = [c for c in found if c.start < m.end() and m.start() < c.end and c.value == v]
            if same:                      # "Priority 1 - Critical": one mention
                for c in same:
                    c.start, c.end = min(c.start, m.start()), max(c.end, m.end())
                continue
            found.append(Cand(m.start(), m.end(), v))
    return sorted(found, key=lambda c: c.start)


def name_mentions(ctx, text: str) -> list[Cand]:
    """The people of the directory a text names in full (value: their id)."""
    out = []
    for slug, p in _people(ctx).items():
        if p.get("name"):
            out += [Cand(c.start, c.end, slug) for c in phrase_hits(text, p["name"])]
    return sorted(out, key=lambda c: c.start)


def _number_rx(number: str) -> re.Pattern:
    """An incident number as people write it: INC0010421, INC10421 or 10421."""
    digits = re.sub(r"\D", "", number).lstrip("0")
    return re.compile(rf"(?<![\w])(?:INC)?0*{digits}(?!\d)", re.I)


SEGMENT = re.compile(r"\n|;|,|\.\s|\band\b", re.I)
ANY_NUMBER = re.compile(r"(?<![\w])(?:INC|REQ|CHG|KB)\d{5,}(?!\d)", re.I)
# Between two items of a list: separators only ("INC1, INC2 and INC3", "P1, P2 and P3").
LIST_GAP = re.compile(r"[\s,;/&|+]*(?:(?:and|&)\s*)?", re.I)


def _spans(text: str, rx: re.Pattern) -> list[tuple[int, int]]:
    cuts = [0] + [m.end() for m in rx.finditer(text)] + [len(text)]
    return [(a, b) for a, b in zip(cuts, cuts[1:]) if a < b]


def _runs(text: str, items: list[tuple[int, int]]) -> list[list[int]]:
    """Indexes of ``items`` (sorted spans) grouped into runs: items with only list separators between."""
    runs: list[list[int]] = []
    for i, (s, _) in enumerate(items):
        if runs and LIST_GAP.fullmatch(text[items[runs[-1][-1]][1]:s]):
            runs[-1].append(i)
        else:
            runs.append([i])
    return runs


def pair(text: str, numbers, mentions: list[Cand]) -> dict[str, list[Cand]]:
    """The mentions that go with each record number, as a person reads a list of records:

    - parallel lists in one sentence go together in order ("INC1, INC2 and INC3 — P1, P2 and P3
      respectively", "Open (P1, P2): INC1, INC2");
    - else a mention goes to the number in its own segment (the text between line breaks, ``;``,
      ``,``, sentence ends and "and" outside parentheses): "INC1 (P1, not P2), INC2 (P2)", "Ines owns
      INC1, Paul owns INC2";
    - one without a number in its segment goes to the nearest number in its sentence ("INC1 (P1):
      freshness monitor, Ines Duarte"), or else to the number heading its block of lines (no blank
      line between); otherwise to none.

    Every record number in the text (INC…, REQ…, CHG…, KB…) counts as a place a mention may belong,
    not only ``numbers``: a priority next to another incident is that incident's."""
    spots = sorted({(m.start(), m.end(), n) for n in numbers for m in _number_rx(n).finditer(text)})
    taken = [(s, e) for s, e, _ in spots]
    spots += [(m.start(), m.end(), None) for m in ANY_NUMBER.finditer(text)
              if not any(s < m.end() and m.start() < e for s, e in taken)]
    spots.sort()
    free = [c for c in sorted(mentions, key=lambda c: c.start) if not any(s <= c.start < e for s, e, _ in spots)]
    out: dict[str, list[Cand]] = {n: [] for n in numbers}
    placed: set[int] = set()
    # Parallel lists: a run of k numbers and a run of k mentions, alone in their sentence.
    for a, b in _spans(text, CLAUSE_END):
        ns = [sp for sp in spots if a <= sp[0] < b]
        ms = [c for c in free if a <= c.start < b]
        if len(ns) < 2 or len(ns) != len(ms):
            continue
        if len(_runs(text, [(s, e) for s, e, _ in ns])) == 1 and len(_runs(text, [(c.start, c.end) for c in ms])) == 1 \
                and (ns[-1][1] <= ms[0].start or ms[-1].end <= ns[0][0]):
            for (_, _, n), c in zip(ns, ms):
                if n is not None:
                    out[n].append(c)
                placed.add(id(c))
    # A mention alone on its line ("P1:", "## Priority 2", "**Owner: Ines Duarte**") heads the lines below
    # it, up to the next such heading: it goes to every number in them ("P1:\n- INC1\nP2:\n- INC2").
    heads = []
    for c in free:
        ls = text.rfind("\n", 0, c.start) + 1
        le = text.find("\n", c.end)
        le = len(text) if le < 0 else le
        rest = (text[ls:c.start] + text[c.end:le]).strip()
        if le < len(text) and not any(ls <= sp[0] < le for sp in spots) \
                and re.fullmatch(r"[#*>\-•\s]*(?:(?:priority|owner|owned by|assignee)\s*)?[:\-–—]?\s*[:)]?", rest, re.I):
            heads.append((c, le))
    for i, (c, le) in enumerate(heads):
        end = heads[i + 1][0].start if i + 1 < len(heads) else len(text)
        nxt = HEADING_LINE.search(text, le + 1, end) if i + 1 == len(heads) else None
        end = nxt.start() if nxt else end
        for sp in spots:
            if le < sp[0] < end and sp[2] is not None:
                out[sp[2]].append(c)
        placed.add(id(c))
    depth, level = 0, []
    for ch in text:
        depth = max(0, depth + (ch == "(") - (ch == ")"))
        level.append(depth)
    cuts = [0] + [m.end() for m in SEGMENT.finditer(text) if m.group(0) == "\n" or level[m.start()] == 0] + [len(text)]
    for c in free:
        if id(c) in placed:
            continue

        def far(spot):
            s, e, _ = spot
            gap = text[e:c.start] if e <= c.start else text[c.end:s]
            return len(gap) + (0.5 if e > c.start else 0)
        lo = max(x for x in cuts if x <= c.start)
        hi = min(x for x in cuts if x > c.start)
        pool = [sp for sp in spots if lo <= sp[0] < hi]
        if not pool:
            sa, sb = clause(text, c.start)
            pool = [sp for sp in spots if sa <= sp[0] < sb]
        if not pool:
            above = [sp for sp in spots if sp[1] <= c.start and not re.search(r"\n[ \t]*\n", text[sp[1]:c.start])]
            pool = above[-1:]
        if pool:
            n = min(pool, key=far)[2]
            if n is not None:
                out[n].append(c)
    return out


HEADING_LINE = re.compile(r"(?m)^\s*(?:#+\s*\S[^\n]*|[^\n:]{1,60}:\s*)$")


def _set_aside(text: str, c: Cand) -> bool:
    """Is the value at ``c`` set aside ("not P1", "(… P1 … are closed)")? As the answer matcher
    reads it, except that a parenthesis nested in the one around the value ("(P1 (not P2))")
    speaks of its own value, not of this one."""
    cs, ce = clause(text, c.start)
    before = re.sub(r"\([^()]*\)", " ", text[max(cs, c.start - 45):c.start])
    if NEGATION.search(before):
        return True
    depth, open_ = 0, -1
    for i in range(c.start - 1, cs - 1, -1):
        if text[i] == ")":
            depth += 1
        elif text[i] == "(":
            if depth == 0:
                open_ = i
                break
            depth -= 1
    if open_ < 0:
        return False
    depth, close = 0, ce
    for j in range(open_ + 1, ce):
        if text[j] == "(":
            depth += 1
        elif text[j] == ")":
            if depth == 0:
                close = j
                break
            depth -= 1
    inner = text[open_ + 1:close]
    inner = inner[:c.start - open_ - 1] + " " * (c.end - c.start) + inner[c.end - open_ - 1:]
    return bool(NEGATION.search(re.sub(r"\([^()]*\)", " ", inner)))


def stated(text: str, cands: list[Cand], expected) -> tuple[bool, str]:
    """Is ``expected`` among ``cands`` with nothing competing (a hedge, a second value offered with
    it), and not itself set aside? (``harness.verify.answer``'s reading of an answer.)"""
    hits = [c for c in cands if c.value == expected]
    if not hits:
        return False, ", ".join(dict.fromkeys(show_value(c.value) for c in cands)) or "nothing"
    others = [c for c in cands if c.value != expected]
    for o in others:
        for h in hits:
            why = competes(text, h, o, cands)
            if why:
                return False, f"a hedge ({why}: {show_value(o.value)})"
    if others and all(_set_aside(text, h) for h in hits):
        return False, f"{show_value(expected)} is set aside"
    return True, show_value(expected)


CLOSED_WORD = re.compile(r"\b(?:closed|resolved|fixed|done|completed?)\b", re.I)
HEADING = re.compile(r"^\s*(?:#+\s*)?[^\n:]{0,60}:\s*$|^\s*#+\s*\S")


def _said_here(text: str, m: re.Match) -> bool:
    """Is the word at ``m`` said, not set aside (as ``claims`` reads it: "not resolved yet", "if it is
    closed", "previously resolved")?"""
    before, near, after = _context(text, m)
    if CONDITIONAL_BEFORE.search(before) or re.search(r"\b(?:previously|formerly|once|had been)\s*$", near, re.I):
        return False
    return not (NEG_WORDS.search(near) or DENIED_AFTER.match(after))


def closed_mentions(text: str, number: str) -> list[bool]:
    """For each mention of ``number``: is it presented as closed? A closed word said in its sentence goes
    with the list of numbers just before it ("INC2 and INC3 are closed", "INC3 (resolved)") or, with none
    before, the list just after it ("Already closed: INC2, INC3"); a line under a heading ("Closed:",
    "## Resolved") without numbers of its own goes with that heading."""
    spots = sorted({(m.start(), m.end()) for m in _number_rx(number).finditer(text)}
                   | {(m.start(), m.end()) for m in ANY_NUMBER.finditer(text)})
    spots = [sp for i, sp in enumerate(spots) if not any(o[0] <= sp[0] < o[1] and o != sp for o in spots)]
    out = []
    for m in _number_rx(number).finditer(text):
        a, b = clause(text, m.start())
        here = [sp for sp in spots if a <= sp[0] < b]
        runs = [[here[i] for i in r] for r in _runs(text, here)]
        closed = False
        for w in CLOSED_WORD.finditer(text, a, b):
            if not _said_here(text, w):
                continue
            before = [r for r in runs if r[-1][1] <= w.start()]
            after = [r for r in runs if r[0][0] >= w.end()]
            run = before[-1] if before else (after[0] if after else [])
            if any(s <= m.start() < e for s, e in run):
                closed = True
        if not closed:
            # the heading over this line's block
            lines_above = text[:text.rfind("\n", 0, m.start()) + 1].splitlines()
            for line in reversed(lines_above):
                if not line.strip():
                    continue
                if ANY_NUMBER.search(line) or _number_rx(number).search(line):
                    if HEADING.match(line):
                        break
                    continue          # another item of the same list
                if HEADING.match(line):
                    closed = any(_said_here(line, w) for w in CLOSED_WORD.finditer(line))
                break
        out.append(closed)
    return out


def presented_open(text: str, number: str) -> bool:
    """Does the text list ``number`` somewhere without saying it is closed (or resolved)?"""
    return not all(closed_mentions(text, number))


def presented_closed(text: str, number: str) -> bool:
    """Does the text say somewhere that ``number`` is closed (or resolved, fixed)?"""
    return any(closed_mentions(text, number))


OLD_VALUE = re.compile(r"\b(?:from|was|were|previously|formerly|originally|initially|before)\s*[:(]?\s*$", re.I)


def _old_value(text: str, c: Cand) -> bool:
    """A value given as what it was ("escalated from P3 to P1", "P3 → P1")."""
    return bool(OLD_VALUE.search(text[max(0, c.start - 20):c.start])
                or re.match(r"\s*(?:→|->|=>|to\b)\s*(?:P[1-4]|priority)", text[c.end:c.end + 16], re.I))


def stated_only(text: str, cands: list[Cand], expected) -> tuple[bool, str]:
    """Stricter than ``stated`` for a record's own value (an incident's priority): every value paired with
    the record that is not set aside ("not P2", "from P3 to P1") must be ``expected`` — "INC1 (P4) …
    P3 is another figure" gives INC1 two priorities."""
    ok, why = stated(text, cands, expected)
    if not ok:
        return ok, why
    live = [c for c in cands if not (_set_aside(text, c) or _old_value(text, c))]
    others = sorted({c.value for c in live if c.value != expected})
    if others or not live:
        return False, f"{show_value(expected)} and also {', '.join(map(show_value, others))}" if others \
            else f"{show_value(expected)} is set aside"
    return True, show_value(expected)


# ---------------------------------------------------------------- free text, read with its negations
NEG_WORDS = re.compile(r"\b(?:not|no|never|nothing|nobody|none|neither|nor|without|yet to|no longer|refus\w*|"
                       r"declin\w*|cannot)\b|n['’]t\b", re.I)
# What starts a new thought inside a clause: a negation before it doesn't bind to what follows.
BREAK = re.compile(r"[,:(—–]|\s-\s|\b(?:and|but|while|although|though|whereas|so|because|since|once|when|until|"
                   r"unless|if|after|before|as soon as|which|who|that)\b", re.I)
CONDITIONAL_BEFORE = re.compile(r"\b(?:if|should|in case|whether|unless|let us know|reopen)\b", re.I)
# Right after a phrase: a denial of it ("Nadia has approved nothing", "resolved? not yet").
DENIED_AFTER = re.compile(r"\s*(?:nothing|none|no one|nobody|not\b|yet\?)", re.I)
# A negation a word or an auxiliary after a phrase ("the backfill has not finished", "the write-up isn't
# needed", "root-cause write-up not required"); not across a conjunction ("ready to sign and not …").
NEGATED_AFTER = re.compile(r"[ \t]+(?:(?!(?:and|or|but|so|then|nor|who|which|that)\b)[\w-]+[ \t]+)?"
                           r"(?:(?:(?:is|are|was|were|has|have|had|will|would|does|do|did|can|could)[ \t]+(?:been[ \t]+)?)?"
                           r"(?:not\b(?![ \t]+only)|never\b|no longer\b)|\w+n['’]t\b)", re.I)
# Before a phrase: something still to do ("need to request the logs", "will ask Raj", "to be fixed tomorrow").
TO_DO = re.compile(r"\b(?:will|shall|going to|need(?:s|ed)? to|have to|has to|must|plan(?:s|ned|ning)? to|to be|"
                   r"yet to|to-?do)\b", re.I)


def _context(text: str, m: re.Match) -> tuple[str, str, str]:
    """The words around the phrase at ``m``: its sentence up to it, the part of that after the last break
    (what a negation before it binds to), and the 40 characters after it."""
    cs = max(text.rfind(x, 0, m.start()) for x in ".!?\n;") + 1
    before = text[cs:m.start()]
    cuts = [b.end() for b in BREAK.finditer(before)]
    return before, before[cuts[-1]:] if cuts else before, text[m.end():m.end() + 40]


def claims(text: str, rx: str, *, past: bool = False, conditional_after: bool = False, done: bool = False) -> tuple[bool, bool]:
    """(said, denied) for the phrases ``rx`` matches in ``text``: each is read with the words just before
    it in its clause (after the last break): "this is not fixed" denies "fixed", "procurement will NOT
    sign" denies "sign", "Nadia has approved nothing" denies "approved". ``past``: "was/were/previously
    …" before it also sets it aside ("was at risk last week"). A phrase after "if …"/"should …" in its
    clause is neither; with ``conditional_after`` one followed by "once/when/if/until …" is neither ("will
    sign once the delays are fixed"); with ``done`` (a thing done) one after "will/need to/to be …" is
    neither ("will ask Raj for the logs"). A negation right after it denies it ("has not finished")."""
    text = normalise(text)
    said = denied = False
    for m in re.finditer(rx, text, re.I):
        before, near, after = _context(text, m)
        if CONDITIONAL_BEFORE.search(before):
            continue
        if conditional_after and re.match(r"[^.;\n]{0,25}?\b(?:once|when|if|after|as soon as|provided|only|until|unless)\b",
                                          after, re.I):
            continue
        if done and TO_DO.search(near):
            continue
        if NEG_WORDS.search(near) or DENIED_AFTER.match(after) or NEGATED_AFTER.match(after) \
                or (past and re.search(r"\b(?:was|were|previously|formerly|used to be|had been|last week)\b", near, re.I)):
            denied = True
        else:
            said = True
    return said, denied


def affirms(text: str, rx: str, **kw) -> bool:
    """The text says it (somewhere no negation binds to) and never denies it."""
    said, denied = claims(text, rx, **kw)
    return said and not denied


def _user(ctx) -> str:
    return getattr(ctx.task, "user", None) or _yaml(ctx, "world.yaml")["user"]


def _directory(ctx):
    return Directory(ctx.final, _user(ctx))


def _sentences(text: str) -> list[str]:
    """The sentences of a text, each squashed, without bullets and closing stops; quoted lines left out."""
    out = []
    for line in (text or "").splitlines():
        if line.lstrip().startswith(">"):
            continue                      # a quote of another message: that message's text, not this one's
        line = re.sub(r"^\s*(?:[-*•]|\d+[.)])\s+", "", line)
        out += [_squash(s).rstrip(".!? ") for s in re.split(r"(?<=[.!?])\s+", line) if s.strip()]
    return out


def internal_sentences(ctx) -> list[str]:
    """Sentences (six words or more) of what never left the organisation: mail whose sender and
    recipients are all inside it (Miguel's "Internal only" note) and the service desk's work notes."""
    d = _directory(ctx)
    out = []
    for m in ctx.initial["tables"]["mail_messages"]["records"].values():
        people = [m.get("sender")] + (m.get("to") or []) + (m.get("cc") or []) + (m.get("bcc") or [])
        if not any(d.outside(p) for p in people if p):
            out += _sentences(m.get("body"))
    for j in ctx.initial["tables"]["tk_journal"]["records"].values():
        if j.get("kind") == "work_note":
            out += _sentences(j.get("text"))
    return [s for s in dict.fromkeys(out) if len(s.split()) >= 6]


def leaks(ctx, text: str) -> list[str]:
    """The internal sentences a text carries (quoted or pasted)."""
    flat = _squash(re.sub(r"(?m)^\s*(?:>\s?)+", "", text or ""))
    return [s for s in internal_sentences(ctx) if s in flat]


def _sift(records: dict[str, dict], problem) -> tuple[list[str], list[str]]:
    """(the keys of the records that qualify, what is wrong with the others): ``problem(record)`` says what
    is wrong with one, or None when it qualifies."""
    good, found = [], []
    for k, r in records.items():
        why = problem(r)
        if why:
            found.append(why)
        else:
            good.append(k)
    return good, found


def _only_one(good: list, many: str, passed: str, none: str, vouch) -> tuple:
    """The verdict of a check that wants exactly one deliverable: ``good`` the records that qualify (two
    or more is the same work done twice: it fails, saying ``many``); one passes, vouching ``vouch(good)``;
    none fails with ``none`` (what was found instead)."""
    if len(good) > 1:
        return False, many, []
    if good:
        return True, passed, vouch(good)
    return False, none, []


# ---------------------------------------------------------------- CRM
def q2_commit(ctx) -> int:
    """Closed Won + Negotiation, closing in Q2 (from crm/opportunities.yaml)."""
    opps = _yaml(ctx, "crm/opportunities.yaml")["opportunities"]
    return sum(o["amount"] for o in opps
               if o["stage"] in ("Closed Won", "Negotiation") and Q2[0] <= str(o["close_date"]) <= Q2[1])


def lead_criteria(lead: dict) -> dict[str, bool]:
    """The rule in the "Lead qualification" doc, criterion by criterion (True: met): ≥ 10 locations, a
    named budget owner, a timeline under six months — read from the web-form text the lead carries."""
    text = lead.get("description") or ""
    locations = lead.get("locations") or 0
    owner = re.search(r"Budget owner:\s*([^.]+)\.", text)
    named = bool(owner) and not re.match(r"(?i)\s*(none|not|no |tbd|unknown|n/a)", owner.group(1)) \
        and re.match(r"\s*[A-Z][\w'’-]+(?: [A-Z][\w'’-]+)+", owner.group(1)) is not None
    timeline = (re.search(r"Timeline:\s*([^.]+)\.", text) or [None, ""])[1].lower()
    months = re.search(r"(\d+)\s*months?", timeline)
    soon = ("this quarter" in timeline or "weeks" in timeline or "next month" in timeline
            or (months is not None and int(months.group(1)) < 6))
    return {"locations": locations >= 10, "budget owner": named, "timeline": soon}


def _qualifies(lead: dict) -> bool:
    return all(lead_criteria(lead).values())


# How a reason written into a lead's description names each criterion, and says it failed or was met.
CRITERIA = {
    "locations": (r"\blocations?\b|\bsites?\b|\bclinics?\b|\bhospitals?\b|\bpharmacies\b|\bstores?\b|\bbranch\w*",
                  r"\b(?:fewer|less) than (?:10|ten)\b|\b(?:under|below) (?:10|ten)\b|<\s*10\b|\bonly (?:\d|one|two|three|four|five|six|seven|eight|nine)\b|"
                  r"\btoo (?:few|small)\b|\bnot enough\b|\b(?:under|below|short of|fewer than|less than) (?:the )?N\b|(?<![\d,.])[1-9](?![\d,.]|\s*months?)\b|\b(?:one|two|three|four|five|six|seven|eight|nine)\b(?! months?)",
                  r"\b(?:10|ten) or more\b|\bat least (?:10|ten)\b|\b(?:1\d|[2-9]\d|\d{3,})\b(?!\s*months?)|\benough\b|"
                  r"\b(?:meets?|above|over|more than|exceeds?) (?:the )?N\b"),
    "budget owner": (r"\bbudget\b|\bdecision[- ]?maker\b|\bowner\b",
                     r"\bno (?:named |clear )?(?:budget|owner|decision)|(?:\bnot|n['’]t)(?: yet| been| be)?(?: an?)? (?:named|decided|sure|identified|known|clear|confirmed|settled)\b|\bunnamed\b|\bunknown\b|\bunclear\b|\bundetermined\b|"
                     r"\bundecided\b|\btbd\b|\bmissing\b|\bwithout\b|\blacks?\b|\bnobody\b|\bno one\b|\bnone\b",
                     r"\bnamed (?:budget )?owner\b(?!\s*(?:missing|not))|\bhas (?:a )?(?:named )?budget\b|\bbudget (?:ok|okay|fine|confirmed|met)\b|"
                     r"\bqualified on[^.;]*budget"),
    "timeline": (r"\btimeline\b|\btiming\b|\bmonths?\b|\bresearching\b|\bfiscal year\b|\btimeframe\b|\bstart\w*\b",
                 r"\b(?:[6-9]|1\d|six|seven|eight|nine|twelve)[- ]months?\b|\bnot (?:under|within|before)\b|\bnext fiscal year\b|"
                 r"\bresearching\b|\bno (?:timeline|timeframe|date)\b|\btoo (?:far|long|late)\b|\bbeyond\b|\bover (?:6|six)\b|\bunknown\b|"
                 r"\bnot (?:soon|near)\b|\b(?:outside|beyond|over|more than|past|exceeds?|longer than|later than) (?:the )?N\b",
                 r"\b(?:this quarter|next month|within (?:[1-5]|one|two|three|four|five) months?|weeks)\b|\btimeline (?:ok|okay|fine|met)\b|"
                 r"\b(?:within|under|inside|less than|before) (?:the )?N\b"),
}


# The rule's own thresholds quoted in a reason ("the 10-site minimum", "needs at least 10", "6 vs 10
# required", "the 6-month window") are the rule, not the lead's figures: read as "N".
RULE_WORD = r"(?:minimum|min|threshold|bar|cut-?off|limit|window|rule|requirement|required|needed|max\w*)"


def rule_numbers(part: str) -> str:
    """``part`` with the rule's thresholds (10 locations, 6 months) it quotes read as "N"."""
    part = re.sub(r"\b((?:needs?|needed|requires?|required|requirement|rule|minimum|min|threshold|bar|cut-?off|limit|"
                  r"vs\.?|versus)\s+(?:(?:of|is|says)\s+)?(?:at least\s+)?(?:the\s+)?)(?:10|ten|6|six)\b", r"\1N", part,
                  flags=re.I)
    part = re.sub(r"([<≤/]\s*)(?:10|ten)\b", r"\1N", part)
    part = re.sub(rf"\b(?:10|ten|6|six)(?=\+?[- ](?:(?:sites?|locations?|clinics?|stores?|branch\w*|months?)[- ]?)?"
                  rf"{RULE_WORD}\b)", "N", part, flags=re.I)
    return re.sub(rf"\b(?:10|ten|6|six)\b(?=\+?\s*(?:or more\s*)?(?:(?:is|are)\s+)?{RULE_WORD}\b)", "N", part, flags=re.I)


def reason_problems(added: str, met: dict[str, bool]) -> list[str]:
    """What is wrong with a reason written into an Unqualified lead: it calls a met criterion failed,
    or a failed one met, or names criteria without naming one that failed ("Qualified on locations
    and budget; hold for a call"). A note naming no criterion at all is no reason, and fine."""
    problems, named_fail, named = [], set(), False
    for part in re.split(r"[.;\n]|,\s*(?:and|but)?\s*|\band\b|\bbut\b", added):
        part = rule_numbers(part)
        for crit, (mention, failed, ok) in CRITERIA.items():
            if not re.search(mention, part, re.I):
                continue
            named = True
            says_failed = re.search(failed, part, re.I) is not None
            says_ok = re.search(ok, part, re.I) is not None and not says_failed
            # Quoting the rule's threshold as the reason ("the rule needs at least 10 locations").
            says_failed = says_failed or (not says_ok and re.search(r"\bN\b", part) is not None)
            if says_failed and met[crit]:
                problems.append(f"says the {crit} criterion failed (it is met)")
            if says_ok and not met[crit]:
                problems.append(f"says the {crit} criterion is met (it failed)")
            if says_failed and not met[crit]:
                named_fail.add(crit)
    if named and not named_fail and not problems:
        problems.append("names no criterion that failed")
    return problems


def _world_leads(ctx) -> dict[str, dict]:
    return {lead["id"]: lead for lead in _yaml(ctx, "crm/leads.yaml")["leads"]}


def new_leads(ctx) -> dict[str, bool]:
    """slug -> qualifies, for every lead that was New in the world files."""
    return {slug: _qualifies(lead) for slug, lead in _world_leads(ctx).items() if lead["status"] == "New"}


def _follows(ctx, table: str, lead_key: str, contact_key) -> tuple[list[Vouch], list[str]]:
    """A lead's activities (or notes) moved to the contact it became: vouched in the fields the move
    changes; the ones left behind or moved elsewhere are named."""
    start = ctx.initial["tables"][table]["records"]
    now = _recs(ctx, table)
    vouches, wrong = [], []
    for k, r in start.items():
        if r.get("related_type") == "lead" and str(r.get("related_id")) == str(lead_key):
            after = now.get(k)
            if after is not None and after.get("related_type") == "contact" \
                    and str(after.get("related_id")) == str(contact_key):
                vouches.append(Vouch.of(table, k, ("related_type", "related_id")))
            else:
                wrong.append(f"{table}#{k} did not follow the lead to its contact")
    return vouches, wrong


def _conversion(ctx, slug: str, opp_name: str):
    """The lead ``slug`` converted into a new account named after its company, a new contact from
    it on that account and a new open opportunity ``opp_name`` on that account, the lead linked to
    all three, its activities and notes moved to the contact (as Convert does)."""
    key, lead = _by_field(ctx, "crm_leads", "slug", slug)
    if lead is None:
        return False, f"{slug}: the lead is missing", []
    if lead["status"] != "Converted":
        return False, f"{slug}: {lead['status']}, not Converted", []
    new = {t: ctx.added_by_agent(t) for t in ("crm_accounts", "crm_contacts", "crm_opportunities")}
    acc = new["crm_accounts"].get(str(lead.get("converted_account")))
    con = new["crm_contacts"].get(str(lead.get("converted_contact")))
    opp = new["crm_opportunities"].get(str(lead.get("converted_opportunity")))
    wrong = []
    if acc is None or _squash(acc["name"]) != _squash(lead["company"]):
        wrong.append(f"account {acc and acc['name']!r} (want a new account {lead['company']!r})")
    if con is None or str(con["account"]) != str(lead.get("converted_account")) \
            or any(_squash(con[f]) != _squash(lead[f]) for f in ("first_name", "last_name", "email", "title", "phone")):
        wrong.append(f"contact {con and (con['first_name'], con['last_name'], con['email'])} "
                     f"(want {lead['first_name']} {lead['last_name']} <{lead['email']}> on the new account)")
    if opp is None or _squash(opp["name"]) != _squash(opp_name) or opp["stage"] not in OPEN_STAGES \
            or str(opp["account"]) != str(lead.get("converted_account")):
        wrong.append(f"opportunity {opp and (opp['name'], opp['stage'])} (want {opp_name!r}, open, on the new account)")
    vouches = [Vouch.of("crm_leads", key, LEAD_CONVERTED)]
    for table in ("crm_activities", "crm_notes"):
        v, w = _follows(ctx, table, key, lead.get("converted_contact"))
        vouches += v
        wrong += w
    if wrong:
        return False, f"{slug}: " + "; ".join(wrong), []
    vouches += [Vouch.of("crm_accounts", lead["converted_account"]), Vouch.of("crm_contacts", lead["converted_contact"]),
                Vouch.of("crm_opportunities", lead["converted_opportunity"])]
    return True, f"{slug}: converted into {acc['name']}, {con['first_name']} {con['last_name']}, {opp['name']}", vouches


def _platform(company: str) -> str:
    return f"{company} – Platform"


def brookfield_converted(ctx):
    lead = _world_leads(ctx)["brookfield-dental-ava-lin"]
    return _conversion(ctx, "brookfield-dental-ava-lin", _platform(lead["company"]))


def _unqualified(ctx, slug: str):
    """The lead set to Unqualified; its web-form text may have a reason added to it (naming a criterion
    that failed, and none that was met as failed), but not lost."""
    key, lead = _by_field(ctx, "crm_leads", "slug", slug)
    if lead is None or lead["status"] != "Unqualified":
        return False, f"{slug}: {lead and lead['status']}, not Unqualified", []
    fields = ["status"]
    before = ctx.initial["tables"]["crm_leads"]["records"][key]
    if lead.get("description") != before.get("description"):
        old, new = _squash(before.get("description")), _squash(lead.get("description"))
        if old not in new:
            return False, f"{slug}: the web-form text in its description was changed", []
        problems = reason_problems(new.replace(old, " ", 1), lead_criteria(_world_leads(ctx)[slug]))
        if problems:
            return False, f"{slug}: the reason added {'; '.join(problems)}", []
        fields.append("description")
    return True, f"{slug}: Unqualified", [Vouch.of("crm_leads", key, fields)]


def lead_worked(ctx, slug: str):
    """A New lead worked by the rule: converted if it qualifies, else Unqualified."""
    if new_leads(ctx)[slug]:
        return _conversion(ctx, slug, _platform(_world_leads(ctx)[slug]["company"]))
    return _unqualified(ctx, slug)


def new_leads_worked(ctx):
    lines, vouches, ok = [], [], True
    for slug in sorted(new_leads(ctx)):
        r = lead_worked(ctx, slug)
        ok &= r[0]
        lines.append(r[1])
        vouches += r[2]
    return ok, "; ".join(lines), vouches if ok else []


def lead_brookfield(ctx):
    return lead_worked(ctx, "brookfield-dental-ava-lin")


def lead_copperline(ctx):
    return lead_worked(ctx, "copperline-car-wash-wendy-chang")


def lead_cedar_ridge(ctx):
    return lead_worked(ctx, "cedar-ridge-veterinary-derek-yates")


def lead_halvorsen(ctx):
    return lead_worked(ctx, "halvorsen-pharmacy-sonia-rahman")


def lead_marigold(ctx):
    return lead_worked(ctx, "marigold-family-clinics-jade-ellis")


def lead_lakeview(ctx):
    return lead_worked(ctx, "lakeview-optometry-partners-omar-castillo")


def new_leads_marked_qualified(ctx):
    """Every New lead that qualifies by the rule has status Qualified (the ones that don't are the guard's:
    any change to them is damage)."""
    want = sorted(s for s, q in new_leads(ctx).items() if q)
    vouches, wrong = [], []
    for slug in want:
        key, lead = _by_field(ctx, "crm_leads", "slug", slug)
        if lead is None or lead["status"] != "Qualified":
            wrong.append(f"{slug}: {lead and lead['status']}")
        else:
            vouches.append(Vouch.of("crm_leads", key, ("status",)))
    if wrong:
        return False, f"not Qualified: {'; '.join(wrong)} (want {', '.join(want)})", []
    return True, f"Qualified: {', '.join(want)}", vouches


def converted_opportunities(ctx):
    leads = _world_leads(ctx)
    lines, vouches, ok = [], [], True
    for slug, qualifies in sorted(new_leads(ctx).items()):
        if qualifies:
            r = _conversion(ctx, slug, _platform(leads[slug]["company"]))
            ok &= r[0]
            lines.append(r[1])
            vouches += r[2]
    return ok, "; ".join(lines), vouches if ok else []


class _Clock:
    """Just enough of a store for the CRM's filter semantics (relative dates like THIS_QUARTER)."""

    def __init__(self, ctx):
        from zoneinfo import ZoneInfo

        from apps.core.store.db import parse_iso
        self._now = parse_iso(ctx.final["clock"])
        self.tz = ZoneInfo(ctx.final.get("timezone") or "America/Chicago")

    def now(self):
        return self._now

    def local(self, value):
        from apps.core.store.db import parse_iso
        dt = parse_iso(value) if isinstance(value, str) else value
        return dt.astimezone(self.tz)


def q2_renewals_view(ctx):
    """A saved "Q2 renewals" view whose filters (applied as the CRM applies them) keep exactly the
    Renewal opportunities closing in Q2."""
    from apps.crm import service as crm
    views = [(k, v) for k, v in ctx.added_by_agent("crm_views").items() if v["name"].strip().lower() == "q2 renewals"]
    if not views:
        return False, "no saved view named “Q2 renewals”"
    want = sorted(o["name"] for o in _recs(ctx, "crm_opportunities").values()
                  if o["type"] == "Renewal" and Q2[0] <= str(o["close_date"]) <= Q2[1])
    clock = _Clock(ctx)
    types = {o["type"] for o in _recs(ctx, "crm_opportunities").values()} | {"New Business", "Renewal", "Expansion"}
    found, good = [], []
    for key, view in views:
        if view["object"] != "opportunities":
            found.append(f"a view on {view['object']}")
            continue
        got = sorted(o["name"] for o in _recs(ctx, "crm_opportunities").values()
                     if all(crm.matches_filter(clock, "jordan.blake", "opportunities", o, f) for f in view["filters"]))
        # "only Renewal opportunities": a filter on Type that keeps Renewal and no other type (a Name
        # that contains "renewal" happens to give the same list today, and stops being right tomorrow).
        by_type = [f for f in view["filters"] if f.get("field") == "type"]
        kept = {t for t in types if by_type and all(crm.matches_filter(clock, "jordan.blake", "opportunities", {"type": t}, f)
                                                    for f in by_type)}
        found.append(f"a view keeping {len(got)} opportunities" + ("" if kept == {"Renewal"} else
                                                                    f", its Type filter keeping {sorted(kept) or 'no type'}"))
        if got == want and kept == {"Renewal"}:
            good.append(key)
    return bool(good), "; ".join(found) + f" (want the {len(want)} Q2 renewals)", {"crm_views": good}


# ---------------------------------------------------------------- Service desk
def _incident(ctx, number: str, export: dict | None = None) -> tuple[str | None, dict | None]:
    return _by_field(ctx, "tk_incidents", "number", number, export)


def _kb_body(ctx, number: str) -> str:
    return next(a["body"] for a in _yaml(ctx, "tickets/kb.yaml")["kb"] if a["number"] == number)


def kb_priority_matrix(ctx) -> dict[tuple[str, str], int]:
    """(impact, urgency) -> priority, from the table in KB0001001."""
    body = _kb_body(ctx, "KB0001001")
    rows = [r for r in body.splitlines() if r.strip().startswith("|")]
    def cells(row):
        return [c.strip().strip("*").strip() for c in row.strip().split("|")[1:-1]]
    head = cells(rows[0])
    urgencies = [re.sub(r"(?i)^urgency\s+", "", c) for c in head[1:]]
    out = {}
    for r in rows[2:]:
        row = cells(r)
        impact = re.sub(r"(?i)^impact\s+", "", row[0])
        for u, cell in zip(urgencies, row[1:]):
            out[(impact, u)] = int(re.search(r"P(\d)", cell).group(1))
    if len(out) != 9:
        raise ValueError(f"KB0001001's priority table reads as {out}")
    return out


def kb_routing(ctx) -> dict[str, str]:
    """category -> assignment group, from section 2 of KB0001001."""
    body = _kb_body(ctx, "KB0001001")
    out = {}
    for m in re.finditer(r"^- ([^\n→]+?) → \*\*([^*]+)\*\*", body, re.M):
        for cat in m.group(1).split(","):
            out[cat.strip()] = m.group(2).strip()
    return out


def _groups(ctx) -> dict[str, dict]:
    return {g["name"]: g for g in _yaml(ctx, "tickets/groups.yaml")["groups"]}


def _world_incidents(ctx) -> dict[str, dict]:
    return {i["number"]: i for i in _yaml(ctx, "tickets/incidents.yaml")["incidents"]}


def triage_expected(ctx) -> dict[str, dict]:
    """The overnight queue (New, no group) with what KB0001001 gives each: the priority of its impact
    × urgency, the group of its category, and that group's manager (tickets/groups.yaml)."""
    matrix, routing, groups = kb_priority_matrix(ctx), kb_routing(ctx), _groups(ctx)
    out = {}
    for n, i in _world_incidents(ctx).items():
        if i["state"] == "New" and not i.get("group"):
            group = routing[i["category"]]
            out[n] = {"impact": i["impact"], "urgency": i["urgency"], "priority": matrix[(i["impact"], i["urgency"])],
                      "group": group, "manager": groups[group]["manager"], "account": i.get("account")}
    return out


def billing_resolved(ctx) -> list[str]:
    """The incidents assigned to Billing Ops that are Resolved (tickets/incidents.yaml)."""
    return sorted(n for n, i in _world_incidents(ctx).items() if i.get("group") == "Billing Ops" and i["state"] == "Resolved")


def billing_resolved_closed(ctx):
    want = billing_resolved(ctx)
    keys = {n: _incident(ctx, n) for n in want}
    still = [n for n, (_, inc) in keys.items() if inc is None or inc["state"] != "Closed"]
    if still:
        return False, f"not Closed: {still} (of {want})"
    return True, f"{', '.join(want)} Closed", [Vouch.of("tk_incidents", k, ("state",)) for k, _ in keys.values()]


def _group_names(ctx) -> dict[str, str]:
    return {k: g["name"] for k, g in _recs(ctx, "tk_groups").items()}


def _triage_one(ctx, number: str, need_assignee: bool = True):
    want = triage_expected(ctx)[number]
    key, inc = _incident(ctx, number)
    if inc is None:
        return False, f"{number} is missing", []
    have = _group_names(ctx).get(str(inc.get("assignment_group")), "none")
    ok = (have == want["group"] and (not need_assignee or inc.get("assigned_to") == want["manager"])
          and inc.get("impact") == want["impact"] and inc.get("urgency") == want["urgency"]
          and inc.get("priority") == want["priority"])
    fields = ["assignment_group", "impact", "urgency"] + (["assigned_to"] if need_assignee else [])
    found = (f"{number}: {inc.get('impact')}×{inc.get('urgency')} = P{inc.get('priority')}, {have}, "
             f"{inc.get('assigned_to') or 'unassigned'} (want {want['impact']}×{want['urgency']} = P{want['priority']}, "
             f"{want['group']}" + (f", {want['manager']})" if need_assignee else ")"))
    return ok, found, [Vouch.of("tk_incidents", key, fields)] if ok else []


def _triage_n(n: int):
    def check(ctx):
        return _triage_one(ctx, sorted(triage_expected(ctx))[n])
    return check


triage_one_441, triage_one_442, triage_one_443, triage_one_444, triage_one_445 = (_triage_n(i) for i in range(5))


def _all(ctx, need_assignee: bool):
    vouch, lines, ok = [], [], True
    for number in sorted(triage_expected(ctx)):
        r = _triage_one(ctx, number, need_assignee)
        ok &= r[0]
        lines.append(r[1])
        vouch += r[2]
    return ok, "; ".join(lines), vouch if ok else []


def triage_groups(ctx):
    return _all(ctx, need_assignee=False)


def triage_assignees(ctx):
    return _all(ctx, need_assignee=True)


def _channel_messages(ctx, name: str) -> dict[str, dict]:
    conv, _ = _by_field(ctx, "chat_conversations", "name", name)
    return {k: m for k, m in ctx.added_by_agent("chat_messages").items() if str(m["conversation"]) == conv}


def _account_name(ctx, slug: str) -> str:
    _, acc = _by_field(ctx, "crm_accounts", "slug", slug)
    return acc["name"] if acc else slug


def names_customer(text: str, name: str) -> bool:
    """Does a text name the customer as people do: the account's name, or its first word when that
    is a name of its own ("Northloop" for Northloop Retail, "Meadowline" for Meadowline Health)?"""
    if name.lower() in text.lower():
        return True
    first = name.split()[0]
    return len(first) >= 5 and re.search(rf"(?<![\w-]){re.escape(first)}(?![\w-])", text, re.I) is not None


def _page(ctx, number: str):
    """KB0001001 §3: one post in #support-oncall with the incident number, the customer and a summary;
    a priority it states is the incident's (P1), and no other priority is given beside it."""
    want = _world_incidents(ctx)[number]
    customer = _account_name(ctx, want["account"])

    def problem(m):
        text = normalise(m["text"])
        if not names_customer(text, customer):
            return f"a page without the customer ({customer})"
        prios = priority_mentions(text)
        ok, why = stated_only(text, prios, 1) if prios else (True, "")
        return None if ok else f"a page stating the priority as {why}"
    pages = {k: m for k, m in _channel_messages(ctx, "support-oncall").items() if _number_rx(number).search(normalise(m["text"]))}
    good, found = _sift(pages, problem)
    return _only_one(good, f"{number} paged {len(good)} times (one page)",
                     f"{number} ({customer}) paged",
                     "; ".join(found) or f"no post in #support-oncall names {number}",
                     lambda ks: [Vouch.of("chat_messages", k) for k in ks])


def page_p1(ctx):
    p1 = [n for n, w in triage_expected(ctx).items() if w["priority"] == 1]
    if len(p1) != 1:
        raise ValueError(f"the overnight queue has {len(p1)} P1s: {p1}")
    return _page(ctx, p1[0])


def _catalog_item(ctx, name: str) -> str | None:
    key, _ = _by_field(ctx, "tk_catalog", "name", name)
    return key


def _requests(ctx, item_name: str) -> list[tuple[str, dict, dict]]:
    item = _catalog_item(ctx, item_name)
    return [(k, r, {f: str(v) for f, v in (r.get("variables") or {}).items()})
            for k, r in ctx.added_by_agent("tk_requests").items() if str(r.get("item")) == item]


def laptop_request(ctx):
    found = []
    for key, r, v in _requests(ctx, "New laptop"):
        if r.get("requested_for") == "jordan.blake" and v.get("model") == "MacBook Pro 14" \
                and "failing battery" in v.get("justification", "").lower():
            return True, f"request {r['number']}", {"tk_requests": [key]}
        found.append(f"{r['number']} for {r.get('requested_for')}: {v}")
    return False, "; ".join(found) or "no New laptop request"


def billing_dispute(ctx) -> dict:
    """The latest customer complaint about an invoice in the user's mail: the customer's account (its
    sender's organisation), the invoice number and the disputed amount (seats billed − seats ordered,
    at the seat price)."""
    world = _yaml(ctx, "world.yaml")
    people = {p["id"]: p for p in world["people"]}
    orgs = {o["id"]: o for o in world["orgs"]}
    latest = None
    for path in sorted((Path(ctx.world_root) / "mail").glob("*.yaml")):
        thread = world_yaml(path)
        first = thread["messages"][0]
        who = people.get(first["from"], {})
        if orgs.get(who.get("org"), {}).get("kind") != "customer" or "INV-" not in thread["subject"] \
                or not re.search(r"too much|overcharg|overbill|wrong", first["body"], re.I):
            continue
        if latest is None or str(first["date"]) > str(latest[1]["date"]):
            latest = (thread, first, who)
    thread, first, who = latest
    body = " ".join(first["body"].split())
    billed, price = map(lambda x: int(x.replace(",", "")), re.search(r"bills (\d+) seats at \$(\d[\d,]*\d|\d)", body).groups())
    ordered = int(re.search(r"order form is for (\d+)", body).group(1))
    return {"account": orgs[who["org"]]["name"], "invoice": re.search(r"INV-\d{4}-\d{4}", thread["subject"]).group(0),
            "amount": (billed - ordered) * price}


def billing_discrepancy_request(ctx):
    """One "Report a billing discrepancy" request, filed for the user (it goes to Billing Ops; the
    customer is named in its form, not made its requester), with the account, the invoice, "Wrong
    amount" and the disputed amount."""
    want = billing_dispute(ctx)
    me = _user(ctx)

    def problem(rv):
        r, v = rv
        if not (_squash(want["account"]) in _squash(v.get("account")) and v.get("discrepancy") == "Wrong amount"
                and re.fullmatch(rf"\s*{want['invoice']}\s*", v.get("invoice_number", ""), re.I) is not None
                and states(v.get("amount", ""), "number", want["amount"])[0]):
            return f"{r['number']}: {v}"
        if r.get("requested_for") != me:
            return f"{r['number']} filed for {r.get('requested_for')} (for {me}, who files it)"
        return None
    good, found = _sift({k: (r, v) for k, r, v in _requests(ctx, "Report a billing discrepancy")}, problem)
    return _only_one(good, f"{len(good)} requests for the same discrepancy (one)",
                     f"a request for {want['account']} {want['invoice']}, ${want['amount']:,}",
                     "; ".join(found) + f" (want {want})" if found else f"no billing-discrepancy request (want {want})",
                     lambda ks: [Vouch.of("tk_requests", k, to=[me]) for k in ks])


# ---------------------------------------------------------------- Harrowgate
def harrowgate_open(ctx) -> dict[str, dict]:
    """Harrowgate's open incidents in the world files: number -> {priority, owner}."""
    matrix = kb_priority_matrix(ctx)
    return {n: {"priority": matrix[(i["impact"], i["urgency"])], "owner": i["assignee"]}
            for n, i in _world_incidents(ctx).items() if i.get("account") == "harrowgate" and i["state"] not in CLOSED_STATES}


def harrowgate_closed(ctx) -> list[str]:
    return [n for n, i in _world_incidents(ctx).items() if i.get("account") == "harrowgate" and i["state"] in CLOSED_STATES]


def _opp_key(ctx, slug: str) -> str | None:
    key, _ = _by_field(ctx, "crm_opportunities", "slug", slug)
    return key


def _related_new(ctx, table: str, opp: str | None) -> dict[str, dict]:
    """The notes (or activities) the agent added on the opportunity ``opp``."""
    return {k: r for k, r in ctx.added_by_agent(table).items()
            if r.get("related_type") == "opportunity" and str(r.get("related_id")) == opp}


AT_RISK = (r"\bat[- ]?risk\b|\bin jeopardy\b|\bjeopardi[sz]ed\b|\bendangered\b|\brisk of (?:losing|churn|slipping|"
           r"not renewing|loss)\b|\bred[- ]flag(?:ged)?\b|\bflag(?:ged)? (?:as )?red\b|(?-i:\bRED\b)|\bhigh[- ]risk\b|"
           r"\brisk\W{0,3}(?:level\W{0,3})?(?:high|red)\b|\bin danger\b")
# Saying the renewal is safe after all: "ready to sign", "back on track", "risk cleared".
SAFE = (r"\b(?:ready|happy|willing|agreed|set|going|about) to sign\b|\bwill sign\b|\bon track\b|\bsigned\b|"
        r"\brisk (?:is |has been )?(?:cleared|resolved|gone|over|removed|lifted)\b|\bno (?:longer (?:any )?)?risk\b|\bsafe\b")


def flags_at_risk(text: str) -> tuple[bool, str]:
    """Does a Next Step flag the deal at risk ("AT RISK: …", "Renewal in jeopardy", "RED: …"), without
    setting the flag aside ("not at risk", "was at risk last week") or calling the deal safe ("Nadia is
    now ready to sign"; "will sign once the delays are fixed" is a condition, not a contradiction)?"""
    said, denied = claims(text, AT_RISK, past=True)
    if not said:
        return False, "no at-risk flag" + (" (only one set aside)" if denied else "")
    if denied:
        return False, "an at-risk flag and its denial"
    if claims(text, SAFE, conditional_after=True)[0]:
        return False, "flagged at risk and called safe"
    return True, "flagged at risk"


def renewal_flagged_at_risk(ctx):
    """The renewal's Next Step flags it at risk; its stage, amount and close date are as they were."""
    key, opp = _by_field(ctx, "crm_opportunities", "slug", "harrowgate-fy27-renewal")
    start = ctx.initial["tables"]["crm_opportunities"]["records"][key]
    if opp.get("next_step") == start.get("next_step") or key not in _agent_keys(ctx, "crm_opportunities"):
        return False, "the Next Step was not changed", []
    ok, why = flags_at_risk(opp.get("next_step") or "")
    kept = [f for f in ("stage", "amount", "close_date") if opp.get(f) != start.get(f)]
    if kept:
        return False, f"{', '.join(kept)} changed", []
    return ok, f"{why}: {opp.get('next_step')!r}", [Vouch.of("crm_opportunities", key, ("next_step",))] if ok else []


def renewal_note_lists_incidents(ctx):
    """One new note on the renewal naming every open Harrowgate incident, none of the closed ones as
    open, and any priority it gives the incident's."""
    opp = _opp_key(ctx, "harrowgate-fy27-renewal")
    open_, closed = harrowgate_open(ctx), harrowgate_closed(ctx)

    def problem(n):
        text = normalise(f"{n.get('title', '')}\n{n.get('body', '')}")
        missing = [num for num in open_ if not _number_rx(num).search(text)]
        stale = [num for num in closed if presented_open(text, num)]
        stale += [f"{num} (open) as closed" for num in open_ if presented_closed(text, num)]
        paired = pair(text, list(open_) + closed, priority_mentions(text))
        wrong = [f"{num}: {why}" for num, want in open_.items() if paired[num]
                 for ok, why in [stated_only(text, paired[num], want["priority"])] if not ok]
        if missing or stale or wrong:
            return (f"a note missing {missing}" + (f", listing {stale} wrongly open or closed" if stale else "")
                    + (f", with {'; '.join(wrong)}" if wrong else ""))
        return None
    good, found = _sift(_related_new(ctx, "crm_notes", opp), problem)
    return _only_one(good, f"{len(good)} notes listing the incidents (one)",
                     "a note lists the open incidents",
                     "; ".join(found) or f"no new note on the renewal lists {', '.join(open_)}",
                     lambda ks: {"crm_notes": ks})


def harrowgate_channel_summary(ctx):
    """One post in #acct-harrowgate giving each open incident its own priority (and no other)."""
    open_, closed = harrowgate_open(ctx), harrowgate_closed(ctx)

    def problem(m):
        text = normalise(m["text"])
        paired = pair(text, list(open_) + closed, priority_mentions(text))
        bad = []
        for num, want in open_.items():
            if not _number_rx(num).search(text):
                bad.append(f"{num} missing")
                continue
            ok, why = stated_only(text, paired[num], want["priority"])
            if not ok:
                bad.append(f"{num}: {why}")
        bad += [f"closed {num} listed as open" for num in closed if presented_open(text, num)]
        bad += [f"open {num} called closed" for num in open_ if presented_closed(text, num)]
        return "; ".join(bad) or None
    good, found = _sift(_channel_messages(ctx, "acct-harrowgate"), problem)
    return _only_one(good, f"{len(good)} summaries posted (one)",
                     "a summary lists each open incident with its priority",
                     " | ".join(found) or "no message in #acct-harrowgate",
                     lambda ks: {"chat_messages": ks})


def no_closed_incidents_in_summary(ctx):
    for m in _channel_messages(ctx, "acct-harrowgate").values():
        for num in harrowgate_closed(ctx):
            if presented_open(normalise(m["text"]), num):
                return False, f"the summary lists {num}, which is closed"
    return True, "only open incidents"


# ---------------------------------------------------------------- owners for Nadia
OWNER_PHRASE = re.compile(r"\b(?:own(?:s|ed|er|ers|ership|ing)?|assign(?:ed|ee)|handl(?:es|ed|ing)|working (?:on|this)|"
                          r"responsible|point of contact|(?:your|the|main) contact|looking after|in charge|"
                          r"taking care|engineer (?:on|for))\b", re.I)
# Before a name: the name is not (or no longer) the owner ("Previous owner: Ines Duarte", "from Paul").
NOT_OWNER = re.compile(r"\b(?:previous(?:ly)?|former(?:ly)?|from|replac\w*|instead of|rather than|not|no longer|"
                       r"used to|until|ex)\b\W*(?:\w+\W+){0,2}$|n['’]t\W*(?:\w+\W+){0,2}$", re.I)
BETWEEN_NOT = re.compile(r"\b(?:not|no longer|never|previously|formerly|used to|no more)\b|n['’]t\b", re.I)


def _staff(ctx) -> set[str]:
    d = _directory(ctx)
    return {s for s in _people(ctx) if not d.outside(s)}


def comment_owners(ctx, text: str, number: str, others) -> tuple[set[str], set[str]]:
    """Who a comment on ``number`` says owns it: (said with an owner phrase, named at all) — the staff
    it names that go with this incident (not with another number it names, ``others``), less those set
    aside ("Previous owner: Ines Duarte", "Paul Novak no longer owns this")."""
    text = normalise(text)
    staff = _staff(ctx)
    names = [c for c in name_mentions(ctx, text) if c.value in staff]
    paired = pair(text, [number, *others], names)
    elsewhere = {id(c) for n in others for c in paired[n]}
    owners, named = set(), set()
    for a, b in _spans(text, CLAUSE_END):
        phrases = list(OWNER_PHRASE.finditer(text, a, b))
        for c in names:
            if not (a <= c.start < b) or id(c) in elsewhere:
                continue
            if NOT_OWNER.search(text[max(a, c.start - 30):c.start]):
                continue
            denied = False
            for p in phrases:
                lo, hi = (p.end(), c.start) if p.end() <= c.start else (c.end, p.start())
                if any(lo <= o.start < hi for o in names):
                    continue                  # another name stands between: the phrase is about it
                if BETWEEN_NOT.search(text[lo:hi]):
                    denied = True             # "Paul Novak no longer owns this"
                else:
                    owners.add(c.value)
            if not denied or c.value in owners:
                named.add(c.value)
    return owners, named


def calls_it_fixed(text: str) -> bool:
    """Does a comment say the incident is resolved (not "will post here once it's resolved")?"""
    text = normalise(text)
    for m in re.finditer(r"\b(?:closed|resolved|fixed|solved)\b", text, re.I):
        if re.search(r"\b(?:once|until|till|when|whenever|as soon as|before|after|if|unless)\b", _context(text, m)[0], re.I):
            continue
        if _said_here(text, m):
            return True
    return False


def _owner_comment(ctx, number: str):
    """One new customer-visible comment on ``number`` saying its assignee owns it (with an owner phrase,
    or else naming no other member of staff for it), carrying nothing internal; it reaches the caller."""
    key, caller, mine = _comments(ctx, number)
    slug = harrowgate_open(ctx)[number]["owner"]
    owner = _people(ctx)[slug]["name"]
    others = [n for n in list(harrowgate_open(ctx)) + harrowgate_closed(ctx) if n != number]

    def problem(j):
        inside = leaks(ctx, j["text"])
        if inside:
            return f"a comment carrying internal text ({inside[0][:60]!r})"
        if calls_it_fixed(j["text"]):
            return "a comment telling the customer the open incident is resolved"
        said, named = comment_owners(ctx, j["text"], number, others)
        if said == {slug} or (not said and named == {slug}):
            return None
        return f"a comment naming {sorted(said or named) or 'nobody'} as owner"
    good, found = _sift(mine, problem)
    return _only_one(good, f"{number}: {len(good)} owner comments (one)",
                     f"{number}: a customer comment names {owner}",
                     f"{number}: no customer comment naming {owner}" + (f" ({'; '.join(found)})" if found else ""),
                     lambda ks: [Vouch.of("tk_journal", k, to=[caller]) for k in ks])


def owner_comment_421(ctx):
    return _owner_comment(ctx, "INC0010421")


def owner_comment_433(ctx):
    return _owner_comment(ctx, "INC0010433")


def owner_comment_440(ctx):
    return _owner_comment(ctx, "INC0010440")


def owner_comments(ctx):
    vouch, missing = [], []
    for number in harrowgate_open(ctx):
        r = _owner_comment(ctx, number)
        if r[0]:
            vouch += r[2]
        else:
            missing.append(r[1])
    if missing:
        return False, "; ".join(missing), []
    return True, "every open incident has its owner's name in a customer comment", vouch


# Before a second name in an incident's sentence: a helper, not a second owner ("with Paul Novak's help").
HELPER = re.compile(r"\b(?:help\w*|support\w*|backup|back-up|backing|assist\w*|cc'?d?|copied|escalat\w*|manager|lead|"
                    r"csm|account|review\w*|took over|taking over|handed|from)\b", re.I)


def owner_stated(text: str, number: str, cands: list[Cand], expected: str) -> tuple[bool, str]:
    """``expected`` is the owner ``stated`` pairs with ``number``, and no other person is said to own it in a
    sentence that names the number ("INC1 – Ines. … Ines also owns INC2 now" gives INC2 two owners), unless
    set aside ("previously Paul Novak") or named as a helper ("with Paul Novak's help")."""
    ok, why = stated(text, cands, expected)
    if not ok:
        return ok, why
    rx = _number_rx(number)
    for c in cands:
        if c.value == expected:
            continue
        a, b = clause(text, c.start)
        if not rx.search(text, a, b):
            continue
        cs = max(a, c.start - 40)
        if _set_aside(text, c) or OLD_VALUE.search(text[max(0, c.start - 20):c.start]) \
                or NOT_OWNER.search(text[cs:c.start]) or HELPER.search(text[cs:c.start]) \
                or HELPER.search(text[c.end:c.end + 20]):
            continue
        return False, f"{show_value(expected)} and also {show_value(c.value)}"
    return True, show_value(expected)


def owners_mail_to_nadia(ctx):
    """One mail to Nadia alone pairing each open incident with its owner, carrying nothing internal."""
    nadia = _people(ctx)["nadia.fell"]["email"]
    open_ = harrowgate_open(ctx)

    def problem(m):
        if (m["to"], m["cc"] or [], m["bcc"] or []) != ([nadia], [], []):
            return f"a mail to {m['to']} cc {m['cc']} bcc {m['bcc']} (to her only)"
        body = m["body"]
        if leaks(ctx, body):
            return "a mail that carries internal text (Miguel's internal-only note, work notes) to the customer"
        text = normalise("\n".join(line for line in body.splitlines() if not line.startswith(">")))
        paired = pair(text, list(open_) + harrowgate_closed(ctx), name_mentions(ctx, text))
        bad = []
        for num, want in open_.items():
            if not _number_rx(num).search(text):
                bad.append(f"{num} missing")
                continue
            ok, why = owner_stated(text, num, paired[num], want["owner"])
            if not ok:
                bad.append(f"{num}: {why}")
            elif presented_closed(text, num):
                bad.append(f"{num} (open) called closed")
        return "; ".join(bad) or None
    good, found = _sift({k: m for k, m in ctx.added_by_agent("mail_messages").items()
                         if nadia in (m["to"] or []) + (m["cc"] or []) + (m["bcc"] or [])}, problem)
    return _only_one(good, f"{len(good)} mails to Nadia with the owners (one)",
                     "a mail to Nadia alone pairs each open incident with its owner",
                     " | ".join(found) or "no mail to Nadia",
                     lambda ks: [Vouch.of("mail_messages", k, to=[nadia]) for k in ks])


def owners_no_work_notes(ctx):
    keys = {_incident(ctx, n)[0] for n in harrowgate_open(ctx)}
    for j in ctx.added_by_agent("tk_journal").values():
        if j["record_table"] == "incident" and j["kind"] == "work_note" and str(j["record"]) in keys:
            return False, "a work note (internal) was added where a customer comment was asked for"
    for num in harrowgate_closed(ctx):
        key, _ = _incident(ctx, num)
        if key in _agent_keys(ctx, "tk_incidents") or any(
                str(j["record"]) == key and j["record_table"] == "incident" for j in ctx.added_by_agent("tk_journal").values()):
            return False, f"{num} (closed) was changed or commented on"
    return True, "comments only, closed incidents untouched"


# ---------------------------------------------------------------- onboarding Nico
def _requests_for(ctx, person: str, item_name: str) -> list[tuple[str, dict, dict]]:
    return [(k, r, v) for k, r, v in _requests(ctx, item_name) if r.get("requested_for") == person]


def nico_asks(ctx) -> dict:
    """What Elise's mail about Nico asks for ("Nico starts Monday"): the laptop model and the day it is
    needed by (ISO), the two tool accesses (tool, role) and the hour of the onboarding session."""
    import datetime as dt
    for path in sorted((Path(ctx.world_root) / "mail").glob("*.yaml")):
        thread = world_yaml(path)
        if not thread["subject"].startswith("Nico starts"):
            continue
        body = thread["messages"][0]["body"]
        laptop = re.search(r"a laptop through the catalog: (.+?), needed by (\d{1,2}) (\w+)", body)
        access = re.search(r"access requests: (.+?) as (\w+), and (.+?) as (\w+) —", body)
        session = re.search(r"session on Monday \d+ \w+ at (\d{1,2}):00", body)
        month = dt.datetime.strptime(laptop.group(3), "%B").month
        return {"model": laptop.group(1),
                "needed_by": dt.date(world_day(ctx.initial).year, month, int(laptop.group(2))).isoformat(),
                "access": [(access.group(1), access.group(2)), (access.group(3), access.group(4))],
                "session_hour": int(session.group(1))}
    raise ValueError("no mail from Elise about Nico's start")


def nico_laptop(ctx):
    want = nico_asks(ctx)
    found = []
    for key, r, v in _requests_for(ctx, "nico.alvarez", "New laptop"):
        new_hire = v.get("reason") == "New hire" or "new hire" in v.get("justification", "").lower()
        if v.get("model") == want["model"] and new_hire and states(v.get("needed_by", ""), "date", want["needed_by"])[0]:
            return True, f"request {r['number']}", {"tk_requests": [key]}
        found.append(f"{r['number']}: {v}")
    return False, "; ".join(found) or "no New laptop request for Nico"


def _access(ctx, tool: str, role: str):
    good = [k for k, r, v in _requests_for(ctx, "nico.alvarez", "Access to a tool")
            if v.get("tool") == tool and v.get("role") == role]
    return _only_one(good, f"{len(good)} requests for {tool} as {role} (one)",
                     f"a request for {tool} as {role}",
                     f"no access request for Nico: {tool} as {role}",
                     lambda ks: {"tk_requests": ks})


def nico_access_first(ctx):
    """The first access Elise asks for (CRM as Editor in the published world)."""
    return _access(ctx, *nico_asks(ctx)["access"][0])


def nico_access_second(ctx):
    """The second access Elise asks for (Sheets (Finance workspace) as Viewer in the published world)."""
    return _access(ctx, *nico_asks(ctx)["access"][1])


nico_access_crm, nico_access_sheets = nico_access_first, nico_access_second     # the task's first names


def nico_no_other_access(ctx):
    asked = set(nico_asks(ctx)["access"])
    extra = [(v.get("tool"), v.get("role")) for _, r, v in _requests_for(ctx, "nico.alvarez", "Access to a tool")
             if (v.get("tool"), v.get("role")) not in asked]
    return not extra, "only the two asked for" if not extra else f"also requested: {extra}"


# ---------------------------------------------------------------- free-text deliverables
FIXED = (r"\b(?:fixed|resolved|on time|on schedule|back to normal|normal again|working (?:normally|again)|"
         r"running (?:normally|on time|on schedule)|in real[- ]time|real-time again|caught up|restored|back on track|"
         r"no longer (?:late|delayed|lagging|behind))\b|\b(?:backlog|lag|delay|issue|problem)s? (?:has |have |is |are )?"
         r"(?:now )?(?:cleared|gone|over)\b")
STILL_BROKEN = r"\bstill\b[^.;\n]{0,30}?\b(?:late|delayed|lagging|behind|broken|failing|down|affected)\b"


def says_fixed(text: str) -> tuple[bool, str]:
    """Does a message tell the customer it is fixed, and nothing that says it isn't ("not fixed yet",
    "your checks are still late"; "if you still see late alerts, reopen it" is a condition)?"""
    said, denied = claims(text, FIXED, done=True)
    if denied:
        return False, "says it is not fixed"
    if claims(text, STILL_BROKEN)[0]:
        return False, "says it is still broken"
    return said, "says it is fixed" if said else "does not say it is fixed"


def _comments(ctx, number: str, kind: str = "comment") -> tuple[str, str, dict[str, dict]]:
    """The incident's key, its caller (who reads its comments) and the comments (or work notes) the agent
    added on it."""
    key, _ = _incident(ctx, number)
    caller = ctx.initial["tables"]["tk_incidents"]["records"][key].get("caller_id")
    return key, caller, {k: j for k, j in ctx.added_by_agent("tk_journal").items()
                         if j["record_table"] == "incident" and str(j["record"]) == key and j["kind"] == kind}


def inc10421_fixed_comment(ctx):
    """One new customer-visible comment on INC0010421 telling the caller it is fixed, carrying nothing
    internal (Miguel's note, the work notes); it reaches the caller."""
    _, caller, mine = _comments(ctx, "INC0010421")

    def problem(j):
        inside = leaks(ctx, j["text"])
        if inside:
            return f"a comment carrying internal text ({inside[0][:60]!r})"
        ok, why = says_fixed(j["text"])
        return None if ok else f"a comment that {why}"
    good, found = _sift(mine, problem)
    return _only_one(good, f"{len(good)} comments telling {caller} it is fixed (one)",
                     f"a customer comment tells {caller} it is fixed",
                     "; ".join(found) or "no new customer-visible comment on INC0010421",
                     lambda ks: [Vouch.of("tk_journal", k, to=[caller]) for k in ks])


LOGS = r"\blogs?\b|\blogging output\b|\bdebug (?:output|bundle|info\w*|dump)\b|\bdiagnostic\w*\b|\bsupport bundle\b|\bdumps?\b"
ASKED = (r"\b(?:request\w*|ask\w*|chas\w*|wait\w*|await\w*|pending|expect\w*|reached out)\b|"
         r"\b(?:e-?mail|ping|messag|call|phon)\w* raj\b")


def inc440_logs_work_note(ctx):
    """One new work note on INC0010440 saying the logs were requested from Raj Iyer — and not that they
    weren't ("Logs were NOT requested from Raj yet")."""
    def problem(j):
        text = j["text"] or ""
        if not re.search(r"\braj\b", text, re.I) or not re.search(LOGS, text, re.I):
            return "a work note without Raj and the logs"
        if not affirms(text, ASKED, done=True):
            return "a work note that doesn't say they were requested (or says they weren't)"
        return None
    good, found = _sift(_comments(ctx, "INC0010440", "work_note")[2], problem)
    return _only_one(good, f"{len(good)} work notes about the logs (one)",
                     "a work note says the logs were requested from Raj",
                     "; ".join(found) or "no new work note on INC0010440",
                     lambda ks: {"tk_journal": ks})


# Greta's points: procurement is ready to sign once Nadia approves; Nadia wants the root-cause write-up first.
READY = (r"\b(?:ready|good|set|clear|cleared|prepared|able|willing|happy) to (?:sign|go|close|proceed|buy)\b|\bgood to go\b|"
         r"\bwill (?:sign|close|proceed|buy)\b|\bcan (?:sign|close|proceed)\b|\bsign(?:ature)? (?:is )?ready\b|"
         r"\bready for (?:signature|signing)\b|\bno (?:procurement )?(?:blockers?|objections?)\b")
SIGN_DENIED = r"\b(?:sign|signing|close|closing|proceed|buy)\b"
APPROVAL = (r"\bnadia\b[^.;\n]{0,40}?\b(?:approv\w*|oks?\b|ok'?s\b|okays?\b|sign(?:s|ed)? off|signs? it off|green[- ]light\w*|"
            r"go-?ahead|blessing|agrees?|says? yes|gives? (?:the |her )?(?:ok|okay|nod|word|go-?ahead))|"
            r"\b(?:approv\w*|ok|okay|sign-?off|green[- ]light|go-?ahead|blessing)\b[^.;\n]{0,25}?\bnadia\b")
# "Nadia won't approve" (not "won't approve until she has the write-up", which is the point itself).
NO_APPROVAL = (r"\bnadia\b[^.;\n]{0,20}?(?:\bnot\b|n['’]t\b|\bnever\b|\brefus\w*|\bdeclin\w*)[^.;\n]{0,15}?"
               r"\b(?:approv\w*|ok\b|okay|sign(?:s|ed)? off|green[- ]light\w*)(?![^.;\n]{0,40}?\b(?:until|unless|before|without|till)\b)")
ROOT_CAUSE = r"\broot[- ]?cause\b|\brca\b|\bpost[- ]?mortem\b|\bincident (?:report|review)\b"


def procurement_call_points(text: str) -> tuple[bool, str]:
    """The call notes carry both points, neither denied: procurement ready to sign once Nadia approves
    ("good to go as soon as Nadia gives the OK"; "won't sign until Nadia approves" says the same), and
    Nadia wants the root-cause write-up first."""
    text = normalise(text)
    ready = affirms(text, READY)
    said, denied = claims(text, SIGN_DENIED)
    # "won't sign until Nadia approves": a denial that only waits for her.
    waits = re.search(r"(?:n['’]t|\bnot|\bnever)\b[^.;\n]{0,20}?\b(?:sign|close|proceed)\b[^.;\n]{0,10}?\b(?:until|unless|before|without)\b"
                      r"[^.;\n]{0,30}?\b(?:nadia|approv\w*)", text, re.I)
    if denied and not waits:
        return False, "says procurement won't sign"
    if not (ready or waits):
        return False, "doesn't say procurement is ready to sign"
    if not affirms(text, APPROVAL) or re.search(NO_APPROVAL, text, re.I):
        return False, "doesn't say it waits for Nadia's approval (or says she won't give it)"
    if not affirms(text, ROOT_CAUSE):
        return False, "doesn't say Nadia wants the root-cause write-up (or says it isn't needed)"
    return True, "both points"


def procurement_call_logged(ctx):
    """One call logged on the Harrowgate renewal, subject "Procurement check-in", with Greta's points."""
    def problem(a):
        if a.get("kind") != "call":
            return f"a {a.get('kind')}, not a call"
        if not re.fullmatch(r"\W*procurement check-?in\b(?:\s*(?:[—–:(-]|with\b).*)?", normalise(a.get("subject") or ""), re.I | re.S):
            return f"subject {a.get('subject')!r}"
        ok, why = procurement_call_points(a.get("body") or "")
        return None if ok else f"notes that {why}"
    good, found = _sift(_related_new(ctx, "crm_activities", _opp_key(ctx, "harrowgate-fy27-renewal")), problem)
    return _only_one(good, f"{len(good)} calls logged (one)",
                     "the call is logged with both points",
                     "; ".join(found) or "no activity logged on the renewal",
                     lambda ks: {"crm_activities": ks})


# ---------------------------------------------------------------- a closed deal's own words
# A rep closing a deal may also bring its Next Step (or description) up to date: "None — lost to
# Tidewatch on seat price", "Reconnect with Theo before their 2027 renewal", "Signed 9 June; hand over
# to CS". That is careful work, not damage — as long as the words agree with how the deal closed.
QUARRY_OTHER_REASON = (r"\bbudget\w*\b|\btiming\b|\bno decision\b|\bproduct gap\b|\bmissing features?\b|\bfeature gap\b|"
                       r"\bwent (?:dark|quiet|silent)\b|\bshelved\b|\bpostponed\b|\bin[- ]house\b|\bchampion left\b|"
                       r"\bbuilt (?:it )?themselves\b")
QUARRY_STILL_OPEN = (r"\bawait\w*\b[^.;\n]{0,25}?\bdecision\b|\bdecision (?:is )?(?:still )?(?:pending|expected|due)\b|"
                     r"\bstill (?:evaluating|deciding|open|in play|considering|undecided)\b|"
                     r"\bsend\w* (?:a |the |them )?(?:revised |new |updated )?(?:quote|proposal|offer)\b|"
                     r"\bclosed[- ]won\b|\bwe won\b|\bsigned with (?:us|lumen)\b|\bchose (?:us|lumen)\b")
SIGNATURE = r"\b(?:counter-?)?signatures?\b"
BRIGHTVAULT_WRONG = (rf"\bawait\w*\b[^.;\n]{{0,25}}?{SIGNATURE}|\b(?:chase|collect|get|obtain)\w* (?:the |their )?{SIGNATURE}|"
                     rf"\bout for {SIGNATURE}|{SIGNATURE} (?:is )?(?:still )?(?:pending|due|expected)\b|\bclosed[- ]lost\b|"
                     r"\blost\b|\bchurn\w*\b|\bdid(?:n['’]t| not) renew\b|\bstill (?:open|negotiating|in negotiation)\b")
BRIGHTVAULT_SIGNED = r"\bsign(?:ed|ature)\b|\brenewed\b|\bclosed\b|\bwon\b"


def _closing_words(ctx, slug: str, wrong: str, denied_wrong: str | None = None):
    """A gate: the Next Step and description of the deal ``slug``, if the agent changed them, agree with
    how it closed — no phrase of ``wrong`` said (unless set aside: "no budget issue", "not timing"), and
    ``denied_wrong`` (what it is) not denied ("not signed yet"). Vouches the fields it read."""
    key, opp = _by_field(ctx, "crm_opportunities", "slug", slug)
    start = ctx.initial["tables"]["crm_opportunities"]["records"][key]
    fields, bad = [], []
    for f in ("next_step", "description"):
        now, was = opp.get(f) or "", start.get(f) or ""
        if now == was:
            continue
        text = normalise(now.replace(was, " ", 1) if was and was in now else now)
        if claims(text, wrong)[0]:
            bad.append(f"{f} {now!r} contradicts how the deal closed")
        elif denied_wrong and claims(text, denied_wrong)[1]:
            bad.append(f"{f} {now!r} denies how the deal closed")
        else:
            fields.append(f)
    if bad:
        return False, "; ".join(bad), []
    if not fields:
        return True, "Next Step and description as they were", []
    return True, f"{', '.join(fields)} agree with how it closed", [Vouch.of("crm_opportunities", key, tuple(fields))]


def quarry_competitor(ctx) -> str:
    """The vendor Quarry Lane chose instead ("they chose Tidewatch"), from the decision call Rachel logged
    on the deal (crm/activities.yaml)."""
    opp = _opp_key(ctx, "quarry-lane-platform")
    for a in ctx.initial["tables"]["crm_activities"]["records"].values():
        if a.get("related_type") == "opportunity" and str(a.get("related_id")) == str(opp):
            m = re.search(r"\bchose ([A-Z][\w&.-]*(?: [A-Z][\w&.-]*)*)", a.get("body") or "")
            if m:
                return m.group(1)
    raise ValueError("no decision call on quarry-lane-platform names the competitor Quarry Lane chose")


def quarry_closing_words(ctx):
    return _closing_words(ctx, "quarry-lane-platform", rf"{QUARRY_OTHER_REASON}|{QUARRY_STILL_OPEN}",
                          rf"\b{re.escape(quarry_competitor(ctx).lower())}\b|\bcompetitor\b|\blost\b")


def brightvault_closing_words(ctx):
    return _closing_words(ctx, "brightvault-bank-renewal-2026", BRIGHTVAULT_WRONG, BRIGHTVAULT_SIGNED)


# ---------------------------------------------------------------- a resolved incident's notes
FIX_TERMS = (r"\bbackfill\w*\b|\bKB0001207\b|\bre-?r[au]n\w*\b|\bre-?evaluat\w*\b|\bre-?process\w*\b|\breplay\w*\b|"
             r"\bscheduler\b|\bcapacity\b|\bworkers?\b|\bCHG0000318\b")


def inc10421_resolved(ctx):
    """INC0010421 Resolved with a resolution code that says it was solved and notes that say what fixed it
    (the backfill, KB0001207, the re-run checks, the scheduler capacity) without taking it back ("no
    backfill yet", "still lagging", "not fixed")."""
    key, inc = _incident(ctx, "INC0010421")
    if inc is None or inc.get("state") != "Resolved":
        return False, f"INC0010421 is {inc and inc.get('state')}, not Resolved", []
    code = inc.get("resolution_code")
    if code not in ("Solution provided", "Workaround provided", "Resolved by change"):
        return False, f"resolution code {code!r}", []
    notes = normalise(inc.get("resolution_notes") or "")
    if len(re.findall(r"\w+", notes)) < 4:
        return False, f"resolution notes {notes!r} (say what fixed it)", []
    if not affirms(notes, FIX_TERMS, done=True):
        return False, f"resolution notes {notes!r} don't say what fixed it (or deny it)", []
    if claims(notes, FIXED)[1] or claims(notes, STILL_BROKEN)[0]:
        return False, f"resolution notes {notes!r} say it isn't fixed", []
    return True, f"Resolved ({code}): {notes[:80]!r}", [Vouch.of("tk_incidents", key, ("state", "resolution_code", "resolution_notes"))]


# ---------------------------------------------------------------- Nico's welcome
WELCOME = (r"\bwelcome\w*\b|\bjoin(?:s|ing|ed)?\b|\bglad\b|\bexcited\b|\bthrilled\b|\bdelighted\b|\bhappy to have\b|"
           r"\bsay (?:hi|hello)\b|\bintroduc\w*\b|\bstart(?:s|ing)?\b|\baboard\b|\bonboard\w*\b|\bnew (?:member|analyst|colleague|teammate|hire)\b")


def nico_welcome(ctx):
    """One new post in #revops welcoming Nico (his name and a welcome, not denied: "Nico won't be joining"
    is no welcome)."""
    def problem(m):
        text = normalise(m["text"] or "")
        if not re.search(r"\bnico\b|@nico\.alvarez", text, re.I):
            return f"a post not naming Nico ({text[:50]!r})"
        if not affirms(text, WELCOME):
            return f"a post that doesn't welcome him ({text[:60]!r})"
        return None
    good, found = _sift(_channel_messages(ctx, "revops"), problem)
    return _only_one(good, f"{len(good)} welcomes (one)",
                     "Nico is welcomed in #revops",
                     "; ".join(found) or "no post in #revops",
                     lambda ks: {"chat_messages": ks})


def at_most_one_question_to_elise(ctx):
    """The agent put at most one question to Elise, however it asked: ``ask_user``, a question in their
    DM, or a mail to her asking one. A message asks when it has a question mark, asks in words ("can
    you…", "please let me know whether…", "confirm…"; not "let me know if you need anything"), or has
    the words her triggers answer (what she agreed, the price, the figure) without being a report of
    work done: one that thanks her or states the figure ("Thanks Elise: Palisade's renewal is at
    $73,200 in Negotiation" is no question). Her quoted mail in a reply is not the agent's text."""
    from apps.coworkers.match import matches
    from harness.verify.answer import number_cands
    elise = next(c for c in _yaml(ctx, "coworkers.yaml")["coworkers"] if c["id"] == "elise.moreau")
    triggers = [t for t in elise.get("triggers") or [] if t.get("when") == "message" and t.get("match")]
    asking = re.compile(r"\b(?:can|could|would|will) you\b|\bi (?:need|want) to know\b|"
                        r"(?:\b(?:let me know|tell me|advise me|send me)|(?:^|[.!:;,]\s*|\bplease\s+)confirm)\b"
                        r"(?!,?\s+if\s+(?:you|there)\b|\s+when\s+you\b)", re.I)

    def asks(text: str) -> bool:
        text = normalise(text or "")
        if "?" in text or asking.search(text):
            return True
        if not any(matches(text, t["match"], t.get("unless") or []) for t in triggers):
            return False
        return not any(c.value >= 100 for c in number_cands(text, words=False))      # a figure: a report

    asked = [r for r in _recs(ctx, "user_asks", "new").values() if r.get("principal") == "elise.moreau"]
    members: dict[str, set] = {}
    for m in _recs(ctx, "chat_members").values():
        members.setdefault(str(m.get("conversation")), set()).add(m.get("person"))
    dm = {k for k, c in _recs(ctx, "chat_conversations").items()
          if c.get("kind") == "dm" and members.get(k) == {"elise.moreau", ctx.final.get("user")}}
    chats = [r for r in ctx.added_by_agent("chat_messages").values()
             if str(r.get("conversation")) in dm and asks(r.get("text"))]
    mails = [r for k, r in ctx.added_by_agent("mail_messages").items()
             if "elise.moreau@lumenanalytics.io" in recipients(r) and asks(read_as_sent(ctx.final, k, r))]
    n = len(asked) + len(chats) + len(mails)
    return n <= 1, f"{n} question{'s' if n != 1 else ''} ({len(asked)} asked, {len(chats)} in chat, {len(mails)} by mail)"
