"""The Phase II letters' reader (worlds/halden/checks_launch.py) on the letters the task's own solution sends,
and on each of them broken one way: a term taken back, the bidder's own point missing, Kestrel's clean-team
paragraph in another bidder's letter, a bracket of the template left in, another bidder or a price given
away. The task's adversaries can only add mail after the solution (a sent letter can't be edited), so the
reader is tested here on the text itself."""
from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from harness.tasks.registry import load_task
from harness.verify.checks import world_module

from apps.core.world import load_world

SOURCE = Path(__file__).resolve().parents[2] / "worlds" / "halden"
ROOT = load_world("halden").root          # the published world rendered
L = world_module(SOURCE, "checks_launch")


def _letters() -> dict[str, str]:
    t = load_task("halden/phase-ii-letters")
    out = {}
    for s in t.solution:
        if s.call == "mail.send":
            bidder = s.args["subject"].rsplit("– ", 1)[1]
            out[bidder] = s.args["body"]
    return out


LETTERS = _letters()
CTX = SimpleNamespace(world_root=str(ROOT))


def test_the_solutions_letters_are_clean():
    assert sorted(LETTERS) == ["Alder Creek", "Granite Harbor", "Kestrel", "Marlow Peak", "Rheinwerk"]
    for bidder, text in LETTERS.items():
        assert L.letter_problems(CTX, bidder, text) == [], bidder


@pytest.mark.parametrize("bidder, change, want", [
    ("Marlow Peak", lambda t: t.replace("is binding and irrevocable", "need not be binding and is revocable"), "binding taken back"),
    ("Granite Harbor", lambda t: t.replace("must not be subject to any financing condition", "may be subject to a financing condition"),
     "financed taken back"),
    ("Alder Creek", lambda t: t.replace("Thursday, 2026-06-25, 17:00 CT", "Friday, 2026-06-26, 17:00 CT")
     .replace("17:00 CT on Thursday, 2026-06-25", "17:00 CT on Friday, 2026-06-26"), "deadline"),
    ("Rheinwerk", lambda t: t.replace("Currency. Please state your Final Proposal in US dollars (USD), not in EUR: the Sellers will "
                                      "compare Final Proposals in USD only and will not translate a price stated in another currency.", ""),
     "the price in USD, not EUR"),
    ("Granite Harbor", lambda t: t.replace("Management. Your Final Proposal must not be conditional on the Company's CEO, CFO or COO "
                                           "entering into new employment agreements with you at signing; please drop the management "
                                           "condition set out in your indication of interest.", ""), "management condition"),
    ("Marlow Peak", lambda t: t.replace("debt schedule", "definitions"), "debt schedule"),
    ("Alder Creek", lambda t: t.replace("not as an equity value", "as before"), "not an equity value"),
    ("Kestrel", lambda t: t.replace("Conference Room 41A", "Conference Room 12B"), "clean-team paragraph"),
    ("Alder Creek", lambda t: t + "\n\nClean team. Named contracts go to the individuals in Schedule A to the Clean Team Agreement.",
     "clean-team paragraph"),
    ("Rheinwerk", lambda t: t.replace("Dear Dr. Vogel:", "Dear [Principal]:"), "template brackets"),
    ("Granite Harbor", lambda t: t + "\n\nFor context, the top indication was $424.5m.", "gives away"),
    ("Kestrel", lambda t: t + "\n\nRheinwerk and Marlow Peak are also in Phase II.", "gives away"),
])
def test_a_broken_letter_is_found_out(bidder, change, want):
    text = change(LETTERS[bidder])
    assert text != LETTERS[bidder]
    problems = L.letter_problems(CTX, bidder, text)
    assert any(want in p for p in problems), problems


def test_no_letter_goes_before_julian_has_answered_the_draft():
    """The launch day's gate reads the write log: the draft to Julian alone, his answer after it, then the
    letters. The tools can't put a letter between the draft and his answer (he answers between calls), so
    the same end state is tried with the letter's write moved before his answer."""
    import copy

    from harness.qc.adversaries.workbench import Workbench
    from harness.verify.checks import Ctx

    task = load_task("halden/phase-ii-launch")
    [early] = [a for a in task.adversaries if a.name == "a-letter-before-the-draft"]
    letter, draft, wait = early.steps[0], early.steps[1:-1], early.steps[-1]
    bench = Workbench("halden")
    try:
        end = bench.attempt(task, [*draft, wait, letter, wait]).final
        initial, root = bench.initial, bench.world.root
    finally:
        bench.close()

    def gate(final):
        return L.no_letter_before_sign_off(Ctx(initial=initial, final=final, diff={"tables": {}}, world_root=root, task=task))

    assert gate(end)[0], gate(end)
    mails = end["tables"]["mail_messages"]["records"]
    start = max((w["seq"] for w in initial.get("writes", [])), default=0)
    new = [w for w in end["writes"] if w["seq"] > start and w["table"] == "mail_messages" and w.get("op", "insert") == "insert"]
    julian = [w for w in new if mails[w["key"]]["sender"].startswith("julian.pierce@")]
    sent = [w for w in new if "Phase II Process Letter – Rheinwerk" in (mails[w["key"]].get("subject") or "")]
    assert julian and sent and min(w["seq"] for w in julian) < min(w["seq"] for w in sent)
    moved = copy.deepcopy(end)
    a, b = min(julian, key=lambda w: w["seq"])["seq"], min(sent, key=lambda w: w["seq"])["seq"]
    for w in moved["writes"]:
        if w["seq"] == a:
            w["seq"] = b
        elif w["seq"] == b:
            w["seq"] = a
    ok, why, *_ = gate(moved)
    assert not ok and "before Julian" in why
