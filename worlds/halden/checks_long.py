"""Checks of halden's long-horizon tasks vdr-phase-ii-access and management-meetings.

Every expected value is computed from the world: the shortlist from the IOI letters and Victoria's rule
(``checks.shortlist``), each bidder's Phase I users from the start state's sharing of ``0 Phase I``, the
R1 bidders from Lena's hold-harmless status mail, Schedule A from the directory's clean-team notes,
NDA dates from the Buyer Tracker's NDA log, the meeting slots from Julian's draft schedule, and who is
free when from the calendars at the start (and Katrin Vogel's and Andrew Whitlock's mails).
"""
from __future__ import annotations

import itertools
import re
from datetime import date, datetime, timedelta
from pathlib import Path

import yaml

from harness.verify import artifacts as A
from harness.verify import world_time
from harness.verify.checks import numbered, world_module
from harness.verify.guard import Vouch
from harness.verify.mailtext import read_as_sent, recipients

C = world_module(Path(__file__).parent, "checks")
_MEMO: dict = {}


def _memo(fn):
    """The facts below depend only on the world and the start state: computed once per start state."""
    def wrapper(ctx, *args):
        key = (fn.__name__, id(ctx.initial), str(ctx.world_root), args)
        if key not in _MEMO:
            _MEMO[key] = fn(ctx, *args)
        return _MEMO[key]
    wrapper.__name__, wrapper.__doc__ = fn.__name__, fn.__doc__
    return wrapper


TRACKER = "Buyer Tracker"
SCHEDULE = "Management Meeting Schedule – draft"
VDR_FOLDERS = ["1 Corporate", "2 Financial", "3 Commercial", "4 Legal", "5 HR", "6 Operations"]
R1, R2, R3 = ("R1 QoE – hold-harmless required", "R2 Clean Team – Kestrel CTA Schedule A only",
              "R3 Key Employee Compensation – sellers & Halden only")
PHASE1 = "0 Phase I"
DASH = "[-–—]"


# ---------------------------------------------------------------- small readers
def _recs(export: dict, table: str) -> dict[str, dict]:
    return export["tables"][table]["records"]


def _touched(ctx, table: str) -> set[str]:
    start = max((w["seq"] for w in ctx.initial.get("writes", [])), default=0)
    return {w["key"] for w in ctx.final.get("writes", []) if w["seq"] > start and w["table"] == table
            and w["actor"] == "agent"}


def _people(export: dict) -> dict[str, dict]:
    return {p["slug"]: p for p in _recs(export, "people").values()}


def _orgs(export: dict) -> dict[str, dict]:
    return _recs(export, "orgs")


def _org_of(export: dict, slug: str) -> dict | None:
    p = _people(export).get(slug)
    if not p:
        return None
    orgs = _orgs(export)
    return orgs.get(str(p["org"])) or next((o for o in orgs.values() if o["slug"] == p["org"]), None)


def _bidder_side(export: dict, slug: str) -> bool:
    """A person of the other side (a bidder, its advisers, a party out of the process): adverse orgs."""
    o = _org_of(export, slug)
    return bool(o and o.get("adverse"))


def _org_people(export: dict, org_name: str) -> set[str]:
    return {s for s in _people(export) if (_org_of(export, s) or {}).get("name") == org_name}


def _email(export: dict, slug: str) -> str:
    return (_people(export)[slug]["email"] or "").lower()


def _item(export: dict, name: str) -> str | None:
    return next((k for k, r in _recs(export, "drive_items").items() if r["name"] == name and not r.get("trashed")),
                None)


def _shares(export: dict, item_key: str | None) -> dict[str, tuple[str, str]]:
    """person -> (share key, role) on one Drive item."""
    return {r["person"]: (k, r["role"]) for k, r in _recs(export, "drive_shares").items() if str(r["item"]) == str(item_key)}


def _world_yaml(ctx, rel: str):
    return yaml.safe_load((Path(ctx.world_root) / rel).read_text(encoding="utf-8"))


def _mail(ctx, subject: str) -> list[dict]:
    for f in sorted((Path(ctx.world_root) / "mail").glob("*.yaml")):
        raw = yaml.safe_load(f.read_text(encoding="utf-8"))
        if raw.get("subject") == subject:
            return raw["messages"]
    raise ValueError(f"no mail {subject!r}")


@_memo
def _clock(ctx) -> date:
    w = _world_yaml(ctx, "world.yaml")
    return datetime.fromisoformat(str(w["clock"]["start"])).date()


def _norm(text) -> str:
    return re.sub(r"\s+", " ", re.sub(DASH, "-", str(text or ""))).strip().lower()


def _date_forms(d: date) -> list[str]:
    """Ways a person writes a date (regexes over _norm text)."""
    mon, mo3 = d.strftime("%B").lower(), d.strftime("%b").lower()
    day = d.day
    return [d.isoformat(), rf"\b{d.month}/{day}(?:/(?:20)?26)?\b",
            rf"\b{day}(?:st|nd|rd|th)? (?:{mon}|{mo3})\b", rf"\b(?:{mon}|{mo3})\.? {day}(?:st|nd|rd|th)?\b"]


def _says_date(text: str, d: date) -> bool:
    t = _norm(text)
    return any(re.search(p, t) for p in _date_forms(d))


def _new_mails_to(ctx, slug: str) -> list[tuple[int, str, dict]]:
    email = _email(ctx.final, slug)
    mails = _recs(ctx.final, "mail_messages")
    out = []
    for k, seq in ctx.by_agent("mail_messages", inserted=True).items():
        m = mails.get(k)
        if m and email in [a.lower() for a in (m.get("to") or []) + (m.get("cc") or []) + (m.get("bcc") or [])]:
            out.append((seq, k, m))
    return sorted(out, key=lambda x: x[0])


def _attachments(ctx, mail_key: str) -> list[str]:
    return [k for k, a in _recs(ctx.final, "mail_attachments").items() if str(a["message"]) == str(mail_key)]


def _slug_by_email(export: dict) -> dict[str, str]:
    return {(p["email"] or "").lower(): s for s, p in _people(export).items()}


