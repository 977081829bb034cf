"""Checks of the Phase II launch's parts (the outline's workflow 5): the five process letters (and Kestrel's
draft, through ``checks_deliverables``), the thank-you notes to the three IOI bidders who are out, their
Phase I access revoked, and the CRM after Round 1.

Who is through and who is out comes from the letters, the mail and Victoria's rule (``checks.shortlist``);
each bidder's principal from the NDA log (``checks_long.principal``); the letter's terms from Julian's
template comments through ``checks_deliverables``. Each check returns ``(ok, found[, vouches])``.
"""
from __future__ import annotations

import re
from pathlib import Path

from harness.verify import artifacts as A
from harness.verify.checks import numbered, world_module
from harness.verify.guard import Vouch
from harness.verify.mailtext import read_as_sent, recipients
from harness.verify.reading import normalise

HERE = Path(__file__).parent
C = world_module(HERE, "checks")
DOMAIN = "haldenrowe.com"
VICTORIA, JULIAN = "victoria.ashby", "julian.pierce"


def _long():
    return world_module(HERE, "checks_long")


def _j():
    return world_module(HERE, "checks_judgement")


def _d():
    return world_module(HERE, "checks_deliverables")


def _email(ctx, slug: str) -> str:
    return _j()._mail_of(ctx, slug)


def _short(bidder: str) -> str:
    return _j().SHORT[bidder]


def _agent_mails(ctx) -> list[tuple[int, str, dict]]:
    mails = A.records(ctx.final, "mail_messages")
    return sorted((seq, k, mails[k]) for k, seq in ctx.by_agent("mail_messages", inserted=True).items() if k in mails)


def _outside(rcpt: set[str]) -> list[str]:
    return sorted(r for r in rcpt if not r.endswith("@" + DOMAIN))


# ---------------------------------------------------------------- the five letters
# What Victoria's 05-08 mail asks each letter to add (its "bidder-specific points").
POINTS = {
    # the template already asks for "a single enterprise value, expressed in US dollars (USD)": the point
    # is the other currency or basis ruled out, however it is put
    "Rheinwerk": (r"\bEUR\b|\beuros?\b|\bother\s+currenc|\banother\s+currenc|\bcurrency\s+other\s+than|\bnon-USD\b|"
                  r"\b(?:USD|US\s+dollars|U\.S\.\s+dollars)\)?\s+only\b|\bonly\s+in\s+(?:USD|US\s+dollars)|\bsolely\s+in\b",
                  "the price in USD, not EUR"),
    "Alder Creek": (r"\bequity\s+value\b|\bequity\s+basis\b|\bshare\s+price\b|"
                    r"\b(?:price|value)\s+(?:for|of)\s+(?:the\s+)?(?:shares|equity|stock)\b",
                    "an enterprise value, not an equity value"),
    "Marlow Peak": (r"debt schedule|schedule of (?:indebtedness|debt)", "the SPA's debt schedule"),
    "Granite Harbor": (r"employment agreements?|management condition", "the management condition dropped"),
    "Kestrel": (r"schedule a", "the clean-team paragraph"),
}
SUBJECT = r"phase ii process letter"
CLEAN_TEAM = re.compile(r"schedule a|clean team agreement|\b41A\b|\[kestrel only", re.I)


def _letters(ctx, bidder: str) -> list[tuple[int, str, dict]]:
    """The agent's mails titled as a Phase II process letter for ``bidder`` that went to someone outside the
    firm (the draft to Julian is not one)."""
    return [(s, k, m) for s, k, m in _agent_mails(ctx)
            if re.search(SUBJECT, m.get("subject") or "", re.I) and re.search(_short(bidder), m.get("subject") or "", re.I)
            and _outside(recipients(m))]


