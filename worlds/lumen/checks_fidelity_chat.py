"""Checks of the lumen tasks that need Chat's channel settings (rename), Save for later and Mark unread.
Channels and messages are found by their name and text in the start state, never by typed keys; the
guard fails any write a check does not vouch for.
"""
from __future__ import annotations

USER = "jordan.blake"


def _channel(ctx, name: str) -> str:
    start = ctx.initial["tables"]["chat_conversations"]["records"]
    hits = [k for k, r in start.items() if r["kind"] == "channel" and r["name"] == name]
    if len(hits) != 1:
        raise LookupError(f"expected one channel #{name} at the start, found {len(hits)}")
    return hits[0]


def _message(ctx, channel: str, author: str, starts: str) -> str:
    """The start state's one message in #channel by ``author`` whose text starts with ``starts``."""
    conv = _channel(ctx, channel)
    start = ctx.initial["tables"]["chat_messages"]["records"]
    hits = [k for k, r in start.items() if str(r["conversation"]) == conv and r["author"] == author
            and (r["text"] or "").startswith(starts)]
    if len(hits) != 1:
        raise LookupError(f"expected one message by {author} in #{channel} starting {starts!r}, found {len(hits)}")
    return hits[0]


# ---------------------------------------------------------------- lumen/rename-support-channel
NEW_NAME = "service-desk"


def support_renamed(ctx):
    key = _channel(ctx, "support")
    got = ctx.records("chat_conversations")[key]["name"]
    return got == NEW_NAME, f"the support team's channel is #{got}", {"chat_conversations": {key: ["name"]}}


def support_channel_otherwise_unchanged(ctx):
    """Still public, not archived, same topic and purpose: only its name changed."""
    key = _channel(ctx, "support")
    a, b = ctx.initial["tables"]["chat_conversations"]["records"][key], ctx.records("chat_conversations")[key]
    diff = [f for f in ("topic", "purpose", "private", "archived") if a[f] != b[f]]
    return not diff, f"fields changed besides the name: {diff or 'none'}"


def oncall_channel_untouched(ctx):
    key = _channel(ctx, "support-oncall")
    a, b = ctx.initial["tables"]["chat_conversations"]["records"][key], ctx.records("chat_conversations")[key]
    return a == b, f"#support-oncall is {'unchanged' if a == b else 'changed: now #' + str(b['name'])}"


def no_channel_added(ctx):
    added = [r.get("name") for r in ctx.added_by_agent("chat_conversations").values()]
    return not added, f"channels created: {added or 'none'}"


# ---------------------------------------------------------------- lumen/save-meadowline-addon-unread-quarry
SAVE = ("sales", "miguel.santos", "Closed Won: Meadowline Health – Lineage Add-on")
UNREAD = ("sales", "rachel.kim", "Quarry Lane decision comes Monday")


def addon_saved(ctx):
    mid = _message(ctx, *SAVE)
    rows = {k: r for k, r in ctx.added_by_agent("chat_saved").items() if str(r["message"]) == mid
            and r["person"] == USER}
    return bool(rows), f"{len(rows)} saved-for-later row(s) for the Meadowline add-on post", {"chat_saved": list(rows)}


def only_that_saved(ctx):
    """Nothing else saved for later (the renewal post, the Greenbasket add-on…)."""
    mid = _message(ctx, *SAVE)
    start = {(r["message"], r["person"]) for r in ctx.initial["tables"]["chat_saved"]["records"].values()}
    other = sorted(str(r["message"]) for r in ctx.records("chat_saved").values()
                   if (r["message"], r["person"]) not in start and str(r["message"]) != mid)
    return not other, f"other messages saved: {other or 'none'}"


def quarry_call_unread(ctx):
    """The sales channel reads unread from Rachel's heads-up on who Quarry Lane was weighing (not her later
    call update, which was unread already): Jordan's read marker sits on the message just before it."""
    conv = _channel(ctx, UNREAD[0])
    mid = int(_message(ctx, *UNREAD))
    before = max(int(k) for k, r in ctx.initial["tables"]["chat_messages"]["records"].items()
                 if str(r["conversation"]) == conv and int(k) < mid)
    marks = [r for r in ctx.records("chat_members").values() if str(r["conversation"]) == conv and r["person"] == USER]
    got = marks[0]["last_read"] if marks else None
    return got == before, f"Jordan's read marker in #sales is {got} (unread from {mid} means {before})"


def nothing_pinned(ctx):
    start = ctx.initial["tables"]["chat_messages"]["records"]
    changed = sorted(k for k, r in ctx.records("chat_messages").items() if k in start
                     and bool(r["pinned"]) != bool(start[k]["pinned"]))
    return not changed, f"messages pinned or un-pinned: {changed or 'none'}"