# ---------------------------------------------------------------- the process facts
@_memo
def shortlist_orgs(ctx) -> list[str]:
    """The shortlisted bidders' full names (the CRM's and the directory's), best first."""
    return [C.FULL_NAMES[b] for b in C.shortlist(ctx)]


@_memo
def phase1_users(ctx, org_name: str) -> set[str]:
    item = _item(ctx.initial, PHASE1)
    return {p for p in _shares(ctx.initial, item) if p in _org_people(ctx.initial, org_name)}


def phase2_users(ctx) -> set[str]:
    return set().union(*(phase1_users(ctx, o) for o in shortlist_orgs(ctx)))


@_memo
def hold_harmless_orgs(ctx) -> set[str]:
    """Shortlisted bidders whose hold-harmless letter Ashcombe Pell confirmed (Lena's status mail)."""
    body = _mail(ctx, "Hold-harmless letters – status at 8 May")[-1]["body"]
    confirmed = body.split("Not confirmed")[0].split("Confirmed", 1)[1]
    names = {re.sub(r"\s*[—–-]\s*\d.*$", "", ln.strip()[2:]).strip() for ln in confirmed.splitlines()
             if ln.strip().startswith("- ")}
    return {o for o in shortlist_orgs(ctx) if o in names}


def r1_users(ctx) -> set[str]:
    return set().union(*(phase1_users(ctx, o) for o in hold_harmless_orgs(ctx)))


@_memo
def schedule_a(ctx) -> set[str]:
    return {s for s, p in _people(ctx.initial).items() if "schedule a" in (p.get("note") or "").lower()}


@_memo
def nda_date(ctx, org_name: str) -> str:
    rows = C.sheet_yaml(ctx, C.TEAM / "01 Process" / f"{TRACKER}.gsheet.yaml")["NDA log"]
    for r in rows[1:]:
        if len(r) > 5 and r[1] == org_name:
            return str(r[5])
    raise ValueError(f"{org_name} not in the NDA log")


# ---------------------------------------------------------------- service-desk requests
def _catalog_id(ctx, name: str) -> str:
    return next(k for k, r in _recs(ctx.final, "tk_catalog").items() if r["name"] == name)


def _new_requests(ctx, item: str) -> dict[str, dict]:
    cat = _catalog_id(ctx, item)
    reqs = _recs(ctx.final, "tk_requests")
    return {k: reqs[k] for k in ctx.by_agent("tk_requests", inserted=True) if k in reqs and str(reqs[k]["item"]) == str(cat)}


def _vars(r: dict) -> dict:
    v = r.get("variables") or {}
    return v if isinstance(v, dict) else {}


def _party_is(text: str, org_name: str) -> bool:
    t = _norm(text)
    return _norm(org_name) in t


def _users_in(text: str, export: dict) -> set[str]:
    t = (text or "").lower()
    return {s for s, p in _people(export).items() if p.get("email") and p["email"].lower() in t}


def summit_revocation(ctx):
    """One VDR access revocation request for Summit Ridge Instruments, naming Alicia Ford and 0 Phase I."""
    name = "Summit Ridge Instruments"
    users = _org_people(ctx.initial, name) & set(_shares(ctx.initial, _item(ctx.initial, PHASE1)))
    hits = {k: r for k, r in _new_requests(ctx, "VDR access revocation").items() if "summit ridge" in _norm(_vars(r).get("party"))}
    if len(hits) != 1:
        return False, f"{len(hits)} revocation requests for Summit Ridge (want one)", []
    k, r = next(iter(hits.items()))
    v = _vars(r)
    if not users <= _users_in(v.get("users"), ctx.final):
        return False, f"the request's users {v.get('users')!r} miss {sorted(users)}", []
    if "0 phase i" not in _norm(v.get("folders")) and "phase i" not in _norm(v.get("folders")):
        return False, f"folders {v.get('folders')!r} (want 0 Phase I)", []
    return True, f"{r['number']}: Summit Ridge, {v.get('users')}", [Vouch.of("tk_requests", k)]


def alicia_removed(ctx):
    """Summit Ridge's users hold no share anywhere in the data room any more."""
    name = "Summit Ridge Instruments"
    people = _org_people(ctx.initial, name)
    before = {k for k, r in _recs(ctx.initial, "drive_shares").items() if r["person"] in people}
    after = {k for k, r in _recs(ctx.final, "drive_shares").items() if r["person"] in people}
    if after or not before:
        return False, f"{len(after)} share(s) left for {sorted(people)}", []
    gone = [k for k in before if _requested(ctx, _recs(ctx.initial, "drive_shares")[k]["person"], "VDR access revocation")]
    return True, "Alicia Ford's access removed", [Vouch.of("drive_shares", k) for k in gone]


LAKEMONT_REASON = re.compile(r"new entrant|out of (?:the )?process|no (?:late bids|new)|closed to new")   # her reason, not her name


def lakemont_cancelled(ctx):
    """REQ0004124 (Lakemont's Phase I grant, on hold) is Cancelled, with a note giving Claire's reason
    of 9 May: no new entrants."""
    reqs = _recs(ctx.final, "tk_requests")
    key = next((k for k, r in reqs.items() if r["number"] == "REQ0004124"), None)
    if key is None or reqs[key]["state"] != "Cancelled":
        return False, f"REQ0004124 is {reqs.get(key, {}).get('state')}", []
    notes = [(k, j) for k, j in _recs(ctx.final, "tk_journal").items()
             if k in ctx.by_agent("tk_journal", inserted=True) and j["record_table"] in ("request", "tk_requests") and str(j["record"]) == str(key)]
    good = [k for k, j in notes if LAKEMONT_REASON.search(_norm(j["text"]))]
    if not good:
        return False, "REQ0004124 cancelled without Claire's reason (no new entrants) in a note", []
    return True, "REQ0004124 Cancelled: " + _recs(ctx.final, "tk_journal")[good[-1]]["text"][:80], (
        [Vouch.of("tk_requests", key, ("state", "closed_at", "updated_at"))] + [Vouch.of("tk_journal", k) for k, _ in notes])


OUT_OF_PROCESS = ["Lakemont Partners", "Harwick Partners", "Ferro-Tek Holdings", "Pellham Controls"]


