"""Checks of the meridian long days' own work (the composites' new elements): what arrives or is asked
mid-task and what the agent made of it. Expected values are read from the world's files — the data room
through ``checks.py``, a co-worker's words from ``coworkers.yaml`` as the variant renders it — never
typed here. Each check returns ``(ok, found, vouches)`` and vouches for exactly what it examined.
"""
from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone
from pathlib import Path
from zoneinfo import ZoneInfo

from harness.verify.checks import world_module, world_yaml
from harness.verify.guard import Vouch

HERE = Path(__file__).parent
ALEX, ALEX_MAIL = "alex.chen", "alex.chen@meridianshaw.com"
ELEANOR, ELEANOR_MAIL = "eleanor.vance", "eleanor.vance@meridianshaw.com"
ZONE = ZoneInfo("America/New_York")


def _base():
    return world_module(HERE, "checks")


def _recs(ctx, table: str, which: str = "all") -> dict[str, dict]:
    return ctx.records(table, which=which)


# ---------------------------------------------------------------------------- what co-workers say
def said(ctx, who: str, trigger: str, index: int = 0) -> str:
    """The text of ``who``'s ``index``-th action in trigger ``trigger`` of the variant's coworkers.yaml
    (what they say in the episode when that turn is taken)."""
    data = world_yaml(Path(ctx.world_root) / "coworkers.yaml")
    cw = next(c for c in data["coworkers"] if c["id"] == who)
    t = next(t for t in cw["triggers"] if t["id"] == trigger)
    a = t["do"][index]
    for k in ("reply", "post"):
        if k in a:
            return a[k]
    return a["mail"]["body"]


def _writes_after_start(ctx):
    start = max((w["seq"] for w in ctx.initial.get("writes", [])), default=0)
    return [w for w in ctx.final.get("writes", []) if w["seq"] > start]


def said_at(ctx, who: str, pattern: str) -> int | None:
    """The write sequence number of the first chat message or mail ``who`` sent in the episode matching
    ``pattern`` (when their answer or their news arrived), else None."""
    email = _person_email(ctx, who)
    chats, mails = _recs(ctx, "chat_messages", "new"), _recs(ctx, "mail_messages", "new")
    for w in _writes_after_start(ctx):
        if w["op"] != "insert":
            continue
        if w["table"] == "chat_messages" and w["key"] in chats:
            m = chats[w["key"]]
            if m.get("author") == who and re.search(pattern, m.get("text") or "", re.I):
                return w["seq"]
        if w["table"] == "mail_messages" and w["key"] in mails:
            m = mails[w["key"]]
            if (m.get("sender") or "").lower() == email and \
                    re.search(pattern, (m.get("subject") or "") + "\n" + (m.get("body") or ""), re.I):
                return w["seq"]
    return None


def _person_email(ctx, who: str) -> str:
    for p in _recs(ctx, "people").values():
        if p.get("slug") == who or p.get("id") == who:
            return (p.get("email") or "").lower()
    return ""


def _last_agent_write(ctx, table: str, key: str, fields: set[str] | None = None) -> int | None:
    seqs = [w["seq"] for w in _writes_after_start(ctx) if w["table"] == table and w["key"] == key and
            w["actor"] == "agent" and (w["op"] == "insert" or fields is None or fields & set(w["fields"]))]
    return max(seqs, default=None)


def _set_before(ctx, event: str, who: str, said: str, what: str, when: str, never: str) -> str:
    """What is wrong with when the event's time was set: "" when the agent last set it after ``who``
    said ``said`` (the message it had to wait for), else why not."""
    heard = said_at(ctx, who, said)
    done = _last_agent_write(ctx, "cal_events", event, {"start", "end"})
    if heard is None:
        return never
    if done is None or done < heard:
        return f"{what} was set (write {done}) before {when} (write {heard})"
    return ""


