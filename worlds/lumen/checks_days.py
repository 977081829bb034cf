"""Checks of the lumen days' own work (the long-horizon composites lumen/revops-desk,
lumen/remediation-prep and lumen/renewals-review).

Every expected value is read from the exports — the CRM and the service desk as they are at the end
(or at the start, where the task asks what was there), the forecast sheet's own Summary — never typed
here, so an instance (a variant of the world) can't have a wrong answer key. Texts the agent writes are
read as a person reads them (``checks.pair`` pairs a list's values with its incident numbers; a figure
is the one its label names, read as ``harness.verify.answer.states_by_label`` does).
"""
from __future__ import annotations

import re
from datetime import date
from pathlib import Path

from harness.verify import artifacts as A
from harness.verify.answer import clause, negated, normalise, number_cands, phrase_hits, show_value, states
from harness.verify.dates import parse_date
from harness.verify.checks import world_module
from harness.verify.guard import Vouch
from harness.verify.reading import Cand

HERE = Path(__file__).parent
TOLERANCE = 5000            # "$1.91M" for $1,914,000: figures as people round them, to the nearest $10K


def _forecast():
    return world_module(HERE, "checks_forecast")


def _checks():
    return world_module(HERE, "checks")


def _people(ctx) -> dict[str, dict]:
    return {p["slug"]: p for p in ctx.final["tables"]["people"]["records"].values()}


def _recs(export: dict, table: str) -> dict[str, dict]:
    return export["tables"][table]["records"]


def messages_to(ctx, person: str) -> list[tuple[int, str, str, str]]:
    """The agent's messages that reach ``person`` in this episode, in order (checks_forecast ``messages_to``)."""
    return _forecast().messages_to(ctx, person)


def _vouch_all(msgs, person: str) -> list[Vouch]:
    return [Vouch.of(table, k, to=[person] if table == "mail_messages" else ()) for _, table, k, _ in msgs]


# ---------------------------------------------------------------------------- lumen/revops-desk
def forecast_row_palisade(ctx):
    """Palisade 3PL's renewal row in the Q2 forecast shows what the CRM has at the end: its stage, the
    Summary's probability for that stage, its amount, its close date and a weighted formula of the row."""
    return _forecast()._forecast_row(ctx, "palisade-3pl-renewal-2026")


# ---------------------------------------------------------------------------- lumen/remediation-prep
DANA = "dana.whitaker"
MAX_TO_DANA = 3             # the list, a correction, one more word: more is noise in her inbox
MAX_FULL = 2                # the whole list sent twice at most (once more after a change is fine)


def _harrowgate(export: dict) -> dict[str, tuple[str, dict]]:
    """Harrowgate's incidents in an export: number -> (key, record)."""
    return {r["number"]: (k, r) for k, r in _recs(export, "tk_incidents").items() if r.get("account") == "harrowgate"}


def _group_mentions(ctx, text: str) -> list[Cand]:
    out = []
    for g in _recs(ctx.final, "tk_groups").values():
        out += [Cand(c.start, c.end, g["name"]) for c in phrase_hits(text, g["name"])]
    return sorted(out, key=lambda c: c.start)


def _staff_names(ctx, text: str) -> list[Cand]:
    C = _checks()
    staff = C._staff(ctx)
    return [c for c in C.name_mentions(ctx, text) if c.value in staff]


def harrowgate_still_open(ctx) -> dict[str, dict]:
    """Harrowgate's incidents that are not Resolved or Closed at the end: number -> what Dana's summary
    must give (priority, group, assignee — and who had it at the start, for a summary sent before a
    hand-over)."""
    C = _checks()
    groups = {k: g["name"] for k, g in _recs(ctx.final, "tk_groups").items()}
    start = _harrowgate(ctx.initial)
    out = {}
    for n, (k, r) in sorted(_harrowgate(ctx.final).items()):
        if r["state"] in C.CLOSED_STATES:
            continue
        out[n] = {"key": k, "priority": r["priority"], "group": groups.get(str(r.get("assignment_group")), ""),
                  "assignee": r.get("assigned_to") or "",
                  "was": (start.get(n, (None, {}))[1].get("assigned_to") or "")}
    return out


