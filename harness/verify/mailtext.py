"""What the recipient of a mail reads as its sender's own words.

The mail app quotes the message a reply answers below it ("On … <sender> wrote:" and the message, line by
line, apps/mail/compose.py ``quote``) and appends the message a forward carries ("---------- Forwarded
message ---------"); a writer may also keep a few "> " lines of the conversation. Those are the earlier
messages, not the sender's words. Anything else is — a "quote" of text nobody wrote before, or whatever
follows a made-up "On Friday Victoria wrote:" line — so a check that reads what an outsider was told
can't be fooled by dressing new text up as a quotation.
"""
from __future__ import annotations

import re

FORWARDED = "---------- Forwarded message ---------"
_PREFIX = re.compile(r"^\s*(?:(?:re|fwd?|aw|wg)\s*:\s*)+", re.I)


def recipients(m: dict) -> set[str]:
    return {a.lower() for a in (m.get("to") or []) + (m.get("cc") or []) + (m.get("bcc") or [])}


def _quoted(body: str) -> str:
    return "\n".join("> " + line if line else ">" for line in (body or "").splitlines())


def _flat(line: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"^(?:\s*>)+", "", line)).strip().lower()


def earlier(export: dict, key: str, m: dict, reader: str | None = None) -> dict[str, dict]:
    """The earlier messages of the mail's conversation (and the one it replies to or forwards) that
    ``reader`` (an address) already had, sent or received; any reader when None."""
    refs = {str(m.get("in_reply_to")), str(m.get("forward_of"))}
    out = {}
    for ek, e in export["tables"]["mail_messages"]["records"].items():
        if ek == str(key) or (e.get("sent_at") or "") > (m.get("sent_at") or ""):
            continue
        if str(e.get("thread")) != str(m.get("thread")) and ek not in refs:
            continue
        if reader and reader not in recipients(e) | {(e.get("sender") or "").lower()}:
            continue
        out[ek] = e
    return out


def own_words(export: dict, key: str, m: dict, reader: str | None = None) -> str:
    """Mail ``key``'s body without the earlier message it really quotes below a reply or appends to a
    forward, and without "> " lines quoted from an earlier message ``reader`` already had."""
    body = (m.get("body") or "").rstrip()
    before = earlier(export, key, m, reader)
    rid, fid = str(m.get("in_reply_to")), str(m.get("forward_of"))
    if rid in before:
        e = before[rid]
        q = _quoted(e.get("body")).rstrip()
        if q and body.endswith(q):
            lines = body[:len(body) - len(q)].rstrip("\n").split("\n")
            if re.match(r"On .* wrote:$", lines[-1]) and (e.get("sender") or "").lower() in lines[-1].lower():
                body = "\n".join(lines[:-1]).rstrip()
    if fid in before:
        e = before[fid]
        marker = body.rfind(FORWARDED)
        if marker >= 0 and body.endswith((e.get("body") or "").rstrip()) \
                and (e.get("sender") or "").lower() in body[marker:].split("\n\n")[0].lower():
            body = body[:marker].rstrip()
    seen = [" ".join(_flat(ln) for ln in (e.get("body") or "").splitlines()) for e in before.values()]
    return "\n".join(line for line in body.splitlines()
                     if not (re.match(r"\s*>", line) and (not _flat(line) or any(_flat(line) in e for e in seen))))


def new_subject(export: dict, key: str, m: dict, reader: str | None = None) -> str:
    """The mail's subject, unless it is its conversation's own (with Re:/Fwd:)."""
    subj = m.get("subject") or ""
    bare = _PREFIX.sub("", subj).strip().lower()
    if any(bare == _PREFIX.sub("", e.get("subject") or "").strip().lower()
           for e in earlier(export, key, m, reader).values()):
        return ""
    return subj


def read_as_sent(export: dict, key: str, m: dict, reader: str | None = None) -> str:
    """Subject (when new) and own words: what the mail tells ``reader``."""
    return f"{new_subject(export, key, m, reader)}\n{own_words(export, key, m, reader)}"
