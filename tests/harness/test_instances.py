"""The task families as shipped: enough instances, honest splits, and a seeded sample of every family
checked the way `deskworld check` does (the full run: `make check-instances`).

The sample keeps CI inside its budget: instances are drawn from a few variants of each world
(``CI_VARIANTS``, compiled once), two per family, each checked once: the second by tools (solution
scores 1, do-nothing 0, every adversary its verdict), the first through the GUI oracle (oracle 1,
do-nothing 0, junk 0). Two variants of every family are exercised for one check's time each."""
from __future__ import annotations

import random
from collections import Counter

import pytest

from harness.qc.adversaries.workbench import Benches
from harness.qc.check import check
from harness.qc.outcomes import outcome
from harness.tasks.registry import load_instance, select_instances

CI_VARIANTS = 6            # non-zero variants per world the sample is drawn from (train, dev and test among them)


@pytest.fixture(scope="module")
def refs():
    return select_instances()


@pytest.fixture(scope="module")
def ci_pool(refs):
    """Every family's instances (more than one) in a few variants of each world."""
    by_world: dict[str, set] = {}
    for r in refs:
        by_world.setdefault(r.world, set()).add(r.variant)
    allowed = {}
    for w, vs in by_world.items():
        rng = random.Random(f"ci:{w}")
        allowed[w] = set(rng.sample(sorted(v for v in vs if v), min(CI_VARIANTS, len(vs) - 1)))
    fams: dict[str, list] = {}
    for r in refs:
        fams.setdefault(r.family, []).append(r)
    return {fam: [r for r in rs if r.variant in allowed[r.world]] or [r for r in rs if r.variant]
            for fam, rs in sorted(fams.items()) if len(rs) > 1}


def _composite(family: str) -> bool:
    from harness.tasks.registry import task_path
    return "\nparts:" in task_path(family).read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def sample(ci_pool):
    """Two instances of every family with more than one, from those variants."""
    return {fam: random.Random(f"ci:{fam}").sample(pool, min(2, len(pool))) for fam, pool in ci_pool.items()}


def test_there_are_thousands_of_instances_in_dozens_of_families(refs):
    fams = Counter(r.family for r in refs)
    splits = Counter(r.split for r in refs)
    assert len(refs) >= 10_000 and len(fams) >= 40, (len(refs), len(fams))
    assert splits["test"] >= 1_000 and splits["dev"] > 0, splits
    assert sum(n > 1 for n in fams.values()) >= 40          # families that vary, not hand-made tasks alone
    assert len({r.id for r in refs}) == len(refs)


def test_no_test_instance_shares_a_variant_or_a_split_param_with_train(refs):
    train_variants = {(r.world, r.variant) for r in refs if r.split == "train"}
    assert not [r.id for r in refs if r.split == "test" and (r.world, r.variant) in train_variants]
    from harness.tasks.families import all_families
    from harness.tasks.splits import _param_split
    for fam in all_families():
        for i, p in enumerate(fam.params):
            keys = {r.keys[i] for r in refs if r.family == fam.id and r.split == "test"}
            assert all(_param_split(fam, p.name, k) in (None, "test") for k in keys), (fam.id, p.name)


def test_every_instance_of_the_sample_renders_and_validates(sample):
    for fam, rs in sample.items():
        for r in rs:
            t = load_instance(r)
            assert t.id == r.id and t.family == fam and t.variant == r.variant and t.split == r.split


def test_instances_of_a_family_expect_different_things(ci_pool):
    """The hand-made task and a family's instances in the CI variants don't all expect the same answer
    or end state (`deskworld tasks --instances --outcomes 50` prints the count over fifty)."""
    from harness.tasks.registry import load_task
    benches = Benches()
    same = []
    try:
        for fam, pool in ci_pool.items():
            seen = {outcome(load_task(fam), benches)} | {outcome(load_instance(r), benches) for r in pool[:8]}
            if len(seen) < 2:
                same.append(fam)
    finally:
        benches.close()
    assert not same, f"every instance of these families in the CI variants expects the same: {same}"


def test_a_seeded_sample_of_every_family_passes_the_tool_check(sample):
    """The second sampled instance of every family (the first goes through the browser below)."""
    ids = [rs[-1].id for rs in sample.values()]
    reports, overall = check(ids, workers=2, tools_only=True, adversaries=True)
    bad = {r.task: r.problems + r.adversaries.problems + [
        f"{o.name}: {o.why or o.error}" for o in r.adversaries.false_passes + r.adversaries.false_fails
        + r.adversaries.errors] for r in reports if not r.ok}
    assert not bad and not overall, (bad, overall)


def test_one_instance_of_every_family_passes_the_gui_oracle_and_do_nothing(sample):
    """The GUI oracle scores 1 on an instance of a non-zero variant, doing nothing 0, junk answers 0
    (the adversaries ran on the family's other sampled instance in the tool check above). A composite (``parts:``)
    is its parts' oracles in a row, and each part is a family sampled here on its own; its GUI run
    (minutes) is in ``test_runner``'s check of every hand-made task, so it is left out here."""
    ids = [rs[0].id for fam, rs in sample.items() if not _composite(fam)]
    assert len(ids) >= 40                     # every family but the composites: dozens in the browser
    reports, overall = check(ids, workers=2)
    bad = {r.task: r.problems for r in reports if not r.ok}
    assert not bad and not overall, (bad, overall)
    assert all(r.oracle_score == 1 and r.noop_score == 0 for r in reports)