def _summary(ctx):
    """Dana's ticket summary: the last message of yours to her that names every Harrowgate incident still
    open. Returns (open incidents, closed ones, messages to her, the messages that are full summaries)."""
    C = _checks()
    open_ = harrowgate_still_open(ctx)
    closed = [n for n, (_, r) in _harrowgate(ctx.final).items() if r["state"] in C.CLOSED_STATES]
    msgs = messages_to(ctx, DANA)
    full = [m for m in msgs if open_ and all(C._number_rx(n).search(m[3]) for n in open_)]
    return open_, closed, msgs, full


def _summary_problems(ctx) -> tuple[dict[str, list[str]], list[str]]:
    """What is wrong with Dana's summary: problems by incident still open, and problems of the whole
    (none sent, too many, a resolved incident presented as open)."""
    C = _checks()
    open_, closed, msgs, full = _summary(ctx)
    per = {n: [] for n in open_}
    if not full:
        return per, [f"no message of yours to Dana lists every Harrowgate incident still open ({', '.join(open_)})"]
    whole = []
    if len(msgs) > MAX_TO_DANA or len(full) > MAX_FULL:
        whole.append(f"{len(msgs)} messages to Dana, {len(full)} of them the whole list (the list and a correction)")
    if not any(table == "mail_messages" for _, table, _, _ in full):
        whole.append("the list went to Dana by chat only; she asked for a reply to her mail")
    whole += _not_to_her_only(ctx, msgs, list(open_) + closed)
    text = full[-1][3]
    numbers = list(open_) + closed
    whole += [f"{n} (now {_harrowgate(ctx.final)[n][1]['state']}) is presented as open"
              for n in closed if C._number_rx(n).search(text) and C.presented_open(text, n)]
    prio = C.pair(text, numbers, C.priority_mentions(text))
    grp = C.pair(text, numbers, _group_mentions(ctx, text))
    names = C.pair(text, numbers, _staff_names(ctx, text))
    for n, want in open_.items():
        ok, why = C.stated(text, prio[n], want["priority"])
        if not ok:
            per[n].append(f"{n}'s priority: {why} (the service desk has P{want['priority']})")
        ok, why = C.stated(text, grp[n], want["group"])
        if not ok:
            per[n].append(f"{n}'s group: {why} (the service desk has {want['group']})")
        who = [p for p in dict.fromkeys([want["assignee"], want["was"]]) if p]
        said = [C.owner_stated(text, n, names[n], p) for p in who]
        if not any(ok for ok, _ in said):
            per[n].append(f"{n}'s assignee: {said[0][1]} (the service desk has {want['assignee']})")
        if C.presented_closed(text, n):
            per[n].append(f"{n} (open) is called closed")
    return per, whole


def _not_to_her_only(ctx, msgs, numbers: list[str]) -> list[str]:
    """"Reply to my mail …, to me only": a mail of yours to Dana about her Harrowgate incidents that
    anyone else receives (to, cc or bcc — a colleague inside the company too) breaks it."""
    C = _checks()
    mails = _recs(ctx.final, "mail_messages")
    dana = _people(ctx)[DANA]["email"].lower()
    out = []
    for _, table, k, text in msgs:
        if table != "mail_messages" or not any(C._number_rx(n).search(text) for n in numbers):
            continue
        m = mails[k]
        others = [a for a in (m.get("to") or []) + (m.get("cc") or []) + (m.get("bcc") or []) if a.lower() != dana]
        if others:
            out.append(f"the mail “{m.get('subject') or ''}” also went to {', '.join(others)} (Dana asked for it to her only)")
    return out