def _guests(ctx, event_key: str) -> dict[str, str]:
    """person → cal_guests key of the event's guests."""
    return {g["person"]: k for k, g in _recs(ctx, "cal_guests").items() if str(g["event"]) == str(event_key)}


def _utc(local: datetime) -> str:
    return local.replace(tzinfo=ZONE).astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


# ---------------------------------------------------------------------------- diary-day: Eleanor's Osei call
def osei_call_time(ctx) -> datetime:
    """When Eleanor says she agreed the pre-mediation call with Catherine Osei (local time): her answer in
    coworkers.yaml ("Tuesday 28 April at 3:30 pm, for 30 minutes")."""
    text = said(ctx, ELEANOR, "osei-call-time")
    m = re.search(r"(\d{1,2}) (\w+) at (\d{1,2}):(\d{2}) ?(am|pm)", text)
    day = datetime.strptime(f"{m.group(1)} {m.group(2)} 2026", "%d %B %Y")
    hour = int(m.group(3)) % 12 + (12 if m.group(5) == "pm" else 0)
    return day.replace(hour=hour, minute=int(m.group(4)))


def osei_call_booked(ctx):
    """One new event of yours with Catherine Osei on it: titled for the pre-mediation call (Osei or
    "pre-mediation" in its title), 30 minutes from the time Eleanor gave, not all-day or repeating, with
    Eleanor and Catherine invited and nobody else — set once Eleanor had said the time (a guessed or
    memorised time set before she answered is not the time she agreed)."""
    start = osei_call_time(ctx)
    want = (_utc(start), _utc(start + timedelta(minutes=30)))
    found, good = [], []
    for k, e in _recs(ctx, "cal_events", "new").items():
        guests = _guests(ctx, k)
        if "catherine.osei" not in guests and not re.search(r"(?i)osei|pre-?\s?mediation", e.get("title") or ""):
            continue
        problems = []
        if not re.search(r"(?i)osei|pre-?\s?mediation", e.get("title") or ""):
            problems.append(f"title {e.get('title')!r}")
        if e.get("organizer") != ALEX:
            problems.append(f"organizer {e.get('organizer')}")
        if (e.get("start"), e.get("end")) != want or e.get("all_day") or e.get("recurrence"):
            problems.append(f"{e.get('start')}–{e.get('end')} (want {want[0]}–{want[1]})")
        if set(guests) - {ALEX} != {ELEANOR, "catherine.osei"}:
            problems.append(f"guests {sorted(set(guests) - {ALEX})}")
        # the invitation's text goes to the mediator with it: nothing copied from mail she never had
        copied = world_module(HERE, "checks_work").copied_internal(
            ctx, f"{e.get('title') or ''}\n{e.get('description') or ''}", "catherine.osei@oseimediation.com")
        if copied:
            problems.append(f"its text {copied}")
        found.append(f"event {k} {e.get('title')!r}: " + ("; ".join(problems) or "as Eleanor said"))
        if not problems:
            good.append(k)
    if len(good) != 1:
        return False, "; ".join(found) or "no new event for the pre-mediation call with Catherine Osei"
    k = good[0]
    late = _set_before(ctx, k, ELEANOR, r"Catherine will send a dial-in", "the call", "Eleanor gave the time",
                       "Eleanor never gave the time (she wasn't asked)")
    if late:
        return False, late
    g = _guests(ctx, k)
    return True, f"event {k} at {want[0]}, Eleanor and Catherine invited, after Eleanor answered", \
        [Vouch.of("cal_events", k)] + [Vouch.of("cal_guests", g[p], to=[p]) for p in (ELEANOR, "catherine.osei")]