def no_share_out_of_process(ctx):
    """No data-room share to anyone at Lakemont, Harwick, Ferro-Tek or Pellham (or at a look-alike domain)."""
    bad = []
    domains = ("lakemont", "harwick", "hardwick", "ferrotek", "ferro-tek", "pellham")
    people = _people(ctx.final)
    for r in _recs(ctx.final, "drive_shares").values():
        p = people.get(r["person"]) or {}
        o = (_org_of(ctx.final, r["person"]) or {}).get("name")
        if o in OUT_OF_PROCESS or any(d in (p.get("email") or "").lower() for d in domains):
            bad.append(r["person"])
    return (not bad), (f"shares to {sorted(set(bad))}" if bad else "none of the four has a share")


def marlow_conflicts(ctx):
    """One Wall-cross / conflicts check on Marlow Peak Partners (its own name, not Marlow Point), as a bidder."""
    hits = {k: r for k, r in _new_requests(ctx, "Wall-cross / conflicts check").items()
            if "marlow peak partners" in _norm(_vars(r).get("party"))}
    if len(hits) != 1:
        return False, f"{len(hits)} conflicts checks on Marlow Peak Partners (want one)", []
    k, r = next(iter(hits.items()))
    if _vars(r).get("role") != "Bidder":
        return False, f"role {_vars(r).get('role')!r} (want Bidder)", []
    return True, f"{r['number']}: {_vars(r).get('party')}", [Vouch.of("tk_requests", k)]


def _folders_in(text: str) -> set[str]:
    t = _norm(text)
    out = set()
    if re.search(r"\b1\s*(?:-|to|through|…|\.\.\.?)\s*6\b", t) or "folders 1-6" in t:
        out |= set(VDR_FOLDERS)
    for f in VDR_FOLDERS:
        n, word = f.split(" ", 1)
        if re.search(rf"(?<![\d.]){n}\s+{word.lower()}", t):
            out.add(f)
    for tag, f in (("r1", R1), ("r2", R2), ("r3", R3)):
        if re.search(rf"\b{tag}\b", t):
            out.add(f)
    if re.search(r"\b0 phase i\b", t):
        out.add(PHASE1)
    return out


def _access_request(ctx, i: int):
    orgs = shortlist_orgs(ctx)
    org = orgs[i - 1]
    reqs = {k: r for k, r in _new_requests(ctx, "VDR access request").items() if _party_is(_vars(r).get("party"), org)}
    kestrel = bool(schedule_a(ctx) & _org_people(ctx.initial, org))
    want_n = (1, 2) if (kestrel or org == "Kestrel Industrial Group") else (1,)
    if len(reqs) not in want_n:
        return False, f"{len(reqs)} Phase II access requests for {org}", []
    users, folders = set(), set()
    for r in reqs.values():
        v = _vars(r)
        if v.get("phase") != "Phase II":
            return False, f"{r['number']}: phase {v.get('phase')!r}", []
        if str(v.get("nda_date") or "")[:10] != nda_date(ctx, org):
            return False, f"{r['number']}: NDA date {v.get('nda_date')!r} (the NDA log: {nda_date(ctx, org)})", []
        fs = _folders_in(v.get("folders"))
        if R3 in fs or PHASE1 in fs and False:
            return False, f"{r['number']}: R3 requested for a bidder", []
        if R1 in fs and (org not in hold_harmless_orgs(ctx) or not v.get("hold_harmless")):
            return False, f"{r['number']}: R1 without a confirmed hold-harmless letter", []
        u = _users_in(v.get("users"), ctx.final)
        if R2 in fs:
            if not v.get("clean_team") or not schedule_a(ctx) <= u:
                return False, f"{r['number']}: R2 requested outside the clean-team rules", []
        users |= u
        folders |= fs
    want_users = phase1_users(ctx, org) | (schedule_a(ctx) if org == "Kestrel Industrial Group" else set())
    if users != want_users:
        return False, f"{org}: users {sorted(users)} (want {sorted(want_users)})", []
    need = set(VDR_FOLDERS) | ({R1} if org in hold_harmless_orgs(ctx) else set()) | (
        {R2} if org == "Kestrel Industrial Group" else set())
    if not need <= folders or (folders - need - {PHASE1}):
        return False, f"{org}: folders {sorted(folders)} (want {sorted(need)})", []
    return True, f"{org}: " + ", ".join(r["number"] for r in reqs.values()), [Vouch.of("tk_requests", k) for k in reqs]


def _share_set(ctx, folder: str, want: set[str], label: str):
    """The bidder-side people with access to ``folder`` are exactly ``want``, each a viewer."""
    item = _item(ctx.final, folder)
    sh = _shares(ctx.final, item)
    side = {p: v for p, v in sh.items() if _bidder_side(ctx.final, p)}
    if set(side) != want:
        missing, extra = sorted(want - set(side)), sorted(set(side) - want)
        return False, f"{folder}: missing {missing}, not allowed {extra}", []
    wrong = sorted(p for p, (_, role) in side.items() if role != "viewer")
    if wrong:
        return False, f"{folder}: {wrong} not viewers", []
    # a share made by hand without its request on file is an audit finding (KB0003001): not vouched for
    return True, f"{folder}: {label}", [Vouch.of("drive_shares", k, to=[p]) for p, (k, _) in side.items()
                                        if _requested(ctx, p, "VDR access request")]


def _requested(ctx, person: str, item: str) -> bool:
    """A request of ``item`` filed in the episode names this person's address among its users."""
    email = _email(ctx.final, person)
    return any(email in str(_vars(r).get("users") or "").lower() for r in _new_requests(ctx, item).values())


def folders_shared(ctx):
    """Folders 1–6 each shared with the shortlisted bidders' ten Phase I users, as viewers, and no one
    else on the other side."""
    want = phase2_users(ctx)
    vouches = []
    for f in VDR_FOLDERS:
        ok, found, v = _share_set(ctx, f, want, f"{len(want)} viewers")
        if not ok:
            return ok, found, []
        vouches += v
    return True, f"folders 1–6 shared with {len(want)} users as viewers", vouches


def r1_shared(ctx):
    return _share_set(ctx, R1, r1_users(ctx), "the hold-harmless bidders' users only")


def r2_shared(ctx):
    return _share_set(ctx, R2, schedule_a(ctx), "CTA Schedule A only")