def _current(ctx) -> tuple[bool | None, str]:
    """Has Dana the assignee of every open Harrowgate incident that changed hands during the day? None
    when none has."""
    C = _checks()
    open_, closed, msgs, _ = _summary(ctx)
    moved = {n: w for n, w in open_.items() if w["assignee"] != w["was"]}
    if not moved:
        return None, "no open Harrowgate incident has changed hands yet"
    people = _people(ctx)
    numbers = list(open_) + closed
    for n, w in moved.items():
        said = []
        for m in msgs:
            if C._number_rx(n).search(m[3]):
                names = C.pair(m[3], numbers, _staff_names(ctx, m[3]))[n]
                if names:
                    said.append((m, names))
        new = people.get(w["assignee"], {}).get("name", w["assignee"])
        if not said:
            return False, f"Dana hasn't been told who has {n} ({new} since the hand-over)"
        (_, _, _, text), names = said[-1]
        ok, why = C.owner_stated(text, n, names, w["assignee"])
        if not ok:
            return False, f"the last you told Dana about {n}: {why} (it is {new}'s now)"
    return True, "; ".join(f"{n}: {people.get(w['assignee'], {}).get('name')}" for n, w in moved.items())


def _dana_vouch(ctx, per, whole, current) -> list[Vouch]:
    """Her messages are vouched for only when all of it is right: the whole list, and the last word on an
    incident that changed hands (a list left with the old name is damage, not half a pass)."""
    if whole or any(per.values()) or current is False:
        return []
    return _vouch_all(_summary(ctx)[2], DANA)


def _summary_line(ctx, number: str):
    per, whole = _summary_problems(ctx)
    if number not in per:
        return False, f"{number} is no longer open (nothing asked to close it)"
    problems = whole + per[number]
    if problems:
        return False, "; ".join(problems)
    want = harrowgate_still_open(ctx)[number]
    return True, f"{number}: P{want['priority']}, {want['group']}, its assignee", \
        _dana_vouch(ctx, per, whole, _current(ctx)[0])


def dana_summary_433(ctx):
    """Dana's summary gives INC0010433 with its priority, group and assignee (the one it had when you
    wrote, or the one it has now), and presents no resolved Harrowgate incident as open."""
    return _summary_line(ctx, "INC0010433")


def dana_summary_440(ctx):
    """Dana's summary gives INC0010440 (On Hold, still open) with its priority, group and assignee, and
    presents no resolved Harrowgate incident as open."""
    return _summary_line(ctx, "INC0010440")


def dana_current_assignees(ctx):
    """Every open Harrowgate incident that changed hands during the day (Ines hands INC0010433 over once
    INC0010421 is resolved) has its new assignee in the last message of yours to Dana that names one for
    it: the summary written after the hand-over, or a correction after it."""
    ok, found = _current(ctx)
    if not ok:
        return False, found
    per, whole = _summary_problems(ctx)
    if whole:
        return False, "; ".join(whole)
    return True, found, _dana_vouch(ctx, per, whole, ok)


# ---------------------------------------------------------------------------- lumen/renewals-review
RR_BY = "2026-09-30"          # "closes on or before 30 September 2026" (the end of Q3)
RR_TITLE = re.compile(r"^\W*open renewals through q3\W*$", re.I)
FARAH = "farah.aziz"
MAX_TO_FARAH = 4              # the total, a correction after her pushback, the answer to her question, thanks
TOTAL_RX = r"(?<!of the )(?<!of )\btotal(?:s|led|ling|ing)?\b"
DANA_RX = r"\bdana\b|\bwhitaker\b"
HEADERS = {                   # the columns the prompt asks for, by what their header says (first match wins)
    "owner": re.compile(r"owner|\bae\b|\brep\b|account exec", re.I),
    "close": re.compile(r"close", re.I),
    "amount": re.compile(r"amount|\barr\b|value|\$|usd", re.I),
    "account": re.compile(r"\baccount\b|\bcustomer\b|\bcompany\b", re.I),     # columns a careful colleague
    "stage": re.compile(r"\bstage\b", re.I),                                    # may add: checked if there
    "type": re.compile(r"\btype\b", re.I),
    "csm": re.compile(r"\bcsm\b", re.I),
    "opportunity": re.compile(r"opportunit|\bdeal\b|\bname\b|renewal", re.I),
}