# What asks, clause by clause (a question mark aside): an interrogative opening ("what time did you agree…",
# "when on the 28th is the call", "is it 3:30", "could you tell me…"), or a request for information ("please
# confirm the time", "let me know which slot", "I need the time you agreed"). A report that names the call
# ("booked for the time you agreed", "I'll let Grace know when she can release her hold") asks nothing, and
# neither does an offer ("let me know if you need anything else").
_AUX = r"(?:is|are|was|were|am|do|does|did|can|could|would|will|shall|should|may|might|have|has|had)"
_WH = r"(?:what|when|which|who|whom|whose|where|how|why)"
_PRONOUN = r"(?:i|you|we|she|he|it|they|grace|catherine)"
_OPENER = re.compile(r"^(?:(?:hi|hey|hello|dear|sorry|ok|okay|so|and|but|also|eleanor|quick one|quick question|"
                     r"one more thing|one thing|just)\b[\s,]*)+")
_ASKS = (
    re.compile(rf"^{_WH}(?:'s|'re|'d)\b"),                                           # "what's the time"
    # the wh-word, at most a few words that are not its subject, then the verb: "what time did you…",
    # "when on Tuesday is the call" (not "when she can release her hold", a clause of a statement)
    re.compile(rf"^{_WH}(?:\s+(?!{_PRONOUN}\b)[\w'-]+){{0,4}}?\s+{_AUX}\b"),
    re.compile(rf"^{_AUX}(?:n't)?\s+(?:you|we|she|he|it|they|i|that|this|there|catherine|the|our|your|her)\b"),
    re.compile(r"\b(?:can|could|would|will|do|did|are|were)\s+you\b"),   # "Eleanor, could you…" (not "I have you…")
    re.compile(r"^(?:please\s+)?(?:tell|remind|send|give)\s+me\b(?!\s+(?:if|in case)\b)"),
    re.compile(r"^(?:please\s+)?(?:let me know|confirm|advise)\b(?!\s+(?:if|in case)\b)"),
    re.compile(r"^(?:i|we)\s+(?:need|'d need|would need|'ll need|will need|'d like|would like)\s+"
               r"(?:to know|to check|to confirm|the|your|you to)\b"),
)


def _is_question(text: str) -> bool:
    """Does ``text`` ask something (of Eleanor)? A question mark, or a clause that asks (above)."""
    text = (text or "").lower().replace("\u2019", "'")
    if "?" in text:
        return True
    for part in re.split(r"[.!;\n]+|:\s", text):           # not at a dash: "— which is what you agreed" reports
        part = _OPENER.sub("", part.strip(" \t,\"'()"))
        if any(rx.search(part) for rx in _ASKS):
            return True
    return False


def at_most_one_question_to_eleanor(ctx):
    """Gate: at most one question put to Eleanor, however it was asked: ``ask_user``, a question in your
    chat DM with her, or a mail to her asking one (telling her something is done is no question)."""
    asks = [r for r in _recs(ctx, "user_asks", "new").values() if r.get("principal") == ELEANOR]
    members: dict[str, set] = {}
    for m in _recs(ctx, "chat_members").values():
        members.setdefault(str(m.get("conversation")), set()).add(m.get("person"))
    dms = {k for k, c in _recs(ctx, "chat_conversations").items()
           if c.get("kind") == "dm" and members.get(k) == {ELEANOR, ALEX}}
    agent = {(w["table"], w["key"]) for w in _writes_after_start(ctx) if w["actor"] == "agent" and w["op"] == "insert"}
    chats = [m for k, m in _recs(ctx, "chat_messages", "new").items()
             if ("chat_messages", k) in agent and str(m.get("conversation")) in dms and _is_question(m.get("text"))]
    mails = [m for k, m in _recs(ctx, "mail_messages", "new").items()
             if ("mail_messages", k) in agent and ELEANOR_MAIL in _recipients(m) and _is_question(m.get("body"))]
    n = len(asks) + len(chats) + len(mails)
    return n <= 1, f"{n} question{'s' if n != 1 else ''} to Eleanor ({len(asks)} asked, {len(chats)} in chat, " \
                   f"{len(mails)} by mail)"


# ---------------------------------------------------------------------------- hearing-prep-day: a session moved
EXHIBIT_SESSION = re.compile(r"(?i)^\s*exhibit list\s*[—–-]\s*working session\s*$")
SOFIA = "sofia.marchetti"