def letter_problems(ctx, bidder: str, text: str) -> list[str]:
    """The terms every letter states (Julian's template comments), the bidder's own point, no trace of
    another letter (the Kestrel paragraph elsewhere, a template bracket), no other party and no price."""
    d = _d()
    t = normalise(text).replace("**", "")
    p = []
    if not d.dated(t, r"management meetings?|\bmeetings\b", d.DAYS["meetings from"], d.DAYS["meetings to"]):
        p.append("management meetings 2026-05-26 → 2026-06-04 not stated")
    if not d.dated(t, r"\bdue\b|deadline|final proposals?|\bbids?\b|submi\w+", d.DAYS["deadline"]):
        p.append("the 2026-06-25 deadline not stated")
    if not (re.search(r"17:00|5(?::00)?\s*p\.?m\.?", t, re.I) and re.search(r"\bCT\b|central", t, re.I)):
        p.append("not 17:00 CT")
    if not re.search(r"cash[- ]free,?\s*(?:and\s+)?debt[- ]free|\bCFDF\b", t, re.I):
        p.append("cash-free, debt-free missing")
    if not re.search(r"\bUSD\b|US dollars|U\.S\. dollars", t, re.I):
        p.append("USD missing")
    p += d._terms_problems(t)
    rx, what = POINTS[bidder]
    if bidder == "Kestrel":
        if not (re.search(r"schedule a", t, re.I) and re.search(r"clean team agreement", t, re.I)
                and re.search(C.NO_TOUR, t, re.I) and re.search(r"\b41A\b", t)):
            p.append("no clean-team paragraph (Schedule A, CTA, 41A, no plant tour)")
    elif not re.search(rx, t, re.I):
        p.append(f"doesn't ask for {what}")
    elif CLEAN_TEAM.search(t):
        p.append("carries Kestrel's clean-team paragraph")
    if re.search(r"\[(?:Kestrel only|Bidder|Principal|Title|Address|date|NDA date|number|Other recipients)\b", t, re.I):
        p.append("template brackets left")
    if not re.search(rf"\b(?:{_short(bidder)})", t, re.I):
        p.append(f"{bidder} not named")
    own = (bidder, bidder.split()[0])
    tl = re.sub(r"\b\d{1,3}(?:\.\d+)?\s*(?:%|per\s*cent\b|percent\b)(?=\s+of\s+(?:the\s+)?(?:share capital|shares|"
                r"equity|company|issued|varden))", "all", t, flags=re.I)
    leak = list(dict.fromkeys(_j().leaks(tl, own=own) + d._more_leaks(ctx, tl, own=own)))
    if leak:
        p.append("gives away " + ", ".join(leak[:4]))
    return p


def _letter(ctx, i: int):
    """The ``i``-th shortlisted bidder's letter: one mail titled "Project Juniper – Phase II Process Letter –
    <bidder>", to its principal (no one else outside the firm), Victoria and Julian copied, the letter in the
    body with every term and the bidder's own point, nothing attached."""
    bidder = C.shortlist(ctx)[i - 1]
    org = C.FULL_NAMES[bidder]
    mails = _letters(ctx, bidder)
    if len(mails) != 1:
        return False, f"{len(mails)} letters to {org} (one)", []
    _, k, m = mails[0]
    rcpt = recipients(m)
    p = []
    principal = _email(ctx, _long().principal(ctx, org))
    if principal not in [a.lower() for a in m.get("to") or []]:
        p.append(f"not addressed to {principal}")
    if set(_outside(rcpt)) - {principal}:
        p.append(f"also to {sorted(set(_outside(rcpt)) - {principal})}")
    if not {_email(ctx, VICTORIA), _email(ctx, JULIAN)} <= rcpt:
        p.append("Victoria and Julian not both copied")
    if any(str(a["message"]) == k for a in A.records(ctx.final, "mail_attachments").values()):
        p.append("has an attachment")
    p += letter_problems(ctx, bidder, read_as_sent(ctx.final, k, m, principal))
    if p:
        return False, f"{org}: " + "; ".join(p), []
    return True, f"{org}'s letter", [Vouch.of("mail_messages", k, to=_outside(rcpt))]


globals().update(numbered("letter_", _letter, 5))


# ---------------------------------------------------------------- the three who are out
def out_bidders(ctx) -> list[str]:
    """The Round 1 bidders not going through (late, or below the bar), best first."""
    five = set(C.shortlist(ctx))
    return [b for b in C.ranking(ctx) if b not in five]


REASONS = re.compile(r"\blate\b|deadline|\bbelow\b|\bprice\b|pric(?:ed|ing)|valuation|\bbar\b|threshold|cut-?off|"
                     r"\blower\b|\bhigher\b|competitive|other (?:bids|parties|proposals|bidders)", re.I)