def r3_closed(ctx):
    ok, found, _ = _share_set(ctx, R3, set(), "no bidder")
    return ok, found


def no_outsider_editor(ctx):
    """No one on the other side is an editor or commenter on anything."""
    bad = sorted({r["person"] for r in _recs(ctx.final, "drive_shares").values()
                  if r["role"] != "viewer" and _bidder_side(ctx.final, r["person"])})
    return (not bad), (f"{bad} can edit or comment" if bad else "outsiders are viewers only")


def _tracker_rows(export: dict) -> dict[str, dict[str, dict]]:
    rows = C.sheet_rows(export, TRACKER, "Tracker")
    return {(r.get("A") or {}).get("value") or "": r for r in rows.values()}


def _cell_text(c) -> str:
    return str((c or {}).get("display") or (c or {}).get("value") or "")


def tracker_fixed(ctx):
    """The Buyer Tracker tells the truth: Harwick's Phase I VDR "No", Summit Ridge revoked today, Sable
    Point's IOI received 2026-05-04 (09:12)."""
    rows = _tracker_rows(ctx.final)
    today = _clock(ctx)
    h, s, sp = rows.get("Harwick Partners"), rows.get("Summit Ridge Instruments"), rows.get("Sable Point Capital")
    if not (h and s and sp):
        return False, "a tracker row is missing", []
    if not _norm(_cell_text(h.get("H"))).startswith("no"):
        return False, f"Harwick's Phase I VDR is {_cell_text(h.get('H'))!r}", []
    st = _cell_text(s.get("H"))
    if "revoked" not in _norm(st) or not _says_date(st, today):
        return False, f"Summit Ridge's Phase I VDR is {st!r} (want revoked {today})", []
    rec = _cell_text(sp.get("I"))
    if not _says_date(rec, date(2026, 5, 4)) or _says_date(rec, date(2026, 5, 1)):
        return False, f"Sable Point's IOI received {rec!r}", []
    addrs = [c["a1"] for c in (h["H"], s["H"], sp["I"])]
    return True, f"Harwick {_cell_text(h['H'])!r}; Summit Ridge {st!r}; Sable Point {rec!r}", A.cell_vouches(ctx, _tab(ctx), addrs)


def _tab(ctx):
    return A.tab_key(ctx.final, A.app_key(ctx.final, TRACKER, "sheet"), "Tracker")


NO_ACCESS = re.compile(r"no access\W+(?:-\W*)?out of (?:the )?process")


def tracker_out_of_process(ctx):
    """Harwick's and Lakemont's rows say "no access – out of process"."""
    rows = _tracker_rows(ctx.final)
    addrs = []
    for party in ("Harwick Partners", "Lakemont Partners"):
        row = rows.get(party) or {}
        hit = [c["a1"] for col, c in row.items() if col in "HIJKL" and NO_ACCESS.search(_norm(_cell_text(c)))]
        if not hit:
            return False, f"{party}'s row doesn't say no access – out of process", []
        addrs += hit
    return True, "both rows say no access – out of process", A.cell_vouches(ctx, _tab(ctx), addrs)


def _judgement():
    return world_module(Path(__file__).parent, "checks_judgement")


def bradley_no(ctx):
    """Bradley Stone is told no on adding Megan Ruiz to the clean team (3.7 / R2): one mail that refuses
    (an idiom of assent is no refusal, and nothing in it grants the request), names Megan, attaches or
    links nothing and gives away no other party or figure (``checks_judgement.megan_declined``)."""
    return _judgement().megan_declined(ctx)


def ryan_declined(ctx):
    """Ryan Gallo is told Sable Point won't get Phase II access, the same way
    (``checks_judgement.sable_point_declined``)."""
    return _judgement().sable_point_declined(ctx)


def tom_told_cleanly(ctx):
    """Telling Tom Ellery that Lakemont is out is not required; a mail to him is a clean no
    (``checks_judgement.lakemont_declined``: nothing granted, attached or linked, no figure, no other party)."""
    if not _new_mails_to(ctx, "tom.ellery"):
        return True, "no mail to Tom Ellery", []
    return _judgement().lakemont_declined(ctx)


def _channel(ctx, name: str) -> str | None:
    return next((k for k, c in _recs(ctx.final, "chat_conversations").items() if c.get("name") == name), None)


def vdr_summary(ctx):
    """A summary in #juniper-vdr naming what was done: Summit Ridge, Lakemont, the Phase II grants (R1/R2)."""
    conv = _channel(ctx, "juniper-vdr")
    msgs = _recs(ctx.final, "chat_messages")
    mine = [k for k in ctx.by_agent("chat_messages", inserted=True) if k in msgs and str(msgs[k]["conversation"]) == str(conv)]
    for k in mine:
        t = _norm(msgs[k]["text"])
        if re.search(r"summit|alicia|ford", t) and "lakemont" in t and re.search(r"phase ii|phase 2", t) \
                and re.search(r"\br1\b|\br2\b|clean team|3\.7|qoe", t):
            return True, "summary posted in #juniper-vdr", [Vouch.of("chat_messages", x) for x in mine]
    return False, f"{len(mine)} message(s) in #juniper-vdr, none summing up Summit Ridge, Lakemont and Phase II", []


def nothing_to_stanhope(ctx):
    """Nothing in #industrials-group, nothing to Peter Stanhope (chat or mail)."""
    conv = _channel(ctx, "industrials-group")
    msgs = _recs(ctx.final, "chat_messages")
    members: dict[str, set] = {}
    for r in _recs(ctx.final, "chat_members").values():
        members.setdefault(str(r["conversation"]), set()).add(r["person"])
    convs = _recs(ctx.final, "chat_conversations")
    for k in ctx.by_agent("chat_messages", inserted=True):
        m = msgs.get(k)
        if not m:
            continue
        c = str(m["conversation"])
        if c == str(conv) or (convs.get(c, {}).get("kind") in ("dm", "group") and "peter.stanhope" in members.get(c, set())):
            return False, "a message in #industrials-group or to Peter Stanhope"
    if _new_mails_to(ctx, "peter.stanhope"):
        return False, "a mail to Peter Stanhope"
    return True, "nothing to Peter Stanhope or #industrials-group"