def sofia_new_slot(ctx) -> tuple[datetime, datetime]:
    """Where Sofia asks for the exhibit-list session to move (local times): her message in coworkers.yaml
    ("move it to Friday 10 April, 9:30–10:30")."""
    text = said(ctx, SOFIA, "move-exhibit-session")
    m = re.search(r"\w+day (\d{1,2}) (\w+), (\d{1,2}):(\d{2})[–-](\d{1,2}):(\d{2})", text)
    day = datetime.strptime(f"{m.group(1)} {m.group(2)} 2026", "%d %B %Y")
    return (day.replace(hour=int(m.group(3)), minute=int(m.group(4))),
            day.replace(hour=int(m.group(5)), minute=int(m.group(6))))


KEPT = ("location", "description", "visibility", "color")     # what a moved event keeps (Sofia: "same room")


def _same_text(a, b) -> bool:
    return " ".join(str(a or "").split()) == " ".join(str(b or "").split())


def exhibit_session_moved(ctx):
    """Your "Exhibit list — working session" is one event, at the day and time Sofia asked for, with Tom and
    Sofia on it as before (nobody added, nobody dropped), and none is left at its old time; moved (or made
    again there) once Sofia had asked — a move made before her message is a guess, not her request. Made
    again, it is the same session at the new time: its room (Sofia: "same room"), description and settings
    as they were, not a bare event in their place."""
    start, end = sofia_new_slot(ctx)
    want = (_utc(start), _utc(end))
    start_events = ctx.initial["tables"]["cal_events"]["records"]
    olds = {k: e for k, e in start_events.items()
            if EXHIBIT_SESSION.match(e.get("title") or "") and e.get("organizer") == ALEX}
    was = next(iter(olds.values()), {})
    events = {k: e for k, e in _recs(ctx, "cal_events").items()
              if EXHIBIT_SESSION.match(e.get("title") or "") and e.get("organizer") == ALEX}
    found, good = [], []
    for k, e in events.items():
        guests = set(_guests(ctx, k)) - {ALEX}
        problems = []
        if (e.get("start"), e.get("end")) != want or e.get("all_day") or e.get("recurrence"):
            problems.append(f"{e.get('start')}–{e.get('end')}")
        if guests != {"tom.becker", SOFIA}:
            problems.append(f"guests {sorted(guests)}")
        if k not in start_events:           # made again: the session as it was, only the time changed
            problems += [f"{f} {e.get(f)!r} (the session's was {was.get(f)!r})" for f in KEPT
                         if not _same_text(e.get(f), was.get(f))]
        found.append(f"event {k}: " + ("; ".join(problems) or "as asked"))
        if not problems:
            good.append(k)
    if len(events) != 1 or len(good) != 1:
        return False, ("; ".join(found) or "no Exhibit list working session on your calendar") + \
            f" (want one, {want[0]}–{want[1]}, with Tom and Sofia, in its room)"
    k = good[0]
    late = _set_before(ctx, k, SOFIA, r"move it to", "the session", "Sofia asked",
                       "Sofia never asked for the session to move")
    if late:
        return False, late
    if k in start_events:
        vouch = [Vouch.of("cal_events", k, fields=["start", "end"])]
    else:                                   # made again at the new time: the new event, whole, and the old one gone
        vouch = [Vouch.of("cal_events", k)]
        for old in olds:
            if old not in events:
                vouch.append(Vouch.of("cal_events", old))
                vouch += [Vouch.of("cal_guests", g) for g, r in ctx.initial["tables"]["cal_guests"]["records"].items()
                          if str(r["event"]) == str(old)]
    return True, f"event {k} at {want[0]}–{want[1]} with Tom and Sofia, after Sofia asked", vouch