def _thanks(ctx, i: int):
    """The ``i``-th out bidder's principal gets one thank-you mail: not invited to the next phase, with no
    reason, no price, no other party, nothing attached or linked (the template's house rule)."""
    bidder = out_bidders(ctx)[i - 1]
    org = C.FULL_NAMES[bidder]
    principal = _email(ctx, _long().principal(ctx, org))
    mails = [(s, k, m) for s, k, m in _agent_mails(ctx) if principal in recipients(m)]
    if len(mails) != 1:
        return False, f"{len(mails)} mails to {principal} (one thank-you)", []
    _, k, m = mails[0]
    rcpt = recipients(m)
    text = normalise(read_as_sent(ctx.final, k, m, principal))
    p = []
    if set(_outside(rcpt)) - {principal}:
        p.append(f"also to {sorted(set(_outside(rcpt)) - {principal})}")
    if not re.search(r"\bthank", text, re.I):
        p.append("no thanks")
    if not _j().DECLINE.search(text) and not re.search(r"decided not to invite|not (?:be )?invit\w*", text, re.I):
        p.append("doesn't say it isn't invited")
    hits = [x.group(0) for x in REASONS.finditer(text)]
    if hits:
        p.append(f"gives a reason {hits[:3]}")
    leak = _j().leaks(text, (bidder, bidder.split()[0]))
    if leak:
        p.append("gives away " + ", ".join(leak[:3]))
    if any(str(a["message"]) == k for a in A.records(ctx.final, "mail_attachments").values()) or _j().LINK.search(text):
        p.append("attaches or links something")
    if p:
        return False, f"{org}: " + "; ".join(p), []
    return True, f"{org} thanked", [Vouch.of("mail_messages", k, to=_outside(rcpt))]


globals().update(numbered("thanks_", _thanks, 3))


def _pulled(ctx, i: int):
    """The ``i``-th out bidder's users are off 0 Phase I (their shares removed)."""
    L = _long()
    org = C.FULL_NAMES[out_bidders(ctx)[i - 1]]
    users = L.phase1_users(ctx, org)
    left = sorted(set(L._shares(ctx.final, L._item(ctx.final, L.PHASE1))) & users)
    if left:
        return False, f"{org}: {left} still on 0 Phase I", []
    gone = [Vouch.of("drive_shares", s) for s, rec in A.records(ctx.initial, "drive_shares").items()
            if str(rec["item"]) == str(L._item(ctx.initial, L.PHASE1)) and rec["person"] in users]
    return True, f"{org}: off 0 Phase I", gone


def _requested(ctx, i: int):
    """One VDR access revocation request for the ``i``-th out bidder alone, naming its users and 0 Phase I."""
    L = _long()
    org = C.FULL_NAMES[out_bidders(ctx)[i - 1]]
    users = L.phase1_users(ctx, org)
    others = [o for o in C.FULL_NAMES.values() if o != org]
    reqs = {k: r for k, r in L._new_requests(ctx, "VDR access revocation").items() if L._party_is(L._vars(r).get("party"), org)}
    shared = [r["number"] for r in reqs.values() if any(L._party_is(L._vars(r).get("party"), o) for o in others)]
    if shared:
        return False, f"{org}: {shared} also names another party (a request each)", []
    if len(reqs) != 1:
        return False, f"{len(reqs)} revocation requests for {org} (one)", []
    k, r = next(iter(reqs.items()))
    v = L._vars(r)
    if not users <= L._users_in(v.get("users"), ctx.final):
        return False, f"{org}: the request's users {v.get('users')!r} miss {sorted(users)}", []
    if "phase i" not in L._norm(v.get("folders")):
        return False, f"{org}: folders {v.get('folders')!r} (want 0 Phase I)", []
    return True, f"{org}: {r['number']}", [Vouch.of("tk_requests", k)]


globals().update(numbered("pulled_", _pulled, 3))
globals().update(numbered("requested_", _requested, 3))


