"""Checks of the meridian tasks that need the editors' newer features: suggested edits, charts, tables,
objects on slides. Expected values come from the world's start state (the clause as it stood, the claims
on the model's Claims tab), never typed by hand; the guard fails any write a check does not vouch for.
"""
from __future__ import annotations

from pathlib import Path

from apps.docs.suggest import apply as apply_suggestions
from harness.verify import artifacts as A
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