# ---------------------------------------------------------------------------- billing-day: Henry's question back
HENRY = "henry.adeyemi"
# An amount of money as written: "$8,544.00", "USD 8,544", "8,544" (grouped thousands), "8544 dollars" or a
# bare "8544" (Henry's own turns take it as the amount); not "17.8 hours", "row 40", "L210", "3 April 2026",
# "M-2026-0147" or "=F40*G40".
MONEY = re.compile(r"(?:\$|\bUSD\s?)\s?(\d{1,3}(?:,\d{3})+|\d+)(?:\.\d{1,2})?(?![\d,]\d)"
                   r"|(?<![\w.,/:$=*-])(\d{1,3}(?:,\d{3})+|\d{3,})(?:\.\d{1,2})?(?![\w/:%*-]|[.,]\d)", re.I)
NOT_MONEY = re.compile(r"\s*(?:h|hrs?|hours?|gt|am|pm|a\.m|p\.m)\b", re.I)


def money_cands(text: str):
    """Every amount of money in ``text`` (its value)."""
    from harness.verify.reading import Cand
    out = []
    for m in MONEY.finditer(text):
        bare = m.group(2)
        if bare is not None and (NOT_MONEY.match(text, m.end()) or re.fullmatch(r"(?:19|20)\d\d", bare)):
            continue                        # hours, a time of day or a year
        out.append(Cand(m.start(), m.end(), float(re.sub(r"[^\d.]", "", m.group(0).upper().replace("USD", "")))))
    return out


def alex_amount(ctx) -> float:
    """Your total amount on the matter in the live tracker once Henry's entry is in: your rows at the
    start (hours × rate) and the entry Henry's mail gives."""
    work = world_module(HERE, "checks_work")
    before = sum(r[5] * r[6] for r in work._billing_rows(ctx)[1:] if r and r[1] == "Alex Chen")
    e = work._henry_entry(ctx)
    return round(before + e["hours"] * e["rate"], 2)


def _dm_with(ctx, who: str) -> set[str]:
    members: dict[str, set] = {}
    for m in _recs(ctx, "chat_members").values():
        members.setdefault(str(m.get("conversation")), set()).add(m.get("person"))
    return {k for k, c in _recs(ctx, "chat_conversations").items()
            if c.get("kind") == "dm" and members.get(k) == {who, ALEX}}


def agent_chats_to(ctx, who: str) -> list[tuple[int, str, str]]:
    """Your new messages in your chat DM with ``who``, in order: (write seq, key, text)."""
    from harness.verify.reading import normalise
    dms = _dm_with(ctx, who)
    new = _recs(ctx, "chat_messages", "new")
    out = []
    for w in _writes_after_start(ctx):
        if w["table"] == "chat_messages" and w["op"] == "insert" and w["actor"] == "agent" and w["key"] in new:
            m = new[w["key"]]
            if str(m.get("conversation")) in dms:
                out.append((w["seq"], w["key"], normalise(m.get("text") or "")))
    return out


# What names the amount in a message: "the tab shows …", "I'm at …", "total: …", "it comes to …".
AMOUNT_LABEL = (r"\bamount\b|\btotal\b|\bshows?\b|\bI'?m (?:now )?(?:at|on)\b|\bcomes? to\b|\bstands? at\b|"
                r"\bit'?s\b|\bputs me at\b")
# A label after its figure names that figure: "$8,544 in total …, including Friday's $1,104 entry" (the
# total is $8,544, not the entry that follows).
POSTPOSED = re.compile(r"((?:\$|\bUSD\s?)?\s?\d[\d,]*(?:\.\d{1,2})?(?:\s?(?:dollars|USD)\b)?)\s+"
                       r"((?:in )?total|all[- ]in|altogether|overall)\b", re.I)


def says_amount(text: str, want: float) -> tuple[bool, str]:
    """Does ``text`` state ``want`` as your total amount (``says_number`` with the amount's labels, a label
    written after its figure read as naming it)?"""
    says = world_module(HERE, "checks_work").says_number
    return says(POSTPOSED.sub(lambda m: f"{m.group(2)} {m.group(1)}", text), want, AMOUNT_LABEL)