def _squash(s) -> str:
    return " ".join(re.sub(r"[‐-―−-]", "-", str(s or "")).split()).casefold()


def open_renewals(ctx) -> dict[str, dict]:
    """The CRM's Renewal opportunities still open at the end (not Closed Won or Closed Lost) that close on
    or before 30 September 2026: slug -> record."""
    return {r["slug"]: r for r in _recs(ctx.final, "crm_opportunities").values()
            if r.get("type") == "Renewal" and r["stage"] not in ("Closed Won", "Closed Lost")
            and str(r.get("close_date") or "") <= RR_BY}


def renewal_figures(ctx) -> dict[str, int]:
    """Their total, and the part of it on accounts whose CSM is Dana Whitaker."""
    opps = open_renewals(ctx)
    accounts = _recs(ctx.final, "crm_accounts")
    dana = sum(int(o.get("amount") or 0) for o in opps.values()
               if (accounts.get(str(o.get("account"))) or {}).get("csm") == DANA)
    return {"total": sum(int(o.get("amount") or 0) for o in opps.values()), "dana": dana}


def _sheets(ctx) -> list[tuple[str, dict]]:
    """New spreadsheets of yours titled "Open renewals through Q3" (not in the trash)."""
    return [(k, it) for k, it in ctx.records("drive_items", which="new").items()
            if it["kind"] == "sheet" and not it.get("trashed") and RR_TITLE.match(it["name"] or "")]


def _text(kc) -> str:
    return "" if kc is None else str(kc[1].get("display") or kc[1].get("value") or kc[1].get("input") or "").strip()


def _day(kc, want: str) -> str | None:
    """A close-date cell as an ISO date: one the sheet parsed (ISO, US month/day/year, a serial), or a
    date a person types that the sheet keeps as text ("Jun 30, 2026", "30 June 2026", "30/06/2026") when
    it reads one way only — not "07/08/26" (July 8 or 7 August). Without a year ("Jun 30") it is read in
    the year of the date expected, as a reader of a close-date column does."""
    d = _forecast()._day(kc)
    v = None if kc is None else kc[1].get("value")
    if d or not isinstance(v, str):
        return d
    t = " ".join(v.split())
    m = re.fullmatch(r"(\d{1,2})[/.-](\d{1,2})[/.-](\d{2}|\d{4})", t)
    if m and int(m[1]) <= 12 and int(m[2]) <= 12 and int(m[1]) != int(m[2]):
        return None
    p = parse_date(t, today=date.fromisoformat(want))
    return p.isoformat() if p else None


def _read_tab(ctx, tab: str):
    """The renewal table in a tab: (columns by role, data rows, total rows, problems)."""
    rows = A.rows(ctx.final, tab)
    cols, head = {}, None
    for r in sorted(rows):
        found = {}
        for col, kc in rows[r].items():
            t = _text(kc)
            for role, rx in HEADERS.items():
                if role not in found and t and A.number(kc[1].get("value")) is None and rx.search(t):
                    found[role] = col
                    break
        if {"opportunity", "amount", "close", "owner"} <= set(found):
            cols, head = found, r
            break
    if head is None:
        return None, [], [], ["no header row naming the opportunity, owner, amount and close date columns"]
    data, totals = [], []
    for r in sorted(rows):
        if r <= head:
            continue
        texts = [_text(kc) for kc in rows[r].values()]
        if any(re.match(r"(?i)^\s*(?:grand\s+)?total\b", t) for t in texts):
            totals.append(r)
        elif any(texts):
            data.append(r)
    return cols, data, totals, []