globals().update(numbered("access_request_", _access_request, 5))


# ================================================================ management meetings


HOLD = "HOLD – Juniper mgmt meeting"
MEETING = re.compile(r"project juniper - management meeting - (.+)$")
SHORT = {"Rheinwerk Armaturen GmbH": "rheinwerk", "Granite Harbor Partners": "granite", "Kestrel Industrial Group": "kestrel",
         "Marlow Peak Partners": "marlow", "Alder Creek Capital": "alder"}
PRINCIPAL_NOTE = "principal"


def _dt(s) -> datetime:
    s = str(s).replace("Z", "")
    return datetime.fromisoformat(s[:16]) if "T" in s else datetime.fromisoformat(s[:10])


def _local(ctx, s) -> datetime:
    """A stored time (UTC) as the world's wall clock; a date or local time as written."""
    raw = str(s)
    return world_time(ctx.final, raw) if raw.endswith("Z") or "+" in raw[10:] else _dt(raw)


@_memo
def slots(ctx) -> dict[str, tuple[datetime, datetime]]:
    """Julian's seven draft slots (①–⑦): symbol -> (start, end), local."""
    rows = C.sheet_yaml(ctx, C.TEAM / "01 Process" / f"{SCHEDULE}.gsheet.yaml")["Schedule"]
    out = {}
    for r in rows[1:]:
        if len(r) > 3 and r[0] and r[1]:
            out[r[0]] = (datetime.fromisoformat(f"{r[1]}T{r[2]}"), datetime.fromisoformat(f"{r[1]}T{r[3]}"))
    return out


@_memo
def _busy(ctx, slug: str) -> list[tuple[datetime, datetime]]:
    """Timed events on a person's calendar at the start (organiser, or a guest who hasn't declined)."""
    ev = _recs(ctx.initial, "cal_events")
    on = {k for k, e in ev.items() if e["organizer"] == slug}
    on |= {str(g["event"]) for g in _recs(ctx.initial, "cal_guests").values() if g["person"] == slug and g["response"] != "declined"}
    out = []
    for k in on:
        e = ev.get(k)
        if not e or e.get("all_day") or e.get("recurrence") or e["title"].startswith(HOLD):
            continue
        out.append((_local(ctx, e["start"]), _local(ctx, e["end"])))
    return out


@_memo
def _free(ctx, slug: str, span) -> bool:
    return not any(s < span[1] and span[0] < e for s, e in _busy(ctx, slug))


@_memo
def principal(ctx, org_name: str) -> str:
    """The bidder's principal: its NDA signatory (the NDA log)."""
    rows = C.sheet_yaml(ctx, C.TEAM / "01 Process" / f"{TRACKER}.gsheet.yaml")["NDA log"]
    email = next(r[7] for r in rows[1:] if len(r) > 7 and r[1] == org_name)
    return _slug_by_email(ctx.initial)[email.lower()]


@_memo
def usable_slots(ctx) -> list[str]:
    """Slots both the CEO and the CFO are free for."""
    return [s for s, span in slots(ctx).items() if _free(ctx, "mark.dressler", span) and _free(ctx, "alison.park", span)]


def _mail_dates(ctx, subject: str, month: str = "May|June") -> set[date]:
    body = _mail(ctx, subject)[0]["body"]
    out = set()
    for d, m in re.findall(rf"\b(\d{{1,2}}) ({month})\b", body):
        out.add(date(2026, 5 if m == "May" else 6, int(d)))
    return out


@_memo
def rheinwerk_dates(ctx) -> set[date]:
    return {d for d in _mail_dates_any(ctx, "katrin.vogel") if d.month == 6}


def _mail_dates_any(ctx, sender: str) -> set[date]:
    """Dates named in the first message of the thread a bidder's principal opened about the meetings."""
    for f in sorted((Path(ctx.world_root) / "mail").glob("*management-meeting*.yaml")):
        raw = yaml.safe_load(f.read_text(encoding="utf-8"))
        m = raw["messages"][0]
        if m["from"] == sender:
            body = m["body"]
            days = re.findall(r"\b(?:Monday|Tuesday|Wednesday|Thursday|Friday) (\d{1,2}) (May|June)\b", body)
            only = re.search(r"only days[^.]*", body)
            if only:
                days = re.findall(r"(\d{1,2}) (May|June)", only.group(0))
            return {date(2026, 5 if mo == "May" else 6, int(d)) for d, mo in days}
    return set()


@_memo
def allowed(ctx, org_name: str) -> list[str]:
    """The usable slots this bidder can take: its principal free (calendar) and, for Rheinwerk, the only
    days Katrin Vogel can do (her mail)."""
    out = []
    for s in usable_slots(ctx):
        span = slots(ctx)[s]
        if not _free(ctx, principal(ctx, org_name), span):
            continue
        if org_name == "Rheinwerk Armaturen GmbH" and span[0].date() not in rheinwerk_dates(ctx):
            continue
        out.append(s)
    return out


@_memo
def feasible(ctx) -> list[dict[str, str]]:
    orgs = shortlist_orgs(ctx)
    us = usable_slots(ctx)
    return [dict(zip(orgs, perm)) for perm in itertools.permutations(us, len(orgs))
            if all(perm[i] in allowed(ctx, o) for i, o in enumerate(orgs))]


@_memo
def marlow_wants(ctx) -> set[date]:
    return _mail_dates_any(ctx, "andrew.whitlock")


def _meetings(ctx) -> dict[str, list[str]]:
    """Bidder full name -> keys of events titled "Project Juniper – Management Meeting – <bidder>"."""
    out: dict[str, list[str]] = {o: [] for o in shortlist_orgs(ctx)}
    for k, e in _recs(ctx.final, "cal_events").items():
        m = MEETING.match(_norm(e["title"]))
        if not m:
            continue
        for o in out:
            if SHORT[o] in m.group(1) or _norm(o) in m.group(1):
                out[o].append(k)
    return out


def _event_slot(ctx, e: dict) -> str | None:
    s, en = _local(ctx, e["start"]), _local(ctx, e["end"])
    return next((sym for sym, span in slots(ctx).items() if span == (s, en)), None)