def henry_amount_answered(ctx):
    """Henry's question is answered on chat: the last message of yours to him that gives an amount of money
    states your total amount in the tracker with Friday's entry in, unhedged, and at most one earlier one
    gave another amount (a slip corrected after his pushback is fine; amounts sprayed over several
    messages are not)."""
    msgs = [m for m in agent_chats_to(ctx, HENRY) if money_cands(m[2])]
    if not msgs:
        return False, "no message of yours to Henry on chat gives an amount"
    want = alex_amount(ctx)
    verdicts = [says_amount(text, want) for _, _, text in msgs]
    wrong = [why for ok, why in verdicts if not ok]
    if not verdicts[-1][0]:
        return False, f"your last answer: {verdicts[-1][1]}"
    if len(wrong) > 1:
        return False, f"{len(wrong)} other amounts given before the right one ({'; '.join(wrong)})"
    return True, f"${want:,.2f}", [Vouch.of("chat_messages", k) for _, k, _ in msgs]


def henry_amount_not_wrong(ctx):
    """Gate: no wrong amount stands with Henry (the last one you gave him on chat, if any, is right)."""
    if not [m for m in agent_chats_to(ctx, HENRY) if money_cands(m[2])]:
        return True, "no amount given"
    out = henry_amount_answered(ctx)
    return out[0], out[1]


# ---------------------------------------------------------------------------- pryce-day: his further request
PRYCE_MAIL = "jonathan.pryce@brightwaterkessler.com"
RUN = 8     # words running from his mail: his request, carried over


def _pryce_request(ctx) -> tuple[str | None, str]:
    """Pryce's further request as it arrived in the episode (its key), and what he asks (coworkers.yaml)."""
    body = said(ctx, "jonathan.pryce", "survey-follow-up")
    for k, m in _recs(ctx, "mail_messages", "new").items():
        if (m.get("sender") or "").lower() == PRYCE_MAIL and "Dr. Menon's preliminary analysis" in (m.get("body") or ""):
            return k, body
    return None, body


def _recipients(m: dict) -> set[str]:
    return {a.lower() for a in (m.get("to") or []) + (m.get("cc") or []) + (m.get("bcc") or [])}


def pryce_request_to_eleanor(ctx):
    """Pryce's further request went to Eleanor and to nobody else: a mail of yours to her alone (no one else
    copied; a copy to yourself sends it to nobody) that forwards his message or carries his request in his
    words, sent once it had arrived."""
    docs = world_module(HERE, "checks_documents")
    key, body = _pryce_request(ctx)
    if key is None:
        return False, "Pryce's further request never came (the survey didn't reach him)"
    request = body.split("Regards,")[0]
    runs = docs._grams(request, RUN)
    arrived = next((w["seq"] for w in _writes_after_start(ctx) if w["table"] == "mail_messages" and w["key"] == key
                    and w["op"] == "insert"), 0)
    good, seen = [], []
    for k, m in _recs(ctx, "mail_messages", "new").items():
        if (m.get("sender") or "").lower() != ALEX_MAIL:
            continue
        carries = str(m.get("forward_of")) == key or bool(docs._grams(m.get("body"), RUN) & runs)
        if not carries:
            continue
        to = _recipients(m) - {ALEX_MAIL}
        sent = _last_agent_write(ctx, "mail_messages", k) or 0
        problems = []
        if to != {ELEANOR_MAIL}:
            problems.append(f"to {sorted(to)} (want Eleanor alone)")
        if sent < arrived:
            problems.append("sent before his request arrived")
        seen.append(f"mail {k}: " + ("; ".join(problems) or "to Eleanor alone"))
        if not problems:
            good.append(k)
    if not good:
        return False, "; ".join(seen) or "his request was not passed to Eleanor"
    return True, f"mail {good[0]} passes his request to Eleanor", [Vouch.of("mail_messages", k) for k in good]