def _sheet_problems(ctx, book_item: str):
    """What's wrong with one candidate spreadsheet: (problems about its rows, problems about its total)."""
    book = next((k for k, b in A.records(ctx.final, "sheets_books").items() if str(b["item"]) == book_item), None)
    tabs = sorted((t.get("position", 0), k) for k, t in A.records(ctx.final, "sheets_tabs").items()
                  if str(t["book"]) == str(book))
    people = _people(ctx)
    accounts = _recs(ctx.final, "crm_accounts")
    want = open_renewals(ctx)
    by_name = {_squash(o["name"]): s for s, o in want.items()}
    best = None
    for _, tab in tabs:
        cols, data, totals, problems = _read_tab(ctx, tab)
        rows = A.rows(ctx.final, tab)
        row_problems, total_problems, seen = list(problems), [], {}
        for r in data if cols else []:
            name = _squash(_text(rows[r].get(cols["opportunity"])))
            slug = by_name.get(name)
            if slug is None:
                row_problems.append(f"row {r} {_text(rows[r].get(cols['opportunity']))!r} is no open renewal closing by 30 September")
                continue
            if slug in seen:
                row_problems.append(f"{want[slug]['name']} twice (rows {seen[slug]} and {r})")
                continue
            seen[slug] = r
            o, cells = want[slug], rows[r]
            owner = people.get(o["owner"], {}).get("name", o["owner"])
            if _squash(_text(cells.get(cols["owner"]))) not in (_squash(owner), _squash(o["owner"])):
                row_problems.append(f"{o['name']}: owner {_text(cells.get(cols['owner']))!r} (the CRM has {owner})")
            if A.number((cells.get(cols["amount"]) or (None, {}))[1].get("value")) != float(o.get("amount") or 0):
                row_problems.append(f"{o['name']}: amount {_text(cells.get(cols['amount']))!r} (the CRM has {o['amount']:,})")
            if _day(cells.get(cols["close"]), str(o["close_date"])) != str(o["close_date"]):
                row_problems.append(f"{o['name']}: close date {_text(cells.get(cols['close']))!r} (the CRM has {o['close_date']})")
            account = accounts.get(str(o.get("account"))) or {}
            extra = {"account": [account.get("name")], "stage": [o["stage"]], "type": [o["type"]],
                     "csm": [people.get(account.get("csm"), {}).get("name"), account.get("csm")]}
            for role, ok_values in extra.items():
                if role in cols and _text(cells.get(cols[role])) and \
                        _squash(_text(cells.get(cols[role]))) not in {_squash(v) for v in ok_values if v}:
                    row_problems.append(f"{o['name']}: {role} {_text(cells.get(cols[role]))!r} (the CRM has {ok_values[0]})")
            stray = [c for c in cells if c not in cols.values() and _text(cells.get(c))]
            if stray:
                row_problems.append(f"{o['name']}: {', '.join(f'{c}{r}' for c in stray)} under no header")
        for s, o in sorted(want.items()):
            if s not in seen and cols:
                row_problems.append(f"{o['name']} is missing")
        if cols and data:
            lo, hi = min(data), max(data)
            col = cols["amount"]
            good = []
            for r in totals:
                kc = rows[r].get(col)
                inp = A.cell_input(kc)
                m = re.fullmatch(r"=\s*SUM\(\s*\$?" + col + r"\$?(\d+)\s*:\s*\$?" + col + r"\$?(\d+)\s*\)\s*", inp, re.I)
                whole = re.fullmatch(r"=\s*SUM\(\s*\$?" + col + r"\s*:\s*\$?" + col + r"\s*\)\s*", inp, re.I)
                covers = (m and int(m.group(1)) <= lo and int(m.group(2)) >= hi and int(m.group(2)) < r) or whole
                value = A.number(kc[1].get("value")) if kc else None
                if covers and value is not None and abs(value - sum(int(o.get("amount") or 0) for o in want.values())) < 0.5:
                    good.append(r)
                else:
                    total_problems.append(f"total in row {r}: {inp or _text(kc) or 'nothing'} in column {col}")
            if not good and not total_problems:
                total_problems.append(f"no Total row with a =SUM of column {col} over rows {lo}–{hi}")
        elif cols:
            total_problems.append("no renewal rows to total")
        result = (row_problems, total_problems or ([] if cols else ["no renewal table"]))
        if best is None or len(result[0]) + len(result[1]) < len(best[0]) + len(best[1]):
            best = result
    return best or (["the spreadsheet has no tab"], ["the spreadsheet has no tab"])