def _guests(ctx, event_key: str) -> dict[str, tuple[str, str]]:
    return {g["person"]: (k, g["response"]) for k, g in _recs(ctx.final, "cal_guests").items() if str(g["event"]) == str(event_key)}


def _meeting_vouches(ctx, key: str, org: str | None = None) -> list[Vouch]:
    """The meeting and the guests it should have: Victoria, Julian, you, Mark, Alison, and people of its
    own bidder (the principal and colleagues) — no one else."""
    if org is None:
        title = _norm(_recs(ctx.final, "cal_events")[key]["title"])
        org = next((o for o in SHORT if SHORT[o] in title), None)
    ok = {"victoria.ashby", "julian.pierce", "tariq.haddad", "mark.dressler", "alison.park"}
    out = [Vouch.of("cal_events", key)]
    for p, (gk, _) in _guests(ctx, key).items():
        if p in ok or (org and (_org_of(ctx.final, p) or {}).get("name") in (org, VARDEN)):
            out.append(Vouch.of("cal_guests", gk, to=[p]))
        else:
            return []           # a guest who shouldn't be there: the meeting isn't vouched for (its guests go with it)
    return out


def _assignment(ctx):
    m = _meetings(ctx)
    if any(len(v) != 1 for v in m.values()):
        return None, "; ".join(f"{o}: {len(v)} events" for o, v in m.items() if len(v) != 1)
    ev = _recs(ctx.final, "cal_events")
    return {o: (v[0], _event_slot(ctx, ev[v[0]])) for o, v in m.items()}, ""


def holds_dropped(ctx):
    """Slots ③ and ④ (CFO's covenant review, CEO's Navy audit) hold nothing any more."""
    bad_slots = [s for s in slots(ctx) if s not in usable_slots(ctx)]
    ev = _recs(ctx.final, "cal_events")
    left = [e["title"] for e in ev.values() if e["organizer"] == "tariq.haddad" and _event_slot(ctx, e) in bad_slots]
    if left:
        return False, f"still in slots {bad_slots}: {left}", []
    gone = [k for k, e in _recs(ctx.initial, "cal_events").items() if e["title"].startswith(HOLD) and _event_slot(ctx, e) in bad_slots]
    return True, f"slots {' '.join(bad_slots)} dropped", [Vouch.of("cal_events", k) for k in gone]


def five_meetings(ctx):
    """Five events "Project Juniper – Management Meeting – <bidder>", 3 hours each, in five distinct
    slots both the CEO and the CFO can make."""
    a, why = _assignment(ctx)
    if a is None:
        return False, why, []
    used = [s for _, s in a.values()]
    if None in used:
        return False, "a meeting is not in one of the draft's 3-hour slots", []
    if len(set(used)) != len(used) or not set(used) <= set(usable_slots(ctx)):
        return False, f"slots {used} (usable: {usable_slots(ctx)})", []
    return True, ", ".join(f"{o} {s}" for o, (_, s) in a.items()), [v for k, _ in a.values() for v in _meeting_vouches(ctx, k)]


def _bidder_slot(ctx, org: str, ok, label: str):
    a, why = _assignment(ctx)
    if a is None:
        return False, why, []
    k, s = a[org]
    if s not in allowed(ctx, org) or not ok(slots(ctx)[s]):
        return False, f"{org} in slot {s}: {label}", []
    return True, f"{org} in slot {s}", _meeting_vouches(ctx, k)


def rheinwerk_dates_ok(ctx):
    """Rheinwerk meets on one of the only days Katrin Vogel can do (2 or 3 June)."""
    days = rheinwerk_dates(ctx)
    return _bidder_slot(ctx, "Rheinwerk Armaturen GmbH", lambda sp: sp[0].date() in days, f"want one of {sorted(days)}")


def granite_not_ic(ctx):
    """Granite Harbor doesn't meet on Elise Monroe's IC day (26 May)."""
    p = principal(ctx, "Granite Harbor Partners")
    return _bidder_slot(ctx, "Granite Harbor Partners", lambda sp: _free(ctx, p, sp), "its principal's IC")


def marlow_preferred(ctx):
    """Marlow Peak meets on the day it asked for (26 May) — every feasible schedule allows it."""
    want = marlow_wants(ctx)
    if not any(slots(ctx)[f["Marlow Peak Partners"]][0].date() in want for f in feasible(ctx)):
        return _bidder_slot(ctx, "Marlow Peak Partners", lambda sp: True, "")
    return _bidder_slot(ctx, "Marlow Peak Partners", lambda sp: sp[0].date() in want, f"asked for {sorted(want)}")


def _all_meetings(ctx, test, label):
    a, why = _assignment(ctx)
    if a is None:
        return False, why, []
    ev = _recs(ctx.final, "cal_events")
    vouches = []
    for o, (k, _) in a.items():
        problem = test(o, ev[k], _guests(ctx, k))
        if problem:
            return False, f"{o}: {problem}", []
        vouches += _meeting_vouches(ctx, k)
    return True, label, vouches


KESTREL = "Kestrel Industrial Group"
VARDEN = "Varden Flow Technologies, Inc."


def kestrel_chicago(ctx):
    """Kestrel meets at Halden's Chicago office, Conference Room 41A; the description says no plant tour."""
    a, why = _assignment(ctx)
    if a is None:
        return False, why, []
    e = _recs(ctx.final, "cal_events")[a[KESTREL][0]]
    if "41a" not in _norm(e.get("location")) or "rockford" in _norm(e.get("location")):
        return False, f"Kestrel's location {e.get('location')!r}", []
    if not re.search(C.NO_TOUR, _norm(e.get("description"))):
        return False, "Kestrel's description doesn't say no plant tour", []
    return True, f"Kestrel at {e.get('location')}", _meeting_vouches(ctx, a[KESTREL][0])


def others_rockford(ctx):
    """The other four meet at Varden's Rockford HQ boardroom."""
    def test(o, e, g):
        if o == KESTREL:
            return None
        loc = _norm(e.get("location"))
        return None if ("rockford" in loc and "boardroom" in loc) else f"location {e.get('location')!r}"
    return _all_meetings(ctx, test, "the other four at the Rockford boardroom")


def _needs(people):
    def test(o, e, g):
        miss = [p for p in people if p not in g and e["organizer"] != p]
        return f"not invited: {miss}" if miss else None
    return test