# ---------------------------------------------------------------- the CRM after Round 1
def crm_targets(ctx) -> dict[str, tuple[str, str | None]]:
    """{opportunity slug: (stage, loss reason)}: the five to Negotiation; the out IOI bidders below the bar
    Closed Lost / Price, a late one Closed Lost / Timing; the parties too late to the process (Lakemont,
    Ferro-Tek) Closed Lost / Timing; Harwick, who never engaged, Closed Lost / No Decision."""
    S = world_module(HERE, "checks_state")
    late = C.late_bidders(ctx)
    out = {S.OPPS[b]: ("Negotiation", None) for b in C.shortlist(ctx)}
    for b in out_bidders(ctx):
        out[S.OPPS[b]] = ("Closed Lost", "Timing" if b in late else "Price")
    out.update({"juniper-lakemont": ("Closed Lost", "Timing"), "juniper-ferro-tek": ("Closed Lost", "Timing"),
                "juniper-harwick": ("Closed Lost", "No Decision")})
    return out


def _crm(ctx, slugs: list[str], label: str):
    opps = {r["slug"]: (k, r) for k, r in A.records(ctx.final, "crm_opportunities").items()}
    want = crm_targets(ctx)
    bad, vouches = [], []
    for s in slugs:
        k, r = opps.get(s, (None, None))
        if r is None:
            bad.append(f"{s} gone")
            continue
        stage, reason = want[s]
        if r.get("stage") != stage or (reason and r.get("loss_reason") != reason):
            bad.append(f"{s}: {r.get('stage')}/{r.get('loss_reason')} (want {stage}{'/' + reason if reason else ''})")
        else:
            vouches.append(Vouch.of("crm_opportunities", k, ("stage", "loss_reason", "probability")))
    if bad:
        return False, "; ".join(bad), []
    return True, label, vouches


def crm_five_negotiation(ctx):
    """The five shortlisted bidders' opportunities at Negotiation."""
    return _crm(ctx, [s for s, (st, _) in crm_targets(ctx).items() if st == "Negotiation"], "the five at Negotiation")


def crm_out_bidders_lost(ctx):
    """The out IOI bidders Closed Lost: below the bar Price, late Timing."""
    S = world_module(HERE, "checks_state")
    return _crm(ctx, [S.OPPS[b] for b in out_bidders(ctx)], "Norwell and Corliss Price, Sable Point Timing")


def crm_others_lost(ctx):
    """Lakemont and Ferro-Tek Closed Lost / Timing; Harwick Closed Lost / No Decision."""
    return _crm(ctx, ["juniper-lakemont", "juniper-ferro-tek", "juniper-harwick"], "Lakemont, Ferro-Tek, Harwick closed")


def no_pellham_opportunity(ctx):
    """Gate: still no Pellham opportunity (the account is DO NOT CONTACT)."""
    hits = [r["name"] for r in A.records(ctx.final, "crm_opportunities").values()
            if re.search(r"pellham", f"{r.get('name')} {r.get('slug')}", re.I)]
    return (not hits), (f"Pellham opportunities: {hits}" if hits else "no Pellham opportunity")


# Julian's answer to the draft (coworkers.yaml, his draft trigger): his sign-off.
SIGN_OFF = "reading it now"


def no_letter_before_sign_off(ctx):
    """Gate: no Phase II letter goes to a bidder before Julian has answered the draft: his reply to it
    ("reading it now … send all five", by mail or in the DM, wherever the draft reached him), in the write
    log. Any other exchange with him is not his sign-off."""
    letters = [s for b in C.shortlist(ctx) for s, _, _ in _letters(ctx, b)]
    if not letters:
        return True, "no letter yet", []
    jm = _email(ctx, JULIAN)
    mails, chats = A.records(ctx.final, "mail_messages"), A.records(ctx.final, "chat_messages")
    said = [s for k, s in ctx.written("mail_messages", inserted=True).items()
            if (mails.get(k) or {}).get("sender") == jm and SIGN_OFF in ((mails.get(k) or {}).get("body") or "")]
    said += [s for k, s in ctx.written("chat_messages", inserted=True).items()
             if (chats.get(k) or {}).get("author") == JULIAN and SIGN_OFF in ((chats.get(k) or {}).get("text") or "")]
    answer = min(said, default=None)
    if answer is None or min(letters) < answer:
        return False, "a letter went out before Julian had seen and answered the draft", []
    return True, "every letter after Julian's answer", []