def _sheet_check(ctx, which: int):
    found = _sheets(ctx)
    if not found:
        return False, "no new spreadsheet titled “Open renewals through Q3”"
    notes = []
    for key, it in found:
        problems = _sheet_problems(ctx, key)
        if not problems[which] and not (which == 1 and problems[0]):
            want = open_renewals(ctx)
            return True, (f"“{it['name']}”: {len(want)} open renewals, each as the CRM has it" if which == 0 else
                          f"“{it['name']}”: a SUM of the amounts, {renewal_figures(ctx)['total']:,}"), {"drive_items": {key}}
        notes.append(f"“{it['name']}”: " + "; ".join((problems[which] or problems[0])[:5]))
    return False, " | ".join(notes)


def renewals_sheet_rows(ctx):
    """A new spreadsheet "Open renewals through Q3" with one row for every Renewal opportunity still open
    and closing by 30 September 2026 — its name, owner, amount and close date as the CRM has them at the
    end — and no row for any other opportunity."""
    return _sheet_check(ctx, 0)


def renewals_sheet_total(ctx):
    """That spreadsheet totals the amounts with a =SUM over every renewal row (its rows right as well)."""
    return _sheet_check(ctx, 1)


def _started_problems(ctx, book_item: str) -> list[str]:
    """A spreadsheet under way: every entry in it is one the finished table has — a header naming its
    column, a renewal's name, or in that renewal's row its owner, amount or close date as the CRM has
    them, or a Total row summing the amounts. Blank cells are fine (still to type)."""
    book = next((k for k, b in A.records(ctx.final, "sheets_books").items() if str(b["item"]) == book_item), None)
    tabs = sorted((t.get("position", 0), k) for k, t in A.records(ctx.final, "sheets_tabs").items()
                  if str(t["book"]) == str(book))
    people = _people(ctx)
    accounts = _recs(ctx.final, "crm_accounts")
    want = open_renewals(ctx)
    by_name = {_squash(o["name"]): s for s, o in want.items()}
    best = None
    for _, tab in tabs:
        rows = A.rows(ctx.final, tab)
        problems, roles, head, seen = [], {}, None, set()
        for r in sorted(rows):
            texts = {c: _text(kc) for c, kc in rows[r].items() if _text(kc) or A.cell_input(kc)}
            if not texts:
                continue
            if head is None and not any(HEADERS["opportunity"].search(tx) for tx in texts.values()) \
                    and all(A.number(rows[r][c][1].get("value")) is None for c in texts):
                continue                                 # a title above the table
            if head is None:
                for c, tx in texts.items():
                    role = next((n for n, rx in HEADERS.items() if rx.search(tx)), None)
                    if role is None or A.number(rows[r][c][1].get("value")) is not None:
                        problems.append(f"{c}{r} {tx!r} heads no column the table has")
                    else:
                        roles[c] = role
                head = r
                continue
            if any(re.match(r"(?i)^\s*(?:grand\s+)?total\b", tx) for tx in texts.values()):
                for c, tx in texts.items():
                    if re.match(r"(?i)^\s*(?:grand\s+)?total\b", tx) or (roles.get(c) == "amount" and
                                                                          re.match(r"(?i)^=\s*SUM\(", A.cell_input(rows[r][c]))):
                        continue
                    problems.append(f"{c}{r} {tx!r} in the Total row")
                continue
            name_col = next((c for c, role in roles.items() if role == "opportunity"), None)
            slug = by_name.get(_squash(texts.get(name_col, ""))) if name_col else None
            if slug is None or slug in seen:
                problems.append(f"row {r} {texts.get(name_col, '')!r} is no open renewal closing by 30 September (or twice)")
                continue
            seen.add(slug)
            o = want[slug]
            account = accounts.get(str(o.get("account"))) or {}
            for c, tx in texts.items():
                role, kc = roles.get(c), rows[r][c]
                ok = (role == "opportunity" or
                      (role == "owner" and _squash(tx) in (_squash(people.get(o["owner"], {}).get("name", "")), _squash(o["owner"]))) or
                      (role == "amount" and A.number(kc[1].get("value")) == float(o.get("amount") or 0)) or
                      (role == "close" and _day(kc, str(o["close_date"])) == str(o["close_date"])) or
                      (role == "account" and _squash(tx) == _squash(account.get("name"))) or
                      (role == "stage" and _squash(tx) == _squash(o["stage"])) or
                      (role == "type" and _squash(tx) == _squash(o["type"])) or
                      (role == "csm" and _squash(tx) in (_squash(people.get(account.get("csm"), {}).get("name", "")),
                                                         _squash(account.get("csm")))))
                if not ok:
                    problems.append(f"{c}{r} {tx!r} for {o['name']}")
        if head is None:
            problems.append("nothing in it yet")
        if best is None or len(problems) < len(best):
            best = problems
    return best if best is not None else ["the spreadsheet has no tab"]