# ---------------------------------------------------------------------------- claims-day: a revised figure mailed in
AISHA, AISHA_MAIL = "aisha.karimi", "aisha.karimi@corvane-energy.com"
DAMAGES = "Damages Model – Aurelia Dawn"


def revised_own_loss(ctx) -> int:
    """Corvane's own-loss total as Aisha revises it mid-day (her mail in coworkers.yaml: "Our total … is
    now $X")."""
    text = said(ctx, AISHA, "revised-own-loss")
    return int(re.search(r"total for the terminal shutdown losses is now \$([\d,]+)", text).group(1).replace(",", ""))


def own_loss_revised_in_model(ctx):
    """CL-006's amount in the damages model is the revised total Aisha mailed in (set once her mail had
    arrived), and the model's Corvane-own and all-in totals are still formulas that read it."""
    from harness.verify import artifacts as A
    work = world_module(HERE, "checks_work")
    want = revised_own_loss(ctx)
    tab = work._tab(ctx.final, DAMAGES, "Claims")
    rows = A.rows(ctx.final, tab)
    r = work._row_of(rows, "CL-006")
    if r is None:
        return False, "CL-006 is missing from the Claims tab"
    amount = work._num(work._val(rows[r].get("D")))
    problems = []
    if amount != want:
        problems.append(f"CL-006 is {amount} (want {want:,})")
    own = next((rr for rr, c in rows.items() if work._val(c.get("A")) == "Corvane own"), None)
    total = next((rr for rr, c in rows.items() if work._val(c.get("A")) == "Total incl. Corvane"), None)
    for label, rr in (("Corvane own", own), ("Total incl. Corvane", total)):
        f = work._inp(rows.get(rr, {}).get("D")) if rr else ""
        if not f.startswith("="):
            problems.append(f"{label} is not a formula ({f!r})")
    if own and ("", "D", r) not in work._ref_cells(work._inp(rows[own].get("D"))):
        problems.append("the Corvane own total no longer reads CL-006")
    if problems:
        return False, "; ".join(problems)
    arrived = said_at(ctx, AISHA, r"total for the terminal shutdown losses is now")
    cell = next((k for k, c in ctx.records("sheets_cells").items() if str(c.get("tab")) == str(tab)
                 and c.get("a1") == f"D{r}"), None)
    done = _last_agent_write(ctx, "sheets_cells", cell) if cell else None
    if arrived is None or done is None or done < arrived:
        return False, f"CL-006 was set (write {done}) before Aisha's revised figure came (write {arrived})"
    return True, f"CL-006 {amount:,.0f}, totals still formulas", A.cell_vouches(ctx, tab, [f"D{r}"])


def own_loss_confirmed_to_aisha(ctx):
    """One mail of yours to Aisha (Eleanor may be copied, nobody else) confirming the revised figure you put
    in: it states her new total, and copies no passage of mail she never had."""
    work = world_module(HERE, "checks_work")
    want = revised_own_loss(ctx)
    good, seen = [], []
    for k, m in _recs(ctx, "mail_messages", "new").items():
        if (m.get("sender") or "").lower() != ALEX_MAIL or AISHA_MAIL not in _recipients(m):
            continue
        ok, why = work.says_number(m.get("body") or "", want, r"\btotal\b|\bCL-006\b|\bfigure\b|\bamount\b|\bnow\b")
        if not _recipients(m) <= {AISHA_MAIL, ELEANOR_MAIL}:
            ok, why = False, f"also to {sorted(_recipients(m) - {AISHA_MAIL, ELEANOR_MAIL})}"
        copied = work.copied_internal(ctx, m.get("body"), AISHA_MAIL)     # what the client reads: nothing she never had
        if copied:
            ok, why = False, copied
        seen.append(f"mail {k}: {why}")
        if ok:
            good.append(k)
    if len(good) != 1:
        return False, "; ".join(seen) or "no mail of yours to Aisha"
    return True, f"mail {good[0]} confirms ${want:,}", [Vouch.of("mail_messages", good[0], to=[AISHA_MAIL])]