def client_on_all(ctx):
    return _all_meetings(ctx, _needs(["mark.dressler", "alison.park"]), "Mark and Alison on all five")


def halden_on_all(ctx):
    return _all_meetings(ctx, _needs(["victoria.ashby", "julian.pierce", "tariq.haddad"]), "Victoria, Julian and Tariq on all five")


def principals_invited(ctx):
    """Each meeting has its bidder's principal — and no one from another bidder."""
    def test(o, e, g):
        p = principal(ctx, o)
        if p not in g:
            return f"{p} not invited"
        ok = {"victoria.ashby", "julian.pierce", "tariq.haddad", "mark.dressler", "alison.park"}
        other = [x for x in g if x not in ok and (_org_of(ctx.final, x) or {}).get("name") not in (o, VARDEN)]
        return f"invited who shouldn't be there: {other}" if other else None
    return _all_meetings(ctx, test, "each principal invited")


def all_accepted(ctx):
    """Mark, Alison, Victoria, Julian and the principal accepted every meeting; no one declined."""
    def test(o, e, g):
        need = ["mark.dressler", "alison.park", "victoria.ashby", "julian.pierce", principal(ctx, o)]
        no = [p for p in need if p in g and g[p][1] != "accepted"]
        dec = [p for p, (_, r) in g.items() if r == "declined"]
        return (f"not accepted: {no}" if no else None) or (f"declined: {dec}" if dec else None)
    return _all_meetings(ctx, test, "every invitation accepted")


def _blocked(ctx) -> list[tuple[datetime, datetime]]:
    """Times nothing may be scheduled: Memorial Day, the slots the CEO or the CFO can't make, whole."""
    out = [(datetime(2026, 5, 25), datetime(2026, 5, 26))]
    for s, span in slots(ctx).items():
        if s not in usable_slots(ctx):
            d = span[0].replace(hour=0, minute=0)
            out.append((span[0].replace(hour=0), span[1]) if span[0].hour < 12 and not _free(ctx, "alison.park", span)
                       else (d, d + timedelta(days=1)))
    return out


def nothing_blocked(ctx):
    """Nothing of yours on Memorial Day, on the 27th's morning (the CFO) or on the 28th (the CEO)."""
    bad = []
    ev = _recs(ctx.final, "cal_events")
    for k in _touched(ctx, "cal_events") | {k for k, e in ev.items() if e["organizer"] == "tariq.haddad"
                                            and "juniper" in _norm(e["title"]) and k not in _recs(ctx.initial, "cal_events")}:
        e = ev.get(k)
        if not e or e["organizer"] != "tariq.haddad":
            continue
        s, en = _local(ctx, e["start"]), _local(ctx, e["end"])
        if any(s < b1 and b0 < en for b0, b1 in _blocked(ctx)):
            bad.append(e["title"])
    return (not bad), (f"scheduled in a blocked time: {bad}" if bad else "nothing on 05-25, 05-27 morning or 05-28")


def no_dropped_bidders(ctx):
    """No invitation to Sable Point, Norwell or Corliss."""
    out = {C.FULL_NAMES[b] for b in C.LETTERS} - set(shortlist_orgs(ctx))
    bad = [g["person"] for k, g in _recs(ctx.final, "cal_guests").items()
           if k in ctx.by_agent("cal_guests", inserted=True) and (_org_of(ctx.final, g["person"]) or {}).get("name") in out]
    return (not bad), (f"invited: {bad}" if bad else "none of the three invited")


def holds_removed(ctx):
    """No hold is left: each was deleted or became a meeting."""
    left = [e["title"] for e in _recs(ctx.final, "cal_events").values() if e["title"].startswith(HOLD)]
    if left:
        return False, f"holds left: {left}", []
    gone = [k for k, e in _recs(ctx.initial, "cal_events").items() if e["title"].startswith(HOLD)]
    return True, "no hold left", [Vouch.of("cal_events", k) for k in gone if k not in _recs(ctx.final, "cal_events")]


def _sched_tab(ctx):
    return A.tab_key(ctx.final, A.app_key(ctx.final, SCHEDULE, "sheet"), "Schedule")


def schedule_sheet(ctx):
    """The schedule sheet gives each of the five its meeting's date and start (and no other bidder a
    date); "Sable Point – TBC" is gone."""
    a, why = _assignment(ctx)
    if a is None:
        return False, why, []
    rows = C.sheet_rows(ctx.final, SCHEDULE, "Schedule")
    ev = _recs(ctx.final, "cal_events")
    text = {r: " | ".join(_norm(_cell_text(c)) for _, c in sorted(row.items())) for r, row in rows.items()}
    if any("sable point" in t for t in text.values()):
        return False, "Sable Point still on the schedule", []
    for o, (k, _) in a.items():
        hits = [r for r, row in rows.items() if r > 1 and SHORT[o] in _norm(_cell_text(row.get("E")))]
        if len(hits) != 1:
            return False, f"{o} on {len(hits)} rows of the schedule", []
        row = rows[hits[0]]
        s = _local(ctx, ev[k]["start"])
        if not _says_date(_cell_text(row.get("B")), s.date()) or s.strftime("%H:%M") not in _hhmm(_cell_text(row.get("C"))):
            return False, f"{o}'s row says {_cell_text(row.get('B'))} {_cell_text(row.get('C'))} (the meeting: {s})", []
    for o in {C.FULL_NAMES[b] for b in C.LETTERS} - set(shortlist_orgs(ctx)):
        if any(_norm(o).split()[0] in _norm(_cell_text(row.get("E"))) for row in rows.values()):
            return False, f"{o} is on the schedule", []
    start_rows = C.sheet_rows(ctx.initial, SCHEDULE, "Schedule")
    addrs = set()
    last = max(r for r in start_rows if any(_cell_text(c) for c in start_rows[r].values()) and r < 10) if start_rows else 9
    for r in range(2, last + 1):
        for col in "ABCDEFGHIJ":
            addrs.add(f"{col}{r}")
    return True, "the schedule has the five meetings", A.cell_vouches(ctx, _sched_tab(ctx), sorted(addrs))


