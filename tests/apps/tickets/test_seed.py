"""Seeding the service desk from world files: the lumen data loads; a bad file is a WorldError naming the file
and the field; a world without tickets/ seeds nothing."""
from __future__ import annotations

import textwrap

import pytest

from apps.core.world import World, WorldError, load_world
from apps.tickets import seed as tk_seed
from apps.tickets import service as S

GROUPS = """
groups:
  - {name: QA Ops, members: [kofi.mensah, ines.duarte], manager: kofi.mensah}
"""
KB = """
kb:
  - {number: KB0009001, title: "QA article", category: Process, author: kofi.mensah, published: "2026-01-02T10:00:00", body: "Hello **world**"}
"""
CATALOG = """
catalog:
  - name: "QA item"
    category: Hardware
    fields:
      - {name: model, label: Model, type: choice, choices: [A, B], required: true}
"""
INCIDENTS = """
incidents:
  - number: INC0090001
    short_description: "QA incident"
    caller: nadia.fell
    account: harrowgate
    category: Pipelines
    impact: High
    urgency: Medium
    state: In Progress
    group: QA Ops
    assignee: ines.duarte
    opened: "2026-06-08T10:00:00"
    kb: [KB0009001]
    journal:
      - {kind: work_note, by: ines.duarte, at: "2026-06-08T11:00:00", text: "Looking"}
"""
REQUESTS = """
requests:
  - {number: REQ0090001, item: "QA item", requested_for: rachel.kim, variables: {model: A}, state: Open, opened: "2026-06-01T10:00:00"}
"""
CHANGES = """
changes:
  - {number: CHG0090001, short_description: "QA change", risk: Low, state: Scheduled, planned_start: "2026-06-10T20:00:00", planned_end: "2026-06-10T21:00:00", group: QA Ops, assignee: kofi.mensah, opened: "2026-06-01T10:00:00"}
"""
BASE = {"groups.yaml": GROUPS, "kb.yaml": KB, "catalog.yaml": CATALOG, "incidents.yaml": INCIDENTS,
        "requests.yaml": REQUESTS, "changes.yaml": CHANGES}


@pytest.fixture(scope="module")
def lumen():
    return load_world("lumen")


def world_with(base: World, tmp_path, files: dict[str, str]) -> World:
    (tmp_path / "tickets").mkdir(exist_ok=True)
    for name, text in files.items():
        (tmp_path / "tickets" / name).write_text(textwrap.dedent(text), encoding="utf-8")
    return World(tmp_path, base.spec)


def test_the_lumen_data_loads(st):
    assert st.scalar("SELECT count(*) FROM tk_incidents") >= 100
    assert st.scalar("SELECT count(*) FROM tk_kb") >= 25
    names = {r["name"] for r in st.select("tk_catalog")}
    assert {"New laptop", "Access to a tool", "Report a billing discrepancy"} <= names
    assert {r["name"] for r in st.select("tk_groups")} >= {"Pipeline Ops", "Platform Infra", "Billing Ops",
                                                          "Identity & Access"}
    for row in st.select("tk_incidents"):
        assert row["priority"] == S.priority_of(row["impact"], row["urgency"])
        assert row["sla_due"] == S.sla_due(row["opened_at"], row["priority"])


def test_a_valid_file_set_seeds_everything(st, lumen, tmp_path):
    tk_seed.seed(st, world_with(lumen, tmp_path, BASE))
    inc = S.get_incident(st, "jordan.blake", "INC0090001")
    assert inc["priority"] == 2 and inc["opened_at"] == "2026-06-08T15:00:00Z" and inc["group_name"] == "QA Ops"
    assert inc["sla_due"] == "2026-06-08T23:00:00Z" and inc["caller_name"] == "Nadia Fell"
    assert [a["number"] for a in S.attached_kb(st, "jordan.blake", "incident", "INC0090001")] == ["KB0009001"]
    assert [j["text"] for j in S.journal(st, "jordan.blake", "incident", "INC0090001")] == ["Looking"]
    req = S.get_request(st, "jordan.blake", "REQ0090001")
    assert req["state"] == "New" and req["variables"] == {"model": "A"}           # "Open" is ServiceNow's New
    assert S.get_change(st, "jordan.blake", "CHG0090001")["planned_end"] == "2026-06-11T02:00:00Z"