def renewals_sheet_started(ctx):
    """The spreadsheet "Open renewals through Q3" is under way and everything in it so far is right
    (a header, renewals' names, their owners, amounts and close dates as the CRM has them)."""
    done = renewals_sheet_rows(ctx)
    if done[0]:
        return done                                      # finished and right is under way too
    found = _sheets(ctx)
    if not found:
        return False, "no new spreadsheet titled “Open renewals through Q3”"
    notes = []
    for key, it in found:
        problems = _started_problems(ctx, key)
        if not problems:
            return True, f"“{it['name']}”: every entry so far is right", {"drive_items": {key}}
        notes.append(f"“{it['name']}”: " + "; ".join(problems[:5]))
    return False, " | ".join(notes)


# "Dana's four accounts (…) total $1,170,000", "Dana Whitaker's total is …": a "total" whose subject is Dana's
# accounts (what stands between her name and it: a few words of a noun phrase, no verb, conjunction or
# punctuation; a parenthesis listing them is skipped) labels her share, not the overall total.
DANA_SUBJECT = re.compile(r"(?:['’]s|s['’])?(?:\s*[\w'’-]+){0,5}\s*")
NOT_SUBJECT = re.compile(r"\b(?:and|or|but|while|whereas|which|who|that|is|are|was|were|has|have|had|looks?|sits?|"
                         r"carr(?:y|ies)|comes?|came|of|with|so|then|also)\b", re.I)


def _farah_marks(text: str) -> list[tuple[int, int, str]]:
    """Where a message to Farah names the total ("total") and Dana ("Dana", "Whitaker"), in order, each
    as "total" or "dana" — a total whose subject is Dana's accounts as "dana"."""
    marks = sorted([(m.start(), m.end(), "total") for m in re.finditer(TOTAL_RX, text, re.I)] +
                   [(m.start(), m.end(), "dana") for m in re.finditer(DANA_RX, text, re.I)])
    out: list[tuple[int, int, str]] = []
    for s0, e0, name in marks:
        if name == "total" and out and out[-1][2] == "dana" and out[-1][0] >= clause(text, s0)[0]:
            gap = re.sub(r"\([^()]*\)", " ", text[out[-1][1]:s0])
            if DANA_SUBJECT.fullmatch(gap) and not NOT_SUBJECT.search(gap):
                name = "dana"
        out.append((s0, e0, name))
    return out


