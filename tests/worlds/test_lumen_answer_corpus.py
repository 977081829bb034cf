"""Labelled answers for the lumen answer families added with the world's facts (issue 17), in the
format of tests/harness/answer_corpus.yaml, checked the way that corpus is: the matcher must read
each answer as the person who labelled it did (on the hand-made instance, variant 0).

These entries belong in tests/harness/answer_corpus.yaml (its coverage test wants every answer task
there); they live here until they are moved, because this branch only adds files under tests/worlds/.
"""
from __future__ import annotations

import pytest
import yaml

from apps.core.store.compile import template_for
from apps.core.store.export import export
from apps.core.store.slot import Slot
from apps.core.world import load_world
from harness.tasks.registry import load_task
from harness.verify import expected_answer, people_names, world_day
from harness.verify.answer import match_answer

ENTRIES = yaml.safe_load(r"""
- task: lumen/harrowgate-arr
  answer: 'ANSWER: $480,000'
  correct: true
  why: oracle form
- task: lumen/harrowgate-arr
  answer: 'FY26 renewal $420,000 + seat expansion $60,000. ANSWER: $480,000'
  correct: true
  why: the sum shown before the answer
- task: lumen/harrowgate-arr
  answer: 'ANSWER: $480K'
  correct: true
  why: in thousands
- task: lumen/harrowgate-arr
  answer: Harrowgate's ARR is 480,000 dollars a year.
  correct: true
  why: no marker, one figure
- task: lumen/harrowgate-arr
  answer: 'ANSWER: $0.48M'
  correct: true
  why: in millions
- task: lumen/harrowgate-arr
  answer: 'ANSWER: $420,000'
  correct: false
  why: last year's renewal without the seat expansion
- task: lumen/harrowgate-arr
  answer: 'ANSWER: $552,000'
  correct: false
  why: the open Lineage Add-on added in
- task: lumen/harrowgate-arr
  answer: 'ANSWER: $480,000 or $420,000'
  correct: false
  why: a hedge
- task: lumen/harrowgate-arr
  answer: 'ANSWER: $60,000'
  correct: false
  why: the seat expansion alone
- task: lumen/q2-best-case
  answer: 'ANSWER: $3,881,000'
  correct: true
  why: oracle form
- task: lumen/q2-best-case
  answer: 'Closed Won $1,721,000 + Negotiation $1,584,000 + Proposal $576,000. ANSWER: $3,881,000'
  correct: true
  why: the parts before the total
- task: lumen/q2-best-case
  answer: 'ANSWER: $3.881 million'
  correct: true
  why: in millions, to the dollar
- task: lumen/q2-best-case
  answer: The best case for Q2 is 3881000 USD.
  correct: true
  why: no marker, currency code
- task: lumen/q2-best-case
  answer: 'ANSWER: $3,305,000'
  correct: false
  why: the commit, without Proposal
- task: lumen/q2-best-case
  answer: 'ANSWER: $3.88M'
  correct: false
  why: the rounded chat figure is not the amount to the dollar
- task: lumen/q2-best-case
  answer: 'ANSWER: $4,097,000'
  correct: false
  why: Closed Lost added in
- task: lumen/q2-best-case
  answer: 'ANSWER: between $3.8M and $3.9M'
  correct: false
  why: a range
- task: lumen/q2-closed-won
  answer: 'ANSWER: $1,721,000'
  correct: true
  why: oracle form
- task: lumen/q2-closed-won
  answer: 'Twenty deals, $1,721,000 in all (50.6% of quota). ANSWER: $1.721 million'
  correct: true
  why: the share of quota is an explanation
- task: lumen/q2-closed-won
  answer: 'ANSWER: 1721000'
  correct: true
  why: no separators
- task: lumen/q2-closed-won
  answer: Closed-won to date this quarter is $1,721,000.
  correct: true
  why: no marker
- task: lumen/q2-closed-won
  answer: 'ANSWER: $3,305,000'
  correct: false
  why: the commit
- task: lumen/q2-closed-won
  answer: 'ANSWER: $3,400,000'
  correct: false
  why: the quota
- task: lumen/q2-closed-won
  answer: 'ANSWER: $1.72M'
  correct: false
  why: the rounded figure from the mail is not the amount to the dollar
- task: lumen/q2-closed-won
  answer: 'ANSWER: $1,349,000'
  correct: false
  why: the Northloop renewal left out
- task: lumen/meadowline-overcharge
  answer: 'ANSWER: $9,000'
  correct: true
  why: oracle form
- task: lumen/meadowline-overcharge
  answer: '15 extra seats at $600 each. ANSWER: $9,000'
  correct: true
  why: the working before the answer
- task: lumen/meadowline-overcharge
  answer: 'ANSWER: $9K'
  correct: true
  why: in thousands
- task: lumen/meadowline-overcharge
  answer: They were overcharged 9000 dollars on INV-2026-0533.
  correct: true
  why: the invoice number is not a competing figure
- task: lumen/meadowline-overcharge
  answer: 'ANSWER: $36,000'
  correct: false
  why: the invoice total
- task: lumen/meadowline-overcharge
  answer: 'ANSWER: 15'
  correct: false
  why: the seats, not dollars
- task: lumen/meadowline-overcharge
  answer: 'ANSWER: $120,000'
  correct: false
  why: Harrowgate's paid invoice
- task: lumen/meadowline-overcharge
  answer: 'ANSWER: $9,000 or $36,000'
  correct: false
  why: a hedge
- task: lumen/deal-amount
  answer: 'ANSWER: $402,000'
  correct: true
  why: oracle form
- task: lumen/deal-amount
  answer: 'Negotiation, $402,000. ANSWER: $402K'
  correct: true
  why: in thousands after the stage
- task: lumen/deal-amount
  answer: The Brightvault renewal is 402,000 dollars.
  correct: true
  why: no marker
- task: lumen/deal-amount
  answer: 'ANSWER: 402000'
  correct: true
  why: plain digits
- task: lumen/deal-amount
  answer: 'ANSWER: $96,000'
  correct: false
  why: Brightvault's other deal (Regulatory Reporting Pack)
- task: lumen/deal-amount
  answer: 'ANSWER: $480,000'
  correct: false
  why: another deal's amount
- task: lumen/deal-amount
  answer: 'ANSWER: $40,200'
  correct: false
  why: a digit dropped
- task: lumen/deal-amount
  answer: 'ANSWER: about $400K'
  correct: false
  why: rounded
- task: lumen/billing-resolved-list
  answer: 'ANSWER: INC0010408, INC0010413, INC0010427'
  correct: true
  why: oracle form
- task: lumen/billing-resolved-list
  answer: 'ANSWER: INC0010427, INC0010408 and INC0010413'
  correct: true
  why: any order, "and"
- task: lumen/billing-resolved-list
  answer: 'Three are Resolved (INC0010434 is On Hold). ANSWER: INC0010408, INC0010413, INC0010427'
  correct: true
  why: the On Hold one named before the answer
- task: lumen/billing-resolved-list
  answer: |-
    ANSWER:
    - INC0010408
    - INC0010413
    - INC0010427
  correct: true
  why: a bulleted list
- task: lumen/billing-resolved-list
  answer: 'ANSWER: INC0010408, INC0010413'
  correct: false
  why: one left out
- task: lumen/billing-resolved-list
  answer: 'ANSWER: INC0010408, INC0010413, INC0010427, INC0010434'
  correct: false
  why: the On Hold incident added
- task: lumen/billing-resolved-list
  answer: 'ANSWER: INC0010408, INC0010412, INC0010413, INC0010427'
  correct: false
  why: another group's Resolved incident added
- task: lumen/billing-resolved-list
  answer: 'ANSWER: N/A'
  correct: false
  why: no answer
""")


@pytest.fixture(scope="module")
def start():
    slot = Slot(template_for("lumen"))
    with slot.store() as st:
        out = export(st)
    slot.close()
    return out


def test_every_new_answer_family_has_four_of_each():
    tasks = {e["task"] for e in ENTRIES}
    for tid in tasks:
        labels = [e["correct"] for e in ENTRIES if e["task"] == tid]
        assert labels.count(True) >= 4 and labels.count(False) >= 4, tid


@pytest.mark.parametrize("entry", ENTRIES, ids=[f"{e['task']}:{i}" for i, e in enumerate(ENTRIES)])
def test_the_matcher_reads_each_answer_as_the_person_did(entry, start):
    task = load_task(entry["task"])
    exp = expected_answer(task, start, load_world(task.world).root)
    r = match_answer(task.answer, entry["answer"], exp, today=world_day(start), names=people_names(start))
    assert r.passed == entry["correct"], f"{entry['why']}: {r.line()}"