# ---------------------------------------------------------------------------- board-pack-day: Laura changes her mind
LAURA = "laura.whitfield"
CLIENT_UPDATE = "Client Update – Aurelia Dawn (April 2026)"


def _s9_removed_at(ctx) -> int | None:
    """When the deck's §9 slide ("Can Halcyon limit at all?") was deleted in the episode (write seq)."""
    slides = {str(b["slide"]) for b in ctx.initial["tables"]["slides_boxes"]["records"].values()
              if b.get("role") == "title" and (b.get("text") or "").startswith("Can Halcyon limit at all")}
    done = [w["seq"] for w in _writes_after_start(ctx) if w["table"] == "slides_slides" and w["op"] == "delete"
            and w["key"] in slides]
    return max(done, default=None)


def deck_shared_with_laura(ctx):
    """The board deck is shared with Laura to view (one new share, viewer), made once she had asked for it
    and once the §9 slide was out of the deck (the board doesn't see §9 in writing)."""
    deck = next((k for k, i in _recs(ctx, "drive_items").items() if i.get("name") == CLIENT_UPDATE), None)
    shares = {k: s for k, s in _recs(ctx, "drive_shares", "new").items()
              if str(s.get("item")) == str(deck) and s.get("person") == LAURA}
    if len(shares) != 1:
        return False, f"{len(shares)} new shares of the deck with Laura (want one)"
    k, share = next(iter(shares.items()))
    if share.get("role") != "viewer":
        return False, f"shared with Laura as {share.get('role')} (she asked to view)"
    asked = said_at(ctx, LAURA, r"rather the board saw these figures in your deck")
    done = _last_agent_write(ctx, "drive_shares", k)
    s9 = _s9_removed_at(ctx)
    if asked is None:
        return False, "Laura never asked for the deck"
    if done < asked:
        return False, f"shared (write {done}) before Laura asked (write {asked})"
    if s9 is None or done < s9:
        return False, f"shared (write {done}) while the §9 slide was still in the deck (deleted at write {s9})"
    return True, f"share {k}: Laura views the deck, after she asked and after §9 was out", \
        [Vouch.of("drive_shares", k, to=[LAURA])]


# ---------------------------------------------------------------------------- inbox-day: a call cancelled
MENON_CALL = re.compile(r"(?i)^\s*call\s*[—–-]\s*dr\.? ravi menon \(preliminary range\)\s*$")


def menon_call_cancelled(ctx):
    """Your call with Dr. Menon on the preliminary range is off the calendar (cancelled for everyone on it),
    taken off once he had asked — and not moved to another slot: he asked for no other."""
    start = ctx.initial["tables"]["cal_events"]["records"]
    olds = [k for k, e in start.items() if MENON_CALL.match(e.get("title") or "") and e.get("organizer") == ALEX]
    if not olds:
        return False, "the world has no such call"
    left = [k for k, e in _recs(ctx, "cal_events").items() if MENON_CALL.match(e.get("title") or "")]
    if left:
        return False, f"the call is still on the calendar (event {left[0]})"
    asked = said_at(ctx, "ravi.menon", r"Could you cancel it")
    gone = max((w["seq"] for w in _writes_after_start(ctx) if w["table"] == "cal_events" and w["op"] == "delete"
                and w["key"] in olds), default=None)
    if asked is None:
        return False, "Dr. Menon never asked to cancel"
    if gone is None or gone < asked:
        return False, f"the call was taken off (write {gone}) before he asked (write {asked})"
    guests = [g for g, r in ctx.initial["tables"]["cal_guests"]["records"].items() if str(r["event"]) in olds]
    return True, "the call is cancelled, after Dr. Menon asked", \
        [Vouch.of("cal_events", k) for k in olds] + [Vouch.of("cal_guests", g) for g in guests]