def _farah_reads(text: str, want: dict[str, int]) -> dict[str, tuple[bool, bool, str]]:
    """What a message to Farah says of the total and of Dana's share: for each, (whether it gives a figure
    for it, whether that is the CRM's, unhedged, within $10K rounding, what it gives). The figure a label
    names is the first after it in its clause, not set aside and not past the other label, or else the
    nearest before it (``states_by_label``'s reading) — so "Of the $1,914,000 total, Dana's accounts carry
    $1,170,000" gives both, and "Harrowgate, which Dana looks after, is the largest" gives no share."""
    text = normalise(text)
    marks = _farah_marks(text)
    cands = number_cands(text, words=False)
    out = {}
    for name in ("total", "dana"):
        given, ok, why = False, False, f"no figure for the {name}"
        for s0, e0, _ in (mk for mk in marks if mk[2] == name):
            cs, ce = clause(text, s0)
            nxt = min([s2 for s2, _, n2 in marks if n2 != name and s2 > e0] + [ce])
            prv = max([e2 for _, e2, n2 in marks if n2 != name and e2 <= s0] + [cs])
            after = [c for c in cands if e0 <= c.start < nxt and not negated(text, c)]
            before = [c for c in cands if prv <= c.start and c.end <= s0 and not negated(text, c)]
            pick = after[0] if after else (before[-1] if before else None)
            if pick is None:
                continue
            given = True
            if abs(pick.value - want[name]) <= TOLERANCE and \
                    states(text[prv:nxt], "number", want[name], tolerance=TOLERANCE)[0]:
                ok, why = True, show_value(pick.value)
                break
            why = f"{show_value(pick.value)} in {text[prv:nxt].strip()[:90]!r}"
        out[name] = (given, ok, why)
    return out


def _farah_last(ctx, name: str):
    """(messages to Farah, the figures wanted, what the last one giving ``name`` says of it, or None)."""
    msgs = messages_to(ctx, FARAH)
    want = renewal_figures(ctx)
    said = [r[name] for r in (_farah_reads(m[3], want) for m in msgs) if r[name][0]]
    return msgs, want, (said[-1] if said else None)


def _farah_figure(ctx, name: str, what: str, truth: str):
    msgs, want, last = _farah_last(ctx, name)
    if last is None:
        return False, f"no message of yours to Farah gives {what}"
    if len(msgs) > MAX_TO_FARAH:
        return False, f"{len(msgs)} messages to Farah ({MAX_TO_FARAH} at most)"
    if not last[1]:
        return False, f"{what} you sent last: {last[2]} ({truth.format(want[name])})"
    return True, f"{what} {want[name]:,}", _vouch_all(msgs, FARAH)


def farah_total(ctx):
    """Farah has the total: the last message of yours to her that gives a figure for the total of the open
    renewals (a total of Dana's accounts is her share, not it) gives the CRM's, unhedged, within $10K
    rounding. Corrected after her pushback is fine; four messages to her at most."""
    return _farah_figure(ctx, "total", "the total", "the CRM's open renewals through Q3 total {:,}")


def farah_dana_share(ctx):
    """Farah's question back is answered: the last message of yours to her that gives a figure for Dana
    gives the part of the total on Dana Whitaker's accounts (her CSM book), unhedged."""
    return _farah_figure(ctx, "dana", "Dana's share", "Dana's accounts carry {:,} of it")


def farah_total_not_wrong(ctx):
    """Gate: no wrong total stands with Farah (the last one you gave her, if any, is right)."""
    if _farah_last(ctx, "total")[2] is None:
        return True, "no total sent"
    out = farah_total(ctx)
    return out[0], out[1]


def farah_dana_share_not_wrong(ctx):
    """Gate: no wrong share for Dana stands with Farah."""
    if _farah_last(ctx, "dana")[2] is None:
        return True, "no share for Dana given"
    out = farah_dana_share(ctx)
    return out[0], out[1]