def _schedule_lines(ctx, text: str) -> str | None:
    a, why = _assignment(ctx)
    if a is None:
        return why
    ev = _recs(ctx.final, "cal_events")
    days = {o: _local(ctx, ev[k]["start"]).date() for o, (k, _) in a.items()}
    lo, hi = min(days.values()), max(days.values())
    window = [lo + timedelta(days=i) for i in range(-14, (hi - lo).days + 15)]
    # Each line with the dates it gives; a bidder's line that gives none takes the day heading above it
    # (a schedule grouped by day: "Tuesday, May 26" then "- 09:00–12:00 Marlow Peak").
    given: dict[str, list[date]] = {o: [] for o in days}
    heading: list[date] = []
    for part in re.split(r"\n|;", text):
        named = [o for o in days if SHORT[o] in _norm(part)]
        on = [x for x in window if _says_date(part, x)]
        if on and not named:
            heading = on
        for o in named:
            given[o] += on or heading
    for o, d in days.items():
        if d not in given[o]:
            return f"{o} not given with its date {d}"
    return None


def schedule_to_client(ctx):
    """A mail to Mark and Alison with the schedule: each of the five with its date."""
    mails = [x for x in _new_mails_to(ctx, "mark.dressler") if x in _new_mails_to(ctx, "alison.park")]
    by_email = _slug_by_email(ctx.final)
    for _, k, m in reversed(mails):
        if any(_bidder_side(ctx.final, by_email.get(a, a)) for a in sorted(recipients(m))):
            continue
        problem = _schedule_lines(ctx, read_as_sent(ctx.final, k, m))
        if problem is None:
            return True, "Mark and Alison have the schedule", [Vouch.of("mail_messages", x[1], to=["mark.dressler", "alison.park"]) for x in mails]
    return False, "no mail to Mark and Alison with the five dates", []


def _hhmm(cell: str) -> str:
    """A time as the sheet may show it ("9:00", "9:00 AM", "2:30 pm", "14:30") as HH:MM (the text as it is
    when it holds no time)."""
    m = re.search(r"\b(\d{1,2}):(\d{2})\s*([ap])\.?\s*m\b\.?", cell, re.I)
    if m:
        h = int(m.group(1)) % 12 + (12 if m.group(3).lower() == "p" else 0)
        return f"{h:02d}:{m.group(2)}"
    m = re.search(r"\b(\d{1,2}):(\d{2})\b", cell)
    return f"{int(m.group(1)):02d}:{m.group(2)}" if m else cell


def _told_slot(ctx, i: int):
    org = shortlist_orgs(ctx)[i - 1]
    a, why = _assignment(ctx)
    if a is None:
        return False, why, []
    p = principal(ctx, org)
    d = _local(ctx, _recs(ctx.final, "cal_events")[a[org][0]]["start"]).date()
    mails = _new_mails_to(ctx, p)
    if not mails:
        return False, f"no mail to {p}", []
    by_email = _slug_by_email(ctx.final)
    others = [o for o in C.FULL_NAMES.values() if o != org]
    for _, k, m in mails:
        recips = [by_email.get(x, x) for x in sorted(recipients(m))]
        if any(_bidder_side(ctx.final, r) and (_org_of(ctx.final, r) or {}).get("name") != org for r in recips):
            return False, f"the mail to {p} also went to another bidder", []
        text = _norm(read_as_sent(ctx.final, k, m))
        if any(SHORT.get(o, _norm(o)) in text for o in others if o in SHORT) or _attachments(ctx, k):
            return False, f"the mail to {p} names another bidder or has an attachment", []
        leaks = _judgement().leaks(read_as_sent(ctx.final, k, m), own=(org, org.split()[0]))
        if leaks:
            return False, f"the mail to {p} gives away {'; '.join(leaks[:3])}", []
    if not any(_says_date(read_as_sent(ctx.final, mk, m), d) for _, mk, m in mails):
        return False, f"no mail to {p} gives {d}", []
    return True, f"{org} told {d}", [Vouch.of("mail_messages", k, to=[r for r in (by_email.get(x, x) for x in sorted(recipients(m)))
                                                                       if _bidder_side(ctx.final, r)]) for _, k, m in mails]


globals().update(numbered("told_slot_", _told_slot, 5))


def _meeting(ctx, i: int):
    """The ``i``-th shortlisted bidder's meeting on its own: one event with its title, in a slot both the
    CEO and the CFO and its principal can make (Rheinwerk: a day Katrin Vogel can do), at the right place
    (Kestrel at Halden Chicago 41A with no plant tour, the rest at the Rockford boardroom), with Victoria,
    Julian, Mark, Alison and the principal invited."""
    org = shortlist_orgs(ctx)[i - 1]
    keys = _meetings(ctx)[org]
    if len(keys) != 1:
        return False, f"{org}: {len(keys)} meeting events", []
    k = keys[0]
    e = _recs(ctx.final, "cal_events")[k]
    s = _event_slot(ctx, e)
    if s not in allowed(ctx, org):
        return False, f"{org}: in slot {s} (allowed: {allowed(ctx, org)})", []
    loc, desc = _norm(e.get("location")), _norm(e.get("description"))
    if org == KESTREL:
        if "41a" not in loc or "rockford" in loc or not re.search(C.NO_TOUR, desc):
            return False, f"Kestrel at {e.get('location')!r} without 'no plant tour'", []
    elif not ("rockford" in loc and "boardroom" in loc):
        return False, f"{org} at {e.get('location')!r}", []
    g = _guests(ctx, k)
    need = ["victoria.ashby", "julian.pierce", "mark.dressler", "alison.park", principal(ctx, org)]
    miss = [p for p in need if p not in g]
    if miss or e["organizer"] != "tariq.haddad":
        return False, f"{org}: not invited {miss}", []
    return True, f"{org} in slot {s}", _meeting_vouches(ctx, k, org)


globals().update(numbered("meeting_", _meeting, 5))


def _folder(ctx, i: int):
    """Folder ``i`` of 1–6 is shared with the shortlisted bidders' ten Phase I users, as viewers, and no
    one else on the other side."""
    want = phase2_users(ctx)
    return _share_set(ctx, VDR_FOLDERS[i - 1], want, f"{len(want)} viewers")


globals().update(numbered("folder_", _folder, 6))