def test_a_world_without_tickets_seeds_nothing(st, lumen, tmp_path):
    before = st.scalar("SELECT count(*) FROM tk_incidents")
    tk_seed.seed(st, World(tmp_path, lumen.spec))
    assert st.scalar("SELECT count(*) FROM tk_incidents") == before


@pytest.mark.parametrize("name, old, new, error", [
    ("incidents.yaml", "impact: High", "impact: Huge", "incidents.0.impact"),
    ("incidents.yaml", "caller: nadia.fell", "caller: no.body", "incidents.0.caller: 'no.body' is not a person"),
    ("incidents.yaml", "account: harrowgate", "account: nowhere-inc", "incidents.0.account: 'nowhere-inc' is not a CRM account"),
    ("incidents.yaml", "assignee: ines.duarte", "assignee: lena.fischer", "incidents.0.assignee: 'lena.fischer' is not a member of 'QA Ops'"),
    ("incidents.yaml", "group: QA Ops", "group: Nope", "incidents.0.group: 'Nope' is not a group"),
    ("incidents.yaml", "kb: [KB0009001]", "kb: [KB0000000]", "incidents.0.kb.0: 'KB0000000' is not an article"),
    ("incidents.yaml", "number: INC0090001", "number: INC-1", "incidents.0.number"),
    ("incidents.yaml", "state: In Progress", "state: In Progress\n    priority: 1", "incidents.0.priority: Extra inputs are not permitted"),
    ("incidents.yaml", '"2026-06-08T10:00:00"', '"2026-07-08T10:00:00"', "incidents.0.opened: 2026-07-08T10:00:00 is after the world clock"),
    ("incidents.yaml", '"2026-06-08T11:00:00"', '"2026-06-08T09:00:00"', "incidents.0.journal.0.at: before the record was opened"),
    ("incidents.yaml", "kind: work_note", "kind: shout", "incidents.0.journal.0.kind"),
    ("requests.yaml", 'item: "QA item"', 'item: "Pony"', "requests.0.item: 'Pony' is not an item"),
    ("requests.yaml", "model: A", "model: Z", "requests.0.variables.model"),
    ("requests.yaml", "state: Open", "state: Dancing", "requests.0.state"),
    ("changes.yaml", "risk: Low", "risk: Extreme", "changes.0.risk"),
    ("changes.yaml", '"2026-06-10T21:00:00"', '"2026-06-10T19:00:00"', "changes.0.planned_end: not after planned_start"),
    ("groups.yaml", "[kofi.mensah, ines.duarte]", "[kofi.mensah, ghost]", "groups.0.members.1: 'ghost' is not a person"),
    ("catalog.yaml", "choices: [A, B], ", "", "catalog.0.fields.0.choices: a choice field needs choices"),
    ("kb.yaml", "author: kofi.mensah", "author: nobody", "kb.0.author: 'nobody' is not a person"),
])
def test_bad_world_files_are_clear_errors(st, lumen, tmp_path, name, old, new, error):
    files = dict(BASE)
    assert old in files[name]
    files[name] = files[name].replace(old, new, 1)
    with pytest.raises(WorldError) as e:
        tk_seed.seed(st, world_with(lumen, tmp_path, files))
    assert error in str(e.value)
    assert str(tmp_path / "tickets" / name) in str(e.value)


def test_duplicate_numbers(st, lumen, tmp_path):
    files = dict(BASE, **{"incidents.yaml": INCIDENTS + INCIDENTS.replace("incidents:\n", "")})
    with pytest.raises(WorldError, match=r"incidents.1.number: duplicate number INC0090001"):
        tk_seed.seed(st, world_with(lumen, tmp_path, files))
