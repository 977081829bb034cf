"""The answer matcher agrees with a corpus of realistic answers labelled by a person
(tests/harness/answer_corpus.yaml: every answer task, correct and wrong strings)."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from apps.core.store.compile import template_for
from apps.core.store.export import export
from apps.core.store.slot import Slot
from harness.tasks.registry import load_task
from harness.verify import expected_answer, org_names, people_names, world_day
from harness.verify.answer import match_answer

CORPUS = yaml.safe_load((Path(__file__).parent / "answer_corpus.yaml").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def starts():
    out = {}
    for w in sorted({e["task"].split("/")[0] for e in CORPUS}):
        slot = Slot(template_for(w))
        with slot.store() as st:
            out[w] = export(st)
        slot.close()
    return out


def test_the_corpus_is_big_and_covers_every_answer_task():
    from harness.tasks.registry import all_tasks
    answer_tasks = {t.id for t in all_tasks() if t.answer is not None}
    assert len(CORPUS) >= 300
    assert {e["task"] for e in CORPUS} == answer_tasks
    for tid in answer_tasks:
        labels = [e["correct"] for e in CORPUS if e["task"] == tid]
        assert labels.count(True) >= 4 and labels.count(False) >= 4, tid


@pytest.mark.parametrize("entry", CORPUS, ids=[f"{e['task']}:{i}" for i, e in enumerate(CORPUS)])
def test_the_matcher_reads_each_answer_as_the_person_did(entry, starts):
    task = load_task(entry["task"])
    start = starts[task.world]
    from apps.core.world import load_world
    exp = expected_answer(task, start, load_world(task.world).root)
    r = match_answer(task.answer, entry["answer"], exp, today=world_day(start), names=people_names(start),
                     orgs=org_names(start))
    assert r.passed == entry["correct"], f"{entry['why']}: {r.line()}"
